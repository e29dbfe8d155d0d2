"""SG203 names the level of variance its bootstrap measured, and corrects for the many
comparisons of one pair of records.

A bootstrap of two jobs' repeat medians or profiled forwards holds only the scatter inside
each job: where no third job of the measurement and no ``spread_sources`` entry gives the
job-to-job spread, a difference beyond it is a warning that says so. The bootstrap
comparisons of one pair of jobs are held to Holm's correction together. Every figure here
is invented."""

from __future__ import annotations

from studygen.checks import CheckContext, sg203_reconcile
from studygen.findings import ERROR, WARNING
from studygen.render.stats import median_difference

from .studies import kernel_time, latency, load, record, spec

A_REPEATS = [5.00, 5.02, 4.98, 5.01, 4.99]
B_SEPARATED = [5.10, 5.12, 5.09, 5.11, 5.13]
C_LIKE_A = [5.01, 4.99, 5.03, 4.98, 5.00]

UNMEASURED = ("; beyond the scatter of each job's 5 repeats; job-to-job spread not measured: repeat the job or "
              "declare spread_sources)")


def _jobs(tmp_path, repeats_by_job: dict, study=None):
    records = [record(job, [latency("fp16", sorted(repeats)[2], repeats=repeats)])
               for job, repeats in repeats_by_job.items()]
    return load(tmp_path, records=records, study=study or spec())


def _across(study):
    return [f for f in sg203_reconcile.check(CheckContext(study)) if "disagrees across jobs" in f.message]


def test_two_jobs_apart_beyond_their_own_scatter_only_are_a_warning_that_says_so(tmp_path):
    study = _jobs(tmp_path, {"a": A_REPEATS, "b": B_SEPARATED})
    (finding,) = _across(study)
    expected = median_difference(A_REPEATS, B_SEPARATED)
    assert expected.low_ms > 0 and expected.p_value < 0.05  # the interval of the scatter inside each job excludes 0
    assert finding.severity == WARNING
    assert finding.file == "measurements/toy/b.json" and finding.pointer == "/results/0/value_ms"
    assert finding.message == (
        "same measurement disagrees across jobs: fp16 median GPU compute time on NVIDIA H200, "
        "tensorrt=11.4.0.106,cuda=13.0, 800x800: 5.0 in job a; 5.11 in job b (job b minus job a +0.110 ms in the "
        "figures and +0.110 ms in the medians of their 5 and 5 repeat medians (5.000 and 5.110 ms), 95% bootstrap "
        f"interval of the difference of medians {expected.low_ms:+.3f} to {expected.high_ms:+.3f} ms excludes 0 "
        "(10000 resamples, seed 0)" + UNMEASURED)


def test_a_third_job_of_the_measurement_keeps_the_disagreement_an_error(tmp_path):
    two = _across(_jobs(tmp_path / "two", {"a": A_REPEATS, "b": B_SEPARATED}))
    assert [f.severity for f in two] == [WARNING]
    study = _jobs(tmp_path / "three", {"a": A_REPEATS, "b": B_SEPARATED, "c": C_LIKE_A})
    found = _across(study)
    # a and c agree; b is apart from both, so both its pairs disagree: one finding for the key, placed at b,
    # worded by the first of the two pairs 0.11 ms apart
    (finding,) = found
    assert (finding.file, finding.severity) == ("measurements/toy/b.json", ERROR)
    assert finding.message.endswith("excludes 0 (10000 resamples, seed 0))")
    assert ": 3 jobs, 5.0 ms in job a to 5.11 ms in job b; 2 of their 3 pairs disagree, among them 5.0 in job a " \
           "against 5.11 in job b (job b minus job a +0.110 ms" in finding.message


def test_a_declared_job_to_job_spread_keeps_todays_verdict(tmp_path):
    declared = spec(spread_sources=[{"source": "job", "reason": "each job ran in its own session", "up_to_percent": 1}])
    study = _jobs(tmp_path / "declared", {"a": A_REPEATS, "b": B_SEPARATED}, study=declared)
    (finding,) = _across(study)
    assert finding.severity == ERROR
    assert finding.message.endswith("5.0 in job a; 5.11 in job b (2.18 % apart, more than the 1 % the study file "
                                    "expects of independent jobs)")
    loose = spec(spread_sources=[{"source": "job", "reason": "each job ran in its own session", "up_to_percent": 3}])
    assert _across(_jobs(tmp_path / "loose", {"a": A_REPEATS, "b": B_SEPARATED}, study=loose)) == []
    # without the declaration the same pair rests on each job's own repeats: a warning
    (bare,) = _across(_jobs(tmp_path / "bare", {"a": A_REPEATS, "b": B_SEPARATED}))
    assert bare.severity == WARNING and bare.message.endswith(UNMEASURED)


# Ten kernel groups profiled over eight forwards in each of two jobs (five would not do: 2 / C(10, 5)
# = 0.0079 times ten comparisons is above 0.05). Eight are alike (the same figures, so within the
# timer's resolution: counted in the family at p 1); MARGINAL is 0.004 ms later in job b (two-sided
# bootstrap p 0.025: beyond the 95 % interval on its own, not after Holm's correction for ten
# comparisons); FAR is 0.05 ms later (every resample on one side: read at the floor 2 / C(16, 8)).
FORWARDS = [0.200, 0.204, 0.198, 0.202, 0.196, 0.201, 0.199, 0.203]
ALIKE = [f"group {i}" for i in range(8)]
MARGINAL, FAR = "marginal", "far"


def _profile(shift: dict[str, float]):
    names = [*ALIKE, MARGINAL, FAR]
    iterations = [{"label": f"forward {i + 1}",
                   "groups": {name: round(value + shift.get(name, 0.0), 6) for name in names}}
                  for i, value in enumerate(FORWARDS)]
    for step in iterations:
        step["profiled_total_ms"] = round(sum(step["groups"].values()), 6)
    means = {name: round(sum(step["groups"][name] for step in iterations) / len(iterations), 6) for name in names}
    return kernel_time("fp16", means, per_iteration=iterations)


def test_holm_correction_over_the_comparisons_of_one_pair_of_records(tmp_path):
    study = load(tmp_path, study=spec(), records=[record("a", [_profile({})]),
                                                  record("b", [_profile({MARGINAL: 0.004, FAR: 0.05})])])
    marginal = median_difference(FORWARDS, [round(v + 0.004, 6) for v in FORWARDS])
    assert 0.05 / 9 < marginal.p_value < 0.05  # second smallest of ten: Holm multiplies it by 9
    rows = {r.group: r for r in study.rows if r.kind == "kernel_time"}
    assert len(rows) == 10
    by_job = sorted((r for r in study.rows if r.group == MARGINAL), key=lambda r: r.job_id)
    assert sg203_reconcile.compare_pair(study, *by_job).disagree  # on its own it would disagree
    (far,) = _across(study)  # the marginal group agrees once the ten are held to Holm's correction
    assert far.pointer == "/results/0/groups/9/time_ms" and far.severity == WARNING
    assert far.message.endswith(
        "excludes 0 (10000 resamples, seed 0); two-sided bootstrap p 0.00016 (the least 8 against 8 values allow), "
        "0.0016 after Holm's correction for the 10 bootstrap comparisons of jobs a and b; beyond the scatter of each "
        "job's 8 forwards; job-to-job spread not measured: repeat the job or declare spread_sources)")


def test_holm_leaves_a_lone_comparison_as_its_interval_reads(tmp_path):
    one = load(tmp_path, study=spec(), records=[
        record("a", [latency("fp16", 0.200, repeats=FORWARDS)]),
        record("b", [latency("fp16", 0.207, repeats=[round(v + 0.007, 6) for v in FORWARDS])])])
    (finding,) = _across(one)
    assert "Holm" not in finding.message and finding.message.endswith(UNMEASURED.replace("5 repeats", "8 repeats"))
