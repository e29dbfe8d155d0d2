"""studygen.textio.read_bytes: a file read whole, refused past its limit, and
read with a buffer the size of the file, not of the limit (issue 25 item 5:
reading a 3 KB record made a 16 MiB buffer, half of what reading it cost)."""

from __future__ import annotations

import tracemalloc

import pytest

from studygen.errors import InputError
from studygen.textio import MAX_DOCUMENT_BYTES, read_bytes


def test_a_small_file_is_read_whole_with_a_buffer_of_its_size(tmp_path):
    record = tmp_path / "r.json"
    content = b'{"schema_version": 2, "value_ms": 5.889}\n' * 70  # about 3 KB
    record.write_bytes(content)
    tracemalloc.start()
    try:
        assert read_bytes(record, "r.json", MAX_DOCUMENT_BYTES) == content
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024, f"peak {peak} bytes to read {len(content)}"


@pytest.mark.parametrize("size", [0, 1, 99, 100])
def test_a_file_at_or_under_the_limit_is_read_whole(tmp_path, size):
    path = tmp_path / "f"
    path.write_bytes(b"x" * size)
    assert read_bytes(path, "f", 100) == b"x" * size


def test_a_file_one_byte_past_the_limit_is_refused_with_its_size(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match="file is 101 bytes; the limit is 100 bytes"):
        read_bytes(path, "f", 100)


def test_a_file_that_grew_after_its_size_was_taken_is_read_on_to_the_limit(tmp_path, monkeypatch):
    import os

    path = tmp_path / "f"
    path.write_bytes(b"x" * 50)
    real_stat, real_fstat = os.stat, os.fstat

    def stale(status):  # the size as it was before the file grew: 10 bytes
        return os.stat_result((*status[:6], 10, *status[7:]))

    monkeypatch.setattr(os, "stat", lambda *args, **kwargs: stale(real_stat(*args, **kwargs)))
    monkeypatch.setattr(os, "fstat", lambda fd: stale(real_fstat(fd)))
    assert read_bytes(path, "f", 100) == b"x" * 50
    path.write_bytes(b"x" * 150)
    with pytest.raises(InputError, match="file is 101 bytes; the limit is 100 bytes"):
        read_bytes(path, "f", 100)


def test_a_file_that_grew_by_megabytes_is_read_whole_in_pieces_and_every_descriptor_is_closed(tmp_path, monkeypatch):
    import os

    path = tmp_path / "f"
    content = bytes(range(256)) * (3 * 2**20 // 256 + 7)  # 3 MiB and a little: four pieces past the stale size
    path.write_bytes(content)
    real_stat, real_fstat = os.stat, os.fstat

    def stale(status):
        return os.stat_result((*status[:6], 10, *status[7:]))

    open_before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    monkeypatch.setattr(os, "stat", lambda *args, **kwargs: stale(real_stat(*args, **kwargs)))
    monkeypatch.setattr(os, "fstat", lambda fd: stale(real_fstat(fd)))
    assert read_bytes(path, "f", 4 * 2**20) == content
    with pytest.raises(InputError, match=f"file is {2**20 + 1} bytes; the limit is {2**20} bytes"):
        read_bytes(path, "f", 2**20)
    monkeypatch.undo()
    with pytest.raises(InputError, match="the limit is 100 bytes"):
        read_bytes(path, "f", 100)  # refused by its size before it is opened
    if open_before is not None:
        assert len(os.listdir("/proc/self/fd")) == open_before


def _stale_size(monkeypatch, size: int) -> None:
    """os.stat and os.fstat report ``size`` bytes: the file grew after its size was taken."""
    import os

    real_stat, real_fstat = os.stat, os.fstat

    def stale(status):
        return os.stat_result((*status[:6], size, *status[7:]))

    monkeypatch.setattr(os, "stat", lambda *args, **kwargs: stale(real_stat(*args, **kwargs)))
    monkeypatch.setattr(os, "fstat", lambda fd: stale(real_fstat(fd)))


@pytest.mark.parametrize("limit, message", [
    # limit 11: the first read takes 11 bytes (size + 1), so exactly one more byte is asked for, and it is the
    # one that tells the file is past the limit (kills textio._read_up_to mutant 3, ``left > 1``: that last
    # byte never read, the file accepted cut at 11 bytes)
    (11, "file is 12 bytes; the limit is 11 bytes (0 KiB)"),
    # the old size at the limit: one byte past it is read, no more (kills read_bytes mutant 57, which asked
    # for two and named 12 bytes)
    (10, "file is 11 bytes; the limit is 10 bytes (0 KiB)"),
], ids=["limit-one-over-the-old-size", "old-size-at-the-limit"])
def test_a_file_that_grew_past_a_limit_near_its_old_size_is_refused_one_byte_past_it(tmp_path, monkeypatch,
                                                                                        limit, message):
    """Sized 10 bytes when looked at, 50 bytes when read."""
    path = tmp_path / "f"
    path.write_bytes(b"y" * 50)
    _stale_size(monkeypatch, 10)
    with pytest.raises(InputError) as caught:
        read_bytes(path, "f", limit)
    assert caught.value.message == message


def test_a_file_that_grew_by_one_mebibyte_and_a_little_keeps_both_pieces(tmp_path, monkeypatch):
    """Sized 10 at first, 2**20 + 111 bytes when read: 11 bytes, then one
    piece of 1 MiB and one of the last 100 bytes. Kills _read_up_to mutant 22
    (two pieces answered with the first alone: 100 bytes lost)."""
    path = tmp_path / "f"
    content = (bytes(range(251)) * (2**20 // 251 + 2))[: 2**20 + 111]
    assert len(content) == 2**20 + 111
    path.write_bytes(content)
    _stale_size(monkeypatch, 10)
    assert read_bytes(path, "f", 4 * 2**20) == content


def test_a_read_that_fails_is_refused_naming_the_file_and_the_system_error(tmp_path, monkeypatch):
    """os.read failing (an I/O error of the disk) is one refusal naming the
    file and the error's own words; the descriptor is closed. Kills
    read_bytes mutants 80 to 85 (message, path or wording of that refusal)."""
    import errno
    import os

    path = tmp_path / "f"
    path.write_bytes(b"abc")
    closed = []
    real_close = os.close

    def failing_read(fd, count):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "read", failing_read)
    monkeypatch.setattr(os, "close", lambda fd: (closed.append(fd), real_close(fd))[1])
    with pytest.raises(InputError) as caught:
        read_bytes(path, "shown/f", 100)
    assert (caught.value.message, caught.value.path) == ("cannot read: Input/output error", "shown/f")
    assert len(closed) == 1

    def failing_read_without_words(fd, count):
        raise BlockingIOError()

    monkeypatch.setattr(os, "read", failing_read_without_words)
    with pytest.raises(InputError) as caught:
        read_bytes(path, "shown/f", 100)
    assert caught.value.message == "cannot read: BlockingIOError"
