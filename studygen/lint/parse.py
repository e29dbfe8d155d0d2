"""The token walk: one markdown-it-py parse of a document, read into the
lint model (:mod:`studygen.lint.document`).

:func:`parse_document` runs markdown-it-py once (CommonMark + GFM tables and
strikethrough, :func:`markdown_parser`) and :func:`build_document` walks its
tokens a single time:

- **prose blocks** (paragraphs, list-item paragraphs, headings) keep their
  plain text (inline code and link text kept, markup dropped, image alt text
  left out) and the line of their first source line (``token.map``);
- **tables** are read cell by cell (:func:`_read_table`) and typed by
  :func:`studygen.lint.columns.type_columns`; a table's context is the
  heading above it and a paragraph right before it (its caption);
- **fences** keep their map and whether a closing fence ends them, so SG104
  can tell an unclosed code fence.

markdown-it pads or truncates table rows to the header's cell count; each
row keeps the line of its ``token.map``, through which SG104 reads the raw
source line.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

from markdown_it import MarkdownIt

from .columns import add_label_vocabulary, type_columns
from .document import Block, Document, Fence, Row, Table

_PARSER: MarkdownIt | None = None


def markdown_parser() -> MarkdownIt:
    """The one markdown-it-py parser lint uses: CommonMark with the GFM table
    and strikethrough rules (the same rules mdformat-gfm renders)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    return _PARSER


_MARKUP_CHARS = frozenset("`*_~[]<>&!\\")


def _cell_text(inline) -> str:
    """Plain text of a table cell: its source when it holds no inline
    markup (the common case, no inline tree walk), else the inline text."""
    content = inline.content
    if _MARKUP_CHARS.isdisjoint(content):
        return content
    return _inline_text(inline).strip()


def _inline_text(inline) -> str:
    children = inline.children
    if not children:
        return inline.content
    if len(children) == 1 and children[0].type == "text":
        return children[0].content
    parts = []
    for child in children:
        kind = child.type
        if kind in ("text", "code_inline"):
            parts.append(child.content)
        elif kind == "image":
            # alt text describes a picture (render writes it from the figure's data), it is not
            # a claim about the document's tables: a space keeps the words on either side apart
            parts.append(" ")
        elif kind in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


@contextmanager
def collector_paused():
    """Pause the cyclic garbage collector while the lint model is built and
    checked.

    The token stream of a 1 MB document is ~300k live objects, and the model
    built from it ~150k more; none of them is garbage before the checks end,
    yet every collection the model's allocations trigger would rescan them
    (a quarter to half of lint's own time in the benchmark). Collection
    resumes on exit (if it was on), and what became garbage inside is
    collected then as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def normalize_newlines(text: str) -> str:
    """CR LF and CR read as LF, as markdown-it-py reads them."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def parse_document(text: str, path: str) -> Document:
    """Parse ``text`` once with markdown-it-py and build the lint model.

    ``path`` is used in messages only. Line numbers are 1-based and refer to
    ``text`` with CR LF read as LF (as markdown-it-py reads it)."""
    source = normalize_newlines(text)
    tokens = markdown_parser().parse(source)
    with collector_paused():
        return build_document(source, path, tokens)


def build_document(source: str, path: str, tokens: list) -> Document:
    """The lint model from markdown-it-py ``tokens`` of ``source`` (see :func:`parse_document`)."""
    document = Document(path=path, text=source, lines=source.split("\n"))
    heading = ""
    section = 0
    order = 0
    list_depth = 0
    previous_paragraph: Block | None = None
    index = 0
    count = len(tokens)
    while index < count:
        token = tokens[index]
        kind = token.type
        if kind == "paragraph_open" or kind == "heading_open":
            inline = tokens[index + 1]
            start, end = token.map
            is_heading = kind == "heading_open"
            if is_heading and int(token.tag[1]) <= 2:
                section += 1
            block_text = _inline_text(inline)
            block = Block(document, order, section, "heading" if is_heading else "paragraph", start + 1, end, block_text, heading, list_depth > 0)
            if is_heading:
                heading = block_text
                previous_paragraph = None
            else:
                document.paragraph_lines.append((start, end))
                previous_paragraph = block
            document.blocks.append(block)
            order += 1
            index += 3
            continue
        if kind == "table_open":
            context = heading
            if previous_paragraph is not None and previous_paragraph.end_line >= token.map[0] - 1:
                context = f"{heading}\n{previous_paragraph.text}"
            index = _read_table(tokens, index, document, order, section, context)
            order += 1
            previous_paragraph = None
            continue
        if kind == "fence":
            start, end = token.map
            document.fences.append(Fence(start + 1, end, token.markup, _fence_closed(document.lines, start, end, token.markup)))
            previous_paragraph = None
        elif kind in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
        elif kind in ("code_block", "html_block", "hr"):
            previous_paragraph = None
        index += 1
    add_label_vocabulary(document)
    return document


def _fence_closed(lines: list[str], start: int, end: int, markup: str) -> bool:
    if end - start < 2:
        return False
    closing = lines[end - 1].strip() if end - 1 < len(lines) else ""
    closing = closing.lstrip(">").strip() if closing.startswith(">") else closing
    return closing.startswith(markup[0] * len(markup)) and not closing.strip(markup[0])


def _read_table(tokens, index: int, document: Document, order: int, section: int, context: str) -> int:
    """Read table tokens from ``table_open`` at ``index``; returns the index after ``table_close``.

    markdown-it-py emits a fixed layout, every row padded to the header's n
    cells: ``table_open thead_open tr_open (th_open inline th_close)×n
    tr_close thead_close [tbody_open (tr_open (td_open inline td_close)×n
    tr_close)… tbody_close] table_close``; cells are read by position, and
    any other layout is read token by token."""
    table_token = tokens[index]
    width = 0
    position = index + 3
    while tokens[position].type == "th_open":
        width += 1
        position += 3
    if width == 0 or tokens[position].type != "tr_close" or tokens[position + 1].type != "thead_close":
        return _read_table_tokens(tokens, index, document, order, section, context)
    headers = [_cell_text(token) for token in tokens[index + 4:index + 4 + 3 * width:3]]
    rows: list[Row] = []
    position += 2
    if tokens[position].type == "tbody_open":
        position += 1
        step = 2 + 3 * width
        markup = _MARKUP_CHARS
        while tokens[position].type == "tr_open":
            if tokens[position + step - 1].type != "tr_close":
                return _read_table_tokens(tokens, index, document, order, section, context)
            cells = [
                content if markup.isdisjoint(content) else _inline_text(token).strip()
                for token in tokens[position + 2:position + step - 1:3]
                for content in (token.content,)
            ]
            rows.append(Row(len(rows), tokens[position].map[0] + 1, cells))
            position += step
        position += 1  # tbody_close
    if tokens[position].type != "table_close":
        return _read_table_tokens(tokens, index, document, order, section, context)
    _add_table(document, Table(order, section, table_token.map[0] + 1, table_token.map[1], headers, rows, context))
    return position + 1


def _add_table(document: Document, table: Table) -> None:
    for row in table.rows:
        row.table = table
    type_columns(table)
    document.tables.append(table)


def _read_table_tokens(tokens, index: int, document: Document, order: int, section: int, context: str) -> int:
    """Token-by-token reading of a table (the layout :func:`_read_table` expects did not hold)."""
    table_token = tokens[index]
    headers: list[str] = []
    rows: list[Row] = []
    cells: list[str] = []
    in_head = False
    row_map = (0, 0)
    index += 1
    while True:
        token = tokens[index]
        kind = token.type
        if kind == "inline":
            cells.append(_inline_text(token).strip())
        elif kind == "tr_open":
            cells = []
            row_map = tuple(token.map) if token.map else (0, 0)
        elif kind == "tr_close":
            if in_head:
                headers = cells
            else:
                cells += [""] * (len(headers) - len(cells))
                rows.append(Row(len(rows), row_map[0] + 1, cells[: len(headers)]))
        elif kind == "thead_open":
            in_head = True
        elif kind == "thead_close":
            in_head = False
        elif kind == "table_close":
            break
        index += 1
    start, end = table_token.map
    _add_table(document, Table(order, section, start + 1, end, headers, rows, context))
    return index + 1
