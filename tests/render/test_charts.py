"""Chart stamps: the matplotlib version in a stamp comes from the package
metadata, so checking a family whose charts are current never imports
matplotlib (issue 11: its import was most of one family's check time)."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

from studygen.render import charts

from ..conftest import REPO


def test_stamp_version_is_the_version_matplotlib_reports():
    import matplotlib

    assert charts.matplotlib_version() == matplotlib.__version__ == importlib.metadata.version("matplotlib")


def test_the_version_is_read_off_the_metadata_header_as_the_email_parser_reads_it():
    # a long description follows the first empty line: a "Version:" there is text, not the field
    text = ("Metadata-Version: 2.1\nName: plotting\nversion:  3.11.2\nSummary: x\n\n"
            "Version: 9.9 is what this description mentions\n")
    assert charts.header_version(text) == "3.11.2"
    assert charts.header_version("Metadata-Version: 2.1\nVersion: 1.0.post1\r\n\nbody") == "1.0.post1"
    assert charts.header_version("Name: p\n\nVersion: 2.0\n") is None  # only in the body
    assert charts.header_version("Name: p\nVersion: 2.0\n  .dev1\n") is None  # folded: left to the full parser
    assert charts.header_version("") is None


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
