"""One rule for rounding: what a printed figure stands for, and when a figure
derived from printed figures is consistent with them.

**A printed figure stands for an interval**: every value that prints as it.
``0.97`` stands for 0.965 to 0.975, ``1040`` for 1039.5 to 1040.5
(:func:`stands_for`). Two kinds of figure are exact, their interval the value
itself: a whole-number count written as a share of a total (``26/100``
requests, ``3997/4000`` calls: events are counted, not rounded; see
:func:`studygen.lint.figures.mark_counts`), and a small whole number from 0
to 4 without a unit (a batch size of 1, 2 GPUs, 0 errors: such figures are
counts printed as they are, and their interval would otherwise be half
their value wide and fit anything). Exactness is a property of inputs: a
derived figure is always read as rounded.

**A derived figure is consistent** (a ratio, a percentage, a difference, a
mean) when some inputs inside their intervals give a value that prints as
the derived figure: the formula's interval over the inputs' intervals
(interval arithmetic: every formula here is monotone in each input, so the
interval is the least and greatest value at the intervals' corners) meets
the derived figure's interval (:func:`verdict`). ``1040 s / 67 s`` printed
``15.64x`` is consistent: 1040 / 66.5 = 15.64 is allowed.

**Truncation.** A derived figure cut at its printed digits instead of
rounded (``1.697`` printed ``1.69``; ``-0.297`` printed ``-0.29``) is
*consistent, truncated*: lint never reports it. Truncating is a printing
convention (``int()``, ``floor``, spreadsheets set to cut), not a wrong
figure; a reader recomputing it finds the same digits, and what the figure
claims is not changed by the last digit. The computed interval must meet
``[printed, printed + one last digit)`` (towards zero for a negative
figure) for this to hold, so a figure off by more than its last digit is
still reported.

A finding states the interval the inputs give and the printed figure
(:func:`gives`), so the reader sees why rounding does not explain it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..numbers import format_number
from ..patterns import lazy_compile
from .figures import Figure, Range, with_unit

_EPSILON = 1e-12
# Whole numbers up to this are counts printed exactly (a batch size, a GPU count).
SMALL_COUNT = 4


class Interval(NamedTuple):
    """The closed interval ``lo`` to ``hi`` (``lo <= hi``)."""

    lo: float
    hi: float

    def meets(self, other: "Interval") -> bool:
        """True when the two intervals share a value (to float precision)."""
        return self.lo <= other.hi + _EPSILON and other.lo - _EPSILON <= self.hi


def is_exact(figure: Figure) -> bool:
    """True for an input figure printed exactly: a counted share (``26/100``,
    marked by :func:`studygen.lint.figures.mark_counts`) or a small whole
    number (0 to :data:`SMALL_COUNT`) without a unit (a count: GPUs, a batch
    size, errors). ``2x`` or ``3 ms`` are rounded like any figure."""
    return figure.exact or (figure.decimals == 0 and figure.unit is None and abs(figure.value) <= SMALL_COUNT)


def stands_for(figure: Figure) -> Interval:
    """The values an input figure stands for given its printed digits
    (itself alone when :func:`is_exact`)."""
    if is_exact(figure):
        return Interval(figure.value, figure.value)
    return printed_interval(figure)


def printed_interval(figure: Figure) -> Interval:
    """The values that round to ``figure`` at its printed digits (a derived
    or summary figure is always rounded, even a whole one)."""
    half = figure.half_step
    return Interval(figure.value - half, figure.value + half)


def covers(lo: Figure, hi: Figure, value: float) -> bool:
    """True when ``value`` lies in the range ``lo`` to ``hi`` as printed:
    from the low end of ``lo``'s interval to the high end of ``hi``'s
    (``0.19 to 0.21`` covers 0.185 to 0.215)."""
    return lo.value - lo.half_step - 1e-9 <= value <= hi.value + hi.half_step + 1e-9


def truncation_interval(figure: Figure) -> Interval:
    """The values that print as ``figure`` when cut (not rounded) at its
    digits: ``1.69`` for 1.690 to 1.700, ``-0.29`` for -0.300 to -0.290
    (the end away from zero itself is excluded by :func:`verdict`)."""
    step = 2 * figure.half_step
    if figure.value >= 0:
        return Interval(figure.value, figure.value + step)
    return Interval(figure.value - step, figure.value)


# "around 50-60 ms", "about 5 to 8 s", "~0.5-0.6": a hedge right before a range
_RANGE_HEDGE_RE = lazy_compile(r"(?:\b(?:around|about|roughly|approximately|approx\.)|~|≈)\s*$", re.IGNORECASE)


def hedged_range(text: str, rng: Range) -> Range:
    """``rng`` (offsets into ``text``) with each end standing for the values
    that round to it at its own significant digits when a hedge ("around",
    "about", "roughly", "~") stands right before it: "about 50-60 ms" covers
    45 to 65 ms, as "about 60%" stands for 55 to 65%; an end printed with
    decimals keeps them ("around 0.5-0.6" is 0.45 to 0.65). ``rng`` itself
    without a hedge."""
    if not _RANGE_HEDGE_RE.search(text, max(0, rng.start - 16), rng.start):
        return rng
    return rng._replace(lo=_significant(rng.lo), hi=_significant(rng.hi))


def _significant(figure: Figure) -> Figure:
    """``figure`` rounded at its last significant digit: a whole number's
    trailing zeros do not count among its digits (60 stands for 55 to 65)."""
    digits = figure.text.lstrip("+-−").replace(",", "")
    if figure.decimals > 0 or figure.value == 0 or not digits.isdigit():
        return figure
    zeros = len(digits) - len(digits.rstrip("0"))
    return figure._replace(decimals=-zeros) if zeros else figure


def verdict(computed: Interval, printed: Figure) -> str | None:
    """``"rounded"`` when ``computed`` meets the interval ``printed`` stands
    for, ``"truncated"`` when it meets only its truncation interval (see the
    module docstring), None when neither: the printed figure does not follow."""
    if computed.meets(printed_interval(printed)):
        return "rounded"
    cut_lo, cut_hi = truncation_interval(printed)
    # the end of a cut away from zero prints as the next figure, not this one (1.700 and -0.300 are not cut 1.69, -0.29)
    if printed.value >= 0:
        reaches = computed.lo < cut_hi - _EPSILON and cut_lo - _EPSILON <= computed.hi
    else:
        reaches = computed.lo <= cut_hi + _EPSILON and cut_lo + _EPSILON < computed.hi
    return "truncated" if reaches else None


def consistent(computed: Interval, printed: Figure) -> bool:
    """True when ``printed`` follows from ``computed``, rounded or truncated."""
    return verdict(computed, printed) is not None


def quotient(a: Interval, b: Interval) -> Interval | None:
    """``a / b`` over intervals; None when ``b`` may be zero."""
    b_lo, b_hi = b
    if b_lo <= 0 <= b_hi:
        return None
    a_lo, a_hi = a
    values = (a_lo / b_lo, a_lo / b_hi, a_hi / b_lo, a_hi / b_hi)
    return Interval(min(values), max(values))


def gives(computed: Interval, printed: Figure, unit: str | None = None) -> str:
    """The interval the inputs give, as a finding states it beside the
    recomputed value: `` (2.279x to 2.390x within the printed digits)``, at
    one digit more than ``printed`` shows so the reader sees that rounding
    does not reach the printed figure; "" when both ends print alike (the
    recomputed value says it all)."""
    unit = unit or printed.unit
    decimals = printed.decimals + 1
    low, high = format_number(computed.lo, decimals), format_number(computed.hi, decimals)
    if low == high:
        return ""
    return f" ({with_unit(low, unit)} to {with_unit(high, unit)} within the printed digits)"


__all__ = ["Interval", "consistent", "covers", "gives", "hedged_range", "is_exact", "printed_interval", "quotient", "stands_for",
           "truncation_interval", "verdict"]
