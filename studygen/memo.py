"""Results kept for inputs that have not changed: checking an unchanged study
again is a lookup (ruff and mypy keep such caches for the same reason).

What a computation read is recorded while it runs, through a CPython audit
hook (PEP 578: the ``open``, ``os.listdir`` and ``os.scandir`` events), so an
input is never missed because someone forgot to list it:

- every file opened for reading, outside the installed code: its size and
  sha256, taken as it is opened (an edit while the computation runs that
  keeps size and mtime is then still seen);
- every folder listed there, and the folder of every file read: the sha256 of
  its sorted entry names. A file appearing where a lookup found none (a new
  record, a README written) changes one of them;
- every path whose existence or kind was only tested (``os.stat`` and
  ``os.lstat``, which raise no audit event, so they are wrapped while a
  recording runs: ``Path.exists``, ``os.path.isfile`` and Jinja's search
  for a template go through them): whether it is absent, a file, a folder
  or a symbolic link, and where the link points. A chart written into a
  folder nothing was read from, or a template put earlier on the search
  path in such a folder, changes one of them;
- the code, in the key: Python's version and executable, the studygen package
  tree (path, size and mtime of each file) and the entry names of every
  folder on ``sys.path`` after the first (installing, upgrading or removing a distribution
  changes a ``*.dist-info`` name there). Edits to an editable install of a
  third-party library are not seen.

A result is not kept when the computation started a process, opened a socket
or wrote a file outside the cache, or when a file it read changed while it
ran or within :data:`RACY_WINDOW_NS` before it was opened (its digest might
not be of the content used: git's index treats such "racy" entries alike).
Entries live in :func:`studygen.fsutil.cache_folder` (``$STUDYGEN_CACHE_DIR``;
set empty: no cache), one JSON file per key, written atomically; an entry
that cannot be read is a miss, never an error.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import site
import stat as stat_module
import sys
import sysconfig
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .fsutil import atomic_write_bytes, cache_folder, in_cache_folder

ENTRY_FORMAT = 2
# A file modified this shortly before it was read may change again within
# one tick of the file system's clock, unseen by its mtime.
RACY_WINDOW_NS = 1_000_000_000
# A kept entry larger than this is not read (a miss): no real one comes near it.
MAX_ENTRY_BYTES = 256 * 1024 * 1024
_LISTING_EVENTS = frozenset({"os.listdir", "os.scandir"})
# Events after which a result may depend on more than the files read.
_UNKEEPABLE_PREFIXES = ("subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                        "socket.", "urllib.", "http.")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PACKAGE = Path(__file__).resolve().parent
# The functions a recording wraps (see recording()); memo itself calls these originals.
_OS_STAT, _OS_LSTAT = os.stat, os.lstat


@dataclass
class Reads:
    """What one computation read: ``files`` maps the absolute path of each
    file opened for reading, and ``folders`` that of each folder listed or
    holding such a file, to its ``(mtime_ns, size)`` when first met (None:
    it could not be stat'ed); ``probes`` maps each path stat'ed to its
    :func:`path_state` when first met; ``file_digests`` and
    ``folder_digests`` hold the digests taken then (outside installed code),
    so that what is kept is of the bytes read, even when an edit meanwhile
    leaves size and mtime as they were; ``written`` holds the files opened
    for writing; ``unkeepable`` says why the result cannot be kept ("" when
    it can)."""

    files: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    folders: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    probes: dict[str, str] = field(default_factory=dict)
    file_digests: dict[str, str] = field(default_factory=dict)
    folder_digests: dict[str, str] = field(default_factory=dict)
    written: set[str] = field(default_factory=set)
    unkeepable: str = ""


_ACTIVE: list[Reads] = []  # the recording in progress (audit hooks cannot be removed, only idled)
_HOOKED = False


def _stat(path: str) -> tuple[int, int] | None:
    try:
        status = _OS_STAT(path)  # raises no audit event, so it is safe inside the hook
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def _record(reads: Reads, event: str, args: tuple) -> None:
    if event == "open":
        _on_open(reads, args)
    elif event in _LISTING_EVENTS:
        folder = args[0] if args and args[0] is not None else "."  # None: os.listdir() of the working directory
        if isinstance(folder, (str, bytes, os.PathLike)):
            _seen_folder(reads, os.path.abspath(os.fsdecode(folder)))
    elif event.startswith(_UNKEEPABLE_PREFIXES) and not reads.unkeepable:
        reads.unkeepable = f"it raised the audit event {event}"


def _on_open(reads: Reads, args: tuple) -> None:
    path, _, flags = (tuple(args) + (None, None, None))[:3]
    if not isinstance(path, (str, bytes, os.PathLike)):
        return  # an open file descriptor: its file was recorded when opened by name
    path = os.path.abspath(os.fsdecode(path))
    if in_cache_folder(path):
        return  # what studygen keeps (named by digests), also a folder opened to fsync it: no input
    if isinstance(flags, int) and flags & _WRITE_FLAGS:  # open() and os.open() both pass the OS flags
        reads.written.add(path)
    elif path not in reads.files:
        reads.files[path] = _stat(path)  # first: the digest's own open comes back here, and stops
        if not _installed(path):
            reads.file_digests[path] = _file_digest(path)
        _seen_folder(reads, os.path.dirname(path))


def _seen_folder(reads: Reads, path: str) -> None:
    if path not in reads.folders and not in_cache_folder(path):
        reads.folders[path] = _stat(path)  # a folder's mtime changes when an entry is added, removed or renamed
        if not _installed(path):
            reads.folder_digests[path] = _folder_digest(path)


def _installed(path: str) -> bool:
    """True for a path of installed code (left to :func:`code_key`) or of bytecode Python keeps."""
    return os.path.join(path, "").startswith(_installed_prefixes()) or _is_bytecode(path)


def _is_bytecode(path: str) -> bool:
    return f"{os.sep}__pycache__{os.sep}" in path


def path_state(path: str) -> str:
    """What a stat of ``path`` tells a computation that only tests it:
    ``absent``, ``file``, ``folder`` or ``other``, and for a symbolic link
    ``link <target> -> <kind of what it points to>`` (``absent`` when it
    dangles). Raises nothing."""
    try:
        status = _OS_LSTAT(path)
    except (OSError, ValueError):
        return "absent"
    if not stat_module.S_ISLNK(status.st_mode):
        return _kind(status.st_mode)
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    try:
        pointed = _kind(_OS_STAT(path).st_mode)
    except (OSError, ValueError):
        pointed = "absent"
    return f"link {target} -> {pointed}"


def _kind(mode: int) -> str:
    if stat_module.S_ISREG(mode):
        return "file"
    return "folder" if stat_module.S_ISDIR(mode) else "other"


def _probe(path) -> None:
    if _ACTIVE and isinstance(path, (str, bytes, os.PathLike)):
        try:
            name = os.path.abspath(os.fsdecode(path))
        except (TypeError, ValueError):
            return
        probes = _ACTIVE[-1].probes
        if name not in probes:
            probes[name] = path_state(name)


def _recorded_stat(path, *, dir_fd=None, follow_symlinks=True):
    if dir_fd is None:
        _probe(path)
    return _OS_STAT(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)


def _recorded_lstat(path, *, dir_fd=None):
    if dir_fd is None:
        _probe(path)
    return _OS_LSTAT(path, dir_fd=dir_fd)


@contextmanager
def recording():
    """Record what the block reads (see the module docstring) into the
    :class:`Reads` it yields. An inner recording sees only its own reads,
    and the outer one none of them. While the outermost one runs,
    ``os.stat`` and ``os.lstat`` are wrapped to record what they test."""
    global _HOOKED
    if not _HOOKED:
        # The hook sees every audit event of the process from now on (a hook
        # cannot be removed): outside a recording it costs one list test.
        sys.addaudithook(lambda event, args: _ACTIVE and _record(_ACTIVE[-1], event, args))
        _HOOKED = True
    reads = Reads()
    if not _ACTIVE:
        os.stat, os.lstat = _recorded_stat, _recorded_lstat
    _ACTIVE.append(reads)
    try:
        yield reads
    finally:
        _ACTIVE.remove(reads)
        if not _ACTIVE:
            os.stat, os.lstat = _OS_STAT, _OS_LSTAT


def _open_regular(path: str):
    """A binary file object of ``path`` and its size, or None when it is
    absent, unreadable or not a regular file: a FIFO or a device is never
    read (opening a FIFO waits for a writer, ``/dev/zero`` never ends), so
    an entry naming one costs nothing. Raises nothing."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    try:
        status = os.fstat(descriptor)
        if stat_module.S_ISREG(status.st_mode):
            return open(descriptor, "rb"), status.st_size
    except OSError:
        pass
    os.close(descriptor)
    return None


def read_kept(path: Path) -> bytes | None:
    """The bytes of a file kept in the cache folder; None when it is absent,
    unreadable, not a regular file (a FIFO would block the read) or larger
    than :data:`MAX_ENTRY_BYTES`. Raises nothing."""
    opened = _open_regular(str(path))
    if opened is None:
        return None
    handle, size = opened
    with handle:
        if size > MAX_ENTRY_BYTES:
            return None
        try:
            return handle.read()
        except OSError:
            return None


def sealed(payload: bytes) -> bytes:
    """``payload`` as the cache keeps it: a first line ``sha256 <hex digest of
    the payload>``, then the payload. What :func:`unsealed` reads back."""
    return b"sha256 " + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload


def unsealed(kept: bytes | None) -> bytes | None:
    """The payload of :func:`sealed` bytes; None when ``kept`` is None, or
    cut short or altered (the digest line does not match what follows it)."""
    if kept is None:
        return None
    head, _, payload = kept.partition(b"\n")
    return payload if head == b"sha256 " + hashlib.sha256(payload).hexdigest().encode("ascii") else None


def _file_digest(path: str, expected: str | None = None) -> str:
    """``<size>:<sha256 hex>`` of the file's bytes; "" when it is absent,
    cannot be read or is not a regular file. When the size differs from
    ``expected``'s, the bytes are not read (the digest cannot match):
    ``<size>:`` comes back."""
    opened = _open_regular(path)
    if opened is None:
        return ""
    handle, size = opened
    with handle:
        if expected is not None and not expected.startswith(f"{size}:"):
            return f"{size}:"
        try:
            return f"{size}:{hashlib.file_digest(handle, 'sha256').hexdigest()}"
        except OSError:
            return ""


def _folder_digest(path: str) -> str:
    """sha256 (hex) of the folder's sorted entry names; "" when it is absent or cannot be listed."""
    try:
        names = sorted(os.listdir(path))
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return ""
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def code_key() -> str:
    """A digest of the code that computes results: Python's version and
    executable, every file of the studygen package (relative path, size,
    mtime in ns; ``__pycache__`` left out) and the entry names of each folder
    on ``sys.path`` but the first and relative ones. Costs a stat per package
    file (a few ms)."""
    digest = hashlib.sha256(f"{ENTRY_FORMAT}\0{sys.version}\0{sys.executable}".encode())
    for folder, subfolders, files in os.walk(_PACKAGE):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            digest.update(f"{os.path.relpath(path, _PACKAGE)}\0{_stat(path)}\n".encode())
    # sys.path[0] is the script's folder or the working directory, where Python
    # starts looking, not where libraries are installed: its entries come and go.
    # So do relative entries ("" included), read against the working directory.
    for entry in sys.path[1:]:
        if not os.path.isabs(entry):
            continue
        digest.update(f"{entry}\0{_folder_digest(entry or '.')}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def entry_key(*parts: str) -> str:
    """The key of a result: :func:`code_key` and ``parts`` (what the result is
    of: the command, the study folder, the working directory ...)."""
    return hashlib.sha256("\0".join((code_key(), *parts)).encode("utf-8", "surrogateescape")).hexdigest()


def _entry_path(kind: str, key: str) -> Path | None:
    folder = cache_folder(kind)
    return None if folder is None else folder / f"{key}.json"


def lookup(kind: str, key: str):
    """The value kept under ``key`` in the cache folder ``kind`` when every
    file and folder it was computed from is unchanged; else None (also when
    there is no cache, or the entry is unreadable or of another format)."""
    path = _entry_path(kind, key)
    kept = None if path is None else read_kept(path)
    if kept is None:
        return None
    try:
        entry = json.loads(kept)
        if entry.get("format") != ENTRY_FORMAT:
            return None
        files, folders, probes, value = entry["files"], entry["folders"], entry["probes"], entry["value"]
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    if not all(isinstance(part, dict) for part in (files, folders, probes)):
        return None
    if any(not isinstance(digest, str) or _file_digest(name, digest) != digest for name, digest in files.items()):
        return None
    if any(_folder_digest(name) != digest for name, digest in folders.items()):
        return None
    if any(path_state(name) != state for name, state in probes.items()):
        return None
    return value


@functools.cache
def _installed_prefixes() -> tuple[str, ...]:
    """Folders of installed code (covered by :func:`code_key`, not hashed):
    the standard library, site-packages and the studygen package. Not the
    interpreter's whole prefix: a project checked out under it (``/usr/src/app``
    with Python in ``/usr``) holds inputs."""
    paths = sysconfig.get_paths()
    prefixes = {paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"], str(_PACKAGE),
                *site.getsitepackages()}
    if site.ENABLE_USER_SITE and site.getusersitepackages():
        prefixes.add(site.getusersitepackages())
    return tuple(sorted(os.path.join(os.path.abspath(prefix), "") for prefix in prefixes))


def why_unkeepable(reads: Reads, counted=lambda name: True) -> str:
    """Why the recorded computation's result cannot be kept ("" when it can):
    it used a process or a socket, wrote a file outside the cache's folders
    (:func:`studygen.fsutil.in_cache_folder`), or read a file or listed a
    folder that changed since (or shortly before) it was first met (of
    those ``counted``: installed code is not). Files written into
    ``__pycache__`` (bytecode Python keeps) do not count."""
    if reads.unkeepable:
        return reads.unkeepable
    written = sorted(name for name in reads.written
                     if not in_cache_folder(name) and not _is_bytecode(name))
    if written:
        return f"it wrote {written[0]}"
    recent = time.time_ns() - RACY_WINDOW_NS
    for name, first in (*reads.files.items(), *reads.folders.items()):
        if not counted(name):
            continue
        now = _stat(name)
        if now != first or (now is not None and now[0] >= recent):
            return f"{name} changed while it ran (or just before)"
    for name, first in reads.probes.items():
        if counted(name) and path_state(name) != first:
            return f"{name} changed while it ran"
    return ""


def store(kind: str, key: str, reads: Reads, value) -> bool:
    """Keep ``value`` (JSON-serialisable) under ``key`` with the digests of
    what ``reads`` recorded. False (nothing written) when there is no cache,
    :func:`why_unkeepable` names a reason, or the entry cannot be written."""
    path = _entry_path(kind, key)
    if path is None:
        return False

    def counted(name: str) -> bool:
        return not _installed(name) and not in_cache_folder(name)

    # the digests taken when each was first met: the hook takes one for every path counted here
    files = {name: digest for name, digest in sorted(reads.file_digests.items()) if counted(name)}
    folders = {name: digest for name, digest in sorted(reads.folder_digests.items()) if counted(name)}
    probes = {name: state for name, state in sorted(reads.probes.items()) if counted(name)}
    if why_unkeepable(reads, counted):
        return False
    entry = {"format": ENTRY_FORMAT, "files": files, "folders": folders, "probes": probes, "value": value}
    try:
        atomic_write_bytes(path, json.dumps(entry, sort_keys=True).encode("utf-8"))
    except (OSError, TypeError, ValueError):
        return False
    return True
