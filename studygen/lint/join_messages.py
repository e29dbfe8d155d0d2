"""How findings about figures paired across tables name them (SG107,
SG103; the pairing is :mod:`.table_joins`).

- :func:`differences`: what keeps two figures apart besides the two things
  compared: a label ("GPU ('RTX 4060 Laptop' against 'RTX 4090')"), a label
  column one table lacks, their columns, the headings above their tables or
  their lead-in lines (the words where they part, "'…engine, CUDA graphs on'
  against '…engine, CUDA graphs off'");
- :func:`unpaired`: why a claim's two sides pair nowhere (how many figures
  each has, where, and what keeps the nearest two apart);
- :func:`paired`: the pairs that go against a claim, with their lines;
- :func:`shown`: a name as the document prints it (the label cell, column
  header or heading).
"""

from __future__ import annotations

from .document import Table
from .header_names import name_words
from .table_joins import COLUMN, Cell, Join, Name, Sides, label_cells, lead_in_line, lead_ins_agree, signature

_CONTEXT_WORDS = 3  # words shown before the first word where two lead-in lines differ
_NEAREST_LIMIT = 64  # figures of each side compared for the nearest unpaired two (a message only)


def _header(table: Table, key: str) -> str:
    """The label column's header as the table prints it."""
    return next((table.headers[c] for c in table.label_columns if " ".join(name_words(table.headers[c])) == key), key)


def _apart(first: str, second: str) -> tuple[str, str]:
    """The two lines from a few words before where they first differ to where they last do."""
    a, b = first.split(), second.split()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    begin = max(0, head - _CONTEXT_WORDS)
    dots = "…" if begin else ""
    return dots + " ".join(a[begin:len(a) - tail]), dots + " ".join(b[begin:len(b) - tail])


def _headings(table: Table) -> str:
    return "'" + " / ".join(reversed(table.headings)) + "'" if table.headings else "no heading"


def and_joined(parts: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def differences(x: Cell, y: Cell, named: Sides) -> list[str]:
    """What tells ``x`` from ``y`` besides the two names (see the module docstring)."""
    found = []
    x_labels = {key: (value, words) for (key, value), words in zip(x.labels, x.label_words)}
    y_labels = {key: (value, words) for (key, value), words in zip(y.labels, y.label_words)}
    x_cells = dict(zip(x_labels, label_cells(x.table, x.row)))
    y_cells = dict(zip(y_labels, label_cells(y.table, y.row)))
    for key in list(x_labels) + [k for k in y_labels if k not in x_labels]:
        a, b = x_labels.get(key), y_labels.get(key)
        if a is None or b is None:
            table = x.table if a is not None else y.table
            found.append(f"{_header(table, key)} (a column of the table at line {table.line} only)")
        elif a[0] != b[0] and not {a[1], b[1]} <= {named.x, named.y}:
            found.append(f"{_header(x.table, key)} ('{x_cells[key]}' against '{y_cells[key]}')")
    first, second = signature(x, named), signature(y, named)
    if first[1:3] != second[1:3]:
        found.append(f"their columns ('{x.table.headers[x.series.column]}' against '{y.table.headers[y.series.column]}')")
    if first[3] != second[3]:
        found.append(f"the headings above their tables ({_headings(x.table)} against {_headings(y.table)})")
    if not lead_ins_agree(x, y, named):
        above = _apart(lead_in_line(x.table).rstrip(":"), lead_in_line(y.table).rstrip(":"))
        found.append(f"the lines above their tables ('{above[0]}' against '{above[1]}')")
    return found


def shown(name: Name, cells: list[Cell], common: frozenset[str]) -> str:
    """A name as the document prints it: the label cell, column header or
    heading of the first cell holding it, else its words."""
    for cell in cells:
        for text, words in zip(label_cells(cell.table, cell.row), cell.label_words):
            if words == name:
                return text
        if (COLUMN, name) in cell.own_names(common):
            return cell.table.headers[cell.series.column]
        if cell.scope.heading_name == name:
            return cell.table.headings[0]
    return " ".join(name)


def _lines(cells: list[Cell]) -> str:
    """"the table at line 9", "the tables at lines 9 and 15" of the cells' tables."""
    lines = sorted({cell.table.line for cell in cells})
    if len(lines) == 1:
        return f"the table at line {lines[0]}"
    return f"the tables at lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}"


def placed(cell: Cell) -> str:
    """"row 'RTX 4090 / 640 x 640' in 'int8 (ms)' (line 17)": where a figure of a join stands."""
    return f"{cell.table.rows[cell.row].name()} in '{cell.table.headers[cell.series.column]}' (line {cell.line})"


def nearest_unpaired(joined: Join) -> tuple[Cell, Cell, list[str]]:
    """The x and y figures of a join that differ in fewest coordinates, and how."""
    best = None
    for x in joined.xs[:_NEAREST_LIMIT]:
        for y in joined.ys[:_NEAREST_LIMIT]:
            found = differences(x, y, joined.sides)
            if best is None or len(found) < len(best[2]):
                best = (x, y, found)
    return best


def names(joined: Join) -> tuple[str, str]:
    """The join's two sides as the document prints them."""
    return shown(joined.sides.x, joined.xs, joined.common), shown(joined.sides.y, joined.ys, joined.common)


def unpaired(joined: Join) -> str:
    """Why a join holds no pair: how many figures each side has, where, and what keeps the nearest two apart."""
    x_name, y_name = names(joined)
    x, y, found = nearest_unpaired(joined)
    return (f"no figure of '{x_name}' ({len(joined.xs)} in {_lines(joined.xs)}) stands beside one of '{y_name}' "
            f"({len(joined.ys)} in {_lines(joined.ys)}) with nothing else different; the nearest two, "
            f"{placed(x)} and {placed(y)}, differ in {and_joined(found)}")


def paired(joined: Join, rows: list[tuple[int, str, str, bool]]) -> str:
    """"the tables at lines 9 and 15 ('int8 (ms)' against 'fp16 (ms)', N pair(s) …): row … has a against b at
    line M" for the pairs ``rows`` (pair index, x text, y text, tied as printed) of a join."""
    x_name, y_name = names(joined)
    first = joined.pairs[0][0]
    keys = [f"'{_header(first.table, key)}'" for (key, _), words in zip(first.labels, first.label_words)
            if words not in (joined.sides.x, joined.sides.y)]
    compared = f"'{x_name}' against '{y_name}', {len(joined.pairs)} pair(s) of figures paired by " \
               f"{and_joined(keys) if keys else 'column'}"
    shown_rows = "; ".join(f"{placed(joined.pairs[i][0])} has {x} against {y} at line {joined.pairs[i][1].line}"
                           f"{' (a tie as printed)' if tied else ''}" for i, x, y, tied in rows[:3])
    more = f" and {len(rows) - 3} more" if len(rows) > 3 else ""
    return f"{_lines([cell for pair in joined.pairs for cell in pair])} ({compared}): {shown_rows}{more}"


__all__ = ["and_joined", "differences", "names", "nearest_unpaired", "paired", "placed", "shown", "unpaired"]
