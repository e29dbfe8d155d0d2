"""Every file under a folder with its bytes: to show that a failed command wrote nothing."""

from __future__ import annotations

from pathlib import Path


def snapshot(root: Path) -> dict[str, bytes]:
    """``{relative path: bytes}`` of every file under ``root`` (hidden files included)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
