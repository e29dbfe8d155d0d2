"""How the ``studygen`` process ends (studygen/console.py ``leave``): without the
interpreter's teardown once the command is done (issue 25 item 5: about 9 ms
of a check of the shipped project), its output flushed whole, its exit
status the command's, its atexit callbacks run; and with Python's own exit
where that still has work (another thread alive) or where studygen is not
the program (main given ``argv``, or called from under a profiler or
``runpy.run_module``): SystemExit is then the caller's to catch."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from ..conftest import REPO

# Put where Python imports it at start-up (sitecustomize), before the entry point runs: Python's own exit
# calls threading._shutdown before anything else (to wait for the other threads), the fast exit never does, so a
# wrapper of it says that Python's exit ran; an atexit callback says when it runs.
SITE = ("import atexit, os, sys, threading, time\n"
        "_shutdown = threading._shutdown\n"
        "def _python_exit(write=os.write):\n"
        "    write(2, b'python exit\\n')\n"
        "    _shutdown()\n"
        "threading._shutdown = _python_exit\n"
        "atexit.register(lambda: os.write(2, b'atexit ran\\n'))\n"
        "{before}")

# The console script pip writes for the entry point (pyproject.toml), as a file of its own.
CONSOLE_SCRIPT = "import sys\nfrom studygen.console import main\nsys.exit(main())\n"


def _run(tmp_path, argv: list[str], before: str = "", entry: str = "-m") -> subprocess.CompletedProcess:
    """studygen ``argv`` run as ``python -m studygen`` (``entry`` "-m") or through the console script
    ("script"), with :data:`SITE` (and ``before``) run at start-up."""
    (tmp_path / "sitecustomize.py").write_text(SITE.format(before=before))
    (tmp_path / "studygen_script.py").write_text(CONSOLE_SCRIPT)
    command = ["-m", "studygen"] if entry == "-m" else [str(tmp_path / "studygen_script.py")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
    return subprocess.run([sys.executable, *command, *argv], capture_output=True, text=True, cwd=REPO, env=env,
                          timeout=120)


def test_a_finished_command_ends_without_the_teardown_with_its_output_and_status(tmp_path):
    """The check of one shipped family: every line printed (the summary line last), status 0, no teardown,
    the atexit callback run (it saves coverage's data, say). The atexit callback failed before: never run."""
    for entry in ("-m", "script"):
        done = _run(tmp_path, ["check", "deformable_detr"], entry=entry)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1].startswith("0 error(s), ")
        assert done.stderr == "atexit ran\n", entry


def test_the_exit_status_is_the_commands_for_a_usage_error_too(tmp_path):
    done = _run(tmp_path, ["check", "no_such_family"])
    assert done.returncode == 2
    line, callback = done.stderr.splitlines()
    assert line.startswith("studygen: ") and "no_such_family" in line
    assert callback == "atexit ran"


def test_output_larger_than_the_stream_buffer_arrives_whole(tmp_path):
    """The project's check as JSON (about 46 KB, beyond the 8 KB a text stream buffers) through a pipe: every
    finding arrives, as many as the text report's summary line counts (a buffer left unflushed would be lost
    by os._exit)."""
    as_json = _run(tmp_path, ["check", "--format", "json"])
    as_text = _run(tmp_path, ["check"])
    assert as_json.returncode == as_text.returncode == 0
    assert "python exit" not in as_json.stderr
    assert len(as_json.stdout) > 8192
    findings = json.loads(as_json.stdout)
    summary = re.fullmatch(r"0 error\(s\), (\d+) warning\(s\), (\d+) waived", as_text.stdout.splitlines()[-1])
    assert summary is not None and len(findings) == int(summary.group(1)) + int(summary.group(2)) > 10


def test_another_thread_alive_keeps_pythons_own_exit(tmp_path):
    """A thread still running when the command ends (one a sitecustomize started): the process waits for it as
    Python's exit does, runs the atexit callback once, and tears the interpreter down."""
    thread = ("def wait():\n"
              "    while threading.main_thread().is_alive():  # until Python's exit begins, however long that takes\n"
              "        time.sleep(0.01)\n"
              "    sys.stderr.write('thread ended\\n')\n"
              "threading.Thread(target=wait).start()\n")
    done = _run(tmp_path, ["--help"], before=thread)
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: studygen")
    assert done.stderr.splitlines() == ["python exit", "thread ended", "atexit ran"]


def test_an_atexit_callback_that_writes_to_a_full_device_runs_once(tmp_path):
    """stdout on /dev/full: check's own write fails (an internal error, status 2) and the flush before the
    callbacks fails too, so Python's exit runs the callback, once, and reports nothing more."""
    with open("/dev/full", "w") as full:
        (tmp_path / "sitecustomize.py").write_text(SITE.format(before=""))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
        done = subprocess.run([sys.executable, "-m", "studygen", "--help"], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=REPO, env=env, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("atexit ran") == 1
    assert done.stderr.splitlines()[0] == ("studygen: internal error: OSError: [Errno 28] No space left on device "
                                           "(set STUDYGEN_DEBUG=1 for the traceback)")


# A script that calls main itself, in a try: what it does after must still happen.
CALLER = ("import sys\n"
          "{call}\n"
          "print('after main:', exit_status)\n")
IN_PROCESS = ("from studygen.console import main\n"
              "try:\n"
              "    main(['check', 'no_such_family'])\n"
              "except SystemExit as exc:\n"
              "    exit_status = exc.code")
# runpy.run_module, as a tool that runs studygen inside its own process does (coverage, a profiler, a test)
UNDER_RUNPY = ("import runpy\n"
               "sys.argv = ['studygen', 'check', 'no_such_family']\n"
               "try:\n"
               "    runpy.run_module('studygen', run_name='__main__', alter_sys=True)\n"
               "except SystemExit as exc:\n"
               "    exit_status = exc.code")


def test_a_caller_of_main_catches_its_systemexit():
    """main given ``argv`` by a script, and python -m studygen's module run by runpy.run_module from one:
    the SystemExit of exit status 2 reaches the script, which goes on. Failed before: the process ended in
    main (os._exit), the script's last line never ran."""
    for call in (IN_PROCESS, UNDER_RUNPY):
        done = subprocess.run([sys.executable, "-c", CALLER.format(call=call)], capture_output=True, text=True,
                              cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=120)
        assert (done.returncode, done.stdout) == (0, "after main: 2\n"), call
        assert "no_such_family" in done.stderr


def test_a_script_calling_main_keeps_its_open_files_and_exit_handlers(tmp_path):
    """A script that wrote to a file it left open, registered an atexit callback and called main(argv) last:
    the file holds what was written (Python's exit flushes it) and the callback runs. Failed before: the file
    was empty and the callback never ran."""
    kept = tmp_path / "kept.txt"
    script = (f"import atexit\nlog = open({str(kept)!r}, 'w')\nlog.write('written before main')\n"
              "atexit.register(print, 'callback ran')\n"
              "from studygen.console import main\nmain(['--version'])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "callback ran"
    assert kept.read_text() == "written before main"


def test_a_profiler_above_main_prints_its_report():
    """python -m cProfile -m studygen --help: cProfile catches the SystemExit and prints its report, whose
    header counts the function calls. Failed before: os._exit ended the process before the report."""
    done = subprocess.run([sys.executable, "-m", "cProfile", "-m", "studygen", "--help"], capture_output=True,
                          text=True, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: studygen")
    assert re.search(r"^ +\d+ function calls .* in [\d.]+ seconds$", done.stdout, re.MULTILINE)


def test_multiprocessing_loaded_keeps_pythons_own_exit(tmp_path):
    """A process that loaded multiprocessing (collect run's compile workers, check's spawned workers off Linux)
    ends through Python's exit, whose handlers end its children and run their finalizers: the teardown runs."""
    done = _run(tmp_path, ["--help"], before="import multiprocessing\n")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: studygen")
    assert done.stderr.splitlines() == ["python exit", "atexit ran"]
