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


def test_an_untracked_record_leaves_both_clean_until_it_is_staged(project):
    # Failed before (both said dirty): a new study's untracked study file and records are no change of the
    # commit's files, as git describe --dirty and setuptools-scm read a checkout
    root, head = project
    (root / "measurements.json").write_text("{}\n")  # outside the package, untracked
    assert provenance(root) == (head, False, f"{studygen.__version__}+g{head[:7]}")
    assert package_version(root / "studygen") == f"{studygen.__version__}+g{head[:7]}"
    git(root, "add", "measurements.json")
    assert provenance(root) == (head, True, f"{studygen.__version__}+g{head[:7]}.dirty")


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
    (root / "studygen" / "__init__.py").write_text("x = 5\n")  # a change of the study's checkout, not the tool's
    assert provenance(root) == (study_head, True, f"{studygen.__version__}+g{tool_head[:7]}")


def test_a_clone_of_studygen_inside_the_study_keeps_its_own_version(tmp_path, monkeypatch):
    root = tmp_path / "study"
    study_head = checkout(root)
    tool_head = checkout(root / "tools" / "tool")  # its own repository, untracked in the study's: no change of it
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", root / "tools" / "tool" / "studygen")
    assert provenance(root) == (study_head, False, f"{studygen.__version__}+g{tool_head[:7]}")
    (root / "tools" / "tool" / "studygen" / "__init__.py").write_text("x = 3\n")
    assert provenance(root) == (study_head, False, f"{studygen.__version__}+g{tool_head[:7]}.dirty")
    # a study folder without git (its commit stated) holding a clone of studygen: the clone's own version
    plain = tmp_path / "plain"
    clone_head = checkout(plain / "tool")
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", plain / "tool" / "studygen")
    stated = "89abcdef" * 5
    assert provenance(plain, commit=stated, dirty=False) == (stated, False, f"{studygen.__version__}+g{clone_head[:7]}")


def test_a_project_root_below_the_checkout_top_shares_its_reading(tmp_path, monkeypatch):
    repository = tmp_path / "repository"
    head = checkout(repository)
    (repository / "project").mkdir()
    (repository / "project" / "record.json").write_text("{}\n")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "record")
    head = git(repository, "rev-parse", "HEAD")
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", repository / "studygen")
    (repository / "project" / "record.json").write_text("{}\n\n")  # changed, though no package file changed
    assert provenance(repository / "project") == (head, True, f"{studygen.__version__}+g{head[:7]}.dirty")
    assert package_version(repository / "studygen") == f"{studygen.__version__}+g{head[:7]}"  # its own reading


def test_a_commit_pip_recorded_for_the_package_wins(project, monkeypatch):
    root, head = project

    class Installed:  # what importlib.metadata gives for studygen installed from a git URL into this folder
        def locate_file(self, name):
            return root / name

        def read_text(self, name):
            return '{"url": "https://example.org/studygen.git", "vcs_info": {"vcs": "git", "commit_id": "fedcba9876"}}'

    from importlib import metadata

    real = metadata.distribution
    monkeypatch.setattr("studygen.version.metadata.distribution",
                        lambda name: Installed() if name == "studygen" else real(name))
    (root / "studygen" / "__init__.py").write_text("x = 4\n")
    assert provenance(root) == (head, True, f"{studygen.__version__}+gfedcba9")


def test_studygen_outside_the_stated_copy_and_outside_git_has_a_bare_version(tmp_path, monkeypatch):
    (tmp_path / "copy").mkdir()
    (tmp_path / "elsewhere" / "studygen").mkdir(parents=True)
    monkeypatch.setattr("studygen.version.PACKAGE_DIR", tmp_path / "elsewhere" / "studygen")
    stated = "89abcdef" * 5
    assert provenance(tmp_path / "copy", commit=stated, dirty=True) == (stated, True, studygen.__version__)


def test_a_run_without_a_cuda_device_names_the_cpu_that_timed_it(tmp_path):
    # trial s21: a collect run --cpu record said no GPU and named no machine at all
    from tests.collect.test_env import cpuinfo_models

    expected = cpuinfo_models()
    if expected is None:
        pytest.skip("no model name in /proc/cpuinfo on this machine")
    block = collect_provenance(root=tmp_path, checkpoint={}, command="", dataset_revision=None, commit="abc1234",
                               dirty=False)
    assert (block["gpu"], block["gpu_count"], block["cpu"]) == (None, 0, expected)
    assert block["notes"] == ["no CUDA device: timed with the host clock, profiled CPU operators"]


def test_a_cpu_run_on_a_machine_with_a_gpu_names_the_cpu_not_the_gpu(tmp_path, monkeypatch):
    # a --cpu run on a GPU node was keyed and printed under the GPU: a CPU latency read as the H200's
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *device: "NVIDIA H200")
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr("studygen.collect.run.provenance.nvml_gpus", lambda: (["NVIDIA H200"], "570.1", None))
    on_cpu = collect_provenance(root=tmp_path, checkpoint={}, command="", dataset_revision=None, commit="abc1234",
                                dirty=False, on_gpu=False)
    assert (on_cpu["gpu"], on_cpu["gpu_count"], on_cpu["driver"]) == (None, 0, None)
    assert on_cpu["notes"][0] == ("--cpu: timed with the host clock and profiled CPU operators; this machine's "
                                  "CUDA device (NVIDIA H200) was not used")
    on_gpu = collect_provenance(root=tmp_path, checkpoint={}, command="", dataset_revision=None, commit="abc1234",
                                dirty=False)
    assert (on_gpu["gpu"], on_gpu["gpu_count"], on_gpu["driver"]) == ("NVIDIA H200", 1, "570.1")
    assert on_gpu["notes"][0].startswith("torch.backends.cuda.matmul.allow_tf32=")


def test_a_cpu_run_records_no_cuda_version(tmp_path, monkeypatch):
    # a new user's --cpu record listed cuda 13.0 (the toolkit this torch was built with) though no CUDA ran
    import torch

    monkeypatch.setattr(torch.version, "cuda", "12.8")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *device: "NVIDIA L40S")
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr("studygen.collect.run.provenance.nvml_gpus", lambda: (["NVIDIA L40S"], "575.2", None))
    on_cpu = collect_provenance(root=tmp_path, checkpoint={}, command="", dataset_revision=None, commit="abc1234",
                                dirty=False, on_gpu=False)
    on_gpu = collect_provenance(root=tmp_path, checkpoint={}, command="", dataset_revision=None, commit="abc1234",
                                dirty=False)
    assert on_cpu["software"]["cuda"] is None
    assert on_cpu["software"]["torch"] == torch.__version__
    assert on_gpu["software"]["cuda"] == "12.8"
