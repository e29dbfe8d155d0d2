"""A records folder ``measurements/<family>/`` that is there but cannot be
listed (a file in its place, a symbolic link that leads nowhere or loops, a
folder without read or search permission) is an SG202 finding at the folder
with the system's reason, and the other studies are checked all the same;
``render`` names it in one line and writes nothing.

Attack: a folder without permission ended check in "internal error:
PermissionError" (exit 2), and the other kinds read as a family with no
records yet ("holds no *.json run record", with a hint to collect).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from studygen.commands import check
from tests.robustness.tiny import make_tiny_project

REPO = Path(__file__).resolve().parents[2]


def _project(tmp_path: Path) -> Path:
    """Two tiny families, ``tiny`` (whose records folder the tests break) and ``other``, both rendered."""
    root = make_tiny_project(tmp_path / "project")
    make_tiny_project(root, family="other")
    return root


def _replace_records_folder(root: Path, kind: str) -> None:
    records = root / "measurements" / "tiny"
    shutil.rmtree(records)
    if kind == "file":
        records.write_text("not a folder\n", encoding="utf-8")
    elif kind == "dangling link":
        records.symlink_to("gone")
    elif kind == "looping link":
        records.symlink_to("tiny")


def _without(findings: list[dict], path: str) -> list[dict]:
    return [f for f in findings if f["file"] != path]


@pytest.mark.parametrize("kind, reason", [
    ("file", "cannot list the folder: Not a directory"),
    ("dangling link", "cannot list the folder (a symbolic link to gone): No such file or directory"),
    ("looping link", "cannot list the folder (a symbolic link to tiny): Too many levels of symbolic links"),
])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_records_folder_that_cannot_be_listed_is_sg202_and_the_other_study_is_checked(
        tmp_path, run_cli, monkeypatch, kind, reason, jobs):
    root = _project(tmp_path)
    assert run_cli("render", "--root", root).exit_code == 0
    monkeypatch.setenv("STUDYGEN_JOBS", "1")
    other_alone = run_cli("check", "other", "--root", root, "--format", "json")
    _replace_records_folder(root, kind)
    monkeypatch.setenv("STUDYGEN_JOBS", jobs)
    done = run_cli("check", "--root", root, "--format", "json")
    assert (done.exit_code, done.err) == (1, "")
    findings = json.loads(done.out)
    (unlisted,) = [f for f in findings if f["file"] == "measurements/tiny"]
    assert (unlisted["code"], unlisted["severity"], unlisted["message"]) == ("SG202", "error", reason)
    assert unlisted["hint"].startswith("make it a folder that this user may read and search")
    assert not [f for f in findings if "no records" in f["message"]]  # not taken for a family yet to collect
    # the other family's findings are those it has when checked alone
    assert [f for f in findings if "/other" in f["file"]] == json.loads(other_alone.out)


def test_render_names_the_folder_in_one_line_and_writes_nothing(tmp_path, run_cli):
    root = _project(tmp_path)
    _replace_records_folder(root, "file")
    done = run_cli("render", "--root", root)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == "studygen: measurements/tiny: cannot list the folder: Not a directory\n"
    assert not (root / "families" / "tiny" / "README.md").exists()
    assert not (root / "families" / "other" / "README.md").exists()  # nothing is written when a study fails


def test_a_datasets_folder_that_is_a_file_is_sg202_at_it(tmp_path, run_cli):
    root = _project(tmp_path)
    datasets = root / "measurements" / "tiny" / "datasets"
    shutil.rmtree(datasets)
    datasets.write_text("", encoding="utf-8")
    done = run_cli("check", "tiny", "--root", root, "--format", "json")
    assert done.exit_code == 1
    assert [(f["code"], f["message"]) for f in json.loads(done.out) if f["file"] == "measurements/tiny/datasets"] \
        == [("SG202", "cannot list the folder: Not a directory")]


def _modes_apply(tmp_path: Path) -> list[str]:
    """A command prefix under which file modes stop this process's children:
    none for a user other than root; for root, setpriv taking the
    capabilities that let root past them (CAP_DAC_OVERRIDE,
    CAP_DAC_READ_SEARCH) out of the bounding set. Skips where neither works."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root, and setpriv is not available to run check where modes apply")
    prefix = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--"]
    closed = tmp_path / "closed"
    closed.write_text("", encoding="utf-8")
    closed.chmod(0)
    probe = subprocess.run([*prefix, sys.executable, "-c", f"open({str(closed)!r})"], capture_output=True, text=True)
    closed.unlink()
    if "PermissionError" not in probe.stderr:
        pytest.skip(f"setpriv does not take root's access to every file here: {probe.stderr.strip()[-200:]}")
    return prefix


UNLISTED = "cannot list the folder: Permission denied"


@pytest.mark.parametrize("mode, problems", [
    (0o000, [("measurements/tiny", UNLISTED)]),  # neither read nor search: one finding, not one for datasets/ too
    (0o300, [("measurements/tiny", UNLISTED)]),  # search, not read: no name can be listed
    # read, not search: the names list, nothing in the folder opens
    (0o600, [("measurements/tiny/datasets", UNLISTED), ("measurements/tiny/job-a.json", "cannot read: Permission denied")]),
], ids=["000", "300", "600"])
def test_a_records_folder_without_permission_is_sg202_not_an_internal_error(tmp_path, run_cli, mode, problems):
    prefix = _modes_apply(tmp_path)
    root = _project(tmp_path)
    assert run_cli("render", "--root", root).exit_code == 0
    records = root / "measurements" / "tiny"
    records.chmod(mode)
    try:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        env.pop("STUDYGEN_JOBS", None)
        done = subprocess.run([*prefix, sys.executable, "-m", "studygen", "check", "--root", str(root),
                               "--format", "json"], capture_output=True, text=True, env=env, timeout=300)
        rendered = subprocess.run([*prefix, sys.executable, "-m", "studygen", "render", "--root", str(root)],
                                  capture_output=True, text=True, env=env, timeout=300)
    finally:
        records.chmod(0o755)
    assert (done.returncode, done.stderr) == (1, "")
    findings = json.loads(done.stdout)
    assert sorted((f["file"], f["message"]) for f in findings if f["code"] == "SG202") == problems
    assert [f for f in findings if f["file"].startswith("families/other/")] == []  # checked, and clean
    assert rendered.returncode == 2 and rendered.stdout == ""
    assert rendered.stderr.count("\n") == 1 and "Permission denied" in rendered.stderr


def test_spawned_workers_count_no_record_in_a_folder_that_cannot_be_listed(tmp_path, monkeypatch):
    """The record count that decides whether to spawn workers reads every
    study's folder: one that cannot be listed counts none (its study's
    check reports it), never an error before any study is checked."""
    monkeypatch.delenv("STUDYGEN_JOBS", raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(check, "start_method", lambda: "spawn")
    root = _project(tmp_path)
    _replace_records_folder(root, "looping link")
    assert check.worker_count(root, [root / "families" / "tiny", root / "families" / "other"]) == 1


@pytest.mark.parametrize("kind, message", [
    (None, "comparisons: measurements/tiny/side/ holds no *.json run record"),  # missing: said at the study file
    ("file", "cannot list the folder: Not a directory"),  # said at the folder, not as an empty one
])
def test_a_comparisons_folder_that_cannot_be_listed_is_sg202_at_it(tmp_path, run_cli, kind, message):
    root = _project(tmp_path)
    study_file = root / "families" / "tiny" / "study.yaml"
    spec = yaml.safe_load(study_file.read_text(encoding="utf-8"))
    spec["comparisons"] = [{"name": "side", "records": "side", "about": "side jobs kept apart"}]
    study_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    if kind == "file":
        (root / "measurements" / "tiny" / "side").write_text("", encoding="utf-8")
    done = run_cli("check", "tiny", "--root", root, "--format", "json")
    assert done.exit_code == 1
    assert [f["message"] for f in json.loads(done.out) if f["code"] == "SG202"] == [message]
