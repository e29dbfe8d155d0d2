"""Shared test fixtures: a copy of the project to modify, and an in-process CLI runner."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
FIXTURES = SHARED / "fixtures"


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
