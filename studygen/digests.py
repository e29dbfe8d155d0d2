"""Digests that identify an input by content (core: collectors and records both use them)."""

from __future__ import annotations

import hashlib


def image_ids_sha256(image_ids) -> str:
    """sha256 (hex) of the sorted image ids, one per line, UTF-8, with a
    trailing newline. Integer ids sort numerically, strings lexically."""
    ordered = sorted(image_ids, key=lambda v: (isinstance(v, str), v))
    payload = "".join(f"{v}\n" for v in ordered).encode("utf-8")
    return hashlib.sha256(payload).hexdigest()
