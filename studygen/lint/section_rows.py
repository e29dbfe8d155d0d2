"""Tables stacked in sections: a row that only names a section (a bold GPU name
spanning the table, ``| **H100** |``) over the rows measured under it (SG103).

    | Model | Batch | Throughput (tok/s) | TTFT (ms) |
    | **H100** |
    | 7B | 64 | 10,900 | 102 |
    | **A100** |
    | 7B | 64 | 3,680 | 481 |
    | **Speedup** |
    | 7B | 64 | 3.0x | 4.7x |

Read row by row, the ``Speedup`` rows are ratios printed under a throughput
header and their figures belong to no column. :func:`section_views` reads
such a table the other way: one view per numeric column, whose rows are the
row keys (the label cells, ``7B / 64``) and whose columns are the sections
(``H100 Throughput (tok/s)``, ``A100 Throughput (tok/s)``, ``Speedup``). A
section named as a ratio or a difference ("Speedup", "Relative",
"Improvement", "Delta") becomes a derived column of the view, checked as any
derived column (:mod:`studygen.lint.table_model`: the last data section
against the first, either way round), its findings on the derived row's own
line.

A section row is a row whose first cell holds text that is no figure and
whose every other cell is empty; a table is read this way when it has two
section rows or more, each followed by rows, and a key names one row in
each section. Cases: ``sg103_pos_section_rows``, ``sg103_neg_section_rows``.
"""

from __future__ import annotations

from .columns import type_columns
from .document import Row, Table, is_empty_cell
from .figures import tokenize
from .text import DIFFERENCE_WORDS, cached_keywords, ratio_header

_MIN_SECTIONS = 2


def names_derived(label: str) -> bool:
    """True for a label that names a ratio or a difference ("Speedup",
    "Relative goodput", "Saving (ms)")."""
    return ratio_header(label) or bool(DIFFERENCE_WORDS & cached_keywords(label))


def _is_section_row(row: Row) -> bool:
    first, rest = row.cells[0], row.cells[1:]
    return (not is_empty_cell(first) and all(is_empty_cell(cell) for cell in rest)
            and not any(token.figure is not None for token in tokenize(first)))


def sections(table: Table) -> list[tuple[Row, list[Row]]]:
    """(section row, the rows under it) of each section, in table order; []
    when the table has fewer than two section rows each followed by rows
    (rows above the first section row belong to none)."""
    found: list[tuple[Row, list[Row]]] = []
    for row in table.rows:
        if _is_section_row(row):
            found.append((row, []))
        elif found:
            found[-1][1].append(row)
    if len(found) < _MIN_SECTIONS or any(not rows for _, rows in found):
        return []
    return found


def _key(table: Table, row: Row) -> tuple[str, ...]:
    return tuple(" ".join(row.cells[c].split()).lower() for c in table.label_columns)


def _keyed(table: Table, rows: list[Row]) -> dict[tuple[str, ...], Row] | None:
    """Key -> row of one section; None when a key names two rows of it."""
    keyed: dict[tuple[str, ...], Row] = {}
    for row in rows:
        key = _key(table, row)
        if key in keyed:
            return None
        keyed[key] = row
    return keyed


def section_views(table: Table) -> list[Table]:
    """One view per numeric column of a sectioned table with a derived section
    (see the module docstring); [] for any other table. A view's rows carry
    the line of the derived section's row they stand for."""
    found = sections(table)
    derived = [(row, rows) for row, rows in found if names_derived(row.cells[0])]
    data = [(row, rows) for row, rows in found if not names_derived(row.cells[0])]
    if len(derived) != 1 or not data or not table.label_columns:
        return []
    keyed = [(row.cells[0], _keyed(table, rows)) for row, rows in data]
    if any(rows is None for _, rows in keyed):
        return []
    derived_name, derived_rows = derived[0][0].cells[0], derived[0][1]
    labels = [table.headers[c] for c in table.label_columns]
    views = []
    for column in sorted({series.column for series in table.series}):
        header = table.headers[column]
        view = Table(table.order, table.section, table.line, table.end_line,
                     labels + [f"{name} {header}" for name, _ in keyed] + [derived_name], [], table.context)
        for row in derived_rows:
            key = _key(table, row)
            under = [rows.get(key) for _, rows in keyed]
            if any(other is None for other in under):
                continue
            cells = [row.cells[c] for c in table.label_columns] + [other.cells[column] for other in under] + [row.cells[column]]
            view.rows.append(Row(len(view.rows), row.line, cells, view))
        if len(view.rows) >= 2:
            type_columns(view)
            views.append(view)
    return views


__all__ = ["names_derived", "section_views", "sections"]
