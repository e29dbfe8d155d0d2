"""Issue 14 acceptance: adding jobs to a shipped family. One job's record
copied under a new job id with its timings shifted inside their own spread
agrees; a copy shifted beyond it disagrees, and SG203 is placed only there.

The shipped H200 eager job holds five repeat medians per latency and no
per-iteration kernel times (so its kernel times have no spread of their own
and the study sets no tolerance: they must agree exactly)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from studygen.checks import CheckContext, sg203_reconcile
from studygen.study import load_study

from ..conftest import copy_project

FAMILY = "deformable_detr_h200_torch"
SOURCE_JOB = "h200-eager"


def _shift_latencies(results: list[dict], by_fraction_of_range: float, plus_ms: float = 0.0) -> None:
    """Shift every latency (value, statistics, repeat medians) by ``fraction`` of
    its repeat-median range plus ``plus_ms``; other results stay as they were."""
    for result in results:
        if result["kind"] != "latency":
            continue
        repeats = result["distribution"]["repeat_medians_ms"]
        shift = by_fraction_of_range * (max(repeats) - min(repeats)) + plus_ms
        result["value_ms"] = round(result["value_ms"] + shift, 6)
        result["distribution"]["repeat_medians_ms"] = [round(v + shift, 6) for v in repeats]
        for name in ("median", "mean", "min", "max", "p90", "p99"):
            if name in result.get("statistics_ms", {}):
                result["statistics_ms"][name] = round(result["statistics_ms"][name] + shift, 6)
        for name in ("median_ms", "mean_ms", "p90_ms", "p99_ms"):
            if name in result["distribution"]:
                result["distribution"][name] = round(result["distribution"][name] + shift, 6)


def _copy_job(root, new_job: str, fraction: float, plus_ms: float = 0.0, kernel_factor: float = 1.0) -> str:
    folder = root / "measurements" / FAMILY
    data = json.loads((folder / f"{SOURCE_JOB}.json").read_text())
    data = copy.deepcopy(data)
    data["job_id"] = new_job
    _shift_latencies(data["results"], fraction, plus_ms)
    for result in data["results"]:
        if result["kind"] == "kernel_time" and kernel_factor != 1.0:
            for group in result["groups"]:
                group["time_ms"] = round(group["time_ms"] * kernel_factor, 6)
                group.pop("kernels", None)  # the copy's kernels no longer sum to it (a record refuses that)
    path = folder / f"{new_job}.json"
    path.write_text(json.dumps(data, indent=2) + "\n")
    return f"measurements/{FAMILY}/{new_job}.json"


@pytest.fixture(scope="module")
def rerun_project(tmp_path_factory):
    root = copy_project(tmp_path_factory.mktemp("reruns"), families=(FAMILY,))
    within = _copy_job(root, "h200-eager-rerun", fraction=0.25)
    beyond = _copy_job(root, "h200-eager-shifted", fraction=2.0, plus_ms=1.0, kernel_factor=1.01)
    study = load_study(root / "families" / FAMILY, root)
    assert study.problems == []
    return study, within, beyond


def _unwaived(study, findings):
    from studygen.checks.waivers import apply_waivers

    return [f for f in apply_waivers(study, findings) if f.code == "SG203" and not f.waived_reason]


def test_only_the_job_shifted_beyond_its_spread_disagrees(rerun_project):
    study, within, beyond = rerun_project
    findings = _unwaived(study, sg203_reconcile.check(CheckContext(study)))
    assert findings
    across = [f for f in findings if "disagrees across jobs" in f.message]
    assert across and {f.file for f in findings} == {beyond}
    # 8 latencies against two jobs each (five repeat medians a job cannot decide eight comparisons by bootstrap:
    # 2 / C(10, 5) x 8 = 0.063, so each is held to the spread of both jobs' repeat medians, beyond it a warning);
    # kernel times against two jobs each (no spread of their own: exact agreement).
    latency = [f for f in across if "beyond the spread of both jobs' samples" in f.message]
    # one finding a key: its two pairs with the shifted job disagree, and the wider words it
    assert len(latency) == 8 and {f.severity for f in latency} == {"warning"}
    assert all("; 2 of their 3 pairs disagree, among them " in f.message for f in latency)
    assert all("not decided by bootstrap: 5 against 5 repeat medians allow no two-sided p below 0.0079 (2 of the "
               "252 ways to split them), none below 0.063 after Holm's correction for the 8 bootstrap comparisons"
               in f.message for f in latency)
    kernel = [f for f in across if "kernel_time" in f.message]
    # Group times scaled by 1.01 (a 0.000 ms group stays 0); the profiled totals were left as they were.
    source = {r.key: r.value for r in study.rows if r.job_id == SOURCE_JOB and r.kind == "kernel_time"}
    changed = [r for r in study.rows if r.record.display_path == beyond and r.kind == "kernel_time"
               and r.value != source[r.key]]
    assert len(changed) == 42 and all(r.group != "total" for r in changed)
    # each moved by more than the 1 us floor of kernel-time figures, which the message names as the bar
    assert len(kernel) == len(changed)
    assert all(re.search(r"ms, tolerance 0; timer resolution 0\.0010 ms\)$", f.message) for f in kernel)
    # No job-to-job spread of the agreeing jobs swallows a variant difference of the original job.
    assert [f for f in findings if "smaller than the job-to-job spread" in f.message] == []


def test_fp32_latency_message_names_both_jobs_and_the_interval(rerun_project):
    study, _, beyond = rerun_project
    findings = sg203_reconcile.check(CheckContext(study))
    fp32 = [f for f in findings if f.message.startswith("same measurement disagrees across jobs: fp32 median")
            and "800x800" in f.message]
    assert len(fp32) == 1
    # fp32 at 800x800 (h200-eager.json, read by hand): median 39.393663, repeat medians 25.438911 .. 42.222496
    # (range 16.783585); shifted by 2 x range + 1 ms = 34.56717 ms.
    # the re-run moved by a quarter of the range: the widest pair is the source job against the shifted one
    assert ("3 jobs, 39.393663 ms in job h200-eager to 73.960833 ms in job h200-eager-shifted; 2 of their 3 pairs "
            "disagree, among them 39.393663 in job h200-eager against 73.960833 in job h200-eager-shifted (") \
        in fp32[0].message
    assert ("; 35 ms apart, beyond the spread of both jobs' samples (the wider: job h200-eager's 5 repeat medians, "
            "25.438911 to 42.222496 ms: 17 ms) plus tolerance 0)") in fp32[0].message
    assert fp32[0].file == beyond and fp32[0].pointer.endswith("/value_ms")


def test_the_job_shifted_inside_its_spread_agrees_pair_by_pair(rerun_project):
    study, within, _ = rerun_project
    rows = [r for r in study.rows if r.job_id in (SOURCE_JOB, "h200-eager-rerun") and r.kind == "latency"]
    by_key = {}
    for row in rows:
        by_key.setdefault(row.key, []).append(row)
    assert len(by_key) == 8
    for pair in by_key.values():
        a, b = sorted(pair, key=lambda r: r.job_id)
        verdict = sg203_reconcile.compare_pair(study, a, b)
        assert not verdict.disagree, verdict.basis


def test_render_of_the_rerun_family_succeeds(rerun_project):
    study, _, _ = rerun_project
    context = CheckContext(study)
    assert context.render_error is None  # a cell two jobs fill shows the figure with its spread (issue 14 item 1)
    assert "(3 jobs: " in context.rendered.readme  # the eager cells: h200-eager and its two copies
