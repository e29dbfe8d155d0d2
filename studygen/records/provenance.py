"""Provenance blocks of run records, merged: one job is one measuring machine
and one software stack.

A collector hands a provenance block for the results it read (GPU,
software versions, checkpoint, collector, conversion machine). A new record
takes it as it is; an existing record keeps every value it states and gets
only the fields it leaves empty (:func:`merge_provenance`), and a different
value for a field it states is a :class:`~studygen.errors.ConflictError`.
``studygen collect env`` merges this machine's block into a record, as its
measuring machine (:func:`measuring_machine_block`,
:func:`check_measuring_machine`) or its conversion machine
(:func:`merge_conversion_machine`). Nothing here reads or writes a file.
"""

from __future__ import annotations

import copy
import socket

from ..errors import ConflictError
from .checkpoints import Revisions, model_id_form, names_model_id
from .keys import measured_without_gpu
from .kinds import Kind
from .timers import is_cuda_event_timer
from .unstated import CHECKPOINT_DEFAULTS, DEFAULT_WEIGHTS_NOTE

# Provenance fields a collector may fill in; checked for conflicts on extend.
SCALAR_PROVENANCE = ("gpu", "gpu_count", "cpu", "driver", "dataset_revision", "repository_commit", "repository_dirty")
# Key in provenance["checkpoint"] listing fields filled by default, not given.
DEFAULTED = "_defaulted"
# Key in provenance["checkpoint"]: {field: values the study file allows} for the fields a collect took from the
# study file's model because the command line left them out (the first value is the one taken).
FROM_STUDY = "_from_study"
# How a collector's note ends when its input left a field unstated and nothing on the command line gave it
# (collect/trtexec/log.py writes them): once a later collect into the job fills the field in, such a note would
# contradict the record, so the merge says what filled it (:func:`_unknown_notes_settled`).
UNKNOWN_GPU_TAKEN = "GPU recorded as unknown"
UNKNOWN_TENSORRT_TAKEN = "recorded as unknown"
_UNKNOWN_NOTE_ENDINGS = {"gpu": f": {UNKNOWN_GPU_TAKEN}", "software.tensorrt": f": {UNKNOWN_TENSORRT_TAKEN}"}
# Fields of an env block (studygen.collect.env.collect_env) that describe the measuring machine.
MEASURING_FIELDS = ("gpu", "gpu_count", "cpu", "driver", "repository_commit", "repository_dirty")
def defaulted_checkpoint() -> dict:
    """A checkpoint block whose every field is a default (:data:`CHECKPOINT_DEFAULTS`),
    marked so it never conflicts with a record's."""
    return {**CHECKPOINT_DEFAULTS, DEFAULTED: list(CHECKPOINT_DEFAULTS)}


def merge_provenance(existing: dict, incoming: dict, display: str,
                     correct: str | None = None) -> tuple[dict, list[str]]:
    """``existing`` provenance with ``incoming``'s values filled in where it
    has none. When both state different values for the measuring GPU,
    driver, a software version or the checkpoint: without ``correct``, a
    ConflictError (naming ``--replace``); with ``correct`` (the reason of a
    ``collect … --replace REASON``), the incoming value replaces the record's
    and a note in the record's provenance says which, from what, to what
    and why. A record that cites a publication (``source``) is refused
    either way: collected results go in their own job. Returns the merged
    block and notes on what was filled in or corrected."""
    if "source" in existing:
        raise ConflictError("this record transcribes a publication (provenance.source); "
                            "collected results go in a record of their own (use another --job)", path=display,
                            pointer="/provenance/source")
    merged = copy.deepcopy(existing)
    notes: list[str] = []
    corrections: list[str] = []
    filled: dict[str, object] = {}  # field -> the value an earlier collect left unknown and this one gives

    def differs(field: str, old, new, conflict: str, pointer: str, shown=repr, fix: str = "",
                change: str | None = None) -> None:
        if correct is None:
            raise ConflictError(f"{conflict}; {fix}collect with --replace REASON to correct the record", path=display,
                                pointer=pointer)
        change = change or f"from {shown(old)} to {shown(new)}"
        corrections.append(f"provenance.{field} corrected {change}: {' '.join(correct.split())}")

    given_a_gpu = measured_without_gpu(merged) and bool(incoming.get("gpu"))
    if given_a_gpu:
        # gpu_count 0 is a known "no GPU", not a GPU left unstated: a trtexec log collected into a --cpu job
        # filled in the log's GPU, and the job's CPU figures were keyed and printed under it (attack). Under
        # --replace the GPU and its count change together, one correction: one note says so (the loop below
        # would also call the GPU "filled in", as if the record had left it unstated)
        count = incoming.get("gpu_count")
        differs("gpu", None, incoming["gpu"], f"the record was measured without a GPU (gpu_count 0), the new input "
                f"names {incoming['gpu']!r}: one job is one measuring machine; use another --job", "/provenance/gpu",
                change=f"from no GPU (gpu_count 0) to {incoming['gpu']!r} "
                       f"(gpu_count {'not stated' if count is None else count})")
        # corrected: its count of none was part of the error. An input that names a GPU but no count (a trtexec
        # log) leaves the count out, never null, which the schema refuses (the record was then refused as invalid)
        if count is None:
            merged.pop("gpu_count", None)
        else:
            merged["gpu_count"] = count

    for name in SCALAR_PROVENANCE:
        new = incoming.get(name)
        if new is None:
            continue
        old = merged.get(name)
        if old is None:
            merged[name] = new
            filled[name] = new
            if not (name == "gpu" and given_a_gpu):  # that GPU is a correction, noted as one above
                notes.append(f"provenance.{name} filled in: {new}")
        elif old != new:
            differs(name, old, new, f"the record says {name} {old!r}, the new input says {new!r}: one job is one "
                    "measuring machine; use another --job", f"/provenance/{name}")
            merged[name] = new
    software = merged.setdefault("software", {})
    for name, new in (incoming.get("software") or {}).items():
        old = software.get(name)
        if name not in software or (old is None and new is not None):
            software[name] = new
            if new is not None:
                filled[f"software.{name}"] = new
        elif new is not None and old != new:
            differs(f"software.{name}", old, new, f"the record says {name} {old}, the new input says {new}; use "
                    "another --job", f"/provenance/software/{name}", shown=str)
            software[name] = new
    old_ckpt, new_ckpt = merged.get("checkpoint") or {}, incoming.get("checkpoint") or {}
    existing_weights = old_ckpt.get("weights") is not None  # the record keeps its own: no default reaches it
    defaulted, from_study = new_ckpt.get(DEFAULTED, []), new_ckpt.get(FROM_STUDY, {})
    for name in ("id", "revision", "weights"):
        if name not in new_ckpt or name in defaulted:
            continue
        old, new = old_ckpt.get(name), new_ckpt.get(name)
        if old in (None, "unknown") and new is not None:
            old_ckpt[name] = new
        elif new is not None and old != new and name in from_study:
            if study_allows(name, old, from_study[name]):
                continue  # nobody gave this field: the record's own value, which the study file allows, stays
            differs(f"checkpoint.{name}", old, new, f"the record says checkpoint {name} {old!r}, which the study "
                    f"file does not allow; the command line gives no {name}, and {new!r} is the study file's "
                    f"model.{name}", f"/provenance/checkpoint/{name}", fix=keeping_hint(name, old, old_ckpt))
            old_ckpt[name] = new
        elif new is not None and old != new and same_checkpoint_field(name, old, new):
            if name == "revision" and len(str(new)) > len(str(old)):
                old_ckpt[name] = new  # the same commit, now written out longer
        elif new is not None and old != new:
            differs(f"checkpoint.{name}", old, new, f"the record says checkpoint {name} {old!r}, the command line "
                    f"says {new!r}", f"/provenance/checkpoint/{name}")
            old_ckpt[name] = new
    if "conversion_machine" in incoming and "conversion_machine" not in merged:
        merged["conversion_machine"] = incoming["conversion_machine"]
    collector = incoming.get("collector")
    also = []
    if collector and merged.get("collector", {}).get("name") != collector.get("name"):
        also.append(f"also collected by {collector['name']} {collector.get('version', '')}".strip())
    incoming_notes = [note for note in incoming.get("notes") or []
                      if not (note == DEFAULT_WEIGHTS_NOTE and "weights" in defaulted and existing_weights)]
    _unknown_notes_settled(merged.get("notes") or [], filled, incoming)
    for note in [*also, *incoming_notes, *corrections]:
        if note not in merged.setdefault("notes", []):  # a second extension repeats no note
            merged["notes"].append(note)
    return merged, notes + corrections


def _unknown_notes_settled(notes: list[str], filled: dict[str, object], incoming: dict) -> None:
    """Rewrite, in place, each of a record's ``notes`` that says a field was
    recorded as unknown (its ending, :data:`_UNKNOWN_NOTE_ENDINGS`) where
    this merge fills that field in (``filled``: field -> value): the note
    keeps what the earlier input left out and gains what filled it in and
    from which collector (``incoming``'s), so that it no longer contradicts
    the record ("... GPU recorded as unknown" beside a stated GPU, a new
    user's trial of a second collect with ``--gpu``)."""
    by = (incoming.get("collector") or {}).get("name") or "a later collect"
    for index, note in enumerate(notes):
        for field, ending in _UNKNOWN_NOTE_ENDINGS.items():
            if field in filled and isinstance(note, str) and note.endswith(ending):
                notes[index] = f"{note}, then filled in as {filled[field]!r} by {by}"


def study_allows(name: str, value, allowed: list) -> bool:
    """Whether a record's checkpoint field ``name`` holding ``value`` is one
    the study file allows (``allowed``, as :data:`FROM_STUDY` lists them): a
    revision naming one of them (:class:`~studygen.records.checkpoints.Revisions`),
    an id naming the model however spelt (``allowed``: the id, then its
    local folder or None; :func:`~studygen.records.checkpoints.names_model_id`),
    weights equal to the study's."""
    if not allowed or not isinstance(value, str):
        return False
    if name == "revision":
        view = Revisions([*allowed, value])  # one view: a view per allowed revision made this quadratic
        return any(view.same(value, known) for known in allowed)
    if name == "id":
        return names_model_id(value, allowed[0], allowed[1] if len(allowed) > 1 else None)
    return value in allowed


def same_checkpoint_field(name: str, old, new) -> bool:
    """Whether a record's checkpoint field ``name`` (``old``) and a command
    line's (``new``) name one checkpoint, by the rule collect and SG209 read
    them with (:mod:`studygen.records.checkpoints`): a revision and its
    longer or differently cased spelling, a Hugging Face id however spelt
    (``ORG/Name``, its Hub address); weights only when equal."""
    if not isinstance(old, str) or not isinstance(new, str):
        return False
    if name == "revision":
        return Revisions([old, new]).same(old, new)
    if name == "id":
        return model_id_form(old) == model_id_form(new)
    return False


def keeping_hint(name: str, old, checkpoint: dict) -> str:
    """How a collect keeps a record's checkpoint field ``name`` (``old``)
    that the study file does not allow, as a conflict message ends."""
    if name == "revision":
        return (f"if the input was made from revision {old}, list it under the study file's model.revisions and "
                f"give --checkpoint {checkpoint.get('id') or 'ID'}@{old}, else ")
    if name == "weights":
        return f"if the input was made with {old} weights, set the study file's model.weights to it, else "
    return f"if the input was made from {old}, name it in the study file's model.id, else "


def clean_provenance(provenance: dict) -> dict:
    """Drop the private markers :data:`DEFAULTED` and :data:`FROM_STUDY`
    (checkpoint fields the user did not give, which never conflict with a
    record's value the study file allows)."""
    provenance = copy.deepcopy(provenance)
    (provenance.get("checkpoint") or {}).pop(DEFAULTED, None)
    (provenance.get("checkpoint") or {}).pop(FROM_STUDY, None)
    return provenance


def measuring_machine_block(block: dict, collector: dict, stated: dict | None = None) -> dict:
    """An env block (:func:`studygen.collect.env.collect_env`) as the
    provenance of the machine that measured a record: GPU, CPU, driver, git
    state, software, time, and its notes prefixed ``env:``; the checkpoint
    left to the record (:func:`defaulted_checkpoint`). ``stated``: the
    record's provenance; where it states its ``repository_commit``, the
    block's git state is left out: the record's is the code that measured
    it, and the checkout env read later has often moved on (a commit of the
    record itself), which is no other measuring machine."""
    keep_code = bool((stated or {}).get("repository_commit"))
    incoming = {name: block.get(name) for name in MEASURING_FIELDS
                if not (keep_code and name in ("repository_commit", "repository_dirty"))}
    incoming.update(software=dict(block["software"]), collected_at=block["collected_at"],
                    checkpoint=defaulted_checkpoint(), collector=collector)
    if block.get("notes"):
        incoming["notes"] = [f"env: {note}" for note in block["notes"]]
    return incoming


def check_measuring_machine(provenance: dict, block: dict, display: str, *, created: bool,
                            results: list | tuple = ()) -> None:
    """Refuse (ConflictError at ``/provenance/gpu``) to take this machine as
    the measuring machine of an existing record measured on another GPU.
    Here a missing GPU is known, not unknown: a machine without one did not
    measure a GPU job, also where the record names no GPU but its
    ``results`` were measured on one (:func:`gpu_measured`: a TensorRT log
    that names none took this machine's CPU as its measuring machine, and
    its rows were keyed under the CPU)."""
    measured_on = provenance.get("gpu")
    if not created and measured_on is not None and block.get("gpu") != measured_on:
        raise ConflictError(f"the record was measured on {measured_on}; this machine has "
                            f"{block.get('gpu') or 'no GPU'}: one job is one measuring machine",
                            path=display, pointer="/provenance/gpu")
    if not created and measured_on is None and not block.get("gpu") and gpu_measured(results):
        raise ConflictError("the record holds results a GPU measured (TensorRT, GPU compute time or CUDA events); "
                            "this machine has no GPU: one job is one measuring machine (give the GPU with the "
                            "collect that read the results, --gpu)", path=display, pointer="/provenance/gpu")


def gpu_measured(results) -> bool:
    """Whether any of ``results`` (a record's) was timed on a GPU, whatever
    its provenance says: a latency or kernel time TensorRT ran
    (``backend: tensorrt``), or a latency timed as GPU compute time or with
    CUDA events. A plan's size or an AP is no timing: any machine may read it."""
    def timed_on_gpu(result: dict) -> bool:
        if result.get("kind") not in (Kind.LATENCY, Kind.KERNEL_TIME):
            return False
        return result.get("backend") == "tensorrt" or result.get("timing") == "gpu_compute" or \
            is_cuda_event_timer((result.get("method") or {}).get("timer"))

    return any(timed_on_gpu(result) for result in results)


def merge_conversion_machine(provenance: dict, machine: dict, display: str) -> None:
    """Fill ``provenance['conversion_machine']`` from ``machine`` (gpu,
    gpu_count, driver, hostname, software) where it states nothing; a
    different value for a field it states is a ConflictError naming its
    pointer (nothing is overwritten). Edits ``provenance`` in place."""
    existing = provenance.setdefault("conversion_machine", {})
    for name, value in machine.items():
        if name == "software":
            have = existing.setdefault("software", {})
            for package, version in value.items():
                _fill(have, package, version, display, f"/provenance/conversion_machine/software/{package}", str)
        else:
            _fill(existing, name, value, display, f"/provenance/conversion_machine/{name}", repr)


def _fill(existing: dict, name: str, value, display: str, pointer: str, shown) -> None:
    """``existing[name] = value`` where it is empty; another value there is a
    ConflictError naming ``pointer`` (values printed with ``shown``)."""
    if existing.get(name) is None:
        existing[name] = value
    elif value is not None and existing[name] != value:
        raise ConflictError(f"the record's conversion machine has {name} {shown(existing[name])}, this machine "
                            f"{shown(value)}; nothing overwritten", path=display, pointer=pointer)


def as_conversion_machine(block: dict) -> dict:
    """An env block (:func:`studygen.collect.env.collect_env`) as ``provenance.conversion_machine``:
    GPU model and count, driver, this machine's hostname and the software
    versions of the block."""
    return {"gpu": block.get("gpu"), "gpu_count": block.get("gpu_count", 0), "driver": block.get("driver"),
            "hostname": socket.gethostname(), "software": dict(block["software"])}
