"""A latency cell pooled over every compilation of every job, as a table prints it.

:class:`PooledCellHelpers` is shared by the compiled tables
(:mod:`.compilations`) and the generic grid (:mod:`.tables`):

- :meth:`PooledCellHelpers._pooled_figure`: the median over every compilation with
  their count and range, ``8.305 (6 compilations: 8.221 to 8.873)``;
- :meth:`PooledCellHelpers._pooled_ratio`: a / b at the medians with its range over
  every pair of compilations;
- :meth:`PooledCellHelpers._pooled_table_cell` and
  :meth:`PooledCellHelpers._pooled_table_ratio`: the generic table's cell of a
  compiled latency of two or more compilations, and a ratio against it, each
  saying what it rests on (``4.15 (2 compilations: 3.66 to 4.65)``).
"""

from __future__ import annotations

from ..numbers import format_number
from ..records.kinds import Kind
from ..study.compilations import PooledCell, pooled_cell
from ..study.rows import Row
from .produced import emit
from .rows import TemplateRow, ViewBase, counted, spread_cells


class PooledCellHelpers(ViewBase):
    """Pooled latency cells and ratios in words (see the module docstring)."""

    def _pooled_figure(self, cell: PooledCell, row_digits: bool = False) -> str:
        """``8.305 (6 compilations: 8.221 to 8.873)``; ``8.362 (9 compilations in 2 jobs: 8.159 to 9.823)``;
        ``8.4 (2 jobs: 8.3 to 8.5)`` for jobs without compilations; ``3.4 (3 compilations, each 3.4)``
        where the ends print alike; ``9.018 (1 compilation)`` for a job that compiled once; the figure
        alone for one job without compilations. ``row_digits``: the
        three figures take their digits as a job-to-job cell's do (:func:`~.rows.spread_cells` of the
        cell's first row: what its record's spread supports, more where the ends would not read as
        their difference), not the study's ``ms`` decimals."""
        count, jobs = len(cell.compilations), len(cell.jobs)
        if count < 2:
            figure = TemplateRow(cell.first).number()
            return emit(f"{figure} (1 compilation)", list(cell.rows), kind="figure") if cell.numbered else figure
        if row_digits:
            low, high, figure = spread_cells([cell.first] * 3, [cell.low, cell.high, cell.median_ms])[0]
        else:
            low, high, figure = self._ms(cell.low), self._ms(cell.high), self._ms(cell.median_ms)
        what = (f"{count} compilations" + (f" in {jobs} jobs" if jobs > 1 else "")) if cell.numbered else f"{jobs} jobs"
        # ends that print alike read as one figure, as a job-to-job cell's equal figures do (tables._cell_figure)
        spread = f"{what}: {low} to {high}" if low != high else f"{what}, each {low}"
        return emit(f"{figure} ({spread})", list(cell.rows), kind="figure")

    @staticmethod
    def _compiled_cell(rows: list[Row]) -> PooledCell | None:
        """The pooled cell of one table cell's latency rows when it rests on
        two or more numbered compilations; None otherwise (another kind, an
        eager cell, one compilation: the table prints those as it always has)."""
        if not rows or any(row.kind != Kind.LATENCY for row in rows):
            return None
        cell = pooled_cell([row for row in rows if row.value is not None])
        return cell if cell.numbered and len(cell.compilations) > 1 else None

    def _pooled_table_cell(self, rows: list[Row]) -> str | None:
        """:meth:`~.tables.TableHelpers.table`'s cell of latency ``rows`` (one
        variant's figures of one table row, every job's) that rest on two or
        more compilations: the median over them with their count and range,
        ``4.15 (2 compilations: 3.66 to 4.65)``, never the median alone
        (which may be no compilation's figure); None for any other cell."""
        cell = self._compiled_cell(rows)
        return self._pooled_figure(cell, row_digits=True) if cell else None

    def _pooled_table_ratio(self, a_rows: list[Row], b_rows: list[Row]) -> str | None:
        """:meth:`~.tables.TableHelpers.table`'s ratio a / b where either side
        rests on two or more compilations (:meth:`_pooled_table_cell`): at the
        medians, then its range over every pair of compilations with their
        number, ``0.79x (4 pairs of compilations: 0.70x to 0.90x)``; None when
        neither side does."""
        if not (self._compiled_cell(a_rows) or self._compiled_cell(b_rows)):
            return None
        a, b = (pooled_cell([row for row in rows if row.value is not None]) for rows in (a_rows, b_rows))
        if not a.compilations or not b.compilations:
            return None
        return self._pooled_ratio(a, b, counted_pairs=True)

    def _pooled_ratio(self, a: PooledCell, b: PooledCell, counted_pairs: bool = False) -> str:
        """``0.90x (0.81x to 1.00x)``: a / b at the medians, and over every pair of compilations;
        ``counted_pairs``: the range says over how many (``0.90x (36 pairs of compilations: 0.81x to 1.00x)``)."""
        d = self.decimals("ratio")
        text = f"{format_number(a.median_ms / b.median_ms, d)}x"
        if len(a.compilations) > 1 or len(b.compilations) > 1:
            low, high = a.ratio_bounds(b)
            over = f"{counted(len(a.compilations) * len(b.compilations), 'pair')} of compilations: " \
                if counted_pairs else ""
            text += f" ({over}{format_number(low, d)}x to {format_number(high, d)}x)"
        same_job = a.same_job_pairs(b)
        return emit(text, [*a.rows, *b.rows], compared=same_job, kind="ratio")
