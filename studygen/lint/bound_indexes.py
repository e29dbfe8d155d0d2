"""Indexes that let a bound stated for every row of a table
(:mod:`studygen.lint.stated_bounds`) find the rows breaking it by bisection:
a document of N claims over a table of M rows costs about N log M, not
N x M (4,000 "all engines finish under N ms" claims over 4,000 rows took
12.8 s; 4,000 "every engine is within N% of engineK" claims, each with a
reference row of its own, 57 s).

Each index is built once per table and column (or pair of columns) and kept
in the table's ``pair_cache``. What a row breaking a bound means is decided by
the caller's own test (``breaks``), the one the row-by-row reading applies:
an index only narrows the rows that test must see, so its answer is the
row-by-row reading's, row for row. Each query returns the first
:data:`MAX_SHOWN` breaking rows in table order and how many break.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from .document import Series, Table
from .rounding import Interval, stands_for

MAX_SHOWN = 3
# relative slack around a threshold worked out in another order of float operations than the caller's test:
# the rows that close to it are given to the test itself
_SLACK = 1e-9


class BoundIndex:
    """One column's cells over a table's every row, ordered by their
    interval's low ends (falling) and high ends (rising), so that the cells
    beyond a bound are a prefix of one order, found by bisection. With
    ``positive`` only the cells whose interval reaches above 0 are held (a
    relative difference is read only between positive figures)."""

    def __init__(self, series: Series, rows: list[int], positive: bool = False):
        cells = [(row, stands_for(series.values[row])) for row in rows if series.values[row] is not None]
        if positive:
            cells = [cell for cell in cells if cell[1].hi > 0]
        self.by_lo = sorted(cells, key=lambda cell: -cell[1].lo)  # broken by an upper bound: a prefix
        self.by_hi = sorted(cells, key=lambda cell: cell[1].hi)  # broken by a lower bound: a prefix
        self.lo_keys = [-interval.lo for _, interval in self.by_lo]
        self.hi_keys = [interval.hi for _, interval in self.by_hi]
        self.first_lo = first_rows(self.by_lo)
        self.first_hi = first_rows(self.by_hi)
        # the widest half interval of a cell: how far a cell's high end can lie above its low end, halved
        self.widest_half = max(((interval.hi - interval.lo) / 2 for _, interval in cells), default=0.0)

    @classmethod
    def of(cls, table: Table, series: Series, rows: list[int], positive: bool = False) -> BoundIndex:
        """The index of ``series`` over ``rows`` (the table's every row), built once per table and column."""
        key = ("bound index", series.column, series.header, positive)
        if key not in table.pair_cache:
            table.pair_cache[key] = cls(series, rows, positive)
        return table.pair_cache[key]

    def broken(self, limit: float, upper: bool) -> tuple[list[int], int]:
        """(the first :data:`MAX_SHOWN` rows, in table order, whose cells lie beyond ``limit``, how many):
        above it (low end over ``limit``) for an upper bound, below it (high end under it) for a lower one."""
        if upper:
            count = bisect_left(self.lo_keys, -limit)  # lo > limit
            return (self.first_lo[count - 1] if count else []), count
        count = bisect_left(self.hi_keys, limit)  # hi < limit
        return (self.first_hi[count - 1] if count else []), count

    def within_broken(self, base: Interval, limit: float, percent: bool,
                      breaks: Callable[[Interval], bool]) -> tuple[list[int], int]:
        """(the first :data:`MAX_SHOWN` rows in table order, how many) of the
        cells ``breaks`` (the caller's test of one cell's interval) says lie
        further than ``limit`` (>= 0: in the column's unit, or in % of the
        larger figure with ``percent``) from the reference's interval ``base``.

        A cell above the reference breaks when its low end lies far enough
        above ``base.hi``, one below when its high end lies far enough under
        ``base.lo``: in the unit, ``limit`` beyond; in %, a low end over
        ``base.hi / (1 - limit/100)`` at least and, for certain, over
        ``(base.hi + 2 * limit/100 * h) / (1 - limit/100)`` with ``h`` the
        column's widest half interval; a high end under
        ``base.lo - limit/100 * base.hi``. Cells between the "at least" and
        "for certain" ends of a side (and within a relative 1e-9 of them) are
        given to ``breaks``; the others are counted by bisection."""
        share = limit / 100.0
        slack = _SLACK * max(1.0, abs(base.lo), abs(base.hi), abs(limit))
        if percent:
            above = ((base.hi / (1.0 - share) - slack, (base.hi + 2 * share * self.widest_half) / (1.0 - share) + slack)
                     if share < 1.0 else None)  # at 100 % or more no cell above a positive reference breaks
            below_end = base.lo - share * base.hi
        else:
            above = (base.hi + limit - slack, base.hi + limit + slack)
            below_end = base.lo - limit
        shown: list[int] = []
        tested: list[int] = []
        count = 0
        if above is not None:
            certain = bisect_left(self.lo_keys, -above[1])  # lo > the certain end
            possible = bisect_left(self.lo_keys, -above[0])  # lo > the least end
            shown += self.first_lo[certain - 1] if certain else []
            tested = [row for row, interval in self.by_lo[certain:possible] if breaks(interval)]
            shown, count = shown + tested, count + certain + len(tested)
        certain = bisect_left(self.hi_keys, below_end - slack)  # hi < the end, for certain
        possible = bisect_left(self.hi_keys, below_end + slack)
        shown += self.first_hi[certain - 1] if certain else []
        # a cell tested on both sides (a bound within the slack of 0) is counted once
        tested_rows = set(tested)
        tested = [row for row, interval in self.by_hi[certain:possible] if breaks(interval) and row not in tested_rows]
        return sorted(shown + tested)[:MAX_SHOWN], count + certain + len(tested)


class GapIndex:
    """Each row's figure in one column set against another column's figure of
    the same row, reduced to one number by ``gap`` (None: the row is not
    read), ordered falling, so that the rows whose gap exceeds a bound are a
    prefix: a bound "within N% of fp16" read against an int8 column, or two
    columns' differences, for any N."""

    def __init__(self, series: Series, base: Series, rows: list[int],
                 gap: Callable[[Interval, Interval], float | None]):
        cells = []
        for row in rows:
            value, reference = series.values[row], base.values[row]
            if value is None or reference is None:
                continue
            amount = gap(stands_for(value), stands_for(reference))
            if amount is not None:
                cells.append((row, amount))
        self.by_gap = sorted(cells, key=lambda cell: -cell[1])
        self.keys = [-amount for _, amount in self.by_gap]
        self.first = first_rows(self.by_gap)

    @classmethod
    def of(cls, table: Table, series: Series, base: Series, rows: list[int], kind: str,
           gap: Callable[[Interval, Interval], float | None]) -> GapIndex:
        """The index of ``series`` against ``base`` over ``rows`` (the table's every row) by the gap ``kind``
        names, built once per table, pair of columns and kind."""
        key = ("gap index", kind, series.column, series.sub, base.column, base.sub)
        if key not in table.pair_cache:
            table.pair_cache[key] = cls(series, base, rows, gap)
        return table.pair_cache[key]

    def broken(self, limit: float) -> tuple[list[int], int]:
        """(the first :data:`MAX_SHOWN` rows in table order whose gap exceeds ``limit``, how many)."""
        count = bisect_left(self.keys, -limit)  # gap > limit
        return (self.first[count - 1] if count else []), count


def first_rows(cells: list) -> list[list[int]]:
    """For each prefix of ``cells`` ((row, anything) pairs), its :data:`MAX_SHOWN` smallest rows in order."""
    firsts, kept = [], []
    for row, _ in cells:
        kept = sorted([*kept, row])[:MAX_SHOWN]
        firsts.append(kept)
    return firsts


__all__ = ["BoundIndex", "GapIndex", "MAX_SHOWN", "first_rows"]
