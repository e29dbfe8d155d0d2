"""Where a result was read from: collecting the same inputs again, and
replacing what a job took from one source.

Re-running ``studygen collect`` with the same inputs and options adds
nothing: a new result equal to one the record holds under the same
measurement key is left out (:func:`same_result`), and when nothing is left
nothing is written. Re-collecting the same source line under other options
(a shape or batch fixed after the first collect) would store one
measurement twice under two keys: it is refused (:func:`refuse_same_source`).
The same input collected into another job of the family would show one run
as a replication (a spread of zero between "jobs"): a new timed result that
is a run another job's record holds is refused (:func:`refuse_other_job`),
one run being the same input by its content's sha256 (``source_sha256``)
and place, the same source line with the same figures, or the same timed
figures to every printed digit whatever file they came from (a copy under
another name, re-compressed or re-serialised: :func:`run_keys`). A new result whose key and source line a record
holds with other figures is the same input read differently (the study
file's ``kernel_groups`` changed, a newer collector): refused, naming
``--replace`` (:func:`refuse_changed_reading`).

A collected result names the file (and line or array) it was read from in
``source_locator`` (``build-and-run.log:569``, ``times.json:line 3``,
``model.plan``). ``collect … --replace REASON`` drops the results a job
took from the files the new results come from, and the earlier run of each
configuration the new results measure again whatever its file's name (a
rerun saved as ``run2.log``), before adding them, and records why
(:func:`replace_sources`). Nothing here reads or writes a file.
"""

from __future__ import annotations

import json
import re

from ..errors import ConflictError, UsageError
from ..fsutil import dump_json
from .kinds import DIGEST, IDENTITY_FIELDS, Kind, result_identity
from .result import NewResult


def source_file(result: dict) -> str | None:
    """The file part of a result's ``source_locator`` (before the first ``:``), None without one."""
    locator = result.get("source_locator")
    return locator.partition(":")[0] if locator else None


# What a run measured, whatever it reported of it: a result's identity less the kind, metric, statistic and group.
RUN_FIELDS = tuple(name for name in IDENTITY_FIELDS if name not in ("kind", "metric", "statistic", "group"))


def _run_of(result: dict) -> tuple:
    return tuple(result.get(name) for name in RUN_FIELDS)


def replace_sources(document: dict, new_results: list[NewResult], reason: str, display: str,
                    earlier_notes: list[str] = (), incoming_notes: list[str] = ()) -> str:
    """Drop from ``document`` (a record, changed in place) what the new
    results replace: every result read from a file one of ``new_results``
    comes from (a file collected again), and the run of each configuration
    (:data:`RUN_FIELDS`: variant, shape, batch, …) a new result measures
    again (its identity is recorded, whatever the file it was read from: a
    rerun saved under another name), that is every result the record read
    from that file for that configuration; add a provenance note with the
    count, the files they were read from and ``reason``; return that note.

    The provenance notes about the dropped results go with them: of
    ``earlier_notes`` (the record's notes before this collect's were
    merged in), each that names a file no result is read from any more
    (:func:`stale_notes`), unless this collect brings the same note again
    (``incoming_notes``); the replacement note counts them. Before, a
    README went on printing a replaced trace's TF32 share or a replaced
    log's missing device under results that no longer came from it.

    When nothing is dropped the record gets no note, and the line returned
    (for the console) says no result was replaced. Raises UsageError
    when a new result names no source file (nothing could say which results
    it replaces) or the reason is blank."""
    if not reason.strip():
        raise UsageError("--replace needs a reason (why the earlier results are wrong), e.g. --replace 'wrong --shape'")
    files = set()
    for new in new_results:
        name = source_file(new.result)
        if name is None:
            raise UsageError(f"--replace: {new.origin} names no source file, so no recorded result can be matched "
                             f"to it; {display} is left as it was")
        files.add(name)
    measured = {result_identity(new.result) for new in new_results}
    rerun = {(source_file(result), _run_of(result)) for result in document["results"]
             if result_identity(result) in measured}

    def replaced(result: dict) -> bool:
        return source_file(result) in files or (source_file(result), _run_of(result)) in rerun
    dropped = [result for result in document["results"] if replaced(result)]
    document["results"] = [result for result in document["results"] if not replaced(result)]
    if not dropped:
        # nothing of the record changed by this: a note in it would say a replacement that never happened (a
        # --replace given to correct a provenance field has that correction's own note)
        return (f"--replace: the record holds nothing read from {', '.join(sorted(files))} nor an earlier run of "
                "what it measures: no result replaced")
    read_from = sorted({source_file(result) or "no named file" for result in dropped})
    gone = {source_file(result) for result in dropped} - {source_file(result) for result in document["results"]}
    stale = [note for note in stale_notes(earlier_notes, gone - {None}) if note not in incoming_notes]
    notes = document["provenance"].setdefault("notes", [])
    notes[:] = [note for note in notes if note not in stale]
    about = f" and {len(stale)} provenance note(s) about them" if stale else ""
    note = f"replaced {len(dropped)} result(s) read from {', '.join(read_from)}{about}: {' '.join(reason.split())}"
    notes.append(note)
    return note


# notes that are the record's own history, kept whatever file they name: a replacement's and a correction's
HISTORY_NOTE = re.compile(r"^(?:replaced \d+ result\(s\) read from |provenance\.\S+ (?:corrected|filled in)\b)")


def stale_notes(notes: list[str], files: set[str]) -> list[str]:
    """The notes of ``notes`` that name one of ``files`` (file names as a
    result's ``source_locator`` gives them, ``run.log``) as a whole name,
    not inside a longer one (``run.log`` is not named by ``run.log.1`` or
    ``prerun.log``), less the record's history notes (:data:`HISTORY_NOTE`):
    a collector words each note about an input with the input's name
    (``run.log names no device …``, ``trace.json.gz: 308 of 1154 kernel
    launches ran TF32 …``), so these are the notes about those files. A
    name of no characters but spaces (the locator ``:4`` of a record edited
    by hand) names nothing: as a pattern it matched at the end of every note."""
    files = {name for name in files if name.strip()}
    if not files:
        return []
    named = re.compile("|".join(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)" for name in sorted(files)))
    return [note for note in notes if named.search(note) and not HISTORY_NOTE.match(note)]


def same_result(a: dict, b: dict) -> bool:
    """Equal as JSON (what the record file holds): tuples and lists, ints and floats alike."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _figure(result: dict) -> dict:
    """A result without the fields that say what it measured (variant, shape,
    batch, …) and its input's digest (absent from a record collected before
    version 3): what stays equal when the same line is read under other options."""
    return {name: value for name, value in result.items() if name not in IDENTITY_FIELDS and name != DIGEST}


def same_reading(recorded: dict, new: dict) -> bool:
    """:func:`same_result` without the digests: the same figures read again
    are recorded already, whether the recorded result has no digest
    (collected before version 3) or the file changed in what no figure
    shows (line ends, an edit elsewhere in the log)."""
    return same_result(*({name: value for name, value in result.items() if name != DIGEST}
                         for result in (recorded, new)))


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
                f"collecting it again as {describe(new.result)} would record one measurement twice; "
                f"{record_as_measured(result, new.result, 'again with')}; nothing written", path=display)


def record_as_measured(held: dict, offered: dict, how: str) -> str:
    """What to do when one input, recorded as the result ``held``, is
    offered as ``offered`` (their :func:`~studygen.records.kinds.result_identity`
    differs), ``how`` the words before ``--replace``: record it as what the run measured, with
    ``--replace``, or collect a run of the other configuration. Never
    "another --job": that job would hold the same run twice over
    (:func:`refuse_other_job`), and a user sent between the two messages
    went round in a circle."""
    differ = [(name, a, b) for name, a, b in zip(IDENTITY_FIELDS, result_identity(held), result_identity(offered))
              if a != b]
    if differ and all(b is None and a is not None and name in OPTION_FIELDS for name, a, b in differ):
        return _left_unstated(differ, how)
    was = ", ".join(f"{name} {a if a is not None else 'not given'}" for name, a, _ in differ)
    now = ", ".join(f"{name} {b if b is not None else 'not given'}" for name, _, b in differ)
    return (f"if the run was of {now} (not {was}), collect it {how} --replace \"REASON\" (what the job took from "
            f"that file is dropped first); for {now} as well, collect a file of a run of its own")


# Identity fields a collect's option of the same name labels (--shape, --batch, --dataset) where its input does not.
OPTION_FIELDS = ("shape", "batch", "dataset")


def _left_unstated(differ: list[tuple[str, object, object]], how: str) -> str:
    """:func:`record_as_measured`'s advice where the offered result only
    leaves unstated what the held one states (``differ``: name, held,
    offered None): the same measurement, read without the options that
    labelled it. Case (session 30's new user): the held profile said
    batch 1, a collect without --batch was told "if the run was of batch not
    given (not batch 1), collect it ... --replace", as if leaving an option
    out named another configuration."""
    was = ", ".join(f"{name} {a}" for name, a, _ in differ)
    options = " ".join(f"--{name} {a}" for name, a, _ in differ)
    return (f"this collect gives no {' or '.join(name for name, _, _ in differ)} where the recorded result says {was}: "
            f"it is that measurement ({options} reads it as recorded); if {was} was wrong, collect it {how} "
            f"--replace \"REASON\" and the right value")


# Fields a kernel-time result takes from the study file's kernel_groups rather than from its input.
GROUPING_FIELDS = frozenset({"groups", "unclassified_ms", "unclassified_share", "note"})


def already_recorded(held: dict, where: str, new: NewResult, describe) -> str:
    """The message refusing ``new``, whose measurement the result ``held``
    (at ``where``) already records from another source: what ``--replace``
    would drop, so that a rerun saved under a new file name is recorded as
    one, and another measurement is told apart by its options."""
    file = source_file(held) or "no named file"
    run = ", ".join(f"{name} {value}" for name, value in zip(RUN_FIELDS, _run_of(held)) if value is not None)
    return (f"{describe(new.result)} from {new.origin} is already recorded at {where} (read from {file}); a result "
            f"is never overwritten: if this is a rerun of that measurement, collect it with --replace \"REASON\", "
            f"which drops what the job read from the same file name and its run of {run} from {file}; "
            "if it measured something else, use another --job, --variant, --shape or --batch; nothing written")


def _regrouped_steps(held, offered) -> bool:
    """Whether two ``per_iteration`` lists (a profiler trace's steps, each
    ``{"label", "profiled_total_ms", "groups": {group: ms}}``) are the same
    steps with the same totals, differing only in their ``groups``: what a
    change of the study file's ``kernel_groups`` does to them."""
    if not isinstance(held, list) or not isinstance(offered, list) or len(held) != len(offered):
        return False
    return all(isinstance(a, dict) and isinstance(b, dict)
               and {k: v for k, v in a.items() if k != "groups"} == {k: v for k, v in b.items() if k != "groups"}
               for a, b in zip(held, offered))


def refuse_changed_reading(recorded: dict, new: NewResult, where: str, display: str, describe) -> None:
    """ConflictError when ``recorded`` (the result at ``where`` under the key
    of ``new``) names the same source (``source_locator``) as ``new`` but
    holds other figures: the input read anew differs from what was read
    before. The message names the fields that differ as written (digits
    count: ``0.27`` and ``0.270``), the likely cause (other digits of the same
    values when nothing else differs but the note, the study file's
    ``kernel_groups`` when only grouping fields differ, a trace's steps
    among them when only their groups differ (:func:`_regrouped_steps`),
    else the file or the collector) and ``--replace``. Does nothing when
    the sources differ (the caller words that conflict)."""
    locator = new.result.get("source_locator")
    if not locator or recorded.get("source_locator") != locator:
        return
    # compared as written, so that 0.27 against 0.270 (a figure now written with its source's digits) is a difference
    fields = sorted(name for name in set(recorded) | set(new.result)
                    if dump_json(recorded.get(name), indent=None) != dump_json(new.result.get(name), indent=None))
    digits = {name for name in fields if name in recorded and name in new.result
              and same_result({name: recorded[name]}, {name: new.result[name]})}
    if digits and set(fields) - digits <= {"note"}:
        cause = "the same values, which the collector now writes with other digits"
    elif all(name in GROUPING_FIELDS or name == "per_iteration" and _regrouped_steps(recorded.get(name), new.result.get(name))
             for name in fields):
        cause = "the study file's kernel_groups changed since it was recorded"
    else:
        cause = "the file or the collector changed since it was recorded"
    raise ConflictError(
        f"{describe(new.result)} from {new.origin} is already recorded at {where} from {locator}, and reading it "
        f"now gives other values of {', '.join(fields)} ({cause}?): a result is never overwritten; "
        f'to re-read it, collect with --replace "REASON"; for another measurement use another --job, --variant, '
        "--shape or --batch; nothing written", path=display)


# Kinds timed on a run: two runs never give equal figures (every statistic, the sample count, the
# iteration times), so equal ones are one run. A plan size, a layer list or an AP may well repeat
# in a true replication (the same engine measured again), so they are not compared.
TIMED_KINDS = frozenset({Kind.LATENCY, Kind.KERNEL_TIME})

# Fewest figures (numbers) a result's timings must hold before equal ones are taken for one run
# without a digest or a source to say so: a log's summary gives seven statistics, a sample count and
# a throughput, --times every iteration, a trace every kernel. A transcribed median, or a min, median
# and max, may well repeat in two publications' tables.
MIN_RUN_FIGURES = 5


def _run_figures(result: dict) -> dict | None:
    """A timed result without what its reading adds to the run: the options
    that say what it measured (variant, shape, batch, …), the kernel
    grouping (the study file's rules, which may change between two
    collects) and the digest (a record collected before version 3 has
    none); None for a result of another kind or without a source. The
    source (file name and place) stays."""
    locator = result.get("source_locator")
    if result.get("kind") not in TIMED_KINDS or not locator:
        return None
    figures = {name: value for name, value in _figure(result).items() if name not in GROUPING_FIELDS}
    return {**figures, "kind": result["kind"]}


def _holds_distinct_numbers(value, wanted: int) -> bool:
    """Whether ``value`` (nested dicts, lists and tuples) holds at least
    ``wanted`` distinct numbers (bools left out; equal as a set has them: 1
    and 1.0 are one). Stops at the ``wanted``-th: a trace's kernel list holds
    thousands, and listing them all to count five was most of SG221's time."""
    seen: set = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            seen.add(item)
            if len(seen) >= wanted:
                return True
    return False


def timed_figures(result: dict) -> dict | None:
    """What a timed result measured, whatever file it was read from and
    however that file is laid out: a latency's headline, statistics,
    distribution (iteration times included) and throughput; a kernel time's
    kernels (name, time, calls, sorted, whatever group they fall in), its
    profiled total, iteration count and each profiled iteration's total.
    None for another kind, or when they hold fewer than
    :data:`MIN_RUN_FIGURES` distinct numbers (too few for equal ones to
    prove one run)."""
    kind = result.get("kind")
    if kind == Kind.LATENCY:
        figures = {name: result[name] for name in ("value_ms", "statistics_ms", "distribution", "throughput_qps")
                   if name in result}
    elif kind == Kind.KERNEL_TIME:
        kernels = sorted([kernel.get("name"), kernel.get("time_ms"), kernel.get("calls")]
                         for group in result.get("groups") or [] for kernel in group.get("kernels") or [])
        totals = [entry.get("profiled_total_ms") for entry in result.get("per_iteration") or []]
        figures = {"kernels": kernels, "profiled_total_ms": result.get("profiled_total_ms"),
                   "iterations": result.get("iterations"), "per_iteration": totals}
    else:
        return None
    if not _holds_distinct_numbers(figures, MIN_RUN_FIGURES):
        return None
    return {**figures, "kind": kind}


def run_keys(result: dict) -> list[tuple[str, str]]:
    """What makes ``result`` one run, as ``(how, key)`` pairs: two timed
    results that share a key come from one run of one input. ``how`` words
    the key: the same input (its :data:`DIGEST` and the place in it, so
    the several runs of one log stay apart), the same source with the same
    figures (:func:`_run_figures`: a record copied under another job), the
    same timed figures to every printed digit (:func:`timed_figures`: a
    copy renamed, re-compressed or re-serialised, or a record collected
    before the digest). Empty for a result of another kind."""
    if result.get("kind") not in TIMED_KINDS:
        return []
    keys = []
    locator = result.get("source_locator") or ""
    if isinstance(result.get(DIGEST), str):
        keys.append((f"the same input: content sha256 {result[DIGEST][:12]}…, read at {locator}",
                     f"digest {result[DIGEST]} {locator.partition(':')[2]}"))
    for how, figures in (("the same source and figures", _run_figures(result)),
                         ("the same timed figures to every digit", timed_figures(result))):
        if figures is not None:
            keys.append((how, f"{how} {json.dumps(figures, sort_keys=True)}"))
    return keys


def refuse_other_job(others: list[tuple[str, str, list[dict]]], new_results: list[NewResult], describe) -> None:
    """ConflictError when a timed result of ``new_results`` is a run another
    job of the family holds (:func:`run_keys`: the same input by its digest,
    the same source with the same figures, or the same timed figures to
    every digit): ``others`` lists (job id, record shown as a path, its
    results). One run under two jobs would be shown as two measurements
    that agree (a spread of zero). The message words the held result as its
    job recorded it (``describe(result)``), and the new one's options only
    where they differ from it (:func:`record_as_measured`)."""
    held: dict[str, tuple[str, str, int, dict, str]] = {}
    for job_id, shown, results in others:
        for index, result in enumerate(results):
            for how, key in run_keys(result):
                held.setdefault(key, (job_id, shown, index, result, how))
    for new in new_results:
        for _, key in run_keys(new.result):
            if key not in held:
                continue
            job_id, shown, index, result, how = held[key]
            # the same configuration: collecting into that job adds the rest, and keeps this as it is
            then = (f"to add to it, collect with --job {job_id}" if result_identity(result) ==
                    result_identity(new.result) else record_as_measured(result, new.result, f"with --job {job_id} and"))
            # under another file name the reason is no longer plain to see: say it
            here = "here" if source_file(result) == source_file(new.result) else f"here; {how}"
            # worded as that job recorded it: this command's --shape or --batch were never that job's
            raise ConflictError(
                f"{new.origin} is already recorded in job {job_id} as {describe(result)} "
                f"({here}): one run under two jobs would count as two measurements "
                f"that agree; {then}; nothing written", path=shown, pointer=f"/results/{index}")
