"""SG203 and the resolution of trtexec's timer: two RTX 3090 TensorRT 8.6 logs
collected as two jobs of one variant, one timer step apart; the study file's
tolerance under a declared source of spread; the digits of the message; the
timing it names."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from studygen.checks import CheckContext, sg203_reconcile
from studygen.commands.collect.options import IngestOptions
from studygen.commands.collect.trtexec import TrtexecOptions, run_trtexec
from studygen.study import load_study
from studygen.study.resolution import float32_step, printed_rounding, resolution, timer_allowance, trtexec_run_end_ms

from .studies import FAMILY, REVISION, latency, load, record, spec, write_project

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"
# Two published RTX 3090 / TensorRT 8.6.0 logs of one plan (NVIDIA/trt-samples-for-hackathon-cn
# result-04.log at 07271c31, result-03.log at 32c8646c), default length: 3 s timed after a 200 ms warm-up.
LOGS = {"a": SHARED / "public" / "hackathon-07271c31_trt8.6.0_result-04.log",
        "b": SHARED / "trtexec" / "trt8.6_unstable-gpu-compute.log"}
STEP = 2.0 ** -12  # ms: a float32 between 2048 and 4096 ms is a multiple of this
ONE_PERCENT = [{"source": "job", "reason": "the two logs were timed in two sessions", "up_to_percent": 1}]


def _failing(findings):
    return [f for f in findings if "disagrees across jobs" in f.message]


def _collected(tmp_path, **study):
    """A project whose two jobs are the two RTX 3090 logs, collected by ``collect trtexec``, fp16, one checkpoint."""
    write_project(tmp_path, records=[], study=spec(**study))
    for job, log in LOGS.items():
        ingest = IngestOptions(family=FAMILY, job_id=job, measurements_dir=str(tmp_path / "measurements"),
                               variant="fp16", checkpoint=f"example/toy-detector@{REVISION}")
        run_trtexec(TrtexecOptions(ingest=ingest, log_path=str(log)))
    loaded = load_study(tmp_path / "families" / FAMILY, tmp_path)
    assert not loaded.problems, loaded.problems
    return loaded



def _medians(study, timing):
    return {r.job_id: r for r in study.rows if r.metric == timing and r.statistic == "median"}


def test_the_two_logs_are_one_timer_step_apart(tmp_path):
    study = _collected(tmp_path)
    d2h, host = _medians(study, "d2h"), _medians(study, "host_latency")
    # figures as the logs print them: 16 and 15 steps of 2**-12 ms; 213 and 212 steps
    assert (d2h["a"].value, d2h["b"].value) == (0.00390625, 0.00366211)
    assert (round(d2h["a"].value / STEP, 3), round(d2h["b"].value / STEP, 3)) == (16, 15)
    assert (host["a"].value, host["b"].value) == (0.052002, 0.0517578)
    assert (round(host["a"].value / STEP, 3), round(host["b"].value / STEP, 3)) == (213, 212)
    for row in (*d2h.values(), *host.values()):
        # 200 ms warm-up + queries over throughput (61700 / 20565.7 qps = 3.0001 s in log a)
        assert 3199 < trtexec_run_end_ms(row.result) < 3210
        assert resolution(row) == STEP


@pytest.mark.parametrize("settings", [{}, {"spread_sources": ONE_PERCENT}])
def test_a_difference_of_one_timer_step_is_no_disagreement(tmp_path, settings):
    # before: d2h 6.45 % apart (more than the declared 1 %), and with no settings d2h and host latency
    # both beyond the tolerance 0
    study = _collected(tmp_path, **settings)
    assert _failing(sg203_reconcile.check(CheckContext(study))) == []
    verdict = sg203_reconcile.compare_pair(study, *_medians(study, "d2h").values())
    assert verdict.basis == "0.00024 ms apart, within the timer resolution 0.00024 ms"


def test_float32_step_matches_numpy():
    for end_ms in (0.5, 1.0, 200.0, 1000.0, 2047.9, 2048.0, 3200.0, 4096.0, 10200.0):
        assert float32_step(end_ms) == float(np.spacing(np.float32(end_ms)))
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="positive magnitude, not"):
            float32_step(bad)


def _trtexec(command=None, **extra):
    method = {"timer": "trtexec"} if command is None else {"timer": "trtexec", "command": command}
    return latency("fp16", 0.00390625, timing="d2h", method=method, **extra)


def test_the_run_length_from_flags_defaults_and_queries():
    assert trtexec_run_end_ms(_trtexec()) == 3200.0  # no command: trtexec's defaults
    assert trtexec_run_end_ms(_trtexec("trtexec --duration=10")) == 10200.0
    assert trtexec_run_end_ms(_trtexec("trtexec --warmUp=0 --duration=1")) == 1000.0
    assert trtexec_run_end_ms(_trtexec("trtexec --duration=-1")) == 200.0  # endless, no queries counted: warm-up only
    # queries without a throughput (or the reverse) say nothing about the length
    assert trtexec_run_end_ms(_trtexec(distribution={"samples": 100000})) == 3200.0
    assert trtexec_run_end_ms(_trtexec(throughput_qps=10.0)) == 3200.0


def test_a_run_of_no_length_has_no_resolution_and_a_short_one_a_fine_one(tmp_path):
    zero = record("a", [_trtexec("trtexec --warmUp=0 --duration=0")])
    half = record("b", [latency("fp16", 0.00390625, timing="h2d",
                                method={"timer": "trtexec", "command": "trtexec --warmUp=0.5 --duration=0"})])
    study = load(tmp_path, records=[zero, half], study=spec())
    assert [resolution(r) for r in study.rows] == [0.0, 2.0 ** -24]


def test_printed_rounding_is_half_the_sixth_significant_digit_of_trtexec_figures_only(tmp_path):
    rows = [latency("fp16", 0.052002, shape="28x28", timing="host_latency"),
            latency("fp16", 0.00390625, shape="28x28", timing="d2h"),
            latency("fp16", 0.052002, shape="28x28", timing="enqueue", method={"timer": "cuda_event"})]
    study = load(tmp_path, records=[record("a", rows)], study=spec())
    assert [printed_rounding(r) for r in study.rows] == pytest.approx([5e-8, 5e-9, 0.0], abs=1e-15)


def _d2h(job, steps, command="trtexec --loadEngine=model.plan", timer="trtexec"):
    return record(job, [latency("fp16", steps * STEP, shape="28x28", timing="d2h",
                                method={"timer": timer, "command": command})])


def test_the_resolution_follows_the_length_of_the_run(tmp_path):
    # 10 s timed: the run ends past 8192 ms, its times are multiples of 2**-10 ms; 1 s and no warm-up: 2**-14
    long_run = "trtexec --loadEngine=model.plan --duration=10"
    study = load(tmp_path / "long", records=[_d2h("a", 16, long_run), _d2h("b", 13, long_run)], study=spec())
    assert [resolution(r) for r in study.rows] == [2.0 ** -10, 2.0 ** -10]
    assert _failing(sg203_reconcile.check(CheckContext(study))) == []  # 3 steps of 2**-12 ms < 2**-10 ms
    short_run = "trtexec --loadEngine=model.plan --warmUp=0 --duration=1"
    study = load(tmp_path / "short", records=[_d2h("a", 16, short_run), _d2h("b", 15, short_run)], study=spec())
    assert [resolution(r) for r in study.rows] == [2.0 ** -14, 2.0 ** -14]
    assert len(_failing(sg203_reconcile.check(CheckContext(study)))) == 1  # one step of 2**-12 is 4 of 2**-14


def test_a_run_that_iterations_made_longer_is_read_from_queries_over_throughput(tmp_path):
    # --iterations=100000 at 10000 queries/s runs 10 s past its 3 s duration: 200 + 10000 ms, steps of 2**-10 ms
    result = latency("fp16", 0.00390625, timing="d2h", throughput_qps=10000.0,
                     method={"timer": "trtexec", "command": "trtexec --loadEngine=model.plan --iterations=100000"},
                     distribution={"samples": 100000})
    assert trtexec_run_end_ms(result) == 10200.0
    study = load(tmp_path, records=[record("a", [result])], study=spec())
    assert resolution(study.rows[0]) == 2.0 ** -10


def test_another_timer_has_no_stated_resolution(tmp_path):
    study = load(tmp_path, records=[_d2h("a", 16, timer="cuda_event"), _d2h("b", 15, timer="cuda_event")],
                 study=spec())
    assert [resolution(r) for r in study.rows] == [0.0, 0.0]
    assert len(_failing(sg203_reconcile.check(CheckContext(study)))) == 1


def test_two_steps_apart_is_a_disagreement_naming_the_timing_with_even_digits(tmp_path):
    study = load(tmp_path, records=[_d2h("a", 16), _d2h("b", 14)], study=spec())
    (finding,) = _failing(sg203_reconcile.check(CheckContext(study)))
    assert finding.message == (
        "same measurement disagrees across jobs: fp16 median device-to-host copy time on NVIDIA H200, "
        "tensorrt=11.4.0.106,cuda=13.0, 28x28: 0.00390625 in job a; 0.00341796875 in job b "
        "(spread 0.00049 ms, tolerance 0; timer resolution 0.00024 ms)")


def test_tolerance_and_difference_print_alike_whatever_digits_the_figures_carry(tmp_path):
    # a 7-digit and an 8-digit pair (as trtexec prints 0.052002 and 0.00390625), five steps apart each
    rows_a = [latency("fp16", 0.052002, shape="28x28", timing="host_latency"),
              latency("fp16", 0.00390625, shape="28x28", timing="d2h")]
    rows_b = [latency("fp16", 0.0507812, shape="28x28", timing="host_latency"),
              latency("fp16", 0.00268555, shape="28x28", timing="d2h")]
    study = load(tmp_path, records=[record("a", rows_a), record("b", rows_b)],
                 study=spec(tolerances={"latency_ms": 0.0005}))
    messages = sorted(f.message for f in _failing(sg203_reconcile.check(CheckContext(study))))
    assert [m[m.index("(spread"):] for m in messages] == ["(spread 0.0012 ms, tolerance 0.0005)"] * 2
    assert "fp16 median device-to-host copy time on" in messages[0]
    assert "fp16 median host latency on" in messages[1]


def test_the_tolerance_holds_under_a_declared_source(tmp_path):
    records = [_d2h("a", 16), _d2h("b", 14)]  # 2 steps: 0.000488 ms, 13.3 % of their mean
    study = load(tmp_path / "tolerant", records=records,
                 study=spec(spread_sources=ONE_PERCENT, tolerances={"latency_ms": 0.0005}))
    assert _failing(sg203_reconcile.check(CheckContext(study))) == []
    study = load(tmp_path / "strict", records=records,
                 study=spec(spread_sources=ONE_PERCENT, tolerances={"latency_ms": 0.0004}))
    (finding,) = _failing(sg203_reconcile.check(CheckContext(study)))
    assert finding.message.endswith("(13.33 % apart, more than the 1 % the study file expects of independent "
                                    "jobs, and 0.00049 ms apart, more than the tolerance 0.00040)")
    study = load(tmp_path / "none", records=records, study=spec(spread_sources=ONE_PERCENT))
    (finding,) = _failing(sg203_reconcile.check(CheckContext(study)))
    assert finding.message.endswith("(13.33 % apart, more than the 1 % the study file expects of independent jobs)")


def test_the_tolerance_does_not_widen_figures_with_their_own_spread_under_a_declared_source(tmp_path):
    # both have repeat medians: the rule gives tolerances to figures without a spread of their own only
    a = record("a", [latency("fp16", 5.00, repeats=[4.99, 5.00, 5.01])])
    b = record("b", [latency("fp16", 5.10, repeats=[5.09, 5.10, 5.11])])
    study = load(tmp_path, records=[a, b], study=spec(spread_sources=ONE_PERCENT, tolerances={"latency_ms": 0.5}))
    (finding,) = _failing(sg203_reconcile.check(CheckContext(study)))
    assert finding.message.endswith("(1.98 % apart, more than the 1 % the study file expects of independent jobs)")



def test_a_tolerance_widening_a_bootstrap_interval_prints_with_two_significant_digits(tmp_path):
    a = record("a", [latency("fp16", 0.00390625, shape="28x28", timing="d2h",
                             repeats=[0.00390625, 0.00390625, 0.00415039])])
    b = record("b", [latency("fp16", 0.00537109, shape="28x28", timing="d2h")])  # 6 steps above a's median
    study = load(tmp_path, records=[a, b], study=spec(tolerances={"latency_ms": 0.0005}))
    (finding,) = _failing(sg203_reconcile.check(CheckContext(study)))
    # one value against 3 repeats: no bootstrap decides (p 2 / 4 at least); a's spread (one step) plus the
    # tolerance plus the timer's step (0.00099 ms) does
    assert ("; 0.00146 ms apart, beyond the spread of job a's 3 repeat medians (0.00390625 to 0.00415039 ms: "
            "0.00024 ms) plus tolerance 0.00050 and timer allowance 0.00024 ms;") in finding.message


def test_the_timer_allowance_is_the_coarsest_step_and_each_sides_largest_rounding(tmp_path):
    # one study, rows in record order: host latency 0.052002 (default run: step 2**-12, rounding 5e-8), d2h
    # 0.00390625 (rounding 5e-9), d2h of a 10 s run (step 2**-10, rounding 5e-9), and a CUDA-event figure
    # (no resolution, no rounding)
    rows = [latency("fp16", 0.052002, shape="28x28", timing="host_latency"),
            latency("fp16", 0.00390625, shape="28x28", timing="d2h"),
            latency("fp16", 0.00390625, shape="28x28", timing="h2d",
                    method={"timer": "trtexec", "command": "trtexec --duration=10"}),
            latency("fp16", 0.052002, shape="28x28", timing="enqueue", method={"timer": "cuda_event"})]
    host, d2h, long_run, events = load(tmp_path, records=[record("a", rows)], study=spec()).rows
    assert timer_allowance([host], [d2h]) == pytest.approx(STEP + 5e-8 + 5e-9, abs=1e-15)
    assert timer_allowance([d2h], [long_run]) == pytest.approx(2.0 ** -10 + 5e-9 + 5e-9, abs=1e-15)  # the coarser step
    # a side of several rows (the median of several jobs) is off by no more than its largest rounding
    assert timer_allowance([host, d2h], [d2h]) == pytest.approx(STEP + 5e-8 + 5e-9, abs=1e-15)
    assert timer_allowance([d2h], [d2h, host]) == pytest.approx(STEP + 5e-9 + 5e-8, abs=1e-15)
    assert timer_allowance([events], [d2h]) == pytest.approx(STEP + 5e-9, abs=1e-15)
    assert timer_allowance([d2h], []) == pytest.approx(STEP + 5e-9, abs=1e-15)
    assert timer_allowance([], [host]) == pytest.approx(STEP + 5e-8, abs=1e-15)
    assert timer_allowance([events], [events]) == 0.0 and timer_allowance([], []) == 0.0


def _kernel_pair(tmp_path, a_ms: float, b_ms: float):
    """Two jobs (a re-run added to a study) of one fp16 profile, GEMM 0.5 ms in both, group "other" differing."""
    from .studies import kernel_time

    records = [record(job, [kernel_time("fp16", {"GEMM/MatMul": 0.5, "other": other}, total=0.5 + other)])
               for job, other in (("first", a_ms), ("rerun", b_ms))]
    return load(tmp_path, records=records)


def test_kernel_times_closer_than_the_stated_floor_agree(tmp_path):
    # a re-run's "other" group of 0.07 us against 0.12 us (0.00007 and 0.00012 ms), no tolerance set: 0.05 us apart,
    # below the 1 us floor of kernel-time figures; before, an SG203 error (a metric with no tolerance must match)
    study = _kernel_pair(tmp_path / "below", 0.00007, 0.00012)
    assert _failing(sg203_reconcile.check(CheckContext(study))) == []
    group = next(r for r in study.rows if r.kind == "kernel_time" and r.group == "other")
    assert resolution(group) == 0.001 and printed_rounding(group) == 0.0
    # 0.0030 against 0.0045 ms: 1.5 us apart, beyond the floor, and no tolerance: the group and the total (0.503
    # and 0.5045) disagree, and the message says the timer's floor was the bar
    found = _failing(sg203_reconcile.check(CheckContext(_kernel_pair(tmp_path / "above", 0.003, 0.0045))))
    assert [f.pointer for f in found] == ["/results/0/groups/1/time_ms", "/results/0/profiled_total_ms"]
    assert found[0].message.endswith("kernel_time other on NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0, 800x1067: 0.003 "
                                     "in job first; 0.0045 in job rerun (spread 0.0015 ms, tolerance 0; timer "
                                     "resolution 0.0010 ms)")


def test_an_implicit_batch_run_counts_its_batch_in_the_throughput():
    # trtexec's throughput counts batch x iterations with --batch=N, and samples holds iterations:
    # 4000 iterations of 16 at 16000 qps is a 4 s run (+ 200 ms warm-up), not 0.25 s (then the 3 s default)
    long_run = _trtexec("trtexec --loadEngine=m.plan --batch=16 --iterations=4000",
                        distribution={"samples": 4000}, throughput_qps=16000.0)
    assert trtexec_run_end_ms(long_run) == 4200.0
    # an explicit-batch run (no --batch) keeps queries over throughput: 4000 / 1000 qps = 4 s
    explicit = _trtexec("trtexec --loadEngine=m.plan --shapes=x:16x3x224x224 --iterations=4000",
                        distribution={"samples": 4000}, throughput_qps=1000.0)
    assert trtexec_run_end_ms(explicit) == 4200.0


def test_the_run_length_of_a_real_implicit_batch_run_is_its_walltime(tmp_path, run_cli):
    # the TensorRT 7 googlenet log's batch-4 run: 'Timing trace has 2668 queries over 3.01129 s' (667 iterations
    # of 4), 'throughput: 886 qps'; 667 x 4 / 886 = 3.01129 s, so 200 + 3011.29 ms
    log = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "public" / \
        "jetson-trt7_googlenet_raw_googlenet_None_int8_10.txt"
    done = run_cli("collect", "trtexec", "--log", log, "--family", "g", "--job", "j", "--variant", "int8",
                   "--measurements", tmp_path / "m")
    assert done.exit_code == 0, done.err
    rows = json.loads((tmp_path / "m" / "g" / "j.json").read_text(encoding="utf-8"))["results"]
    (batch4,) = [r for r in rows if r["batch"] == 4 and r["timing"] == "gpu_compute"]
    assert batch4["distribution"]["samples"] == 667 and batch4["throughput_qps"] == 886
    assert round(trtexec_run_end_ms(batch4), 2) == 3211.29
