"""Results kept for inputs that have not changed: checking an unchanged study
again is a lookup (ruff and mypy keep such caches for the same reason).

What a computation read is recorded while it runs, through a CPython audit
hook (PEP 578: the ``open``, ``os.listdir`` and ``os.scandir`` events), so an
input is never missed because someone forgot to list it:

- every file opened for reading, outside the installed code: its sha256;
- every folder listed there, and the folder of every file read: the sha256 of
  its sorted entry names. A file appearing where a lookup found none (a
  template earlier on the search path, a new record) changes one of them;
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

import hashlib
import json
import os
import site
import stat
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .fsutil import atomic_write_bytes, cache_folder

ENTRY_FORMAT = 1
# A file modified this shortly before it was read may change again within
# one tick of the file system's clock, unseen by its mtime.
RACY_WINDOW_NS = 1_000_000_000
_LISTING_EVENTS = frozenset({"os.listdir", "os.scandir"})
# Events after which a result may depend on more than the files read.
_UNKEEPABLE_PREFIXES = ("subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                        "socket.", "urllib.", "http.")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PACKAGE = Path(__file__).resolve().parent


@dataclass
class Reads:
    """What one computation read: ``files`` maps the absolute path of each
    file opened for reading, and ``folders`` that of each folder listed or
    holding such a file, to its ``(mtime_ns, size)`` when first met (None:
    it could not be stat'ed); ``written`` holds the files opened for
    writing; ``unkeepable`` says why the result cannot be kept ("" when it
    can)."""

    files: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    folders: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    written: set[str] = field(default_factory=set)
    unkeepable: str = ""


_ACTIVE: list[Reads] = []  # the recording in progress (audit hooks cannot be removed, only idled)
_HOOKED = False


def _stat(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)  # raises no audit event, so it is safe inside the hook
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def _record(reads: Reads, event: str, args: tuple) -> None:
    if event == "open":
        _on_open(reads, args)
    elif event in _LISTING_EVENTS:
        if args and isinstance(args[0], (str, bytes, os.PathLike)):
            _seen(reads.folders, os.path.abspath(os.fsdecode(args[0])))
    elif event.startswith(_UNKEEPABLE_PREFIXES) and not reads.unkeepable:
        reads.unkeepable = f"it raised the audit event {event}"


def _on_open(reads: Reads, args: tuple) -> None:
    path, _, flags = (tuple(args) + (None, None, None))[:3]
    if not isinstance(path, (str, bytes, os.PathLike)):
        return  # an open file descriptor: its file was recorded when opened by name
    path = os.path.abspath(os.fsdecode(path))
    if isinstance(flags, int) and flags & _WRITE_FLAGS:  # open() and os.open() both pass the OS flags
        reads.written.add(path)
    elif path not in reads.files:
        reads.files[path] = _stat(path)
        _seen(reads.folders, os.path.dirname(path))


def _seen(stats: dict, path: str) -> None:
    if path not in stats:
        stats[path] = _stat(path)  # a folder's mtime changes when an entry is added, removed or renamed


@contextmanager
def recording():
    """Record what the block reads (see the module docstring) into the
    :class:`Reads` it yields. An inner recording sees only its own reads,
    and the outer one none of them."""
    global _HOOKED
    if not _HOOKED:
        # The hook sees every audit event of the process from now on (a hook
        # cannot be removed): outside a recording it costs one list test.
        sys.addaudithook(lambda event, args: _ACTIVE and _record(_ACTIVE[-1], event, args))
        _HOOKED = True
    reads = Reads()
    _ACTIVE.append(reads)
    try:
        yield reads
    finally:
        _ACTIVE.remove(reads)


def _file_digest(path: str) -> str:
    """sha256 (hex) of the file's bytes; "" when it is absent or cannot be
    read; "not a regular file" for a folder, FIFO or device (never opened:
    a FIFO would wait for a writer, ``/dev/zero`` never ends)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return "not a regular file"
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return ""


def _folder_digest(path: str) -> str:
    """sha256 (hex) of the folder's sorted entry names; "" when it is absent or cannot be listed."""
    try:
        names = sorted(os.listdir(path))
    except OSError:
        return ""
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def code_key() -> str:
    """A digest of the code that computes results: Python's version and
    executable, every file of the studygen package (relative path, size,
    mtime in ns; ``__pycache__`` left out) and the entry names of each folder
    on ``sys.path`` but the first. Costs a stat per package file (a few ms)."""
    digest = hashlib.sha256(f"{ENTRY_FORMAT}\0{sys.version}\0{sys.executable}".encode())
    for folder, subfolders, files in os.walk(_PACKAGE):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            digest.update(f"{os.path.relpath(path, _PACKAGE)}\0{_stat(path)}\n".encode())
    # sys.path[0] is the script's folder or the working directory, where Python
    # starts looking, not where libraries are installed: its entries come and go.
    for entry in sys.path[1:]:
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
    if path is None:
        return None
    try:
        entry = json.loads(path.read_bytes())
        if entry.get("format") != ENTRY_FORMAT:
            return None
        files, folders, value = entry["files"], entry["folders"], entry["value"]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    if not isinstance(files, dict) or not isinstance(folders, dict):
        return None
    if any(_file_digest(name) != digest for name, digest in files.items()):
        return None
    if any(_folder_digest(name) != digest for name, digest in folders.items()):
        return None
    return value


def _installed_prefixes() -> tuple[str, ...]:
    """Folders of installed code (covered by :func:`code_key`, not hashed):
    the interpreter's prefixes, site-packages and the studygen package."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(_PACKAGE), *site.getsitepackages()}
    if site.ENABLE_USER_SITE and site.getusersitepackages():
        prefixes.add(site.getusersitepackages())
    return tuple(sorted(os.path.join(os.path.abspath(prefix), "") for prefix in prefixes))


def why_unkeepable(reads: Reads, cache: Path, counted=lambda name: True) -> str:
    """Why the recorded computation's result cannot be kept ("" when it can):
    it used a process or a socket, wrote a file outside ``cache``, or read a
    file or listed a folder that changed since (or shortly before) it was
    first met (of those ``counted``: installed code is not). Call it after
    taking the digests, so that they are of what was read. Files written
    into ``__pycache__`` (bytecode Python keeps) do not count."""
    if reads.unkeepable:
        return reads.unkeepable
    inside_cache = os.path.join(str(cache), "")
    written = sorted(name for name in reads.written
                     if not name.startswith(inside_cache) and f"{os.sep}__pycache__{os.sep}" not in name)
    if written:
        return f"it wrote {written[0]}"
    recent = time.time_ns() - RACY_WINDOW_NS
    for name, first in (*reads.files.items(), *reads.folders.items()):
        if not counted(name):
            continue
        now = _stat(name)
        if now != first or (now is not None and now[0] >= recent):
            return f"{name} changed while it ran (or just before)"
    return ""


def store(kind: str, key: str, reads: Reads, value) -> bool:
    """Keep ``value`` (JSON-serialisable) under ``key`` with the digests of
    what ``reads`` recorded. False (nothing written) when there is no cache,
    :func:`why_unkeepable` names a reason, or the entry cannot be written."""
    path = _entry_path(kind, key)
    if path is None:
        return False
    cache = path.parent.parent
    skipped = _installed_prefixes() + (os.path.join(str(cache), ""),)

    def counted(name: str) -> bool:
        return (not os.path.join(name, "").startswith(skipped)
                and f"{os.sep}__pycache__{os.sep}" not in name)

    files = {name: _file_digest(name) for name in sorted(reads.files) if counted(name)}
    folders = {name: _folder_digest(name) for name in sorted(reads.folders) if counted(name)}
    if why_unkeepable(reads, cache, counted):
        return False
    entry = {"format": ENTRY_FORMAT, "files": files, "folders": folders, "value": value}
    try:
        atomic_write_bytes(path, json.dumps(entry, sort_keys=True).encode("utf-8"))
    except (OSError, TypeError, ValueError):
        return False
    return True
