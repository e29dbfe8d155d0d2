"""Our renderer of GFM tables for :mod:`studygen.markdown_format`: mdformat-gfm
1.0's table renderer, faster and character for character the same; and
markdown-it's table rule with a faster splitter of a row into cells.

mdformat-gfm's ``_render_table`` (``mdformat_gfm/_tables_plugin.py``) walks
every node below the table (the cells' inline text included) to find rows
and cells, reads each node's type through a property, measures every cell
with ``wcwidth.wcswidth`` and pads it through a function call; it took most
of the rendering of the shipped READMEs, which are mostly tables. Here rows
and cells are read off the table's fixed shape (table, its ``thead`` and
``tbody``, their ``tr`` rows, their ``th`` and ``td`` cells), and a cell of
printable ASCII is measured by its length (``wcswidth``'s own value for such
text) and padded by arithmetic. Any other cell is measured and padded by
mdformat-gfm's own functions. A table of any other shape, a compact
table or a row not as long as the header row is handed to mdformat-gfm's
renderer itself: a guard, since markdown-it gives every body row the
header's cell count and our options never ask for compact tables (tests/foundation/test_markdown_format.py
renders every Markdown file at hand and generated tables both ways).

markdown-it's table rule splits each line of a table at its unescaped pipes
with ``escapedSplit``, a loop over every character of the line;
:func:`escaped_split` does the same steps at the pipes only, found with
``str.find``, and :func:`table_rule` is the rule's own code calling it.
"""

from __future__ import annotations

import types

MIN_WIDTH = 3  # mdformat-gfm pads every column to at least three characters, the delimiter row's "---"
_SECTIONS = ("thead", "tbody")
_CELLS = ("th", "td")


def render_table(node, context) -> str:
    """The text of the table ``node`` (an mdformat ``RenderTreeNode`` of type
    ``table``) as mdformat-gfm 1.0's ``_render_table`` writes it: a header
    line, a delimiter line and one line per body row, joined by newlines,
    every column padded to its widest cell in terminal columns (at least
    three) and aligned as its delimiter says. Raises what rendering a cell
    raises."""
    from mdformat_gfm import _tables_plugin

    options = context.options["mdformat"]
    if options.get("compact_tables") or options.get("plugin", {}).get("tables", {}).get("compact_tables"):
        return _tables_plugin._render_table(node, context)
    rows = _rows(node, context)
    if rows is None:
        return _tables_plugin._render_table(node, context)
    widths = [MIN_WIDTH] * len(rows[0])
    wcswidth = _tables_plugin.wcswidth
    for row in rows:
        for index, (text, _, plain) in enumerate(row):
            width = len(text) if plain else wcswidth(text)
            if width > widths[index]:
                widths[index] = width
    lines = [_joined(rows[0], widths), _delimiter_line(rows[0], widths)]
    lines.extend(_joined(row, widths) for row in rows[1:])
    return "\n".join(lines)


def _rows(node, context) -> list[list[tuple[str, str, bool]]] | None:
    """Each row of the table ``node`` as (rendered text, alignment, whether
    the text is printable ASCII) per cell, the header row first; ``None``,
    before any cell is rendered, when the table is not of the shape
    markdown-it makes (sections of rows of cells) or a row's length differs
    from the header row's."""
    row_nodes = []
    for section in node.children:
        if section.type not in _SECTIONS:
            return None
        for row in section.children:
            if row.type != "tr" or any(cell.type not in _CELLS for cell in row.children):
                return None
            row_nodes.append(row.children)
    if not row_nodes or any(len(cells) != len(row_nodes[0]) for cells in row_nodes):
        return None
    rows = []
    for cells in row_nodes:
        row = []
        for cell in cells:
            text = cell.render(context)
            row.append((text, _alignment(cell), text.isascii() and text.isprintable()))
        rows.append(row)
    return rows


def _alignment(cell) -> str:
    """mdformat-gfm's alignment mark of ``cell`` from its style attribute:
    ">" right, "<" left, "^" centre, "" none (the checks in mdformat-gfm's order)."""
    style = cell.attrs.get("style") or ""
    if "text-align:right" in style:
        return ">"
    if "text-align:left" in style:
        return "<"
    if "text-align:center" in style:
        return "^"
    return ""


def _joined(row, widths) -> str:
    """The line of ``row``: each cell padded to its column's width, between pipes."""
    return "| " + " | ".join(_padded(text, alignment, plain, width)
                             for (text, alignment, plain), width in zip(row, widths)) + " |"


def _padded(text: str, alignment: str, plain: bool, width: int) -> str:
    """``text`` padded with spaces to ``width`` columns as mdformat-gfm's
    ``_rpad``, ``_lpad`` and ``_center`` pad it: a right-aligned cell on the
    left, a centred one on both sides (the odd space on the right), any other
    on the right. Printable ASCII (``plain``) is padded here, by its length,
    which is never more than its column's width; any other text by
    mdformat-gfm's functions."""
    if not plain:
        from mdformat_gfm import _tables_plugin

        pad = {">": _tables_plugin._lpad, "^": _tables_plugin._center}.get(alignment, _tables_plugin._rpad)
        return pad(text, width)
    spaces = width - len(text)
    if alignment == ">":
        return " " * spaces + text
    if alignment == "^":
        return " " * (spaces // 2) + text + " " * (spaces - spaces // 2)
    return text + " " * spaces


def _delimiter_line(header, widths) -> str:
    """The delimiter line: per column a run of dashes as wide as the column,
    its first dash a colon when the header cell is left-aligned or centred,
    its last a colon when right-aligned or centred."""
    cells = []
    for (_, alignment, _), width in zip(header, widths):
        left = ":" if alignment in ("<", "^") else "-"
        right = ":" if alignment in (">", "^") else "-"
        cells.append(left + "-" * (width - 2) + right)
    return "| " + " | ".join(cells) + " |"


def escaped_split(line: str) -> list[str]:
    """The cells of a table ``line`` as markdown-it 4's ``escapedSplit``
    (``markdown_it/rules_block/table.py``) gives them: the text between
    pipes, the first before the first pipe and the last after the last; a
    pipe right after a backslash (whatever precedes that backslash) is no
    separator but part of its cell, the backslash dropped."""
    cells = []
    cell = ""  # the cell's text up to its last escaped pipe
    start = 0
    pipe = line.find("|")
    while pipe != -1:
        if pipe and line[pipe - 1] == "\\":
            cell += line[start:pipe - 1]
            start = pipe
        else:
            cells.append(cell + line[start:pipe])
            cell = ""
            start = pipe + 1
        pipe = line.find("|", pipe + 1)
    cells.append(cell + line[start:])
    return cells


def table_rule(table_module) -> types.FunctionType:
    """markdown-it's block rule ``table`` from ``table_module`` (the module
    ``markdown_it.rules_block.table``): the same code, whose global
    ``escapedSplit`` is :func:`escaped_split` (the rule has no defaults
    and no closure: it is always called with its four arguments)."""
    return types.FunctionType(table_module.table.__code__, {**vars(table_module), "escapedSplit": escaped_split})
