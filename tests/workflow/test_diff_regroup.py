"""studygen diff when a kernel-time profile is read again from the same input with other kernel groups.

A made-up study (the toy family of tests/checks/studies.py) committed twice in a git
repository: job prof-a's fp16 profile of one log (sha256 ``ab…``, ``prof.log:83``), grouped
first as Conv 2.0 ms and other 1.5 ms (3.5 ms in all), then, after the study file's rules
changed, as convolution 2.0, pooling 0.9 and other 0.6 ms. Nothing was measured again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studygen.commands.diff import DiffOptions, run_diff
from studygen.compare.report import exit_code
from tests.checks.studies import kernel_time, latency, record, spec, write_project
from tests.workflow.test_diff import commit, git, line_of

RECORDS = Path("measurements") / "toy"
SHA = "ab" * 32
OLD_GROUPS = {"Conv": 2.0, "other": 1.5}
NEW_GROUPS = {"convolution": 2.0, "pooling": 0.9, "other": 0.6}
RULES = [{"pattern": "^conv", "group": "convolution"}, {"pattern": "pool", "group": "pooling"}]


def profile_study(groups: dict[str, float], sha256: str = SHA, total: float = 3.5) -> list[dict]:
    profile = kernel_time("fp16", groups, total=total, iterations=200, source_sha256=sha256,
                          source_locator="prof.log:83")
    return [record("prof-a", [latency("fp16", 4.20), profile])]


@pytest.fixture
def repo(tmp_path) -> Path:
    repo = tmp_path / "repo"
    write_project(repo, records=profile_study(OLD_GROUPS))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "prof-a grouped by the default rules")
    return repo


def regroup(repo: Path, **changes) -> None:
    write_project(repo, records=profile_study(NEW_GROUPS, **changes), study=spec(kernel_groups=RULES))
    commit(repo, "own kernel groups; the profile read again")


def test_a_profile_regrouped_from_the_same_input_is_one_line_in_every_format_and_fails_nothing(repo, run_cli):
    # before: "beyond spread: fp16 kernel time other ... -60 %", 2 new and 1 removed figure, exit 1
    regroup(repo)
    groups_line = line_of(repo / RECORDS / "prof-a.json", '"groups": [', 0)
    words = ("job prof-a, fp16 kernel time, 800 x 1067, engine, H200: groups Conv, other -> convolution, pooling, "
             f"other; same input (sha256 {SHA[:12]}…, prof.log:83), grouped by other kernel_groups rules; "
             "3 figures -> 4, not compared")
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 0, result.out + result.err
    lines = result.out.splitlines()
    assert [line for line in lines if not line.startswith("  finding ")][1:-1] == [
        "toy", f"  regrouped: {words} [{RECORDS}/prof-a.json:{groups_line}]"]
    assert lines[-1].startswith("0 figures beyond their spread, 0 verdict changes; 0 within spread, 0 new, 0 removed, "
                                "1 unchanged, 1 regrouped (kernel-time profile read again from the same input), ")
    report = run_diff(DiffOptions("HEAD~1", "HEAD", root=repo))
    assert [exit_code(report, fail_on) for fail_on in ("beyond-spread", "verdict", "never")] == [0, 0, 0]
    assert [change.verdict for change in report.families[0].figures] == ["unchanged"]  # the latency alone

    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md").out.splitlines()
    at = markdown.index("Regrouped (same input, other kernel groups; not compared):")
    assert markdown[at + 2] == "- toy: " + words.replace(" -> ", " → ")

    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    assert data["summary"]["regrouped"] == 1 and data["summary"]["beyond spread"] == 0
    (regrouped,) = data["families"][0]["regrouped"]
    assert regrouped == {"job": "prof-a", "what": "fp16 kernel time, 800 x 1067, engine, H200",
                         "base_groups": ["Conv", "other"], "head_groups": ["convolution", "pooling", "other"],
                         "source_sha256": SHA, "source_locator": "prof.log:83", "base_figures": 3, "head_figures": 4,
                         "file": f"{RECORDS}/prof-a.json", "line": groups_line, "pointer": "/results/1/groups"}
    assert data["families"][0]["figures"] == []

    github = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "github").out.splitlines()
    assert github[0] == (f"::notice file={RECORDS}/prof-a.json,line={groups_line},title=studygen diff%3A regrouped::"
                         f"toy: {words}")
    assert not any("::error" in line or "::warning" in line and "%3A removed" in line for line in github)


@pytest.mark.parametrize("changes", [{"sha256": "cd" * 32}, {"total": 3.6}], ids=["other input", "other total"])
def test_a_profile_read_from_another_input_or_giving_another_total_is_compared_figure_by_figure(repo, run_cli, changes):
    regroup(repo, **changes)
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 1, result.out
    assert "regrouped" not in result.out
    assert "  beyond spread: fp16 kernel time other, 800 x 1067, engine, H200: 1.5 ms -> 0.6 ms (-0.9 ms, -60.00 %)" \
        in result.out
    assert "  removed: fp16 kernel time Conv, 800 x 1067, engine, H200: was 2.0 ms (job prof-a)" in result.out


def test_kernel_group_names_print_literally_in_the_pull_request_comment(tmp_path, run_cli):
    # before: "| toy | fp16 kernel time *bold*, ..." rendered as emphasis, and the link as a live link
    repo = tmp_path / "repo"
    names = {"*bold*": 1.0, "[text](https://example.com)": 2.0, "snake_case_name": 0.5}
    write_project(repo, records=[record("prof-a", [kernel_time("fp16", names, total=3.5)])])
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "a profile")
    write_project(repo, records=[record("prof-a", [kernel_time("fp16", {name: 2 * ms for name, ms in names.items()},
                                                               total=7.0)])])
    commit(repo, "twice as slow")
    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md").out
    assert "| toy | fp16 kernel time \\*bold\\*, 800 x 1067, engine, H200 | 1.0 ms | 2.0 ms |" in markdown
    assert "| toy | fp16 kernel time \\[text\\](https://example.com), 800 x 1067, engine, H200 |" in markdown
    assert "| toy | fp16 kernel time snake_case_name, 800 x 1067, engine, H200 |" in markdown
    assert "*bold*" not in markdown.replace("\\*bold\\*", "") and "[text]" not in markdown
