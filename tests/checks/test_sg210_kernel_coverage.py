"""SG210 (warning): kernel groups against the profiled total; unclassified share."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg210_kernel_coverage
from studygen.findings import WARNING

from .studies import kernel_time, latency, load, record

GROUPS = {"GEMM/MatMul": 0.2, "GridSample": 9.7, "normalization and elementwise": 5.5}  # 15.4 ms


def test_groups_summing_to_the_total_pass(tmp_path):
    study = load(tmp_path, records=[record("job", [kernel_time("fp16", GROUPS, total=15.6)])])  # 1.3 % off
    assert sg210_kernel_coverage.check(CheckContext(study)) == []


def test_groups_short_of_the_total(tmp_path):
    study = load(tmp_path, records=[record("job", [kernel_time("fp16", GROUPS, total=16.2)])])  # 4.9 % short
    findings = sg210_kernel_coverage.check(CheckContext(study))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.code == "SG210" and finding.severity == WARNING and finding.pointer == "/results/0/profiled_total_ms"
    assert "sum to 15.400 ms, -4.9% off the profiled total 16.2 ms (limit 2%)" in finding.message


def test_unclassified_share_above_ten_percent(tmp_path):
    groups = dict(GROUPS, other=2.0)  # 2.0 of 17.4 ms: 11.5 %
    study = load(tmp_path, records=[record("job", [kernel_time("fp16", groups, total=17.4)])])
    findings = sg210_kernel_coverage.check(CheckContext(study))
    assert [f.pointer for f in findings] == ["/results/0"]
    assert "11.5% of the profiled 17.4 ms of job job, fp16 at 800x1067 is unclassified (limit 10%)" in findings[0].message
    # 0.6 ms unclassified kept apart from the groups: the groups (15.4 ms) fall 3.75 % short of the total; the
    # unclassified share itself (0.6 of 16.0 ms) is below the limit
    kept_apart = load(tmp_path / "b", records=[record("job", [kernel_time("fp16", GROUPS, total=16.0, unclassified_ms=0.6)])])
    (short,) = sg210_kernel_coverage.check(CheckContext(kept_apart))
    assert "sum to 15.400 ms, -3.8% off the profiled total 16.0 ms" in short.message


def test_unclassified_time_is_part_of_other_and_never_added_again(tmp_path):
    # issue 22: 1.5 ms of the 2.0 ms "other" group matched no rule. The groups sum to the total exactly
    # (17.4 ms); adding unclassified_ms on top gave "sum to 18.900 ms, +8.6% off". 1.5 of 17.4 ms is 8.6 %
    # unclassified, under the 10 % limit: no finding at all.
    groups = dict(GROUPS, other=2.0)
    study = load(tmp_path, records=[record("job", [kernel_time("fp16", groups, total=17.4, unclassified_ms=1.5)])])
    assert sg210_kernel_coverage.check(CheckContext(study)) == []
    # 1.9 of the 2.0 ms unclassified: 10.9 %, one finding, about the share only
    more = load(tmp_path / "b", records=[record("job", [kernel_time("fp16", groups, total=17.4, unclassified_ms=1.9)])])
    (finding,) = sg210_kernel_coverage.check(CheckContext(more))
    assert finding.message == "10.9% of the profiled 17.4 ms of job job, fp16 at 800x1067 is unclassified (limit 10%)"


def test_a_subnormal_profiled_total_is_a_finding_not_a_crash(tmp_path):
    # found by the long hypothesis run: 1 ms over a 2.2e-313 ms total overflows to infinity. A
    # subnormal is now refused where the record is read; the smallest normal double overflows too
    total_ms = 2.2250738585072014e-308
    study = load(tmp_path, records=[record("job", [kernel_time("fp16", {"GEMM/MatMul": 0.0}, total=total_ms,
                                                               unclassified_ms=1)])])
    messages = [f.message for f in sg210_kernel_coverage.check(CheckContext(study))]
    assert any("sum to 0.000 ms, -100.0% off the profiled total" in m for m in messages), messages
    assert any(m.startswith("inf% of the profiled") for m in messages), messages


def test_format_number_names_infinity():
    from studygen.numbers import format_number

    assert (format_number(float("inf"), 1), format_number(float("inf"), 1, sign=True),
            format_number(float("-inf"), 3)) == ("inf", "+inf", "-inf")


def test_a_stated_unclassified_share_is_taken_as_stated_and_hints_say_what_to_do(tmp_path):
    # the groups sum to the total and none is "other": only the stated 15 % makes the finding
    study = load(tmp_path, records=[record("job", [kernel_time("fp16", GROUPS, total=15.4, unclassified_share=0.15,
                                                               backend="pytorch", mode="eager")])])
    (finding,) = sg210_kernel_coverage.check(CheckContext(study))
    assert finding.message == "15.0% of the profiled 15.4 ms of job job, fp16 at 800x1067 is unclassified (limit 10%)"
    assert finding.hint == ("add grouping rules (kernel_groups in the study file) for the kernels left over, then "
                            'collect the profile again with --replace "REASON" (rules apply only when a profile is '
                            "collected)")
    # a TensorRT profile: its layers' types may group what their names do not
    trt = load(tmp_path / "t", records=[record("job", [kernel_time("fp16", GROUPS, total=15.4, unclassified_share=0.15)])])
    (finding,) = sg210_kernel_coverage.check(CheckContext(trt))
    assert finding.hint == ("add grouping rules (kernel_groups in the study file) for the kernels left over, then "
                            'collect the profile again with --replace "REASON" (rules apply only when a profile is '
                            "collected), or collect the profile again with --layer-info (trtexec --exportLayerInfo with "
                            "--profilingVerbosity=detailed) so that its layers are grouped by their type")
    short = load(tmp_path / "b", records=[record("job", [kernel_time("fp16", GROUPS, total=16.2)])])
    (finding,) = sg210_kernel_coverage.check(CheckContext(short))
    assert finding.hint == "group every kernel (add an 'other' group) or fix the total"


def _profiled_run(tmp_path, total: float, *, mean: float | None = 4.82, median: float = 4.75, job_of_latency="job",
                  **latency_extra):
    """A job's fp16 GPU compute latency (median 4.75 ms; mean 4.82 ms where printed) and a kernel-time profile of
    one fp16 configuration (800x1067, batch 1) whose groups sum to ``total``."""
    from .studies import latency

    extra = {"statistics_ms": {"mean": mean, "median": median}} if mean is not None else {}
    compute = latency("fp16", median, "800x1067", **extra, **latency_extra)
    profile = kernel_time("fp16", {"GEMM/MatMul": total - 1.0, "other": 1.0}, total=total)
    if job_of_latency == "job":
        records = [record("job", [compute, profile])]
    else:
        records = [record("job", [profile]), record(job_of_latency, [compute])]
    return load(tmp_path, records=records)


def test_a_kernel_total_above_the_compute_time_of_its_run(tmp_path):
    # 5.4153 / 4.82 = 1.1235: 12.4 % above the mean GPU compute time (profiles give per-iteration means)
    study = _profiled_run(tmp_path, 5.4153)
    (finding,) = [f for f in sg210_kernel_coverage.check(CheckContext(study)) if "above the" in f.message]
    assert finding.severity == WARNING and finding.pointer == "/results/1/profiled_total_ms"
    assert finding.message == (
        "the per-layer kernel total of job job, fp16 at 800x1067 batch 1 is 5.4153 ms, 12.4% above the 4.82 ms mean "
        "GPU compute time of the same run it should fit in (limit 2%): a profile of another run, or of a run whose "
        "profiling added time to each layer")
    # the record does not say how the run profiled (no separate_profile_run): the hint names the log that would
    assert finding.hint.startswith("collect with the run's trtexec log (--log)")


def test_the_kernel_total_limit_and_what_is_compared(tmp_path):
    def over(path, total, **kwargs):
        study = _profiled_run(tmp_path / path, total, **kwargs)
        return [f.message for f in sg210_kernel_coverage.check(CheckContext(study)) if "above the" in f.message]
    assert over("a", 4.9164) == []  # 4.82 * 1.02 = 4.9164: at the limit, not above it
    assert len(over("b", 4.92)) == 1  # 2.07 % above
    # no mean printed: the headline median 4.75 ms; 4.9 / 4.75 = 1.0316
    (message,) = over("c", 4.9, mean=None)
    assert "4.9 ms, 3.2% above the 4.75 ms median GPU compute time" in message
    # the GPU compute time of another job is no run this profile should fit in
    assert over("d", 5.4153, job_of_latency="other") == []
    # a host latency is no GPU compute time
    assert over("e", 5.4153, timing="host_latency") == []


def test_a_kernel_total_is_held_to_the_largest_compute_time_of_its_configuration(tmp_path):
    # one job timed fp16 twice, with CUDA graphs (3.9 ms) and without (4.82 ms): the profile's 4.9 ms fits the run
    # without graphs (1.7 % above it), so nothing is said; against the graph run it would be 25.6 % above
    from .studies import latency

    graphs = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True}
    classic = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}
    results = [latency("fp16", 3.9, "800x1067", method=graphs), latency("fp16", 4.82, "800x1067", method=classic),
               kernel_time("fp16", {"GEMM/MatMul": 3.9, "other": 1.0}, total=4.9)]
    study = load(tmp_path, records=[record("job", results)])
    assert [f for f in sg210_kernel_coverage.check(CheckContext(study)) if "above the" in f.message] == []


def test_a_study_without_profiles_gathers_no_compute_times(tmp_path, monkeypatch):
    from studygen.study import analyses

    study = load(tmp_path, records=[record("a", [latency("fp16", 5.0), latency("fp8", 4.0)])])
    monkeypatch.setattr(analyses, "_compute_figure", lambda row: pytest.fail("gathered a compute time"))
    assert analyses.kernel_time_over_compute(study) == []


# How a trtexec run profiled, as collect trtexec records it on each latency of the run (method.separate_profile_run)
SEPARATE = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True,
            "separate_profile_run": True}
IN_TIMED_RUN = dict(SEPARATE, separate_profile_run=False)


def _over(study) -> list:
    return [f for f in sg210_kernel_coverage.check(CheckContext(study)) if "above the" in f.message]


def test_a_run_timed_apart_from_its_profile_is_not_held_to_its_compute_time(tmp_path):
    # Why the warning is wrong for such a record: with --separateProfileRun trtexec times the run without the
    # profiler and then profiles the layers in a second run that synchronises after every layer, so the layer
    # total carries that overhead by design and no collect can bring it under the unprofiled compute time (a
    # user's ResNet-18 int8 log: 0.3597 ms of layers against a 0.134851 ms mean, 167% above; the toy study's fp16
    # variant stands in for int8). The same figures are warned about when the record states that the profiler
    # ran in the timed run, or does not say.
    def study(path, method):
        compute = latency("fp16", 0.134155, "224x224", statistics_ms={"mean": 0.134851, "median": 0.134155},
                          method=method)
        profile = kernel_time("fp16", {"Conv": 0.3075, "other": 0.0522}, "224x224", total=0.3597)
        return load(tmp_path / path, records=[record("job", [compute, profile])])

    assert _over(study("apart", SEPARATE)) == []
    assert len(_over(study("inside", IN_TIMED_RUN))) == 1
    assert len(_over(study("unsaid", {"timer": "trtexec"}))) == 1


def test_the_finding_and_its_hint_follow_what_the_record_says_of_the_profiling_run(tmp_path):
    (inside,) = _over(_profiled_run(tmp_path / "inside", 5.4153, method=IN_TIMED_RUN))
    assert inside.message.endswith(
        "(limit 2%): a profile of another run: the log states that this run profiled its layers while it was timed "
        "(no --separateProfileRun), so they ran inside that time")
    assert inside.hint == ("collect the profile this run wrote (its --exportProfile file, or the --dumpProfile table "
                           "of the same log), or record the profile that was given as a job of its own")
    (unsaid,) = _over(_profiled_run(tmp_path / "unsaid", 5.4153))
    assert unsaid.message.endswith("a profile of another run, or of a run whose profiling added time to each layer")
    assert unsaid.hint.startswith("collect with the run's trtexec log (--log) so that the record states whether its "
                                  "layers were profiled in a separate run (--separateProfileRun: their total then "
                                  "carries the profiler's overhead by design and is not compared); otherwise collect")
    # neither asks for what a run that states it already did
    assert "--exportProfile with --separateProfileRun" not in inside.hint + unsaid.hint


def test_a_separately_profiled_run_leaves_the_other_runs_of_its_configuration_compared(tmp_path):
    # one job timed fp16 twice in one configuration: a separately profiled run (4.82 ms) and one profiled while
    # timed (3.9 ms). The 4.9 ms profile is held to the 3.9 ms run only: 25.6 % above it
    from .studies import latency

    results = [latency("fp16", 4.82, "800x1067", method=SEPARATE), latency("fp16", 3.9, "800x1067", method=IN_TIMED_RUN),
               kernel_time("fp16", {"GEMM/MatMul": 3.9, "other": 1.0}, total=4.9)]
    (finding,) = _over(load(tmp_path, records=[record("job", results)]))
    assert "4.9 ms, 25.6% above the 3.9 ms median GPU compute time" in finding.message


def test_a_mean_over_iterations_prints_the_digits_they_carry(tmp_path):
    # the MI300X ResNet trace read by a collector before it wrote a trace's digits: its three ProfilerStep
    # totals (sums of ns durations: 42.235168, 33.149495, 21.871163 ms) and their mean to 12 significant
    # digits, 31.0893683333 ms of it in "other" (ncclDevKernel_Generic and kernels no rule names)
    steps = [{"label": f"ProfilerStep#{n}", "profiled_total_ms": total}
             for n, total in zip((15, 16, 17), (42.235168, 33.149495, 21.871163))]
    result = kernel_time("fp32", {"Pooling": 0.100783, "normalization and elementwise": 1.22845733333,
                                  "other": 31.0893683333}, total=32.4186086667, unclassified_ms=31.0893683333,
                         iterations=3, per_iteration=steps, backend="pytorch", mode="eager")
    study = load(tmp_path, records=[record("mi300", [result])])
    (finding,) = sg210_kernel_coverage.check(CheckContext(study))
    assert finding.message == ("95.9% of the profiled 32.418609 ms of job mi300, fp32 at 800x1067 is unclassified "
                               "(limit 10%)")
