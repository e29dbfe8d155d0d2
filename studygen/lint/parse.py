"""The token walk: one markdown-it-py parse of a document, read into the
lint model (:mod:`studygen.lint.document`).

:func:`parse_document` runs markdown-it-py's block parser once (CommonMark +
GFM tables and strikethrough, :func:`lint_parser`) and :func:`build_document`
walks its tokens a single time:

- **prose blocks** (paragraphs, list-item paragraphs, headings) keep their
  plain text (inline code and link text kept, markup dropped, image alt text
  left out) and the line of their first source line (``token.map``);
- **tables** are read cell by cell and typed by
  :func:`studygen.lint.columns.type_columns`; a table's context is the
  heading above it and a paragraph right before it (its caption);
- **fences** keep their map and whether a closing fence ends them, so SG104
  can tell an unclosed code fence.

Memory stays proportional to the text, not to markdown-it's token count
(a 2 MB table is ~850k tokens, ~400 MB): the block parse keeps inline
content unparsed, each block's inline markup is parsed on its own when the
block holds markup characters at all (:func:`inline_text`, in pieces of at
most :data:`INLINE_PIECE` characters), and a table body is read by
:func:`compact_table`, markdown-it-py's own GFM table rule for the header
and delimiter row with the body rows kept as one list of cell texts (split
as the library's ``escapedSplit`` splits them) instead of three tokens per cell. Equal
cell texts of a table are one string (label cells repeat on every row), the
source lines are offsets into the text (:class:`~studygen.lint.document.SourceLines`),
and label columns are grouped by distinct text: a 30 MB table of four
columns lints in ~450 MiB (``benchmarks/reliability.py --only-large``;
``tests/lint/test_memory.py`` holds the budget per cell).

mkdocs admonitions and content tabs (``!!! note``, ``??? tip``, ``=== "Tab"``)
indent their content four spaces, which CommonMark reads as code;
:func:`site_source` removes that indentation (line numbers unchanged), so
tables and prose inside them are read as the site renders them.

markdown-it pads or truncates table rows to the header's cell count; each
row keeps its source line, through which SG104 reads the raw line.
"""

from __future__ import annotations

import importlib

from markdown_it import MarkdownIt
from markdown_it.common.utils import MD_TRIM_CHARS, mdTrim
from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS

from ..markdown_tables import escaped_split, table_rule
from ..memory import collector_paused
from ..patterns import lazy_compile
from .columns import add_label_vocabulary, type_columns
from .document import Block, Document, Fence, Row, SourceLines, Table
from .restriction import scope_phrases

# markdown-it-py's GFM table rule, its rows split at pipes found by str.find (studygen.markdown_tables)
gfm_table = table_rule(importlib.import_module("markdown_it.rules_block.table"))  # the package's "table" is the rule

_PARSER: MarkdownIt | None = None
_LINT_PARSER: MarkdownIt | None = None

# Longest run of text parsed as inline markup at once: the inline parse holds
# ~300-500 bytes of tokens per source character, so a 10 MB paragraph of
# nested emphasis parsed whole would hold gigabytes.
INLINE_PIECE = 20_000


def markdown_parser() -> MarkdownIt:
    """markdown-it-py as the renderer's formatter reads Markdown: CommonMark
    with the GFM table and strikethrough rules (what mdformat-gfm renders),
    every token produced. Lint itself uses :func:`lint_parser`."""
    global _PARSER
    if _PARSER is None:
        _PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    return _PARSER


def lint_parser() -> MarkdownIt:
    """The parser lint uses: :func:`markdown_parser`'s rules, the block
    structure only (inline content parsed per block by :func:`inline_text`)
    and table bodies read by :func:`compact_table`."""
    global _LINT_PARSER
    if _LINT_PARSER is None:
        parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
        parser.disable("inline")  # the core rule: block tokens keep their inline content unparsed
        parser.block.ruler.at("table", compact_table, {"alt": ["paragraph", "reference"]})
        _LINT_PARSER = parser
    return _LINT_PARSER


def compact_table(state, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it-py's GFM table rule with the body kept compact.

    The header and delimiter row go through the library's own rule (same
    acceptance, same header tokens); the body rows are read with the same
    termination tests (a blank line, a line indented less, any rule that ends
    a blockquote, an indented code line, the autocompleted-cell limit) and
    pushed as one ``lint_tbody`` token whose ``meta["rows"]`` is a list of
    cell lists, one per source line from ``token.map[0]`` on (a body has no
    gaps), every row padded or cut to the header's cells as markdown-it
    does. Equal cell texts of one table are one string object
    (:func:`_shared_cells`): label cells repeat down a table."""
    if silent:
        return gfm_table(state, start_line, end_line, True)
    if not gfm_table(state, start_line, min(end_line, start_line + 2), True):
        return False
    first = len(state.tokens)
    gfm_table(state, start_line, start_line + 2, False)
    close = state.tokens.pop()  # table_close: pushed again after the body
    opening = state.tokens[first]
    width = sum(1 for token in state.tokens[first:] if token.type == "th_open")
    terminators = state.md.block.ruler.getRules("blockquote")
    old_parent, state.parentType = state.parentType, "table"
    rows = []
    shared: dict[str, str] = {}
    autocompleted = 0
    line = start_line + 2
    source, starts, shifts, ends = state.src, state.bMarks, state.tShift, state.eMarks
    while line < end_line:
        if state.sCount[line] < state.blkIndent:
            break
        begin = starts[line] + shifts[line]
        # every rule that ends a blockquote (fence, blockquote, hr, list, html, heading)
        # starts at a marker character: a row that starts with "|" starts none of them
        if (begin >= ends[line] or source[begin] != "|") and any(rule(state, line, end_line, True) for rule in terminators):
            break
        text = mdTrim(source[begin:ends[line]])  # getLine(state, line)
        if not text or state.is_code_block(line):
            break
        # escapedSplit without a backslash is str.split("|")
        columns = escaped_split(text) if "\\" in text else text.split("|")
        if columns and columns[0] == "":
            columns.pop(0)
        if columns and columns[-1] == "":
            columns.pop()
        autocompleted += width - len(columns)
        if autocompleted > MAX_AUTOCOMPLETED_CELLS:
            break
        cells = _shared_cells(columns, width, shared)
        rows.append(cells)
        line += 1
    state.parentType = old_parent
    if rows:
        body = state.push("lint_tbody", "tbody", 0)
        body.map = [start_line + 2, line]
        body.meta = {"rows": rows}
    state.tokens.append(close)
    opening.map = [start_line, line]
    state.line = line
    return True


# Distinct cell texts one table keeps as shared strings: label cells ("B200",
# "800 x 800") repeat on every row and become one object each; past this many
# (a column of distinct figures) new texts are kept as they are, so the memo
# stays small.
SHARED_CELLS_LIMIT = 1 << 16


def _shared_cells(columns: list[str], width: int, shared: dict[str, str]) -> list[str]:
    """The first ``width`` of ``columns`` trimmed as markdown-it trims cells
    (``mdTrim``) and padded with "" to ``width``, each text that ``shared``
    already holds replaced by its held object; new texts are added while
    ``shared`` holds fewer than :data:`SHARED_CELLS_LIMIT` (checked once a
    row)."""
    trimmed = [column.strip(MD_TRIM_CHARS) for column in columns[:width]]
    if len(shared) < SHARED_CELLS_LIMIT:
        hold = shared.setdefault
        cells = [hold(cell, cell) for cell in trimmed]
    else:
        held = shared.get
        cells = [held(cell, cell) for cell in trimmed]
    if len(cells) < width:
        cells.extend([""] * (width - len(cells)))
    return cells


_MARKUP_CHARS = frozenset("`*_~[]<>&!\\")


def inline_text(content: str, env: dict | None = None) -> str:
    """Plain text of inline Markdown ``content``: text, inline code and link
    text kept, markup dropped, image alt text left out (a space instead),
    soft and hard breaks as newlines. Content without markup characters is
    its own text (line ends trimmed as the inline parser trims them);
    content longer than :data:`INLINE_PIECE` is parsed in pieces cut at
    line ends (or spaces), so emphasis that spans a cut reads as its
    characters."""
    if _MARKUP_CHARS.isdisjoint(content):
        if "\n" not in content:
            return content
        return "\n".join(line.strip(" \t") for line in content.split("\n"))
    parser = lint_parser()
    env = {} if env is None else env
    if len(content) <= INLINE_PIECE:
        return _children_text(parser.inline.parse(content, parser, env, []))
    return "".join(_children_text(parser.inline.parse(piece, parser, env, [])) for piece in _pieces(content))


def _pieces(content: str):
    """``content`` cut into pieces of at most :data:`INLINE_PIECE` characters
    at line ends (the newline kept at the end of its piece) or, inside a
    longer line, after a space."""
    start = 0
    length = len(content)
    while start < length:
        end = min(length, start + INLINE_PIECE)
        if end < length:
            cut = content.rfind("\n", start, end)
            if cut == -1:
                cut = content.rfind(" ", start, end)
            if cut > start:
                end = cut + 1
        yield content[start:end]
        start = end


def _children_text(children) -> str:
    if len(children) == 1 and children[0].type == "text":
        return children[0].content
    parts = []
    for child in children:
        kind = child.type
        if kind in ("text", "code_inline", "text_special"):
            parts.append(child.content)
        elif kind == "image":
            # alt text describes a picture (render writes it from the figure's data), it is not
            # a claim about the document's tables: a space keeps the words on either side apart
            parts.append(" ")
        elif kind in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def normalize_newlines(text: str) -> str:
    """CR LF and CR read as LF, as markdown-it-py reads them."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


# mkdocs-material / pymdownx: "!!! note", "??? tip", "???+ warning", '=== "Tab"'
_CONTAINER_RE = lazy_compile(r'^ *(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+"[^"]*")?|===\+?[ \t]+"[^"]*")[ \t]*$')


def site_source(text: str) -> str:
    """``text`` with the content of mkdocs admonitions and content tabs
    dedented by four spaces per level, as the site renders it (the marker
    line itself kept, the line count unchanged). Text without a marker
    is returned as it is."""
    if "!!!" not in text and "???" not in text and "===" not in text:
        return text
    lines = text.split("\n")
    levels: list[int] = []  # content indent of each open container
    in_fence = ""
    for index, line in enumerate(lines):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if stripped:
            while levels and indent < levels[-1]:
                levels.pop()
        removed = 4 * len(levels)
        if removed and stripped:
            lines[index] = line[removed:]
        content_indent = indent - removed
        if in_fence:
            if stripped.startswith(in_fence):
                in_fence = ""
            continue
        if stripped.startswith(("```", "~~~")):
            in_fence = stripped[:3]
            continue
        if content_indent < 4 and _CONTAINER_RE.match(line[removed:] if removed else line):
            levels.append(indent + 4)
    return "\n".join(lines)


def parse_document(text: str, path: str) -> Document:
    """Parse ``text`` once with markdown-it-py and build the lint model.

    ``path`` is used in messages only. Line numbers are 1-based and refer to
    ``text`` with CR LF read as LF (as markdown-it-py reads it)."""
    source = site_source(normalize_newlines(text))
    env: dict = {}
    tokens = lint_parser().parse(source, env)
    with collector_paused():
        return build_document(source, path, tokens, env)


def _underlined_paragraph(token) -> bool:
    """True for a setext heading of two text lines or more: a paragraph with
    "---" (or "===") right under it, meant as a rule and rendered as one
    long heading. Its sentences are prose: read as a heading, every claim in
    it went unread (a conclusion of three sentences followed by a "---" line,
    in an unseen benchmark README, session 24). A one-line title over its
    underline stays a heading."""
    return token.markup in ("-", "=") and token.map is not None and token.map[1] - token.map[0] > 2


def _front_matter(source: str, token) -> bool:
    """True for a block between a document's opening "---" line and the next one: YAML front matter
    (Jekyll, Hugo, MkDocs), metadata the site never renders as text, though Markdown parses it as a
    setext heading under a rule."""
    return token.map is not None and token.map[0] == 1 and source[:source.find("\n") + 1].rstrip() == "---"


def build_document(source: str, path: str, tokens: list, env: dict | None = None) -> Document:
    """The lint model from :func:`lint_parser` ``tokens`` of ``source`` (see
    :func:`parse_document`); ``env`` is the parse's environment (link
    reference definitions)."""
    env = {} if env is None else env
    document = Document(path=path, text=source, lines=SourceLines(source))
    scopes = scope_phrases(source)  # what "every concurrency" ranges over keys a table (type_columns)
    heading = ""
    chain: list[tuple[int, str]] = []  # (level, text) of the headings above, outermost first
    headings: tuple[str, ...] = ()  # their texts, nearest first (one tuple shared by a section's blocks)
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
            is_heading = kind == "heading_open" and not (_underlined_paragraph(token) and not _front_matter(source, token))
            if is_heading and int(token.tag[1]) <= 2:
                section += 1
            block_text = inline_text(inline.content, env)
            block = Block(document, order, section, "heading" if is_heading else "paragraph", start + 1, end, block_text, heading,
                          list_depth > 0, headings)
            if is_heading:
                heading = block_text
                level = int(token.tag[1])
                chain = [entry for entry in chain if entry[0] < level] + [(level, block_text)]
                headings = tuple(text for _, text in reversed(chain))
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
            index = _read_table(tokens, index, document, order, section, context, env, headings, scopes)
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


def _cell_text(content: str, env: dict) -> str:
    """Plain text of a table cell: its content when it holds no inline
    markup (the common case), else the inline parse's text."""
    if _MARKUP_CHARS.isdisjoint(content):
        return content
    return inline_text(content, env).strip()


def _read_table(tokens, index: int, document: Document, order: int, section: int, context: str, env: dict,
                headings: tuple[str, ...] = (), scopes: frozenset[tuple[str, ...]] = frozenset()) -> int:
    """Read a :func:`compact_table` table from ``table_open`` at ``index``;
    returns the index after ``table_close``."""
    table_token = tokens[index]
    headers: list[str] = []
    rows: list[Row] = []
    index += 1
    while True:
        token = tokens[index]
        kind = token.type
        if kind == "inline":
            headers.append(_cell_text(token.content, env))
        elif kind == "lint_tbody":
            markup = _MARKUP_CHARS
            line = token.map[0] + 1
            for cells in token.meta["rows"]:
                for position, content in enumerate(cells):
                    if not markup.isdisjoint(content):
                        cells[position] = inline_text(content, env).strip()
                rows.append(Row(len(rows), line, cells))
                line += 1
        elif kind == "table_close":
            break
        index += 1
    start, end = table_token.map
    table = Table(order, section, start + 1, end, headers, rows, context, headings=headings)
    for row in rows:
        row.table = table
    type_columns(table, scopes)
    document.tables.append(table)
    return index + 1
