"""Helpers shared by checks: findings located in records."""

from __future__ import annotations

from ..findings import Finding


def record_line(study, record_path: str, pointer: str) -> int:
    """Line of ``pointer`` in the record shown as ``record_path`` (0 if unknown)."""
    for record in study.records:
        if record.display_path == record_path:
            return record.line_of(pointer)
    return 0


def row_finding(study, code: str, row: dict, message: str, hint: str = "", **extra) -> Finding:
    """A finding about one flattened figure row: its record, pointer, line and key."""
    return Finding(code, message, row["record"], line=record_line(study, row["record"], row["pointer"]),
                   pointer=row["pointer"], key=row["key"], hint=hint, **extra)
