"""Every collector's ``provenance.collector.version`` follows one rule (studygen.collect.env.collector_block):
when studygen is code of the project's own checkout, the version is made from the reading of that checkout
that the record states (collect run, collect env) or, for an ingest, from one reading by the same rule
(``git status`` of the whole work tree's tracked files: a changed study file makes it dirty, an untracked
record does not). A temporary git repository holds
the project here, with a ``studygen`` package folder standing in for this one."""

from __future__ import annotations

import json

import pytest

import studygen

from ..run.test_run_provenance import checkout, git
from .test_provenance_correction import TRACE


@pytest.fixture
def project(tmp_path, monkeypatch, run_cli):
    root = tmp_path / "project"
    checkout(root)
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", root / "studygen")
    monkeypatch.chdir(root)
    assert run_cli("new", "demo", "--variants", "fp32", "--model", "org/m", "--revision", "abc1234").exit_code == 0
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "study")
    return root, git(root, "rev-parse", "HEAD")


def _provenance(root) -> dict:
    return json.loads((root / "measurements" / "demo" / "a.json").read_text())["provenance"]


def _ingest(run_cli):
    done = run_cli("collect", "torch-profile", "--family", "demo", "--job", "a", "--trace", TRACE, "--mode", "eager",
                   "--software", "torch=2.5.1", "--commit", "fedcba9")
    assert done.exit_code == 0, done.err
    return done


@pytest.mark.parametrize("change, dirty", [(None, ""), ("untracked", ""), ("tracked", ".dirty")])
def test_an_ingest_reads_the_project_checkout_as_collect_run_does(project, run_cli, change, dirty):
    root, head = project
    if change == "untracked":  # a new file outside the package (a user's new study): the commit's files unchanged
        (root / "notes.txt").write_text("untracked\n")
    if change == "tracked":  # a committed file outside the package changed: dirty, as collect run counts it
        with (root / "families" / "demo" / "study.yaml").open("a", encoding="utf-8") as study:
            study.write("# edited\n")
    _ingest(run_cli)
    provenance = _provenance(root)
    assert provenance["repository_commit"] == "fedcba9"  # the commit of the code that made the trace, not this one
    assert provenance["collector"]["version"] == f"{studygen.__version__}+g{head[:7]}{dirty}"


def test_collect_env_takes_the_version_from_its_own_reading(project, run_cli):
    root, head = project
    _ingest(run_cli)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "record")
    second = git(root, "rev-parse", "HEAD")
    with (root / "families" / "demo" / "study.yaml").open("a", encoding="utf-8") as study:
        study.write("# edited\n")
    done = run_cli("collect", "env", "--family", "demo", "--job", "a", "--role", "conversion", "--no-torch")
    assert done.exit_code == 0, done.err
    block = json.loads(done.out[:done.out.rindex("}") + 1])
    assert (block["repository_commit"], block["repository_dirty"]) == (second, True)
    assert f"also collected by studygen collect env {studygen.__version__}+g{second[:7]}.dirty" in (
        _provenance(root)["notes"])


def test_the_version_reads_pip_once_and_the_checkout_only_when_the_record_is_of_studygen_own(tmp_path, monkeypatch):
    from studygen.version import collector_version

    tool, study = tmp_path / "tool", tmp_path / "study"
    tool_head = checkout(tool)
    checkout(study)
    asked, readings = [], []
    monkeypatch.setattr("studygen.version._pip_commit", lambda package_dir: asked.append(package_dir))

    def reading():
        readings.append(1)
        return "0123abcd" * 5, None  # dirty unknown: no .dirty

    assert collector_version(study, reading, tool / "studygen") == f"{studygen.__version__}+g{tool_head[:7]}"
    assert (asked, readings) == ([tool / "studygen"], [])  # another checkout: its own, the record's not read
    assert collector_version(tool, reading, tool / "studygen") == f"{studygen.__version__}+g0123abc"
    assert len(asked) == 2 and readings == [1]
    assert collector_version(None, reading, tool / "studygen") == f"{studygen.__version__}+g{tool_head[:7]}"
