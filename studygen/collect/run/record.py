"""The run record a ``collect run`` job writes, result by result, and the job's other files.

Every finished measurement is appended and the whole record is validated
against schemas/run_record.schema.json and written atomically
(:func:`studygen.records.write.write_files`), so an interrupted run keeps what
it finished and a reader never sees half a file. An existing record is never
overwritten: without ``--resume`` it is an error; with it, results already
present are skipped, provided the record was measured on the same GPU model
with the same software and, where both name it, the same GPU UUID (a resumed
record must keep one provenance). Each write runs
under the records folder's lock (:func:`studygen.fsutil.folder_lock`) and
first checks that the file still holds what this run last wrote or read: a
record another process wrote or extended meanwhile (a second ``collect run``
of the job, a ``collect trtexec --job`` of it) is a ConflictError, never
overwritten. Results of one
record are unique by :func:`studygen.records.kinds.result_identity`, the
identity every writer of records refuses duplicates by.

:class:`RunRecordStore` is what ``collect run`` hands the runner (the
:class:`~studygen.collect.run.context.RecordStore` protocol): it opens the
job's records, checks the COCO AP dataset definition, and merges the
provenance of a job's shards for ``--merge-ap``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import ConflictError, UsageError
from ...fsutil import dump_json, folder_lock, shown_path
from ...records.jobs import job_id_for
from ...records.jsonedit import extend_json_text
from ...records.kinds import IDENTITY_FIELDS, Kind, result_identity
from ...records.load import load_record
from ...records.migrate import version_of
from ...records.schemas import validate_document
from ...records.write import new_document, write_files
from ...textio import parse_json
from .datasets import ensure_coco_definition

# provenance fields that must agree for a resumed record
RESUME_MUST_MATCH = ("gpu",)
RESUME_SOFTWARE = ("torch", "cuda", "transformers", "modelopt")


class RunRecord:
    """One job's record file ``measurements/<family>/<job_id>.json``.

    Raises ConflictError when the file exists and ``resume`` is False,
    RecordError when an existing file does not load, UsageError when it was
    measured on another GPU or with other software.
    """

    def __init__(self, path: Path, display: str, *, job_id: str, family: str, provenance: dict,
                 description: str | None = None, resume: bool = False):
        self.path = path
        self.display = display
        # a resumed record's text as last written and the document it holds: what it
        # already holds keeps its bytes (figures their digits, CRLF), new results are added
        self.text: str | None = None
        self.written: dict | None = None
        self.on_disk: bytes | None = None  # the file's bytes as this run last read or wrote them (None: no file)
        self.failed_cells: list = []  # this invocation's cells whose measurement raised (context.CellFailure)
        if path.exists():
            if not resume:
                raise ConflictError("record already exists (use --resume to add the missing results, "
                                    "or another --job)", path=display)
            record = load_record(path, display)
            check_resume(record.data["provenance"], provenance, display)
            self.data = record.data
            self.text, self.written = record.text, parse_json(record.text, display)
            self.on_disk = path.read_bytes()
        else:
            self.data = new_document(job_id, family, provenance, description)

    @property
    def results(self) -> list[dict]:
        return self.data["results"]

    def has(self, kind: str, variant: str, shape: str | None = None, mode: str | None = None,
            metric: str | None = None, batch: int | None = None) -> bool:
        """True when a result of ``kind`` (its metric or statistic ``metric``
        when given) for ``variant`` at ``shape`` and ``mode`` (and ``batch``
        when given) is present, or a not_measured for it (metric ``kind`` or
        ``metric``): resume skips it. A result of another batch is another
        cell: a resume after ``run.batch`` changed recorded nothing, and the
        record kept only the old batch's figures (attack)."""
        for result in self.results:
            if result["variant"] != variant or result.get("shape") != shape or result.get("mode") != mode:
                continue
            if batch is not None and result.get("batch", batch) != batch:
                continue
            if result["kind"] == kind and (metric is None or (result.get("metric") or result.get("statistic")) == metric):
                return True
            if result["kind"] == Kind.NOT_MEASURED and result.get("metric") in (kind, metric):
                return True
        return False

    def add(self, *results: dict) -> None:
        """Append ``results``, validate the whole record, write it atomically.

        Raises ConflictError when a result with the same identity
        (:func:`~studygen.records.kinds.result_identity`) is already present or
        given twice (nothing is written) and RecordError when the record would
        not validate.
        """
        present = {result_identity(r): index for index, r in enumerate(self.results)}
        for offset, result in enumerate(results):
            identity = result_identity(result)
            if identity in present:
                raise ConflictError(f"a result with the identity of /results/{present[identity]} "
                                    f"({describe_identity(identity)}) is already in the record; not overwritten",
                                    path=self.display)
            present[identity] = len(self.results) + offset
        self._write(self._candidate(results=[*self.results, *results]))

    def note_failures(self, failures: list) -> None:
        """Keep ``failures`` (:class:`~studygen.collect.run.context.CellFailure`, their
        ``not_measured`` results already in the record) for the command to report."""
        self.failed_cells.extend(failures)

    def add_notes(self, notes: list[str]) -> None:
        """Append to ``provenance.notes`` each of ``notes`` it does not hold yet
        and write the record (a resumed run that measures a cell again adds no copy)."""
        provenance = dict(self.data["provenance"])
        new = [note for note in notes if note not in (provenance.get("notes") or [])]
        if not new:
            return
        provenance["notes"] = [*(provenance.get("notes") or []), *new]
        self._write(self._candidate(provenance=provenance))

    def set_wall_time(self, seconds: float) -> None:
        """Add this invocation's wall time (s) to ``provenance.run_wall_s`` and write the record;
        a record that holds no result yet is not written (a failed first step leaves no file)."""
        if not self.results:
            return
        provenance = dict(self.data["provenance"])
        provenance["run_wall_s"] = round(provenance.get("run_wall_s", 0.0) + seconds, 3)
        self._write(self._candidate(provenance=provenance))

    def _candidate(self, **fields) -> dict:
        """The record with ``fields`` changed and the lowest schema version
        that holds its fields (:func:`~studygen.records.migrate.version_of`),
        validated. Raises RecordError when it does not validate."""
        candidate = {**self.data, **fields}
        candidate["schema_version"] = version_of(candidate)
        validate_document("run", candidate, path=self.display)
        return candidate

    def _write(self, candidate: dict) -> None:
        """Write ``candidate`` atomically, under the folder's lock: a new
        record in the canonical layout, a resumed one as its text extended
        (:func:`studygen.records.jsonedit.extend_json_text`). Raises
        ConflictError, writing nothing, when the file is no longer what this
        run last read or wrote (:meth:`_refuse_changed`)."""
        text = dump_json(candidate) if self.text is None else extend_json_text(self.text, self.written, candidate)
        with folder_lock(self.path.parent):
            self._refuse_changed()
            write_files([(self.path, text)])
        if self.text is not None:
            self.text, self.written = text, candidate
        self.on_disk = text.encode("utf-8")
        self.data = candidate

    def _refuse_changed(self) -> None:
        try:
            now = self.path.read_bytes()
        except FileNotFoundError:
            now = None
        if now == self.on_disk:
            return
        what = "wrote" if self.on_disk is None else ("removed" if now is None else "changed")
        raise ConflictError(f"another process {what} this record while this run was measuring; not overwritten, "
                            f"and this run's {'new ' if self.on_disk is not None else ''}results are not recorded: "
                            "run again with --resume once the other writer has finished, or use another --job",
                            path=self.display)


def describe_identity(identity: tuple) -> str:
    """``kind latency, metric end_to_end, ...``: the fields of a result identity that are set."""
    return ", ".join(f"{name} {value}" for name, value in zip(IDENTITY_FIELDS, identity) if value is not None)


def check_resume(old: dict, new: dict, display: str) -> None:
    """Refuse to resume a record whose provenance ``old`` names another GPU
    or other software versions than this run's ``new`` (UsageError)."""
    for name in RESUME_MUST_MATCH:
        if old.get(name) != new.get(name):
            raise UsageError(f"{display}: cannot resume: the record was measured with {name} {old.get(name)!r}, "
                             f"this machine has {new.get(name)!r}")
    for name in RESUME_SOFTWARE:
        was, now = (old.get("software") or {}).get(name), (new.get("software") or {}).get(name)
        if was != now:
            raise UsageError(f"{display}: cannot resume: the record was measured with {name} {was!r}, this run has {now!r}")
    was, now = (old.get("placement") or {}).get("gpu_uuid"), (new.get("placement") or {}).get("gpu_uuid")
    if was and now and was != now:
        # one record, one GPU: the record names the device of its first results
        raise UsageError(f"{display}: cannot resume: the record was measured on GPU {was}, this process is pinned to "
                         f"{now}; resume on that GPU or measure the rest as another --job")


@dataclass
class RunRecordStore:
    """The records of one ``collect run`` job in ``measurements`` (display
    paths relative to ``root``), for the runner; a new record of ``family``
    gets ``description``; ``resume`` allows extending an existing one."""

    root: Path
    measurements: Path
    family: str
    description: str | None = None
    resume: bool = False

    def open(self, job_id: str, provenance: dict) -> RunRecord:
        """The record ``<job_id>.json`` (see :class:`RunRecord` for what it raises)."""
        path = self.measurements / f"{job_id}.json"
        return RunRecord(path, shown_path(path, self.root), job_id=job_id, family=self.family, provenance=provenance,
                         description=self.description, resume=self.resume)

    def ensure_ap_dataset(self, dataset_id: str, ground_truth) -> None:
        """Verify ``datasets/<dataset_id>.json`` against the annotations'
        images (InputError when they differ), or write it when there is none."""
        path = self.measurements / "datasets" / f"{dataset_id}.json"
        with folder_lock(self.measurements):  # the lock ingest's collectors verify or write definitions under
            ensure_coco_definition(path, shown_path(path, self.root), dataset_id, ground_truth)

    def merged_shard_provenance(self, job: str, count: int) -> dict:
        """The provenance of shard 1 of ``count`` of ``job``, with a note that
        AP is merged from them. Raises UsageError when a shard record is
        missing or the shards differ in GPU or software."""
        shard_records = []
        for index in range(1, count + 1):
            path = self.measurements / f"{job_id_for(job, (index, count))}.json"
            if not path.is_file():
                raise UsageError(f"--merge-ap {count}: no record of shard {index}/{count} ({shown_path(path, self.root)})")
            shard_records.append(load_record(path, shown_path(path, self.root)))
        first = shard_records[0].provenance
        for other in shard_records[1:]:
            if other.provenance.get("gpu") != first.get("gpu") or other.provenance.get("software") != first.get("software"):
                raise UsageError(f"--merge-ap: shard records differ in GPU or software ({other.display_path}); "
                                 "AP over them would mix measurements")
        merged = {key: value for key, value in first.items() if key != "placement"}  # no one shard's device
        return {**merged, "notes": [*(first.get("notes") or []),
                                    f"COCO AP merged from the detections of {count} shards of job {job}"]}
