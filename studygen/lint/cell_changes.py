"""A table cell that prints its own change beside its figure (SG103):
``3.51 s (−4.2%)`` in a column of stage totals.

The cell holds a figure and, in parentheses right after it, a signed
percentage and nothing else. The change is against a figure of the same
table, which the cell does not name; it is read against each figure it may
be against:

- the first figure above it in its column (the baseline a progression
  starts from) and the nearest figure above it (the step before);
- the figures of the same row in the table's other columns of the cell's unit
  (``| 12.0 GB | 8.0 GB (−33%) |``: the change from the column before);
- for a ratio (``0.52x (−48%)``), the ratio itself: its change from 1.

A reference gives the change when ``(v - r) / r`` or ``(v - r) / v`` of the
cell's figure ``v`` and the reference ``r`` prints as the percentage, over
their printed intervals (:mod:`studygen.lint.rounding`; truncation allowed),
with the printed sign or, as writers print a reduction either way, without
it. Only when the table holds a reference and none gives the change is it
reported, naming the first and nearest rows above and what they give. A
cell whose column holds no figure above it and whose row no other figure
of its unit is left unread: its reference lies outside the table.

Cases: ``tests/lint/test_cell_changes.py``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from ..numbers import format_number
from ..patterns import lazy_compile
from .derived import fits
from .document import Document, Table
from .figures import Figure, figures_of

HINT = "recompute the change from the figure it is against (the first row, the row above), or say which figure that is"

# the cell's figure, then a parenthesis holding one signed percentage and nothing else; the figure's run of digits,
# points and commas is taken whole (possessive: what follows may start with a point or comma too, and trying each
# split of a 50,000-comma cell took 9.6 s of CPU, quadratic; the cells matched are the same)
_SHAPE_RE = lazy_compile(r"^[*_\s]*[\d.,]++[^()\d]*\(\s*[+\-−–]\s*[\d.]+\s*%\s*\)[*_\s]*$")
MAX_NAMED = 8  # references a finding prints: a row of 2,000 change cells printed 2,000 in each (100 KB a finding)
_FORMULAS = ("relative_second", "relative_first")  # (v - r) / r, (v - r) / v


def _cell_change(cell: str) -> tuple[Figure, Figure] | None:
    """(figure, signed change) of a cell shaped ``3.51 s (−4.2%)``, else None."""
    if "%" not in cell or "(" not in cell or not _SHAPE_RE.match(cell):
        return None
    found = figures_of(cell)
    if len(found) != 2 or found[1].unit != "%" or found[0].unit == "%":
        return None
    return found[0], found[1]


def _gives(value: Figure, reference: Figure, change: Figure) -> bool:
    """Whether ``change``, as signed or with the other sign, is the change from ``reference`` to ``value``."""
    flipped = change._replace(value=-change.value)
    return any(fits(formula, value, reference, stated) for formula in _FORMULAS for stated in (change, flipped))


def _column_figures(table: Table, column: int) -> list[Figure | None]:
    """The figure of each row of ``column``, its unit the cell's or else the
    column's: a cell printing its change gives its own figure (it is no value
    of its column's series, which holds cells of one figure)."""
    series = next((s for s in table.series if s.column == column), None)
    unit = series.unit if series is not None else None
    figures: list[Figure | None] = []
    for index, row in enumerate(table.rows):
        figure = series.values[index] if series is not None and index < len(series.values) else None
        if figure is None and column < len(row.cells):
            read = _cell_change(row.cells[column])
            figure = read[0] if read else None
        figures.append(figure if figure is None or figure.unit else figure._replace(unit=unit))
    return figures


def _references(table: Table, columns: list[list[Figure | None]], column: int, row: int, unit: str | None,
                above: tuple[Figure, Figure] | None, others: bool = True) -> list[tuple[str, Figure]]:
    """(where, figure) of each figure the change in ``column``, ``row`` may be against (module docstring):
    ``above`` the first and the nearest figure of ``unit`` above it, ``columns`` each column's figures
    (:func:`_column_figures`); the figures of the row's other columns only with ``others``."""
    found = []
    if unit == "x":  # "0.52x (−48%)": a ratio printed with its own change, 0.52 - 1
        found.append(("the ratio itself", Figure(1.0, "1", 0, "x", 0, 1, exact=True)))
    if above is not None:
        found.append(("the first row", above[0]))
        if above[1] is not above[0]:
            found.append(("the row above", above[1]))
    for other in range(len(table.headers)) if others else ():
        if other == column or other in table.label_columns:
            continue
        value = columns[other][row]
        if value is not None and value.unit == unit:
            found.append((f"'{table.headers[other]}'", value))
    return found


def _windows(value: Figure, change: Figure) -> list[tuple[float, float]] | None:
    """Intervals holding every value of a reference that can give ``change``
    (either sign, rounded or cut) from ``value``, by either formula; None
    when one is unbounded (a change near -100% or +100% over ``(v - r) / r``).
    A superset: :func:`_gives` decides each reference inside."""
    v_lo, v_hi = value.value - value.half_step, value.value + value.half_step
    reach = 2 * change.half_step  # rounded or cut: the printed figure's step either way
    windows = []
    for signed in (change.value, -change.value):
        c_lo, c_hi = (signed - reach) / 100, (signed + reach) / 100
        # (v - r) / v = c: r = v (1 - c); (v - r) / r = c: r = v / (1 + c)
        products = [v * q for v in (v_lo, v_hi) for q in (1 - c_lo, 1 - c_hi)]
        windows.append((min(products), max(products)))
        if 1 + c_lo <= 0 <= 1 + c_hi:
            return None
        quotients = [v / q for v in (v_lo, v_hi) for q in (1 + c_lo, 1 + c_hi)]
        windows.append((min(quotients), max(quotients)))
    return windows


class _RowIndex:
    """A row's figures in its other columns by value, per unit, so that a
    change cell tests only the figures near those that can give it: a row of
    C change cells made C * C tests (1,000 columns: 42 s)."""

    def __init__(self, figures: list[tuple[int, Figure]]):
        self.by_unit: dict[str | None, tuple[list[float], list[tuple[int, Figure]], float]] = {}
        grouped: dict[str | None, list[tuple[int, Figure]]] = {}
        for column, figure in figures:
            grouped.setdefault(figure.unit, []).append((column, figure))
        for unit, entries in grouped.items():
            entries.sort(key=lambda entry: entry[1].value)
            self.by_unit[unit] = ([f.value for _, f in entries], entries, max(f.half_step for _, f in entries))

    def candidates(self, column: int, value: Figure, change: Figure) -> list[Figure] | None:
        """The figures of other columns of ``value``'s unit that may give
        ``change`` (each tested by the caller); None when every one may."""
        if value.unit not in self.by_unit:
            return []
        values, entries, half = self.by_unit[value.unit]
        windows = _windows(value, change)
        if windows is None:
            return None
        found = {}
        for lo, hi in windows:
            margin = half + 1e-9 * (1 + abs(lo) + abs(hi))
            for other, figure in entries[bisect_left(values, lo - margin):bisect_right(values, hi + margin)]:
                if other != column:
                    found[other] = figure
        return list(found.values())


def _unexplained(table: Table, columns: list[list[Figure | None]], column: int, row: int, value: Figure,
                 change: Figure, above: tuple[Figure, Figure] | None, index: _RowIndex) -> list[tuple[str, Figure]]:
    """The references of the change cell at ``column``, ``row`` (:func:`_references`) when none gives
    ``change``, else []: the row's other columns are tested only near the figures that can give it."""
    own = [ref for _, ref in _references(table, columns, column, row, value.unit, above, others=False)]
    near = index.candidates(column, value, change)
    if any(_gives(value, ref, change) for ref in own):
        return []
    if near is not None and any(_gives(value, ref, change) for ref in near):
        return []
    references = _references(table, columns, column, row, value.unit, above)
    if near is None and any(_gives(value, ref, change) for _, ref in references):
        return []
    return references


def _percent(value: Figure, reference: Figure, decimals: int) -> str:
    change = (value.value - reference.value) / reference.value * 100 if reference.value else float("nan")
    return f"({value.text} - {reference.text}) / {reference.text} = {format_number(change, decimals)}%"


def cell_change_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each cell whose printed change no figure of
    its table gives (see the module docstring). Linear in the table's cells:
    the figures above a cell are carried down its column, per unit."""
    found = []
    for table in document.tables:
        if not any("%" in cell for row in table.rows for cell in row.cells):
            continue  # no cell prints a percentage
        changes = {(column, index): read for index, row in enumerate(table.rows)
                   for column, cell in enumerate(row.cells) if (read := _cell_change(cell)) is not None}
        if not changes:
            continue
        columns = [_column_figures(table, c) for c in range(len(table.headers))]
        indexes = [_RowIndex([(c, columns[c][index]) for c in range(len(table.headers))
                              if c not in table.label_columns and columns[c][index] is not None])
                   for index in range(len(table.rows))]
        for column, header in enumerate(table.headers):
            seen: dict[str | None, tuple[Figure, Figure]] = {}  # unit -> (first, nearest) figure above
            for index, row in enumerate(table.rows):
                value = columns[column][index]  # its unit, the column's where the cell prints none
                read = changes.get((column, index))
                if read is not None and value is not None:
                    change = read[1]
                    above = seen.get(value.unit)
                    references = _unexplained(table, columns, column, index, value, change, above, indexes[index])
                    if references:
                        shown = "; ".join(f"{where} gives {_percent(value, ref, change.decimals)}"
                                          for where, ref in references[:MAX_NAMED])
                        if len(references) > MAX_NAMED:
                            shown += f"; and {len(references) - MAX_NAMED} other columns of the row"
                        found.append((row.line, f"'{' '.join(row.cells[column].split())}' in '{header}' prints a "
                                      f"{change.text}% change that no figure of the table gives: {shown}", HINT))
                if value is not None:
                    first = seen.get(value.unit)
                    seen[value.unit] = (first[0] if first else value, value)
    return found


__all__ = ["cell_change_findings"]
