"""studygen diff when a profile measured again groups one of its kernels otherwise.

A made-up study (the toy family of tests/checks/studies.py) committed twice: job run-a's fp32
profile, as collect run records one (no input file behind it, each group listing its kernels), first
with a batch-norm kernel ``bn_fw_inf_k`` in ``other`` (Conv 2.0, other 1.5 of 3.5 ms), then timed
again under rules that put it in ``normalization`` (Conv 2.0, normalization 1.2, other 0.3 of 3.52 ms).
Case: a new user's ResNet re-timed after studygen's default rules learnt cuDNN's batch-norm kernels;
diff said ``normalization and elementwise … +172 %`` and ``other … -78 %``, beyond spread.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.checks.studies import kernel_time, latency, record, write_project
from tests.workflow.test_diff import commit, git, line_of

RECORDS = Path("measurements") / "toy"


def profile(groups: dict[str, dict[str, float]], total: float) -> list[dict]:
    """Job run-a: a latency and a kernel-time result whose groups list their kernels (ms per forward)."""
    result = kernel_time("fp32", {group: round(sum(kernels.values()), 6) for group, kernels in groups.items()},
                         total=total, iterations=5)
    for entry in result["groups"]:
        entry["kernels"] = [{"name": name, "time_ms": ms, "calls": 1} for name, ms in groups[entry["group"]].items()]
    return [record("run-a", [latency("fp32", 4.20), result])]


BEFORE = {"Conv": {"conv_k": 2.0}, "other": {"bn_fw_inf_k": 1.2, "pool_k": 0.3}}
AFTER = {"Conv": {"conv_k": 2.0}, "normalization": {"bn_fw_inf_k": 1.2}, "other": {"pool_k": 0.32}}


def repo_of(tmp_path: Path, after: dict, total: float) -> Path:
    repo = tmp_path / "repo"
    write_project(repo, records=profile(BEFORE, 3.5))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "run-a")
    write_project(repo, records=profile(after, total))
    commit(repo, "run-a timed again")
    return repo


def test_a_kernel_that_changed_group_leaves_its_two_groups_out_and_the_rest_compared(tmp_path, run_cli):
    repo = repo_of(tmp_path, AFTER, 3.52)
    groups_line = line_of(repo / RECORDS / "run-a.json", '"groups": [', 0)
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    lines = [line for line in result.out.splitlines() if not line.startswith("  finding ")]
    assert f"  regrouped: job run-a, fp32 kernel time, 800 x 1067, engine, H200: 1 listed kernel in another group " \
           f"(bn_fw_inf_k: other -> normalization), grouped by other kernel_groups rules; groups normalization and " \
           f"other not compared [{RECORDS}/run-a.json:{groups_line}]" in lines
    # the total is compared as a new measurement's (Conv and the latency unchanged); neither moved group is new,
    # removed or moved
    assert [line.split(",")[0] for line in lines if line.startswith("  beyond spread")] == [
        "  beyond spread: fp32 kernel time total"]
    assert lines[-1].startswith("1 figure beyond its spread, 0 verdict changes; 0 within spread, 0 new, 0 removed, "
                                "2 unchanged, 1 regrouped (kernel-time profile grouped by other rules)")
    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    (moved,) = data["families"][0]["regrouped"]
    assert moved["moved_kernels"] == [{"kernel": "bn_fw_inf_k", "base_group": "other", "head_group": "normalization"}]
    assert moved["source_sha256"] is None and (moved["base_figures"], moved["head_figures"]) == (1, 2)


def test_a_profile_whose_kernels_keep_their_groups_is_compared_group_by_group(tmp_path, run_cli):
    slower = {"Conv": {"conv_k": 2.0}, "other": {"bn_fw_inf_k": 1.5, "pool_k": 0.3}}
    repo = repo_of(tmp_path, slower, 3.8)
    lines = run_cli("diff", "HEAD~1", "HEAD", "--root", repo).out.splitlines()
    assert not any("regrouped" in line for line in lines)
    assert any(line.startswith("  beyond spread: fp32 kernel time other") for line in lines), lines
