"""``fsutil.atomic_write_bytes`` under Ctrl-C, in this process: SIGINT sent at
fixed points of a write (a real signal, to this process; nothing of studygen
is replaced) never leaves a temp file, leaves the target old or new, and puts
Python's SIGINT handler back."""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import time

import pytest

from studygen import fsutil


def _ctrl_c() -> None:
    """SIGINT to this process, then Python code during which Python runs its handler."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)


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
