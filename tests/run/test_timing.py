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

    delays_s = [0.002, 0.040, 0.004]  # far apart, so a loaded machine does not swap their order
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


def test_skewed_samples_keep_median_and_mean_apart():
    # samples 1, 2, 6, 2, 2, 5: sorted 1, 2, 2, 2, 5, 6; mean 18 / 6 = 3, median 2;
    # squared deviations 4, 1, 9, 1, 1, 4 -> 20 / 6, std = sqrt(10 / 3) = 1.825742, CV 0.608581
    summary = summarize([[1, 2, 6], [2, 2, 5]], warmup=0, unstable_cv=0.7)
    d = summary.distribution
    assert (d["median_ms"], d["mean_ms"], d["std_ms"], d["cv"]) == (2.0, 3.0, 1.825742, 0.608581)
    # linear interpolation: p90 at index 4.5 -> 5.5, p99 at 4.95 -> 5.95
    assert (d["p90_ms"], d["p99_ms"]) == (5.5, 5.95)
    # repeat [1, 2, 6]: p25 1.5, p75 4 -> IQR 2.5; [2, 2, 5]: p25 2, p75 3.5 -> 1.5; equal medians, repeat CV 0
    assert (d["repeat_medians_ms"], d["repeat_iqr_ms"], d["repeat_cv"]) == ([2.0, 2.0], [2.5, 1.5], 0.0)
    assert summary.statistics_ms == {"min": 1.0, "max": 6.0, "mean": 3.0, "median": 2.0, "std": 1.825742,
                                     "p90": 5.5, "p99": 5.95}
    assert summary.median_ms == 2.0 and not summary.unstable and summary.unstable_reason is None


def test_unstable_only_above_the_thresholds():
    # [1, 3]: mean 2, std 1, CV exactly 0.5; one repeat, so no repeat spread
    assert not summarize([[1.0, 3.0]], warmup=0, unstable_cv=0.5).unstable
    above = summarize([[1.0, 3.0]], warmup=0, unstable_cv=0.49)
    assert above.unstable and above.unstable_reason == "CV 50.0 % over all samples exceeds 49 %"
    # repeat medians 2 and 3 span 1 ms, exactly the within-repeat IQR (1 ms): not flagged
    assert not summarize([[1, 2, 3], [2, 3, 4]], warmup=0, unstable_cv=1.0).unstable
    # two repeats that disagree beyond their spread are flagged, and both reasons are given, in order
    both = summarize([[10.0, 10.01, 10.02], [10.3, 10.31, 10.32]], warmup=0, unstable_cv=0.001)
    assert both.unstable_reason == ("CV 1.5 % over all samples exceeds 0.1 %; repeat medians span 0.300 ms, more "
                                    "than the widest within-repeat interquartile range (0.010 ms)")


def test_all_zero_samples_have_zero_cv_and_figures_are_rounded_to_a_nanosecond():
    zeros = summarize([[0.0, 0.0], [0.0, 0.0]], warmup=0)
    assert (zeros.distribution["cv"], zeros.distribution["repeat_cv"], zeros.unstable) == (0.0, 0.0, False)
    fine = summarize([[0.1234567891, 0.1234567891]], warmup=0)
    assert fine.median_ms == 0.123457 and fine.distribution["mean_ms"] == 0.123457
    with pytest.raises(ValueError, match=r"^summarize needs R >= 1 repeats of equal, non-zero length$"):
        summarize([[]], warmup=0)


def test_figures_below_one_millisecond_keep_their_spread_and_the_median_interpolates():
    # [0.2, 0.6]: mean 0.4, std 0.2, CV 0.5; repeat medians 0.2 and 0.6: repeat CV 0.5 too
    small = summarize([[0.2], [0.6]], warmup=0)
    assert (small.distribution["cv"], small.distribution["repeat_cv"]) == (0.5, 0.5)
    # an even count: the median halfway between the middle samples
    assert summarize([[1.0, 2.0, 3.0, 4.0]], warmup=0).median_ms == 2.5


def test_progress_is_reported_after_each_block_and_per_forward_sync_runs_on_the_host_clock():
    steps = []
    times = time_interleaved({"a": lambda i: None, "b": lambda i: None}, repeats=2, iterations=3, warmup=2,
                             timer=Timer(cuda=False, host_sync="per_forward"), on_step=lambda r, n: steps.append((r, n)))
    assert steps == [(0, "a"), (0, "b"), (1, "b"), (1, "a")]
    assert {name: [len(r) for r in reps] for name, reps in times.items()} == {"a": [3, 3], "b": [3, 3]}


def test_timer_names_its_clock():
    assert (Timer(cuda=False).name, Timer(cuda=False).host_sync) == ("perf-counter", "per_repeat")
    events = Timer(cuda=True, host_sync="per_forward")  # nothing touches the GPU until it times
    assert (events.name, events.cuda, events.host_sync) == ("cuda-events", True, "per_forward")


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="needs a CUDA device (the GPU machine)")
@pytest.mark.parametrize("host_sync", ["per_repeat", "per_forward"])
def test_cuda_events_time_each_forward_on_the_device(host_sync):
    import torch

    cycles = [1_000_000, 20_000_000, 1_000_000]  # a GPU spin of known length: forward 1 takes 20 times longer
    samples = Timer(cuda=True, host_sync=host_sync).series(lambda i: torch.cuda._sleep(cycles[i]), 3)
    assert len(samples) == 3 and all(s > 0 for s in samples)
    assert samples[1] > 5 * samples[0] and samples[1] > 5 * samples[2]
