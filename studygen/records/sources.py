"""Where a result was read from, and replacing what a job took from one source.

A collected result names the file (and line or array) it was read from in
``source_locator`` (``build-and-run.log:569``, ``times.json:line 3``,
``model.plan``). ``collect … --replace REASON`` drops the results a job
took from the files the new results come from before adding them, and
records why (:func:`replace_sources`). Nothing here reads or writes a file.
"""

from __future__ import annotations

from ..collect.result import NewResult
from ..errors import UsageError


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
