"""SG220: a folder the study's inputs are read from that every user may
write in is a warning of ``check`` and a stderr line of ``render``; before,
a 0777 ``measurements/`` was read without a word. Modes set here on a toy
project in the test's own folder."""

from __future__ import annotations

import os

import pytest

from studygen.checks import sg220_open_folders
from studygen.checks.base import CheckContext
from studygen.study import load_study

from .studies import FAMILY, latency, record, write_project


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    root.mkdir(mode=0o755)
    os.chmod(root, 0o755)
    study_dir = write_project(root, records=[record("a", [latency("fp16", 5.0)])])
    for folder in (root / "families", study_dir, root / "templates", root / "measurements",
                   root / "measurements" / FAMILY, root / "measurements" / FAMILY / "datasets"):
        os.chmod(folder, 0o755)
    return root, study_dir


def findings(root, study_dir):
    return sg220_open_folders.check(CheckContext(load_study(study_dir, root)))


def test_folders_only_their_owner_writes_give_nothing(project):
    assert findings(*project) == []


@pytest.mark.parametrize("folder, mode", [
    ("measurements", 0o777), ("measurements", 0o1777), (f"measurements/{FAMILY}", 0o757),
    (f"measurements/{FAMILY}/datasets", 0o777), (f"families/{FAMILY}", 0o777), ("templates", 0o1777), (".", 0o777)])
def test_a_folder_every_user_may_write_in_is_named_with_its_mode(project, folder, mode):
    root, study_dir = project
    os.chmod(root / folder, mode)
    (found,) = findings(root, study_dir)
    assert (found.code, found.severity, found.file) == ("SG220", "warning", folder)
    assert found.message.startswith(f"folder writable by every user (mode {mode:04o}): anyone on this machine")
    assert found.hint.startswith(f"chmod o-w {folder} ")


@pytest.mark.parametrize("mode", [0o775, 0o770, 0o2775])
def test_group_write_alone_is_not_reported(project, mode):
    # a team folder (group writable, setgid) is the common shared set-up: only write for every user is reported
    root, study_dir = project
    os.chmod(root / "measurements" / FAMILY, mode)
    assert findings(root, study_dir) == []


def test_a_folder_above_the_project_root_is_not_the_projects(project, tmp_path):
    root, study_dir = project
    os.chmod(tmp_path, 0o777)  # where the project lies, not what it reads
    try:
        assert findings(root, study_dir) == []
    finally:
        os.chmod(tmp_path, 0o700)


def test_check_and_render_report_it_once_each(project, run_cli):
    root, _ = project
    os.chmod(root / "measurements", 0o777)
    checked = run_cli("check", "--root", root)
    assert checked.out.count("SG220") == 1 and "measurements: SG220 [warning] folder writable" in checked.out
    rendered = run_cli("render", "--root", root)
    assert rendered.exit_code == 0, rendered.err
    assert rendered.err.count("writable by every user") == 1
    assert ("studygen: warning: measurements/: writable by every user (mode 0777), so anyone on this machine could "
            "have added or replaced what this README was rendered from (SG220)\n") in rendered.err
