"""Schema-version migrations, applied on load.

Each entry migrates a record from version N to N+1. A record claiming a
newer version than this studygen knows is refused with the version it needs
("upgrade studygen"), and one with no or an unknown older version is refused
with the version that is needed.

Versions:

* 0: pre-release drafts (see :func:`migrate_0_to_1`);
* 1: the first release;
* 2: adds, all optional: each profiled forward's kernel time by group in
  ``collect run``'s ``kernel_time`` results (``per_iteration``, already read
  from ``collect torch-profile`` traces), per compilation its profiled
  forwards and the kernels (with launch configurations) of the groups that
  differ between compilations (``compilations[*].per_iteration``,
  ``compilations[*].kernels``, ``differing_groups``), the kernels' launch
  configurations (``grid``, ``block``, ``registers_per_thread``,
  ``shared_memory_bytes``), the compilation rule of a compiled latency
  (``compilation_rule``) and the Inductor settings it was compiled with
  (``compile.inductor_config``, ``compile.inductor_environment``). A version 1
  studygen refuses them by their version instead of by an unknown field.
  Version 1 records load unchanged (:func:`migrate_1_to_2`): they hold none
  of these fields, so their kernel times have no spread of their own and
  their compilations no rule.
* 3: adds, optional, ``source_sha256`` to a timed result (latency, kernel
  time) read from a file: the sha256 of that file's content as the collector
  read it, which tells one input recorded in two jobs from two runs
  (:mod:`studygen.records.sources`); ``collect coco`` gives each AP result
  the sha256 of its detections file too. Version 2 records load unchanged
  (:func:`migrate_2_to_3`): no digest can be made for them after the fact,
  the input being gone, so their results are told apart by their source and
  timed figures only (:func:`studygen.records.sources.same_run`).
* 4: adds, optional, ``method.intra_op_threads`` to a latency that
  ``collect run --cpu`` timed: the number of intra-op threads torch ran the
  forwards on, part of how the figure was timed
  (:func:`studygen.study.timing.timing_signature`). Version 3 records load
  unchanged (:func:`migrate_3_to_4`): their CPU latencies state no count and
  keep the signature they had.

Wordings: a sentence one of studygen's own collectors wrote into a record
and writes otherwise now is read in today's words (:func:`reword`), whatever
the version. Reading leaves the file as it is; when ``collect`` adds to the
record, it writes the record back with today's words (the sentence changes,
no figure does: the reworded sentence states none, the figure stays in the
result).

A record is written at the lowest version that holds all its fields
(:func:`version_of`): a record without any version 2 field keeps
``"schema_version": 1`` (a hand-written version 1 record extended by
``collect`` keeps its bytes, and a version 1 studygen still reads it); one
with any of them says 2, one with a version 3 field says 3, and one with a
version 4 field says 4.
"""

from __future__ import annotations

import re

from ..errors import RecordError
from .kinds import DIGEST
from .schemas import CURRENT_SCHEMA_VERSION

# version N -> function turning a version-N document into version N+1
MIGRATIONS: dict[int, callable] = {}


def migrate_0_to_1(document: dict) -> dict:
    """Version 0 (pre-release drafts) kept ``gpu`` and ``software`` at the top
    level and named the list ``measurements``; version 1 moves them under
    ``provenance`` and calls the list ``results``."""
    document = dict(document)
    provenance = dict(document.pop("provenance", {}) or {})
    for field in ("gpu", "software", "checkpoint", "source", "collector"):
        if field in document:
            provenance.setdefault(field, document.pop(field))
    document["provenance"] = provenance
    if "measurements" in document and "results" not in document:
        document["results"] = document.pop("measurements")
    document["schema_version"] = 1
    return document


MIGRATIONS[0] = migrate_0_to_1


def migrate_1_to_2(document: dict) -> dict:
    """Version 2 only adds optional fields (the module docstring lists them):
    a version 1 record is a version 2 record as it stands."""
    return {**document, "schema_version": 2}


MIGRATIONS[1] = migrate_1_to_2


def migrate_2_to_3(document: dict) -> dict:
    """Version 3 only adds the optional ``source_sha256`` of a result (the
    module docstring says why an older result goes without it): a version 2
    record is a version 3 record as it stands."""
    return {**document, "schema_version": 3}


MIGRATIONS[2] = migrate_2_to_3


def migrate_3_to_4(document: dict) -> dict:
    """Version 4 only adds the optional ``method.intra_op_threads`` of a
    latency timed on the CPU: a version 3 record is a version 4 record as it
    stands."""
    return {**document, "schema_version": 4}


MIGRATIONS[3] = migrate_3_to_4

# Fields version 2 added, by where they stand in a result (see the module docstring)
RESULT_FIELDS_2 = ("compilation_rule", "differing_groups")
COMPILE_FIELDS_2 = ("inductor_config", "inductor_environment")
COMPILATION_FIELDS_2 = ("per_iteration", "kernels")
KERNEL_FIELDS_2 = ("grid", "block", "registers_per_thread", "shared_memory_bytes")
RESULT_FIELDS_3 = (DIGEST,)
METHOD_FIELDS_4 = ("intra_op_threads",)


def version_of(document: dict) -> int:
    """The lowest schema version that holds every field of ``document`` (a
    record at the current version, in memory): 4 when a result carries a
    field version 4 added, else 3 when one carries a field version 3 added,
    else 2 when one carries a field version 2 added, else 1."""
    results = document.get("results") or []
    if any(name in (result.get("method") or {}) for result in results for name in METHOD_FIELDS_4):
        return 4
    if any(name in result for result in results for name in RESULT_FIELDS_3):
        return 3
    for result in results:
        if any(name in result for name in RESULT_FIELDS_2):
            return 2
        if any(name in (result.get("compile") or {}) for name in COMPILE_FIELDS_2):
            return 2
        if result.get("kind") == "kernel_time":
            if any(name in entry for entry in result.get("compilations") or [] for name in COMPILATION_FIELDS_2):
                return 2
            kernels = [kernel for group in result.get("groups") or [] for kernel in group.get("kernels") or []]
            if any(name in kernel for kernel in kernels for name in KERNEL_FIELDS_2):
                return 2
    return 1


def unstable_flag_words(locator: str) -> str:
    """How ``collect trtexec`` words its log's warning that the GPU compute
    time is unstable, where ``locator`` (``file:line``) printed it: who
    flagged what, in our words and without the figure, which the result keeps
    as ``distribution.cv`` (a fraction) and a README prints by the study's
    ``cv_percent`` rule."""
    return f"trtexec flagged the GPU compute time as unstable ({locator})"


# collect trtexec before unstable_flag_words: the warning's words and its figure with every digit the log printed
_QUOTED_FLAG = re.compile(r"trtexec: GPU compute time is unstable, coefficient of variance [^%()]*% \(([^()]*)\)")


def reword(document: dict) -> dict:
    """``document`` with the sentences an older studygen collector wrote in
    other words replaced by today's (see the module docstring): the
    instability warning that ``collect trtexec`` quoted with trtexec's figure
    (``coefficient of variance 6.58751%``) reads as :func:`unstable_flag_words`
    says, where the result keeps the figure as ``distribution.cv``. Returns
    ``document`` itself when nothing changes."""
    results = document.get("results")
    if not isinstance(results, list):
        return document
    reworded = None
    for index, result in enumerate(results):
        reason = result.get("unstable_reason") if isinstance(result, dict) else None
        match = _QUOTED_FLAG.fullmatch(reason) if isinstance(reason, str) else None
        if match and isinstance(result.get("distribution"), dict) and "cv" in result["distribution"]:
            reworded = reworded or list(results)
            reworded[index] = {**result, "unstable_reason": unstable_flag_words(match.group(1))}
    return document if reworded is None else {**document, "results": reworded}


def migrate(document, *, path: str):
    """Bring ``document`` to :data:`CURRENT_SCHEMA_VERSION`.

    Raises RecordError when the version is missing, not an integer, newer
    than this studygen, or has no migration path.
    """
    if not isinstance(document, dict):
        raise RecordError("top level must be a JSON object", path=path, pointer="/")
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(
            f"schema_version is missing or not an integer; this studygen needs schema_version {CURRENT_SCHEMA_VERSION}",
            path=path, pointer="/schema_version")
    if version > CURRENT_SCHEMA_VERSION:
        raise RecordError(
            f"schema_version {version} is newer than this studygen reads ({CURRENT_SCHEMA_VERSION}); upgrade studygen",
            path=path, pointer="/schema_version")
    while version < CURRENT_SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise RecordError(
                f"schema_version {version} cannot be migrated; this studygen needs schema_version "
                f"{CURRENT_SCHEMA_VERSION}",
                path=path, pointer="/schema_version")
        document = step(document)
        version = document["schema_version"]
    return reword(document)
