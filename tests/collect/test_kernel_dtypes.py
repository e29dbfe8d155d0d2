"""A trace collected under a variant whose declared precision its kernels'
names contradict (bf16 kernels under fp16; fp16 under bf16; either under
fp32) is recorded with a note saying so, never refused: the model ran in
another dtype than the study says (a trial's ROCm traces of a model declared
fp16 held bf16 kernels only, and nothing said so)."""

from __future__ import annotations

import json

import pytest

from studygen.collect.kernel_dtypes import other_type_note, sixteen_bit_types
from tests.collect.conftest import FIXTURES, TORCH

BERT_H100 = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
DLRM = FIXTURES / "public" / "hta_timeline_analysis_sampled_rank-0.json.gz"


@pytest.mark.parametrize(("name", "types"), [
    ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, float>>", {"bf16"}),
    ("void at::native::FillFunctor<c10::Half>(int)", {"fp16"}),
    ("my_kernel<__half2, 4>", {"fp16"}),
    ("flash_fwd_kernel<Traits<64, 128, cutlass::bfloat16_t>>", {"bf16"}),
    ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64", {"bf16"}),  # inputs bf16, accumulation f32
    ("sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32", {"fp16"}),
    ("ampere_fp16_s16816gemm_fp16_64x64_ldg8_f2f_nn", {"fp16"}),
    ("igemm_bwd_gtcx3_nhwc_bf16_bx0_ex1", {"bf16"}),
    ("cast_kernel<c10::Half, c10::BFloat16>", {"bf16", "fp16"}),  # names both: never counted
    ("triton_poi_fused_gelu_3", set()),
    ("ampere_sgemm_64x32_sliced1x4_nn", set()),
    ("cutlass_80_tensorop_s16816gemm_relu_64x64", set()),  # the shape names no type
    ("Cijk_Ailk_Bljk_HHS_BH_MT64x64x16", set()),  # Tensile's type codes are not read
    ("sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn", set()),  # 8 bits: no 16-bit type
    ("halfway_kernel_bf16x_tile", set()),  # 'half' and 'bf16' inside longer words
    # a lone f16 names the 16-bit family: this cuDNN kernel ran in the H200 study's bf16 forwards
    ("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0", set()),
])
def test_the_types_a_kernel_name_says(name, types):
    assert sixteen_bit_types(name) == types


def test_the_note_counts_the_contradicting_launches_only():
    launches = [("gemm_bf16bf16_bf16f32", 0.5), ("gemm_bf16bf16_bf16f32", 0.25), ("layer_norm<c10::Half>", 0.125),
                ("triton_poi_fused_0", 0.125)]
    note = other_type_note(launches, "t.json", "half", "fp16")
    assert note == ("t.json: at least 2 of 4 kernel launches name bf16 data (0.75 ms, 75% of the kernel time; "
                    "largest: gemm_bf16bf16_bf16f32; a lower bound, counted by the kernels' names, which not every "
                    "kernel's says), while variant 'half' is declared fp16: these figures time bf16 work in part; "
                    "check the dtype the model was loaded in and any autocast around it")
    # under bf16 the fp16 launch contradicts; under fp32 both types do; 8-bit variants are not read
    assert "at least 1 of 4 kernel launches name fp16 data (0.125 ms, 12% " in other_type_note(launches, "t", "b",
                                                                                                 "bf16")
    assert "at least 3 of 4 kernel launches name bf16 or fp16 data (0.875 ms, 88% " in other_type_note(
        launches, "t", "f", "FP32")
    assert [other_type_note(launches, "t", "v", p) for p in ("fp8", "int8", "nvfp4", "")] == [None] * 4
    assert other_type_note([("gemm_bf16bf16", 1.0)], "t", "v", "bf16") is None
    # kernels of no time (a trace's zero durations): no share, no division by zero
    assert "name bf16 data (0 ms, no share of the kernel time; " in other_type_note([("gemm_bf16", 0.0)], "t", "v",
                                                                                     "fp16")


def test_the_h100_bert_trace_under_fp16_is_recorded_with_a_note(collect, workdir):
    # Counted by hand over the trace's 60 kernel launches (307.197 us): 54 name c10::BFloat16 or a bf16 word
    # (264.381 us) and 4 flash-attention launches name cutlass::bfloat16_t (37.408 us): 58 launches, 301.789 us,
    # 98 %; the largest, cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8, 98.718 us
    done = collect("torch-profile", "--trace", BERT_H100, "--variant", "fp16")
    assert done.exit_code == 0, done.err
    (note,) = [n for n in done.record["provenance"]["notes"] if "bf16 data" in n]
    assert note.startswith("cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz: at least 58 of 60 kernel "
                           "launches name bf16 data (0.302 ms, 98% of the kernel time; largest: void cutlass::Kernel2"
                           "<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>")
    assert note.endswith("while variant 'fp16' is declared fp16: these figures time bf16 work in part; check the "
                         "dtype the model was loaded in and any autocast around it")
    assert f"studygen: warning: {note}\n" in done.err
    bf16 = collect("torch-profile", "--trace", BERT_H100, "--variant", "bf16", measurements=workdir / "other")
    assert bf16.exit_code == 0 and bf16.err == "", bf16.err
    assert not any("data (" in n for n in bf16.record["provenance"].get("notes", []))


def test_fp16_embedding_kernels_of_a_dlrm_trace_under_fp32_are_noted(collect):
    # Counted by hand: 14 of the trace's 1154 launches name c10::Half (fp16 embedding tables), 71837 us of
    # 606519 us (12 %); the largest, split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1,
    # 23469 us
    done = collect("torch-profile", "--trace", DLRM, "--variant", "fp32", "--device", "0")
    assert done.exit_code == 0, done.err
    (note,) = [n for n in done.record["provenance"]["notes"] if "fp16 data" in n]
    assert note.startswith("hta_timeline_analysis_sampled_rank-0.json.gz: at least 14 of 1154 kernel launches name "
                           "fp16 data (71.8 ms, 12% of the kernel time; largest: void split_embedding_backward_codegen_"
                           "rowwise_adagrad_unweighted_kernel_cta_per_row_1<c10::Half")


def _trace(path, names):
    """A Kineto trace of one H100 whose kernels are ``names``, 4 us each, each with its launch."""
    kernels = [{"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": 100 + 10 * i, "dur": 4,
                "args": {"device": 0, "correlation": i + 1}} for i, name in enumerate(names)]
    launches = [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 99 + 10 * i,
                 "dur": 1, "args": {"correlation": i + 1}} for i in range(len(names))]
    path.write_text(json.dumps({"traceEvents": kernels + launches, "deviceProperties": [{"id": 0, "name": "H100"}]}))
    return path


def test_a_kernel_name_of_100_kb_is_quoted_shortened(collect, workdir):
    # the note quoted the whole name: 100,219 characters in a note the schema holds to 4000, so collect refused
    # the trace it had read, naming the record it was about to write
    long_name = "gemm_bf16_" + "k" * 100_000
    done = collect("torch-profile", "--trace", _trace(workdir / "t.json", [long_name, "gemm_fp16"]), "--variant", "fp16")
    assert done.exit_code == 0, done.err
    (note,) = [n for n in done.record["provenance"]["notes"] if "bf16 data" in n]
    assert f"largest: gemm_bf16_{'k' * 189}…; a lower bound" in note  # 199 characters and the mark
    assert len(note) < 4000


def test_control_characters_of_a_kernel_name_are_escaped_on_stderr(collect, workdir):
    # the newline split the warning in two lines and the BEL reached the terminal; the record keeps the name
    name = "gemm_bf16\x07_tile\nrow\u202e"
    done = collect("torch-profile", "--trace", _trace(workdir / "t.json", [name]), "--variant", "fp16")
    assert done.exit_code == 0, done.err
    (line,) = done.err.splitlines()
    assert line.startswith("studygen: warning: t.json: at least 1 of 1 kernel launches name bf16 data (0.004 ms, "
                           "100% of the kernel time; largest: gemm_bf16\\x07_tile\\nrow\\u202e; a lower bound")
    assert any(f"largest: {name};" in n for n in done.record["provenance"]["notes"])
