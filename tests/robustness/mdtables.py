"""Tables of a Markdown document, read with markdown-it-py (test helper).

Each cell is given as its plain text (what a reader sees: escapes and
entities resolved) and the inline token types it holds, and each row as the
number of cells its source line has (pipes not escaped by a backslash), so a
pipe that escaped the escaping shows up as an extra cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt

INLINE_TEXT = {"text", "code_inline", "html_inline"}


@dataclass
class Cell:
    text: str
    token_types: frozenset[str]


@dataclass
class Table:
    heading: str
    headers: list[str]
    rows: list[list[Cell]]
    source_cell_counts: list[int]  # header line, then one per body line

    def column(self, header: str) -> list[Cell]:
        index = self.headers.index(header)
        return [row[index] for row in self.rows]


def _cell(inline) -> Cell:
    parts, types = [], set()
    for child in inline.children or []:
        types.add(child.type)
        if child.type in INLINE_TEXT:
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return Cell("".join(parts), frozenset(types))


def source_cell_count(line: str) -> int:
    """Cells of a GFM table line: pipes not preceded by an escaping backslash."""
    cells, escaped = 0, False
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    for char in body:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "|":
            cells += 1
    return cells if body.endswith("|") else cells + 1


def tables(text: str) -> list[Table]:
    """Every table of ``text`` with the heading above it."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    lines = text.splitlines()
    found, heading = [], ""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open":
            heading = tokens[i + 1].content
        elif token.type == "table_open":
            start, end = token.map
            counts = [source_cell_count(line) for n, line in enumerate(lines[start:end]) if n != 1]
            headers, rows, row, in_head = [], [], [], False
            while tokens[i].type != "table_close":
                t = tokens[i]
                if t.type == "thead_open":
                    in_head = True
                elif t.type == "thead_close":
                    in_head = False
                elif t.type == "tr_open":
                    row = []
                elif t.type == "inline":
                    row.append(_cell(t))
                elif t.type == "tr_close":
                    if in_head:
                        headers = [c.text for c in row]
                    else:
                        rows.append(row)
                i += 1
            found.append(Table(heading, headers, rows, counts))
        i += 1
    return found
