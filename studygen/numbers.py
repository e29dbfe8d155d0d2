"""Numbers that remember how their source printed them.

A record's ``5.850`` must print as ``5.850``, not ``5.85``: JSON floats are
parsed into :class:`SourceFloat`, a ``float`` that keeps its source text, so
the renderer prints each figure with the digits its source carries. Arithmetic
on a SourceFloat gives a plain float (derived figures get their precision from
the study file instead).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

# Significant digits a measured time or size prints with when nothing measured
# says how many it supports (no spread, no study-file precision): trtexec prints
# six, but its times are multiples of a timer tick (0.0361328 ms = 37/1024 ms)
# and a run's median moves in the third or fourth digit between runs.
DEFAULT_SIGNIFICANT_DIGITS = 4

_new_float = float.__new__


_UNMADE = object()  # a memo not made yet (None is a value it can hold)


class SourceFloat(float):
    """A float parsed from JSON text, keeping that text in ``.source``."""

    # Slots, not an instance dict: the JSON reader makes one per float literal
    # (dozens a record), and a dict each made that about 40 % slower. ``decimals``
    # is :func:`source_decimals`' memo, set on first use: render asks a kernel
    # time's digits for its group's row and again for the profiled total's.
    __slots__ = ("source", "decimals")

    def __new__(cls, text: str):
        value = _new_float(cls, text)
        value.source = text
        return value

    def __reduce__(self):
        return (SourceFloat, (self.source,))


def source_decimals(value) -> int | None:
    """Digits after the decimal point as the source printed ``value``
    (``5.850`` → 3, ``83.0`` → 1, an int → 0); None for a computed float."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return 0
    if isinstance(value, SourceFloat):
        # A text whose part after its point is ASCII digits alone (5.850: nearly every JSON figure, no exponent,
        # blank or underscore) has as many decimals as that part has digits, which Decimal(text)'s exponent
        # says too (tests/foundation/test_source_decimals.py compares them over generated texts). Counted
        # first, before the memo is asked: asking a memo not made yet raises inside getattr, and with the
        # Decimal that made it, the first ask took 1.5 us of each row's 6.7 (0.4 us so).
        text = value.source
        after = text[text.find(".") + 1:] if "." in text else ""
        if after.isdigit() and after.isascii():
            return len(after)  # counting is as cheap as asking the memo: none is kept
        decimals = getattr(value, "decimals", _UNMADE)
        if decimals is _UNMADE:
            exponent = Decimal(text).as_tuple().exponent
            decimals = value.decimals = max(0, -exponent) if isinstance(exponent, int) else None
        return decimals
    return None


def format_number(value, decimals: int | None = None, *, sign: bool = False) -> str:
    """``value`` (a float, SourceFloat, int or Decimal) with ``decimals``
    digits (default: as its source printed it, else the shortest repr).
    Rounds half away from zero on the decimal text, so 0.125 with 2 digits
    prints 0.13 as a reader expects."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, float) and math.isinf(value):
        # a ratio over a subnormal denominator (2e-313 ms) overflows; say so rather than fail
        return ("+inf" if sign else "inf") if value > 0 else "-inf"
    if decimals is None:
        decimals = source_decimals(value)
    if decimals is None:
        text = repr(float(value))
        return ("+" if sign and value > 0 else "") + text
    quantum = Decimal(1).scaleb(-decimals)
    exact = value if isinstance(value, Decimal) else (
        Decimal(value.source) if isinstance(value, SourceFloat) else Decimal(repr(value)))
    with localcontext() as context:  # enough digits for any float (1e300 with 3 decimals), not the default 28
        context.prec = max(28, exact.adjusted() + decimals + 2)
        rounded = exact.quantize(quantum, rounding="ROUND_HALF_UP")
    if rounded == 0:
        rounded = abs(rounded)  # no "-0.00"
    text = f"{rounded:f}"
    if sign and rounded > 0:
        text = "+" + text
    return text


def carried_decimals(values) -> int | None:
    """The most digits after the point any of ``values`` carries as its
    source printed it (:func:`source_decimals`); None when none carries any
    (computed floats only, or no values)."""
    carried = [d for d in map(source_decimals, values) if d is not None]
    return max(carried) if carried else None


def format_pooled(value, inputs) -> str:
    """A figure pooled from ``inputs`` (their median, a mean) as a message
    prints it: a value that is one of them (a median of an odd count) as its
    source printed it, any other with the most digits an input carries
    (:func:`carried_decimals`): the median of 5.611 and 5.603 prints 5.607,
    not the float 5.606999999999999 its arithmetic gives. The mean of two
    middle values can fall half a step between them, so a value those digits
    would round gets one more (0.04 and 0.05: 0.045, not 0.05, which every
    ratio beside it would contradict). Without carried digits, the shortest
    repr. Finding messages print the figures beside it as their sources did
    (:func:`format_number`)."""
    if isinstance(value, (SourceFloat, int)):
        return format_number(value)
    decimals = carried_decimals(inputs)
    if decimals is not None and abs(float(_rounded(value, decimals)) - value) > abs(value) * 1e-12:
        decimals += 1
    return format_number(value, decimals)


def exact_decimal(value) -> Decimal:
    """``value`` as the decimal its source printed (a SourceFloat), a Decimal
    as it is, else the shortest repr of the float."""
    if isinstance(value, Decimal):
        return value
    return Decimal(value.source) if isinstance(value, SourceFloat) else Decimal(repr(float(value)))


def _rounded(value, decimals: int) -> Decimal:
    """``value`` rounded half away from zero to ``decimals`` digits after the point."""
    exact = exact_decimal(value)
    with localcontext() as context:
        context.prec = max(28, exact.adjusted() + decimals + 2)
        return exact.quantize(Decimal(1).scaleb(-decimals), rounding="ROUND_HALF_UP")


def kept_significant(value, decimals: int, carried: int | None) -> int:
    """``decimals`` (a study file's ``precision:`` for the figure's kind)
    raised, where they would round a nonzero ``value`` to fewer than two
    significant digits, to the decimals that keep two (``precision:
    {latency_ms: 1}`` prints 0.0012 ms as 0.0012, not 0.0, which every ratio
    beside it would contradict), yet never past ``carried``, the digits its
    source has (None: no cap). A zero, None or non-finite value keeps
    ``decimals``."""
    if value is None or isinstance(value, bool) or not math.isfinite(value) or value == 0:
        return decimals
    needed = 1 - exact_decimal(value).adjusted()
    if carried is not None:
        needed = min(needed, carried)
    return max(decimals, needed)


def two_significant_decimals(value: float) -> int:
    """Decimals after the point that show two significant digits of a nonzero
    ``value``: 3 for 0.031, 5 for 0.00024 (a step of 2**-12 ms), 0 for 12.5.
    What a gap beside figures (a difference, a tolerance, a timer resolution)
    prints with when it is far finer than they are."""
    return max(0, 1 - math.floor(math.log10(abs(value))))


def readable_decimals(value, carried: int | None, spread: float | None = None,
                      significant: int = DEFAULT_SIGNIFICANT_DIGITS) -> int | None:
    """Digits after the point a measured figure prints with in a README
    (docs/study-guide.md, "How many digits a figure prints with").

    - A spread (``spread`` > 0, in the figure's unit: the width of the values
      it summarises) sets the last digit printed: the first digit the spread
      moves, i.e. the decimal place of its leading digit (a spread of 0.0023
      ms gives 3 decimals), yet at least two significant digits of ``value``
      (a figure of one digit reads as a count or an order of magnitude, and
      lint takes a bare 0 to 4 for an exact count).
    - Without one, ``significant`` significant digits (default
      :data:`DEFAULT_SIGNIFICANT_DIGITS`); a figure that rounds up across a
      power of ten keeps that count (0.00099996 prints 0.001000, not 0.0010000).
    - Never more than ``carried``, the digits its source supports (a source's
      ``16.2`` never prints ``16.20``), and never fewer than 0 (no rounding of
      whole units: 12345.6 prints 12346).

    ``carried`` None (a computed value) sets no cap; a value of None, zero, an
    infinity or NaN gives ``carried`` back unchanged.
    """
    if value is None or isinstance(value, bool) or not math.isfinite(value) or value == 0:
        return carried
    magnitude = exact_decimal(value).adjusted()  # decimal exponent of the leading digit: 0.0361328 -> -2
    if spread is not None and math.isfinite(spread) and spread > 0:
        # a width is a float difference (10.36 - 10.26 = 0.0999...96): its leading digit read at 12 significant digits
        decimals = max(-Decimal(f"{spread:.12g}").adjusted(), 1 - magnitude)
    else:
        decimals = significant - 1 - magnitude
        if decimals > 0 and _rounded(value, decimals).adjusted() > magnitude:
            decimals -= 1  # rounding carried into the next power of ten: one more digit before the point
    decimals = max(decimals, 0)
    return decimals if carried is None else min(decimals, carried)
