"""The engine's own layers against the variant's declared precision: an
INT8 engine collected under fp16 was recorded without a word when its log
loaded the plan (the log's ``Precision: FP32`` is only trtexec's default),
so the README printed an fp16 latency for it (new user's trial, session
23). Every layer info and log here is a real public one (SOURCES.md); the
strongly typed log is the real QAT log with its build line changed.
"""

from __future__ import annotations

import pytest

from studygen.collect.trtexec.exports import LayerKernel
from studygen.collect.trtexec.layer_precision import layer_precisions, not_allowed
from studygen.collect.trtexec.log import parse_log
from tests.collect.conftest import FIXTURES, TRTEXEC, assert_refused

PUBLIC = FIXTURES / "public"
INT8_LOG = TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log"  # --loadEngine of an int8 plan
INT8_PROFILE = TRTEXEC / "trt8.6_resnet50-int8_profile.json"
INT8_INFO = TRTEXEC / "trt8.6_resnet50-int8_layer-info-detailed.json"
QAT_LOG = TRTEXEC / "trt8.5_qat-resnet18_dump-profile_separate-profile-run.log"  # --best, prints its layers twice
VARIANTS = "fp32,tf32,fp16,bf16,int8,fp8,nvfp4"


@pytest.fixture
def study(workdir, run_cli):
    """A project whose study declares one variant of each precision."""
    made = run_cli("new", "demo", "--variants", VARIANTS, "--root", workdir)
    assert made.exit_code == 0, made.err
    return workdir


def test_the_trial_int8_engine_is_refused_under_fp16_naming_file_count_and_layer(collect, study):
    refused = collect("trtexec", "--log", INT8_LOG, "--profile", INT8_PROFILE, "--layer-info", INT8_INFO,
                      "--variant", "fp16")
    assert_refused(refused)
    assert refused.err == (
        f"studygen: {INT8_INFO}:/Layers/1: variant 'fp16' is declared fp16 in families/demo/study.yaml, but the layer "
        "info trt8.6_resnet50-int8_layer-info-detailed.json shows 55 compute layers at INT8 (first '/backbone/conv1/"
        "Conv + /backbone/relu/Relu + /backbone/maxpool/MaxPool': input 'Row major Int8 format'), which fp16 does not "
        "allow; collect it under a variant of that precision, or give --override-precision REASON\n")
    # the same engine under the precision it ran at is recorded
    done = collect("trtexec", "--log", INT8_LOG, "--profile", INT8_PROFILE, "--layer-info", INT8_INFO,
                   "--variant", "int8", job="right")
    assert done.exit_code == 0, done.err
    assert not [note for note in done.record["provenance"]["notes"] if note.startswith("precision:")]


def test_an_override_records_what_the_layers_show_and_the_reason(collect, study):
    done = collect("trtexec", "--log", INT8_LOG, "--profile", INT8_PROFILE, "--layer-info", INT8_INFO,
                   "--variant", "fp16", "--override-precision", "the study  names its int8 engine fp16 on purpose")
    assert done.exit_code == 0, done.err
    noted = [note for note in done.record["provenance"]["notes"] if note.startswith("precision:")]
    assert noted == ["precision: variant 'fp16' is declared fp16 but the layer info trt8.6_resnet50-int8_layer-info-"
                     "detailed.json shows 55 compute layers at INT8 (first '/backbone/conv1/Conv + /backbone/relu/Relu "
                     "+ /backbone/maxpool/MaxPool': input 'Row major Int8 format'); recorded as declared: the study "
                     "names its int8 engine fp16 on purpose"]


# (layer info, declared precisions it contradicts with the layer count and precisions named, precisions it fits)
LAYER_INFOS = [
    # INT8 ResNet-50: 52 INT8 convolutions, the INT8 stem, pooling and the i8f32 classifier; FP32 softmax
    (INT8_INFO, {"fp32": "55 compute layers at INT8", "fp8": "55 compute layers at INT8"}, ("int8",)),
    # QAT MobileNets: INT8 convolutions beside FP16 and FP32 ones (TensorRT's fallbacks of an int8 build); its
    # quantizing Scale layers read FP32 and count for nothing
    (PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine.graph.json",
     {"fp16": "53 compute layers at INT8", "bf16": "53 compute layers at INT8"}, ("int8",)),
    (PUBLIC / "trex-7a07608d_mobilenet.qat.onnx.engine.graph.json",
     {"fp32": "54 compute layers at FP16 and INT8", "fp16": "53 compute layers at INT8"}, ("int8",)),
    # FP16 AlexNet (Myelin "Half" GEMMs): fp16 fits; fp32 does not, bf16 neither (FP16 is no wider than BF16)
    (PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json",
     {"fp32": "12 compute layers at FP16", "bf16": "12 compute layers at FP16"}, ("fp16", "int8", "fp8", "nvfp4")),
    # an FP16 engine with FP32 layers and Int32 index tensors
    (PUBLIC / "trt2023-35ef781b_layerinfo.json", {"tf32": "147 compute layers at FP16"}, ("fp16",)),
    # an FP32 engine with TF32 tactics (f32f32_tf32f32): TF32 is FP32's own math
    (PUBLIC / "trt2023-4e79a036_layerinfo.json", {}, ("fp32", "tf32", "fp16")),
    # TensorRT 10.16 MNIST: Float throughout, an Int32 -> Int64 cast
    (TRTEXEC / "trt10.16_export-layer-info.log", {}, ("fp32",)),
]


@pytest.mark.parametrize(("info", "contradicted", "fitting"), LAYER_INFOS, ids=[c[0].name for c in LAYER_INFOS])
def test_each_real_layer_info_against_declared_precisions(collect, study, info, contradicted, fitting):
    for declared, said in contradicted.items():
        refused = collect("trtexec", "--layer-info", info, "--variant", declared, job=f"no-{declared}")
        assert_refused(refused, f"variant '{declared}' is declared {declared}", said)
    for declared in fitting:
        done = collect("trtexec", "--layer-info", info, "--variant", declared, job=f"yes-{declared}")
        assert done.exit_code == 0, (declared, done.err)


def test_a_names_only_layer_info_says_nothing(collect, study):
    done = collect("trtexec", "--layer-info", TRTEXEC / "detr-r50_layer-info.json", "--variant", "fp32")
    assert done.exit_code == 0, done.err


def test_the_log_printed_layers_are_read_in_both_forms():
    qat = parse_log(QAT_LOG).runs[0]
    assert len(qat.printed_layers) == 26
    # the verbose build list (line 6503) prints the stem's tensors; --dumpLayerInfo (line 6547) prints it again
    line, stem = qat.printed_layers["conv1.weight + QuantizeLinear_7 + Conv_9 + MaxPool_12"]
    assert (line, stem) == (6547, LayerKernel("ConvActPool ConvActPool", None, ("Row major Int8 format",)))
    _, first = qat.printed_layers["layer1.0.conv1.weight + QuantizeLinear_20 + Conv_22"]
    assert first.tactic.startswith("sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_")
    # TensorRT 8.6.0, verbose list only: "name (Half[-1,1:2,28,28])"
    half = parse_log(PUBLIC / "hackathon-07271c31_trt8.6.0_result-02.log").runs[0].printed_layers
    assert len(half) == 15 and half["Conv-1 + ReLU-2"] == (3417, LayerKernel("CaskConvolution", None, ("Half",)))
    # TensorRT 8.2.3: "name[Float(-2,1,28,28)]", the tactic in decimal (a number says nothing)
    old = parse_log(PUBLIC / "hackathon-c65790e1_trt8.2.3_result-FP32.txt").runs[0].printed_layers
    assert old["Conv__25 + Relu"] == (868, LayerKernel("CaskConvolution", None, ("Float",)))
    # a names-only engine prints bare names: nothing read
    assert parse_log(PUBLIC / "hackathon-07271c31_trt8.6.0_result-04.log").runs[0].printed_layers == {}


def test_a_strongly_typed_log_is_held_to_the_layers_it_prints(collect, study, workdir):
    # the QAT log as a strongly typed build: its Precision line no longer says anything, its layers still do
    text = QAT_LOG.read_text(encoding="utf-8").replace("--best", "--stronglyTyped")
    typed = workdir / "typed.log"
    typed.write_text(text.replace("Precision: FP32+FP16+INT8", "Precision: Strongly Typed"), encoding="utf-8")
    refused = collect("trtexec", "--log", typed, "--variant", "fp16")
    assert_refused(refused)
    assert refused.err.startswith(f"studygen: {typed.name}:6547: variant 'fp16' is declared fp16 in "
                                  "families/demo/study.yaml, but the layers run 1 (line 1) of typed.log prints shows "
                                  "22 compute layers at INT8 (first 'conv1.weight + QuantizeLinear_7 + Conv_9 + "
                                  "MaxPool_12': input 'Row major Int8 format')"), refused.err
    done = collect("trtexec", "--log", typed, "--variant", "int8", job="int8")
    assert done.exit_code == 0, done.err


def test_the_real_qat_log_still_fits_int8():
    # --best allowed FP16 too: the FP32 softmax and classifier output are wider than INT8, so nothing is refused
    layers = parse_log(QAT_LOG).runs[0].printed_layers.values()
    assert not [kernel for _, kernel in layers if not_allowed("int8", layer_precisions(kernel))]
    assert sum(1 for _, kernel in layers if not_allowed("fp16", layer_precisions(kernel))) == 22


@pytest.mark.parametrize(("kernel", "read"), [
    # what moves or converts data counts for nothing, whatever its tensors hold
    (LayerKernel("Reformat Reformat", None, ("Row major linear FP32",)), {}),
    (LayerKernel("NoOp", None, ("Thirty-two wide channel vectorized row major Int8 format",)), {}),
    (LayerKernel("Dequantize", None, ("Row major Int8 format",)), {}),
    (LayerKernel("MyelinReformat", None, ("Row major linear FP16 format",)), {}),
    # the data input's type, else the tactic's math
    (LayerKernel("CaskConvolution", "turing_fp16_i8816cudnn_int8_128x128_ldg16_relu_small_nt_v1",
                 ("Thirty-two wide channel vectorized row major Int8 format",)), {"int8"}),
    (LayerKernel("CaskConvolution", "sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw", ("",)), {"int8"}),
    (LayerKernel("CaskPooling", "sm72_xmma_pooling_IMMA_NCxHW32_gap", ()), {"int8"}),
    (LayerKernel("gemm", "sm89_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n", ("Half",)), {"fp16", "fp8"}),
    (LayerKernel("kgen", "__myl_Res_0x63adb2bae59ff89a94fc133e2755c132", ("Half",)), {"fp16"}),
    (LayerKernel("CaskConvolution", "sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc",
                 ("Channel major FP32 format where channel % 4 == 0",)), set()),
    (LayerKernel("CaskGemmConvolution", "ampere_h16816gemm_128x64_ldg8_relu_stages_32x6_nn_v1",
                 ("Channel major FP16 format where channel % 8 == 0",)), {"fp16"}),
    (LayerKernel("kgen", "__myl_CastReshCast_0x5baf1ddb7083512f99818d0d7872c872", ("Int32",)), set()),
    (LayerKernel("CaskConvolution", None, ("Row major linear BF16 format",)), {"bf16"}),
    # "imma" inside a name a Myelin tactic carries is no INT8 math (an attack: a Gemma model was refused)
    (LayerKernel("kgen", "__myl_Gemma_Dimma_0x5baf1ddb", ("Float",)), set()),
])
def test_what_a_layer_runs_at(kernel, read):
    assert set(layer_precisions(kernel)) == set(read)


@pytest.mark.parametrize(("declared", "ran", "refused"), [
    ("fp16", {"fp32", "fp16"}, set()),  # TensorRT's fp16 builds keep some layers in FP32
    ("fp16", {"int8", "fp8"}, {"int8", "fp8"}),
    ("fp16", {"bf16"}, {"bf16"}),
    ("int8", {"fp16", "fp32", "bf16"}, set()),  # an int8 build's fallbacks
    ("int8", {"fp8"}, {"fp8"}),
    ("fp8", {"int8", "fp16"}, {"int8"}),
    ("fp32", {"fp16"}, {"fp16"}),
    ("tf32", {"fp16"}, {"fp16"}),
    ("nvfp4", {"fp8", "fp16"}, set()),  # FP8 is wider than FP4
])
def test_which_precisions_a_declared_one_allows(declared, ran, refused):
    assert set(not_allowed(declared, {precision: "read" for precision in ran})) == refused
