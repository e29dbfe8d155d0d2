"""A ``collect run`` record's ``collector.version`` and ``repository_commit`` /
``repository_dirty`` come from one reading of the git state when studygen
runs from the checkout it records (a temporary git repository here, with a
``studygen`` package folder standing in for this one)."""

from __future__ import annotations

import os
import subprocess

import pytest

import studygen
from studygen.collect.run.provenance import collect_provenance
from studygen.version import package_version

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/")}


def git(folder, *args) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, env=GIT_ENV, capture_output=True,
                          text=True).stdout.strip()


def checkout(folder):
    """A git repository at ``folder`` with a committed ``studygen/__init__.py``; returns its HEAD."""
    (folder / "studygen").mkdir(parents=True)
    (folder / "studygen" / "__init__.py").write_text("x = 1\n")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "one")
    return git(folder, "rev-parse", "HEAD")


def provenance(root, **given) -> tuple[str, bool | None, str]:
    block = collect_provenance(root=root, checkpoint={}, command="", dataset_revision=None,
                               commit=given.get("commit"), dirty=given.get("dirty"))
    return block["repository_commit"], block["repository_dirty"], block["collector"]["version"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "project"
    head = checkout(root)
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", root / "studygen")
    return root, head


def test_a_clean_checkout_is_clean_in_both(project):
    root, head = project
    assert provenance(root) == (head, False, f"{studygen.__version__}+g{head[:7]}")


def test_an_untracked_record_makes_both_dirty(project):
    root, head = project
    (root / "measurements.json").write_text("{}\n")  # outside the package, untracked: the commit lacks it
    assert provenance(root) == (head, True, f"{studygen.__version__}+g{head[:7]}.dirty")
    # the package's own reading (tracked changes under its folder) calls it clean: a second reading disagreed
    assert package_version(root / "studygen") == f"{studygen.__version__}+g{head[:7]}"


def test_a_changed_package_file_makes_both_dirty_and_a_commit_makes_both_clean(project):
    root, head = project
    (root / "studygen" / "__init__.py").write_text("x = 2\n")
    assert provenance(root) == (head, True, f"{studygen.__version__}+g{head[:7]}.dirty")
    git(root, "commit", "-q", "-am", "two")
    second = git(root, "rev-parse", "HEAD")
    assert second != head
    assert provenance(root) == (second, False, f"{studygen.__version__}+g{second[:7]}")


def test_a_copy_without_git_takes_the_stated_commit_for_both(tmp_path, monkeypatch):
    root = tmp_path / "copy"
    (root / "studygen").mkdir(parents=True)
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", root / "studygen")
    stated = "89abcdef" * 5
    assert provenance(root, commit=stated, dirty=True) == (stated, True, f"{studygen.__version__}+g89abcde.dirty")
    assert provenance(root, commit=stated, dirty=False) == (stated, False, f"{studygen.__version__}+g89abcde")


def test_studygen_from_another_checkout_keeps_its_own_version(tmp_path, monkeypatch):
    root, tool = tmp_path / "study", tmp_path / "tool"
    study_head, tool_head = checkout(root), checkout(tool)
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", tool / "studygen")
    (root / "measurements.json").write_text("{}\n")
    assert provenance(root) == (study_head, True, f"{studygen.__version__}+g{tool_head[:7]}")
