"""studygen.collect.lazy: a module bound at import, imported on first attribute read."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest

from studygen.collect.lazy import LazyModule, lazy_import
from tests.conftest import REPO


def test_attributes_come_from_the_module():
    lazy = lazy_import("math")
    assert isinstance(lazy, LazyModule)
    assert lazy.sqrt(2.25) == 1.5 and lazy.pi == math.pi
    assert repr(lazy) == "<lazily imported module 'math'>"


def test_a_missing_module_fails_on_first_use_not_before():
    lazy = lazy_import("studygen_no_such_module")
    with pytest.raises(ModuleNotFoundError, match="studygen_no_such_module"):
        lazy.anything


def test_importing_the_coco_command_imports_no_numpy():
    # collect coco --help, and collect run (whose AP stage reads ground truth with the COCO reader), stay light
    probe = ("import sys\nimport studygen.commands.collect.coco, studygen.collect.run.ap_stage\n"
             "print(sorted(m for m in ('numpy', 'pycocotools', 'faster_coco_eval') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
