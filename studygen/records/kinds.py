"""The result kinds of a run record: one row of :data:`RESULT_KINDS` per kind.

Like pyperf's ``METADATA`` table (one entry per metadata name: how it is
parsed and checked), every kind is declared once, with everything the rest of
studygen asks of it:

- ``unit`` its figures are in, and ``words`` a reader calls it by;
- ``quality``: a detection-quality figure (random weights give none: SG214);
  ``image_set``: measured on an image set, so it must name a dataset
  definition (SG205; every quality figure is, and so is agreement);
- ``rows``: how the study turns one result into figure rows
  (:class:`RowShape`; the builders are :data:`studygen.study.rows.ROW_BUILDERS`);
- ``schema``: its ``$defs`` entry in ``schemas/run_record.schema.json``, which
  the schema's ``kind`` enum and its if/then branches name
  (tests/records/test_kinds.py holds them equal to this table);
- how a result names what it measures (metric, statistic, group) and which
  of its fields hold the figure.

Code that means one kind names it by :class:`Kind` (``Kind.LATENCY``), never
by a string of its own. Adding a kind touches this table, the schema, its
producer and its tests.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Kind:
    """The names of the result kinds, as the records hold them (plain
    strings: a result built with ``Kind.LATENCY`` is the same JSON, and
    compares and prints the same, as one read from a file)."""

    LATENCY = "latency"
    PLAN_SIZE = "plan_size"
    COCO_AP = "coco_ap"
    COCO_AP_DELTA = "coco_ap_delta"
    AGREEMENT = "agreement"
    KERNEL_TIME = "kernel_time"
    KERNEL_TIME_DELTA = "kernel_time_delta"
    QUANTIZATION = "quantization"
    NOT_MEASURED = "not_measured"
    ENGINE_LAYERS = "engine_layers"


class RowShape(StrEnum):
    """How one result becomes figure rows (:data:`studygen.study.rows.ROW_BUILDERS`)."""

    VALUE = "value"  # one figure (or a range over rows the source does not list) in the kind's unit
    GROUPS = "groups"  # a figure per kernel group (and its share where given), then the profiled total
    COUNT = "count"  # a whole number: no decimals carried
    REASON = "reason"  # no figure: what was not measured, and why
    NONE = "none"  # no figure at all (an engine's layer list)


class ResultKind(NamedTuple):
    """One result kind (see the module docstring).

    ``metric`` is a fixed metric name, or None when the result's own
    ``metric_field`` names it (latency: ``timing``; agreement: ``metric``);
    ``statistic``/``statistic_field`` and ``group_field`` likewise.
    ``value_fields`` hold the figure, first present wins; each may instead
    appear as ``<field>_range`` (a range over rows a source did not list).
    ``divisors`` turn a value field into the kind's unit (bytes into MiB).
    ``printing_key`` is the study file's ``precision:`` key that sets how
    source figures of this kind print. ``undefined_marker`` is ``(value,
    why)`` when the source writes ``value`` for a figure that does not
    exist (COCOeval's -1): such a row holds no value and says ``why``.
    """

    name: str
    unit: str
    words: str
    rows: RowShape
    schema: str
    quality: bool = False
    image_set: bool = False
    metric: str | None = None
    metric_field: str | None = None
    statistic: str | None = None
    statistic_field: str | None = None
    group_field: str | None = None
    value_fields: tuple[str, ...] = ()
    divisors: tuple[tuple[str, int], ...] = ()
    printing_key: str | None = None
    # (value, why): a value field equal to ``value`` is a marker the source writes for "no figure", never a
    # figure (pycocotools' -1 for an area range without ground truth): its row has no value and says why
    undefined_marker: tuple[float, str] | None = None

    @property
    def schema_ref(self) -> str:
        """The JSON pointer of its ``$defs`` entry, as the schema's if/then branch refers to it."""
        return f"#/$defs/{self.schema}"


RESULT_KINDS: dict[str, ResultKind] = {kind.name: kind for kind in (
    ResultKind(Kind.LATENCY, "ms", "latency", RowShape.VALUE, "latency", metric_field="timing",
               statistic_field="statistic", value_fields=("value_ms",), printing_key="latency_ms"),
    ResultKind(Kind.PLAN_SIZE, "MiB", "engine plan size", RowShape.VALUE, "plan_size", metric="plan_size",
               value_fields=("value_bytes", "value_mib"), divisors=(("value_bytes", 2**20),), printing_key="plan_mib"),
    ResultKind(Kind.COCO_AP, "AP", "COCO AP", RowShape.VALUE, "coco_ap", quality=True, image_set=True,
               metric="coco", statistic_field="statistic", value_fields=("value",), printing_key="coco",
               undefined_marker=(-1, "undefined: no ground truth in its area range (COCOeval's -1)")),
    ResultKind(Kind.COCO_AP_DELTA, "points", "COCO AP difference", RowShape.VALUE, "coco_ap_delta", quality=True,
               image_set=True, metric="coco_delta", statistic_field="statistic", value_fields=("delta_points",)),
    ResultKind(Kind.AGREEMENT, "", "agreement with a reference variant", RowShape.VALUE, "agreement", image_set=True,
               metric_field="metric", value_fields=("value",), printing_key="agreement"),
    # per group: groups[i].time_ms (ms) and share_percent (%); the whole profile: profiled_total_ms
    ResultKind(Kind.KERNEL_TIME, "ms", "kernel time", RowShape.GROUPS, "kernel_time", metric="kernel_time",
               value_fields=("profiled_total_ms",), printing_key="kernel_ms"),
    ResultKind(Kind.KERNEL_TIME_DELTA, "ms", "kernel time difference", RowShape.VALUE, "kernel_time_delta",
               metric="kernel_time_delta", group_field="group", value_fields=("delta_ms",), printing_key="kernel_ms"),
    ResultKind(Kind.QUANTIZATION, "modules", "quantized modules", RowShape.COUNT, "quantization",
               metric="quantized_modules", value_fields=("quantized_modules",)),
    ResultKind(Kind.NOT_MEASURED, "", "not measured", RowShape.REASON, "not_measured", metric_field="metric",
               statistic="not_measured"),
    ResultKind(Kind.ENGINE_LAYERS, "layers", "engine layers", RowShape.NONE, "engine_layers", metric="engine_layers",
               value_fields=("layer_count",)),
)}

# The metric of a kernel-time profile's group rows (their shares: KERNEL_SHARE_METRIC, in %).
KERNEL_TIME_METRIC = RESULT_KINDS[Kind.KERNEL_TIME].metric
KERNEL_SHARE_METRIC = "kernel_share"
# The group of a kernel-time profile's row for its profiled total (the other rows are named by their groups).
PROFILED_TOTAL_GROUP = "total"
# Units a reader wants named after a kind's words; a count ("modules", "layers") and AP name themselves.
UNITS_IN_WORDS = ("ms", "MiB", "points", "%")
# AP points per unit of a quality figure: a COCO AP is stored as COCOeval gives it, a fraction 0 to 1, and read in
# points 0 to 100 (1 point = 0.01 AP); an AP difference is stored in points. Compare (a quality figure's move in
# points) and the checks of quoted figures (SG205, SG222: studygen.checks.prose_figures.ap_factor) read it here.
POINTS_PER_UNIT = {"AP": 100.0, "points": 1.0}


def kind_words(kind: ResultKind) -> str:
    """``kernel time (ms)``: the kind's words with its unit where the unit tells something."""
    return f"{kind.words} ({kind.unit})" if kind.unit in UNITS_IN_WORDS else kind.words


# Kinds whose figures need a named image set (SG205), and those random weights cannot give (SG214).
IMAGE_SET_KINDS = frozenset(kind.name for kind in RESULT_KINDS.values() if kind.image_set)
QUALITY_KINDS = frozenset(kind.name for kind in RESULT_KINDS.values() if kind.quality)
# The statistic of a not-measured result's row: the one row without a figure by design.
NOT_MEASURED_STATISTIC = RESULT_KINDS[Kind.NOT_MEASURED].statistic


def metric_of(result: dict) -> tuple[str | None, str | None, str | None]:
    """``(metric, statistic, group)`` of a result dict, as the study's rows
    name them (latency: its ``timing`` and ``statistic``; COCO AP: ``coco``
    and the statistic; a kernel-time profile: ``kernel_time``, its groups
    being rows of their own). Raises KeyError for a kind not in the table."""
    spec = RESULT_KINDS[result["kind"]]
    metric = spec.metric if spec.metric is not None else result.get(spec.metric_field)
    statistic = spec.statistic if spec.statistic is not None else (
        result.get(spec.statistic_field) if spec.statistic_field else None)
    group = result.get(spec.group_field) if spec.group_field else None
    return metric, statistic, group


IDENTITY_FIELDS = ("kind", "metric", "statistic", "group", "variant", "shape", "batch", "backend", "mode", "dataset")
# A timed result's digest of its input (schema version 3, :mod:`studygen.records.migrate`; what
# :mod:`studygen.records.sources` tells one run by). Here, with the other field names, so that loading a record
# (the migration names it) does not import the collectors' writing rules.
DIGEST = "source_sha256"


def result_identity(result: dict) -> tuple:
    """What makes a result unique inside one record (whose provenance fixes
    the GPU, the software and the checkpoint): the fields of
    :data:`IDENTITY_FIELDS`. Two results of one record with equal identities
    measure the same thing; a writer refuses the second."""
    metric, statistic, group = metric_of(result)
    named = {"metric": metric, "statistic": statistic, "group": group}
    return tuple(named[name] if name in named else result.get(name) for name in IDENTITY_FIELDS)


def group_times_ms(entries: list[dict], group: str) -> list[float] | None:
    """Each entry's time of ``group`` in ms, in order: ``entries`` are a
    kernel-time result's profiled iterations (``per_iteration``) or its
    compilations (``compilations``), each ``{profiled_total_ms, groups:
    {group: ms}}``; :data:`PROFILED_TOTAL_GROUP` reads ``profiled_total_ms``.
    A group an entry's ``groups`` leaves out counts 0 ms: the collectors
    leave out a group that had no kernel in that iteration or compilation
    (``studygen.collect.kernel_groups.group_times``). None when an entry has
    no ``groups`` at all (it kept only its total: its group times are
    unknown)."""
    if group == PROFILED_TOTAL_GROUP:
        return [entry["profiled_total_ms"] for entry in entries]
    if any("groups" not in entry for entry in entries):
        return None
    return [entry["groups"].get(group, 0.0) for entry in entries]
