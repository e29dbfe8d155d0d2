"""Ordered regex → group rules (studygen.collect.kernel_groups)."""

from __future__ import annotations

import sys

import pytest

from studygen.collect.kernel_groups import (KernelItem, clean_sum, compile_rules, default_rules, group_times,
                                           groups_for_record, rules_from_study)
from studygen.errors import RecordError
from studygen.records.kernel_rules import backtracking_risk


@pytest.mark.parametrize("name, group, matched", [
    # TensorRT layer names (ONNX paths, fused with " + ")
    ("/model/model/backbone/conv_encoder/model/layer1/0/conv1/Conv + onnx::Mul_4144 + /bn1/Mul + onnx::Add", "Conv", True),
    ("/model/model/backbone/conv_encoder/model/position_embedding/MatMul", "GEMM/MatMul", True),
    ("/model/model/encoder/layers.0/self_attn/Softmax", "normalization and elementwise", True),
    ("Reformatting CopyNode for Output Tensor 0 to /model/model/encoder/layers.0/self_attn/Softmax", "other", True),
    ("reshape_before_/model/model/encoder/layers.0/fc1/MatMul", "other", True),
    ("/model/model/encoder/layers.0/self_attn/input_quantizer/QuantizeLinear", "Quantize/Dequantize", True),
    ("PWN(/model/model/decoder/0/Add_1)", "normalization and elementwise", True),
    ("node_linear_myl5_2", "GEMM/MatMul", True),
    ("fc1000", "GEMM/MatMul", True),
    ("res2a_branch2a + res2a_branch2a_relu", "other", False),  # names no operation
    # CUDA kernel names
    ("sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw", "Conv", True),
    ("nvjet_sm90_qqtst_128x128_64x4_1x2_h_bz_coopA_NTN", "GEMM/MatMul", True),
    ("ampere_sgemm_32x32_sliced1x4_tn", "GEMM/MatMul", True),
    ("void at::native::grid_sampler_2d_kernel<float, long>(long, at::cuda::detail::TensorInfo<float, long>)", "GridSample", True),
    ("void at::native::distribution_elementwise_grid_stride_kernel<float, 4>", "normalization and elementwise", True),
    ("triton_poi_fused__to_copy_fake_e4m3fy_0", "Quantize/Dequantize", True),
    ("void at::native::vectorized_layer_norm_kernel<float, float>", "normalization and elementwise", True),
    ("void at::native::max_pool_forward_nchw<float, float>", "other", True),
    ("Memcpy HtoD (Pageable -> Device)", "other", True),
    # ROCm kernel names (the MI210 and MI300X fixtures): hipBLASLt/rocBLAS Tensile GEMMs, MIOpen convolutions
    ("Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x128_MI16x16x1_SN_LDSB0_AFC1", "GEMM/MatMul", True),
    ("Cijk_Ailk_Bljk_BBS_BH_MT64x64x64_MI16x16x16x1_SN_1LDSB0_APM1", "GEMM/MatMul", True),
    ("igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2", "Conv", True),
    ("igemm_wrw_gtcx2_nhwc_bf16_bx0_ex1_bt256x128x16_wt32x32x8", "Conv", True),
    ("_ZN2ck16tensor_operation6device37kernel_batched_gemm_xdlops_bwd_weight", "GEMM/MatMul", True),
    ("attn_fwd", "attention", True),  # AOTriton's fused attention (the MI300X BERT fixture)
    # DLA layers of a trtexec profile (Jetson): the NvMedia transfers and the copy that waits for the DLA
    ("images to nvm", "DLA", True),
    ("output_0 from nvm", "DLA", True),
    ("images copy finish", "DLA", True),
    ("nvmlDeviceGetCount", "other", False),
])
def test_default_rules(name, group, matched):
    assert default_rules().classify(name) == (group, matched)


# Fused attention kernels, each named as a profiler or TensorRT printed it (sources in kernel_groups.ATTENTION_PATTERN's
# comment); before the attention group the CUDA ones fell to GEMM (cutlass, gemm) or Conv (fprop), the rest to other.
@pytest.mark.parametrize("name", [
    "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
    "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, false, "
    "false, false, false, true, false>(pytorch_flash::Flash_fwd_params)",
    "attn_fwd",
    "_attn_fwd",
    "_fwd_kernel",
    "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_kernel0_0",
    "cudnn_generated_fort_native_sdpa_sm90_knob_7_64x128x128_4x1x1_kernel0_0",
    "fmha_cutlassF_f16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::half_t, "
    "cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
    "fmha_cutlassB_f32_aligned_64x64_k32_sm80(AttentionBackwardKernel<cutlass::arch::Sm80, float, true, false, "
    "true, 64, 64, 32, false>::Params)",
    "void ck_tile::kentry<256, 2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<>>>",
    "aiter::fmha_fwd_hd128_bf16_causal_rtna_group",
    "fmha_v2_flash_attention_fp16_64_32_S_qkv_128_causal_sm86_kernel_nl",
    "__mye8037_gemm_mha_v2",
    "_gemv_mha_v1",
    "flash::FlashAttnFwdSm90<cutlass::bfloat16_t>",
    "kernel_batched_gemm_softmax_gemm_xdl_cshuffle_v1",
    "kernel_batched_multiheadattention_forward_xdl_cshuffle",
    "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<64, 128, 128, 8>>",
    "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x128_1x",
])
def test_fused_attention_kernels_are_their_own_group(name):
    assert default_rules().classify(name) == ("attention", True)


@pytest.mark.parametrize("name, group", [
    # TensorRT layers named after an attention module's projections, score matmul and softmax stay what they run
    ("/model/model/encoder/layers.0/self_attn/q_proj/MatMul", "GEMM/MatMul"),
    ("reshape_after_/model/model/encoder/layers.5/self_attn/out_proj/MatMul", "other"),
    ("/model/model/encoder/layers.0/self_attn/Softmax", "normalization and elementwise"),
    ("/encoder/layer.0/attention/self/MatMul", "GEMM/MatMul"),
    ("/blocks.0/attn/MultiheadAttention_1/MatMul", "GEMM/MatMul"),  # torch.nn.MultiheadAttention's module name
    ("/decoder/layers.2/encoder_attn/MultiHeadAttention/MatMul", "GEMM/MatMul"),
    # CUTLASS GEMMs and a plain softmax kernel of the H100 and timeline fixtures are no attention
    ("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x1_tn_align8>(Params)",
     "GEMM/MatMul"),
    ("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, false>(float*, float const*, "
     "int, int, int, bool const*, int, bool)", "normalization and elementwise"),
    ("triton_poi_fused__scaled_dot_product_flash_attention_0", "normalization and elementwise"),  # an Inductor input copy
    ("sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw", "Conv"),
])
def test_attention_names_that_are_not_fused_attention_keep_their_group(name, group):
    assert default_rules().classify(name)[0] == group


@pytest.mark.parametrize("trace, attention_us, gemm_us", [
    # kernel durations read off the traces by hand: flash_fwd_kernel 10.08 + 9.12 + 9.12 + 9.088 µs; the four
    # GEMM kernels 98.718 + 41.28 + 33.089 + 24.511 µs. attn_fwd 32.032 + 26.981 + 27.341 + 27.302 µs; the four
    # Tensile Cijk_ GEMMs 85.736 + 33.794 + 29.063 + 25.537 µs.
    ("cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz", 37.408, 197.598),
    ("rocm-mi300x_bert-small_profilerstep6_kineto_trace.json.gz", 113.656, 174.13),
])
def test_default_groups_of_the_bert_traces_keep_attention_apart(trace, attention_us, gemm_us):
    from studygen.collect.torch_profile import kernel_time_result, parse_trace
    from tests.conftest import FIXTURES

    result = kernel_time_result(parse_trace(FIXTURES / "torch_profiler" / trace), default_rules(),
                                {"kind": None, "variant": "bf16"})
    groups = {group["group"]: group["time_ms"] for group in result["groups"]}
    assert groups["attention"] == pytest.approx(attention_us / 1000, abs=1e-9)
    assert groups["GEMM/MatMul"] == pytest.approx(gemm_us / 1000, abs=1e-9)
    assert result["unclassified_ms"] == 0.0
    assert sum(groups.values()) == pytest.approx(result["profiled_total_ms"], abs=1e-9)


def test_first_match_wins_and_fallback_is_last():
    rules = compile_rules([("gemm", "A"), ("fp8.*gemm", "B"), ("copy", "other")])
    assert rules.classify("fp8_gemm") == ("A", True)
    assert rules.group_order == ["A", "B", "other"]


def test_detail_text_classifies_a_name_no_rule_names():
    rules = default_rules()
    grouped = group_times([KernelItem("__mye59_0_myl0_0", 0.5, detail="CaskConvolution sm80_xmma_fprop"),
                           KernelItem("__mye60_0_myl0_0", 0.25)], rules)
    assert grouped.groups == {"Conv": 0.5, "other": 0.25}
    assert grouped.unclassified_ms == 0.25 and grouped.unclassified_names == ["__mye60_0_myl0_0"]
    assert grouped.unclassified_share == 0.25 / 0.75


def test_sums_without_binary_noise():
    grouped = group_times([KernelItem("a_gemm", 0.1), KernelItem("b_gemm", 0.2)], default_rules())
    assert grouped.groups["GEMM/MatMul"] == 0.3  # not 0.30000000000000004


def test_study_rules_and_errors():
    assert rules_from_study(None).source == "default"
    assert rules_from_study({"kernel_groups": []}).source == "default"
    rules = rules_from_study({"kernel_groups": [{"pattern": "(?-i:GEMM)", "group": "big gemm"}]}, "s.yaml")
    assert rules.classify("GEMM_kernel") == ("big gemm", True)
    assert rules.classify("gemm_kernel") == ("other", False)
    assert rules_from_study({"kernel_groups": [{"pattern": "gemm", "group": "G"}]}).source == "study.yaml"
    with pytest.raises(RecordError) as raised:
        rules_from_study({"kernel_groups": [{"pattern": "ok", "group": "A"}, {"pattern": "[", "group": "B"}]}, "s.yaml")
    assert raised.value.line() .startswith("s.yaml:/kernel_groups/1/pattern: invalid regular expression '['")


def test_an_empty_group_name_is_refused_at_its_pointer():
    with pytest.raises(RecordError) as raised:
        rules_from_study({"kernel_groups": [{"pattern": "gemm", "group": "A"}, {"pattern": "conv", "group": ""}]},
                         "s.yaml")
    assert raised.value.line() == "s.yaml:/kernel_groups/1/group: empty group name"
    rules = compile_rules([("gemm", "A")], "s.yaml")
    assert [(rule.pattern, rule.group) for rule in rules.rules] == [("gemm", "A")] and rules.source == "s.yaml"


def test_a_group_lists_its_20_largest_timed_kernels_and_counts_them_all():
    # 25 GEMM kernels of 1 … 25 µs and one of zero time: the group's time is their sum, 0.325 ms;
    # it lists the 20 largest, 25 µs down to 6 µs, and never the zero one
    items = [KernelItem(f"gemm_{n:02d}", n / 1000, calls=n) for n in range(1, 26)] + [KernelItem("gemm_idle", 0.0)]
    (row,) = groups_for_record(group_times(items, default_rules()))
    assert row["group"] == "GEMM/MatMul" and row["time_ms"] == 0.325
    assert [k["name"] for k in row["kernels"]] == [f"gemm_{n:02d}" for n in range(25, 5, -1)]
    assert row["kernels"][0] == {"name": "gemm_25", "time_ms": 0.025, "calls": 25}
    (idle,) = groups_for_record(group_times([KernelItem("gemm_idle", 0.0)], default_rules()))
    assert idle == {"group": "GEMM/MatMul", "time_ms": 0.0}  # nothing timed to list


@pytest.mark.parametrize("values, total", [
    ([1.0000000000001], 1.0),  # the 14th significant digit is noise
    ([1.00000000001], 1.00000000001),  # the 12th is kept
    ([123.456789012345], 123.456789012),  # 12 significant digits, not 12 decimals
    ([0.000123456789012345], 0.000123456789012),
    ([0.1, -0.1], 0.0),
])
def test_sums_keep_twelve_significant_digits(values, total):
    assert clean_sum(values) == total


@pytest.mark.parametrize("pattern", [
    "x(?!(a+)+)",  # inside a negative lookahead
    "(?=(a+)+)x",  # inside a positive one
    "(a)?(?(1)(b+)+|c)",  # inside a conditional's branch
])
def test_static_check_looks_inside_lookarounds_and_conditionals(pattern):
    assert backtracking_risk(pattern) == ("a repeated part that itself repeats or alternates (as in (a+)+ or "
                                          "(a|ab)*), exponential")


@pytest.mark.parametrize("pattern", ["^(?:ab?)+c", "^(?:x_?)+y", "^(?:a{0,1}b)*c"])
def test_a_repeat_of_a_part_whose_own_repeat_is_optional_is_safe(pattern):
    # x? and x{0,1} match once at most: no nesting, and no second unbounded repeat in a row
    assert backtracking_risk(pattern) is None


def test_an_anchored_pattern_counts_no_extra_start():
    assert backtracking_risk("^.*a.*b.*c") == ("3 unbounded repeats in a row (a backreference counts as one), a cost "
                                               "growing with the name's length to the power 3, where linear is the "
                                               "most allowed")
    assert backtracking_risk("^.*a") is None  # one: linear, allowed
    assert backtracking_risk(".*a") is not None  # one after an unanchored start: the square


def test_alternatives_count_as_the_costliest_one_not_their_sum():
    # Only one alternative matches along a path: two, each with one unbounded repeat, are one repeat in a
    # row, so this pattern (a lookahead: Python's re runs it) is accepted; a second repeat after them is not.
    assert backtracking_risk("^(?!void)(?:sm90_.*|sm80_.*)gemm") is None
    assert backtracking_risk("^(?!void)(?:sm90_.*|sm80_.*)gemm.*nn") == (
        "2 unbounded repeats in a row (a backreference counts as one), a cost growing with the name's length to the "
        "power 2, where linear is the most allowed")
    rules = compile_rules([("^(?!void)(?:sm90_.*|sm80_.*)gemm", "GEMM")], "s.yaml")
    assert rules.classify("sm80_xmma_gemm_f16") == ("GEMM", True) and rules.classify("void_sm80_gemm")[0] == "other"


def test_a_lookaround_with_three_unanchored_repeats_is_refused_for_re():
    # RE2 runs no lookbehind, so the pattern goes to Python's re, and the static check counts the unanchored start
    with pytest.raises(RecordError) as raised:
        compile_rules([("(?<![a-z]).*x.*y", "G")], "s.yaml")
    assert raised.value.line() == (
        "s.yaml:/kernel_groups/0/pattern: regular expression '(?<![a-z]).*x.*y' could take very long on a long "
        "name: 2 unbounded repeats in a row (a backreference counts as one) after an unanchored start, a cost growing "
        "with the name's length to the power 3, where linear is the most allowed; RE2 cannot run it (a lookaround "
        "or backreference), so rewrite it without that")


def test_with_re2_a_cubic_pattern_is_accepted_and_matched_by_re2():
    pytest.importorskip("re2")
    rules = compile_rules([("x.*y.*z", "G")], "s.yaml")
    assert type(rules.rules[0].compiled).__module__.startswith("re2")
    assert rules.classify("X_y_Z") == ("G", True) and rules.classify("x_z_y") == ("other", False)


def test_without_re2_a_cubic_pattern_is_refused_saying_the_package_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "re2", None)  # as where google-re2 is not installed: the import fails
    with pytest.raises(RecordError) as raised:
        compile_rules([("x.*y.*z", "G")], "s.yaml")
    assert raised.value.line().endswith("to the power 3, where linear is the most allowed; the google-re2 package "
                                        "is not installed, so rewrite it without that")


def test_a_layer_type_decides_before_a_name_that_says_nothing():
    # survivors of a sampled mutation run: the type tables were never reached by a test of this module
    grouped = group_times([KernelItem("inception_3a/pool_proj", 0.5, layer_type="CaskConvolution"),
                           KernelItem("inception_3a/relu", 0.25, layer_type="Scale"),
                           KernelItem("prob", 0.125)], default_rules())
    assert grouped.groups == {"Conv": 0.5, "normalization and elementwise": 0.25, "other": 0.125}
    assert grouped.by_type == 2 and grouped.unclassified_names == ["prob"]


@pytest.mark.parametrize("pattern", [r"^a.*b.*(?:cd|ef)", r"^(a+)\1"])
def test_a_repeat_before_an_alternation_or_a_backreference_counts(pattern):
    # anchored, so only the pattern's own repeats count: two in a row (the repeat and what follows it)
    assert backtracking_risk(pattern) is not None


def test_an_elided_myelin_node_is_untold_and_a_pointwise_fusion_elementwise():
    rules = default_rules()
    # {ForeignNode[first...last]} names two members of a Myelin subgraph: "Cast", "MatMul" or "Conv" there says
    # nothing of the rest, so it is unclassified (other, unmatched)
    for name in ("{ForeignNode[Cast_416...Slice_1070]}", "{ForeignNode[/enc/MatMul.../dec/Conv]}"):
        assert rules.classify_item(KernelItem(name, 1.0)) == ("other", False, False)
    # a type that names one kind of work still decides; one member, not elided, is read by its name
    typed = KernelItem("{ForeignNode[/a/Conv.../b/Relu]}", 1.0, layer_type="CaskConvolution")
    assert rules.classify_item(typed) == ("Conv", True, True)
    assert rules.classify_item(KernelItem("{ForeignNode[/enc/layers.0/norm/LayerNormalization]}", 1.0))[:2] == (
        "normalization and elementwise", True)
    # a reformat *to* such a node is a reformat
    assert rules.classify("Reformatting CopyNode for Input Tensor 0 to {ForeignNode[a...b]}") == ("other", True)
    # PWN(...) is elementwise whatever its fused members are named (before: Conv, GEMM, attention words won)
    for name in ("PWN(/backbone/conv1/Relu)", "PWN(/head/fc/Add, PWN(/head/MatMul_output_0))", "PWN(/fmha_scale/Mul)"):
        assert rules.classify(name) == ("normalization and elementwise", True), name
    assert rules.classify("/backbone/conv1/Conv + PWN(/backbone/conv1/Relu)") == ("Conv", True)  # not at the start
    # a study's own rules meet the elided node the same way
    own = compile_rules([("conv", "Conv")], source="study.yaml")
    assert own.classify_item(KernelItem("{ForeignNode[conv1...conv9]}", 1.0)) == ("other", False, False)


def test_grouped_times_count_elided_nodes_among_the_unclassified():
    items = [KernelItem("{ForeignNode[a...b]}", 4.8044), KernelItem("{ForeignNode[Cast_416...Slice_1070]}", 0.0413),
             KernelItem("NMS_plugin", 0.124), KernelItem("PWN(Sin_1071)", 0.0072)]
    grouped = group_times(items, default_rules())
    assert grouped.unclassified_ms == 4.9697  # 4.8044 + 0.0413 + 0.124
    assert grouped.untold == 2 and len(grouped.unclassified_names) == 3
    assert grouped.groups == {"normalization and elementwise": 0.0072, "other": 4.9697}


def test_the_default_groups_keep_their_order():
    # the PWN rule comes before Conv and GEMM, yet records list the default groups as before
    assert default_rules().group_order == ["DLA", "GridSample", "attention", "Conv", "GEMM/MatMul",
                                           "Quantize/Dequantize", "normalization and elementwise", "other"]


def test_a_subgraph_named_by_its_member_list_is_untold_and_a_finish_row_is_dla():
    rules = default_rules()
    # every member listed, comma-separated: the first a rule finds ("stem_conv") says nothing of the rest
    for name in ("{stem_conv,stem_relu,block1/pool,block1/lrn,head/fc}", "{a/Conv_3,b/MatMul_9}"):
        assert rules.classify_item(KernelItem(name, 1.0)) == ("other", False, False), name
    # one member only, no list: read by its name as before; an elided Myelin node stays as it was
    assert rules.classify_item(KernelItem("{stem_conv}", 1.0))[:2] == ("Conv", True)
    assert rules.classify_item(KernelItem("{ForeignNode[a,b...c]}", 1.0)) == ("other", False, False)
    # rows named after such a subgraph are read by their suffix: a reformatter, a wait for a DLA tensor
    assert rules.classify("{stem_conv,head/fc} output reformatter 0") == ("other", True)
    for name in ("{stem_conv,head/fc} output to be reformatted 0 finish", "head/fc finish", "images copy finish"):
        assert rules.classify(name) == ("DLA", True), name
    grouped = group_times([KernelItem("{stem_conv,head/fc}", 2.5), KernelItem("head/fc finish", 0.25)], rules)
    assert grouped.groups == {"DLA": 0.25, "other": 2.5}
    assert grouped.listed == 1 and grouped.untold == 0 and grouped.unclassified_ms == 2.5


# cuDNN's batch-norm kernels carry no "norm": in a ResNet's fp32 eager profile on an H100 (collect run, 19 launches,
# 24 % of the forward's kernel time) they fell to "other" and unclassified, while the fp16 and bf16 variants' batch
# norms (ATen's batch_norm_transform_input_kernel) were "normalization and elementwise", so that row compared
# 0.027 ms of fp32 with 0.127 ms of fp16 that held work the fp32 row lacked.
@pytest.mark.parametrize("name", [
    "void cudnn::bn_fw_inf_1C11_kernel_NCHW<float, float, true, 1>(float, float, cudnnTensorStruct, float const*, "
    "cudnnTensorStruct, float*, cudnnTensorStruct, float const*, float const*, float const*, float const*, float)",
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, 512, true, 1>(cudnnTensorStruct, float const*)",
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float)",
])
def test_cudnn_batch_norm_kernels_are_normalization(name):
    assert default_rules().classify(name) == ("normalization and elementwise", True)


@pytest.mark.parametrize("name, group, matched", [
    ("/model/backbone/layer1/0/bn1/BatchNormalization", "normalization and elementwise", True),  # by "norm"
    ("kbn_fw_helper", "other", False),  # "bn_fw_" inside a longer word is no cuDNN batch norm
    ("void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true>", "other", True),
])
def test_names_beside_the_batch_norm_rule_keep_their_group(name, group, matched):
    assert default_rules().classify(name) == (group, matched)


# Inductor's loop kernels (pointwise, persistent reduction, reduction) carry in their names every graph node their
# loop covers, views of a cuDNN or cuBLAS output included; the convolution or product itself ran in that extern
# kernel or in a triton_tem_ template, which keep their groups. Names invented in Inductor's naming scheme.
@pytest.mark.parametrize("name, group", [
    ("triton_poi_fused_convolution_silu_view_9", "normalization and elementwise"),  # a convolution's bias and activation
    ("triton_red_fused_convolution_native_group_norm_21", "normalization and elementwise"),
    ("triton_per_fused__softmax_addmm_amax_view_14", "normalization and elementwise"),  # a softmax over a product's output
    ("triton_poi_fused_add_bmm_mul_unsqueeze_view_3", "normalization and elementwise"),
    ("triton_poi_fused__scaled_mm_to_copy_clamp_div_reciprocal_2", "normalization and elementwise"),  # an FP8 input cast
    ("triton_tem_fused_addmm_relu_5", "GEMM/MatMul"),  # max-autotune's GEMM template runs the product
    ("triton_tem_fused_convolution_1", "Conv"),
    ("triton_poi_fused_grid_sampler_2d_mm_view_8", "GridSample"),  # the sampling runs inside the loop
    ("triton_poi_fused__to_copy_addmm_fake_e4m3fy_4", "Quantize/Dequantize"),
    ("nvjet_sm90_tst_96x64_64x12_2x1_v_bz_bias_TNN", "GEMM/MatMul"),
    ("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize96x64x64", "Conv"),
])
def test_inductor_loop_kernels_are_elementwise_whatever_node_they_name(name, group):
    assert default_rules().classify(name) == (group, True)


def test_one_kernel_named_two_ways_by_two_compilations_lands_in_one_group():
    # Two compilations of one model named the same upsampling kernel after the product whose output it reads, or
    # after the view of it: 0.052 ms a forward either way, beside 0.31 ms of cuBLAS kernels.
    first = [KernelItem("triton_poi_fused__unsafe_index_add_arange_bmm_cat_clamp_mul_sub_view_2", 0.052, 1),
             KernelItem("nvjet_sm90_tst_64x32_64x16_2x2_h_bz_TNT", 0.31, 9)]
    second = [KernelItem("triton_poi_fused__unsafe_index__unsafe_view_add_arange_cat_clamp_mul_sub_view_2", 0.052, 1),
              KernelItem("nvjet_sm90_tst_64x32_64x16_2x2_h_bz_TNT", 0.31, 9)]
    one, two = group_times(first, default_rules()), group_times(second, default_rules())
    assert one.groups == two.groups == {"GEMM/MatMul": 0.31, "normalization and elementwise": 0.052}


# A CPU profile (collect run --cpu, a CPU-only trace) names ATen operators, not kernels. Names read off
# collect run --cpu of a random-init timm ViT-Tiny (TimmWrapperForImageClassification, dynamic image size) at
# 64 x 64 and 96 x 96 on a 2-core AMD EPYC, session 30: "aten::gelu" was left in "other" as unclassified (SG210's
# 12 %), and the dispatching "aten::scaled_dot_product_attention" sat in "other" beside its fused child.
@pytest.mark.parametrize("name, group, matched", [
    ("aten::gelu", "normalization and elementwise", True),
    ("aten::relu_", "normalization and elementwise", True),  # in place
    ("aten::clamp_min", "normalization and elementwise", True),  # what aten::relu runs on the CPU
    ("aten::threshold_backward", "normalization and elementwise", True),  # ReLU's gradient
    ("aten::scaled_dot_product_attention", "attention", True),
    ("aten::_scaled_dot_product_flash_attention_for_cpu", "attention", True),
    ("aten::_scaled_dot_product_efficient_attention", "attention", True),
    # unchanged: a TensorRT fusion named after its activation, an ONNX path, Inductor's loop kernels, other words
    ("res2a_branch2a + res2a_branch2a_relu", "other", False),
    ("/blocks/blocks.0/mlp/act/Gelu", "other", False),
    ("triton_poi_fused__scaled_dot_product_flash_attention_0", "normalization and elementwise", True),
    ("triton_poi_fused_gelu_view_3", "normalization and elementwise", True),
    ("aten::geluish", "other", False),
    ("aten::cat", "other", False),
])
def test_aten_operators_of_a_cpu_profile(name, group, matched):
    assert default_rules().classify(name) == (group, matched)


def test_a_cpu_profile_of_a_vit_counts_gelu_as_elementwise_and_sdpa_as_attention():
    # The six largest operators of that ViT-Tiny's fp32 profile at 64 x 64, batch 1 (self ms per forward, calls
    # over 3 profiled forwards' mean): before, "other" held 76.737 ms of GELU and the SDPA wrapper.
    items = [KernelItem("aten::addmm", 292.466587, 49), KernelItem("aten::native_layer_norm", 156.545048, 25),
             KernelItem("aten::gelu", 75.814116, 12), KernelItem("aten::_scaled_dot_product_flash_attention_for_cpu",
                                                                   63.4071, 12),
             KernelItem("aten::scaled_dot_product_attention", 0.131143, 12), KernelItem("aten::view", 0.923205, 173)]
    grouped = group_times(items, default_rules())
    assert grouped.groups == {"attention": 63.538243, "GEMM/MatMul": 292.466587,
                              "normalization and elementwise": 232.359164, "other": 0.923205}
    assert grouped.unclassified_ms == 0.923205
