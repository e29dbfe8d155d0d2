"""Table cells that print a range, read as the operands of a derived figure (SG103).

A cell measured by several jobs prints the spread of their figures ("0.3533 to
0.4667 (2 jobs: cpu-1, cpu-1thread)" in studygen's generic README; "14-15" in
other documents): :mod:`studygen.lint.columns` keeps its two ends in the
column's :attr:`~studygen.lint.document.Series.spans`, and its ``values``
entry is None. Where an SG103 reader has already tied a prose ratio or
percent change to two table cells (:mod:`.prose_tables`, :mod:`.prose_rows`,
:mod:`.prose_changes`), such a cell is an operand too, as a
:class:`CellRange`: it stands for every value from what its low end rounds
from to what its high end rounds to (``0.3533 to 0.4667`` for 0.35325 to
0.46675), and a formula of :data:`~studygen.lint.derived.OVER_INTERVALS`
over two such intervals gives every value the derived figure can take (a
ratio ``a / b`` over ``[a_lo, a_hi]`` and ``[b_lo, b_hi]`` is
``[a_lo / b_hi, a_hi / b_lo]``). So the figure is reported only when it lies
outside that whole interval, its own rounding allowed
(:func:`~studygen.lint.rounding.consistent`), and a stated direction
("faster", "cuts") only when every value of the two ranges goes against it.
A single figure is read exactly as before (:func:`interval` is then
:func:`~studygen.lint.rounding.stands_for`), and no new pair of figures is
compared: a range only widens a cell the reader would have read.
"""

from __future__ import annotations

from typing import NamedTuple

from ..numbers import format_number
from .derived import FORMULAS, OVER_INTERVALS
from .document import Series
from .figures import Figure, with_unit
from .rounding import Interval, consistent, stands_for


class CellRange(NamedTuple):
    """A table cell printing a range of one quantity: its ``lo`` and ``hi`` ends (``lo.value < hi.value``)."""

    lo: Figure
    hi: Figure

    @property
    def text(self) -> str:
        """The range as a finding prints it: ``0.3533 to 0.4667``."""
        return f"{self.lo.text} to {self.hi.text}"

    @property
    def value(self) -> float:
        """The middle of the range: where a finding sorts a reading among others, never what is checked."""
        return (self.lo.value + self.hi.value) / 2


Operand = Figure | CellRange


def cell(series: Series, row: int) -> Operand | None:
    """Row ``row`` of ``series`` as an operand: its figure, a :class:`CellRange`
    when the cell prints a range (:attr:`~studygen.lint.document.Series.spans`),
    or None for an empty cell."""
    value = series.values[row]
    if value is not None:
        return value
    ends = series.spans.get(row)
    return CellRange(*ends) if ends else None


def from_ends(ends: tuple[Figure, ...]) -> Operand:
    """An operand from :meth:`~studygen.lint.document.Series.ends` (one figure, or a range's two ends)."""
    return ends[0] if len(ends) == 1 else CellRange(ends[0], ends[-1])


def is_range(*operands: Operand) -> bool:
    """True when any of ``operands`` is a :class:`CellRange`."""
    return any(isinstance(operand, CellRange) for operand in operands)


def interval(operand: Operand) -> Interval:
    """The values ``operand`` stands for: a figure's printed interval, or a
    range's from its low end's lowest to its high end's highest."""
    if isinstance(operand, CellRange):
        return Interval(stands_for(operand.lo).lo, stands_for(operand.hi).hi)
    return stands_for(operand)


def computed(formula: str, a: Operand, b: Operand) -> Interval | None:
    """Every value ``formula`` (a name of :data:`~studygen.lint.derived.OVER_INTERVALS`)
    takes over ``a`` and ``b``; None where it is undefined (a denominator that may be zero)."""
    return OVER_INTERVALS[formula](interval(a), interval(b))


def fits_over(formula: str, a: Operand, b: Operand, derived: Figure) -> bool | None:
    """:func:`~studygen.lint.derived.fits` over operands that may be ranges:
    True when some value of the interval prints as ``derived`` (rounded or
    truncated); None when the formula is undefined over them."""
    values = computed(formula, a, b)
    return None if values is None else consistent(values, derived)


def against(subject: Operand, reference: Operand, sign: int | None) -> bool:
    """:func:`~studygen.lint.ratio_direction.goes_against` over operands that
    may be ranges: True when every value of ``subject`` lies on the other side
    of every value of ``reference`` than ``sign`` (+1: the subject the larger)
    says."""
    if sign is None:
        return False
    a, b = interval(subject), interval(reference)
    return a.hi <= b.lo if sign > 0 else a.lo >= b.hi


def over_ranges(formula: str, a: Operand, b: Operand, derived: Figure, unit: str | None = None) -> str:
    """The derived figure's interval over ``a`` and ``b``, for a finding that
    says it comes from ranges: ``(0.54 to 0.79) / (0.3533 to 0.4667) = 1.15x
    to 2.25x over the ranges the cells print`` (the ends at one digit more than
    ``derived`` shows, so the reader sees that rounding does not reach it)."""
    pattern = FORMULAS[formula][2]
    shown = pattern.format(a=_operand_text(a), b=_operand_text(b))
    values = computed(formula, a, b)
    if values is None:
        return f"{shown} is undefined over the ranges the cells print"
    unit = unit or derived.unit
    decimals = derived.decimals + 1
    low, high = (with_unit(format_number(end, decimals), unit) for end in values)
    return f"{shown} = {low} to {high} over the ranges the cells print"


def _operand_text(operand: Operand) -> str:
    return f"({operand.text})" if isinstance(operand, CellRange) else operand.text


__all__ = ["CellRange", "Operand", "against", "cell", "computed", "fits_over", "from_ends", "interval", "is_range",
           "over_ranges"]
