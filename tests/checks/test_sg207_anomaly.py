"""SG207: the same configuration differing by >= the anomaly factor across GPUs or versions."""

from __future__ import annotations

from studygen.checks import CheckContext, run_checks, sg207_anomaly
from studygen.findings import ERROR, NOTICE

from .studies import codes, collected_provenance, kernel_time, latency, load, record, spec

GEMM = "GEMM/MatMul"


def versions(tmp_path, trt11_1_ms=0.409, **study_overrides):
    records = [
        record("b200-11.4", [kernel_time("fp16", {GEMM: 0.21})], collected_provenance("NVIDIA B200", "11.4.0.106")),
        record("b300-11.4", [kernel_time("fp16", {GEMM: 0.20})], collected_provenance("NVIDIA B300", "11.4.0.106")),
        record("b200-11.1", [kernel_time("fp16", {GEMM: trt11_1_ms})], collected_provenance("NVIDIA B200", "11.1.0.106")),
    ]
    return load(tmp_path, records=records, study=spec(**study_overrides))


def test_listed_rows_across_versions(tmp_path):
    study = versions(tmp_path)
    findings = codes(sg207_anomaly.check(CheckContext(study)), "SG207")
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity == ERROR and finding.file == "measurements/toy/b200-11.1.json"
    assert finding.pointer == "/results/0/groups/0/time_ms"
    text = (tmp_path / "measurements/toy/b200-11.1.json").read_text().splitlines()
    assert '"time_ms": 0.409' in text[finding.line - 1]
    assert "0.409 ms on NVIDIA B200, tensorrt=11.1.0.106,cuda=13.0 (job b200-11.1) is 2.05x the lowest platform (0.2 ms" in finding.message
    assert "0.21 ms on NVIDIA B200, tensorrt=11.4.0.106,cuda=13.0 (job b200-11.4)" in finding.message


def test_below_the_factor_passes_and_the_factor_is_configurable(tmp_path):
    assert sg207_anomaly.check(CheckContext(versions(tmp_path / "a", trt11_1_ms=0.29))) == []  # 1.45x
    strict = versions(tmp_path / "b", trt11_1_ms=0.29, anomaly_factor=1.4)
    assert "1.45x" in codes(sg207_anomaly.check(CheckContext(strict)), "SG207")[0].message


def test_listed_row_against_a_range_over_unlisted_rows(tmp_path):
    summary = {"kind": "kernel_time", "variant": "fp16", "batch": 1, "backend": "tensorrt", "mode": "engine",
               "rows_listed": False,
               "groups": [{"group": GEMM, "time_ms_range": {"min": 0.19, "max": 0.21, "over": "the other rows"}}]}
    records = [
        record("summary", [summary], collected_provenance(None, None)),
        record("b200-11.1", [kernel_time("fp16", {GEMM: 0.409})], collected_provenance("NVIDIA B200", "11.1.0.106")),
    ]
    study = load(tmp_path, records=records)
    finding = codes(sg207_anomaly.check(CheckContext(study)), "SG207")[0]
    assert finding.file == "measurements/toy/b200-11.1.json"
    assert "0.409 ms on NVIDIA B200" in finding.message
    assert "1.95x above the 0.19 to 0.21 ms stated over the other rows (job summary: the other rows)" in finding.message


def test_an_explanation_turns_it_into_a_notice(tmp_path):
    study = versions(tmp_path)
    key = sg207_anomaly.check(CheckContext(study))[0].key
    explained = versions(tmp_path / "explained", explanations=[
        {"code": "SG207", "key": key, "text": "TensorRT 11.1 attributes more kernels to the GEMM group."}])
    finding = next(f for f in run_checks(explained) if f.code == "SG207")
    assert finding.severity == NOTICE and "explained: TensorRT 11.1 attributes" in finding.waived_reason
    assert "no explanation" not in finding.message  # an explained finding never says it has none


def test_the_listed_finding_in_full(tmp_path):
    # 14.2 / 5.889 = 2.411: at or above the default factor 1.5
    records = [record("b200", [latency("fp16", 5.889)], collected_provenance("NVIDIA B200")),
               record("b300", [latency("fp16", 14.2)], collected_provenance("NVIDIA B300"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message == (
        "fp16 latency (GPU compute time) median at 800x800: 14.2 ms on NVIDIA B300, tensorrt=11.4.0.106,cuda=13.0 "
        "(job b300) is 2.41x the lowest platform (5.889 ms on NVIDIA B200, tensorrt=11.4.0.106,cuda=13.0), at or above "
        "the anomaly factor 1.50; other platforms: 5.889 ms on NVIDIA B200, tensorrt=11.4.0.106,cuda=13.0 (job b200)")
    assert finding.hint == "add an explanation (code SG207, key or match) to the study file, or re-measure"


def test_a_listed_row_far_below_a_stated_range(tmp_path):
    # 0.19 / 0.05 = 3.8; the row has no shape, so the message names none
    summary = {"kind": "kernel_time", "variant": "fp16", "batch": 1, "backend": "tensorrt", "mode": "engine",
               "rows_listed": False,
               "groups": [{"group": "GEMM", "time_ms_range": {"min": 0.19, "max": 0.21, "over": "the other rows"}}]}
    listed = kernel_time("fp16", {"GEMM": 0.05})
    del listed["shape"]
    records = [record("summary", [summary], collected_provenance(None, None)),
               record("b200-11.1", [listed], collected_provenance("NVIDIA B200", "11.1.0.106"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message == (
        "fp16 kernel time GEMM: 0.05 ms on NVIDIA B200, tensorrt=11.1.0.106,cuda=13.0 (job b200-11.1) is 3.80x below "
        "the 0.19 to 0.21 ms stated over the other rows (job summary: the other rows), at or above the anomaly factor "
        "1.50")
    assert finding.hint == "add an explanation (code SG207, key or match) to the study file, or re-measure"


def test_latencies_of_one_run_say_which_timing_they_are(tmp_path):
    # trtexec gives host latency next to GPU compute time: a finding on the host latency names it
    records = [record("b200", [latency("fp16", 0.05, timing="host_latency")], collected_provenance("NVIDIA B200")),
               record("b300", [latency("fp16", 3.0, timing="host_latency")], collected_provenance("NVIDIA B300"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message.startswith("fp16 latency (host latency) median at 800x800: 3.0 ms on NVIDIA B300")


# Method flags as trtexec records them (collect/trtexec/common.timing_method).
CLASSIC = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}
GRAPHS_NO_COPIES = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True}


def _trt(gpu: str, version: str) -> dict:
    return collected_provenance(gpu, version)


def test_latencies_timed_differently_are_not_compared(tmp_path):
    # issue 22: a run with CUDA graphs and no copies (0.041 ms) is no yardstick for runs with copies and no graphs;
    # among those, 0.262 / 0.097 = 2.70 on one timing, and the graph run is named nowhere
    records = [record("pascal", [latency("fp32", 0.262, "32x32", method=CLASSIC)], _trt("GeForce GTX 1080", "8.2.3")),
               record("ampere", [latency("fp32", 0.097, "32x32", method=CLASSIC)], _trt("GeForce RTX 3080", "8.6.1")),
               record("hopper", [latency("fp32", 0.041, "32x32", method=GRAPHS_NO_COPIES)], _trt("H100 SXM", "10.3.0"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message == (
        "fp32 latency (GPU compute time) median at 32x32: 0.262 ms on GeForce GTX 1080, tensorrt=8.2.3,cuda=13.0 "
        "(job pascal) is 2.70x the lowest platform (0.097 ms on GeForce RTX 3080, tensorrt=8.6.1,cuda=13.0), at or "
        "above the anomaly factor 1.50; other platforms: 0.097 ms on GeForce RTX 3080, tensorrt=8.6.1,cuda=13.0 "
        "(job ampere)")
    # alone with the graph run, the Pascal figure (6.39x it) draws nothing
    alone = [records[0], records[2]]
    assert sg207_anomaly.check(CheckContext(load(tmp_path / "alone", records=alone))) == []


def test_unset_flags_take_the_tensorrt_defaults_of_their_version(tmp_path):
    # TensorRT 11 times with graphs and no copies by default, TensorRT 10 without: the same command line
    # measures different things, so 0.31 vs 0.12 ms (2.58x) is not compared ...
    bare = {"timer": "trtexec"}
    records = [record("trt10", [latency("fp16", 0.31, method=bare)], _trt("NVIDIA L40S", "10.9.0")),
               record("trt11", [latency("fp16", 0.12, method=bare)], _trt("NVIDIA L40S", "11.2.0"))]
    assert sg207_anomaly.check(CheckContext(load(tmp_path / "a", records=records))) == []
    # ... while a TensorRT 10 run stating the classic flags is timed like a TensorRT 8 run that states none
    records = [record("trt10", [latency("fp16", 0.31, method=CLASSIC)], _trt("NVIDIA L40S", "10.9.0")),
               record("trt8", [latency("fp16", 0.12, method=bare)], _trt("NVIDIA L40S", "8.6.1"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path / "b", records=records)))
    assert "0.31 ms on NVIDIA L40S, tensorrt=10.9.0,cuda=13.0 (job trt10) is 2.58x the lowest platform" in finding.message


def test_timings_of_the_host_are_not_compared_across_platforms(tmp_path):
    # enqueue time (host CPU and driver) and the copies (the host's PCIe link) at 8.1x, 4.2x and 1.9x: nothing,
    # while the GPU compute time of the same runs, 1.62x apart, is reported
    def run(value_ms: float, enqueue: float, h2d: float, d2h: float) -> list[dict]:
        return [latency("fp16", value_ms, "64x64", method=CLASSIC),
                latency("fp16", enqueue, "64x64", method=CLASSIC, timing="enqueue"),
                latency("fp16", h2d, "64x64", method=CLASSIC, timing="h2d"),
                latency("fp16", d2h, "64x64", method=CLASSIC, timing="d2h")]
    records = [record("desk", run(0.81, 0.0405, 0.0084, 0.0038), _trt("GeForce RTX 2070", "8.5.3")),
               record("lab", run(0.5, 0.005, 0.002, 0.002), _trt("NVIDIA A10", "8.5.3"))]
    findings = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert [f.message.split(":")[0] for f in findings] == ["fp16 latency (GPU compute time) median at 64x64"]
    assert "is 1.62x the lowest platform (0.5 ms on NVIDIA A10" in findings[0].message


def _with_range(tmp_path, b200_ms: float, b300_ms: float):
    summary = {"kind": "kernel_time", "variant": "fp16", "batch": 1, "backend": "tensorrt", "mode": "engine",
               "rows_listed": False,
               "groups": [{"group": GEMM, "time_ms_range": {"min": 0.19, "max": 0.21, "over": "the other rows"}}]}
    records = [record("b200", [kernel_time("fp16", {GEMM: b200_ms})], collected_provenance("NVIDIA B200")),
               record("b300", [kernel_time("fp16", {GEMM: b300_ms})], collected_provenance("NVIDIA B300")),
               record("summary", [summary], collected_provenance(None, None))]
    return sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))


def test_a_figure_inside_the_range_does_not_end_the_search(tmp_path):
    # 0.22 ms lies within 0.19 to 0.21 by the factor; 0.32 / 0.21 = 1.52 does not; 0.32 / 0.22 = 1.45 between them
    (finding,) = _with_range(tmp_path, 0.22, 0.32)
    assert finding.message.startswith("fp16 kernel time GEMM/MatMul at 800x1067: 0.32 ms on NVIDIA B300")
    assert "is 1.52x above the 0.19 to 0.21 ms stated" in finding.message


def test_a_figure_reported_against_another_platform_is_not_reported_again_against_the_range(tmp_path):
    # 0.45 / 0.2 = 2.25 between the listed rows; 0.45 is also 2.14x the range's maximum: one finding
    (finding,) = _with_range(tmp_path, 0.2, 0.45)
    assert "is 2.25x the lowest platform" in finding.message


def test_a_platform_with_several_runs_compares_the_median_of_those_timed_alike(tmp_path):
    # two H100 runs with copies (0.04, 0.05: median 0.045) and one with graphs and no copies (0.02), which stays
    # out of that median: 0.16 / 0.045 = 3.56 (with it, the median 0.04 would give 4.00)
    h100 = _trt("H100 PCIe", "10.16.1")
    records = [record("gtx", [latency("fp32", 0.16, "28x28", method=CLASSIC)], _trt("GeForce GTX 1070", "8.2.3")),
               record("h100-a", [latency("fp32", 0.04, "28x28", method=CLASSIC)], h100),
               record("h100-b", [latency("fp32", 0.05, "28x28", method=CLASSIC)], h100),
               record("h100-ndt", [latency("fp32", 0.02, "28x28", method=GRAPHS_NO_COPIES)], h100)]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert "(job gtx) is 3.56x the lowest platform (0.045 ms on H100 PCIe, tensorrt=10.16.1,cuda=13.0)" in finding.message
