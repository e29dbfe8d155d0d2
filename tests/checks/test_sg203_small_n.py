"""SG203 with few samples a job: no bootstrap p is read below the least an exact permutation test of
the same counts can give (2 / C(n_a + n_b, n_a); one value against n: 2 / (n + 1)), and a pair
whose counts cannot reach the 5 % level (3 against 3: 0.1) is held to the spread its two jobs
measured plus the tolerance (and the timer's allowance), beyond it a warning that says the bootstrap
did not decide. Every figure here is invented."""

from __future__ import annotations

from studygen.checks import CheckContext, sg203_reconcile
from studygen.findings import WARNING
from studygen.render.stats import median_difference

from .studies import kernel_time, latency, load, record, spec

UNMEASURED = "; job-to-job spread not measured: repeat the job or declare spread_sources)"
HEAD = "same measurement disagrees across jobs: fp16 median GPU compute time on NVIDIA H200, " \
       "tensorrt=11.4.0.106,cuda=13.0, 800x800: "


def _across(study):
    return [f for f in sg203_reconcile.check(CheckContext(study)) if "disagrees across jobs" in f.message]


def _forwards(values):
    steps = [{"label": f"forward {i + 1}", "groups": {"GEMM": v}, "profiled_total_ms": v} for i, v in enumerate(values)]
    mean = round(sum(values) / len(values), 6)
    return kernel_time("fp16", {"GEMM": mean}, total=mean, per_iteration=steps)


def test_three_against_three_is_not_decided_by_bootstrap_but_by_the_spread(tmp_path):
    a, b = [5.00, 5.01, 4.99], [5.10, 5.11, 5.09]
    assert median_difference(a, b).p_value == 0.0  # every resample on one side: the bootstrap claims p 0
    study = load(tmp_path, study=spec(), records=[record("a", [latency("fp16", 5.00, repeats=a)]),
                                                  record("b", [latency("fp16", 5.10, repeats=b)])])
    (finding,) = _across(study)
    assert finding.severity == WARNING
    assert finding.message == HEAD + (
        "5.0 in job a; 5.1 in job b (not decided by bootstrap: 3 against 3 repeat medians allow no two-sided p below "
        "0.1 (2 of the 20 ways to split them), so none below 0.05; 0.10000 ms apart, beyond the spread of both jobs' "
        "samples (the wider: job b's 3 repeat medians, 5.09 to 5.11 ms: 0.02000 ms) plus tolerance 0 and timer "
        "allowance 0.00025 ms" + UNMEASURED)
    inside = load(tmp_path / "inside", study=spec(), records=[
        record("a", [latency("fp16", 5.00, repeats=a)]),
        record("b", [latency("fp16", 5.01, repeats=[5.01, 5.02, 5.00])])])
    assert _across(inside) == []  # 0.01 ms apart, inside the 0.02 ms either job's repeats span
    tolerated = load(tmp_path / "tolerated", study=spec(tolerances={"latency_ms": 0.09}),
                     records=[record("a", [latency("fp16", 5.00, repeats=a)]),
                              record("b", [latency("fp16", 5.10, repeats=b)])])
    assert _across(tolerated) == []  # 0.1 ms: beyond the spread alone or the tolerance alone, not their sum
    third = load(tmp_path / "third", study=spec(), records=[
        record("a", [latency("fp16", 5.00, repeats=a)]), record("b", [latency("fp16", 5.10, repeats=b)]),
        record("c", [latency("fp16", 5.00, repeats=a)])])
    found = _across(third)
    # a third job measures the job-to-job spread, but nothing was tested: still a warning, without the clause
    assert [f.severity for f in found] == [WARNING] and not any(f.message.endswith(UNMEASURED) for f in found)
    assert "3 jobs, 5.0 ms in job a to 5.1 ms in job b; 2 of their 3 pairs disagree, among them 5.0 in job a " \
           "against 5.1 in job b (" in found[0].message
    assert all("so none below 0.05; 0.10000 ms apart, beyond the spread of both jobs' samples" in f.message
               and f.message.endswith("timer allowance 0.00025 ms)") for f in found)


def test_two_steps_against_three_is_held_alike_not_harder(tmp_path):
    # job b profiled 2 forwards: no spread of its own; one value against job a's 3 cannot reach 5 %
    study = load(tmp_path, study=spec(), records=[record("a", [_forwards([1.13, 1.132, 1.135])]),
                                                  record("b", [_forwards([1.19, 1.19])])])
    found = _across(study)
    assert {f.severity for f in found} == {WARNING} and len(found) == 2  # GEMM and total
    assert found[0].message.endswith(
        "1.132333 in job a; 1.19 in job b (not decided by bootstrap: job b's figure has no spread of its own, and one "
        "value against job a's 3 profiled iterations allows no two-sided p below 0.5 (2 of the 4 ways to split them), "
        "so none below 0.05; 0.0577 ms apart, beyond the spread of job a's 3 profiled iterations (1.13 to 1.135 ms: "
        "0.0050 ms) plus tolerance 0 and timer allowance 0.0010 ms" + UNMEASURED)


def test_five_against_five_prints_the_floor_not_a_p_below_it(tmp_path):
    a, b = [5.00, 5.02, 4.98, 5.01, 4.99], [5.10, 5.12, 5.09, 5.11, 5.13]
    fast = [v - 1 for v in a]
    study = load(tmp_path, study=spec(), records=[
        record("a", [latency("fp16", 5.00, repeats=a), latency("fp16", 4.0, shape="1x1", repeats=fast)]),
        record("b", [latency("fp16", 5.11, repeats=b), latency("fp16", 4.0, shape="1x1", repeats=fast)])])
    (finding,) = _across(study)
    assert median_difference(a, b).p_value == 0.0
    assert finding.severity == WARNING
    assert ("excludes 0 (10000 resamples, seed 0); two-sided bootstrap p 0.0079 (the least 5 against 5 values "
            "allow), 0.016 after Holm's correction for the 2 bootstrap comparisons of jobs a and b; beyond the "
            "scatter of each job's 5 repeats" + UNMEASURED) in finding.message
