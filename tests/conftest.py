"""Shared test fixtures: a copy of the project to modify, and an in-process CLI runner."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
FIXTURES = SHARED / "fixtures"


def pytest_configure(config):
    if not (SHARED / "fixtures").is_dir():
        raise pytest.UsageError(f"{SHARED} is missing: the tests read the workspace's shared folder "
                                "(corpus, fixtures, seed) beside the repository as ../shared")


@dataclass
class CliResult:
    exit_code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys):
    """Call ``studygen`` in-process with argv; return exit code, stdout, stderr."""
    from studygen.cli import run

    def invoke(*argv) -> CliResult:
        capsys.readouterr()
        code = run([str(a) for a in argv])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


def copy_project(dest: Path, families=("deformable_detr",)) -> Path:
    """A copy of the committed study files (families, measurements, templates) under ``dest``."""
    for family in families:
        shutil.copytree(REPO / "families" / family, dest / "families" / family)
        shutil.copytree(REPO / "measurements" / family, dest / "measurements" / family)
    shutil.copytree(REPO / "templates", dest / "templates")
    return dest


@pytest.fixture
def project(tmp_path) -> Path:
    """A writable copy of the deformable_detr study (run commands with --root)."""
    return copy_project(tmp_path / "project")


# Hypothesis profiles for the property tests (tests/robustness/test_properties.py).
# "ci" (the default) keeps the whole property file to a few hundred examples;
# "long" (pytest --hypothesis-profile=long) runs at least 1000 examples per test.
# Registered here, not in tests/robustness/, because the hypothesis plugin
# loads --hypothesis-profile before conftest files below tests/ are imported.
try:
    from hypothesis import HealthCheck, settings
except ImportError:  # hypothesis is in the dev extra
    settings = None
if settings is not None:
    _SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large]
    settings.register_profile("ci", max_examples=50, deadline=None, suppress_health_check=_SLOW_IS_FINE)
    settings.register_profile("long", max_examples=1000, deadline=None, suppress_health_check=_SLOW_IS_FINE)
    settings.load_profile("ci")


BUILD_LOG = FIXTURES / "trtexec" / "trt10.16_build-and-run.log"
BUILD_LOG_SHAPE_LINE = ("Dynamic dimensions required for input: x, but no shapes were provided. "
                        "Automatically overriding shape to: 1x1x28x28")


def shapeless_build_log(folder: Path) -> Path:
    """``trt10.16_build-and-run.log`` (same name, same line numbers) written
    into ``folder`` with its line 132, the only one that states the run's
    input shape (trtexec's own choice, 1x1x28x28, so 28x28 at batch 1),
    replaced by a line that says nothing: a log that states neither shape
    nor batch, for tests of the options that label one."""
    text = BUILD_LOG.read_text(encoding="utf-8")
    assert text.count(BUILD_LOG_SHAPE_LINE) == 1
    path = folder / BUILD_LOG.name
    path.write_text(text.replace(BUILD_LOG_SHAPE_LINE, "a line a test took out"), encoding="utf-8")
    return path
