"""A Ctrl-C while the command line is still being imported prints the same
one line and exit code as one later on, never a traceback (trial report:
``timeout -s INT 0.3 studygen check`` printed a KeyboardInterrupt traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Raises KeyboardInterrupt where Python imports studygen.cli: the moment a
# SIGINT arriving during that import lands, without timing a real signal.
INTERRUPTED_IMPORT = """
import sys
class InterruptCli:
    def find_spec(self, name, path=None, target=None):
        if name == "studygen.cli":
            raise KeyboardInterrupt
        return None
sys.meta_path.insert(0, InterruptCli())
sys.argv = ["studygen", "--help"]
import runpy
runpy.run_module("studygen", run_name="__main__")
"""


def test_an_interrupt_during_the_cli_import_is_one_line_and_exit_130():
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_IMPORT], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 130
    assert done.stderr == "studygen: interrupted\n"
    assert done.stdout == ""


def test_the_console_script_enters_through_the_guarded_module():
    text = (REPO / "pyproject.toml").read_text()
    assert 'studygen = "studygen.console:main"' in text
    from studygen import cli, console

    assert console.main is cli.main
