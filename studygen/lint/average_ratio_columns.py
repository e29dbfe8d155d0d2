"""An average speedup column over a row's measured columns (SG103).

A table may time each method at several settings and close each row with the method's average speedup
over a baseline row:

    | Method   | len 512 | len 256 | len 128 | Average speedup |
    | plain    | 410 ms  | 220 ms  | 120 ms  | 1.00x           |
    | compiled | 380 ms  | 200 ms  | 100 ms  | 1.13x           |

Whatever mean the column takes (arithmetic, geometric, harmonic, a median), an average of the row's
per-setting speedups lies between the smallest and the largest of them. :func:`average_ratio_findings`
reports a cell outside that span, widened by the printed digits of every operand and of the cell: no average
of those speedups gives it. The column must be a ratio column whose header names an average ("Average
speed up", "mean speedup (x)", :func:`~studygen.lint.averages.average_kind` of its words less the ratio
words), beside at least two measured columns of one unit; the baseline is the one row printing the
column's identity (``1.00x``) or, failing one, the one row printing zero or nothing there (a placeholder
where the identity is meant) while every other row prints a figure. A time column's speedup is the
baseline's time over the row's, a rate's the row's over the baseline's; a unit of neither kind is read
both ways, and only a cell neither way gives is reported. Rows the column's own declared formula gives
(``given``, from the derived-column reader) are left alone.
"""

from __future__ import annotations

from ..numbers import format_number
from ..patterns import lazy_compile
from .document import Series, Table
from .figures import RATIO_UNITS, with_unit
from .rounding import printed_interval, quotient, stands_for
from .table_model import identity_rows
from .text import normalize, ratio_header
from .variant_pairs import HIGHER_IS_BETTER, kind_of_series

# "average speed up", "avg. speedup (x)", "mean speed-up": an average word, then the ratio's words
_AVERAGE_RATIO_RE = lazy_compile(r"^\W*(?:avg\.?|average|mean|geo\.?\s?mean|geometric\s+mean)\s+(?:speed[\s-]?ups?|gain)\b")
HINT = "recompute the average from the row's speedups over the baseline row, or say what else it averages"


def _baseline(target: Series) -> int | None:
    """The baseline row of ``target`` (see the module docstring), None when no one row is."""
    identity = identity_rows(target)
    if identity:
        return identity[0] if len(identity) == 1 else None
    blank = [i for i, v in enumerate(target.values) if v is None or v.value == 0]
    if len(blank) == 1 and len(target.values) - 1 >= 2:
        return blank[0]
    return None


def _span(operands: list[tuple[Series, int]], base: int, row: int, faster_is_smaller: bool | None):
    """(low, high) of the row's per-column speedups over ``base``, each operand widened by its printed
    digits; None when a quotient is undefined. ``faster_is_smaller`` None: the union of both ways."""
    ways = (True, False) if faster_is_smaller is None else (faster_is_smaller,)
    lows, highs = [], []
    for smaller in ways:
        for series, _ in operands:
            a, b = stands_for(series.values[base]), stands_for(series.values[row])
            ratio = quotient(a, b) if smaller else quotient(b, a)
            if ratio is None:
                return None
            lows.append(ratio.lo)
            highs.append(ratio.hi)
    return min(lows), max(highs)


def average_ratio_findings(table: Table, given: set[tuple[int, int]] = frozenset()) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each average speedup cell no average of its row's speedups gives."""
    found = []
    for target in table.series:
        if not (target.unit in RATIO_UNITS or ratio_header(target.header)) or target.unit == "%":
            continue
        if _AVERAGE_RATIO_RE.match(normalize(target.header)) is None:
            continue
        data = [s for s in table.series if s.unit not in RATIO_UNITS and not ratio_header(s.header)
                and s.column != target.column and s.unit is not None]
        units = {s.unit for s in data}
        if len(data) < 2 or len(units) != 1:
            continue
        base = _baseline(target)
        if base is None:
            continue
        kind = kind_of_series(data[0])
        faster_is_smaller = None if kind is None else kind not in HIGHER_IS_BETTER
        for row, stated in enumerate(target.values):
            if row == base or stated is None or (row, target.column) in given:
                continue
            operands = [(s, row) for s in data if s.values[row] is not None and s.values[base] is not None]
            if len(operands) < 2:
                continue
            span = _span(operands, base, row, faster_is_smaller)
            if span is None:
                continue
            printed = printed_interval(stated)
            if printed.hi >= span[0] and printed.lo <= span[1]:
                continue
            rows = table.rows
            shown = ", ".join(format_number(_middle(s, base, row, faster_is_smaller), 2) for s, _ in operands)
            found.append((rows[row].line,
                          f"{rows[row].name()}: '{target.header}' is {with_unit(stated.text, 'x')} but its "
                          f"{len(operands)} columns give speedups over {rows[base].name()} of {shown} "
                          f"({format_number(span[0], 3)} to {format_number(span[1], 3)}x within the printed "
                          f"digits): no average of them gives it", HINT))
    return found


def _middle(series: Series, base: int, row: int, faster_is_smaller: bool | None) -> float:
    """The row's speedup in ``series`` from the printed figures (time: baseline over row)."""
    a, b = series.values[base].value, series.values[row].value
    if faster_is_smaller is False:
        return b / a if a else float("inf")
    return a / b if b else float("inf")


__all__ = ["average_ratio_findings"]
