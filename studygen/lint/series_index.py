"""Series of one unit in one section, indexed for SG101's range check
(:mod:`studygen.lint.sg101_range_coverage`): by smallest and largest value
and by header measure word, so a range finds the series it may cover without
reading every table of its section (issue 23 item 6: 4,000 small tables each
followed by a range took over a minute)."""

from __future__ import annotations

import bisect

from .document import Document, Series

# A section where more series than this may hold a range (thousands of like tables, each followed by a range)
# is read nearest first, so that lint stays linear in the document's length (attack round: 1 MB, 17.6 s; 2 MB,
# 114 s); no section of a real document has so many tables.
MAX_READ = 64


class SectionSeries:
    """The series of one unit in one section, indexed by their smallest and
    largest values and by their header's measure words, so a range finds the
    ones worth reading without a pass over every table of the section (a
    section of thousands of small tables each followed by a range was
    quadratic: issue 23 item 6)."""

    def __init__(self, series: list[Series]):
        self.series = series
        self.always: list[int] = []  # bounds that compare as nothing (NaN): never skipped
        by_small, by_large = [], []
        self.by_word: dict[str, list[int]] = {}
        for position, one in enumerate(series):
            smallest, largest = one.bounds
            if smallest != smallest or largest != largest:
                self.always.append(position)
            by_small.append((smallest, position))
            by_large.append((largest, position))
            for word in one.measure:
                self.by_word.setdefault(word, []).append(position)
        by_small.sort()
        by_large.sort()
        self.small_keys = [k for k, _ in by_small]
        self.small_order = [p for _, p in by_small]
        self.large_keys = [k for k, _ in by_large]
        self.large_order = [p for _, p in by_large]
        self.orders = [one.table.order for one in series]  # document order: tables in the order they stand

    def lone_measured(self, words: frozenset[str]) -> int | None:
        """Position of the one series whose header shares a measure word with
        ``words``, if exactly one does: the series that may be a range's column
        though all its values lie outside the range ("35-40% speed
        improvement" and a 'Speed Change' column beside a 'PPL Change' one)."""
        hits = set()
        for word in words:
            hits.update(self.by_word.get(word, ()))
            if len(hits) > 1:
                return None
        return hits.pop() if hits else None

    def worth_reading(self, low_edge: float, high_edge: float, lone: int | None, near: int = 0) -> list[Series]:
        """In document order: series with a value range meeting
        ``[low_edge, high_edge]`` (the :data:`MAX_READ` of them nearest table
        order ``near`` where more do), and the one at position ``lone`` (see
        :meth:`lone_measured`)."""
        low_enough = bisect.bisect_right(self.small_keys, high_edge)  # smallest <= high_edge
        high_from = bisect.bisect_left(self.large_keys, low_edge)  # largest >= low_edge
        if min(low_enough, len(self.large_keys) - high_from) > MAX_READ:
            kept = self._nearest_meeting(low_edge, high_edge, near)
        elif low_enough <= len(self.large_keys) - high_from:
            kept = {p for p in self.small_order[:low_enough] if self.series[p].bounds[1] >= low_edge}
        else:
            kept = {p for p in self.large_order[high_from:] if self.series[p].bounds[0] <= high_edge}
        kept.update(self.always)
        if lone is not None:
            kept.add(lone)
        return [self.series[p] for p in sorted(kept)]

    def _nearest_meeting(self, low_edge: float, high_edge: float, near: int) -> set[int]:
        """Positions of the :data:`MAX_READ` series nearest table order
        ``near`` whose value range meets ``[low_edge, high_edge]``, found by
        walking out from ``near`` both ways."""
        kept: set[int] = set()
        after = bisect.bisect_left(self.orders, near)
        before = after - 1
        while len(kept) < MAX_READ and (before >= 0 or after < len(self.series)):
            take_after = before < 0 or (after < len(self.series)
                                        and self.orders[after] - near <= near - self.orders[before])
            position = after if take_after else before
            if take_after:
                after += 1
            else:
                before -= 1
            smallest, largest = self.series[position].bounds
            if smallest <= high_edge and largest >= low_edge:
                kept.add(position)
        return kept


def only_variant_column(document: Document, unit: str | None, words: frozenset[str]) -> Series | None:
    """The one series of ``unit`` in ``document`` whose header names a variant
    (a precision word, :func:`~studygen.lint.text.measure_words` leaves it out)
    among ``words`` (a sentence's keywords), or None when none or several do:
    "fp16 runs in 0.1526 to 0.1530 ms" names the document's one
    'fp16 (ms)' column wherever it stands. Headers are indexed by variant word
    once per unit, since every range asks."""
    cache = document.__dict__.setdefault("_variant_columns_by_word", {})
    by_word = cache.get(unit)
    if by_word is None:
        by_word = cache[unit] = {}
        for series in document.series_by_unit.get(unit, ()):
            for word in series.quantity - series.measure:
                by_word.setdefault(word, []).append(series)
    found: dict[int, Series] = {}
    for word in words & by_word.keys():
        for series in by_word[word]:
            found[id(series)] = series
            if len(found) > 1:
                return None
    return found.popitem()[1] if found else None
