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
                                "1 unchanged, 1 regrouped (kernel-time profile grouped by other rules), ")
    report = run_diff(DiffOptions("HEAD~1", "HEAD", root=repo))
    assert [exit_code(report, fail_on) for fail_on in ("beyond-spread", "verdict", "never")] == [0, 0, 0]
    assert [change.verdict for change in report.families[0].figures] == ["unchanged"]  # the latency alone

    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md").out.splitlines()
    at = markdown.index("Regrouped (other kernel groups; the groups concerned not compared):")
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


def _range(low: float, high: float) -> dict:
    return {"min": low, "max": high, "over": "layers the log does not list"}


def job_profile(job: str, groups: dict, total: float | None = 3.5, iterations: int = 200, **extra) -> dict:
    """A kernel-time result of ``job`` read from its own log: ``groups`` maps a name to ms or to a group's fields."""
    result = kernel_time("fp16", {}, total=total, iterations=iterations, source_sha256=job.encode().hex().ljust(64, "0"),
                         source_locator="prof.log:83", **extra)
    result["groups"] = [dict(fields, group=name) if isinstance(fields, dict) else {"group": name, "time_ms": fields}
                        for name, fields in groups.items()]
    return result


TWO = {"conv": 2.0, "other": 1.5}
# job -> (base result, head result); jobs a to f were regrouped, g to m were not
PAIRS = {
    "a-renamed": (job_profile("a-renamed", {"pooling": 0.9, "other": 2.6}),
                  job_profile("a-renamed", {"pool": 0.9, "other": 2.6})),
    "b-moved": (job_profile("b-moved", TWO), job_profile("b-moved", {"conv": 2.5, "other": 1.0})),
    "c-time-range": (job_profile("c-time-range", {"conv": {"time_ms_range": _range(1.9, 2.1)}, "other": 1.5}),
                     job_profile("c-time-range", {"conv": {"time_ms_range": _range(1.8, 2.2)}, "other": 1.5})),
    "d-share-range": (job_profile("d-share-range", {"conv": {"share_percent_range": _range(55, 60)}, "other": 1.5}),
                      job_profile("d-share-range", {"conv": {"share_percent_range": _range(50, 60)}, "other": 1.5})),
    "e-one-figure": (job_profile("e-one-figure", {"other": 3.5}, total=None),
                     job_profile("e-one-figure", TWO, total=None)),
    "f-one-figure-at-head": (job_profile("f-one-figure-at-head", TWO, total=None),
                             job_profile("f-one-figure-at-head", {"other": 3.5}, total=None)),
    "g-same-groups": (job_profile("g-same-groups", TWO), job_profile("g-same-groups", TWO)),
    "h-total-range": (job_profile("h-total-range", TWO, total=None, profiled_total_ms_range=_range(3.4, 3.6)),
                      job_profile("h-total-range", {"conv": 2.5, "other": 1.0}, total=None,
                                  profiled_total_ms_range=_range(3.3, 3.7))),
    "i-iterations": (job_profile("i-iterations", TWO), job_profile("i-iterations", {"conv": 2.5, "other": 1.0},
                                                                   iterations=100)),
    "k-same-groups": (job_profile("k-same-groups", TWO), job_profile("k-same-groups", TWO)),
    "l-other-total": (job_profile("l-other-total", TWO), job_profile("l-other-total", {"conv": 2.0, "other": 1.6},
                                                                     total=3.6)),
    "m-same-groups": (job_profile("m-same-groups", {"other": 3.5}), job_profile("m-same-groups", {"other": 3.5})),
}


def _split(job: str) -> list[dict]:
    return [job_profile(job, {"conv": 2.0}, total=None), job_profile(job, {"other": 1.5}, total=None)]


# job -> (base results, head results): one profile on one side split in two results on the other pairs with neither
SPLITS = {job: ([job_profile(job, TWO, total=None)], _split(job)) for job in ("j-split", "n-split", "o-split")}
SPLITS["p-split-at-base"] = (_split("p-split-at-base"), [job_profile("p-split-at-base", TWO, total=None)])


def test_regroupings_are_found_by_name_time_and_range_and_listed_by_job(tmp_path):
    from studygen.compare.figures import profile_words
    from studygen.compare.regroup import find_regroupings
    from tests.checks.studies import load

    # a latency that names its log too is no profile
    timed = latency("fp16", 4.2, source_sha256="ef" * 32, source_locator="run.log:12")
    sides = []
    for side in (0, 1):
        records = [record(job, [pair[side], timed] if job.startswith("g") else [pair[side]]) for job, pair in PAIRS.items()]
        records += [record(job, results[side]) for job, results in SPLITS.items()]
        sides.append(load(tmp_path / f"side-{side}", records=records))
    base, head = sides
    regroupings, rows = find_regroupings(base, head, profile_words)
    assert [(r.job, r.old_groups, r.new_groups, r.old_figures, r.new_figures, r.place.pointer) for r in regroupings] == [
        ("a-renamed", ("pooling", "other"), ("pool", "other"), 3, 3, "/results/0/groups"),
        ("b-moved", ("conv", "other"), ("conv", "other"), 3, 3, "/results/0/groups"),
        ("c-time-range", ("conv", "other"), ("conv", "other"), 3, 3, "/results/0/groups"),
        ("d-share-range", ("conv", "other"), ("conv", "other"), 3, 3, "/results/0/groups"),
        ("e-one-figure", ("other",), ("conv", "other"), 1, 2, "/results/0/groups"),
        ("f-one-figure-at-head", ("conv", "other"), ("other",), 2, 1, "/results/0/groups")]
    assert regroupings[4].words() == (
        "job e-one-figure, fp16 kernel time, 800 x 1067, engine, H200: groups other -> conv, other; same input (sha256 "
        "652d6f6e652d…, prof.log:83), grouped by other kernel_groups rules; 1 figure -> 2, not compared")
    assert regroupings[5].words("→").endswith("; 2 figures → 1, not compared")
    # the rows left out of the comparison by key are those of the six regrouped profiles, at both sides
    assert rows == {id(row) for study in (base, head) for row in study.rows if row.job_id < "g"}
    assert len(rows) == 30
    assert find_regroupings(None, head, profile_words) == find_regroupings(base, None, profile_words) == ([], frozenset())
