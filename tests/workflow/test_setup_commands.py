"""The root README's set-up: exactly two commands for a fresh machine, each
making and activating its own virtual environment first (a system Python
under PEP 668 refuses ``pip install``), and ``.ci/run`` running the second
one as the README prints it."""

from __future__ import annotations

import re
import subprocess
import sys

from ..conftest import REPO

VENV = "python3 -m venv --system-site-packages .venv && . .venv/bin/activate && "


def setup_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick_start = readme[readme.index("## Quick start\n"):readme.index("\n## ", readme.index("## Quick start\n"))]
    return re.findall(r"```sh\n(.*?)\n```", quick_start, re.S)


def test_two_setup_commands_each_start_in_a_venv_of_their_own():
    commands = setup_commands()
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    assert all(c.startswith(VENV) for c in commands)
    render, tests = (c.removeprefix(VENV) for c in commands)
    assert render == "pip install -e . && studygen render && studygen check"
    assert tests.endswith("pip install -e '.[dev,gpu]' && python -m pytest")


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail\n" in ci
    assert ci.rstrip("\n").splitlines()[-1] == setup_commands()[1]


def test_the_venv_prefix_runs_under_the_ci_shell_options(tmp_path):
    # .ci/run is `set -euo pipefail`: venv's activate script must not trip on an unset variable
    script = f"set -euo pipefail\ncd {tmp_path}\n{VENV}python -c 'import sys; print(sys.prefix)'\n"
    done = subprocess.run(["bash", "-c", script.replace("python3 -m venv", f"{sys.executable} -m venv --without-pip")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / ".venv")
