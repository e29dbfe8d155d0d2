"""Write or extend ``DIR/<family>/<job_id>.json`` with collected results.

Rules (ingest issue): the document is validated against
``schemas/run_record.schema.json`` **before** anything is written; the write
is atomic (:func:`studygen.fsutil.atomic_write_text`); an existing record
keeps its text byte for byte (figures their digits, CRLF stays CRLF) and
gets only the new results and filled-in fields (:class:`Draft`); a result whose
measurement key (:mod:`studygen.records.keys`) is already in the record, or
twice among the new results, is a :class:`ConflictError` naming both and
nothing is written — a result is never overwritten. Provenance of an existing
record is kept; a new value for a field it leaves empty is filled in, and a
different value for a field it states (another GPU, another TensorRT) is a
conflict: one job is one measuring machine and one software stack (the
merge rules: :mod:`studygen.records.provenance`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConflictError, InputError, RecordError, UsageError
from ..fsutil import LOCK_TIMEOUT_S, atomic_write_text, dump_json, ensure_inside, folder_lock, shown_path
from ..patterns import lazy_compile
from ..textio import MAX_DOCUMENT_BYTES, document_problem, parse_json, read_text
from .jsonedit import extend_json_text
from .keys import MeasurementKey, measuring_machine, software_signature
from .kinds import IDENTITY_FIELDS, metric_of, result_identity
from .load import load_record, record_of_text
from .migrate import version_of
from .names import validate_family_name, validate_job_id
from .provenance import (as_conversion_machine, check_measuring_machine, clean_provenance, defaulted_checkpoint,
                         measuring_machine_block, merge_conversion_machine, merge_provenance)
from .result import NewResult
from .schemas import validate_document
from .sources import (already_recorded, refuse_changed_reading, refuse_other_job, refuse_same_source, replace_sources,
                      same_reading)


@dataclass
class WriteOutcome:
    """What :func:`write_results` did: the record path, whether it was
    created, and how many results were added."""

    path: Path
    display: str
    created: bool
    added: int
    notes: list[str] = field(default_factory=list)
    provenance_filled: bool = False  # no new result, but the record's empty provenance fields were filled in
    replaced: int = 0  # results --replace dropped (read from the same inputs); the record was written anew


def refuse_case_twin(path: Path, stop: Path) -> None:
    """UsageError when ``path`` or a folder above it, up to ``stop``, has a
    sibling whose name differs from its own in case only (``JOB-A.json``
    beside ``job-a.json``): macOS and Windows hold the two as one file, so a
    checkout there would keep one of them (or a collect there extend the
    other record)."""
    for item in (path, *path.parents):
        if item == stop or stop not in item.parents:
            return
        if not item.parent.is_dir():
            continue
        twin = next((s for s in item.parent.iterdir() if s.name.lower() == item.name.lower() and s.name != item.name),
                    None)
        if twin is not None:
            raise UsageError(f"refusing to write {shown_path(path)}: {shown_path(twin)} differs from it in case only, "
                             "and macOS and Windows hold the two as one file; use that name or another one")


def measurement_key(family: str, provenance: dict, result: dict) -> MeasurementKey:
    """The measurement key of ``result`` in a record of ``family`` with
    ``provenance`` (:class:`studygen.records.keys.MeasurementKey`): the
    result's identity (:func:`studygen.records.kinds.result_identity`: kind,
    metric, statistic, group, variant, shape, batch, backend, mode, dataset)
    with the checkpoint revision, the measuring machine
    (:func:`~studygen.records.keys.measuring_machine`: the GPU, or the
    CPU of a record measured without one) and the software versions of its
    backend. The recipe is the variant's, so the variant name stands for it
    here."""
    return MeasurementKey.of(**dict(zip(IDENTITY_FIELDS, result_identity(result))), family=family,
                             revision=(provenance.get("checkpoint") or {}).get("revision"), recipe=None,
                             gpu=measuring_machine(provenance),
                             software=software_signature(provenance, result.get("backend")))


def describe(result: dict) -> str:
    """A short human description: ``latency gpu_compute median, variant fp16, batch 1, 800x800``."""
    metric, statistic, group = metric_of(result)
    parts = [" ".join(str(p) for p in (result["kind"] if metric != result["kind"] else None, metric, statistic, group) if p)]
    parts.append(f"variant {result.get('variant')}")
    if result.get("batch") is not None:
        parts.append(f"batch {result['batch']}")
    if result.get("shape"):
        parts.append(result["shape"])
    if result.get("dataset"):
        parts.append(f"dataset {result['dataset']}")
    return ", ".join(parts)


def other_jobs(path: Path, read: dict | None = None) -> list[tuple[str, str, list[dict]]]:
    """(job id, path as shown, results) of every record beside ``path`` (the
    other jobs of its family); a file that does not load as a record is left
    to ``check`` (SG202), not refused here. ``read`` (sibling path -> its text
    and what it gave) carries what an earlier call of one write parsed: a
    sibling whose text is still the same is not parsed and validated again."""
    read = {} if read is None else read
    others = []
    for sibling in sorted(path.parent.glob("*.json")):
        if sibling.name == path.name:
            continue
        shown = shown_path(sibling)
        try:
            text = read_text(sibling, shown, MAX_DOCUMENT_BYTES)
        except (RecordError, InputError):
            continue
        if sibling not in read or read[sibling][0] != text:
            read[sibling] = (text, _other_job(sibling, shown, text))
        if read[sibling][1] is not None:
            others.append(read[sibling][1])
    return others


def _other_job(sibling: Path, shown: str, text: str) -> tuple[str, str, list[dict]] | None:
    """``(job id, shown, results)`` of the record ``text`` holds; None when it does not load as one."""
    try:
        data = record_of_text(sibling, shown, text).data
    except (RecordError, InputError):
        return None
    if not isinstance(data.get("results"), list):
        return None
    return str(data.get("job_id", sibling.stem)), shown, data["results"]


def new_document(job_id: str, family: str, provenance: dict, description: str | None = None) -> dict:
    """A record without results, its fields in the order a record file
    keeps them. Its ``schema_version`` is, as whenever results are added,
    the lowest that holds its fields (:func:`~studygen.records.migrate.version_of`)."""
    document = {"schema_version": None, "job_id": job_id, "family": family}
    if description:
        document["description"] = description
    document["provenance"] = provenance
    document["results"] = []
    document["schema_version"] = version_of(document)
    return document


def record_path(measurements_dir: Path, family: str, job_id: str, records_dir: Path | None = None) -> Path:
    """``measurements_dir/<family>/<job_id>.json``, or ``records_dir/<job_id>.json``
    when the family's records live elsewhere (a study file's ``measurements:``
    folder); refused (UsageError) when it would lie outside ``measurements_dir``
    or beside a name that differs from its own in case only (:func:`refuse_case_twin`)."""
    validate_family_name(family)
    validate_job_id(job_id)
    path = (records_dir if records_dir is not None else measurements_dir / family) / f"{job_id}.json"
    ensure_inside(path, measurements_dir)
    refuse_case_twin(path, measurements_dir)
    return path


@dataclass
class Draft:
    """A record about to be written: ``document``, whether it is ``created``,
    ``notes`` on what was filled in, and the existing file's text
    (``original``, None for a new record)."""

    document: dict
    created: bool
    notes: list[str]
    original: str | None = None
    added: int = 0  # results added (the rest were recorded already, as they are)
    provenance_filled: bool = False  # an existing record's empty provenance fields got values
    replaced: int = 0  # results dropped by --replace, which the added ones stand in for

    def text(self) -> str:
        """The file's new text: a new record in the canonical layout
        (:func:`studygen.fsutil.dump_json`); an existing one with its text
        kept byte for byte and only the new values added
        (:func:`studygen.records.jsonedit.extend_json_text`)."""
        if self.original is None:
            return dump_json(self.document)
        return record_text(self.original, self.document)


def record_text(original: str, document: dict) -> str:
    """``original`` (a record's text) extended to hold ``document``: what the
    file holds keeps its bytes (figures their digits, CRLF stays CRLF); new
    results and filled-in fields are added in the file's style."""
    # the document as the text says it, before any schema migration on load
    return extend_json_text(original, parse_json(original, "record"), document)


def build_document(path: Path, family: str, job_id: str, provenance: dict, new_results: list[NewResult],
                   *, description: str | None = None, replace: str | None = None, correct: str | None = None,
                   siblings_read: dict | None = None) -> Draft:
    """The record to write: the existing one extended, or a new one.

    ``replace`` (a reason): the results the existing record took from the
    source files the new results name (``source_locator``) are dropped
    first, the reason recorded in its provenance notes (see
    :func:`studygen.records.sources.replace_sources`), and a provenance
    value the new collect states otherwise is corrected, with a note
    (:func:`studygen.records.provenance.merge_provenance`). ``correct`` (a
    reason) corrects such provenance values only, no result dropped
    (``collect env --replace``, which brings no results).
    A new result equal to one the record holds under its key is left out
    (the same inputs collected again); the same source line under another
    key is refused (:func:`studygen.records.sources.refuse_same_source`).

    ``siblings_read``: see :func:`other_jobs` (the other jobs' records are
    read to refuse one run recorded under two jobs).

    Raises ConflictError (duplicate measurement key, provenance disagreement),
    RecordError (the existing file or the new document fails the schema).
    Returns a :class:`Draft` (document, created, notes, original text).
    """
    display = shown_path(path)
    original = None
    replaced = 0
    if path.exists():
        record = load_record(path, display)
        original = record.text
        document = copy.deepcopy(record.data)
        if document["family"] != family:
            raise ConflictError(f"the record's family is {document['family']!r}, not {family!r}", path=display,
                                pointer="/family")
        if document["job_id"] != job_id:
            raise ConflictError(f"the record's job_id is {document['job_id']!r}, not {job_id!r}", path=display,
                                pointer="/job_id")
        merged, notes = merge_provenance(document["provenance"], provenance, display,
                                         correct=replace if replace is not None else correct)
        document["provenance"] = clean_provenance(merged)
        filled = document["provenance"] != record.data["provenance"]
        created = False
        if replace is not None:
            kept_before = len(document["results"])
            notes.append(replace_sources(document, new_results, replace, display,
                                         earlier_notes=record.data["provenance"].get("notes") or [],
                                         incoming_notes=provenance.get("notes") or []))
            original = None  # results are dropped: the record is written anew, in the canonical layout
            replaced = kept_before - len(document["results"])
    else:
        document = new_document(job_id, family, clean_provenance(provenance), description)
        created, notes, filled = True, [], False
    keys: dict[MeasurementKey, str] = {}
    recorded: dict[MeasurementKey, dict] = {}
    earlier = list(document["results"])
    for index, result in enumerate(earlier):
        key = measurement_key(family, document["provenance"], result)
        keys.setdefault(key, f"{display}:/results/{index}")
        recorded.setdefault(key, result)
    already = 0
    for new in new_results:
        key = measurement_key(family, document["provenance"], new.result)
        if key in recorded and same_reading(recorded[key], new.result):
            already += 1  # the same input read again: recorded as it is
            continue
        if key not in keys:
            refuse_same_source(earlier, new, display, describe)
        if key in recorded:  # from another source, or the same read otherwise (refused with its own words)
            refuse_changed_reading(recorded[key], new, keys[key], display, describe)
            raise ConflictError(already_recorded(recorded[key], keys[key], new, describe), path=display)
        if key in keys:  # twice in this collect's own results
            raise ConflictError(
                f"{describe(new.result)} from {new.origin} is already recorded at {keys[key]}; "
                "a result is never overwritten (use another --job, --variant, --shape or --batch); nothing written",
                path=display)
        keys[key] = new.origin
        document["results"].append(new.result)
    if len(new_results) > already:
        refuse_other_job(other_jobs(path, siblings_read), new_results, describe)
    document["schema_version"] = version_of(document)  # the lowest version that holds its fields
    return Draft(document, created, notes, original, added=len(new_results) - already, provenance_filled=filled,
                 replaced=replaced)


def write_results(measurements_dir: Path, family: str, job_id: str, provenance: dict,
                  new_results: list[NewResult], *, description: str | None = None,
                  extra_files: list[tuple[Path, str]] | Callable[[], list[tuple[Path, str]]] = (),
                  lock_timeout_s: float = LOCK_TIMEOUT_S, records_dir: Path | None = None,
                  replace: str | None = None) -> WriteOutcome:
    """Validate, then atomically write or extend the record of ``job_id``
    (``measurements_dir/<family>/<job_id>.json``, or in ``records_dir``: see
    :func:`record_path`).

    ``provenance`` is the block a new record gets (gpu, software, checkpoint,
    collector, …); for an existing record it is merged (see
    :func:`studygen.records.provenance.merge_provenance`). ``extra_files`` (path, text), e.g. a new
    dataset definition the caller has validated, are written atomically just
    before the record, once everything has been checked; given as a callable
    returning them, it is called again under the lock, so that a definition
    another process wrote meanwhile is verified rather than replaced.
    ``replace``: see :func:`build_document`.

    One writer at a time (:func:`write_checked`): concurrent collects into
    one record each keep their results, or fail with a ConflictError naming
    what the other one recorded first. Raises UsageError (bad family or job
    id, a path outside ``measurements_dir``), ConflictError (also: the lock
    not had within ``lock_timeout_s`` seconds), RecordError. Nothing is
    written when anything is raised.
    """
    if not new_results:
        raise UsageError("nothing to record: the inputs gave no result")
    path = record_path(measurements_dir, family, job_id, records_dir)
    drafts: list[Draft] = []
    siblings_read: dict = {}  # the other jobs' records, parsed once for both passes while their text stays the same

    def attempt() -> list[tuple[Path, str]]:
        # again under the lock: two collects of JOB-A and job-a at once must not both pass
        refuse_case_twin(path, measurements_dir)
        draft = build_document(path, family, job_id, provenance, new_results, description=description, replace=replace,
                               siblings_read=siblings_read)
        drafts.append(draft)
        if not draft.added and not draft.provenance_filled:
            return []  # every result is recorded already, as read now: nothing to write
        text = validated_text(path, draft)
        extra = list(extra_files() if callable(extra_files) else extra_files)
        for extra_path, _ in extra:
            ensure_inside(extra_path, measurements_dir)
        return [*extra, (path, text)]

    write_checked(path.parent, attempt, lock_timeout_s)
    draft = drafts[-1]
    notes = list(draft.notes)
    already = len(new_results) - draft.added
    if not draft.added and draft.provenance_filled:
        notes.append(f"all {already} result(s) are recorded already, as read now: only the provenance was written")
    elif not draft.added:
        notes.append(f"all {already} result(s) are recorded already, as read now: nothing written")
    elif already:
        notes.append(f"{already} result(s) recorded already, as read now: kept as they were")
    return WriteOutcome(path=path, display=shown_path(path), created=draft.created, added=draft.added, notes=notes,
                        provenance_filled=draft.provenance_filled, replaced=draft.replaced)


def write_checked(folder: Path, attempt: Callable[[], list[tuple[Path, str]]],
                  lock_timeout_s: float = LOCK_TIMEOUT_S) -> None:
    """Read, check and write under the write lock of ``folder``
    (:func:`studygen.fsutil.folder_lock`), one process at a time.

    ``attempt()`` reads what it needs, raises on any refusal and returns the
    ``(path, text)`` files to write. It runs twice: first without the lock,
    so that every refusal comes before a folder is made, then under the lock,
    where what it returns is written (:func:`write_files`): a record another
    writer extended meanwhile is read again, so neither loses its results,
    and a result the other one recorded first is a ConflictError."""
    attempt()
    with folder_lock(folder, lock_timeout_s):
        write_files(attempt())


def validated_text(path: Path, draft: Draft) -> str:
    """The text ``draft`` gives the record at ``path``, once its document has
    passed the run-record schema, fits the loader's size limit
    (:data:`studygen.textio.MAX_DOCUMENT_BYTES`: a record the loader refuses
    would break render for its whole family) and holds nothing a record may
    not (:func:`studygen.textio.document_problem`: a lone surrogate from an
    input that spelled one); RecordError naming the pointer otherwise."""
    problem = document_problem(draft.document)
    if problem is not None:
        pointer, reason = problem
        raise RecordError(f"cannot write: {reason} (it came from the inputs)", path=shown_path(path), pointer=pointer)
    text = draft.text()
    size = len(text.encode("utf-8"))
    if size > MAX_DOCUMENT_BYTES:
        raise RecordError(f"the record would be {size} bytes ({len(draft.document['results'])} results), over the "
                          f"{MAX_DOCUMENT_BYTES // 2**20} MiB a record may hold (the loader refuses larger ones); "
                          "nothing written: split the input into several jobs (--job)", path=shown_path(path))
    try:
        validate_document("run", draft.document, path=shown_path(path), text=text)
    except RecordError as exc:
        raise _at_its_source(exc, draft.document, shown_path(path)) from None
    return text


_RESULT_POINTER = lazy_compile(r"^/results/(\d+)(/.*)?$")
_LOCATOR = lazy_compile(r"^(?P<file>.+):(?P<line>\d+)$")


def _at_its_source(error: RecordError, document: dict, shown: str) -> RecordError:
    """``error`` (a schema refusal of the record about to be written) placed
    at the input line its result came from (``source_locator``: ``run.log:572``),
    the place a person can look at, since the record is not written; as it is
    when the refused field belongs to no result with a locator."""
    found = _RESULT_POINTER.match(error.place.pointer or "")
    results = document.get("results") if isinstance(document, dict) else None
    if found is None or not isinstance(results, list) or int(found.group(1)) >= len(results):
        return error
    result = results[int(found.group(1))]
    locator = _LOCATOR.match(result.get("source_locator") or "") if isinstance(result, dict) else None
    if locator is None:
        return error
    return RecordError(f"{error.message} ({error.place.pointer} of {shown}); nothing written",
                       path=locator.group("file"), line=int(locator.group("line")))


def existing_record_path(measurements_dir: Path, family: str, job_id: str, records_dir: Path | None = None) -> Path:
    """``measurements_dir/<family>/<job_id>.json`` of a record that exists;
    UsageError when it does not (``collect env`` completes a record, it
    never starts one: a record without results is not written)."""
    path = record_path(measurements_dir, family, job_id, records_dir)
    if not path.is_file():
        raise UsageError(f"no such record {shown_path(path)}: collect results into --job {job_id} first "
                         "(a record without results is not written)")
    return path


def merge_machine(measurements_dir: Path, family: str, job_id: str, block: dict, role: str,
                  collector: dict, records_dir: Path | None = None, correct: str | None = None) -> WriteOutcome:
    """Merge a machine's env block (:func:`studygen.collect.env.collect_env`)
    into the existing record of ``job_id`` and write it (its text kept, the
    new fields added). ``role`` ``measuring``: provenance fields the record
    leaves empty are filled (the git state only where it states no commit:
    :func:`~studygen.records.keys.measuring_machine_block`), and a
    record measured on another GPU or CPU is refused; ``conversion``: the
    same for ``provenance.conversion_machine``. ``correct`` (a reason, role
    ``measuring`` only): a driver or software version the record states
    otherwise is corrected, with a note saying from what, to what and why.
    Raises UsageError (no such record), ConflictError (a value that differs
    from one the record states; nothing is overwritten), RecordError."""
    path = existing_record_path(measurements_dir, family, job_id, records_dir)
    display = shown_path(path)
    drafts: list[Draft] = []

    def attempt() -> list[tuple[Path, str]]:
        if role == "measuring":
            stated = load_record(path, display).provenance  # the git state it states stays (measuring_machine_block)
            draft = build_document(path, family, job_id, measuring_machine_block(block, collector, stated), [],
                                   correct=correct)
            check_measuring_machine(draft.document["provenance"], block, display, created=draft.created,
                                    results=draft.document["results"])
        else:
            incoming = {"gpu": None, "software": {}, "checkpoint": defaulted_checkpoint(), "collector": collector}
            draft = build_document(path, family, job_id, incoming, [])
            merge_conversion_machine(draft.document["provenance"], as_conversion_machine(block), display)
        drafts.append(draft)
        return [(path, validated_text(path, draft))]

    write_checked(path.parent, attempt)
    draft = drafts[-1]
    return WriteOutcome(path=path, display=display, created=draft.created, added=0, notes=draft.notes,
                        provenance_filled=draft.provenance_filled)


def os_error(exc: OSError, action: str, fallback: Path) -> InputError:
    """An OSError as one InputError line naming the path and the OS's reason,
    e.g. ``measurements/demo: cannot create the folder: File exists``."""
    where = Path(exc.filename) if exc.filename else fallback
    reason = exc.strerror or type(exc).__name__
    return InputError(f"cannot {action}: {reason}", path=shown_path(where))


def write_files(files: list[tuple[Path, str]]) -> None:
    """Write each ``(path, text)`` atomically, in order, creating folders
    first. Raises InputError naming the path and the OS's reason when a
    folder cannot be created or a file cannot be written (a folder that is
    a file, a read-only or virtual file system); files this call created
    before the failure are removed again, so nothing is half-written."""
    for path, _ in files:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_error(exc, "create the folder", path.parent) from None
        if not path.parent.is_dir():
            raise InputError("cannot create the folder: not a folder", path=shown_path(path.parent))
    created: list[Path] = []
    try:
        for path, text in files:
            existed = path.exists()
            try:
                atomic_write_text(path, text)
            except OSError as exc:
                # exc.filename may be the temporary file; name the target
                raise InputError(f"cannot write: {exc.strerror or type(exc).__name__}", path=shown_path(path)) from None
            if not existed:
                created.append(path)
    except InputError:
        for path in created:
            path.unlink(missing_ok=True)
        raise
