"""SG203 reconcile across jobs: the same measurement reported by two or more
jobs with values that differ beyond the study's tolerance, and any difference
between two variants of one job that is smaller than the job-to-job spread of
the figures it compares.

Same measurement = same measurement key (family, checkpoint revision, variant
and recipe, metric and statistic, shape, batch, backend and mode, GPU, the
software versions that matter for the backend, dataset; see
:mod:`studygen.records.keys`). Tolerance: absolute, per metric, from the study
file's ``tolerances``, looked up by the row's metric (``coco``, ``gpu_compute``),
then its kind (``latency``, ``plan_size``), then ``<kind>_<unit>``
(``latency_ms``); a metric without a tolerance must agree exactly. Render shows
the job-to-job spread next to such figures (``StudyView.with_spread``) and
lists them under "same measurement in two jobs".

Case (seed): on B200 with TensorRT 11.4 the main job reports fp16 AP 0.4644
and FP8 AP 0.4625 (a drop of 0.19 points), the per-part job 0.4639 and 0.4637
(a drop of 0.02 points); the 0.0002 difference of the per-part job is smaller
than the 0.0012 spread of the FP8 figure between the two jobs.
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from .base import row_finding

# Fields that, besides variant and job, make two rows of one job comparable as variants.
PAIR_FIELDS = ("family", "revision", "kind", "metric", "statistic", "group", "shape", "batch", "backend", "mode",
               "gpu", "software", "dataset")


def tolerance(study, row: dict) -> float:
    """Absolute tolerance (row units) for the row's metric; 0.0 when the study sets none."""
    table = study.spec.get("tolerances") or {}
    unit = (row.get("unit") or "").lower()
    for name in (row.get("metric"), row.get("kind"), f"{row.get('kind')}_{unit}" if unit else None):
        if name and name in table:
            return float(table[name])
    return 0.0


def _what(study, row: dict) -> str:
    """``fp16 AP on NVIDIA B200, tensorrt=11.4.0.106`` style description of a row."""
    parts = [study.variant_label(row["variant"]), row["statistic"] or row["metric"] or row["kind"]]
    if row.get("group"):
        parts.append(row["group"])
    where = [row["gpu"] or "GPU not stated", row["software"] or "versions not stated"]
    if row.get("shape"):
        where.append(row["shape"])
    return f"{' '.join(p for p in parts if p)} on {', '.join(where)}"


def repeated_keys(study) -> dict[str, list[dict]]:
    """Measurement key → rows with a value, for keys reported by two or more jobs."""
    by_key: dict[str, list[dict]] = {}
    for row in study.rows:
        if row["value"] is not None and row["statistic"] != "not_measured":
            by_key.setdefault(row["key"], []).append(row)
    return {k: rows for k, rows in by_key.items() if len({r["job_id"] for r in rows}) > 1}


def _spread(rows: list[dict]) -> float:
    values = [r["value"] for r in rows]
    return max(values) - min(values)


def _decimals(rows: list[dict]) -> int:
    """Digits to print a difference of ``rows`` with: the most any of them carries (4 for computed values)."""
    return max((r["decimals"] if r["decimals"] is not None else 4) for r in rows)


def disagreements(study) -> list[Finding]:
    """One finding per key whose job-to-job spread exceeds the tolerance."""
    findings = []
    for key, rows in repeated_keys(study).items():
        spread = _spread(rows)
        allowed = tolerance(study, rows[0])
        if spread <= allowed + 1e-12:
            continue
        ordered = sorted(rows, key=lambda r: r["job_id"])
        values = "; ".join(f"{format_number(r['value'])} in job {r['job_id']}" for r in ordered)
        unit = rows[0]["unit"] if rows[0]["unit"] not in (None, "", "AP") else ""
        findings.append(row_finding(
            study, "SG203", ordered[-1],
            f"same measurement disagrees across jobs: {_what(study, rows[0])}: {values} "
            f"(spread {format_number(spread, _decimals(rows))}{' ' + unit if unit else ''}, "
            f"tolerance {format_number(allowed, _decimals(rows))})",
            hint="reconcile the jobs or state the job-to-job spread (render shows it next to the figure); "
                 "set tolerances in the study file only from measured repeat variance"))
    return findings


def differences_below_spread(study) -> list[Finding]:
    """Variant differences within one job smaller than the job-to-job spread of either figure."""
    repeated = repeated_keys(study)
    if not repeated:
        return []
    findings = []
    groups: dict[tuple, list[dict]] = {}
    for row in study.rows:
        if row["value"] is not None and row["statistic"] != "not_measured":
            groups.setdefault((row["job_id"], *(row[f] for f in PAIR_FIELDS)), []).append(row)
    for rows in groups.values():
        by_variant = {r["variant"]: r for r in rows}
        names = sorted(by_variant)
        for i, a_name in enumerate(names):
            for b_name in names[i + 1:]:
                a, b = by_variant[a_name], by_variant[b_name]
                spreads = [(_spread(repeated[r["key"]]), r) for r in (a, b) if r["key"] in repeated]
                if not spreads:
                    continue
                spread, spread_row = max(spreads, key=lambda s: s[0])
                difference = b["value"] - a["value"]
                if abs(difference) >= spread:
                    continue
                same = repeated[spread_row["key"]]
                decimals = _decimals([a, b])
                low = min(same, key=lambda r: r["value"])
                high = max(same, key=lambda r: r["value"])
                findings.append(row_finding(
                    study, "SG203", b,
                    f"{study.variant_label(b_name)} minus {study.variant_label(a_name)} in job {b['job_id']} is "
                    f"{format_number(difference, decimals, sign=True)} ({format_number(b['value'])} vs "
                    f"{format_number(a['value'])}), smaller than the job-to-job spread "
                    f"{format_number(spread, decimals)} of {_what(study, spread_row)} "
                    f"({format_number(low['value'])} in job {low['job_id']} to {format_number(high['value'])} "
                    f"in job {high['job_id']})",
                    hint="a difference inside the job-to-job spread is not a measured difference; "
                         "repeat the jobs or say the difference is not resolved"))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    return disagreements(study) + differences_below_spread(study)
