"""Match an ``--exportTimes`` array to the log run that wrote it: drop the
warm-up iterations some writers export, and refuse an array whose count or
figures the log's own summary contradicts (a times file from another run).

The warm-up rule is trtexec's own (``printPerformanceReport`` in
``samples/common/sampleReporting.cpp``): the trace's iterations are in time
order, and the warm-up ends at the first whose compute starts at or after
the warm-up duration (``startComputeMs >= warmupMs``); the log prints the
count and the duration (``Warmup completed N queries over T ms``; queries
are iterations times the implicit batch; where the log gives no count, the
rule alone picks the warm-up). An array holds either the timed
iterations only (the log's ``Timing trace has N queries``) or the warm-up
ones too (TensorRT 7, and the 8.2-era writers that print ``endToEndMs``):
then its first N iterations must be exactly those that start computing
before T ms, and they are left out. In the TensorRT 7 fixture this gives 55
warm-up iterations of 1013 at batch 1 (958 timed) and 29 of 477 at batch 4
(116 queries, 448 timed), and the rest reproduces the log's summary (batch
1 Host Latency median 3.09796 ms, 99th percentile 3.4563 ms).

The summary check compares every statistic the log prints for a timing with
the same statistic of the array (trtexec's rules,
:func:`.times.timing_statistics`), allowing the last printed digit of both
(six significant digits each) and, for a timing derived from two stamps,
the stamps' resolution.
"""

from __future__ import annotations

from ...errors import InputError
from .runs import TrtexecRun
from .times import TimesRun, printed_step, timing_statistics


def _another_run(times_display: str, times_run: TimesRun, run: TrtexecRun, log_display: str, why: str) -> InputError:
    return InputError(f"array {times_run.index + 1} does not come from {run.label} of {log_display}: {why}; "
                      "a times file from another run? nothing recorded", path=times_display,
                      line=times_run.line)


def drop_warmup(times_run: TimesRun, run: TrtexecRun, times_display: str, log_display: str) -> TimesRun:
    """``times_run`` without the warm-up iterations it holds (see the module
    docstring). Raises InputError when its count is neither the run's timed
    iterations nor those plus its warm-up, or the warm-up it would drop is
    not the one trtexec's rule finds in its timestamps."""
    timed, warmup = run.timed_iterations(), run.warmup_iterations()
    count = times_run.iterations
    if timed is None:
        return _drop_warmup_by_rule(times_run, run)
    if count == timed:
        return times_run
    if warmup is None or count != timed + warmup:
        expected = f"{timed}" + (f" (or {timed + warmup} with its {warmup} warm-up iterations)" if warmup else "")
        raise _another_run(times_display, times_run, run, log_display,
                           f"it holds {count} iterations, the run timed {expected}")
    starts, warmup_ms = times_run.compute_starts, run.warmup_ms
    if starts is not None and warmup_ms is not None:
        by_rule = warmup_count(starts, warmup_ms)
        if by_rule != warmup:
            raise _another_run(times_display, times_run, run, log_display,
                               f"{by_rule} iterations start computing before the {warmup_ms} ms warm-up, the log "
                               f"counts {warmup} warm-up iterations")
    return times_run.without_first(warmup)


def warmup_count(compute_starts: list[float], warmup_ms: float) -> int:
    """How many leading iterations trtexec counts as warm-up: those whose
    ``startComputeMs`` (``compute_starts``, ms, as ``--exportTimes`` writes
    them) is below the run's warm-up duration ``warmup_ms``; all of them when
    none starts later. The one place the rule is written (aligning an
    array with its log, and dropping the warm-up of a TensorRT 7 run)."""
    return next((position for position, start in enumerate(compute_starts) if start >= warmup_ms),
                len(compute_starts))


def _drop_warmup_by_rule(times_run: TimesRun, run: TrtexecRun) -> TimesRun:
    """An array whose writer exports the warm-up, of a run whose log gives no
    query counts (TensorRT 7 prints them as 0 for an explicit-batch engine)
    but the warm-up duration: its leading iterations that start computing
    before that duration (trtexec's own rule) are left out. Unchanged when
    the writer skips the warm-up or the log or array lacks what the rule needs."""
    starts, warmup_ms = times_run.compute_starts, run.warmup_ms
    if not times_run.warmup_exported or starts is None or warmup_ms is None:
        return times_run
    by_rule = warmup_count(starts, warmup_ms)
    return times_run.without_first(by_rule) if by_rule else times_run


def check_summary(times_run: TimesRun, run: TrtexecRun, times_display: str, log_display: str) -> None:
    """Refuse (InputError) an array whose statistics differ from the run's
    printed summary by more than the printed digits (and the resolution of
    derived timings) allow."""
    for timing, summary in run.summary.items():
        values = times_run.timings.get(timing)
        if not values:
            continue
        computed = timing_statistics(values)
        resolution = times_run.resolution_ms.get(timing, 0.0)
        for name, printed in summary.statistics_ms.items():
            if name not in computed:
                continue
            ours = computed[name]
            allowed = printed_step(printed) + printed_step(ours) + resolution
            if abs(ours - printed) > allowed * 1.0001:
                raise _another_run(times_display, times_run, run, log_display,
                                   f"its {timing} {name} is {ours:g} ms, the log prints {printed} ms (line "
                                   f"{summary.line})")


def align(times_run: TimesRun, run: TrtexecRun, times_display: str, log_display: str) -> TimesRun:
    """The array as its run measured it: warm-up dropped
    (:func:`drop_warmup`), then checked against the summary
    (:func:`check_summary`). Raises InputError."""
    aligned = drop_warmup(times_run, run, times_display, log_display)
    check_summary(aligned, run, times_display, log_display)
    return aligned
