"""Atomic file writes and write-location guards.

A write goes to a temporary file in the target's folder, is flushed and
fsynced, then ``os.replace``d over the target: a reader (or a killed render)
sees the old file or the new one, never a part.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import signal
import stat
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock
    fcntl = None

from .errors import ConflictError, InputError, UsageError
from .numbers import SourceFloat
from .textio import SYMLINK_LOOP
from .patterns import lazy_compile


def resolved(path: Path, display: str | None = None) -> Path:
    """``path.resolve()``, with a symbolic link loop on the way (a link to
    itself, or two links naming each other) raised as one InputError naming
    ``display`` (default: the path): Python raises RuntimeError for it before
    3.13 and OSError (ELOOP) since."""
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            raise
        raise InputError(SYMLINK_LOOP, path=display or str(path)) from None


def open_to_others(path: Path) -> int | None:
    """The permission bits (``0o777`` part, with sticky bit) of folder
    ``path`` when every user may write in it (``o+w``: mode 0777, 1777,
    0757, …), else None (and None when it cannot be stat'ed). Whoever can
    write in a folder can add, replace or (without the sticky bit) delete
    what studygen reads from it."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return mode & 0o1777 if mode & stat.S_IWOTH else None


def shown_path(path: Path, base: Path | None = None) -> str:
    """``path`` as messages and READMEs show it: relative to ``base`` (default:
    the working directory) when it lies inside it, else as given (also when
    a symbolic link loop stands on the way: :func:`resolved`). A symbolic
    link is shown where it lies, not where it leads: that is the file a
    person lists and edits (its target may lie outside ``base``, or not exist)."""
    try:
        is_link = bool(path.name) and path.is_symlink()
    except OSError:  # a folder above it may not be searched (EACCES): it is shown as a path, not a link
        is_link = False
    if is_link:
        return _shown_in_folder(path, base)
    try:
        return str(resolved(path).relative_to(resolved(base or Path.cwd())))
    except InputError:  # the file itself is a loop: its folder still places it
        return _shown_in_folder(path, base)
    except (ValueError, OSError):
        return str(path)


def _shown_in_folder(path: Path, base: Path | None) -> str:
    """``path`` as its folder is shown (:func:`shown_path`) and its own name:
    ``lnk``, not ``./lnk``, for a link in ``base`` itself, as a file there is shown."""
    if path.parent == path:
        return str(path)
    folder = shown_path(path.parent, base)
    return path.name if folder == "." else folder + os.sep + path.name


def shown_paths_in(folder: Path, base: Path):
    """A function giving :func:`shown_path` of files directly in ``folder``
    relative to ``base``, with the folder resolved once rather than per file
    (a study may hold thousands of records). A file that is a symbolic link
    is shown where the link lies, as :func:`shown_path` shows it; a folder
    outside ``base`` takes :func:`shown_path` itself."""
    try:
        shown_folder = resolved(folder).relative_to(resolved(base))
    except (OSError, ValueError, InputError):
        return lambda path: shown_path(path, base)
    # Read off the path's text: its folder's text equal to the folder's is the folder (a Path's parent and
    # the shown folder joined cost two Path objects a record); another text is asked of the paths themselves.
    folder_text = str(folder)
    prefix = "" if str(shown_folder) == "." else str(shown_folder) + os.sep

    def shown(path: Path) -> str:
        # the Path comparison is for what text misses: a case-insensitive Path's equality (Windows)
        if (os.path.dirname(str(path)) or ".") == folder_text or path.parent == folder:
            return prefix + path.name
        return shown_path(path, base)

    return shown


class _DeferredInterrupt:
    """SIGINT held back while a temp file is created and named: its handler is
    swapped for one that only notes the signal, and the original runs (Python's
    default raises KeyboardInterrupt) when :meth:`release` puts it back.

    Not a signal mask: a process-directed SIGINT (Ctrl-C) goes to any thread
    that does not block it (numpy's BLAS threads do not), and Python then runs
    its handler in the main thread anyway. Off the main thread (where Python
    never raises KeyboardInterrupt) it does nothing."""

    def __init__(self):
        self.arrived = False
        try:
            self.previous = signal.signal(signal.SIGINT, self._note)
        except ValueError:  # not the main thread
            self.previous = None

    def _note(self, signum, frame) -> None:
        self.arrived = True

    def release(self) -> None:
        """Put the original handler back, then run it for a SIGINT that came meanwhile."""
        previous, self.previous = self.previous, None
        if previous is None:
            return
        signal.signal(signal.SIGINT, previous)
        if self.arrived:
            if callable(previous):
                previous(signal.SIGINT, None)
            elif previous == signal.SIG_DFL:
                signal.raise_signal(signal.SIGINT)


def atomic_write_bytes(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically (temp file + fsync + rename);
    with ``exclusive``, create it only if absent (the temp file is hard-linked
    to ``path``, so of two processes at once exactly one creates it and the
    other gets FileExistsError, nothing overwritten).

    An interrupt (Ctrl-C, SIGINT) at any point leaves ``path`` old or new and
    no temp file: SIGINT is held back while the temp file is created and
    named, so its KeyboardInterrupt comes inside the ``try`` that removes the
    file. A SIGKILL can still leave a temp file; the next write in the same
    folder removes it (:func:`remove_stale_temp_files`, called here first).
    Raises OSError as the file system does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(path.parent)
    tmp_name = None
    # Without it, a SIGINT between mkstemp's open() and the assignment of its
    # result raised KeyboardInterrupt with the file made but not yet named.
    interrupt = _DeferredInterrupt()
    try:
        # The writer's pid is in the name, so a later write can tell a temp file
        # left by a killed process (removable) from one being written now.
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        interrupt.release()  # a SIGINT that came meanwhile raises here, inside the try
        # mkstemp makes 0600 files; give the result the target's mode, or the umask's default.
        if path.exists():
            mode = path.stat().st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp_name, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if exclusive:
            os.link(tmp_name, path)  # FileExistsError when another writer made it first
            os.unlink(tmp_name)
        else:
            os.replace(tmp_name, path)
        _fsync_folder(path.parent)
    except BaseException:
        try:
            if tmp_name is not None:
                os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        finally:
            interrupt.release()  # when mkstemp itself failed
        raise


def _fsync_folder(folder: Path) -> None:
    """fsync a folder so a rename in it survives a crash (POSIX; a no-op where
    folders cannot be opened, as on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    except (OSError, OverflowError):
        return False
    return True


# ``.<target name>.<writer's pid>.<mkstemp's random part>.tmp``: what atomic_write_bytes makes
# (the repository's .gitignore covers ``.*.tmp``, so a leftover never shows in git status).
_TEMP_NAME = lazy_compile(r"^\.(.+)\.(\d+)\.[A-Za-z0-9_]+\.tmp$")


def stale_temp_files(folder: Path) -> list[Path]:
    """Temp files that :func:`atomic_write_bytes` left in ``folder`` when its
    process was killed (SIGKILL, a power cut): ``.<name>.<pid>.<random>.tmp``
    whose pid is no live process, for any target in the folder, sorted. Temp
    files of live writers, folders and other files are not listed; a folder
    that cannot be listed has none."""
    stale = []
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return []
    for entry in entries:
        match = _TEMP_NAME.match(entry.name)
        try:
            is_file = entry.is_file(follow_symlinks=False)
        except OSError:
            continue
        if match and is_file and not _process_alive(int(match.group(2))):
            stale.append(Path(folder) / entry.name)
    return stale


def remove_stale_temp_files(folder: Path) -> list[Path]:
    """Remove :func:`stale_temp_files` of ``folder``; return what was removed.
    Every :func:`atomic_write_bytes` calls it for the folder it writes in, so
    the next writer of a folder clears what a killed one left there."""
    removed = []
    for candidate in stale_temp_files(folder):
        try:
            candidate.unlink()
            removed.append(candidate)
        except OSError:  # gone meanwhile, or not ours to remove: leave it
            pass
    return removed


LOCK_FILE = ".studygen.lock"  # exists while a writer holds it (and after a killed one, until the next)
LOCK_TIMEOUT_S = 120.0  # how long a writer waits for another one before it gives up
_LOCK_POLL_S = 0.02

_THREAD_LOCKS: dict[str, threading.RLock] = {}  # lock file → the threads of this process take turns
_HELD: dict[str, list[int]] = {}  # lock file → [descriptor, depth] while this process holds it
_REGISTRY = threading.Lock()


@contextmanager
def folder_lock(folder: Path, timeout_s: float = LOCK_TIMEOUT_S, shown: str | None = None):
    """Hold the write lock of ``folder`` for the ``with`` block, so that one
    process at a time reads, checks and rewrites what the folder holds.

    The lock is an exclusive ``flock`` of ``folder/.studygen.lock`` (POSIX;
    over NFS Linux maps it to a byte-range lock): the kernel drops it when
    its holder dies, even by SIGKILL. The holder removes the file before it
    lets go, so the folder keeps no trace; a process that then gets the lock
    of the removed file sees so and takes the new one (the usual unlink-safe
    protocol). Re-entrant within a thread; the threads of one process take
    turns. Creates ``folder`` when needed. Raises ConflictError when another
    process holds the lock for ``timeout_s`` seconds, naming the folder
    (``shown``, default :func:`shown_path`); InputError with the OS's reason
    when the folder cannot be made or locked (a path part that is a file, a
    read-only file system). Without ``fcntl`` (Windows) writers are not
    serialized."""
    folder = Path(folder)
    shown = shown or shown_path(folder)
    key = os.path.abspath(folder / LOCK_FILE)
    with _REGISTRY:
        turn = _THREAD_LOCKS.setdefault(key, threading.RLock())
    deadline = time.monotonic() + timeout_s
    if not turn.acquire(timeout=max(timeout_s, 0)):
        raise _lock_timeout(timeout_s, shown)
    try:
        held = _HELD.get(key)
        if held is not None:
            held[1] += 1
        else:
            _HELD[key] = [_take_lock_file(folder, key, deadline, timeout_s, shown), 1]
        try:
            yield
        finally:
            held = _HELD[key]
            held[1] -= 1
            if held[1] == 0:
                del _HELD[key]
                _drop_lock_file(key, held[0])
    finally:
        turn.release()


def _lock_timeout(timeout_s: float, shown: str) -> ConflictError:
    return ConflictError(f"another studygen process has been writing here for {timeout_s:g} s (it holds "
                         f"{LOCK_FILE}); nothing written: try again when it has finished", path=shown)


def _open_lock_file(key: str) -> int:
    """The lock file opened (created if absent), never through a symbolic
    link: one planted there would make collect create or lock a file
    elsewhere. OSError (ELOOP) for a link, which the caller reports."""
    return os.open(key, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)


def _take_lock_file(folder: Path, key: str, deadline: float, timeout_s: float, shown: str) -> int:
    """The descriptor of ``key`` (the lock file), exclusively flocked, once
    the path still names the locked file (its last holder may have removed
    it meanwhile); -1 where there is no fcntl."""
    if fcntl is None:
        return -1
    while True:
        for action, make in (("create the folder", lambda: folder.mkdir(parents=True, exist_ok=True)),
                             ("lock the folder for writing", lambda: _open_lock_file(key))):
            try:
                fd = make()
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise InputError(f"cannot {action}: {LOCK_FILE} there is a symbolic link (studygen makes "
                                     "its own lock file; remove the link)", path=shown) from None
                raise InputError(f"cannot {action}: {exc.strerror or type(exc).__name__}", path=shown) from None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise _lock_timeout(timeout_s, shown) from None
                    time.sleep(_LOCK_POLL_S)
            try:
                current = os.stat(key)
            except FileNotFoundError:
                current = None
            opened = os.fstat(fd)
            if current is not None and (current.st_dev, current.st_ino) == (opened.st_dev, opened.st_ino):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the file we waited on was removed by its holder: take the one at the path now


def _drop_lock_file(key: str, fd: int) -> None:
    """Remove the lock file while still holding it, then let go."""
    if fd < 0:
        return
    try:
        os.unlink(key)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str, *, exclusive: bool = False) -> None:
    """UTF-8 text, written with :func:`atomic_write_bytes` (``exclusive``: only if absent)."""
    atomic_write_bytes(path, text.encode("utf-8"), exclusive=exclusive)


def dump_json(document, *, indent: int | str | None = 2) -> str:
    """The canonical record layout: 2-space indent, key order kept, final newline.

    A :class:`~studygen.numbers.SourceFloat` (a figure read from a
    record) is written as the text it was read from (``1.50000`` stays
    ``1.50000``; json.dumps would print ``1.5``); other floats as json.dumps
    prints them. ``indent`` as for json.dumps (None: one line).
    """
    sources: list[str] = []
    # json.dumps cannot emit raw number text: a figure whose source differs from
    # repr() goes in as a unique string placeholder, replaced after encoding.
    nonce = secrets.token_hex(8)

    def marked(value):
        if isinstance(value, SourceFloat):
            if value.source == float.__repr__(value):
                return value
            sources.append(value.source)
            return f"\u0000{nonce}:{len(sources) - 1}"
        if isinstance(value, dict):
            items = {key: marked(item) for key, item in value.items()}
            return value if all(items[key] is item for key, item in value.items()) else items
        if isinstance(value, (list, tuple)):
            items = [marked(item) for item in value]
            return value if all(new is old for new, old in zip(items, value)) else items
        return value

    text = json.dumps(marked(document), indent=indent, ensure_ascii=False)
    if sources:
        # ensure_ascii=False still escapes NUL, so no string of the record can look like a placeholder
        text = re.sub(rf'"\\u0000{nonce}:(\d+)"', lambda match: sources[int(match.group(1))], text)
    return text + "\n"


def ensure_inside(path: Path, *allowed: Path) -> Path:
    """``path`` resolved, if it lies inside one of ``allowed``; else UsageError.
    Output files are written only inside the project root or the
    ``--measurements`` folder given (inputs may live anywhere)."""
    target = resolved(path)
    for folder in allowed:
        folder = resolved(folder)
        if target == folder or folder in target.parents:
            return target
    shown = _lexically_shown(path, allowed)
    link = next((p for p in (path, *path.parents) if p.is_symlink()), None)
    if link is not None:
        raise UsageError(f"refusing to write {shown}: {_lexically_shown(link, allowed)} is a symbolic link to "
                         f"{os.readlink(link)}, which leads outside {', '.join(str(a) for a in allowed)} (render writes "
                         "only there: replace the link with the file or folder)")
    raise UsageError(f"refusing to write {shown}: outside {', '.join(str(a) for a in allowed)}")


def _lexically_shown(path: Path, allowed) -> str:
    """``path`` relative to the first of ``allowed`` that holds it as written
    (no link followed), else as given."""
    for folder in allowed:
        try:
            return str(Path(os.path.abspath(path)).relative_to(os.path.abspath(folder)))
        except ValueError:
            continue
    return str(path)
