"""SG202 invalid record: a run record, dataset definition or the study's
records folder that fails to load (malformed JSON, schema violation with its
JSON pointer, unknown schema version, no records at all; a records or
``datasets/`` folder that is there but cannot be listed, with the system's
reason: ``study._json_files``), or a study file
that cannot be loaded at all. The hint says to fix the file, except for a
study with no record yet, which says to collect (issue 22: "check emptyfam"
hinted to fix a file that was not wrong), and for a problem whose error
gives its own hint: a record that validates but whose figures contradict
each other (:class:`studygen.errors.ContradictoryRecordError`) is no schema
violation, and the schema's hint sent its reader to the wrong file.

A study that a worker process of ``check`` could not finish (it was killed,
by the out-of-memory killer say, or crashed) is one too
(:func:`study_not_checked`), so that the other studies' findings still come out.

A folder ``families/<f>/`` without a study file is one too, when
``check`` runs over every family (no targets; :func:`folder_without_study_file`):
it was skipped in silence, so a family whose study file was lost or never
committed passed CI unchecked.

Case: a hand-edited record with ``"value_ms": "fast"`` must be caught before
anything is rendered from it.
"""

from __future__ import annotations

from ..errors import StudygenError
from ..findings import Finding, error_finding
from ..place import Place

CODE = "SG202"
HINT = "fix the file so it validates against its schema (studygen/schemas/; see docs/study-guide.md)"


def check(context) -> list[Finding]:
    return [error_finding(CODE, problem, hint=problem.hint or HINT) for problem in context.study.problems]


def unloadable_study(error: StudygenError, study_file: str) -> list[Finding]:
    """The finding of a study file that cannot be loaded (nothing else of the
    study can be checked then): the error at its place, in ``study_file``
    when the error names no file."""
    return [error_finding(CODE, error, path=study_file)]


def folder_without_study_file(folder: str) -> Finding:
    """The finding of a family folder (``folder``, as shown: ``families/<f>``)
    that holds no study file, so that none of it is checked or rendered."""
    return Finding.at(Place(folder), CODE, f"{folder} holds no study.yaml: nothing of family "
                      f"'{folder.rsplit('/', 1)[-1]}' is checked or rendered",
                      hint="add its study file (studygen new makes one), or remove the folder")


def study_not_checked(folder: str, how: str) -> Finding:
    """The finding of a study (``folder``, as shown: ``families/<f>``) left
    unchecked because the worker process checking it ended ``how`` (``by
    signal SIGKILL``, ``with exit status 1``): an error, as nothing of it was checked."""
    return Finding.at(Place(folder), CODE, f"not checked: the worker process checking it ended {how}",
                      hint="check it again (STUDYGEN_JOBS=1 checks every study in one process); a process the "
                           "system killed, for memory say, checks nothing")
