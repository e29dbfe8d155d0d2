"""studygen diff when a family's study file or records are gone at head, or the whole family is.

A made-up study (the toy family of tests/checks/studies.py: job a, one fp16 latency of
4.20 ms, a README) committed in a git repository, then changed one way per test. Where check
fails the head (SG202), diff says the head could not be read and fails under beyond-spread and
verdict; a family taken out whole is said to be removed and fails nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studygen.commands.diff import DiffOptions, run_diff
from studygen.compare.report import exit_code
from tests.checks.studies import latency, record, write_project
from tests.workflow.test_diff import commit, git

FAIL_ON = ("beyond-spread", "verdict", "never")


@pytest.fixture
def repo(tmp_path) -> Path:
    repo = tmp_path / "repo"
    write_project(repo, records=[record("a", [latency("fp16", 4.20)])],
                  extra_files={"families/toy/README.md": "# Toy\n"})
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "the toy study")
    return repo


def exits(repo: Path) -> list[int]:
    report = run_diff(DiffOptions("HEAD~1", "HEAD", root=repo))
    return [exit_code(report, fail_on) for fail_on in FAIL_ON]


def test_a_deleted_study_file_is_unreadable_at_head_as_check_has_it(repo, run_cli):
    # before: "1 removed ... findings: 0 appeared", exit 0, where check said SG202 and exit 1
    git(repo, "rm", "-q", "families/toy/study.yaml")
    commit(repo, "study file gone")
    assert run_cli("check", "--root", repo).exit_code != 0  # the only family: no study file to check at all
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.out.splitlines()[1:] == [
        "toy",
        "  unreadable: the head could not be read: 1 SG202 error in families/toy (first: families/toy holds no "
        "study.yaml: nothing of family 'toy' is checked or rendered); its figures and findings are not compared",
        "1 family unreadable at head, 0 figures beyond their spread, 0 verdict changes; 0 within spread, 0 new, "
        "0 removed, 0 unchanged, 0 sentences changed, findings: 0 appeared, 0 gone"]
    assert result.exit_code == 1
    assert exits(repo) == [1, 1, 0]


def test_a_study_file_committed_as_a_submodule_is_unreadable_at_head(repo, run_cli):
    git(repo, "rm", "-q", "--cached", "families/toy/study.yaml")
    head = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},families/toy/study.yaml")
    git(repo, "commit", "-q", "-m", "study file as a gitlink")
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.out.splitlines()[2] == (
        "  unreadable: the head could not be read: 1 SG202 error in families/toy/study.yaml (first: committed as a "
        "submodule (a git link), not a file: nothing of family 'toy' is checked or rendered); its figures and "
        "findings are not compared")
    assert exits(repo) == [1, 1, 0]


def test_a_family_whose_records_are_all_deleted_is_unreadable_at_head(repo, run_cli):
    # before: "finding appeared: SG202 [error] no records", exit 0
    git(repo, "rm", "-q", "measurements/toy/a.json")
    commit(repo, "records gone")
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.out.splitlines()[2] == (
        "  unreadable: the head could not be read: 1 SG202 error in families/toy/study.yaml (first: no records: "
        "measurements/toy/ holds no *.json run record); its figures and findings are not compared")
    assert exits(repo) == [1, 1, 0]


def test_a_family_removed_whole_is_said_to_be_removed_and_fails_nothing(repo, run_cli):
    shutil.rmtree(repo / "families" / "toy")
    shutil.rmtree(repo / "measurements" / "toy")
    commit(repo, "toy study retired")
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    lines = result.out.splitlines()
    assert lines[1:3] == ["toy", "  family removed: its folder and study file are gone at head; its figures are listed "
                                 "as removed (fails nothing)"]
    assert "  removed: fp16 median GPU compute time, 800 x 800, engine, H200: was 4.2 ms (job a) " \
           "[measurements/toy/a.json:" in result.out
    assert lines[-1].startswith("1 family removed, 0 figures beyond their spread, 0 verdict changes; 0 within spread, "
                                "0 new, 1 removed, ")
    assert exits(repo) == [0, 0, 0]
    github = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "github").out.splitlines()
    assert github[0] == ("::warning title=studygen diff%3A family removed::toy: its folder and study file are gone at "
                         "head; its figures are listed as removed (fails nothing)")
    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md").out.splitlines()
    at = markdown.index("Families removed:")
    assert markdown[at + 2].startswith("- toy: its folder and study file are gone at head")


def test_a_record_linked_outside_the_project_is_refused_by_check_and_by_diff(repo, tmp_path, run_cli):
    # before: check and render read the record through the link; diff left it out at the revision and gave
    # its figure as removed, exit 0
    outside = tmp_path / "elsewhere" / "a.json"
    outside.parent.mkdir()
    (repo / "measurements" / "toy" / "a.json").rename(outside)
    (repo / "measurements" / "toy" / "a.json").symlink_to(outside)
    commit(repo, "the record kept elsewhere")
    checked = run_cli("check", "--root", repo)
    assert checked.exit_code == 1
    assert (f"measurements/toy/a.json: SG202 a file that leads outside the project, to {outside.resolve()}: not read "
            "(a commit holds the symbolic link, not what it leads to)") in checked.out
    for head in (["HEAD"], []):  # a revision, and the working tree
        result = run_cli("diff", "HEAD~1", *head, "--root", repo)
        unreadable = result.out.splitlines()[2]
        assert unreadable.startswith("  unreadable: the head could not be read: "), result.out
        assert "measurements/toy/a.json" in unreadable and "(first: a file that leads outside the project" in unreadable
        assert result.exit_code == 1
        assert "  removed: " not in result.out
