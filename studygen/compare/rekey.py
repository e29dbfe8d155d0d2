"""Figures of one job whose measurement key changed with its provenance and nothing else.

Three fields of a measurement key come from the record's provenance, not
from its results (:func:`studygen.study.rows.flatten_record`): the checkpoint
revision, the GPU and the software versions. A latency's way of timing
(:func:`studygen.study.timing.timing_signature`) takes every flag its
record leaves unset from the TensorRT version as well. Correcting one job's
GPU name or adding its TensorRT version (``collect --replace``) thus moves
every figure of the job to a new key, and compared key by key
(:mod:`studygen.compare.figures`) each one reads as removed at the base and
new at the head, with the same value.

:func:`pair_by_job` looks again at those unmatched figures, one job at a
time: a figure the job reports at the base under a key the job does not
report at the head pairs with the one figure the job reports at the head
(and not at the base) that measures the same thing once the provenance
fields are set aside (:func:`_identity`: the rest of the key and the
timing flags as the record states them, before any TensorRT default).
Figures of two different jobs never pair: another job id is another run,
however equal its values. A pair whose values are the same is a
**re-keyed** figure; one whose value changed too is not: the head's key
names another GPU, software or checkpoint, whose figure the base's spread
does not bound (the spreads are of repeats, compilations and jobs of one
key), so it stays a removed and a new figure, and its provenance change
says how many of those it explains.

:func:`provenance_changes` gathers the pairs of a job into one
:class:`ProvenanceChange`: which provenance fields and timing flags
changed, and the figures re-keyed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..place import Place
from ..records.jsonpos import pointer_from_path
from ..records.keys import blanking
from ..records.kinds import Kind
from ..study.timing import FIRST_FLAG, FLAG_WORDS, flag_state, latency_signature

# the measurement key's fields that a record's provenance gives (MeasurementKey's names)
PROVENANCE_FIELDS = ("revision", "gpu", "software")
_without_provenance = blanking(*PROVENANCE_FIELDS)
NOT_STATED = "not stated"


@dataclass(frozen=True)
class Pairing:
    """One job's figure at the base and at the head under two keys that differ
    only in provenance fields: ``old_key``/``new_key`` are figure keys as
    :func:`studygen.compare.figures._figures` makes them (measurement key
    text, timing in words); ``old_rows``/``new_rows`` the job's rows there."""

    job: str
    old_key: tuple[str, str]
    new_key: tuple[str, str]
    old_rows: tuple
    new_rows: tuple

    @property
    def value_kept(self) -> bool:
        """Whether the job gives the same values (and ranges) under both keys."""
        return Counter(map(_figure, self.old_rows)) == Counter(map(_figure, self.new_rows))


@dataclass(frozen=True)
class RekeyedFigure:
    """One re-keyed figure: ``what`` in words (the head's), ``old_key``/``new_key``
    (measurement key texts), ``values`` as printed, ``unit``."""

    what: str
    old_key: str
    new_key: str
    values: tuple[str, ...]
    unit: str


@dataclass(frozen=True)
class ProvenanceChange:
    """A job whose provenance changed between base and head: ``fields``
    ``(name, base, head)`` of each changed key field (``GPU``, a software
    name such as ``tensorrt``, ``checkpoint revision``; ``not stated`` where
    a side has none); ``timing`` ``(flag, base, head)`` of each latency
    timing flag that changed with it (``on``/``off``/``unknown``);
    ``figures`` re-keyed with their values kept; ``value_changed``: figures
    paired with these but whose value changed too (reported as removed and
    new); ``place``: the head record's first changed provenance field."""

    job: str
    fields: tuple[tuple[str, str, str], ...]
    timing: tuple[tuple[str, str, str], ...]
    figures: tuple[RekeyedFigure, ...]
    value_changed: int
    place: Place

    def words(self, arrow: str = "->") -> str:
        """``job a: GPU 'X' -> 'Jetson AGX Xavier', tensorrt 7 -> 7.1.3; 28 figures re-keyed, values unchanged``,
        with ``latency timing: CUDA graphs unknown -> off, ...`` and ``; 1 figure changed value too, listed as
        removed and new`` where they apply; ``arrow`` between base and head (Markdown's is ``→``)."""
        fields = ", ".join(f"GPU '{old}' {arrow} '{new}'" if name == "GPU" else f"{name} {old} {arrow} {new}"
                           for name, old, new in self.fields)
        parts = [f"job {self.job}: {fields}"]
        if self.timing:
            parts.append("latency timing: " + ", ".join(f"{flag} {old} {arrow} {new}" for flag, old, new in self.timing))
        count = len(self.figures)
        parts.append(f"{count} figure{'' if count == 1 else 's'} re-keyed, values unchanged")
        if self.value_changed:
            parts.append(f"{self.value_changed} figure{'' if self.value_changed == 1 else 's'} changed value too, "
                         "listed as removed and new")
        return "; ".join(parts)


def pair_by_job(old: dict, new: dict) -> list[Pairing]:
    """The pairs of :func:`_unmatched` figures of one job (see the module
    docstring), by job, then in key order. ``old``/``new``: figure key ->
    rows at the base and the head. A job whose provenance-free figure has
    two keys on one side (two records of the job that state different
    provenance) pairs nothing of it: which went where cannot be told."""
    base_only, head_only = _unmatched(old, new), _unmatched(new, old)
    pairings = []
    for job in sorted(base_only.keys() & head_only.keys()):
        for identity, old_keys in base_only[job].items():
            new_keys = head_only[job].get(identity, {})
            if len(old_keys) == 1 and len(new_keys) == 1:
                (old_key, old_rows), = old_keys.items()
                (new_key, new_rows), = new_keys.items()
                pairings.append(Pairing(job, old_key, new_key, tuple(old_rows), tuple(new_rows)))
    return sorted(pairings, key=lambda p: (p.job, p.old_key))


def provenance_changes(pairings: list[Pairing], rekeyed) -> list[ProvenanceChange]:
    """One change per job and set of changed fields, for each that re-keyed
    at least one figure; ``rekeyed`` gives a kept pairing's
    :class:`RekeyedFigure` (its words and printed values are
    :mod:`studygen.compare.figures`'). In job order."""
    groups: dict[tuple, list[Pairing]] = {}
    for pairing in pairings:
        groups.setdefault((pairing.job, _changed_fields(pairing)), []).append(pairing)
    changes = []
    for (job, fields), group in groups.items():
        kept = [p for p in group if p.value_kept]
        if not kept:
            continue
        timing = tuple(dict.fromkeys(flag for p in group for flag in _changed_flags(p)))
        head_record = group[0].new_rows[0].record
        pointer = _pointer(fields[0][0]) if fields else "/provenance"
        place = Place(head_record.display_path, head_record.line_of(pointer), pointer)
        changes.append(ProvenanceChange(job, fields, timing, tuple(rekeyed(p) for p in kept), len(group) - len(kept),
                                        place))
    return sorted(changes, key=lambda c: c.job)


def _unmatched(side: dict, other: dict) -> dict[str, dict[tuple, dict[tuple, list]]]:
    """job -> :func:`_identity` -> figure key -> rows, of each job's figures
    under a key that the job does not report on the ``other`` side."""
    found: dict[str, dict[tuple, dict[tuple, list]]] = {}
    for key, rows in side.items():
        other_jobs = {row.job_id for row in other.get(key, ())}
        for row in rows:
            if row.job_id not in other_jobs:
                found.setdefault(row.job_id, {}).setdefault(_identity(row), {}).setdefault(key, []).append(row)
    return found


def _identity(row) -> tuple:
    """What a row measures apart from its provenance: the measurement key
    without revision, GPU and software, and a latency's timing flags as its
    record states them (the signature fills unset ones in from the TensorRT
    version, which is provenance)."""
    if row.kind != Kind.LATENCY:
        return _without_provenance(row.key), None
    method = row.result.get("method") or {}
    return _without_provenance(row.key), tuple(method.get(name) for name in FLAG_WORDS), method.get("host_sync")


def _changed_fields(pairing: Pairing) -> tuple[tuple[str, str, str], ...]:
    old, new = pairing.old_rows[0].key, pairing.new_rows[0].key
    fields = []
    if old.gpu != new.gpu:
        fields.append(("GPU", old.gpu or NOT_STATED, new.gpu or NOT_STATED))
    old_versions, new_versions = _versions(old.software), _versions(new.software)
    for name in dict.fromkeys([*old_versions, *new_versions]):
        if old_versions.get(name) != new_versions.get(name):
            fields.append((name, old_versions.get(name, NOT_STATED), new_versions.get(name, NOT_STATED)))
    if old.revision != new.revision:
        fields.append(("checkpoint revision", old.revision or NOT_STATED, new.revision or NOT_STATED))
    return tuple(fields)


def _changed_flags(pairing: Pairing) -> list[tuple[str, str, str]]:
    old, new = latency_signature(pairing.old_rows[0]), latency_signature(pairing.new_rows[0])
    if old is None or new is None:
        return []
    # the flags a TensorRT version's defaults fill in, from their place in a signature on
    return [(words, flag_state(old[FIRST_FLAG + index]), flag_state(new[FIRST_FLAG + index]))
            for index, words in enumerate(FLAG_WORDS.values()) if old[FIRST_FLAG + index] != new[FIRST_FLAG + index]]


def _versions(signature: str | None) -> dict[str, str]:
    """``tensorrt=7.1.3,cuda=10.2`` -> ``{'tensorrt': '7.1.3', 'cuda': '10.2'}``
    (:func:`studygen.records.keys.software_signature`)."""
    return dict(part.split("=", 1) for part in (signature or "").split(",") if "=" in part)


def _pointer(field: str) -> str:
    """Where a changed key field sits in a record's provenance."""
    if field == "GPU":
        return "/provenance/gpu"
    if field == "checkpoint revision":
        return "/provenance/checkpoint/revision"
    return pointer_from_path(("provenance", "software", field))


def _figure(row) -> tuple:
    return row.value, row.value_min, row.value_max
