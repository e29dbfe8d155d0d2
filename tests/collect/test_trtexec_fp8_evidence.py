"""FP8 evidence from trtexec exports (``collect trtexec``, :mod:`studygen.collect.trtexec.fp8`).

An FP8 engine's layer info and profile are written here in trtexec's layout
with names and figures of our own (no public export holds an FP8 layer);
the real public exports are the cases where no FP8 kernel ran, and the
names-only layer info. Times are ``averageMs`` (mean per iteration): each
profile's ``timeMs`` is its total over ``count`` iterations, a figure
``count`` times larger that the evidence must not take.
"""

from __future__ import annotations

import json

import pytest

from studygen.checks.sg215_fp8_evidence import evidence_problem
from studygen.collect import trtexec
from studygen.collect.kernel_groups import default_rules
from studygen.collect.trtexec.common import ResultLabels
from studygen.collect.trtexec.fp8 import fp8_evidence_by_run
from studygen.errors import InputError
from tests.collect.conftest import FIXTURES, TRTEXEC, assert_refused
from tests.collect.trtexec_logs import log_text, write

PUBLIC = FIXTURES / "public"
QKV_TACTIC = "sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n_tilesize128x128x64_cublas"
PROJ_TACTIC = "nvjet_sm90_qqtst_64x128_64x5_2x1_v_bz_TNT"  # names no type: its FP8 input shows it
HEAD_TACTIC = "sm90_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x64x64"


def tensor(name: str, kind: str) -> dict:
    return {"Name": name, "Location": "Device", "Dimensions": [1, 400, 256], "Format/Datatype": kind}


# layer name -> (entry, averageMs)
FP8_ENGINE = {
    # FP8 by tactic: the kernel's name carries e4m3
    "/enc/qkv/MatMul": ({"LayerType": "gemm", "TacticName": QKV_TACTIC,
                         "Inputs": [tensor("x_q", "FP8"), tensor("w_qkv", "FP8")], "Outputs": [tensor("qkv", "Half")]},
                        0.0412),
    # FP8 by its first input's type (Myelin names its types bare: "FP8", "Half")
    "/enc/proj/MatMul": ({"LayerType": "gemm", "TacticName": PROJ_TACTIC, "Inputs": [tensor("a_q", "FP8")],
                          "Outputs": [tensor("proj", "Half")]}, 0.0187),
    # makes FP8 tensors, does no FP8 math
    "/enc/QuantizeLinear": ({"LayerType": "kgen", "TacticName": "__myl_Quan_0x91c2", "Inputs": [tensor("x", "Half")],
                             "Outputs": [tensor("x_q", "FP8")]}, 0.0033),
    # FP16 math whose output is FP8 (a quantizing epilogue): not FP8 math
    "/head/Conv": ({"LayerType": "CaskConvolution", "ParameterType": "Convolution", "TacticName": HEAD_TACTIC,
                    "Inputs": [tensor("f", "Channel major FP16 format where channel % 8 == 0")],
                    "Outputs": [tensor("g", "Row major linear FP8 format")]}, 0.029),
    # moves an FP8 tensor
    "Reformatting CopyNode for Input Tensor 0 to /head/Conv": (
        {"LayerType": "Reformat", "ParameterType": "Reformat", "Inputs": [tensor("g0", "Row major linear FP8 format")],
         "Outputs": [tensor("f", "Channel major FP16 format where channel % 8 == 0")]}, 0.0021),
}
ITERATIONS = 500


def layer_info(engine: dict) -> dict:
    return {"Layers": [dict(Name=name, **entry) for name, (entry, _) in engine.items()], "Bindings": ["x", "boxes"]}


def profile(engine: dict, count: int = ITERATIONS) -> list:
    return [{"count": count}] + [{"name": name, "timeMs": round(ms * count, 4), "averageMs": ms, "medianMs": ms,
                                  "percentage": 20.0} for name, (_, ms) in engine.items()]


@pytest.fixture
def study(workdir, run_cli):
    """A project in the working directory whose study declares fp16 and fp8."""
    made = run_cli("new", "demo", "--variants", "fp16,fp8", "--root", workdir)
    assert made.exit_code == 0, made.err
    return workdir


def exports(workdir, engine: dict, info: dict | None = None) -> tuple:
    log = write(workdir, log_text("trtexec --loadEngine=det_fp8.plan --separateProfileRun --exportProfile=profile.json",
                                  "=== Model Options ===",
                                  "Format: *"))
    (workdir / "profile.json").write_text(json.dumps(profile(engine)))
    (workdir / "layers.json").write_text(json.dumps(info or layer_info(engine)))
    return "--log", log, "--profile", workdir / "profile.json", "--layer-info", workdir / "layers.json"


def evidence_of(profile_path, info_path, precision="fp8", log=None, times=None):
    inputs = trtexec.read_inputs(log, times, profile_path, info_path, None)
    labels = ResultLabels(variant="v", shape=None, batch=None, rules=default_rules(), precision=precision)
    return fp8_evidence_by_run(inputs, labels), inputs.notes


def test_fp8_gemms_become_the_evidence_of_every_latency_of_the_run(collect, study):
    done = collect("trtexec", "--variant", "fp8", *exports(study, FP8_ENGINE))
    assert done.exit_code == 0, done.err
    latencies = done.kind("latency")
    assert len(latencies) == 5  # host latency, enqueue, H2D, GPU compute, D2H
    expected = {
        # largest first; averageMs, not timeMs (20.6 and 9.35 ms over 500 iterations)
        "kernels": [{"name": QKV_TACTIC, "layer": "/enc/qkv/MatMul", "time_ms": 0.0412, "fp8_by": "tactic"},
                    {"name": PROJ_TACTIC, "layer": "/enc/proj/MatMul", "time_ms": 0.0187, "fp8_by": "input type"}],
        "fp8_layers": 2, "fp8_time_ms": 0.0599,  # 0.0412 + 0.0187
        "gemm_layers": 3,  # the two MatMuls and the convolution; not the quantize or the reformat
        "iterations": 500, "source": "--exportLayerInfo layers.json joined with --exportProfile profile.json array 1"}
    assert all(result["fp8_evidence"] == expected for result in latencies)
    assert all(evidence_problem(result) is None for result in latencies)  # SG215 is satisfied
    assert "fp8_evidence" not in done.kind("kernel_time")[0]


def test_quantize_reformat_and_an_fp8_output_alone_prove_nothing(collect, study, run_cli):
    engine = {name: FP8_ENGINE[name] for name in ("/enc/QuantizeLinear", "/head/Conv",
                                                  "Reformatting CopyNode for Input Tensor 0 to /head/Conv")}
    # an FP8 cast kernel that names e4m3 but is no GEMM
    engine["/enc/Cast"] = ({"LayerType": "PointWiseV2", "TacticName": "sm90_cast_f16_e4m3_kernel",
                            "Inputs": [tensor("y", "Half")], "Outputs": [tensor("y_q", "FP8")]}, 0.0011)
    done = collect("trtexec", "--variant", "fp8", *exports(study, engine))
    assert done.exit_code == 0, done.err
    evidence = done.kind("latency")[0]["fp8_evidence"]
    assert evidence == {"kernels": [], "fp8_layers": 0, "fp8_time_ms": 0, "gemm_layers": 1, "iterations": 500,
                        "source": "--exportLayerInfo layers.json joined with --exportProfile profile.json array 1"}
    checked = run_cli("check", "demo", "--root", study)
    lines = [line for line in checked.out.splitlines() if " SG215 " in line]
    # which timings SG215 reports, and how it names them, is its own matter; the problem is this one
    assert lines and all("): profiled, and none of its 1 GEMM/convolution layer(s) ran an FP8 kernel (--exportLayerInfo "
                         "layers.json joined with --exportProfile profile.json array 1)" in line for line in lines)


# (layer info, profile, its iterations, GEMM and convolution layers counted by hand from each file's LayerType)
PUBLIC_ENGINES = [
    (TRTEXEC / "trt8.6_resnet50-int8_layer-info-detailed.json", TRTEXEC / "trt8.6_resnet50-int8_profile.json", 6402,
     54),  # 53 CaskConvolution, 1 CaskConvActPool
    (PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine.graph.json",
     PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine.profile.json", 4216, 53),  # 34 Cask, 17 depthwise, 2 fused
    (PUBLIC / "trex-7a07608d_mobilenet.qat.onnx.engine.graph.json",
     PUBLIC / "trex-7a07608d_mobilenet.qat.onnx.engine.profile.json", 6610, 53),  # 36 Cask, 17 depthwise
    (PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json", PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.profile.json",
     14590, 8),  # 5 CaskConvolution, 3 Myelin gemm
]


@pytest.mark.parametrize("info, timings, iterations, gemms", PUBLIC_ENGINES, ids=lambda v: getattr(v, "name", None))
def test_real_int8_and_fp16_engines_show_no_fp8_kernel(info, timings, iterations, gemms):
    by_run, notes = evidence_of(timings, info)
    assert by_run == {None: {"kernels": [], "fp8_layers": 0, "fp8_time_ms": 0, "gemm_layers": gemms,
                             "iterations": iterations,
                             "source": f"--exportLayerInfo {info.name} joined with --exportProfile {timings.name} array 1"}}
    assert notes == []
    # without a declared precision no empty evidence is written
    assert evidence_of(timings, info, precision=None) == ({}, [])


def test_a_names_only_layer_info_gives_no_evidence_and_says_why():
    by_run, notes = evidence_of(TRTEXEC / "detr-r50_profile.json", TRTEXEC / "detr-r50_layer-info.json",
                                times=PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine.timing.json")
    assert by_run == {}
    # the note names the input whose latencies go without it (here the times file: no log given)
    assert notes == ["trex-26210e92_mobilenet.qat.onnx.engine.timing.json: no fp8_evidence recorded: "
                     "detr-r50_layer-info.json lists layer names only: build the engine with "
                     "--profilingVerbosity=detailed to export tactics and types"]


def test_a_profile_without_layer_info_and_several_runs_give_no_evidence():
    log = TRTEXEC / "trt7_resnet50-int8_console.log"
    concatenated = TRTEXEC / "trt7_resnet50-int8_profile-concatenated.json"
    detailed = TRTEXEC / "trt8.6_resnet50-int8_layer-info-detailed.json"
    assert evidence_of(concatenated, None, log=log) == (
        {}, ["trt7_resnet50-int8_console.log: no fp8_evidence recorded: no --layer-info: a profile names layers, "
             "not the kernels that ran them"])
    runs = len(trtexec.parse_log(log).runs)
    assert evidence_of(concatenated, detailed, log=log) == (
        {}, [f"trt7_resnet50-int8_console.log: no fp8_evidence recorded: {runs} profiled runs but one --layer-info, "
             "which describes one engine: collect each run with its own layer info"])
    # a variant declared fp16 is not asked for FP8 evidence: no note
    assert evidence_of(concatenated, None, log=log, precision="fp16") == ({}, [])


def test_the_dump_profile_table_of_the_log_times_the_layers(collect, study):
    log = write(study, log_text("trtexec --loadEngine=det_fp8.plan --dumpProfile --separateProfileRun", *DUMP_TABLE,
                                tag="[TensorRT v101601]"), "dump.log")
    (study / "layers.json").write_text(json.dumps(layer_info(FP8_ENGINE)))
    done = collect("trtexec", "--variant", "fp8", "--log", log, "--layer-info", study / "layers.json")
    assert done.exit_code == 0, done.err
    assert done.kind("latency")[0]["fp8_evidence"] == {
        "kernels": [{"name": QKV_TACTIC, "layer": "/enc/qkv/MatMul", "time_ms": 0.0412, "fp8_by": "tactic"}],
        "fp8_layers": 1, "fp8_time_ms": 0.0412, "gemm_layers": 2, "iterations": 250,
        "source": "--exportLayerInfo layers.json joined with the --dumpProfile table at dump.log:2"}
    assert ("fp8_evidence: 1 FP8 layer(s) of layers.json have no time in the --dumpProfile table at dump.log:2 and are "
            "left out ('/enc/proj/MatMul')") in done.record["provenance"]["notes"]


def test_layers_the_other_file_lacks_are_noted(tmp_path):
    engine = dict(FP8_ENGINE)
    (tmp_path / "layers.json").write_text(json.dumps(layer_info(engine)))
    timed = {name: engine[name] for name in ("/enc/qkv/MatMul", "/head/Conv")}
    timed["__mye12_plugin"] = ({}, 0.004)
    timed["__mye13_plugin"] = ({}, 0.0005)
    (tmp_path / "profile.json").write_text(json.dumps(profile(timed, count=20)))
    by_run, notes = evidence_of(tmp_path / "profile.json", tmp_path / "layers.json")
    assert by_run[None]["fp8_layers"] == 1 and by_run[None]["iterations"] == 20
    assert notes == ["fp8_evidence: 1 FP8 layer(s) of layers.json have no time in --exportProfile profile.json array 1 "
                     "and are left out ('/enc/proj/MatMul')",
                     "fp8_evidence: 2 profiled layer(s) of --exportProfile profile.json array 1 are not in layers.json, "
                     "so their kernels are unknown ('__mye12_plugin', '__mye13_plugin')"]


def test_the_fp8_time_sums_every_fp8_layer_to_six_decimals(tmp_path):
    engine = {"/enc/qkv/MatMul": FP8_ENGINE["/enc/qkv/MatMul"],
              "/enc/tiny/MatMul": (FP8_ENGINE["/enc/proj/MatMul"][0], 0.00001234)}
    (tmp_path / "layers.json").write_text(json.dumps(layer_info(engine)))
    (tmp_path / "profile.json").write_text(json.dumps(profile(engine, count=2)))
    by_run, _ = evidence_of(tmp_path / "profile.json", tmp_path / "layers.json")
    assert by_run[None]["fp8_time_ms"] == 0.041212  # 0.0412 + 0.00001234 = 0.04121234
    assert [kernel["time_ms"] for kernel in by_run[None]["kernels"]] == [0.0412, 0.00001234]


DUMP_TABLE = ["=== Profile (250 iterations ) ===", "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer",
              "      10.30       0.0412       0.0410      60.1   /enc/qkv/MatMul",
              "       6.84       0.0274       0.0271      39.9   /head/Conv",
              "      17.14       0.0686       0.0681     100.0   Total"]


def test_a_log_without_a_profile_table_or_with_two_profiled_runs_gives_no_evidence(tmp_path):
    (tmp_path / "layers.json").write_text(json.dumps(layer_info(FP8_ENGINE)))
    plain = write(tmp_path, log_text("trtexec --loadEngine=det_fp8.plan"), "plain.log")
    assert evidence_of(None, tmp_path / "layers.json", log=plain) == (
        {}, ["plain.log: no fp8_evidence recorded: no per-layer profile (--profile, or a --dumpProfile table in the "
             "log)"])
    run = log_text("trtexec --loadEngine=det_fp8.plan --dumpProfile --separateProfileRun", *DUMP_TABLE,
                   tag="[TensorRT v101601]")
    two = write(tmp_path, run + run, "two.log")
    assert evidence_of(None, tmp_path / "layers.json", log=two) == (
        {}, ["two.log: no fp8_evidence recorded: 2 profiled runs but one --layer-info, which describes one engine: "
             "collect each run with its own layer info"])


def test_a_dump_table_of_another_engine_is_refused_at_its_line(collect, study):
    log = write(study, log_text("trtexec --loadEngine=det_fp8.plan --dumpProfile --separateProfileRun", *DUMP_TABLE,
                                tag="[TensorRT v101601]"), "dump.log")
    refused = collect("trtexec", "--variant", "fp8", "--log", log, "--layer-info",
                      TRTEXEC / "trt8.6_resnet50-int8_layer-info-detailed.json")
    assert_refused(refused, "dump.log:2: none of its 2 profiled layers is in the layer info "
                   "trt8.6_resnet50-int8_layer-info-detailed.json")


def test_files_of_two_engines_are_refused_for_an_fp8_variant_only(collect, study, workdir):
    args = ("--profile", TRTEXEC / "trt8.6_resnet50-int8_profile.json",
            "--layer-info", PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json", "--batch", "1")
    refused = collect("trtexec", "--variant", "fp8", *args)
    assert_refused(refused, "trt8.6_resnet50-int8_profile.json:1: none of its 59 profiled layers is in the layer info "
                   "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json: the two files describe different engines, so no FP8 "
                   "kernel can be told; nothing recorded")
    accepted = collect("trtexec", "--variant", "fp16", *args, job="job2")
    assert accepted.exit_code == 0, accepted.err  # kernel time as before


def test_tensorrt_11_names_an_input_type_apart_from_its_format(tmp_path):
    # TensorRT 11 splits "Format/Datatype" into "DataType" and "Format"
    entry = {"LayerType": "gemm", "TacticName": PROJ_TACTIC,
             "Inputs": [{"Name": "a_q", "Dimensions": [1, 64], "DataType": "FP8", "Format": "Row major linear (kLINEAR)"}]}
    # an entry may list no inputs at all: its tactic alone then tells
    conv_tactic = "sm90_xmma_fprop_implicit_gemm_e4m3e4m3_e4m3f32_f32_nhwckrsc_nhwc_tilesize128x128x64"
    engine = {"/dec/MatMul": (entry, 0.0133), "/dec/Conv": ({"LayerType": "CaskConvolution", "TacticName": conv_tactic},
                                                           0.0061)}
    (tmp_path / "layers.json").write_text(json.dumps({"Layers": layer_info(engine)["Layers"]}))
    (tmp_path / "profile.json").write_text(json.dumps(profile(engine, count=3)))
    by_run, _ = evidence_of(tmp_path / "profile.json", tmp_path / "layers.json")
    assert by_run[None]["kernels"] == [
        {"name": PROJ_TACTIC, "layer": "/dec/MatMul", "time_ms": 0.0133, "fp8_by": "input type"},
        {"name": conv_tactic, "layer": "/dec/Conv", "time_ms": 0.0061, "fp8_by": "tactic"}]


def test_myelin_layers_are_counted_as_unnamed_kernels(tmp_path):
    engine = {"{ForeignNode[/enc/MatMul.../enc/Add]}": ({"LayerType": "Myelin", "Inputs": [tensor("x", "FP8")]}, 0.07),
              "/head/Conv": FP8_ENGINE["/head/Conv"]}
    (tmp_path / "layers.json").write_text(json.dumps(layer_info(engine)))
    (tmp_path / "profile.json").write_text(json.dumps(profile(engine, count=8)))
    by_run, _ = evidence_of(tmp_path / "profile.json", tmp_path / "layers.json")
    assert by_run[None]["opaque_layers"] == 1 and by_run[None]["gemm_layers"] == 1 and by_run[None]["kernels"] == []
    assert evidence_problem({"fp8_evidence": by_run[None]}) == (
        "profiled, and none of its 1 GEMM/convolution layer(s) ran an FP8 kernel (1 Myelin layer(s) do not name "
        "their kernels) (--exportLayerInfo layers.json joined with --exportProfile profile.json array 1)")


@pytest.mark.parametrize("damage, pointer, words", [
    (lambda layer: layer.update(TacticName=7), "/Layers/0/TacticName", "TacticName is not text"),
    (lambda layer: layer.update(Inputs={"Name": "x"}), "/Layers/0/Inputs", "Inputs is not a list"),
    (lambda layer: layer["Inputs"].append("x"), "/Layers/0/Inputs/2", "an input is not an object"),
    (lambda layer: layer["Inputs"][1].update({"Format/Datatype": None}), "/Layers/0/Inputs/1/Format~1Datatype",
     "Format/Datatype is not text"),
    (lambda layer: layer["Inputs"][0].pop("Format/Datatype") and layer["Inputs"][0].update(DataType=8),
     "/Layers/0/Inputs/0/DataType", "DataType is not text"),
])
def test_a_damaged_layer_entry_is_refused_at_its_place(collect, study, damage, pointer, words):
    info = json.loads(json.dumps(layer_info(FP8_ENGINE)))
    damage(info["Layers"][0])
    refused = collect("trtexec", "--variant", "fp8", *exports(study, FP8_ENGINE, info))
    assert_refused(refused, f"layers.json:{pointer}: {words}")
    with pytest.raises(InputError):
        trtexec.parse_layer_info(study / "layers.json")


def test_without_a_study_evidence_is_kept_only_where_fp8_ran(collect, workdir):
    done = collect("trtexec", *exports(workdir, FP8_ENGINE))
    assert done.exit_code == 0, done.err
    assert done.kind("latency")[0]["fp8_evidence"]["fp8_layers"] == 2
    plain = {name: FP8_ENGINE[name] for name in ("/head/Conv", "/enc/QuantizeLinear")}
    # another records folder: the same log in a second job of one family is one run recorded twice
    again = collect("trtexec", *exports(workdir, plain), job="job2", measurements=workdir / "other")
    assert again.exit_code == 0, again.err
    assert not any("fp8_evidence" in result for result in again.results)
