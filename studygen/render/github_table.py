"""The GFM pipe table of the view's table helpers: the text
``tabulate(body, headers=headers, tablefmt="github", disable_numparse=True)``
gives (tabulate 0.10), character for character, without importing tabulate.

Every table a helper prints is laid out again by the formatter
(:mod:`studygen.markdown_format`), so its padding is only read, never kept;
yet a template may place a table where it does not parse as one (after
text on the same line, indented four spaces, a header with a bare ``|``),
and there the padding is text of the README. So the layout is tabulate's
own, not merely one that formats alike: each data cell stripped
(``str.strip``) and padded on the right to its column's widest cell, a
header padded to its column, columns at least two wider than their header,
widths in terminal columns (``wcwidth.wcswidth``, measured by
:func:`studygen.terminal_width.terminal_width`, which imports wcwidth only
for a text whose width is not its length), a delimiter row of dashes two
wider than each column.

Tables outside what this layout covers go to tabulate itself (imported
then): a cell or header that is not text (``None`` excepted, which prints
as an empty cell), a line break (tabulate lays such a cell over several
lines), an escape character (tabulate measures terminal colour codes as
invisible), a row tabulate reads as a separating line (its first or
second cell ``\\x01``), no header, or a row not as long as the header row.
The helpers' tables, of escaped record strings and figures, are none of
these (tests/render/test_github_table.py compares the two over generated
tables and the shipped READMEs' tables).
"""

from __future__ import annotations

from ..terminal_width import terminal_width as _width

MIN_PADDING = 2  # tabulate's MIN_PADDING: a column is at least two wider than its header
_SEPARATING_LINE = "\x01"  # a row whose first or second cell is this is a separating line to tabulate


def github_table(body: list, headers: list) -> str:
    """``body`` (rows of cells: text, or None for an empty cell) under
    ``headers`` as tabulate's ``github`` format writes them with number
    parsing off (see the module docstring); cells are printed as given,
    so ``5.850`` keeps its digits. Raises what tabulate raises for a table
    this layout does not cover."""
    rows = _rows(body, headers)
    if rows is None:
        from tabulate import tabulate

        return tabulate(body, headers=headers, tablefmt="github", disable_numparse=True)
    columns = [[row[index].strip() for row in rows] for index in range(len(headers))]
    header_widths = [_width(header) for header in headers]
    widths, padded_columns = [], []
    for header_width, cells in zip(header_widths, columns):
        width, padded = _padded_column(cells, header_width + MIN_PADDING)
        widths.append(width)
        padded_columns.append(padded)
    header_cells = [header + " " * (width - header_width)
                    for header, header_width, width in zip(headers, header_widths, widths)]
    lines = [_line(header_cells), "|" + "|".join("-" * (width + 2) for width in widths) + "|"]
    lines.extend(_line(cells) for cells in zip(*padded_columns))
    return "\n".join(lines)


def _rows(body, headers) -> list[list[str]] | None:
    """The rows of ``body`` as lists of text (None as an empty cell) when
    :func:`github_table`'s own layout is tabulate's for the table (a list
    of list or tuple rows as long as ``headers``, a list or tuple of text),
    else None."""
    if type(body) is not list or type(headers) not in (list, tuple) or not headers \
            or any(type(text) is not str for text in headers):
        return None
    rows = []
    for row in body:
        if type(row) not in (list, tuple) or len(row) != len(headers):
            return None
        row = ["" if cell is None else cell for cell in row]
        if any(type(cell) is not str for cell in row) or any(cell.strip() == _SEPARATING_LINE for cell in row[:2]):
            return None
        rows.append(row)
    for text in (*headers, *(cell for row in rows for cell in row)):
        if "\n" in text or "\r" in text or "\x1b" in text:
            return None
    return rows


def _padded_column(cells: list[str], least: int) -> tuple[int, list[str]]:
    """The width of a column of ``cells`` (stripped) whose header asks for
    ``least`` columns, and its cells padded as tabulate's ``_align_column``
    pads them: each with as many spaces as its width falls short of the
    widest (a cell ``wcswidth`` cannot measure, -1, one more). tabulate then
    measures the padded cells again for the column's width; that is the
    widest width whatever they hold, since the widest cell gets no space and
    spaces after a text add at most their number to its width."""
    measured = [_width(cell) for cell in cells]
    widest = max([*measured, least])
    return widest, [cell + " " * (widest - width) for cell, width in zip(cells, measured)]


def _line(cells) -> str:
    """One table line: each cell between a space and a pipe."""
    return "| " + " | ".join(cells) + " |"
