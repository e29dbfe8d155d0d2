"""Collecting the same inputs into a job again.

Re-running ``studygen collect`` with the same inputs and options adds
nothing: a new result equal to one the record holds under the same
measurement key is dropped (:func:`unrecorded`), and when nothing is left
nothing is written. Re-collecting the same source line under other options
(a shape or batch fixed after the first collect) would store that
measurement twice under two keys: it is refused, naming the result already
recorded (:func:`refuse_same_source`). Nothing here writes a file.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..collect.result import NewResult
from ..errors import ConflictError
from ..fsutil import shown_path
from ..result_kinds import IDENTITY_FIELDS
from .load import load_record
from .write import WriteOutcome, describe, measurement_key, record_path, write_results


def _same(a: dict, b: dict) -> bool:
    """Equal as JSON (what the record file holds): tuples and lists, ints and floats alike."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _figure(result: dict) -> dict:
    """A result without the fields that say what it measured (variant, shape,
    batch, …): what stays equal when the same line is read under other options."""
    return {name: value for name, value in result.items() if name not in IDENTITY_FIELDS}


def unrecorded(path: Path, family: str, new_results: list[NewResult]) -> list[NewResult]:
    """The results of ``new_results`` that the record at ``path`` does not
    already hold identically (same measurement key, same content); all of
    them when there is no record yet. Raises ConflictError
    (:func:`refuse_same_source`) and what :func:`studygen.records.load.load_record` raises."""
    if not path.exists():
        return list(new_results)
    record = load_record(path, shown_path(path))
    holding = record.data["provenance"]
    by_key = {measurement_key(family, holding, result): result for result in record.results}
    left = []
    for new in new_results:
        existing = by_key.get(measurement_key(family, holding, new.result))
        if existing is not None and _same(existing, new.result):
            continue
        if existing is None:
            refuse_same_source(record, new)
        left.append(new)
    return left


def refuse_same_source(record, new: NewResult) -> None:
    """ConflictError when ``new`` is a figure the record already holds from
    the same source line (``source_locator``) under another measurement key."""
    locator = new.result.get("source_locator")
    if not locator:
        return
    for index, result in enumerate(record.results):
        if result.get("source_locator") == locator and _same(_figure(result), _figure(new.result)):
            raise ConflictError(
                f"{locator} is already recorded at {record.display_path}:/results/{index} ({describe(result)}); "
                f"collecting it again as {describe(new.result)} would record one measurement twice: "
                "use another --job, or delete that record and collect again; nothing written",
                path=record.display_path)


def write_new_results(measurements_dir: Path, family: str, job_id: str, provenance: dict,
                      new_results: list[NewResult], replace: str | None = None, **options) -> WriteOutcome:
    """:func:`studygen.records.write.write_results` for the results the
    record does not hold yet (:func:`unrecorded`); when it holds them all,
    nothing is written and the outcome says so (``added`` 0). With
    ``replace`` (a reason), every new result is written in place of what
    the job took from the same source files (``write_results(replace=…)``).
    Raises what those two raise."""
    path = record_path(measurements_dir, family, job_id, options.get("records_dir"))
    if replace is not None:
        return write_results(measurements_dir, family, job_id, provenance, new_results, replace=replace, **options)
    left = unrecorded(path, family, new_results) if new_results else new_results
    if new_results and not left:
        return WriteOutcome(path=path, display=shown_path(path), created=False, added=0,
                            notes=[f"all {len(new_results)} result(s) are recorded already, as read now: nothing written"])
    outcome = write_results(measurements_dir, family, job_id, provenance, left, **options)
    if len(left) < len(new_results):
        outcome.notes.append(f"{len(new_results) - len(left)} result(s) recorded already, as read now: kept as they were")
    return outcome
