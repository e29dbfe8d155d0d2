"""Latency statistics (values computed by hand) and the round-robin order of the timed loop."""

from __future__ import annotations

import math

import pytest

from studygen.collect.run.timing import Timer, summarize, time_interleaved


def test_summary_of_known_samples():
    # samples 1,2,2,3,3,3,4,4,5: mean 3; squared deviations 4,1,1,0,0,0,1,1,4 -> 12/9; std = sqrt(4/3)
    summary = summarize([[1, 2, 3], [2, 3, 4], [3, 4, 5]], warmup=2)
    d = summary.distribution
    assert (d["samples"], d["repeats"], d["iterations_per_repeat"], d["warmup_iterations"]) == (9, 3, 3, 2)
    assert d["repeat_medians_ms"] == [2.0, 3.0, 4.0]
    assert d["median_ms"] == 3.0 and summary.median_ms == 3.0
    assert d["std_ms"] == pytest.approx(math.sqrt(4 / 3), abs=1e-6)
    assert d["cv"] == pytest.approx(math.sqrt(4 / 3) / 3, abs=1e-6)
    # numpy linear interpolation on the sorted samples: index 0.9 * 8 = 7.2 -> 4 + 0.2 * (5 - 4)
    assert d["p90_ms"] == pytest.approx(4.2)
    assert d["p99_ms"] == pytest.approx(4.92)
    # each repeat of three: p25 halfway between 1st and 2nd, p75 between 2nd and 3rd -> IQR 1
    assert d["repeat_iqr_ms"] == [1.0, 1.0, 1.0]
    # repeat medians 2, 3, 4: mean 3, population std sqrt(2/3)
    assert d["repeat_cv"] == pytest.approx(math.sqrt(2 / 3) / 3, abs=1e-6)
    assert summary.unstable
    assert "CV 38.5 %" in summary.unstable_reason
    assert "repeat medians span 2.000 ms, more than the widest within-repeat interquartile range (1.000 ms)" \
        in summary.unstable_reason
    assert summary.statistics_ms == {"min": 1.0, "max": 5.0, "mean": 3.0, "median": 3.0,
                                     "std": d["std_ms"], "p90": 4.2, "p99": 4.92}


def test_steady_samples_are_stable_and_bimodal_repeats_are_flagged():
    steady = summarize([[10.0, 10.1, 10.2]] * 3, warmup=0)
    assert not steady.unstable and steady.unstable_reason is None
    # CV of all samples under 5 %, yet the repeats disagree beyond their own spread
    shifted = summarize([[10.0, 10.01, 10.02], [10.3, 10.31, 10.32], [10.0, 10.01, 10.02]], warmup=0)
    assert shifted.distribution["cv"] < 0.05
    assert shifted.unstable and shifted.unstable_reason.startswith("repeat medians span 0.300 ms")


def test_summary_refuses_empty_or_ragged_repeats():
    with pytest.raises(ValueError):
        summarize([], warmup=0)
    with pytest.raises(ValueError):
        summarize([[1.0, 2.0], [1.0]], warmup=0)


def test_variants_are_interleaved_round_robin_with_rotation():
    calls = []

    def make(name):
        return lambda i: calls.append((name, i))

    times = time_interleaved({"a": make("a"), "b": make("b"), "c": make("c")}, repeats=3, iterations=2, warmup=1,
                             timer=Timer(cuda=False))
    blocks = [calls[i:i + 3] for i in range(0, len(calls), 3)]  # 1 warm-up + 2 timed calls per block
    assert [b[0][0] for b in blocks] == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert all([x[1] for x in b] == [0, 0, 1] for b in blocks)
    assert {name: [len(r) for r in reps] for name, reps in times.items()} == {"a": [2, 2, 2], "b": [2, 2, 2], "c": [2, 2, 2]}
    assert all(t >= 0 for reps in times.values() for r in reps for t in r)


def test_timer_refuses_an_unknown_host_sync():
    with pytest.raises(ValueError, match="host_sync must be one of per_repeat, per_forward"):
        Timer(cuda=False, host_sync="never")


def test_host_clock_series_times_each_call():
    # 3 calls of a known sleep: each sample holds its own call, in order
    import time

    delays_s = [0.002, 0.010, 0.004]
    samples = Timer(cuda=False).series(lambda i: time.sleep(delays_s[i]), 3)
    assert len(samples) == 3
    assert [s >= d * 1000.0 for s, d in zip(samples, delays_s)] == [True, True, True]
    assert samples[1] > samples[0] and samples[1] > samples[2]


def test_a_latency_claims_cuda_graphs_only_when_inductor_replayed_every_graph():
    from studygen.collect.run.compiled import cuda_graph_report
    from studygen.collect.run.latency_stage import CompileInfo, latency_result
    from studygen.collect.run.spec import Cell

    summary = summarize([[10.0, 10.1], [10.0, 10.2], [10.1, 10.1]], warmup=1)
    settings = {"batch": 1, "compile_backend": "inductor", "compile_mode": "reduce-overhead"}
    timer = Timer(cuda=False)

    def method_and_compile(report):
        result = latency_result(Cell("compile", "800x800", "fp16"), settings, summary, timer, "set",
                                CompileInfo(12.5, report))
        return result["method"]["cuda_graph"], result["compile"]

    assert method_and_compile({"skipped_graphs": 0}) == (
        True, {"backend": "inductor", "mode": "reduce-overhead", "dynamic": False, "cudagraph_skipped_graphs": 0})
    assert method_and_compile({"skipped_graphs": 2})[0] is False
    assert method_and_compile(None)[0] is False
    # the default mode launches kernel by kernel: no report, no CUDA graphs claimed
    assert cuda_graph_report(0, {"compile_backend": "inductor", "compile_mode": "default"}) is None
