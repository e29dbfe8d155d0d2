"""Independent compilations (``run.compilations``): worker processes on the CPU with the tiny
study, and the merge of their outcomes with figures worked out by hand."""

from __future__ import annotations

import json
import statistics

import pytest

from studygen.collect.run.compilations import (MemorySink, Outcome, _worker_outcomes, differing_groups, merge_cell,
                                               merge_kernels)
from studygen.collect.run.spec import DEFAULT_RUN, build_plan
from studygen.records.load import load_record

from studygen.collect.run.compile_rule import inside_streak

from .conftest import TINY_STUDY, make_tiny_project, run_studygen

SETTINGS = {"warmup_iterations": 1, "unstable_cv": 0.05}


def _latency(value_ms, repeat_medians, cv=0.001, compile_s=10.0, unstable=False, reason=None, host=None):
    result = {"kind": "latency", "variant": "fp16", "shape": "800x800", "mode": "compile", "backend": "pytorch",
              "timing": "gpu_compute", "statistic": "median", "value_ms": value_ms, "compile_s": compile_s,
              "compile": {"backend": "inductor", "mode": "reduce-overhead", "dynamic": False,
                          "cudagraph_skipped_graphs": 0},
              "distribution": {"repeat_medians_ms": repeat_medians, "cv": cv}, "unstable": unstable}
    if host is not None:
        result["distribution"].update(host_issue_ms_per_forward=host / 2, host_ms_per_forward=host)
    if reason:
        result["unstable_reason"] = reason
    return result


def _kernel(grid_ms, gemm_ms):
    return {"kind": "kernel_time", "variant": "fp16", "shape": "800x800", "mode": "compile",
            "groups": [{"group": "GridSample", "time_ms": grid_ms}, {"group": "GEMM/MatMul", "time_ms": gemm_ms}],
            "profiled_total_ms": round(grid_ms + gemm_ms, 6)}


def _three():
    # compilation medians 8.4, 9.0, 8.6 ms: the median is 8.6 ms (compilation 3)
    return [Outcome(_latency(8.4, [8.4, 8.4], host=1.0), _kernel(6.4, 0.8), [[8.4, 8.4, 8.4], [8.4, 8.4, 8.4]]),
            Outcome(_latency(9.0, [9.0, 9.0], compile_s=12.5, host=3.0), _kernel(7.0, 0.8),
                    [[9.0, 9.0, 9.0], [9.0, 9.0, 9.0]]),
            Outcome(_latency(8.6, [8.6, 8.6], host=2.0), _kernel(6.6, 0.8), [[8.6, 8.6, 8.6], [8.6, 8.6, 8.6]])]


def test_merge_takes_the_median_over_compilations_and_keeps_each_one():
    latency, kernel = merge_cell(_three(), SETTINGS)
    assert latency["value_ms"] == 8.6
    assert [c["median_ms"] for c in latency["compilations"]] == [8.4, 9.0, 8.6]
    assert [c["compilation"] for c in latency["compilations"]] == [1, 2, 3]
    assert latency["compilations"][1] == {"compilation": 2, "median_ms": 9.0, "repeat_medians_ms": [9.0, 9.0],
                                          "cv": 0.001, "compile_s": 12.5, "unstable": False,
                                          "host_ms_per_forward": 3.0, "cudagraph_skipped_graphs": 0}
    d = latency["distribution"]
    # pooled: 18 samples, 6 repeats of 3, repeat medians in compilation order
    assert (d["samples"], d["repeats"], d["iterations_per_repeat"]) == (18, 6, 3)
    assert d["repeat_medians_ms"] == [8.4, 8.4, 9.0, 9.0, 8.6, 8.6]
    assert latency["statistics_ms"]["min"] == 8.4 and latency["statistics_ms"]["max"] == 9.0
    # host time: the median over compilations (1, 3, 2 ms)
    assert d["host_ms_per_forward"] == 2.0 and d["host_issue_ms_per_forward"] == 1.0
    assert latency["unstable"] is False and "unstable_reason" not in latency
    # the kernel profile shown is the median compilation's (the third), every compilation's groups kept
    assert kernel["profiled_total_ms"] == 7.4
    assert kernel["compilations"] == [
        {"compilation": 1, "profiled_total_ms": 7.2, "groups": {"GridSample": 6.4, "GEMM/MatMul": 0.8}},
        {"compilation": 2, "profiled_total_ms": 7.8, "groups": {"GridSample": 7.0, "GEMM/MatMul": 0.8}},
        {"compilation": 3, "profiled_total_ms": 7.4, "groups": {"GridSample": 6.6, "GEMM/MatMul": 0.8}}]


def _profiled(grid_ms, grid_forwards, conv_ms, conv_forwards, grid_kernels=None):
    """A kernel_time of one compilation with its forwards (GridSample and Conv, ms)."""
    result = {"kind": "kernel_time", "variant": "fp8", "shape": "800x800", "mode": "compile",
              "groups": [{"group": "GridSample", "time_ms": grid_ms}, {"group": "Conv", "time_ms": conv_ms}],
              "profiled_total_ms": round(grid_ms + conv_ms, 6),
              "per_iteration": [{"label": f"forward {k}", "profiled_total_ms": round(g + c, 6),
                                 "groups": {"GridSample": g, "Conv": c}}
                                for k, (g, c) in enumerate(zip(grid_forwards, conv_forwards), 1)]}
    if grid_kernels:
        result["groups"][0]["kernels"] = grid_kernels
    return result


def test_groups_differ_when_compilations_range_wider_than_any_one_compilations_forwards():
    fast = [{"name": "triton_poi_fused_grid_sampler_2d_68", "time_ms": 1.2, "calls": 6, "grid": [9600, 1, 1],
             "block": [128, 1, 1]}]
    slow = [{"name": "triton_poi_fused_grid_sampler_2d_68", "time_ms": 1.5, "calls": 6, "grid": [4800, 1, 1],
             "block": [256, 1, 1]}]
    kernels = [
        # GridSample 6.4 vs 8.2 ms between compilations, at most 0.05 ms between forwards: it differs.
        # Conv 0.41 vs 0.43 ms between compilations, 0.41 to 0.45 (0.04) between the first's forwards: it does not.
        _profiled(6.4, [6.38, 6.42, 6.40], 0.41, [0.41, 0.45, 0.42], fast),
        _profiled(8.2, [8.18, 8.23, 8.2], 0.43, [0.43, 0.43, 0.43], slow),
    ]
    assert differing_groups(kernels) == ["GridSample"]
    merged = merge_kernels(kernels, 0)
    assert merged["differing_groups"] == ["GridSample"]
    first, second = merged["compilations"]
    assert first["kernels"] == {"GridSample": fast} and second["kernels"] == {"GridSample": slow}
    assert second["per_iteration"] == kernels[1]["per_iteration"]
    assert first["groups"] == {"GridSample": 6.4, "Conv": 0.41} and second["profiled_total_ms"] == 8.63
    # the top level is compilation 1's, forwards included
    assert merged["per_iteration"] == kernels[0]["per_iteration"] and merged["groups"][0]["kernels"] == fast
    # Conv moved beyond its forwards' range (0.41 to 0.46, above 0.04): it differs too, listed kernels or not
    kernels[1] = _profiled(8.2, [8.18, 8.23, 8.2], 0.46, [0.46, 0.46, 0.46], slow)
    assert differing_groups(kernels) == ["GridSample", "Conv"]
    assert "Conv" not in merge_kernels(kernels, 0)["compilations"][0].get("kernels", {})  # none listed


def test_a_group_one_compilation_lacks_differs_and_without_forwards_any_difference_counts():
    with_quantize = {"kind": "kernel_time", "profiled_total_ms": 2.0,
                     "groups": [{"group": "GEMM/MatMul", "time_ms": 1.9}, {"group": "Quantize/Dequantize", "time_ms": 0.1}]}
    without = {"kind": "kernel_time", "profiled_total_ms": 1.9, "groups": [{"group": "GEMM/MatMul", "time_ms": 1.9}]}
    assert differing_groups([with_quantize, without]) == ["Quantize/Dequantize"]
    assert differing_groups([without, with_quantize]) == ["Quantize/Dequantize"]
    # 1.9 against 1.91 ms: 0.01 ms apart, above half a percent of the median total (0.005 x 1.905 = 0.0095 ms)
    nudged = {"kind": "kernel_time", "profiled_total_ms": 1.91, "groups": [{"group": "GEMM/MatMul", "time_ms": 1.91}]}
    assert differing_groups([without, nudged]) == ["GEMM/MatMul"]
    assert differing_groups([without, without]) == [] and "differing_groups" not in merge_kernels([without], 0)
    # a forward without the group counts 0 ms: its range is the group's whole time
    gappy = _profiled(6.4, [6.4, 6.4], 0.4, [0.4, 0.4])
    gappy["per_iteration"][1]["groups"].pop("Conv")
    assert "Conv" not in differing_groups([gappy, _profiled(6.4, [6.4, 6.4], 0.79, [0.79, 0.79])])


def test_a_group_that_moves_by_less_than_half_a_percent_of_the_forward_keeps_no_kernels():
    # One H200 compilation pair, read off h200-compile-800x800.json (fp16, compilations 3 and 4): under CUDA
    # graphs one compilation's forwards agree to microseconds, so "other" (0.0362 vs 0.0343 ms) and Conv
    # (0.4134 vs 0.4204 ms) range wider between the compilations than between forwards, but by less than half a
    # percent of the forward (0.005 x 8.3 = 0.0415 ms); GEMM/MatMul (0.945 vs 0.792 ms) by more.
    def profile(gemm, conv, other, jitter):
        total = round(gemm + conv + other + 6.9, 6)
        forwards = [{"label": f"forward {k}", "profiled_total_ms": total,
                     "groups": {"GEMM/MatMul": round(gemm + d, 6), "Conv": round(conv + d, 6), "other": round(other + d, 6)}}
                    for k, d in enumerate((0.0, jitter), 1)]
        return {"kind": "kernel_time", "profiled_total_ms": total, "per_iteration": forwards,
                "groups": [{"group": "GEMM/MatMul", "time_ms": gemm}, {"group": "Conv", "time_ms": conv},
                           {"group": "other", "time_ms": other}]}

    pair = [profile(0.945, 0.4134, 0.0362, 0.0004), profile(0.792, 0.4204, 0.0343, 0.0004)]
    assert differing_groups(pair) == ["GEMM/MatMul"]
    # the floor is a share of the forward: the same Conv move (0.007 ms) in a forward of 1.2 ms (floor 0.006 ms)
    # counts, "other" (0.0019 ms) still does not
    small = [{**p, "profiled_total_ms": 1.2} for p in pair]
    assert differing_groups(small) == ["GEMM/MatMul", "Conv"]


def test_merge_of_an_even_count_keeps_the_lower_middle_profile_and_the_middle_median():
    outcomes = _three()[:2]  # 8.4 and 9.0 ms
    latency, kernel = merge_cell(outcomes, SETTINGS)
    assert latency["value_ms"] == pytest.approx(8.7)
    assert kernel["profiled_total_ms"] == 7.2  # compilation 1, the lower middle


def test_an_unstable_compilation_makes_the_cell_unstable_and_is_named():
    outcomes = _three()
    outcomes[1].latency.update(unstable=True, unstable_reason="CV 6.0 % over all samples exceeds 5 %")
    latency, _ = merge_cell(outcomes, SETTINGS)
    assert latency["unstable"] is True
    assert latency["unstable_reason"] == "compilation 2: CV 6.0 % over all samples exceeds 5 %"
    assert [c["unstable"] for c in latency["compilations"]] == [False, True, False]


def test_a_refused_compilation_makes_the_cell_not_measured_naming_it():
    outcomes = _three()
    outcomes[2] = Outcome({"kind": "not_measured", "variant": "fp16", "shape": "800x800", "mode": "compile",
                           "backend": "pytorch", "metric": "latency", "reason": "torch.compile failed: boom"})
    results = merge_cell(outcomes, SETTINGS)
    assert len(results) == 1  # no profile of the third compilation: no kernel_time result
    assert results[0]["kind"] == "not_measured"
    assert results[0]["reason"] == "compilation 3 of 3: torch.compile failed: boom"


def test_a_worker_that_died_gives_not_measured_cells():
    outcomes = _worker_outcomes(None, ("error", "the worker process exited with code -9 before it reported"),
                                "800x800", ["fp16", "fp8"])
    assert set(outcomes) == {"fp16", "fp8"}
    assert outcomes["fp8"].latency["reason"] == (
        "the compilation failed: the worker process exited with code -9 before it reported")
    assert outcomes["fp8"].kernel is None and outcomes["fp8"].latency["metric"] == "latency"


def test_a_worker_sink_never_records_the_quantization_again_and_a_delegating_one_asks_the_record():
    worker = MemorySink()
    assert worker.has("quantization", "fp8", "800x800") and not worker.has("latency", "fp8", "800x800", "compile")

    class Record:
        def has(self, *key):
            return key == ("latency", "fp16", "64x96", "compile", "median", 4)

    here = MemorySink(delegate=Record())
    assert here.has("latency", "fp16", "64x96", "compile", "median", 4)  # the batch asked for is passed on
    assert not here.has("latency", "fp16", "64x96", "compile", "median", 2)
    assert not here.has("quantization", "fp8", "64x96")


def test_three_compilations_by_default_and_the_study_may_ask_for_one():
    assert DEFAULT_RUN["compilations"] == 3 and DEFAULT_RUN["pin_timing"] is True
    spec = {"family": "f", "model": {}, "variants": [{"name": "fp16", "precision": "fp16"}],
            "agreement": {"reference_variant": "fp16"}, "run": {"compilations": 1}}
    assert build_plan(spec, study_path="s.yaml").settings["compilations"] == 1
    del spec["run"]
    assert build_plan(spec, study_path="s.yaml").settings["compilations"] == 3


def test_two_compilations_in_worker_processes_on_the_cpu(tmp_path):
    study = TINY_STUDY.replace("  compilations: 1  #", "  compilations: 2  #")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "twice",
                                "--root", root, "--modes", "compile", "--variants", "fp16", "--quiet")
    assert code == 0, output
    path = root / "measurements" / "tiny" / "twice.json"
    record = load_record(path)  # schema-checked
    latencies = {r["variant"]: r for r in record.results if r["kind"] == "latency"}
    kernels = {r["variant"]: r for r in record.results if r["kind"] == "kernel_time"}
    assert set(latencies) == set(kernels) == {"fp16"}  # one variant keeps the two worker processes cheap
    for name, latency in latencies.items():
        entries = latency["compilations"]
        assert [e["compilation"] for e in entries] == [1, 2]
        medians = [e["median_ms"] for e in entries]
        assert latency["value_ms"] == pytest.approx(statistics.median(medians), abs=1e-6)
        assert all(len(e["repeat_medians_ms"]) == 3 and e["compile_s"] > 0 for e in entries)
        d = latency["distribution"]
        assert (d["samples"], d["repeats"]) == (18, 6)
        assert d["repeat_medians_ms"] == entries[0]["repeat_medians_ms"] + entries[1]["repeat_medians_ms"]
        assert d["host_ms_per_forward"] > 0
        profiles = kernels[name]["compilations"]
        assert [p["compilation"] for p in profiles] == [1, 2]
        lower = 0 if medians[0] <= medians[1] else 1
        assert kernels[name]["profiled_total_ms"] == profiles[lower]["profiled_total_ms"]
    # with several compilations the measuring process builds no variant for compiled cells (no FP8 here: no quantization)
    assert [r["kind"] for r in record.results].count("quantization") == 0
    assert json.loads(path.read_text())["provenance"]["run_wall_s"] > 0


def test_auto_compilations_in_waves_on_the_cpu_keep_the_rule_and_how_it_ended(tmp_path):
    # at least 2, then one more at a time until the last one fell inside the range of those before it, at most 3
    study = TINY_STUDY.replace("  compilations: 1  #", "  compilation_rule: {at_least: 2, consecutive_inside: 1, "
                                                       "at_most: 3}\n  compilations: auto  #")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "auto",
                                "--root", root, "--modes", "compile", "--variants", "fp16")
    assert code == 0, output
    record = load_record(root / "measurements" / "tiny" / "auto.json")
    latency = next(r for r in record.results if r["kind"] == "latency")
    kernel = next(r for r in record.results if r["kind"] == "kernel_time")
    medians = [entry["median_ms"] for entry in latency["compilations"]]
    rule = latency["compilation_rule"]
    # two in the first wave; a third only when the second fell outside [first, first]
    third = not medians[0] == medians[1]
    assert len(medians) == (3 if third else 2)
    assert rule == {"compilations": "auto", "at_least": 2, "consecutive_inside": 1, "at_most": 3,
                    "count": len(medians), "stopped": ("rule met" if not third or min(medians[:2]) <= medians[2]
                                                       <= max(medians[:2]) else "at most reached"),
                    "inside_streak": inside_streak(medians)}
    # every compilation's profile with its forwards (2 per profile in the tiny study)
    assert [len(c["per_iteration"]) for c in kernel["compilations"]] == [2] * len(medians)
    assert kernel["per_iteration"] and kernel["iterations"] == 2


def test_a_time_limit_before_any_compilation_finished_leaves_the_cells_unmeasured(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # the log line whole
    study = TINY_STUDY.replace("  compilations: 1  #", "  compilations: 2  #")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cut",
                                "--root", root, "--modes", "compile", "--variants", "fp16", "--time-limit", "1")
    assert code == 0, output
    assert "compile 64x96: no compilation finished before the time limit; fp16 left unmeasured" in output
    # no result for the cell (a --resume of the job measures it); only the AP's not_measured
    record = load_record(root / "measurements" / "tiny" / "cut.json")
    assert [(r["kind"], r.get("metric")) for r in record.results] == [("not_measured", "coco_ap")]


def test_host_time_per_forward_is_the_median_over_repeats_and_the_cpu_timer_records_it():
    from studygen.collect.run.timing import Timer, host_per_forward, pinned_to_cores, time_interleaved

    # issue and wall ms per forward of three repeats: medians 2.0 and 9.0
    assert host_per_forward([(1.0, 9.5), (2.0, 9.0), (3.0, 8.0)]) == {"host_issue_ms_per_forward": 2.0,
                                                                        "host_ms_per_forward": 9.0}
    host = {}
    times = time_interleaved({"a": lambda i: None, "b": lambda i: None}, repeats=2, iterations=3, warmup=1,
                             timer=Timer(cuda=False), host=host)
    assert set(host) == {"a", "b"} and all(len(per_repeat) == 2 for per_repeat in host.values())
    # without CUDA the host's issue time is its wall time, at least the sum of the samples per forward
    for name, per_repeat in host.items():
        for (issue, wall), samples in zip(per_repeat, times[name]):
            assert issue == wall and wall * 3 >= sum(samples) * 0.999
    with pinned_to_cores(False) as cores:
        assert cores is None
