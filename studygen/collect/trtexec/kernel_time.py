"""Kernel time per group from trtexec: one result per profiled run.

Sources, in order of preference: ``--exportProfile`` arrays (any TensorRT
version; ``averageMs`` is the mean per profiled iteration, see
:mod:`.exports`), else the console log's ``--dumpProfile`` table (``===
Profile (N iterations ) ===``, figures first and the layer name last, as
TensorRT 8.6+ prints it; ``Avg.(ms)`` per iteration, total from its
``Total`` row; the table before TensorRT 8.6 puts the layer first and
heads the column ``Avg. Time (ms)``; see :mod:`.log`). Layers are grouped by the study's
kernel-group rules (:mod:`studygen.collect.kernel_groups`): by their
``--exportLayerInfo`` type where it names the work, else by their name,
then their tactic and origin.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from ...records.group_sums import KERNELS_LISTED_PER_GROUP
from ...records.kernel_rules import grouping_note
from ...records.kinds import Kind
from ...records.result import NewResult
from ..inputs import significant
from ..kernel_groups import KernelGroupRules, KernelItem, group_times, groups_for_record
from .common import ResultLabels, TrtexecInputs, layer_info_shape, profile_runs, run_base

EXPORT_PROFILER = "trtexec --exportProfile ({name}; averageMs: mean per iteration)"
DUMP_PROFILER = "trtexec --dumpProfile ({column}: mean per iteration; total from its Total row)"
# the average column as each table layout heads it (see .log)
AVERAGE_COLUMN = {"layer-last": "Avg.(ms)", "layer-first": "Avg. Time (ms)"}


def kernel_time_results(inputs: TrtexecInputs, labels: ResultLabels) -> list[NewResult]:
    """Kernel time per group of each ``--profile`` array (matched to the
    log's runs in order), or, without ``--profile``, of each log run that
    printed a ``--dumpProfile`` table. Raises InputError (arrays that do not
    match the log's runs) and UsageError (a ``--batch`` the log contradicts)."""
    log = inputs.log
    details = inputs.layer_info.details() if inputs.layer_info else {}
    types = inputs.layer_info.types() if inputs.layer_info else {}
    out: list[NewResult] = []
    if inputs.profile is not None:
        profile_name = Path(inputs.profile_display).name
        matched = profile_runs(inputs)
        for profile_run, run in zip(inputs.profile, matched):
            base = run_base(labels, run, log.display if log else inputs.profile_display, inputs.notes,
                            layer_info_shape(inputs))
            items = [KernelItem(name, average, None, details.get(name), types.get(name))
                     for name, average, _, _ in profile_run.rows]
            refuse_no_time(items, None, inputs.profile_display, profile_run.line)
            result = kernel_time(items, labels.rules, base, iterations=profile_run.iterations,
                                 profiler=EXPORT_PROFILER.format(name=profile_name))
            result["source_locator"] = f"{profile_name}:line {profile_run.line}"
            out.append(NewResult(result, f"{inputs.profile_display}:array {profile_run.index + 1}"))
        return out
    for run in inputs.runs:
        if run.profile is None:
            continue
        base = run_base(labels, run, log.display, inputs.notes)
        items = [KernelItem(name, avg, None, details.get(name), types.get(name)) for name, avg, _, _ in run.profile.rows]
        refuse_no_time(items, run.profile.total_avg_ms, log.display, run.profile.line)
        result = kernel_time(items, labels.rules, base, iterations=run.profile.iterations,
                             total_ms=run.profile.total_avg_ms,
                             profiler=DUMP_PROFILER.format(column=AVERAGE_COLUMN[run.profile.layout]))
        result["source_locator"] = f"{log.basename}:{run.profile.line}"
        out.append(NewResult(result, f"{log.display}:line {run.profile.line}"))
    return out


def refuse_no_time(items: list[KernelItem], total_ms: float | None, display: str, line: int) -> None:
    """InputError when the profile gives no time: every layer 0 ms (or a
    Total row of 0), which is no kernel time but a profile of nothing or
    times below the printed digits (issue 13: never record a 0 ms figure)."""
    if total_ms == 0 or not any(item.time_ms > 0 for item in items):
        raise InputError(f"every one of its {len(items)} layers takes 0 ms: no kernel time to record (a profile of "
                         "nothing, or times below the printed digits)", path=display, line=line)


def kernel_time(items: list[KernelItem], rules: KernelGroupRules, base: dict, *, iterations: int | None,
                profiler: str, total_ms: float | None = None) -> dict:
    """A ``kernel_time`` result of per-layer times (ms per iteration):
    groups with their largest layers, the profiled total (``total_ms`` when
    the source prints one, else the sum of the layers), the unclassified
    time and its share of the total (0 for a zero total), and a note with
    the layer counts."""
    grouped = group_times(items, rules)
    total = grouped.total_ms if total_ms is None else total_ms
    result = dict(base, kind=Kind.KERNEL_TIME, groups=groups_for_record(grouped), profiled_total_ms=total,
                  unclassified_ms=grouped.unclassified_ms,
                  unclassified_share=significant(grouped.unclassified_ms / total) if total > 0 else 0.0,
                  profiler=profiler, rows_listed=True)
    if iterations is not None:
        result["iterations"] = iterations
    zero = sum(1 for i in items if i.time_ms == 0)
    words = [f"{len(items)} layers ({zero} with zero time); {grouping_note(rules.source)}; "
             f"each group lists at most its {KERNELS_LISTED_PER_GROUP} largest layers"]
    if grouped.by_type:
        words.append(f"{grouped.by_type} layers grouped by their --exportLayerInfo type")
    if grouped.unclassified_names:
        count = len(grouped.unclassified_names)
        words.append(f"{count} layer{'' if count == 1 else 's'} matched no rule (counted in 'other')")
    if grouped.untold:
        words.append(f"{grouped.untold} of them are Myelin nodes whose members TensorRT elides "
                     "({ForeignNode[first...last]}): their work cannot be told from the names, so they are unclassified")
    if grouped.listed:
        words.append(f"{grouped.listed} of them are subgraph nodes named by the list of their layers "
                     "({first,second,...}, a TensorRT 7-era DLA subgraph): one name for work of several kinds, "
                     "so they are unclassified")
    result["note"] = "; ".join(words)
    return result
