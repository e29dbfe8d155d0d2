"""The trtexec readers and builders one by one, on the shared fixtures and on
small inputs built here: version tags, export rows as the files state them,
layer details, refusals with their file and place, the rules that decide a
run's timing method, and statistics at each percentile.

Expected figures are read off the fixture files (a plain ``json`` read or
the lines quoted in the comments), never computed by studygen."""

from __future__ import annotations

import json

import pytest

from studygen.collect.trtexec import parse_layer_info, parse_log, parse_profile, parse_times, plan_size_bytes
from studygen.collect.trtexec.log import log_provenance
from studygen.collect.trtexec.runs import (TrtexecRun, decode_version_tag, major_version, measured_settings, shape_batch,
                                          split_shapes, version_of_line)
from studygen.errors import InputError
from tests.collect.conftest import TRTEXEC

TRT10_LOG = TRTEXEC / "trt10.16_build-and-run.log"
TRT86_LOG = TRTEXEC / "trt8.6_unstable-gpu-compute.log"
TRT7_LOG = TRTEXEC / "trt7_resnet50-int8_console.log"


def refused(parse, path, content: str) -> InputError:
    """The InputError ``parse`` raises for a file holding ``content`` (shown by its name)."""
    path.write_text(content)
    with pytest.raises(InputError) as raised:
        parse(path, path.name)
    return raised.value


# --- version tags ---------------------------------------------------------------------------

@pytest.mark.parametrize("tag, version", [
    # each fixture's "&&&& RUNNING ... [TensorRT vNNNN]" tag and its own "TensorRT version:" line
    ("101601", "10.16.1"),  # trt10.16_*.log
    ("8410", "8.4.10"),  # trt8.4_orin_verbose_build-crash.log
    ("8503", "8.5.3"),  # trt8.5.3_dump-profile_no-e2e-timing.log
    ("8510", "8.5.10"),  # trt8.5_*.log
    ("8600", "8.6.0"), ("7103", "7.1.3"),  # NV_TENSORRT_VERSION's Mmpp layout
    ("110000", "11.0.0"), ("100001", "10.0.1"), ("990912", "99.9.12"),  # MMmmpp with a major of two digits
])
def test_version_tag_decodes_as_the_log_states_it(tag, version):
    assert decode_version_tag(tag) == version


@pytest.mark.parametrize("printed, version", [
    ("8003", "8.0.3"), ("101601", "10.16.1"),  # a bare NV_TENSORRT_VERSION number, four or six digits
    ("8.6.1", "8.6.1"), ("10.16.1.3", "10.16.1.3"), ("1234567", "1234567"),  # dotted, or no such number: as printed
])
def test_a_version_line_is_decoded_only_when_it_is_a_bare_version_number(printed, version):
    assert version_of_line(printed) == version


def test_explicit_input_shapes_are_split_per_input_and_must_agree_on_the_batch():
    assert split_shapes("x=4x1x28x28, y=4x3", "=") == [("x", "4x1x28x28"), ("y", "4x3")]
    assert split_shapes("images:2x3x640x640,mask:2x640x640", ":") == [("images", "2x3x640x640"), ("mask", "2x640x640")]
    assert shape_batch(split_shapes("x=4x3x8, y=2x5", "=")) is None  # two leading dimensions: no batch stated
    assert shape_batch(split_shapes("x=4x3x8, y=4x5, z=7", "=")) == 4  # a one-dimensional input says nothing


def test_a_run_with_no_batch_line_counts_one_iteration_per_query():
    # a log captured part way may lack "Batch:" and "--batch": queries are then iterations
    run = TrtexecRun(index=0, line=1, timed_queries=120, warmup_queries=9)
    assert (run.timed_iterations(), run.warmup_iterations()) == (120, 9)
    implicit = TrtexecRun(index=0, line=1, batch=4, timed_queries=120, warmup_queries=8)
    assert (implicit.timed_iterations(), implicit.warmup_iterations()) == (30, 2)


def test_a_log_without_its_version_line_takes_the_tag(workdir):
    text = TRT10_LOG.read_text(encoding="utf-8")
    assert "] [I] TensorRT version: 10.16.1\n" in text
    cut = workdir / "no-version-line.log"
    cut.write_text("".join(line for line in text.splitlines(keepends=True) if "TensorRT version:" not in line))
    run = parse_log(cut).runs[0]
    assert (run.tensorrt_version, run.version_line) == ("10.16.1", 1)  # from "[TensorRT v101601]" on line 1
    assert major_version(run.tensorrt_version) == 10 and major_version(None) is None


# --- runs and the machine -------------------------------------------------------------------

def test_runs_on_two_devices_are_refused(workdir):
    both = workdir / "two-machines.log"
    both.write_text(TRT10_LOG.read_text(encoding="utf-8") + TRT86_LOG.read_text(encoding="utf-8"))
    log = parse_log(both)
    assert [run.device for run in log.runs] == ["NVIDIA H100 PCIe", "NVIDIA GeForce RTX 3090"]
    with pytest.raises(InputError) as raised:
        log_provenance(log)
    assert raised.value.line() == (f"{log.display}: runs name different devices ['NVIDIA GeForce RTX 3090', "
                                   "'NVIDIA H100 PCIe']: one job is one GPU; split the log")


def test_runs_of_two_tensorrt_versions_are_refused(workdir):
    text = TRT10_LOG.read_text(encoding="utf-8")
    # the second run another build throughout: its version line and its banners
    other = text.replace("TensorRT version: 10.16.1", "TensorRT version: 10.15.1").replace("v101601", "v101501")
    both = workdir / "two-versions.log"
    both.write_text(text + other)
    with pytest.raises(InputError) as raised:
        log_provenance(parse_log(both))
    assert raised.value.line().endswith(": runs name different TensorRT versions ['10.15.1', '10.16.1']; split the log")


def test_a_log_naming_neither_device_nor_version_says_so():
    gpu, version, notes = log_provenance(parse_log(TRT7_LOG))
    assert (gpu, version) == (None, None)
    assert notes == [
        "trt7_resnet50-int8_console.log states no TensorRT version (no 'TensorRT version:' line or "
        "[TensorRT vNNNN] tag): recorded as unknown",
        "trt7_resnet50-int8_console.log names no device (no 'Selected Device:' line): GPU recorded as unknown"]
    assert log_provenance(parse_log(TRT10_LOG)) == ("NVIDIA H100 PCIe", "10.16.1", [])


@pytest.mark.parametrize("version, expected", [
    # given flags win; a missing flag is the pre-11 default only when the version is known to be < 11
    ("8.6.1", {"cuda_graph": True, "data_transfers": True, "spin_wait": False, "separate_profile_run": True}),
    ("10.16.1", {"cuda_graph": True, "data_transfers": True, "spin_wait": False, "separate_profile_run": True}),
    ("11.0.0", {"cuda_graph": True, "data_transfers": None, "spin_wait": None, "separate_profile_run": True}),
    (None, {"cuda_graph": True, "data_transfers": None, "spin_wait": None, "separate_profile_run": True}),
])
def test_timing_method_from_flags_and_version(version, expected):
    run = TrtexecRun(index=0, line=1, command="trtexec --loadEngine=a.plan --useCudaGraph --separateProfileRun",
                     tensorrt_version=version)
    assert measured_settings(run) == expected
    run.settings["spin_wait"] = True  # printed under Inference Options: the log wins over flags and defaults
    assert measured_settings(run)["spin_wait"] is True
    assert run.flags == ["--useCudaGraph", "--separateProfileRun"]


# --- --exportProfile ---------------------------------------------------------------------

def test_profile_rows_as_the_file_states_them():
    (run,) = parse_profile(TRTEXEC / "trt8.6_resnet50-int8_profile.json")
    raw = json.loads((TRTEXEC / "trt8.6_resnet50-int8_profile.json").read_text())
    assert (run.index, run.line, run.iterations, run.has_median) == (0, 1, 6402, True)
    assert len(run.rows) == len(raw) - 1 == 59
    # { "name" : "/backbone/conv1/Conv + ...", "timeMs" : 49.5778, "averageMs" : 0.00774412, "medianMs" : 0.007488 }
    assert run.rows[1] == ("/backbone/conv1/Conv + /backbone/relu/Relu + /backbone/maxpool/MaxPool",
                           0.00774412, 0.007488, 49.5778)
    assert run.rows[-1] == ("/softmax/Softmax", 0.00423771, 0.004096, 27.1298)
    old = parse_profile(TRTEXEC / "trt7_resnet50-int8_profile-concatenated.json")
    assert [(r.index, r.iterations, len(r.rows), r.has_median) for r in old][:2] == [(0, 1013, 58, False),
                                                                                      (1, 477, 58, False)]
    # { "name" : "conv1 + conv1_relu + pool1 input reformatter 0", "timeMs" : 53.3021, "averageMs" : 0.0526181 }
    assert old[0].rows[0] == ("conv1 + conv1_relu + pool1 input reformatter 0", 0.0526181, None, 53.3021)
    assert old[1].line == 62


def test_a_profile_row_without_its_total_time_keeps_a_total_of_zero(workdir):
    # timeMs is optional: its average is what the kernel time uses, and a missing total is 0, not invented
    path = workdir / "profile.json"
    path.write_text(json.dumps([{"count": 4}, {"name": "conv", "averageMs": 0.25}, {"name": "fc", "timeMs": 0.4,
                                                                                   "averageMs": 0.1},
                                {"name": "pool", "timeMs": None, "averageMs": 0.05}]))
    (run,) = parse_profile(path, "profile.json")
    assert run.rows == [("conv", 0.25, None, 0), ("fc", 0.1, None, 0.4), ("pool", 0.05, None, 0)]


@pytest.mark.parametrize("content, where, message", [
    ('[{"count": 0}, {"name": "a", "averageMs": 1}]', "/0/count", "count must be a positive integer"),
    ('[{"count": true}, {"name": "a", "averageMs": 1}]', "/0/count", "count must be a positive integer"),
    ('[{"count": 2}, {"averageMs": 1}]', "/1", "layer row without a name"),
    ('[{"count": 2}, {"name": "", "averageMs": 1}]', "/1", "layer row without a name"),
    ('[{"count": 2}, {"name": "a", "averageMs": 1}, {"name": " \\t", "averageMs": 2}]', "/2", "layer row without a name"),
    ('[{"count": 2}, {"name": null, "averageMs": 1}]', "/1", "layer row without a name"),
    ('[{"count": 2}, {"name": "a", "averageMs": -1}]', "/1/averageMs", "averageMs is missing or not a non-negative number"),
    ('[{"name": "a"}]', "/0/averageMs", "averageMs is missing or not a non-negative number"),
    ('[{"name": "a", "averageMs": 1, "medianMs": "x"}]', "/0/medianMs", "medianMs is not a non-negative number"),
    ('[{"name": "a", "averageMs": 1, "timeMs": -2}]', "/0/timeMs", "timeMs is negative"),
    ('[{"count": 3}]', "line 1", "the profile lists no layer"),
    ('[{"name": "a", "averageMs": 1}]\n[{"name": "b", "averageMs": 1, "timeMs": -1}]', "/1/0/timeMs",
     "timeMs is negative"),
    ('{"count": 3}', "line 1", "expected a non-empty JSON array of layer timings (trtexec --exportProfile)"),
])
def test_bad_profile_rows_are_refused_at_their_place(workdir, content, where, message):
    error = refused(parse_profile, workdir / "profile.json", content)
    assert (error.path, error.where, error.message) == ("profile.json", where, message)


def test_profile_rows_keep_medians_only_where_every_row_has_one(workdir):
    path = workdir / "profile.json"
    path.write_text('[{"count": 4}, {"name": "a", "averageMs": 0.5, "medianMs": 0.25, "timeMs": 2},'
                    ' {"name": "b", "averageMs": 1.5}]')
    (run,) = parse_profile(path)
    assert run.rows == [("a", 0.5, 0.25, 2), ("b", 1.5, None, 0)] and run.has_median is False


# --- --exportLayerInfo and the plan ---------------------------------------------------------

def test_detailed_layer_info_names_type_tactic_and_origin():
    info = parse_layer_info(TRTEXEC / "trt8.6_resnet50-int8_layer-info-detailed.json")
    assert (len(info.layers), info.bindings, info.detailed) == (59, ["input0", "output0"], True)
    # "LayerType": "Reformat", "Metadata": "" (an empty origin is left out)
    assert info.layers[0] == {"name": "Reformatting CopyNode for Input Tensor 0 to /backbone/conv1/Conv + "
                                      "/backbone/relu/Relu + /backbone/maxpool/MaxPool", "layer_type": "Reformat"}
    conv = "/backbone/layer1/layer1.0/conv1/Conv + /backbone/layer1/layer1.0/relu/Relu"
    tactic = ("sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32_"
              "tilesize96x64x64_stage3_warpsize2x2x1_g1_tensor16x8x32_simple_t1r1s1")
    origin = "[ONNX Layer: /backbone/layer1/layer1.0/conv1/Conv]\x1e[ONNX Layer: /backbone/layer1/layer1.0/relu/Relu]"
    details, types = info.details(), info.types()
    assert (types[conv], details[conv]) == ("CaskConvolution", f"{tactic} {origin}")
    assert types[info.layers[0]["name"]] == "Reformat" and info.layers[0]["name"] not in details  # no tactic, no origin
    pool = "/backbone/conv1/Conv + /backbone/relu/Relu + /backbone/maxpool/MaxPool"
    assert types[pool] == "CaskConvActPool"
    assert details[pool] == ("[ONNX Layer: /backbone/conv1/Conv]\x1e[ONNX Layer: /backbone/relu/Relu]"
                             "\x1e[ONNX Layer: /backbone/maxpool/MaxPool]")  # no tactic name
    assert (len(types), len(details)) == (59, 57)  # two reformats (Reformat, NoOp) have neither tactic nor origin


def test_plain_layer_info_is_names_only():
    info = parse_layer_info(TRTEXEC / "detr-r50_layer-info.json")
    assert (len(info.layers), info.bindings, info.detailed) == (840, ["image", "boxes", "logits", "classes"], False)
    assert info.layers[0] == {"name": "/model/model/Transpose_1_output_0"} and info.details() == {}


@pytest.mark.parametrize("content, where, message", [
    ('{"Layers": ["a"]}\n{"Layers": ["b"]}', None, "holds 2 JSON values; expected one layer-info object"),
    ('["a", "b"]', "/Layers", 'expected an object with a "Layers" list (trtexec --exportLayerInfo)'),
    ('{"Layers": ["a", 3]}', "/Layers/1", 'a layer must be a name or an object with "Name"'),
    ('{"Layers": [{"LayerType": "Reformat"}]}', "/Layers/0", 'a layer must be a name or an object with "Name"'),
    ('{"Layers": ["a"], "Bindings": ["x", 1]}', "/Bindings", "Bindings must be a list of names"),
])
def test_bad_layer_info_is_refused_at_its_place(workdir, content, where, message):
    error = refused(parse_layer_info, workdir / "layers.json", content)
    assert (error.path, error.where, error.message) == ("layers.json", where, message)


def test_plan_size_is_the_files_size_in_bytes(workdir):
    plan = workdir / "model.plan"
    plan.write_bytes(b"\x01" * 3000)
    assert plan_size_bytes(plan) == 3000
    for path, message in ((workdir / "missing.plan", "no such file"), (workdir, "is a folder, not an engine plan")):
        with pytest.raises(InputError) as raised:
            plan_size_bytes(path, "shown.plan")
        assert (raised.value.path, raised.value.message) == ("shown.plan", message)


# --- --exportTimes --------------------------------------------------------------------------

@pytest.mark.parametrize("content, where, message", [
    ('[3]', "/0", "expected objects with latencyMs, computeMs, …"),
    ('[{"startInMs": 0, "endInMs": 1, "inMs": 1, "computeMs": 1, "outMs": 1, "latencyMs": 3, "endToEndMs": 3},'
     ' {"inMs": 1}]', "/1/latencyMs", "latencyMs is missing or not a number"),
    ('[{"startInMs": 0, "endInMs": 1, "inMs": -1, "computeMs": 1, "outMs": 1, "latencyMs": 3, "endToEndMs": 3}]',
     "/0/inMs", "inMs is -1: a duration cannot be negative"),
])
def test_bad_times_are_refused_at_their_place(workdir, content, where, message):
    error = refused(parse_times, workdir / "times.json", content)
    assert (error.path, error.where, error.message) == ("times.json", where, message)


def test_times_of_tensorrt_7_keys_and_enqueue_from_82_timestamps(workdir):
    (run, *_) = parse_times(TRTEXEC / "trt7_resnet50-int8_times-concatenated.json")
    assert (run.key_set, sorted(run.timings), run.iterations) == (
        "TensorRT 7", ["d2h", "end_to_end", "enqueue", "gpu_compute", "h2d", "host_latency"], 1013)
    # { "startEnqMs" : 0.37968, "endEnqMs" : 0.460288, "startInMs" : 0.675893, "endInMs" : 7.54826, ...
    #   "inMs" : 0.080608, "computeMs" : 6.88214, ... }: endEnqMs - startEnqMs is inMs, so the In stamps are
    # the enqueue's; 7.54826 - 0.675893 to the 1e-5 ms its larger stamp carries
    assert (run.timings["h2d"][0], run.timings["gpu_compute"][0]) == (0.080608, 6.88214)
    assert run.timings["enqueue"][0] == 6.87237
    assert run.resolution_ms["enqueue"] == 0.01  # stamps near 3200 ms printed with six significant digits
    assert run.warmup_exported is True and run.compute_starts[:2] == [0.463232, 7.46272]
    keys = {"startH2dMs": 0, "endH2dMs": 1, "startComputeMs": 1, "endComputeMs": 3, "startD2hMs": 3, "endD2hMs": 4,
            "h2dMs": 1, "computeMs": 2, "d2hMs": 1, "latencyMs": 4}
    path = workdir / "times.json"
    path.write_text(json.dumps([dict(keys, startEnqMs=0.25, endEnqMs=0.75), dict(keys, startEnqMs=5, endEnqMs=4)]))
    with pytest.raises(InputError) as raised:
        parse_times(path, "times.json")
    assert (raised.value.where, raised.value.message) == ("/1/endEnqMs", "endEnqMs 4 is before startEnqMs 5")
    path.write_text(json.dumps([dict(keys, startEnqMs=0.25, endEnqMs=0.75)]))
    (run,) = parse_times(path)
    assert run.key_set == "TensorRT 8.2+" and run.warmup_exported is False
    assert run.timings == {"host_latency": [4], "gpu_compute": [2], "h2d": [1], "d2h": [1], "enqueue": [0.5]}


def test_percentiles_of_the_times_follow_trtexec(collect):
    done = collect("trtexec", "--log", TRT7_LOG, "--times", TRTEXEC / "trt7_resnet50-int8_times-concatenated.json")
    assert done.exit_code == 0, done.err
    # 958 timed iterations (the file's 1013 less the 55 warm-up ones): trtexec's p90 is
    # sorted[957 - floor(0.10 · 958)] = sorted[862], p95 sorted[910], p99 sorted[948]
    # (values read from the file with a plain sort of its iterations 56 to 1013)
    host = done.latency("host_latency", batch=1)["distribution"]
    assert (host["p90_ms"], host["p99_ms"]) == (3.13025, 3.4563)
    h2d = done.latency("h2d", batch=1)["statistics_ms"]  # inMs: the log summarises no H2D, the file alone
    assert (h2d["p90"], h2d["p95"], h2d["p99"]) == (0.0422058, 0.0540771, 0.0670166)


def trt7_iteration(enqueue: tuple[float, float], inputs: tuple[float, float], in_ms: float) -> dict:
    """One TensorRT 7 ``--exportTimes`` iteration with the two stamp pairs given (figures of our own)."""
    return {"startEnqMs": enqueue[0], "endEnqMs": enqueue[1], "startInMs": inputs[0], "endInMs": inputs[1],
            "inMs": in_ms, "computeMs": 1.5, "outMs": 0.02, "latencyMs": round(in_ms + 1.52, 6), "endToEndMs": 1.9}


def test_tensorrt_7_swapped_stamps_say_which_pair_is_the_enqueue(workdir):
    path = workdir / "times.json"
    path.write_text(json.dumps([trt7_iteration((10.0, 10.05), (10.1, 10.4), 0.05),
                                trt7_iteration((12.0, 12.06), (12.1, 12.35), 0.06)]))
    (run,) = parse_times(path, "times.json")
    assert run.timings["enqueue"] == [0.3, 0.25]
    assert run.derivation["enqueue"] == ("endInMs − startInMs: this writer swaps the enqueue and input stamps "
                                         "(endEnqMs − startEnqMs equals inMs in every iteration)")
    assert run.resolution_ms["enqueue"] == 0.0001  # stamps near 10 ms printed with six significant digits


def test_tensorrt_7_stamps_that_both_measure_h2d_give_no_enqueue(workdir):
    path = workdir / "times.json"
    path.write_text(json.dumps([trt7_iteration((10.0, 10.05), (10.1, 10.15), 0.05)]))
    (run,) = parse_times(path, "times.json")
    assert "enqueue" not in run.timings
    assert run.left_out == {"enqueue": "enqueue not derived from times.json array 1: both startEnqMs/endEnqMs and "
                                       "startInMs/endInMs measure inMs"}


def test_an_enqueue_below_the_stamps_resolution_is_left_out_with_the_count(workdir):
    keys = {"startH2dMs": 0, "endH2dMs": 1, "startComputeMs": 1, "endComputeMs": 3, "startD2hMs": 3, "endD2hMs": 4,
            "h2dMs": 1, "computeMs": 2, "d2hMs": 1, "latencyMs": 4}
    path = workdir / "times.json"
    # near 5000 ms six digits carry 0.01 ms: a 0.005 ms enqueue prints as two equal stamps
    path.write_text(json.dumps([dict(keys, startEnqMs=5000.01, endEnqMs=5000.01),
                                dict(keys, startEnqMs=5000.5, endEnqMs=5000.52)]))
    (run,) = parse_times(path, "times.json")
    assert "enqueue" not in run.timings
    assert run.left_out == {"enqueue": "enqueue not derived from times.json array 1: 1 of 2 differences endEnqMs − "
                                       "startEnqMs are below the 0.01 ms resolution of its timestamps (printed with 6 "
                                       "significant digits)"}


def test_times_of_an_unknown_writer_are_refused_naming_the_keys(workdir):
    error = refused(parse_times, workdir / "times.json", '[{"latencyMs": 1.0, "gpuMs": 0.5}]')
    assert (error.path, error.where, error.message) == (
        "times.json", "/0", "unknown --exportTimes keys ['gpuMs', 'latencyMs'] (expected TensorRT 8.2+ "
        "startH2dMs…latencyMs or TensorRT 7 startInMs…endToEndMs)")
