"""A render killed (SIGKILL) at any point leaves every README and figure
wholly old or wholly new, never a part; the next render completes the set,
removes the temp files the killed one left, and check is clean.

Each case starts ``python -m studygen render`` in a subprocess on a copy of
the seed study whose outputs are stale (rendered from a changed record, then
the record restored) and kills it:

- when its first or second temp file appears, with ``os.fsync`` slowed in
  that process so the kill lands while the temp file exists (a real write,
  only slower; nothing of studygen is replaced);
- when a temp file first appears, at full speed (the window is short; the
  invariant must hold whether or not the kill lands in it);
- at fixed fractions of an uninterrupted render's wall time.

Ctrl-C (SIGINT) is sent by the render process to itself at fixed points of
the figure's write (right after ``tempfile.mkstemp`` made the temp file, and
while the temp file is fsynced), so each case lands where it is meant to,
every run: the render exits 130 with one line, and leaves no temp file.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, copy_project

FAMILY_DIR = Path("families/deformable_detr")
OUTPUTS = (FAMILY_DIR / "figures" / "latency.svg", FAMILY_DIR / "README.md")  # the order render writes them
RECORD = Path("measurements/deformable_detr/b200-trt11.4.json")
TEMP_NAME = re.compile(r"^\.(README\.md|latency\.svg)\.\d+\.[A-Za-z0-9_]+\.tmp$")
SLOW_FSYNC_S = 0.4

SLOW_FSYNC_RENDER = (
    "import os, runpy, sys, time\n"
    "real_fsync = os.fsync\n"
    f"os.fsync = lambda fd: (time.sleep({SLOW_FSYNC_S}), real_fsync(fd))[1]\n"
    "sys.argv = ['studygen'] + sys.argv[1:]\n"
    "runpy.run_module('studygen', run_name='__main__')\n"
)


def _render_cmd(root: Path, slow_fsync: bool) -> list[str]:
    if slow_fsync:
        return [sys.executable, "-c", SLOW_FSYNC_RENDER, "render", "--root", str(root)]
    return [sys.executable, "-m", "studygen", "render", "--root", str(root)]


def _start(root: Path, slow_fsync: bool = False) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(_render_cmd(root, slow_fsync), cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _temp_files(root: Path) -> list[Path]:
    found = []
    for folder in (root / FAMILY_DIR, root / FAMILY_DIR / "figures"):
        if folder.is_dir():
            found.extend(p for p in folder.iterdir() if p.name.endswith(".tmp"))
    return sorted(found)


def _kill_after_temp_files(proc: subprocess.Popen, root: Path, count: int, timeout_s: float = 60) -> list[str]:
    """SIGKILL ``proc`` once ``count`` distinct temp files have been seen; their names."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        for path in _temp_files(root):
            if path.name not in seen:
                seen.append(path.name)
        if len(seen) >= count:
            break
        time.sleep(0.001)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return seen


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    """A project copy plus the old (stale) and new (up-to-date) bytes of every output."""
    from studygen.cli import run

    root = copy_project(tmp_path_factory.mktemp("interrupted") / "project")
    record_path = root / RECORD
    committed = record_path.read_text(encoding="utf-8")
    record = json.loads(committed)
    assert record["results"][0]["value_ms"] == 5.889
    record["results"][0]["value_ms"] = 6.5
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    assert run(["render", "--root", str(root)]) == 0
    old = {rel: (root / rel).read_bytes() for rel in OUTPUTS}
    record_path.write_text(committed, encoding="utf-8")
    assert run(["render", "--root", str(root)]) == 0
    new = {rel: (root / rel).read_bytes() for rel in OUTPUTS}
    for rel in OUTPUTS:
        assert old[rel] != new[rel], f"{rel}: the changed record must change it"
    return root, old, new


def _reset_to_old(root: Path, old: dict) -> None:
    for path in _temp_files(root):
        path.unlink()
    for rel, data in old.items():
        (root / rel).write_bytes(data)


def _assert_whole_files(root: Path, old: dict, new: dict) -> dict[Path, str]:
    """Each output is wholly old or wholly new; only temp files of our naming were added."""
    state = {}
    for rel in OUTPUTS:
        data = (root / rel).read_bytes()
        assert data in (old[rel], new[rel]), f"{rel}: {len(data)} bytes, neither the old nor the new file"
        state[rel] = "old" if data == old[rel] else "new"
    names = {p.name for p in (root / FAMILY_DIR).iterdir()} | {p.name for p in (root / FAMILY_DIR / "figures").iterdir()}
    extra = names - {"study.yaml", "README.md", "figures", "latency.svg"}
    assert all(TEMP_NAME.match(name) for name in extra), extra
    return state


def _assert_next_render_completes(root: Path, new: dict, run_cli) -> None:
    result = run_cli("render", "--root", root)
    assert result.exit_code == 0, result.err
    for rel in OUTPUTS:
        assert (root / rel).read_bytes() == new[rel], rel
    assert _temp_files(root) == []  # the killed render's temp files are gone
    check = run_cli("check", "--root", root)
    assert check.exit_code == 0, check.out + check.err
    assert check.err == ""


@pytest.mark.parametrize("temp_files_seen, expected", [
    (1, {OUTPUTS[0]: "old", OUTPUTS[1]: "old"}),  # killed while the figure's temp file exists
    (2, {OUTPUTS[0]: "new", OUTPUTS[1]: "old"}),  # figure replaced, killed while the README's temp file exists
])
def test_kill_while_a_temp_file_exists(states, run_cli, temp_files_seen, expected):
    root, old, new = states
    _reset_to_old(root, old)
    proc = _start(root, slow_fsync=True)
    seen = _kill_after_temp_files(proc, root, temp_files_seen)
    assert len(seen) == temp_files_seen, seen
    assert _assert_whole_files(root, old, new) == expected
    leftover = [p.name for p in _temp_files(root)]
    assert leftover and all(TEMP_NAME.match(n) for n in leftover)
    # check still works with the leftovers there (the README is stale: SG201)
    check = run_cli("check", "--root", root)
    assert check.exit_code == 1 and "SG201" in check.out and check.err == ""
    _assert_next_render_completes(root, new, run_cli)


def test_kill_when_a_temp_file_appears_at_full_speed(states, run_cli):
    root, old, new = states
    for _ in range(3):
        _reset_to_old(root, old)
        _kill_after_temp_files(_start(root), root, 1)
        _assert_whole_files(root, old, new)
    _assert_next_render_completes(root, new, run_cli)


def test_kill_at_fractions_of_the_render_time(states, run_cli):
    root, old, new = states
    _reset_to_old(root, old)
    started = time.monotonic()
    proc = _start(root)
    assert proc.wait(timeout=120) == 0
    wall_s = time.monotonic() - started
    assert _assert_whole_files(root, old, new) == {rel: "new" for rel in OUTPUTS}
    for fraction in (0.3, 0.7, 0.9, 0.97, 1.0):
        _reset_to_old(root, old)
        proc = _start(root)
        try:
            proc.wait(timeout=wall_s * fraction)
        except subprocess.TimeoutExpired:
            pass
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        _assert_whole_files(root, old, new)
    _assert_next_render_completes(root, new, run_cli)


# Ctrl-C at a fixed point of the figure's atomic write, sent by the render process
# to itself. "mkstemp": right after the temp file exists, before its name is
# returned (the old race: KeyboardInterrupt there left the temp file); the sleep
# is where Python runs the signal handler when SIGINT is not blocked.
# "fsync": while the temp file is being written out.
CTRL_C_RENDER = (
    "import os, runpy, signal, sys, tempfile, time\n"
    # A shell's background job starts with SIGINT ignored, and the child inherits
    # that; Ctrl-C at a terminal reaches Python's own handler, so install it.
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "point = sys.argv.pop(1)\n"
    "fired = []\n"
    "def ctrl_c():\n"
    "    if not fired:\n"
    "        fired.append(1)\n"
    "        os.kill(os.getpid(), signal.SIGINT)\n"
    "        time.sleep(0.05)\n"
    "real_mkstemp, real_fsync = tempfile.mkstemp, os.fsync\n"
    "def mkstemp(*args, **kwargs):\n"
    "    made = real_mkstemp(*args, **kwargs)\n"
    "    if point == 'mkstemp' and kwargs.get('prefix', '').startswith('.latency.svg.'):\n"
    "        ctrl_c()\n"
    "    return made\n"
    "def fsync(fd):\n"
    "    if point == 'fsync' and os.path.basename(os.readlink(f'/proc/self/fd/{fd}')).startswith('.latency.svg.'):\n"
    "        ctrl_c()\n"
    "    return real_fsync(fd)\n"
    "tempfile.mkstemp, os.fsync = mkstemp, fsync\n"
    "sys.argv = ['studygen'] + sys.argv[1:]\n"
    "runpy.run_module('studygen', run_name='__main__')\n"
)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd to name the file being fsynced")
@pytest.mark.parametrize("point", ["mkstemp", "fsync"])
def test_ctrl_c_exits_130_with_one_line_and_leaves_whole_files(states, run_cli, point):
    """SIGINT (Ctrl-C) while the figure's temp file exists: the temp file is
    removed on the way out, the outputs stay whole, exit 130 with one line."""
    root, old, new = states
    _reset_to_old(root, old)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", CTRL_C_RENDER, point, "render", "--root", str(root)], cwd=REPO,
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    # click ends the terminal's "^C" line first (an empty line), then our one line
    assert (done.returncode, done.stderr.lstrip("\n")) == (130, "studygen: interrupted\n")
    assert _temp_files(root) == []
    assert _assert_whole_files(root, old, new) == {OUTPUTS[0]: "old", OUTPUTS[1]: "old"}
    _assert_next_render_completes(root, new, run_cli)
