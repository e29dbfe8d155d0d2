"""The digits a Kineto trace's times support, and its ms figures written with them.

A trace's ``dur`` is in µs, written either whole (older PyTorch: 1 µs
resolution, the AlexNet fixture's ``"dur": 71``) or to the ns (newer
PyTorch and ROCm: ``"dur": 9.344``). Every ms figure taken from it is a sum
of durations (or a mean of such sums over profiled steps), so it has as many
decimals as the durations plus three: 0.270 ms from a whole-µs trace, not
0.27, which a record's JSON float would keep and the renderer would print
with one digit fewer than its neighbours (``numbers.SourceFloat`` keeps the
text a figure is written with, so the written digits are the ones read back).

A mean over steps is written at the same resolution: it cannot resolve a
kernel finer than the durations it averages.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from ..numbers import SourceFloat, format_number

US_DECIMALS_MS = 3  # a µs is 0.001 ms
# No profiler clock Kineto reads is finer than 1 ns (three decimals of a µs); more decimals in a
# duration are float noise of a converted trace, not resolution.
FINEST_US_DECIMALS = 3


def duration_decimals(durations_us: Iterable[float]) -> int:
    """Decimals of the finest of ``durations_us`` (a trace's kernel ``dur``
    values as decoded: int or float), trailing zeros not counted, at most
    :data:`FINEST_US_DECIMALS`: 0 for whole µs (``71``, ``71.0``), 3 for ns
    (``9.344``, with others such as ``12.5`` beside it)."""
    finest = 0
    for dur in durations_us:
        if isinstance(dur, int) or float(dur).is_integer():
            continue
        exponent = Decimal(repr(float(dur))).normalize().as_tuple().exponent
        finest = max(finest, min(-exponent, FINEST_US_DECIMALS)) if isinstance(exponent, int) else finest
        if finest == FINEST_US_DECIMALS:
            break
    return finest


def finer_than_ns(durations_us: Iterable[float]) -> bool:
    """Whether any of ``durations_us`` (as decoded: int or float) has more
    decimals than :data:`FINEST_US_DECIMALS` (``3.1234567890123``, or float
    noise such as ``2.0000000000000004``): figures written at that
    resolution are then rounded, which the note must say."""
    return any(isinstance(dur, float) and round(dur, FINEST_US_DECIMALS) != dur for dur in durations_us)


def resolution_words(us_decimals: int, rounded: bool = False) -> str:
    """How a note states the resolution: ``whole µs``, ``µs to 3 decimals``
    or, ``rounded`` (:func:`finer_than_ns`), that the durations carry more
    decimals than that and the figures are rounded to the ns."""
    if rounded:
        return (f"µs to more than {FINEST_US_DECIMALS} decimals (finer than any profiler clock): the times are "
                "rounded to the ns")
    return "whole µs" if us_decimals == 0 else f"µs to {us_decimals} decimal{'s' if us_decimals > 1 else ''}"


def at_decimals(value: float, decimals: int) -> SourceFloat:
    """``value`` (ms) as a figure written with ``decimals`` digits after the
    point (half away from zero, on the decimal text: 0.2705 gives 0.271)."""
    return SourceFloat(format_number(float(value), decimals))


def write_at_resolution(result: dict, decimals: int) -> dict:
    """``result`` (a ``kernel_time`` result of a trace, changed in place and
    returned) with each of its ms figures written with ``decimals`` digits:
    the groups' and their kernels' ``time_ms``, ``profiled_total_ms``,
    ``unclassified_ms`` and each ``per_iteration`` entry's total and group
    times. Shares and counts are left as they are."""
    for group in result.get("groups") or []:
        group["time_ms"] = at_decimals(group["time_ms"], decimals)
        for kernel in group.get("kernels") or []:
            kernel["time_ms"] = at_decimals(kernel["time_ms"], decimals)
    for name in ("profiled_total_ms", "unclassified_ms"):
        if name in result:
            result[name] = at_decimals(result[name], decimals)
    for entry in result.get("per_iteration") or []:
        entry["profiled_total_ms"] = at_decimals(entry["profiled_total_ms"], decimals)
        entry["groups"] = {group: at_decimals(time_ms, decimals) for group, time_ms in entry["groups"].items()}
    return result
