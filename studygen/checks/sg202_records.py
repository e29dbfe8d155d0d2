"""SG202 invalid record: a run record, dataset definition or the study's
records folder that fails to load (malformed JSON, schema violation with its
JSON pointer, unknown schema version, no records at all).

Case: a hand-edited record with ``"value_ms": "fast"`` must be caught before
anything is rendered from it.
"""

from __future__ import annotations

from ..findings import Finding


def check(study) -> list[Finding]:
    return [
        Finding("SG202", problem.message, problem.path, line=problem.line,
                pointer=problem.pointer if problem.pointer and problem.pointer.startswith("/") else None,
                hint="fix the file so it validates against schemas/ (see docs/study-guide.md)")
        for problem in study.problems
    ]
