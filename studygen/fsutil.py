"""Atomic file writes and write-location guards.

A write goes to a temporary file in the target's folder, is flushed and
fsynced, then ``os.replace``d over the target: a reader (or a killed render)
sees the old file or the new one, never a part.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .errors import UsageError


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (temp file + fsync + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
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
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """UTF-8 text, written with :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


def dump_json(document) -> str:
    """The canonical record layout: 2-space indent, key order kept, final newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def ensure_inside(path: Path, *allowed: Path) -> Path:
    """``path`` resolved, if it lies inside one of ``allowed``; else UsageError.
    Output files are written only inside the project root or the
    ``--measurements`` folder given (inputs may live anywhere)."""
    resolved = path.resolve()
    for folder in allowed:
        folder = folder.resolve()
        if resolved == folder or folder in resolved.parents:
            return resolved
    raise UsageError(f"refusing to write {path}: outside {', '.join(str(a) for a in allowed)}")
