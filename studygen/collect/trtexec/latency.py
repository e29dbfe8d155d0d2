"""Latency results from trtexec: one per timing and run.

Sources: the console log's performance summary (TensorRT 8+ ``===
Performance summary ===`` lines, TensorRT 7 ``Host Latency`` blocks; see
:mod:`.log`) and ``--exportTimes`` arrays (TensorRT 8.2+ and TensorRT 7
keys; see :mod:`.times`). The headline is the median in ms;
``statistics_ms`` holds what the log printed (or, without a log summary,
what trtexec's own statistics give on the per-iteration times). Times of a
run and timing the log also summarises become that result's
``distribution`` (samples, median, mean, std, p90, p99, cv) instead of a
second result, once matched to the run (:mod:`.align`: warm-up dropped,
the log's summary reproduced).

Never recorded, each with a note in the record's provenance: H2D and D2H of
runs without data transfers (zeros by construction), any timing whose
median is 0 ms (below the timer's resolution, or not measured), and
timings the times file cannot resolve (:mod:`.times`). Without a log, a
times file whose writer exports the warm-up iterations is refused: only
the log says how many there are. Summary labels and statistics the log
reader does not know are left unread, and named in one warning
(:func:`unread_warning`). Each latency of a profiled run carries the run's
FP8 evidence where :mod:`.fp8` read one.
"""

from __future__ import annotations

import copy
from pathlib import Path

from ...errors import InputError
from ...numbers import format_number
from ...records.kinds import Kind
from ...records.migrate import unstable_flag_words
from ...records.result import NewResult
from ..inputs import significant
from .align import align
from .common import (ResultLabels, TrtexecInputs, layer_info_shape, match_runs, run_base, timing_method,
                     transfers_off)
from .runs import Summary, TrtexecLog, TrtexecRun, graph_ignored_before_summary
from .times import TimesRun, timing_statistics

TRANSFER_TIMINGS = ("h2d", "d2h")
MAX_UNREAD_NAMED = 10  # labels or statistics a warning names; MAX_UNREAD_LINES lines each
MAX_UNREAD_LINES = 5


def latency_results(inputs: TrtexecInputs, labels: ResultLabels) -> list[NewResult]:
    """Latency results of the log's summaries (in run order, then timing
    order as printed), then of the ``--times`` arrays no summary covers.
    Raises InputError (arrays that do not match the log's runs) and
    UsageError (a ``--batch`` the log contradicts)."""
    log = inputs.log
    out: list[NewResult] = []
    by_run_and_timing: dict[tuple[int, str], dict] = {}
    if log is not None and (unread := unread_warning(log)):
        inputs.warnings.append(unread)
    for run in inputs.runs:
        base = run_base(labels, run, log.display, inputs.notes)
        inputs.notes.extend(run_setting_notes(run, log))
        if not run.summary and run.no_e2e_line is not None:
            inputs.notes.append(f"{log.basename} {run.label}: no latency, trtexec did not report the end-to-end "
                                f"timing (line {run.no_e2e_line}: the profiler was on without --separateProfileRun)")
        for summary in run.summary.values():
            if transfers_off(run) and summary.timing in TRANSFER_TIMINGS:
                continue  # zeros by construction with --noDataTransfers
            if summary.statistics_ms["median"] == 0:
                inputs.notes.append(f"{log.basename}:{summary.line}: {summary.timing} left out: its median is 0 ms "
                                    "(below the timer's resolution, or data transfers off), not a latency")
                continue
            result = from_summary(run, summary, base, log)
            attach_fp8_evidence(result, inputs, run.index)
            by_run_and_timing[(run.index, summary.timing)] = result
            out.append(NewResult(result, f"{log.display}:line {summary.line}"))
    if inputs.times is None:
        return out
    times_name = Path(inputs.times_display).name
    matched = match_runs(len(inputs.times), log, "times", inputs.times_display)
    for times_run, run in zip(inputs.times, matched):
        if run is None:
            refuse_unknown_warmup(times_run, inputs.times_display)
        else:
            times_run = align(times_run, run, inputs.times_display, log.display)
        base = run_base(labels, run, log.display if log else inputs.times_display, inputs.notes,
                        layer_info_shape(inputs))
        for timing, reason in times_run.left_out.items():
            if not (transfers_off(run) and timing in TRANSFER_TIMINGS):
                inputs.notes.append(reason)
        for timing, values in times_run.timings.items():
            if transfers_off(run) and timing in TRANSFER_TIMINGS:
                continue
            existing = by_run_and_timing.get((run.index, timing)) if run else None
            if existing is not None:
                attach_times(existing, values, times_run, run, times_name, timing)
                continue
            result = from_times(values, timing, base, run)
            if run is None and times_run.data_transfers is not None:
                # no log to read the setting from: the export's own copy times say it, never a version's default
                result["method"]["data_transfers"] = times_run.data_transfers
            if run is None and profiled_apart(times_run, inputs):
                result["method"]["separate_profile_run"] = True
            if result["value_ms"] == 0:
                inputs.notes.append(f"{timing} of {times_name} array {times_run.index + 1} left out: its median is "
                                    "0 ms (below the timer's resolution), not a latency")
                continue
            attach_times(result, values, times_run, run, times_name, timing)
            if run is None:
                flag_unstable_times(result, times_name, times_run.index)
            attach_fp8_evidence(result, inputs, run.index if run else None)
            result["source_locator"] = f"{times_name}:line {times_run.line}"
            out.append(NewResult(result, f"{inputs.times_display}:array {times_run.index + 1}"))
    return out


def profiled_apart(times_run: TimesRun, inputs: TrtexecInputs) -> bool:
    """Whether the ``--profile`` array given beside a times array without
    its log (the array at the same place, when both files hold as many)
    counts another number of iterations than the times array holds: trtexec
    profiles every timed iteration unless ``--separateProfileRun`` is given
    (TensorRT 7 logs' profiles count their times arrays' iterations, warm-up
    included: 1520 and 1520 in the Jetson GoogLeNet files), so such a
    profile was timed in a pass of its own and its layer total carries the
    profiler's overhead (fuzzylabs' AlexNet fp16: a profile of 14590
    iterations beside 6039 timed ones, whose publisher's summary says
    ``Separate profiling: Enabled``). Adds a provenance note saying so, once
    per array. False where either count is unknown or they agree."""
    profiles = inputs.profile or []
    if len(profiles) != len(inputs.times or []):
        return False
    profile = profiles[times_run.index]
    timed = max((len(values) for values in times_run.timings.values()), default=0) + times_run.warmup_dropped
    if profile.iterations is None or not timed or profile.iterations == timed:
        return False
    note = (f"{Path(inputs.profile_display).name} array {profile.index + 1} counts {profile.iterations} profiled "
            f"iterations, {Path(inputs.times_display).name} array {times_run.index + 1} {timed} timed ones: trtexec "
            "profiles every timed iteration unless --separateProfileRun is given, so the layers were timed in a "
            "profiling pass of their own (recorded as a separate profile run)")
    if note not in inputs.notes:
        inputs.notes.append(note)
    return True


def run_setting_notes(run: TrtexecRun, log: TrtexecLog) -> list[str]:
    """Notes on what a run printed that its results do not take as printed:
    figures printed as 0 by a zero batch (``TrtexecRun.zeroed``), and the
    CUDA graph trtexec turned off after printing its options."""
    notes = [f"{log.basename}:{line}: {what}, printed as 0, left out: TensorRT 7's report scales the query counts and "
             "the throughput by the implicit batch, which is 0 for an explicit-batch engine (no timed run measures 0)"
             for line, what in run.zeroed]
    if run.graph_ignored_line is not None:
        which = ("cuda_graph recorded false: its timed inference ran without the CUDA graph its options enable"
                 if graph_ignored_before_summary(run) else
                 "after its performance summary, so it concerns the separate profiling run, not the timings")
        notes.append(f"{log.basename}:{run.graph_ignored_line}: {run.label}: trtexec ignored --useCudaGraph; {which}")
    return notes


def attach_fp8_evidence(result: dict, inputs: TrtexecInputs, run_index: int | None) -> None:
    """Give ``result`` its run's ``fp8_evidence`` (:mod:`.fp8`; keyed by run
    index, None for a run without a log), a copy each, when there is one."""
    evidence = inputs.fp8_evidence.get(run_index)
    if evidence is not None:
        result["fp8_evidence"] = copy.deepcopy(evidence)


def unread_warning(log: TrtexecLog) -> str | None:
    """One line naming what the log's performance summaries print under a
    label or statistic name the reader does not know (left unread, see
    :mod:`.log`), each with its lines: at most
    :data:`MAX_UNREAD_NAMED` of them with :data:`MAX_UNREAD_LINES` lines
    each, so the line stays within a record note's 4,000 characters
    whatever the log holds. None when nothing was left unread."""
    lines_of: dict[str, list[int]] = {}
    for run in log.runs:
        for line, what in run.unread:
            lines_of.setdefault(what, []).append(line)
    if not lines_of:
        return None
    named = []
    for what, lines in list(lines_of.items())[:MAX_UNREAD_NAMED]:
        shown = ", ".join(map(str, lines[:MAX_UNREAD_LINES]))
        more = f" and {len(lines) - MAX_UNREAD_LINES} more" if len(lines) > MAX_UNREAD_LINES else ""
        named.append(f"{what} (line{'s' if len(lines) > 1 else ''} {shown}{more})")
    if len(lines_of) > MAX_UNREAD_NAMED:
        named.append(f"and {len(lines_of) - MAX_UNREAD_NAMED} more")
    return (f"{log.basename}: the performance summary prints what this studygen does not read, so it is not "
            f"recorded: {'; '.join(named)}; the timings it knows are recorded")


def refuse_unknown_warmup(times_run: TimesRun, display: str) -> None:
    """A times array without its log: refused (InputError) when its writer
    exports the warm-up iterations, which only the log counts."""
    if times_run.warmup_exported:
        raise InputError(f"array {times_run.index + 1} has {times_run.key_set} keys with endToEndMs: its writer "
                         "exports the warm-up iterations too, and only the console log says how many (Warmup "
                         "completed N queries); give --log, or the percentiles would include them",
                         path=display, line=times_run.line)


def from_summary(run: TrtexecRun, summary: Summary, base: dict, log: TrtexecLog) -> dict:
    """A latency result of one summary timing: median as value_ms, the
    printed statistics, throughput, timed and warm-up iterations, for GPU
    compute the log's instability warning (cv as a fraction), and for host
    latency the log's ``Throughput may be bound by …`` warnings as a note."""
    stats = summary.statistics_ms
    result = dict(base, kind=Kind.LATENCY, timing=summary.timing, statistic="median", value_ms=stats["median"],
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
        result["unstable_reason"] = unstable_flag_words(f"{log.basename}:{run.unstable_line}")  # the figure: cv
    if distribution:
        result["distribution"] = distribution
    if summary.timing == "host_latency" and run.warnings:
        result["note"] = "; ".join(f"trtexec: throughput may be bound by {text.rstrip('.')} ({log.basename}:{line})"
                                   for line, text in run.warnings)
    result["source_locator"] = f"{log.basename}:{summary.line}"
    return result


def attach_times(result: dict, values: list[float], times_run: TimesRun, run: TrtexecRun | None,
                 times_name: str, timing: str) -> None:
    """Per-iteration statistics (ms) of one timing into ``result['distribution']``,
    with a note naming the array, the warm-up left out and, for a timing
    derived from two stamps, how and at what resolution."""
    stats = timing_statistics(values)
    distribution = {
        "samples": len(values), "median_ms": stats["median"], "mean_ms": stats["mean"], "std_ms": stats["std"],
        "p90_ms": stats["p90"], "p99_ms": stats["p99"], "cv": stats["cv"],
    }
    if run is not None and run.warmup_iterations() is not None:
        distribution["warmup_iterations"] = run.warmup_iterations()
    result["distribution"] = distribution
    words = [f"distribution: {len(values)} per-iteration timings of {times_name} (array {times_run.index + 1}, "
             f"{times_run.key_set} keys)"]
    if times_run.warmup_dropped and run is not None and run.warmup_iterations() is None:
        words.append(f"its first {times_run.warmup_dropped} iteration(s) start computing before the log's "
                     f"{run.warmup_ms} ms warm-up (trtexec's rule; the log counts none) and are left out")
    elif times_run.warmup_dropped == 1:
        words.append("its first iteration is the warm-up the log counts and is left out")
    elif times_run.warmup_dropped:
        words.append(f"its first {times_run.warmup_dropped} iterations are the warm-up the log counts and are left out")
    if timing in times_run.derivation:
        words.append(f"{timing} is {times_run.derivation[timing]}, resolved to "
                     f"{times_run.resolution_ms[timing]:g} ms by the timestamps' printed digits")
    note = "; ".join(words)
    result["note"] = f"{result['note']}; {note}" if result.get("note") else note


# trtexec (8.0 on) warns "GPU compute time is unstable" when its coefficient of variation is above 1 %
# (kUNSTABLE_PERF_REPORTING_THRESHOLD in its sampleReporting.cpp), as a fraction
UNSTABLE_CV = 0.01


def flag_unstable_times(result: dict, times_name: str, array_index: int) -> None:
    """Mark a GPU compute ``result`` computed from a times array without its log unstable, as trtexec would have
    warned in the log: its iterations' coefficient of variation (``distribution.cv``, a fraction) above
    :data:`UNSTABLE_CV`. A log's own warning is read instead where the log is given (:func:`from_summary`).
    Case (a new user's trial, session 29): the exported times of trex's QAT MobileNet spread 0.442 to 1.99 ms,
    a coefficient of variation of 36 %, and the README called nothing unstable."""
    cv = (result.get("distribution") or {}).get("cv")
    if result.get("timing") != "gpu_compute" or not isinstance(cv, (int, float)) or cv <= UNSTABLE_CV:
        return
    result["unstable"] = True
    # the reason states the figure at one decimal, so the README and SG213 print it so, not the 12 digits kept
    result["unstable_reason"] = (f"coefficient of variation {format_number(100 * cv, 1)}% over the "
                                 f"{result['distribution']['samples']} GPU compute times of {times_name} (array "
                                 f"{array_index + 1}), above the 1% at which trtexec warns that GPU compute time "
                                 "is unstable")


def from_times(values: list[float], timing: str, base: dict, run: TrtexecRun | None) -> dict:
    """A latency result computed from per-iteration times (ms) alone, with
    trtexec's statistics (:func:`.times.timing_statistics`)."""
    stats = timing_statistics(values)
    statistics_ms = {k: stats[k] for k in ("min", "max", "mean", "median", "p90", "p95", "p99", "std")}
    return dict(base, kind=Kind.LATENCY, timing=timing, statistic="median", value_ms=stats["median"],
                statistics_ms=statistics_ms, method=timing_method(run))
