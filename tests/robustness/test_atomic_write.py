"""``fsutil.atomic_write_bytes`` under Ctrl-C, in this process: SIGINT sent at
fixed points of a write (a real signal, to this process; nothing of studygen
is replaced) never leaves a temp file, leaves the target old or new, and puts
Python's SIGINT handler back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from studygen import fsutil

from tests.conftest import REPO


def _ctrl_c() -> None:
    """SIGINT to this process, then Python code during which Python runs its handler."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Python's own SIGINT handler for each test, whatever the runner set (a
    CI runner or a mutation tester may ignore SIGINT), and the runner's back after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def target(tmp_path):
    path = tmp_path / "README.md"
    path.write_bytes(b"old\n")
    return path


def _leftovers(path):
    return sorted(p.name for p in path.parent.iterdir() if p.name != path.name)


def test_ctrl_c_right_after_mkstemp_leaves_no_temp_file(target, monkeypatch):
    real_mkstemp = tempfile.mkstemp
    made = []

    def mkstemp(*args, **kwargs):
        result = real_mkstemp(*args, **kwargs)
        made.append(result[1])
        _ctrl_c()  # the file exists, its name not yet returned: before the fix, KeyboardInterrupt came here
        return result

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    with pytest.raises(KeyboardInterrupt):
        fsutil.atomic_write_bytes(target, b"new\n")
    assert len(made) == 1 and not os.path.exists(made[0])
    # next to the target, named so that a later write can tell whose it was
    assert os.path.dirname(made[0]) == str(target.parent)
    assert os.path.basename(made[0]).startswith(f".README.md.{os.getpid()}.") and made[0].endswith(".tmp")
    assert _leftovers(target) == []
    assert target.read_bytes() == b"old\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_while_writing_leaves_no_temp_file(target, monkeypatch):
    real_fsync = os.fsync

    def fsync(fd):
        _ctrl_c()
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        fsutil.atomic_write_bytes(target, b"new\n")
    assert _leftovers(target) == [] and target.read_bytes() == b"old\n"


def test_failed_mkstemp_puts_the_handler_back(target, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(PermissionError):
        fsutil.atomic_write_bytes(target, b"new\n")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert target.read_bytes() == b"old\n"


def test_a_write_keeps_the_handler_and_the_mode(target):
    target.chmod(0o640)
    fsutil.atomic_write_bytes(target, b"new\n")
    assert target.read_bytes() == b"new\n" and _leftovers(target) == []
    assert target.stat().st_mode & 0o777 == 0o640
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_new_file_takes_the_umask_mode_in_new_folders(tmp_path):
    path = tmp_path / "families" / "new" / "figures" / "chart.svg"
    umask = os.umask(0o022)
    try:
        fsutil.atomic_write_bytes(path, b"<svg/>\n")
    finally:
        os.umask(umask)
    assert path.read_bytes() == b"<svg/>\n"
    assert path.stat().st_mode & 0o777 == 0o644  # 0o666 without the umask's bits, not mkstemp's 0o600
    assert _leftovers(path) == []


def test_a_default_sigint_still_ends_the_process():
    """With SIGINT at the operating system's default (no Python handler), a
    Ctrl-C held back during mkstemp still ends the process, by the signal."""
    code = (
        "import os, signal, sys, tempfile, time\n"
        "from pathlib import Path\n"
        "from studygen import fsutil\n"
        "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
        "real = tempfile.mkstemp\n"
        "def mkstemp(*a, **k):\n"
        "    made = real(*a, **k)\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.05)\n"
        "    print('still alive after mkstemp', flush=True)\n"
        "    return made\n"
        "tempfile.mkstemp = mkstemp\n"
        "fsutil.atomic_write_bytes(Path(sys.argv[1]) / 'out.md', b'x')\n"
        "print('written', flush=True)\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, "-c", code, folder], env=dict(os.environ, PYTHONPATH=str(REPO)),
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGINT, done
    assert done.stdout == "still alive after mkstemp\n"  # held back during mkstemp, delivered right after


def test_a_custom_handler_runs_once_for_a_deferred_signal(target, monkeypatch):
    calls = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        real_mkstemp = tempfile.mkstemp

        def mkstemp(*args, **kwargs):
            result = real_mkstemp(*args, **kwargs)
            _ctrl_c()
            assert calls == []  # held back while the temp file is being named
            return result

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
        fsutil.atomic_write_bytes(target, b"new\n")  # the handler does not raise: the write completes
        assert calls == [signal.SIGINT]
        assert target.read_bytes() == b"new\n" and _leftovers(target) == []
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_write_off_the_main_thread(target):
    errors = []

    def write():
        try:
            fsutil.atomic_write_bytes(target, b"from a thread\n")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    assert errors == [] and target.read_bytes() == b"from a thread\n" and _leftovers(target) == []


def _dead_pid() -> int:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(dead.stdout)  # that process has ended


def test_stale_temp_files_are_those_of_dead_writers_of_any_file_in_the_folder(target):
    dead_pid = _dead_pid()
    names = {
        "dead": f".README.md.{dead_pid}.abc_12.tmp",
        "alive": f".README.md.{os.getpid()}.def34.tmp",  # this process: a write in progress
        "other": f".OTHER.md.{dead_pid}.abc12.tmp",  # another target of the same folder
        "no_pid": ".README.md.x1.abc12.tmp",
        "no_dot": f"README.md.{dead_pid}.abc12.tmp",  # not a name atomic_write_bytes makes
        "other_suffix": f".README.md.{dead_pid}.abc12.tmpx",
    }
    for name in names.values():
        (target.parent / name).write_bytes(b"part")
    (target.parent / f".README.md.{dead_pid}.folder.tmp").mkdir()  # not a file: left alone
    (target.parent / f".LINK.md.{dead_pid}.abc12.tmp").symlink_to(target)  # a link: left alone, and its target
    stale = [target.parent / names[key] for key in ("other", "dead")]  # sorted by name
    assert fsutil.stale_temp_files(target.parent) == stale
    assert fsutil.remove_stale_temp_files(target.parent) == stale
    assert not any(path.exists() for path in stale)
    assert all((target.parent / names[key]).exists() for key in ("alive", "no_pid", "no_dot", "other_suffix"))
    assert target.read_bytes() == b"old\n"
    assert fsutil.remove_stale_temp_files(target.parent) == []
    assert fsutil.stale_temp_files(target.parent / "no such folder") == []


def test_the_next_write_in_the_folder_removes_what_a_killed_writer_left(target):
    left = target.parent / f".figure.svg.{_dead_pid()}.k1ll3d_9.tmp"
    left.write_bytes(b"<svg")
    fsutil.atomic_write_bytes(target.parent / "other.md", b"x\n")  # another file of the same folder
    assert not left.exists()
    assert _leftovers(target) == ["other.md"]


def test_kill_9_during_a_write_leaves_a_temp_file_git_ignores_and_the_next_collect_removes(tmp_path):
    # a writer killed (SIGKILL: nothing of it runs) while its temp file exists, as a collect can be
    folder = tmp_path / "m" / "demo"
    writer = subprocess.Popen([sys.executable, "-c", (
        "import os, sys, time\nfrom pathlib import Path\nfrom studygen import fsutil\n"
        "def hang(fd):\n    print('temp file written', flush=True); time.sleep(120)\n"
        "os.fsync = hang\nfsutil.atomic_write_bytes(Path(sys.argv[1]) / 'job.json', b'{')\n"), folder],
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline() == "temp file written\n"
    finally:
        writer.kill()
        writer.wait()
    (left,) = folder.iterdir()
    assert left.name.startswith(f".job.json.{writer.pid}.") and left.name.endswith(".tmp")
    ignored = subprocess.run(["git", "-C", str(REPO), "check-ignore", "--no-index", "-q",
                              f"measurements/demo/{left.name}"])
    assert ignored.returncode == 0  # git status does not show it
    log = REPO.parent / "shared" / "fixtures" / "trtexec" / "trt10.16_build-and-run.log"
    done = subprocess.run([sys.executable, "-m", "studygen", "collect", "trtexec", "--family", "demo", "--job", "other",
                           "--measurements", "m", "--log", log], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["other.json"]
