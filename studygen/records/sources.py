"""Where a result was read from: collecting the same inputs again, and
replacing what a job took from one source.

Re-running ``studygen collect`` with the same inputs and options adds
nothing: a new result equal to one the record holds under the same
measurement key is left out (:func:`same_result`), and when nothing is left
nothing is written. Re-collecting the same source line under other options
(a shape or batch fixed after the first collect) would store one
measurement twice under two keys: it is refused (:func:`refuse_same_source`).

A collected result names the file (and line or array) it was read from in
``source_locator`` (``build-and-run.log:569``, ``times.json:line 3``,
``model.plan``). ``collect … --replace REASON`` drops the results a job
took from the files the new results come from before adding them, and
records why (:func:`replace_sources`). Nothing here reads or writes a file.
"""

from __future__ import annotations

import json

from ..errors import ConflictError, UsageError
from .kinds import IDENTITY_FIELDS
from .result import NewResult


def source_file(result: dict) -> str | None:
    """The file part of a result's ``source_locator`` (before the first ``:``), None without one."""
    locator = result.get("source_locator")
    return locator.partition(":")[0] if locator else None


def replace_sources(document: dict, new_results: list[NewResult], reason: str, display: str) -> str:
    """Drop from ``document`` (a record, changed in place) every result read
    from a file one of ``new_results`` comes from; add a provenance note
    with the count, the files and ``reason``; return that note. Raises
    UsageError when a new result names no source file (nothing could say
    which results it replaces) or the reason is blank."""
    if not reason.strip():
        raise UsageError("--replace needs a reason (why the earlier results are wrong), e.g. --replace 'wrong --shape'")
    files = set()
    for new in new_results:
        name = source_file(new.result)
        if name is None:
            raise UsageError(f"--replace: {new.origin} names no source file, so no recorded result can be matched "
                             f"to it; {display} is left as it was")
        files.add(name)
    kept = [result for result in document["results"] if source_file(result) not in files]
    removed = len(document["results"]) - len(kept)
    document["results"] = kept
    note = f"replaced {removed} result(s) read from {', '.join(sorted(files))}: {' '.join(reason.split())}"
    document["provenance"].setdefault("notes", []).append(note)
    return note


def same_result(a: dict, b: dict) -> bool:
    """Equal as JSON (what the record file holds): tuples and lists, ints and floats alike."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _figure(result: dict) -> dict:
    """A result without the fields that say what it measured (variant, shape,
    batch, …): what stays equal when the same line is read under other options."""
    return {name: value for name, value in result.items() if name not in IDENTITY_FIELDS}


def refuse_same_source(results: list[dict], new: NewResult, display: str, describe) -> None:
    """ConflictError when ``new`` is a figure ``results`` (a record's, shown
    as ``display``) already hold from the same source line
    (``source_locator``) under another measurement key; ``describe(result)``
    words a result."""
    locator = new.result.get("source_locator")
    if not locator:
        return
    for index, result in enumerate(results):
        if result.get("source_locator") == locator and same_result(_figure(result), _figure(new.result)):
            raise ConflictError(
                f"{locator} is already recorded at {display}:/results/{index} ({describe(result)}); "
                f"collecting it again as {describe(new.result)} would record one measurement twice: "
                "use --replace REASON to replace what this job took from that file, or another --job; "
                "nothing written", path=display)
