"""``collect run`` loads torch and the other heavy libraries only when it measures:
``studygen collect run --help`` and importing the command module leave them out."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

HEAVY = ("torch", "transformers", "modelopt", "skimage", "PIL", "numpy", "pynvml", "pycocotools", "pandas",
         "matplotlib")


def heavy_modules_after(code: str) -> str:
    probe = (f"import sys\n{code}\n"
             f"print('HEAVY', sorted(m for m in {HEAVY!r} if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


@pytest.mark.parametrize("code", [
    "import studygen.commands.collect_run",
    "from studygen.cli import run\ntry:\n    run(['collect', 'run', '--help'])\nexcept SystemExit:\n    pass",
], ids=["import", "help"])
def test_collect_run_help_imports_no_heavy_library(code):
    output = heavy_modules_after(code)
    assert "HEAVY []" in output, output


def test_the_help_text_is_printed():
    output = heavy_modules_after("from studygen.cli import run\ntry:\n    run(['collect', 'run', '--help'])\n"
                                 "except SystemExit:\n    pass")
    words = " ".join(output.split())
    assert "Measure a study's variants (latency, kernel time per group, agreement) with PyTorch" in words
    for flag in ("--study PATH", "--job TEXT", "--shard TEXT", "--resume", "--merge-ap INTEGER RANGE", "--cpu",
                 "--dirty / --clean", "--root DIRECTORY"):
        assert flag in words
