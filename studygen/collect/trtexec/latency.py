"""Latency results from trtexec: one per timing and run.

Sources: the console log's performance summary (TensorRT 8+ ``===
Performance summary ===`` lines, TensorRT 7 ``Host Latency`` blocks; see
:mod:`.log`) and ``--exportTimes`` arrays (TensorRT 8.2+ and TensorRT 7
keys; see :mod:`.exports`). The headline is the median in ms;
``statistics_ms`` holds what the log printed (or, without a log summary,
what trtexec's own statistics give on the per-iteration times). Times of a
run and timing the log also summarises become that result's
``distribution`` (samples, median, mean, std, p90, p99, cv) instead of a
second result. H2D and D2H are left out of runs without data transfers
(zeros by construction).
"""

from __future__ import annotations

from pathlib import Path

from ..inputs import significant
from ..result import NewResult
from .common import ResultLabels, TrtexecInputs, base_result, match_runs, run_batch, timing_method, transfers_off
from .exports import TimesRun, timing_statistics
from .log import Summary, TrtexecLog, TrtexecRun

TRANSFER_TIMINGS = ("h2d", "d2h")


def latency_results(inputs: TrtexecInputs, labels: ResultLabels) -> list[NewResult]:
    """Latency results of the log's summaries (in run order, then timing
    order as printed), then of the ``--times`` arrays no summary covers.
    Raises InputError (arrays that do not match the log's runs) and
    UsageError (a ``--batch`` the log contradicts)."""
    log = inputs.log
    out: list[NewResult] = []
    by_run_and_timing: dict[tuple[int, str], dict] = {}
    for run in inputs.runs:
        base = base_result(labels, run_batch(run, labels.batch, log.display))
        for summary in run.summary.values():
            if transfers_off(run) and summary.timing in TRANSFER_TIMINGS:
                continue  # zeros by construction with --noDataTransfers
            result = from_summary(run, summary, base, log)
            by_run_and_timing[(run.index, summary.timing)] = result
            out.append(NewResult(result, f"{log.display}:line {summary.line}"))
    if inputs.times is None:
        return out
    times_name = Path(inputs.times_display).name
    matched = match_runs(len(inputs.times), log, "times", inputs.times_display)
    for times_run, run in zip(inputs.times, matched):
        base = base_result(labels, run_batch(run, labels.batch, log.display if log else inputs.times_display))
        for timing, values in times_run.timings.items():
            if transfers_off(run) and timing in TRANSFER_TIMINGS:
                continue
            existing = by_run_and_timing.get((run.index, timing)) if run else None
            if existing is not None:
                attach_times(existing, values, times_run, run, times_name)
                continue
            result = from_times(values, timing, base, run)
            attach_times(result, values, times_run, run, times_name)
            result["source_locator"] = f"{times_name}:line {times_run.line}"
            out.append(NewResult(result, f"{inputs.times_display}:array {times_run.index + 1}"))
    return out


def from_summary(run: TrtexecRun, summary: Summary, base: dict, log: TrtexecLog) -> dict:
    """A latency result of one summary timing: median as value_ms, the
    printed statistics, throughput, timed and warm-up iterations, and for
    GPU compute the log's instability warning (cv as a fraction)."""
    stats = summary.statistics_ms
    result = dict(base, kind="latency", timing=summary.timing, statistic="median", value_ms=stats["median"],
                  statistics_ms=dict(stats), method=timing_method(run))
    if run.throughput_qps is not None:
        result["throughput_qps"] = run.throughput_qps
    distribution = {}
    if run.timed_iterations():
        distribution["samples"] = run.timed_iterations()
    if run.warmup_iterations() is not None:
        distribution["warmup_iterations"] = run.warmup_iterations()
    if summary.timing == "gpu_compute" and run.unstable_cv_percent is not None:
        distribution["cv"] = significant(run.unstable_cv_percent / 100)
        result["unstable"] = True
        result["unstable_reason"] = (f"trtexec: GPU compute time is unstable, coefficient of variance "
                                     f"{run.unstable_cv_percent}% ({log.basename}:{run.unstable_line})")
    if distribution:
        result["distribution"] = distribution
    result["source_locator"] = f"{log.basename}:{summary.line}"
    return result


def attach_times(result: dict, values: list[float], times_run: TimesRun, run: TrtexecRun | None,
                 times_name: str) -> None:
    """Per-iteration statistics (ms) of one timing into ``result['distribution']``,
    with a note naming the array and how its count relates to the log's
    timing trace (equal, or timed + warm-up iterations, or neither)."""
    stats = timing_statistics(values)
    distribution = {
        "samples": len(values), "median_ms": stats["median"], "mean_ms": stats["mean"], "std_ms": stats["std"],
        "p90_ms": stats["p90"], "p99_ms": stats["p99"], "cv": stats["cv"],
    }
    result["distribution"] = distribution
    note = (f"distribution: {len(values)} per-iteration timings of {times_name} (array {times_run.index + 1}, "
            f"{times_run.key_set} keys)")
    if run is not None and run.timed_iterations() is not None and len(values) != run.timed_iterations():
        warmup = run.warmup_iterations()
        if warmup is not None and len(values) == run.timed_iterations() + warmup:
            note += (f"; they include the warm-up: {len(values)} = {run.timed_iterations()} timed"
                     f" + {warmup} warm-up iterations of the log")
        else:
            note += f"; the log's timing trace has {run.timed_iterations()} iterations"
    result["note"] = note


def from_times(values: list[float], timing: str, base: dict, run: TrtexecRun | None) -> dict:
    """A latency result computed from per-iteration times (ms) alone, with
    trtexec's statistics (:func:`.exports.timing_statistics`)."""
    stats = timing_statistics(values)
    statistics_ms = {k: stats[k] for k in ("min", "max", "mean", "median", "p90", "p95", "p99", "std")}
    return dict(base, kind="latency", timing=timing, statistic="median", value_ms=stats["median"],
                statistics_ms=statistics_ms, method=timing_method(run))
