"""SG207: the same configuration differing by >= the anomaly factor across versions of one GPU, or departing by
it from the typical ratio of two GPUs in the study."""

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
    # 0.409 / 0.21 = 1.948 against the other version of the B200; the B300 (0.20), another GPU with one shared
    # configuration, sets no expectation
    assert finding.message == (
        "fp16 batch 1 kernel time GEMM/MatMul at 800x1067: 0.409 ms on NVIDIA B200, tensorrt=11.1.0.106,cuda=13.0 "
        "(job b200-11.1) is 1.95x the lowest version on this GPU (0.21 ms on NVIDIA B200, "
        "tensorrt=11.4.0.106,cuda=13.0 (job b200-11.4)), at or above the anomaly factor 1.50")


def test_below_the_factor_passes_and_the_factor_is_configurable(tmp_path):
    assert sg207_anomaly.check(CheckContext(versions(tmp_path / "a", trt11_1_ms=0.29))) == []  # 0.29 / 0.21 = 1.38x
    strict = versions(tmp_path / "b", trt11_1_ms=0.29, anomaly_factor=1.35)
    assert "1.38x the lowest version" in codes(sg207_anomaly.check(CheckContext(strict)), "SG207")[0].message


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


def test_one_gpu_slower_than_another_is_no_anomaly(tmp_path):
    # an L4 at 2.6x to 2.7x an RTX 4090 in every configuration: the pattern of the two GPUs, nothing departs from it
    l4, rtx = _trt("NVIDIA L4", "10.8.0"), _trt("NVIDIA GeForce RTX 4090", "10.8.0")
    shapes = {"640x640": (3.12, 1.18), "960x960": (6.9, 2.6), "1280x1280": (12.5, 4.7)}
    records = [record("l4", [latency("fp16", a, shape) for shape, (a, _) in shapes.items()], l4),
               record("rtx", [latency("fp16", b, shape) for shape, (_, b) in shapes.items()], rtx)]
    assert sg207_anomaly.check(CheckContext(load(tmp_path, records=records))) == []


def _gpu_pair(tmp_path, shapes: dict, factor=None):
    """A study of one fp16 engine on an L4 and an A100 (TensorRT 10.8), one latency per shape and GPU."""
    l4, a100 = _trt("NVIDIA L4", "10.8.0"), _trt("NVIDIA A100-SXM4-80GB", "10.8.0")
    records = [record("l4", [latency("fp16", a, shape) for shape, (a, _) in shapes.items()], l4),
               record("a100", [latency("fp16", b, shape) for shape, (_, b) in shapes.items()], a100)]
    study = spec(anomaly_factor=factor) if factor else spec()
    return sg207_anomaly.check(CheckContext(load(tmp_path, records=records, study=study)))


def test_the_cross_gpu_finding_in_full(tmp_path):
    # A100 / L4 ratios 1.0/2.0 = 0.5, 2.0/4.0 = 0.5, 3.2/8.0 = 0.4, 6.0/10.0 = 0.6, 9.0/12.0 = 0.75 (sorted by
    # platform: "NVIDIA A100..." before "NVIDIA L4"); median 0.5. At 512x512 the A100 is 0.75 / 0.5 = 1.5x off it:
    # the A100 is the slower side there
    shapes = {"128x128": (2.0, 1.0), "256x256": (4.0, 2.0), "320x320": (8.0, 3.2), "384x384": (10.0, 6.0),
              "512x512": (12.0, 9.0)}
    (finding,) = _gpu_pair(tmp_path, shapes)
    assert finding.file == "measurements/toy/a100.json" and finding.pointer == "/results/4/value_ms"
    assert finding.message == (
        "fp16 batch 1 latency (GPU compute time) median at 512x512: 9.0 ms on NVIDIA A100-SXM4-80GB, "
        "tensorrt=10.8.0,cuda=13.0 (job a100) is 0.75x 12.0 ms on NVIDIA L4, tensorrt=10.8.0,cuda=13.0 (job l4), "
        "1.50x the 0.50x typical of these two platforms (median over the 5 configurations both measured), at or "
        "above the anomaly factor 1.50")
    assert finding.hint == "add an explanation (code SG207, key or match) to the study file, or re-measure"
    # 0.6 / 0.5 = 1.2 at 384x384 stays under the factor; a factor of 1.2 takes it, and 320x320's 0.5 / 0.4 = 1.25
    # goes the other way: there the L4 is the slower side
    lowered = _gpu_pair(tmp_path / "lowered", shapes, factor=1.2)
    assert [(f.file, f.message.split(":")[0]) for f in lowered] == [
        ("measurements/toy/l4.json", "fp16 batch 1 latency (GPU compute time) median at 320x320"),
        ("measurements/toy/a100.json", "fp16 batch 1 latency (GPU compute time) median at 384x384"),
        ("measurements/toy/a100.json", "fp16 batch 1 latency (GPU compute time) median at 512x512")]
    assert "8.0 ms on NVIDIA L4, tensorrt=10.8.0,cuda=13.0 (job l4) is 2.50x 3.2 ms on NVIDIA A100" in lowered[0].message
    assert "1.25x the 2.00x typical of these two platforms" in lowered[0].message


def test_a_gpu_pair_needs_three_shared_configurations_for_a_pattern(tmp_path):
    # two configurations: the median 0.5 is their mean, 0.25 below it and 0.75 above: neither is the odd one;
    # three give the pattern
    two = {"128x128": (2.0, 0.5), "256x256": (4.0, 3.0)}
    assert _gpu_pair(tmp_path / "two", two) == []
    three = dict(two, **{"320x320": (8.0, 2.0)})  # ratios 0.25, 0.75, 0.25: median 0.25, 256x256 3x off it
    (finding,) = _gpu_pair(tmp_path / "three", three)
    assert "at 256x256: 3.0 ms on NVIDIA A100-SXM4-80GB" in finding.message
    assert "3.00x the 0.25x typical of these two platforms (median over the 3 configurations" in finding.message


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
        "fp16 batch 1 kernel time GEMM: 0.05 ms on NVIDIA B200, tensorrt=11.1.0.106,cuda=13.0 (job b200-11.1) is 3.80x below "
        "the 0.19 to 0.21 ms stated over the other rows (job summary: the other rows), at or above the anomaly factor "
        "1.50")
    assert finding.hint == "add an explanation (code SG207, key or match) to the study file, or re-measure"


def test_latencies_of_one_run_say_which_timing_they_are(tmp_path):
    # trtexec gives host latency next to GPU compute time: a finding on the host latency names it
    records = [record("b200", [latency("fp16", 0.05, timing="host_latency")], collected_provenance("NVIDIA B200")),
               record("b200-old", [latency("fp16", 3.0, timing="host_latency")], collected_provenance("NVIDIA B200", "11.1.0.106"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message.startswith("fp16 batch 1 latency (host latency) median at 800x800: 3.0 ms on NVIDIA B200")


# Method flags as trtexec records them (collect/trtexec/common.timing_method).
CLASSIC = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}
GRAPHS_NO_COPIES = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True}


def _trt(gpu: str, version: str) -> dict:
    return collected_provenance(gpu, version)


def test_latencies_timed_differently_are_not_compared(tmp_path):
    # issue 22: a run with CUDA graphs and no copies (0.041 ms) is no yardstick for runs with copies and no graphs;
    # among those (three TensorRT versions on one GPU), 0.262 / 0.097 = 2.70 on one timing, and the graph run is
    # named nowhere
    records = [record("pascal", [latency("fp32", 0.262, "32x32", method=CLASSIC)], _trt("GeForce RTX 3080", "8.2.3")),
               record("ampere", [latency("fp32", 0.097, "32x32", method=CLASSIC)], _trt("GeForce RTX 3080", "8.6.1")),
               record("hopper", [latency("fp32", 0.041, "32x32", method=GRAPHS_NO_COPIES)], _trt("GeForce RTX 3080", "10.3.0"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message == (
        "fp32 batch 1 latency (GPU compute time) median at 32x32: 0.262 ms on GeForce RTX 3080, "
        "tensorrt=8.2.3,cuda=13.0 (job pascal) is 2.70x the lowest version on this GPU (0.097 ms on GeForce RTX 3080, "
        "tensorrt=8.6.1,cuda=13.0 (job ampere)), at or above the anomaly factor 1.50")
    # alone with the graph run, the 8.2.3 figure (6.39x it) draws nothing
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
    assert "0.31 ms on NVIDIA L40S, tensorrt=10.9.0,cuda=13.0 (job trt10) is 2.58x the lowest version on this GPU" in finding.message


def test_timings_of_the_host_are_not_compared_across_platforms(tmp_path):
    # enqueue time (host CPU and driver) and the copies (the host's PCIe link) at 8.1x, 4.2x and 1.9x: nothing,
    # while the GPU compute time of the same runs, 1.62x apart, is reported
    def run(value_ms: float, enqueue: float, h2d: float, d2h: float) -> list[dict]:
        return [latency("fp16", value_ms, "64x64", method=CLASSIC),
                latency("fp16", enqueue, "64x64", method=CLASSIC, timing="enqueue"),
                latency("fp16", h2d, "64x64", method=CLASSIC, timing="h2d"),
                latency("fp16", d2h, "64x64", method=CLASSIC, timing="d2h")]
    records = [record("desk", run(0.81, 0.0405, 0.0084, 0.0038), _trt("NVIDIA A10", "8.5.3")),
               record("lab", run(0.5, 0.005, 0.002, 0.002), _trt("NVIDIA A10", "8.6.1"))]
    findings = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert [f.message.split(":")[0] for f in findings] == ["fp16 batch 1 latency (GPU compute time) median at 64x64"]
    assert "is 1.62x the lowest version on this GPU (0.5 ms on NVIDIA A10" in findings[0].message


def _with_range(tmp_path, b200_ms: float, b300_ms: float, second_gpu="NVIDIA B300"):
    summary = {"kind": "kernel_time", "variant": "fp16", "batch": 1, "backend": "tensorrt", "mode": "engine",
               "rows_listed": False,
               "groups": [{"group": GEMM, "time_ms_range": {"min": 0.19, "max": 0.21, "over": "the other rows"}}]}
    records = [record("b200", [kernel_time("fp16", {GEMM: b200_ms})], collected_provenance("NVIDIA B200")),
               record("b300", [kernel_time("fp16", {GEMM: b300_ms})], collected_provenance(second_gpu, "11.1.0.106")),
               record("summary", [summary], collected_provenance(None, None))]
    return sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))


def test_a_figure_inside_the_range_does_not_end_the_search(tmp_path):
    # 0.22 ms lies within 0.19 to 0.21 by the factor; 0.32 / 0.21 = 1.52 does not; 0.32 / 0.22 = 1.45 between them
    (finding,) = _with_range(tmp_path, 0.22, 0.32)
    assert finding.message.startswith("fp16 batch 1 kernel time GEMM/MatMul at 800x1067: 0.32 ms on NVIDIA B300")
    assert "is 1.52x above the 0.19 to 0.21 ms stated" in finding.message


def test_a_figure_reported_against_another_platform_is_not_reported_again_against_the_range(tmp_path):
    # 0.45 / 0.2 = 2.25 between two versions of the B200; 0.45 is also 2.14x the range's maximum: one finding
    (finding,) = _with_range(tmp_path, 0.2, 0.45, second_gpu="NVIDIA B200")
    assert "is 2.25x the lowest version on this GPU" in finding.message


def test_a_platform_with_several_runs_compares_the_median_of_those_timed_alike(tmp_path):
    # two H100 runs with copies (0.04, 0.05: median 0.045) and one with graphs and no copies (0.02), which stays
    # out of that median: 0.16 / 0.045 = 3.56 (with it, the median 0.04 would give 4.00)
    h100 = _trt("H100 PCIe", "10.16.1")
    records = [record("gtx", [latency("fp32", 0.16, "28x28", method=CLASSIC)], _trt("H100 PCIe", "8.2.3")),
               record("h100-a", [latency("fp32", 0.04, "28x28", method=CLASSIC)], h100),
               record("h100-b", [latency("fp32", 0.05, "28x28", method=CLASSIC)], h100),
               record("h100-ndt", [latency("fp32", 0.02, "28x28", method=GRAPHS_NO_COPIES)], h100)]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert ("(job gtx) is 3.56x the lowest version on this GPU (0.045 ms on H100 PCIe, tensorrt=10.16.1,cuda=13.0 "
            "(jobs h100-a, h100-b))") in finding.message


def test_a_pooled_median_prints_with_the_digits_its_rows_carry(tmp_path):
    # two traces of TensorRT 10.8 on one A100 (5.611 and 5.603 ms: median 5.607, a float 5.606999999999999) and
    # one of 10.3 at 12.5 ms: 12.5 / 5.607 = 2.229
    a100_new, a100_old = _trt("NVIDIA A100-PG509-200", "10.8.0"), _trt("NVIDIA A100-PG509-200", "10.3.0")
    records = [record("trace-a", [kernel_time("fp32", {"other": 5.611})], a100_new),
               record("trace-b", [kernel_time("fp32", {"other": 5.603})], a100_new),
               record("old", [kernel_time("fp32", {"other": 12.5})], a100_old)]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message == (
        "fp32 batch 1 kernel time other at 800x1067: 12.5 ms on NVIDIA A100-PG509-200, tensorrt=10.3.0,cuda=13.0 "
        "(job old) is 2.23x the lowest version on this GPU (5.607 ms on NVIDIA A100-PG509-200, "
        "tensorrt=10.8.0,cuda=13.0 (jobs trace-a, trace-b)), at or above the anomaly factor 1.50")


def test_two_batches_of_one_shape_read_apart(tmp_path):
    # batch 1: 4.0 / 1.6 = 2.5 between two versions of one GPU; batch 8: 30.0 / 12.1 = 2.48
    old, new = _trt("NVIDIA L4", "10.3.0"), _trt("NVIDIA L4", "10.8.0")
    records = [record("old", [latency("fp16", 4.0, "640x640"), latency("fp16", 30.0, "640x640", batch=8)], old),
               record("new", [latency("fp16", 1.6, "640x640"), latency("fp16", 12.1, "640x640", batch=8)], new)]
    findings = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert [f.message.split(" on ")[0] for f in findings] == [
        "fp16 batch 1 latency (GPU compute time) median at 640x640: 4.0 ms",
        "fp16 batch 8 latency (GPU compute time) median at 640x640: 30.0 ms"]


def test_pooled_figures_print_at_the_digits_their_inputs_carry():
    from studygen.numbers import SourceFloat, format_pooled

    a, b, c = SourceFloat("5.611"), SourceFloat("5.603"), SourceFloat("0.0496826")
    assert format_pooled((a + b) / 2, [a, b]) == "5.607"  # the float is 5.606999999999999
    assert format_pooled(b, [a, b, SourceFloat("5.5")]) == "5.603"  # one of them: as its source printed it
    assert format_pooled((a + c) / 2, [a, c]) == "2.8303413"  # the most digits any carries: c's 7
    low, high = SourceFloat("0.04"), SourceFloat("0.05")
    assert format_pooled((low + high) / 2, [low, high]) == "0.045"  # half a step between them: one digit more
    assert format_pooled(0.1 + 0.2, [0.1, 0.2]) == "0.30000000000000004"  # computed inputs carry no digits


def test_every_pair_of_platforms_is_judged(tmp_path):
    # A100 on TensorRT 10.3 and 10.8, an L4 on 10.8, three shapes. The two A100 versions agree within 1.28x
    # (6.4 / 5.0 at 384x384); A100 10.3 / L4 is 0.5, 0.5, 0.625 (median 0.5: 1.25x off at most); A100 10.8 / L4
    # is 0.5, 0.5, 0.8: 1.6x the typical 0.5 at 384x384, the only anomaly, found after the pairs that show none
    l4, old, new = _trt("NVIDIA L4", "10.8.0"), _trt("NVIDIA A100-SXM4-80GB", "10.3.0"), _trt("NVIDIA A100-SXM4-80GB", "10.8.0")
    shapes = ("128x128", "256x256", "384x384")
    def results(values):
        return [latency("fp16", v, shape) for shape, v in zip(shapes, values)]
    records = [record("l4", results((2.0, 4.0, 8.0)), l4), record("a100-old", results((1.0, 2.0, 5.0)), old),
               record("a100-new", results((1.0, 2.0, 6.4)), new)]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path, records=records)))
    assert finding.file == "measurements/toy/a100-new.json" and finding.pointer == "/results/2/value_ms"
    assert "is 0.80x 8.0 ms on NVIDIA L4, tensorrt=10.8.0,cuda=13.0 (job l4), 1.60x the 0.50x typical" in finding.message


def test_only_each_runs_compute_timing_is_judged(tmp_path):
    # trtexec prints GPU compute time, host latency and end-to-end time of one run: GPU compute 2.0 vs 1.0 ms
    # (2.00x) between two versions of one A10 is one anomaly, not three (host latency 2.3 / 1.3 = 1.77x and
    # end-to-end 2.6 / 1.5 = 1.73x restate it with host work added)
    def run(compute: float, host: float, end_to_end: float) -> list[dict]:
        return [latency("fp16", compute, "64x64", method=CLASSIC),
                latency("fp16", host, "64x64", method=CLASSIC, timing="host_latency"),
                latency("fp16", end_to_end, "64x64", method=CLASSIC, timing="end_to_end")]
    records = [record("old", run(2.0, 2.3, 2.6), _trt("NVIDIA A10", "8.5.3")),
               record("new", run(1.0, 1.3, 1.5), _trt("NVIDIA A10", "8.6.1"))]
    (finding,) = sg207_anomaly.check(CheckContext(load(tmp_path / "a", records=records)))
    assert finding.pointer == "/results/0/value_ms" and finding.file == "measurements/toy/old.json"
    assert finding.message.startswith("fp16 batch 1 latency (GPU compute time) median at 64x64: 2.0 ms on NVIDIA A10")
    assert "is 2.00x the lowest version on this GPU (1.0 ms on NVIDIA A10" in finding.message
    # GPU compute within 1.1x while host latency is 2.5x (3.0 vs 1.2 ms): a gap in the hosts, nothing to report
    records = [record("old", run(1.1, 3.0, 3.2), _trt("NVIDIA A10", "8.5.3")),
               record("new", run(1.0, 1.2, 1.4), _trt("NVIDIA A10", "8.6.1"))]
    assert sg207_anomaly.check(CheckContext(load(tmp_path / "b", records=records))) == []
    # a run giving host latency alone is judged by it (test_latencies_of_one_run_say_which_timing_they_are)


def test_typical_ratios_are_taken_once_per_pair(tmp_path):
    # each pair's typical ratio is a (median, count) made once, not a list sorted again per configuration
    shapes = {"128x128": (2.0, 1.0), "256x256": (4.0, 2.0), "320x320": (8.0, 3.2), "384x384": (10.0, 6.0)}
    l4, a100 = _trt("NVIDIA L4", "10.8.0"), _trt("NVIDIA A100-SXM4-80GB", "10.8.0")
    records = [record("l4", [latency("fp16", a, shape) for shape, (a, _) in shapes.items()], l4),
               record("a100", [latency("fp16", b, shape) for shape, (_, b) in shapes.items()], a100)]
    study = load(tmp_path, records=records)
    typical = sg207_anomaly.typical_ratios(sg207_anomaly.configuration_cells(sg207_anomaly.compared_rows(study.rows)))
    ((pattern, pairs),) = typical.items()
    assert pattern[:4] == ("latency", "gpu_compute", "tensorrt", "engine")
    ((pair, (usual, shared)),) = pairs.items()
    # A100 / L4: 0.5, 0.5, 0.4, 0.6: median 0.5 over 4
    assert pair[0][0] == "NVIDIA A100-SXM4-80GB" and pair[1][0] == "NVIDIA L4"
    assert (usual, shared) == (0.5, 4)


def test_a_configurations_pattern_is_taken_once_not_once_a_pair(tmp_path, monkeypatch):
    # four platforms on four GPUs measure one configuration at three shapes: 6 pairs a configuration; the
    # pattern (kind, metric, backend, mode, timing signature) is one per configuration, taken once each by the
    # typical ratios and once each by the departures (was once a pair in both: 36 calls)
    gpus = {"NVIDIA L4": 1.0, "NVIDIA A10": 1.5, "NVIDIA A100-SXM4-80GB": 3.0, "NVIDIA H100 80GB HBM3": 6.0}
    shapes = ("128x128", "256x256", "320x320")
    records = [record(f"gpu{index}", [latency("fp16", 12.0 / speed, shape) for shape in shapes],
                      _trt(gpu, "10.8.0")) for index, (gpu, speed) in enumerate(gpus.items())]
    study = load(tmp_path, records=records)
    compared = sg207_anomaly.compared_rows(study.rows)
    taken = []
    pattern = sg207_anomaly._pattern
    monkeypatch.setattr(sg207_anomaly, "_pattern", lambda row: taken.append(row.shape) or pattern(row))
    findings, reported = sg207_anomaly.listed_anomalies(study, compared, 1.5)
    assert (findings, reported) == ([], set())  # every pair at its typical ratio: nothing departs
    assert sorted(taken) == sorted(shapes * 2)
    # the typical ratio of each pair of the four (6 pairs), each over the three shapes: L4 / A10 = 1.5 at each
    typical = sg207_anomaly.typical_ratios(sg207_anomaly.configuration_cells(compared))
    ((_, pairs),) = typical.items()  # one pattern: fp16 latency, GPU compute time, one timing signature
    assert len(pairs) == 6 and all(shared == 3 for _, shared in pairs.values())
    (l4_a10,) = [usual for (a, b), (usual, _) in pairs.items() if {a[0], b[0]} == {"NVIDIA L4", "NVIDIA A10"}]
    assert abs(l4_a10 - 1 / 1.5) < 1e-12  # A10 sorts first: A10 / L4 = 8 ms / 12 ms


def test_typical_ratios_pair_platforms_of_different_gpus_only(tmp_path):
    # two TensorRT versions on the B200 and one on the B300: the B200's versions are compared with each other
    # by the figure itself, never by a typical ratio; each B200 version has one with the B300
    compared = sg207_anomaly.compared_rows(versions(tmp_path).rows)
    ((_, pairs),) = sg207_anomaly.typical_ratios(sg207_anomaly.configuration_cells(compared)).items()
    assert sorted((a[0], a[1].split(",")[0], b[0], b[1].split(",")[0], ratio) for (a, b), ratio in pairs.items()) == [
        ("NVIDIA B200", "tensorrt=11.1.0.106", "NVIDIA B300", "tensorrt=11.4.0.106", (0.409 / 0.20, 1)),
        ("NVIDIA B200", "tensorrt=11.4.0.106", "NVIDIA B300", "tensorrt=11.4.0.106", (0.21 / 0.20, 1))]
