"""Issue 14 item 5: a plain install (``pip install .``, as pre-commit installs
hooks) holds every file the code opens, and ``studygen check`` runs from it.

The wheel is built from a copy of the sources (so the checkout gets no
build/ or egg-info), installed with ``--no-deps`` into a folder of its own
and run with only that folder on the path (the libraries it needs come from
the test's environment), from a copy of the project that holds no
``studygen/`` folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from ..conftest import REPO, copy_project

# Package files that are not Python modules: what the code opens with importlib.resources.
DATA_SUFFIXES = (".json", ".j2", ".yaml", ".txt", ".md")


def _source_files() -> list[str]:
    """Every file of the package in the checkout (no caches), as wheel paths."""
    files = []
    for path in sorted((REPO / "studygen").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append(path.relative_to(REPO).as_posix())
    return files


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source = tmp_path_factory.mktemp("source")
    shutil.copytree(REPO / "studygen", source / "studygen", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(out), str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("studygen-*.whl")
    return path


def test_the_wheel_holds_every_package_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = _source_files()
    data = [name for name in expected if name.endswith(DATA_SUFFIXES)]
    assert "studygen/schemas/run_record.schema.json" in data and "studygen/schemas/study.schema.json" in data
    assert [name for name in expected if name not in names] == []


def test_check_runs_from_a_plain_install(wheel, tmp_path):
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                                str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    project = copy_project(tmp_path / "project", families=("deformable_detr", "deformable_detr_h200_torch"))
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run([sys.executable, "-c", "import studygen; print(studygen.__file__)"], cwd=project,
                           env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(target)), where  # the installed copy, not the checkout
    result = subprocess.run([sys.executable, "-m", "studygen.cli", "check"], cwd=project, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.splitlines()[-1].startswith("0 error(s)")
