"""SG212 incomparable timings: latencies measured differently placed in one
ratio, range or table column by a render helper.

Each latency row gets a timing signature: backend and mode (eager vs
``torch.compile``), what was timed (GPU compute time, host latency, …) and
the effective method flags — CUDA graphs, data transfers, spin-wait, and
for ``collect run`` whether the host waited for each forward. A flag
the record leaves unset takes the default of the TensorRT version that
measured it: TensorRT 11 turned CUDA graphs, spin-wait and no data transfers
on by default, TensorRT 10 and older had them off, so the same trtexec
command measures different things across versions. Outside TensorRT an unset
flag stays unknown. The rows behind every helper output are known (render
records them, :mod:`studygen.checks.readme_text`): a range, ratio, verdict or side
finding whose latency rows carry more than one signature, or a table column
(one variant) that does, is an error at the README line of that output. An
explanation entry (code SG212) in the study file is how a study says so.

Case (fixtures): trtexec 10.16 logs measured with and without
``--noDataTransfers``; a TensorRT 11 run with default flags against a
TensorRT 10 run with the same command line.

Shards (issue 17): ``collect run`` interleaves the variants of one (mode,
shape) within one process, so that drift of clocks and temperature falls on
all of them alike. ``--shard K/N`` may cut such a group: its variants are
then timed by different processes, often on different GPUs, at different
times. Latencies of one (GPU model, shape, mode) in one output that come
from two or more shards of one job (records ``<job>-shardKofN``) are an
error too, naming each shard's GPU (``provenance.placement``). An
explanation or waiver (code SG212) says so in the README's known gaps: that
is the label such a comparison needs.

Prose: a ratio or comparison written by hand in a study-file field the README
prints as written, whose two figures are latencies timed differently, is an
SG212 error at its sentence in the study file (:mod:`.prose_timings`).
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from ..records.jobs import shard_of_job
from ..records.kinds import Kind
from ..render.produced import kinds_where
from ..study.rows import Row
from ..study.timing import describe, timing_name, timing_signature
from .prose_timings import check as prose_timing_findings
from .base import readme_finding

CHECKED_KINDS = kinds_where("side_by_side")  # the output kinds that declare it (render/produced.py)
CROSS_SHARD_HINT = ("measure the variants of one shape in one shard, or explain the comparison in the study file "
                    "(explanations: SG212), which prints it under the README's known gaps")


def _columns(item) -> list[list[dict]]:
    """Row sets that must be comparable: for tables one per value of the
    output's ``compared_by`` field (a column per variant; a table row per
    measurement key in the repeated-measurements table), all rows otherwise."""
    rows = [r for r in item.rows if r.kind == Kind.LATENCY and r.value is not None]
    if item.kind != "table":
        return [rows]
    compared: dict[str, list[dict]] = {}
    for row in rows:
        compared.setdefault(getattr(row, item.compared_by), []).append(row)
    return list(compared.values())


def cross_shard_groups(rows: list[Row]) -> dict[tuple, list[tuple[tuple[int, int], Row]]]:
    """The latency ``rows`` of a job's shards by ``(job, N, GPU model, shape,
    mode)``, each row with its shard (K, N); only the groups whose rows come
    from two or more shards (variants that were not interleaved)."""
    groups: dict[tuple, list[tuple[tuple[int, int], Row]]] = {}
    for row in rows:
        sharded = shard_of_job(row.job_id)
        if sharded is not None:
            job, shard = sharded
            groups.setdefault((job, shard[1], row.gpu, row.shape, row.mode), []).append((shard, row))
    return {key: members for key, members in groups.items() if len({shard for shard, _ in members}) > 1}


def _device(row: Row) -> str:
    """``GPU 1 (GPU-5c1e…)`` from the row's record's ``provenance.placement``; ``GPU not recorded`` without it."""
    placement = row.record.provenance.get("placement") or {}
    index, uuid = placement.get("gpu_index"), placement.get("gpu_uuid")
    if index is None:
        return "GPU not recorded"
    return f"GPU {index}" + (f" ({uuid})" if uuid else "")


def _cross_shard_findings(study, item, text, rows: list[Row]) -> list[Finding]:
    """One SG212 finding per group of :func:`cross_shard_groups` in an output."""
    findings = []
    for (job, _, _, shape, mode), members in cross_shard_groups(rows).items():
        listed = "; ".join(f"{format_number(row.value)} ms ({row.variant}, shard {shard[0]}/{shard[1]}, "
                           f"{_device(row)})" for shard, row in members)
        findings.append(readme_finding(
            study, "SG212", text.locate(item),
            f"{item.kind.replace('_', ' ')} compares latencies at {shape} ({mode}) from different shards of job {job}, "
            f"not interleaved: {listed}", hint=CROSS_SHARD_HINT))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    findings, seen, said = [], set(), set()
    for item, text in context.produced_outputs(CHECKED_KINDS):
        latencies = [r for r in item.rows if r.kind == Kind.LATENCY and r.value is not None]
        for finding in _cross_shard_findings(study, item, text, latencies):
            if (finding.line, finding.message) not in said:  # one output rendered twice on a line: said once
                said.add((finding.line, finding.message))
                findings.append(finding)
        for rows in _columns(item):
            signatures: dict[tuple, dict] = {}
            for row in rows:
                signatures.setdefault(timing_signature(row), row)
            if len(signatures) < 2:
                continue
            line = text.locate(item)
            marker = (line, tuple(sorted(id(r) for r in signatures.values())))
            if marker in seen:
                continue
            seen.add(marker)
            listed = "; ".join(
                f"{format_number(r.value)} ms ({r.variant}, job {r.job_id}{', ' + r.shape if r.shape else ''}): "
                f"{describe(sig, timing_name(r))}" for sig, r in signatures.items())
            what = (("table column" if item.compared_by == "variant" else "table row") if item.kind == "table"
                    else item.kind.replace("_", " "))
            findings.append(readme_finding(
                study, "SG212", line,
                f"{what} puts latencies measured differently together: {listed}",
                hint="compare only timings taken the same way, or explain the mix in the study file (explanations: SG212)"))
    return findings + prose_timing_findings(context)
