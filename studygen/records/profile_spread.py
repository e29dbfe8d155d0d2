"""When a kernel-time profile is unstable: its profiled iterations disagree.

A ``kernel_time`` result that keeps each profiled iteration's total
(``per_iteration[*].profiled_total_ms``, ms: ``collect run``'s forwards,
``collect torch-profile``'s ``ProfilerStep#N``) prints the mean over them. One
iteration that the host stalled (another process on a shared machine, a page
fault, the scheduler) lifts that mean far above what the model costs: a user's
``collect run --cpu`` profile of a small ResNet had forwards of 0.398, 0.374,
7.05, 22.6 and 0.396 ms of CPU operator self time, so its README printed a
total of 6.2 ms beside an end-to-end median of 0.32 ms, and ``diff`` read the
next job's figures against that spread.

Rule (:func:`profile_spread_reason`): the profile is unstable when its largest
iteration total is more than :data:`PROFILE_SPREAD_LIMIT` times its smallest. A
stall only adds time, so the smallest iteration is the nearest to what the
model costs, and the ratio also catches a profile most of whose iterations
stalled (that trial's bf16 profile of another job: 19.6, 20.2, 4.15, 24.6 and
15.0 ms, whose largest is only 1.25 times the median). The shipped GPU
profiles (``collect run`` on an H200, five forwards each) lie within 0.5 % of
each other, and the trial's eight CPU profiles 5.8 to 110 times apart; one
forward 1.5 times as long as the other four raises their mean by a tenth. A
profile of one iteration has no spread and is never unstable. ``collect run``
writes the verdict into the result (``unstable``, ``unstable_reason``, as for
its latencies); for a result that states none (records written before,
traces) the study reads it from the iterations
(:attr:`studygen.study.rows.Row.unstable`).

What a profile timed (:func:`cpu_operator_profile`) is decided here too, for
render (what its figures are called) and for the checks that set one job's
kernel times beside another's (SG207: CPU operators' self time and GPU
kernel time are two quantities, never one on two platforms), and what its
figures span (:func:`kernel_span`: a Kineto trace without profiler steps
gives totals over the whole trace, which SG212 never sets beside a mean per
iteration).
"""

from __future__ import annotations

from ..numbers import format_number
from .keys import measured_without_gpu

# The profiler field collect run writes where it has no CUDA device (render reads the name to say what the figures are)
CPU_PROFILER_NAME = "torch.profiler without CUDA"
CPU_PROFILER = f"{CPU_PROFILER_NAME}: CPU operator self time, ms per forward (no GPU kernels)"
PROFILE_SPREAD_LIMIT = 1.5  # largest profiled-iteration total over the smallest, above which a profile is unstable


def cpu_operator_profile(record, result: dict) -> bool:
    """Whether a kernel-time result of ``record`` (a loaded record: its
    ``provenance`` is read) holds CPU operators' self times, no GPU kernels:
    its ``profiler`` says so (:data:`CPU_PROFILER`), or its record states a
    machine without a GPU (:func:`~studygen.records.keys.measured_without_gpu`)."""
    return str(result.get("profiler") or "").startswith(CPU_PROFILER_NAME) or measured_without_gpu(record.provenance)


# What a kernel-time result's figures span (kernel_span); a Kineto trace is what collect torch-profile reads
CPU_SPAN = "CPU operators' self time per forward"
WHOLE_TRACE_SPAN = "a total over the whole trace"
ITERATION_SPAN = "a mean per profiled iteration"
_KINETO_PROFILER = "torch.profiler (Kineto trace"


def kernel_span(record, result: dict) -> str:
    """What the figures of a kernel-time ``result`` of ``record`` span:
    :data:`CPU_SPAN` for a CPU operator profile (:func:`cpu_operator_profile`),
    :data:`WHOLE_TRACE_SPAN` for a Kineto trace read without profiler steps
    (no ``per_iteration``: every kernel the trace holds, warm-up and all),
    else :data:`ITERATION_SPAN` (a step's, a forward's or trtexec's
    per-iteration time)."""
    if cpu_operator_profile(record, result):
        return CPU_SPAN
    if str(result.get("profiler") or "").startswith(_KINETO_PROFILER) and not result.get("per_iteration"):
        return WHOLE_TRACE_SPAN
    return ITERATION_SPAN


def iteration_totals(result: dict) -> list[tuple[str, float]]:
    """``[(label, profiled total ms)]`` of ``result``'s profiled iterations,
    in record order; entries without a numeric total are left out."""
    totals = []
    for number, entry in enumerate(result.get("per_iteration") or [], 1):
        if not isinstance(entry, dict):
            continue
        total = entry.get("profiled_total_ms")
        if isinstance(total, (int, float)) and not isinstance(total, bool):
            totals.append((str(entry.get("label") or f"iteration {number}"), total))
    return totals


def profile_spread_reason(result: dict) -> str | None:
    """Why ``result`` (a kernel-time result) is unstable by the module's rule,
    in words (``forward 4's total 22.576559 ms is 60.4 times forward 2's
    0.373937 ms, over 1.5 times``), or None when it keeps fewer than two
    iteration totals, the smallest is 0, or the largest is within the limit."""
    totals = iteration_totals(result)
    if len(totals) < 2:
        return None
    low_label, low = min(totals, key=lambda item: item[1])
    high_label, high = max(totals, key=lambda item: item[1])
    if low <= 0 or high <= PROFILE_SPREAD_LIMIT * low:
        return None
    return (f"the totals of its {len(totals)} profiled iterations disagree: {high_label}'s {format_number(high)} ms is "
            f"{format_number(high / low, 1)} times {low_label}'s {format_number(low)} ms "
            f"(limit {format_number(PROFILE_SPREAD_LIMIT)} times)")
