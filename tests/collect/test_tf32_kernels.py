"""A trace collected under a variant declared fp32 whose convolution or GEMM
kernels ran TF32 tensor-core math (their names say so) is recorded with a
note saying so, never refused: PyTorch lets cuDNN convolutions run TF32 by
default on Ampere and newer GPUs. Before, nothing said it."""

from __future__ import annotations

import json

import pytest

from studygen.collect.tf32 import is_tf32_kernel, tf32_note
from tests.collect.conftest import TORCH
from tests.conftest import FIXTURES

ALEXNET = TORCH / "alexnet_kineto_trace.json.gz"  # A100; 79 kernel launches, 10692 us in all
DLRM = FIXTURES / "public" / "hta_timeline_analysis_sampled_rank-0.json.gz"  # A100; 1154 launches, 606519 us


@pytest.mark.parametrize("name", [
    "sm86_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_stage5_warpsize2x2x1",
    "sm90_xmma_gemm_tf32f32_tf32f32_f32_nt_n_tilesize128x64x32_warpgroupsize1x1x1_execute_kernel__5x_cublas",
    "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_128x64_16x4_nhwc_align2>(Params)",
    "void cutlass::Kernel<cutlass_80_tensorop_s1684gemm_64x128_16x5_nn_align2>(cutlass_80_tensorop_s1684gemm::P)",
    "ampere_s1688gemm_64x64_sliced1x2_ldg4_nt",
    "cutlass_tensorop_s1688tf32gemm_128x256_16x3_tn_align4",  # CUTLASS's library: TF32 math of FP32 operands
    "void cutlass::Kernel<cutlass_75_tensorop_s1688gemm_64x64_32x2_nn_align1>(Params)",  # cuBLAS's: the arch named
])
def test_names_that_say_tf32(name):
    assert is_tf32_kernel(name)


@pytest.mark.parametrize("name", [
    "ampere_sgemm_64x32_sliced1x4_nn",  # FP32 SIMT
    "ampere_fp16_s1688gemm_fp16_64x128_ldg8_f2f_tn",  # the same MMA shape with FP16 inputs
    "ampere_s1688gemm_bf16_64x64_sliced1x2_ldg8_nn",
    "turing_fp16_s1688gemm_fp16_256x64_ldg8_f2f_nt",
    "void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x128_32x6_tn_align8>(Params)",
    "cutlass_tensorop_s1688gemm_3xtf32_128x64_16x4_nn_align4",  # FP32 accuracy from three TF32 parts
    "volta_scudnn_128x32_relu_small_nn_v1",
    # CUTLASS's library naming: FP32 operands through the 3xTF32 path (OpMultiplyAddFastF32) name no tf32; a
    # 1xTF32 kernel there is s1688tf32gemm. Failed before: counted as TF32 by its shape
    "void cutlass::Kernel<cutlass_tensorop_s1688gemm_256x128_16x3_nt_align4>(Params)",
    "cutlass_tensorop_s1688fprop_optimized_64x64_16x10_nhwc_align4",
])
def test_names_that_do_not(name):
    assert not is_tf32_kernel(name)


def test_the_note_is_for_a_variant_declared_fp32_only():
    kernels = [("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_x", 0.75),
               ("ampere_sgemm_32x64_tn", 0.25)]
    assert tf32_note(kernels, "t.json", "bf16-amp", "bf16") is None
    assert tf32_note(kernels, "t.json", "tf32", "tf32") is None
    note = tf32_note(kernels, "t.json", "base", "fp32")
    assert note.startswith("t.json: at least 1 of 2 kernel launches ran TF32 tensor-core math (0.75 ms, 75% of the "
                           "kernel time; largest: sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_x; "
                           "a lower bound, counted by the kernels' names, which not every TF32 kernel's says), while "
                           "variant 'base' is declared fp32")
    assert tf32_note([("ampere_sgemm_32x64_tn", 0.25)], "t.json", "base", "fp32") is None


def test_the_note_whole_sums_each_kernels_launches_and_says_why_the_figures_are_not_fp32():
    """Two launches of one TF32 kernel are summed for the largest; a declared precision in capitals is fp32 too;
    kernels whose times are all zero have no share to give (no division by zero)."""
    kernels = [("cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_align4", 0.5),
               ("sm80_xmma_wgrad_tf32f32_tf32f32_f32_nhwckrsc", 0.75),
               ("cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_align4", 0.5),
               ("ampere_sgemm_64x64_nn", 2.25)]
    assert tf32_note(kernels, "step.json", "fp32", "FP32") == (
        "step.json: at least 3 of 4 kernel launches ran TF32 tensor-core math (1.75 ms, 44% of the kernel time; "
        "largest: cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_align4; a lower bound, counted by the kernels' "
        "names, which not every TF32 kernel's says), while variant 'fp32' is declared "
        "fp32: PyTorch lets cuDNN convolutions use TF32 by default on Ampere and newer GPUs "
        "(torch.backends.cudnn.allow_tf32), and matmuls where torch.backends.cuda.matmul.allow_tf32 is set (the "
        "default before PyTorch 1.12); these figures are not full-FP32 arithmetic")
    idle = tf32_note([("sm80_xmma_fprop_tf32f32_tf32f32_f32", 0.0)], "idle.json", "base", "fp32")
    assert idle.startswith("idle.json: at least 1 of 1 kernel launches ran TF32 tensor-core math (0 ms, no "
                           "share of the kernel time; largest: sm80_xmma_fprop_tf32f32_tf32f32_f32; a lower bound")


def test_the_alexnet_trace_under_fp32_is_recorded_with_a_tf32_note(collect, workdir):
    # 6 launches of the cuDNN kernel sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_... 1814 us in all,
    # of 10692 us of kernels (17 %); before: no word of TF32
    done = collect("torch-profile", "--trace", ALEXNET, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    (note,) = [n for n in done.record["provenance"]["notes"] if "TF32" in n]
    assert note.startswith("alexnet_kineto_trace.json.gz: at least 6 of 79 kernel launches ran TF32 tensor-core math "
                           "(1.81 ms, 17% of the kernel time; largest: sm80_xmma_fprop_implicit_gemm_"
                           "indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_"
                           "tensor16x8x8_alignc4_execute_kernel_cudnn; a lower bound, counted by the kernels' names, "
                           "which not every TF32 kernel's says), while variant 'fp32' is declared fp32")
    assert f"studygen: warning: {note}\n" in done.err
    fp16 = collect("torch-profile", "--trace", ALEXNET, "--variant", "fp16", measurements=workdir / "other")
    assert fp16.exit_code == 0, fp16.err
    assert not any("TF32" in n for n in fp16.record["provenance"].get("notes", []))


def test_cublas_cutlass_kernels_of_a_dlrm_trace_count_as_tf32(collect):
    # 308 launches of cutlass_80_tensorop_s1688gemm_* kernels, 54787 us of 606519 us (9 %); the largest is
    # cutlass_80_tensorop_s1688gemm_128x64_32x6_nt_align1 (6409 us)
    done = collect("torch-profile", "--trace", DLRM, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    (note,) = [n for n in done.record["provenance"]["notes"] if "TF32" in n]
    assert "at least 308 of 1154 kernel launches ran TF32 tensor-core math (54.8 ms, 9% of the kernel time; " \
           "largest: void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_32x6_nt_align1>" in note


def test_a_study_variant_declared_fp32_under_another_name_gets_the_note(collect, workdir, run_cli):
    made = run_cli("new", "demo", "--variants", "fp32,fp16", "--root", workdir)
    assert made.exit_code == 0, made.err
    study = workdir / "families" / "demo" / "study.yaml"
    study.write_text(study.read_text().replace("- name: fp32\n", "- name: baseline\n", 1))
    done = collect("torch-profile", "--trace", ALEXNET, "--variant", "baseline")
    assert done.exit_code == 0, done.err
    assert any("while variant 'baseline' is declared fp32" in n for n in done.record["provenance"]["notes"])
    json.loads(done.path.read_text())  # a valid record
