"""ruff, configured in pyproject.toml (``[tool.ruff]``), finds nothing in the
package, the tests or the benchmarks: the suite the README's test command
runs (and ``.ci/run`` runs it verbatim) is where it runs."""

from __future__ import annotations

import shutil
import subprocess
import sys

from .conftest import REPO


def test_ruff_finds_nothing():
    ruff = [sys.executable, "-m", "ruff"] if shutil.which("ruff") is None else ["ruff"]
    done = subprocess.run([*ruff, "check", "--no-cache", "studygen", "tests", "benchmarks"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert "No module named ruff" not in done.stderr, "install the dev extras: pip install -e '.[dev]' (ruff)"
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_reads_the_projects_configuration():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--show-settings", "studygen/cli.py"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "pyproject.toml" in done.stdout and "line_length = 120" in done.stdout
