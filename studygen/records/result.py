"""What a collector hands on: a result for a record, with where it was read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class NewResult:
    """A result to add, with ``origin`` (file and line or pointer it was read
    from) for messages; the origin is not stored unless the result carries a
    ``source_locator`` itself."""

    result: dict
    origin: str
