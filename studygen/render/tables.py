"""Result tables of the view (Markdown via tabulate, GFM pipes).

- :meth:`TableHelpers.table`: a grid, one table row per distinct index tuple
  (GPU and TensorRT by default), one column per variant, then derived columns
  (ratios, reductions, AP differences) computed from the cells.
- :meth:`TableHelpers.list_table`: one table row per selected row.

Every cell printed from a row carries the row's job-to-job spread, and every
record string is escaped for a table cell.
"""

from __future__ import annotations

from ..errors import TemplateError
from .produced import cells_of, emit
from .rows import Row, RowSet
from .spans import SpanHelpers
from .text import escape_cell, gpu_label, shape_label, short_version

INDEX_HEADERS = {"gpu": "GPU", "tensorrt": "TensorRT", "shape": "Shape HxW", "job_id": "Job", "mode": "Mode",
                 "backend": "Backend", "batch": "Batch", "group": "Kernel group", "dataset": "Image set", "variant": "Variant"}
LIST_TABLE_COLUMNS = ("job_id", "gpu", "tensorrt", "shape", "variant", "group", "value")


def markdown_table(body: list[list[str]], headers: list[str]) -> str:
    """A GFM pipe table of already formatted cells (no number parsing, so
    ``5.850`` keeps its digits)."""
    from tabulate import tabulate

    return tabulate(body, headers=headers, tablefmt="github", disable_numparse=True)


def index_label(name: str, value) -> str:
    """A table cell for an index field; record strings (GPU names, versions) are escaped."""
    if name == "gpu":
        return escape_cell(gpu_label(value))
    if name == "tensorrt":
        return escape_cell(short_version(value))
    if name == "shape":
        return escape_cell(shape_label(value))
    return escape_cell("" if value is None else value)


def grid_of(selected: RowSet, index: tuple[str, ...]) -> dict[tuple, dict[str, Row]]:
    """``{index tuple: {variant: row}}`` in the order rows come. Raises
    TemplateError when two rows fall in one cell (same index tuple and
    variant): the template must restrict jobs or add an index field."""
    grid: dict[tuple, dict[str, Row]] = {}
    for row in selected:
        row_key = tuple(row.fields[name] for name in index)
        cell = grid.setdefault(row_key, {})
        if row.variant in cell:
            raise TemplateError(
                f"table: two figures for {dict(zip(index, row_key))} variant {row.variant} "
                f"(jobs {cell[row.variant].job_id} and {row.job_id}); restrict jobs or add an index field")
        cell[row.variant] = row
    return grid


def ordered_keys(grid: dict[tuple, dict[str, Row]], jobs) -> list[tuple]:
    """The grid's index tuples: in the order of ``jobs`` (by the first listed
    job among a tuple's cells) when given, else in the order rows came."""
    if not jobs:
        return list(grid)
    order = {job: i for i, job in enumerate(jobs)}
    return sorted(grid, key=lambda k: min(order[row.job_id] for row in grid[k].values()))


class TableHelpers(SpanHelpers):
    """Grid and list tables (see the module docstring)."""

    def table(self, *, index=("gpu", "tensorrt"), variants=(), jobs=None, value_header="{label}",
              derived=(), **filters) -> str:
        """A Markdown table: one row per distinct ``index`` tuple, one column per
        variant (figures with their job-to-job spread), then derived columns.

        ``derived`` items are ``(kind, a, b, header)`` with kind ``ratio``
        (a / b), ``reduction_percent`` ((a - b) / a in %) or ``delta_points``
        (b - a in AP points). Raises TemplateError when two rows of the chosen
        jobs fall in one cell (pick ``jobs`` or add an index field).
        """
        selected = self.figures(variant=list(variants), job_id=jobs, **filters)
        grid = grid_of(selected, index)
        headers = [INDEX_HEADERS.get(name, name) for name in index]
        headers += [value_header.format(label=escape_cell(self.label(v))) for v in variants]
        headers += [header for (_, _, _, header) in derived]
        with cells_of(headers):
            body = [self._grid_line(index, row_key, grid[row_key], variants, derived)
                    for row_key in ordered_keys(grid, jobs)]
        return emit("table", markdown_table(body, headers), selected.rows, headers)

    def _grid_line(self, index, row_key: tuple, cells: dict[str, Row], variants, derived) -> list[str]:
        """One table row of :meth:`table`: index cells, variant cells, derived cells."""
        line = [index_label(name, value) for name, value in zip(index, row_key)]
        line += [self.with_spread(cells[v]) if v in cells else "not measured" for v in variants]
        for kind, a, b, _ in derived:
            line.append(getattr(self, kind)(cells[a], cells[b]) if a in cells and b in cells else "n/a")
        return line

    def list_table(self, row_set: RowSet, columns=LIST_TABLE_COLUMNS, value_header: str = "Value") -> str:
        """One table row per row of ``row_set`` (every row, in record order)."""
        headers = [value_header if c == "value" else INDEX_HEADERS.get(c, c) for c in columns]
        with cells_of(headers):
            body = [[self._list_cell(row, c) for c in columns] for row in row_set]
        return emit("table", markdown_table(body, headers), row_set.rows, headers)

    def _list_cell(self, row: Row, column: str) -> str:
        """One cell of :meth:`list_table`."""
        if column == "value":
            return self.with_spread(row) if not row.is_range else f"{row.number()} (range over rows not listed)"
        if column == "variant":
            return escape_cell(self.label(row.fields["variant"]))
        return index_label(column, row.fields[column])
