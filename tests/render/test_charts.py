"""Chart stamps: the matplotlib version in a stamp comes from the package
metadata, so checking a family whose charts are current never imports
matplotlib (issue 11: its import was most of one family's check time)."""

from __future__ import annotations

import subprocess
import sys

from studygen.render import charts

from ..conftest import REPO


def test_stamp_version_is_the_version_matplotlib_reports():
    import matplotlib

    assert charts.matplotlib_version() == matplotlib.__version__


def test_stamp_changes_with_the_matplotlib_version(monkeypatch):
    before = charts.inputs_digest("latency", [["a", 1.5]])
    monkeypatch.setattr(charts, "matplotlib_version", lambda: "0.0.0")
    assert charts.inputs_digest("latency", [["a", 1.5]]) != before


def test_checking_a_family_with_current_charts_imports_no_matplotlib():
    code = ("import sys\n"
            "from studygen.cli import run\n"
            f"code = run(['check', '--root', {str(REPO)!r}, 'deformable_detr_h200_torch'])\n"
            "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr
