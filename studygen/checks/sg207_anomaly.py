"""SG207 cross-version and cross-GPU anomaly: the same metric of the same
configuration differing by a factor of at least ``anomaly_factor`` (study
file, default 1.5) between GPUs or software versions, unless an explanation
entry (``explanations:`` with code SG207) in the study file accounts for it
(then a notice; its message never says "no explanation").

Same configuration = same configuration key (the measurement key without GPU
and software versions, :mod:`studygen.records.keys`) and, for a latency, the
same timing signature (:func:`studygen.study.timing.timing_signature`: CUDA
graphs, data transfers, spin-wait, host waits, with TensorRT's defaults for
unset flags), the key SG212 and the generic template's latency tables split
by: a run timed with CUDA graphs and no data transfers is not compared with
one timed with transfers and without graphs. Enqueue time and the input and
output copy times are not compared at all
(:data:`studygen.study.timing.HOST_TIMINGS`): they time the host and its link
to the GPU, which a platform (GPU model, software versions) does not name.
Two comparisons:

1. Listed figures: per configuration, the figures are grouped by platform
   (GPU and software signature); the platform medians are compared, largest
   over smallest.
2. A listed figure against a stated range: a source may give a range over
   rows it does not list (``value_min``/``value_max`` with ``range_over``).
   A listed figure of the same quantity (same configuration fields except
   shape, where the range gives none, since it spans every shape) on another
   platform is compared with the range: an anomaly when the figure is at
   least ``factor`` times the range's maximum, or at most its minimum divided
   by ``factor``. A latency is never a range (the record schema has no
   latency range), so no timing signature is compared here.

Zero and negative figures (counts, differences) are not compared by ratio.
The finding sits on the listed figure's record pointer and carries its
measurement key, so an explanation entry can name it.

Case (issue 22, new-user trial): fp32 enqueue time 0.0496826 ms on a
GTX 1070 (TensorRT 8.2.3, transfers on, no graphs) reported as 25.44x an
H100 run timed with ``--useCudaGraph --noDataTransfers`` (0.00195312 ms),
and a device-to-host copy of a few microseconds 1.78x across machines.

Case (seed): fp16 GEMM time 0.409 ms on B200 with TensorRT 11.1 at 800 x 1067,
against 0.19 to 0.21 ms stated over the other rows (about 2x); the source
does not say why.
"""

from __future__ import annotations

from statistics import median

from ..findings import Finding
from ..numbers import format_number
from ..records.keys import MeasurementKey
from ..records.kinds import NOT_MEASURED_STATISTIC, Kind
from ..study.rows import Row
from ..study.timing import HOST_TIMINGS, TIMING_WORDS, latency_signature
from .base import row_finding

DEFAULT_FACTOR = 1.5


def _quantity(row: Row) -> MeasurementKey:
    """What a range stated over unlisted rows is compared by: the configuration
    key (no GPU, no software versions) without the shape, which such a range spans."""
    return row.key._replace(shape=None, gpu=None, software=None)


def _compared(row: Row) -> bool:
    """Whether the row's figure takes part: a positive value (ratios of counts
    and differences say nothing), not a timing of the host's part of a run."""
    return (row.value is not None and row.statistic != NOT_MEASURED_STATISTIC and row.value > 0
            and not (row.kind == Kind.LATENCY and row.metric in HOST_TIMINGS))


def _platform(row: Row) -> tuple[str, str]:
    return (row.gpu or "", row.software or "")


def _platform_text(row: Row) -> str:
    gpu = row.gpu or "GPU not stated"
    software = row.software or "versions not stated"
    return f"{gpu}, {software}"


def _configuration_words(study, row: Row) -> str:
    """``fp16 kernel time GEMM/MatMul at 800x1067`` or ``bf16 eager kernel time attention``
    style words for the row's configuration: no GPU and no software versions,
    which the finding names beside each figure (SG203's ``_what`` names a
    measurement, its platform included)."""
    parts = [study.variant_label(row.variant), row.kind.replace("_", " ")]
    if row.kind == Kind.LATENCY and row.metric and row.metric != "unspecified":
        # trtexec gives several timings of one run (GPU compute, enqueue, host latency): say which
        parts.append(f"({TIMING_WORDS.get(row.metric, row.metric)})")
    if row.group:
        parts.append(row.group)
    if row.statistic and row.statistic not in ("unspecified",):
        parts.append(row.statistic)
    shape = f" at {row.shape}" if row.shape else ""
    return " ".join(parts) + shape


def _unit(row: Row) -> str:
    return f" {row.unit}" if row.unit and row.unit != "AP" else ""


def listed_anomalies(study, factor: float) -> tuple[list[Finding], set[int]]:
    """Comparison 1; also the ids of rows already reported."""
    groups: dict[tuple, dict[tuple, list[Row]]] = {}
    for row in study.rows:
        if _compared(row):
            groups.setdefault((row.key.config(), latency_signature(row)), {}).setdefault(_platform(row), []).append(row)
    findings, reported = [], set()
    for platforms in groups.values():
        if len(platforms) < 2:
            continue
        # one row (nearly every platform): its value is its median, without sorting a list of one
        medians = {p: rows[0].value if len(rows) == 1 else median([r.value for r in rows])
                   for p, rows in platforms.items()}
        high_p = max(medians, key=lambda p: medians[p])
        low_p = min(medians, key=lambda p: medians[p])
        ratio = medians[high_p] / medians[low_p]
        if ratio < factor:
            continue
        high_row, low_row = platforms[high_p][0], platforms[low_p][0]
        others = "; ".join(f"{format_number(rows[0].value)}{_unit(rows[0])} on {_platform_text(rows[0])} (job {rows[0].job_id})"
                           for p, rows in sorted(platforms.items()) if p != high_p)
        findings.append(row_finding(
            "SG207", high_row,
            f"{_configuration_words(study, high_row)}: {format_number(high_row.value)}{_unit(high_row)} "
            f"on {_platform_text(high_row)} "
            f"(job {high_row.job_id}) is {format_number(ratio, 2)}x the lowest platform "
            f"({format_number(medians[low_p])}{_unit(low_row)} on {_platform_text(low_row)}), at or above the anomaly "
            "factor "
            f"{format_number(factor, 2)}; other platforms: {others}",
            hint="add an explanation (code SG207, key or match) to the study file, or re-measure"))
        reported.update(id(r) for r in platforms[high_p])
    return findings, reported


def range_anomalies(study, factor: float, reported: set[int]) -> list[Finding]:
    """Comparison 2: listed figures against ranges stated over unlisted rows."""
    ranges = [r for r in study.rows if r.value is None and r.value_min is not None and r.value_min > 0]
    findings = []
    for stated in ranges:
        for row in study.rows:
            if (not _compared(row) or id(row) in reported
                    or _platform(row) == _platform(stated)
                    or _quantity(row) != _quantity(stated)
                    or (stated.shape and row.shape != stated.shape)):
                continue
            if row.value >= factor * stated.value_max:
                ratio, side = row.value / stated.value_max, "above"
            elif row.value * factor <= stated.value_min:
                ratio, side = stated.value_min / row.value, "below"
            else:
                continue
            findings.append(row_finding(
                "SG207", row,
                f"{_configuration_words(study, row)}: {format_number(row.value)}{_unit(row)} "
                f"on {_platform_text(row)} "
                f"(job {row.job_id}) is {format_number(ratio, 2)}x {side} the {format_number(stated.value_min)} to "
                f"{format_number(stated.value_max)}{_unit(stated)} stated over the other rows (job {stated.job_id}: "
                f"{stated.range_over}), at or above the anomaly factor {format_number(factor, 2)}",
                hint="add an explanation (code SG207, key or match) to the study file, or re-measure"))
            reported.add(id(row))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    factor = float(study.spec.get("anomaly_factor", DEFAULT_FACTOR))
    findings, reported = listed_anomalies(study, factor)
    return findings + range_anomalies(study, factor, reported)
