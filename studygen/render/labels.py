"""Labels of record fields (GPU, versions, shapes) as a README prints them; escaping is :mod:`.escaping`'s."""

from __future__ import annotations

import re

_GPU_PREFIX = re.compile(r"^NVIDIA\s+")
# What a label prints for a field its record leaves out: said, never guessed.
NOT_STATED = "not stated"


def gpu_label(gpu) -> str:
    """``NVIDIA B200`` → ``B200``; None → ``not stated``."""
    return _GPU_PREFIX.sub("", gpu) if gpu else NOT_STATED


def version_label(version) -> str:
    """A software version as its record gives it (``8.0.3`` stays ``8.0.3``:
    a reader matches it against the study file's and the logs' words, and
    two releases of one major.minor stay two); None or empty → ``not stated``."""
    return str(version) if version else NOT_STATED


def short_version(version) -> str:
    """``11.4.0.106`` → ``11.4`` (major.minor, as the field names releases)."""
    if not version:
        return NOT_STATED
    parts = str(version).split(".")
    return ".".join(parts[:2])


# What a table cell, a chart panel and a label print for a result that states no shape: one
# wording for one fact, so that the table and the chart beside it read alike.
NO_SHAPE = f"shape {NOT_STATED}"


def shape_label(shape) -> str:
    """``800x1067`` → ``800 x 1067`` (height x width); None or empty →
    :data:`NO_SHAPE`."""
    return shape.replace("x", " x ") if shape else NO_SHAPE
