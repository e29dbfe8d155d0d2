"""The result kinds of a run record, declared once.

Every writer of records (``collect`` ingest, ``collect run``) and every reader
(the study's flattened rows, measurement keys) names a result's metric,
statistic and group through this table, so what one calls a duplicate the
other does too. The kinds are those of ``schemas/run_record.schema.json``
(``$defs/result/properties/kind``); a test keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResultKind:
    """How one kind of result names what it measures and where its figure is.

    ``metric`` is a fixed metric name, or None when the result's own
    ``metric_field`` names it (latency: ``timing``; agreement: ``metric``).
    ``value_fields`` are the fields holding the figure, first present wins;
    each may instead appear as ``<field>_range`` (a range over rows a source
    did not list). ``printing_key`` is the study file's ``precision:`` key
    that sets how source figures of this kind print.
    """

    kind: str
    unit: str
    metric: str | None = None
    metric_field: str | None = None
    statistic: str | None = None
    statistic_field: str | None = None
    group_field: str | None = None
    value_fields: tuple[str, ...] = ()
    printing_key: str | None = None


RESULT_KINDS: dict[str, ResultKind] = {kind.kind: kind for kind in (
    ResultKind("latency", "ms", metric_field="timing", statistic_field="statistic",
               value_fields=("value_ms",), printing_key="latency_ms"),
    ResultKind("plan_size", "MiB", metric="plan_size", value_fields=("value_bytes", "value_mib"), printing_key="plan_mib"),
    ResultKind("coco_ap", "AP", metric="coco", statistic_field="statistic", value_fields=("value",), printing_key="coco"),
    ResultKind("coco_ap_delta", "points", metric="coco_delta", statistic_field="statistic", value_fields=("delta_points",)),
    ResultKind("agreement", "", metric_field="metric", value_fields=("value",), printing_key="agreement"),
    # per group: groups[i].time_ms (ms) and share_percent (%); the whole profile: profiled_total_ms
    ResultKind("kernel_time", "ms", metric="kernel_time", value_fields=("profiled_total_ms",), printing_key="kernel_ms"),
    ResultKind("kernel_time_delta", "ms", metric="kernel_time_delta", group_field="group", value_fields=("delta_ms",),
               printing_key="kernel_ms"),
    ResultKind("quantization", "modules", metric="quantized_modules", value_fields=("quantized_modules",)),
    ResultKind("not_measured", "", metric_field="metric", statistic="not_measured"),
    ResultKind("engine_layers", "layers", metric="engine_layers", value_fields=("layer_count",)),
)}


def result_kind(kind: str) -> ResultKind:
    """The table entry of ``kind``. Raises KeyError for a kind the schema does not know."""
    return RESULT_KINDS[kind]


def metric_of(result: dict) -> tuple[str | None, str | None, str | None]:
    """``(metric, statistic, group)`` of a result dict, as the study's rows
    name them (latency: its ``timing`` and ``statistic``; COCO AP: ``coco``
    and the statistic; a kernel-time profile: ``kernel_time``, its groups
    being rows of their own)."""
    spec = RESULT_KINDS[result["kind"]]
    metric = spec.metric if spec.metric is not None else result.get(spec.metric_field)
    statistic = spec.statistic if spec.statistic is not None else (
        result.get(spec.statistic_field) if spec.statistic_field else None)
    group = result.get(spec.group_field) if spec.group_field else None
    return metric, statistic, group


IDENTITY_FIELDS = ("kind", "metric", "statistic", "group", "variant", "shape", "batch", "backend", "mode", "dataset")


def result_identity(result: dict) -> tuple:
    """What makes a result unique inside one record (whose provenance fixes
    the GPU, the software and the checkpoint): the fields of
    :data:`IDENTITY_FIELDS`. Two results of one record with equal identities
    measure the same thing; a writer refuses the second."""
    metric, statistic, group = metric_of(result)
    named = {"metric": metric, "statistic": statistic, "group": group}
    return tuple(named[name] if name in named else result.get(name) for name in IDENTITY_FIELDS)
