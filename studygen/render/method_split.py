"""Jobs of one cell split by a timing-method setting: does the setting move the figure more than jobs move it anyway?

A method setting (for example ``method.pinned_cores``: the timing process pinned
to a set of cores) is tried by measuring the same cells in jobs with it and
jobs without it. A difference between the two sides says something only where
it is larger than the difference between two jobs of the same side: so, per
cell, the table gives each side's figures, how far apart the jobs with the
setting lie, and how far each job without it lies outside their range.

Case (issue 26): eager latency at 800 x 1067 on one H200 in two pinned and two
unpinned jobs (fp16: pinned 21.920 and 23.100 ms, unpinned 23.008 and 23.315
ms): the unpinned figures lie inside, or just outside, the range two pinned
jobs span.
"""

from __future__ import annotations

from ..numbers import format_number
from ..records.kinds import Kind
from .produced import cells_of, emit, helper
from .rows import fmt, shape_order
from .spans import SpanHelpers
from .tables import markdown_table
from .escaping import escape_label
from .labels import shape_label


def _setting(row, name: str) -> bool:
    """Whether the row's timing method sets ``name`` (a value that is not empty, None or False)."""
    value = (row.result.get("method") or {}).get(name)
    return value not in (None, False, [], "")


def _outside_percent(value: float, low: float, high: float) -> float:
    """How far ``value`` lies outside ``[low, high]``, in % of the nearer end (0 inside; negative below)."""
    if value > high:
        return 100 * (value - high) / high
    if value < low:
        return -100 * (low - value) / low
    return 0.0


class MethodSplitHelpers(SpanHelpers):
    """Jobs with and without a timing-method setting (see the module docstring)."""

    def _split_cells(self, setting: str, **filters) -> list[tuple[str, str, list, list]]:
        """``(shape, variant, rows with the setting, rows without)`` per latency cell that has both, shapes by size."""
        cells: dict[tuple, tuple[list, list]] = {}
        for row in self.figures(kind=Kind.LATENCY, **filters).rows:
            if row.value is None:
                continue
            with_it, without = cells.setdefault((row.shape, row.variant), ([], []))
            (with_it if _setting(row, setting) else without).append(row)
        order = self._variant_order()
        found = [(shape, variant, a, b) for (shape, variant), (a, b) in cells.items() if a and b]
        return sorted(found, key=lambda cell: (shape_order(cell[0]), order.get(cell[1], len(order))))

    @helper("table", markdown=True)
    def method_split_table(self, setting: str, with_words: str, without_words: str, **filters) -> str:
        """Per latency cell measured both with and without ``method.<setting>``:
        the figures of each side (ms), how far apart the jobs with the setting
        lie (max minus min, in % of the min) and how far each job without it
        lies outside their range (in % of the nearer end, ``inside`` when in
        it). ``with_words`` and ``without_words`` head the two sides' columns."""
        pct = self.spec.get("precision", {}).get("cv_percent", 1)
        headers = ["Shape HxW", "Variant", f"{with_words} ms", f"{without_words} ms", f"{with_words} apart",
                   f"{without_words} outside the {with_words.lower()} range"]
        body, rows = [], []
        with cells_of(headers, body):
            for shape, variant, with_it, without in self._split_cells(setting, **filters):
                low, high = min(r.value for r in with_it), max(r.value for r in with_it)
                outside = [_outside_percent(r.value, low, high) for r in without]
                body.append([shape_label(shape), escape_label(self._label(variant)),
                             ", ".join(fmt(r.value, r) for r in with_it), ", ".join(fmt(r.value, r) for r in without),
                             f"{format_number(100 * (high - low) / low, pct)}%",
                             ", ".join("inside" if v == 0 else f"{format_number(v, pct, sign=True)}%" for v in outside)])
                rows += [*with_it, *without]
        return emit(markdown_table(body, headers), rows, headers)

    @helper("figure")
    def method_split_summary(self, setting: str, **filters) -> str:
        """In words, over the cells of :meth:`method_split_table`: in how many
        cells a job without the setting lies above, and below, the range of
        the jobs with it, the farthest such job (% of the nearer end), in how
        many cells such a job lies farther out than that cell's jobs with the
        setting lie apart, and how far apart two jobs with the setting lie in
        any cell (% of the lower)."""
        pct = self.spec.get("precision", {}).get("cv_percent", 1)
        cells = self._split_cells(setting, **filters)
        if not cells:
            return emit("no cell was measured both ways")
        apart, farthest, above, below, beyond, rows = 0.0, 0.0, 0, 0, 0, []
        for _, _, with_it, without in cells:
            low, high = min(r.value for r in with_it), max(r.value for r in with_it)
            cell_apart = 100 * (high - low) / low
            gaps = [_outside_percent(r.value, low, high) for r in without]
            apart = max(apart, cell_apart)
            above += any(gap > 0 for gap in gaps)
            below += any(gap < 0 for gap in gaps)
            beyond += any(abs(gap) > cell_apart for gap in gaps)
            farthest = max([farthest, *(abs(gap) for gap in gaps)])
            rows += [*with_it, *without]
        text = (f"of {len(cells)} cells, a job without the setting lies above the range of the jobs with it in {above} "
                f"and below it in {below}")
        if above or below:
            text += (f", by at most {format_number(farthest, pct)}%, and in {beyond} of them by more than that cell's "
                     f"jobs with the setting lie apart")
        text += f"; two jobs with the setting lie up to {format_number(apart, pct)}% apart in one cell"
        return emit(text, rows)
