"""SG202 invalid record: a run record, dataset definition or the study's
records folder that fails to load (malformed JSON, schema violation with its
JSON pointer, unknown schema version, no records at all), or a study file
that cannot be loaded at all. The hint says to fix the file, except for a
study with no record yet, which says to collect (issue 22: "check emptyfam"
hinted to fix a file that was not wrong).

Case: a hand-edited record with ``"value_ms": "fast"`` must be caught before
anything is rendered from it.
"""

from __future__ import annotations

from ..errors import StudygenError
from ..findings import Finding, error_finding

CODE = "SG202"
HINT = "fix the file so it validates against its schema (studygen/schemas/; see docs/study-guide.md)"


def check(context) -> list[Finding]:
    return [error_finding(CODE, problem, hint=problem.hint or HINT) for problem in context.study.problems]


def unloadable_study(error: StudygenError, study_file: str) -> list[Finding]:
    """The finding of a study file that cannot be loaded (nothing else of the
    study can be checked then): the error at its place, in ``study_file``
    when the error names no file."""
    return [error_finding(CODE, error, path=study_file)]
