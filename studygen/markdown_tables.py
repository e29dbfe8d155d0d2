"""Our renderer of GFM tables for :mod:`studygen.markdown_format`: mdformat-gfm
1.0's table renderer, faster and character for character the same; and
markdown-it's table rule with a faster splitter of a row into cells.

mdformat-gfm's ``_render_table`` (``mdformat_gfm/_tables_plugin.py``) walks
every node below the table (the cells' inline text included) to find rows
and cells, reads each node's type through a property, measures every cell
with ``wcwidth.wcswidth`` and pads it through a function call; it took most
of the rendering of the shipped READMEs, which are mostly tables. Here rows
and cells are read off the table's fixed shape (table, its ``thead`` and
``tbody``, their ``tr`` rows, their ``th`` and ``td`` cells), and each cell
is measured once (:func:`cell_width`) and padded by arithmetic on that width,
as mdformat-gfm's ``_rpad`` and ``_lpad`` pad it; only a centred cell that is
not printable ASCII (between zero-width edges) is padded by mdformat-gfm's
``_center``, which measures its padded text again. A table of any other shape, a compact
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

from .terminal_width import length_width

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
    options = context.options["mdformat"]
    compact = options.get("compact_tables") or options.get("plugin", {}).get("tables", {}).get("compact_tables")
    rows = None if compact else _rows(node, context)
    if rows is None:
        from mdformat_gfm import _tables_plugin  # imports wcwidth: only for a table laid out by mdformat-gfm

        return _tables_plugin._render_table(node, context)
    widths = [MIN_WIDTH] * len(rows[0])
    for row in rows:
        for index, (_, _, width, _) in enumerate(row):
            if width > widths[index]:
                widths[index] = width
    lines = [_joined(rows[0], widths), _delimiter_line(rows[0], widths)]
    lines.extend(_joined(row, widths) for row in rows[1:])
    return "\n".join(lines)


# Word joiner, function application, invisible times, separator and plus: format characters of no
# width that join with nothing (render's anchors are made of them, at the edges of a table's first and
# last cell). A run of them at either end of a text leaves its width as it is (cell_width).
ZERO_WIDTH_EDGES = "\u2060\u2061\u2062\u2063\u2064"


def cell_width(text: str) -> tuple[int, bool]:
    """The terminal width of ``text`` as ``wcwidth.wcswidth`` measures it
    (-1 when a character has no width there), and whether that width is the
    length of the text between runs of :data:`ZERO_WIDTH_EDGES` (printable
    ASCII and :data:`studygen.terminal_width.NARROW_SYMBOLS`: then it is
    padded by arithmetic whatever its alignment, since spaces before it add
    their number to its width). ``wcswidth`` reads its text character by
    character (at about 1.5 microseconds each for zero-width ones); it
    measures only what lies between the edges, and wcwidth is imported only
    for such a text that is not its length wide."""
    core = text.strip(ZERO_WIDTH_EDGES)
    width = length_width(core)
    if width is not None:
        return width, True
    from wcwidth import wcswidth

    return wcswidth(core), False


def _rows(node, context) -> list[list[tuple[str, str, int, bool]]] | None:
    """Each row of the table ``node`` as (rendered text, alignment, width in
    columns, whether padded by arithmetic: :func:`cell_width`) per cell,
    the header row first; ``None``, before any cell is rendered, when the
    table is not of the shape markdown-it makes (sections of rows of cells)
    or a row's length differs from the header row's."""
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
            row.append((text, _alignment(cell), *cell_width(text)))
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
    return "| " + " | ".join(_padded(*cell, width) for cell, width in zip(row, widths)) + " |"


def _padded(text: str, alignment: str, text_width: int, simple: bool, width: int) -> str:
    """``text`` (``text_width`` columns wide) padded with spaces to ``width``
    columns as mdformat-gfm's ``_rpad``, ``_lpad`` and ``_center`` pad it: a
    right-aligned cell on the left, a centred one on both sides (the odd
    space on the right), any other on the right; by as many spaces as its
    width falls short (``_rpad`` and ``_lpad`` measure the text once, as
    here). A centred text that is not ``simple`` (:func:`cell_width`) is
    padded by ``_center``, which measures the text with its left padding."""
    spaces = width - text_width
    if alignment == ">":
        return " " * spaces + text
    if alignment == "^":
        if not simple:
            from mdformat_gfm import _tables_plugin

            return _tables_plugin._center(text, width)
        return " " * (spaces // 2) + text + " " * (spaces - spaces // 2)
    return text + " " * spaces


def _delimiter_line(header, widths) -> str:
    """The delimiter line: per column a run of dashes as wide as the column,
    its first dash a colon when the header cell is left-aligned or centred,
    its last a colon when right-aligned or centred."""
    cells = []
    for (_, alignment, _, _), width in zip(header, widths):
        left = ":" if alignment in ("<", "^") else "-"
        right = ":" if alignment in (">", "^") else "-"
        cells.append(left + "-" * (width - 2) + right)
    return "| " + " | ".join(cells) + " |"


def render_cell(node, context) -> str:
    """A ``th`` or ``td`` cell as mdformat-gfm 1.0's ``_render_cell``
    writes it: its inline text rendered, every pipe in it backslash-escaped."""
    return node.children[0].render(context).replace("|", "\\|")


def escape_delimiter_lines(text: str, node, context) -> str:
    """mdformat-gfm 1.0's postprocessor of a paragraph (``_escape_tables``):
    ``text`` with the first ``-`` of each line made only of ``|``, ``-``,
    ``:`` and spaces backslash-escaped, so that the line cannot be read as
    a table's delimiter row. A text without ``-`` is returned as it is
    (nearly every paragraph); ``node`` and ``context`` are not read."""
    if "-" not in text:
        return text
    return "\n".join(line.replace("-", "\\-", 1) if not line.strip("|-: ") else line for line in text.split("\n"))


class TablesPlugin:
    """mdformat-gfm 1.0's tables plugin (``mdformat_gfm/_tables_plugin.py``)
    with our renderer of tables, without importing that module (it imports
    wcwidth, which only a table :func:`render_table` hands back to it
    needs): what mdformat reads of a plugin, ``update_mdit`` when it builds
    a parser, ``RENDERERS`` and ``POSTPROCESSORS`` when it renders."""

    RENDERERS = {"table": render_table, "td": render_cell, "th": render_cell}
    POSTPROCESSORS = {"paragraph": escape_delimiter_lines}

    @staticmethod
    def update_mdit(parser) -> None:
        """Turn markdown-it's table rule on (mdformat-gfm's ``update_mdit`` of its tables plugin)."""
        parser.enable("table")


TABLES_PLUGIN = TablesPlugin()


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
