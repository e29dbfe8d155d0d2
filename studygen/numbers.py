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

_new_float = float.__new__


class SourceFloat(float):
    """A float parsed from JSON text, keeping that text in ``.source``."""

    # A slot, not an instance dict: the JSON reader makes one per float literal
    # (dozens a record), and a dict each made that about 40 % slower.
    __slots__ = ("source",)

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
        exponent = Decimal(value.source).as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else None
    return None


def format_number(value, decimals: int | None = None, *, sign: bool = False) -> str:
    """``value`` with ``decimals`` digits (default: as its source printed it,
    else the shortest repr). Rounds half away from zero on the decimal text,
    so 0.125 with 2 digits prints 0.13 as a reader expects."""
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
    exact = Decimal(value.source) if isinstance(value, SourceFloat) else Decimal(repr(value))
    with localcontext() as context:  # enough digits for any float (1e300 with 3 decimals), not the default 28
        context.prec = max(28, exact.adjusted() + decimals + 2)
        rounded = exact.quantize(quantum, rounding="ROUND_HALF_UP")
    if rounded == 0:
        rounded = abs(rounded)  # no "-0.00"
    text = f"{rounded:f}"
    if sign and rounded > 0:
        text = "+" + text
    return text
