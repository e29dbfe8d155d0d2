"""How the ``studygen`` process ends (studygen/console.py ``leave``): without the
interpreter's teardown once the command is done (issue 25 item 5: about 9 ms
of a check of the shipped project), its output flushed whole, its exit
status the command's; and with Python's own exit where that still has work
(another thread alive)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from ..conftest import REPO

# An exit handler stands for the teardown: Python's own exit runs it, the fast exit does not.
PROBE = ("import atexit, sys, threading, time\n"
         "atexit.register(lambda: sys.stderr.write('teardown ran\\n'))\n"
         "{before}"
         "from studygen.console import main\n"
         "main({argv!r})\n")


def _run(argv: list[str], before: str = "") -> subprocess.CompletedProcess:
    code = PROBE.format(before=before, argv=argv)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)


def test_a_finished_command_ends_without_the_teardown_with_its_output_and_status():
    """The check of one shipped family: every line printed (the summary line last), status 0, no teardown.
    Failed before: the exit handler ran (sys.exit tore the interpreter down)."""
    done = _run(["check", "deformable_detr"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("0 error(s), ")
    assert "teardown ran" not in done.stderr


def test_the_exit_status_is_the_commands_for_a_usage_error_too():
    done = _run(["check", "no_such_family"])
    assert done.returncode == 2
    assert done.stderr.startswith("studygen: ") and "no_such_family" in done.stderr
    assert "teardown ran" not in done.stderr


def test_output_larger_than_the_stream_buffer_arrives_whole():
    """The project's check as JSON (about 46 KB, beyond the 8 KB a text stream buffers) through a pipe: every
    finding arrives, as many as the text report's summary line counts (a buffer left unflushed would be lost
    by os._exit)."""
    as_json = _run(["check", "--format", "json"])
    as_text = _run(["check"])
    assert as_json.returncode == as_text.returncode == 0
    assert len(as_json.stdout) > 8192
    findings = json.loads(as_json.stdout)
    summary = re.fullmatch(r"0 error\(s\), (\d+) warning\(s\), (\d+) waived", as_text.stdout.splitlines()[-1])
    assert summary is not None and len(findings) == int(summary.group(1)) + int(summary.group(2)) > 10


def test_another_thread_alive_keeps_pythons_own_exit():
    """A thread still running when the command ends (an embedding script's): the process waits for it as
    Python's exit does, and the teardown runs."""
    thread = ("def wait():\n"
              "    while threading.main_thread().is_alive():  # until Python's exit begins, however long that takes\n"
              "        time.sleep(0.01)\n"
              "    sys.stderr.write('thread ended\\n')\n"
              "threading.Thread(target=wait).start()\n")
    done = _run(["--help"], before=thread)
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: studygen")
    assert done.stderr.splitlines() == ["thread ended", "teardown ran"]


def test_multiprocessing_loaded_keeps_pythons_own_exit():
    """A process that loaded multiprocessing (collect run's compile workers, check's spawned workers off Linux)
    ends through Python's exit, whose handler joins or ends its children: the teardown runs."""
    done = _run(["--help"], before="import multiprocessing\n")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: studygen")
    assert done.stderr == "teardown ran\n"
