"""SG104 Markdown structure: what renders differently from what was written.

- A table body row whose raw source line holds more or fewer cells than the
  header, where that changes what is shown. markdown-it-py (like GitHub)
  pads short rows with empty cells and drops extra ones, so the parsed table
  cannot show it; the row's source line is split the GFM way (at pipes not
  escaped with a backslash, as markdown-it-py's ``escapedSplit`` splits it,
  :func:`studygen.markdown_tables.escaped_split`; a leading
  and a trailing pipe open and close the row; a pipe inside inline code
  still splits). A row loses nothing when the cells it drops are empty (a
  trailing ``||``), when it is short but ends in an empty cell (its author
  left the last cells empty on purpose), when it is empty altogether (a
  spacer row), or when it holds one cell of text and nothing else (a group
  label such as ``| **H100** |`` over the rows that follow: the label is
  shown in the first column, where it was written): those rows are not
  reported.
- A header and delimiter row whose cell counts differ: GFM then renders no
  table at all, only a paragraph of pipes.
- A delimiter row inside a table body (every cell ``---``, ``:--``, ``--:``
  or ``:-:``, as GFM writes the line under a header): GFM reads it as one
  more data row, a row of dashes, and the row above it, when it repeats
  the header, as data too (tables pasted together without a blank line).
  A body row of single dashes (``| - | - |``, "no value" in every cell)
  is such a row only below a repeated header.
- A fenced code block that is never closed: it swallows the rest of its
  container (usually the whole document).
"""

from __future__ import annotations

from ..visible import shortened
from markdown_it.common.utils import mdTrim

from ..findings import Finding
from ..markdown_format import format_markdown
from ..markdown_tables import escaped_split
from ..patterns import lazy_compile
from .document import Document

CODE = "SG104"

_QUOTE_PREFIX_RE = lazy_compile(r"^\s*(?:>\s?)+")
# A cell that is only a figure (``12.5``, ``**3.0x**``, ``-4.2%``): alone in a short row it may belong under
# another column, so such a row is still reported.
_FIGURE_ONLY_RE = lazy_compile(r"^[*_~`]*[-+−]?\d[\d,.]*\s*(?:%|x|×|ms|us|µs|s)?[*_~`]*$")
_DELIMITER_RE = lazy_compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


def raw_cell_count(line: str) -> int:
    """Cells of a raw table row as GFM splits it (``| a | b \\| c |`` -> 2)."""
    line = _QUOTE_PREFIX_RE.sub("", line) if ">" in line[:8] else line
    line = line.strip()
    escaped = line.count("\\|")
    pipes = line.count("|") - escaped
    if line.startswith("|"):
        pipes -= 1
    if line.endswith("|") and not line.endswith("\\|") and len(line) > 1:
        pipes -= 1
    return pipes + 1


def raw_cells(line: str) -> list[str]:
    """The cells of a raw table row as markdown-it-py splits it (trimmed;
    the empty cells before a leading and after a trailing pipe dropped)."""
    line = _QUOTE_PREFIX_RE.sub("", line) if ">" in line[:8] else line
    cells = escaped_split(mdTrim(line))
    if cells and cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    return [mdTrim(cell) for cell in cells]


def changes_what_is_shown(line: str, expected: int) -> bool:
    """True when padding or cutting the raw row ``line`` to ``expected``
    cells drops or may shift something written: extra cells that are not
    empty, or a short row whose last cell holds text (see the module
    docstring)."""
    cells = raw_cells(line)
    if not any(cells):
        return False
    if len(cells) > expected:
        return any(cells[expected:])
    if len(cells) == 1 and not _FIGURE_ONLY_RE.match(cells[0]):
        return False  # a group label row: one cell of text cannot land under a wrong column
    return len(cells) < expected and cells[-1] != ""


def check(document: Document) -> list[Finding]:
    """SG104 findings: row cell counts, broken delimiter rows, unclosed fences."""
    findings = []
    lines = document.lines
    for table in document.tables:
        expected = len(table.headers)
        findings += _delimiter_rows_in_body(document, table)
        for start in table.row_source_lines:
            if start >= len(lines):
                continue
            got = raw_cell_count(lines[start])
            if got != expected and changes_what_is_shown(lines[start], expected):
                what = "more" if got > expected else "fewer"
                findings.append(Finding(
                    CODE,
                    f"table row has {got} cells but its header (line {table.line}) has {expected}: "
                    f"{what} cells than columns, which the table silently {'drops' if got > expected else 'pads with empty cells'}",
                    document.path,
                    start + 1,
                    hint=f"give every row of this table exactly {expected} cells; escape a pipe inside a cell as \\|",
                ))
    for start, end in document.paragraph_lines:
        if end - start < 2:
            continue
        header, delimiter = lines[start], lines[start + 1]
        if "|" not in header or "|" not in delimiter and "-" not in delimiter or not _DELIMITER_RE.match(_QUOTE_PREFIX_RE.sub("", delimiter)):
            continue
        header_cells = raw_cell_count(header)
        delimiter_cells = raw_cell_count(delimiter)
        if header_cells != delimiter_cells and delimiter.count("|") >= 1:
            findings.append(Finding(
                CODE,
                f"table header has {header_cells} cells but its delimiter row (line {start + 2}) has {delimiter_cells}: "
                "no table is rendered, only a paragraph of pipes",
                document.path,
                start + 1,
                hint="give the delimiter row one '---' cell per header cell",
            ))
    for fence in document.fences:
        if not fence.closed:
            markup = _fence_words(fence.markup)
            findings.append(Finding(
                CODE,
                f"code fence {markup} opened at line {fence.line} is never closed: "
                f"everything after it, to line {fence.end_line}, renders as code",
                document.path,
                fence.line,
                hint=f"close the block with a line holding {markup}"
                     + (" or more" if len(fence.markup) > len(markup) else ""),
            ))
    return findings


_DELIMITER_CELL_RE = lazy_compile(r"^:?-+:?$")


def _delimiter_rows_in_body(document: Document, table) -> list[Finding]:
    """SG104 for each body row of ``table`` that is a delimiter row (see the
    module docstring), naming the repeated header above it when there is one."""
    lines, findings = document.lines, []
    header = raw_cells(lines[table.line - 1])
    first_body_line = table.line + 1  # 0-based: the header's line is table.line - 1, the delimiter's table.line
    for start in table.row_source_lines:
        if "-" not in lines[start]:
            continue  # every cell of a delimiter row holds a dash: no need to split the line
        cells = raw_cells(lines[start])
        if not cells or not all(_DELIMITER_CELL_RE.match(cell) for cell in cells):
            continue
        above = start - 1 if start - 1 >= first_body_line else None  # the source line above, when a body row
        repeated = above is not None and raw_cells(lines[above]) == header
        if not repeated and all(cell == "-" for cell in cells):
            continue  # "| - | - |": a row of values given as "-", not a delimiter row
        shown = (f"; the row above it (line {above + 1}) repeats the header and reads as data too" if repeated
                 else "")
        findings.append(Finding(
            CODE,
            f"a delimiter row inside the body of the table whose header is on line {table.line}: it renders as a "
            f"row of dashes{shown}",
            document.path,
            start + 1,
            hint="remove the repeated rows, or put a blank line before a header that starts a new table",
        ))
    return findings


def _fence_words(markup: str) -> str:
    """A fence's markup as a message quotes it: itself up to 8 characters
    (```` ``` ````, ``~~~~``); a longer one by count (``120 backticks``), so
    that a finding stays one readable line."""
    if len(markup) <= 8:
        return markup
    return f"{len(markup)} {'backticks' if markup.startswith('`') else 'tildes'}"


# ---- the committed text against the renderer's formatting (``studygen check``) ----

_OPENERS = lazy_compile(r"[*_\[>(<-]{2,}")  # runs of what opens emphasis, links, quotes, lists


def _line_of_longest_run(text: str) -> int:
    """Line (1-based) of the longest run of emphasis, link, quote or list
    openers in ``text``: where a structure nested too deep for mdformat sits."""
    longest = max(_OPENERS.finditer(text), key=lambda match: match.end() - match.start(), default=None)
    return text.count("\n", 0, longest.start()) + 1 if longest else 1

def mdformat_idempotency_finding(text: str, path: str) -> Finding | None:
    """SG104 when :func:`studygen.markdown_format.format_markdown` (the
    renderer's call: mdformat, GFM, wrap keep) changes ``text``; the
    finding's line is the first line that differs. None when mdformat
    leaves the text as it is; SG104 too when ``text`` nests emphasis, links,
    quotes or lists past what mdformat can format (its tree is built with
    one Python call per level), at the line of the longest run of the
    characters that open them."""
    try:
        formatted = format_markdown(text)
    except RecursionError:
        return Finding(CODE, "nests emphasis, links, quotes or lists more levels deep than mdformat can format "
                       "(Python's recursion limit): the renderer cannot have written it", path,
                       _line_of_longest_run(text), hint="render the README again with studygen render")
    if formatted == text:
        return None
    if "\r" in text:
        # mdformat writes LF; a CRLF file (an editor or git's autocrlf) differs on every line
        first_cr = text[: text.index("\r")].count("\n") + 1
        unified = text.replace("\r\n", "\n").replace("\r", "\n")
        if format_markdown(unified) == unified:
            return Finding(
                CODE, f"line {first_cr} ends in a carriage return (CRLF or CR line endings); "
                "the renderer writes LF line endings, and the text is otherwise as it writes it",
                path, first_cr,
                hint="convert the file to LF line endings (e.g. `git config core.autocrlf input`, or a "
                     "`*.md text eol=lf` line in .gitattributes)")
    crlf_note = ""
    if "\r" in text:
        crlf_note = "; the file also has CR line endings, which the renderer does not write"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    original_lines = text.split("\n")
    formatted_lines = formatted.split("\n")
    line = 1
    for line, (before, after) in enumerate(zip(original_lines, formatted_lines), start=1):
        if before != after:
            break
    else:
        line = min(len(original_lines), len(formatted_lines)) + 1
        line = min(line, max(len(original_lines), 1))
    got = original_lines[line - 1] if line - 1 < len(original_lines) else ""
    want = formatted_lines[line - 1] if line - 1 < len(formatted_lines) else ""
    return Finding(
        CODE,
        f"mdformat (gfm, wrap keep) rewrites this document from line {line}: {_clip(got)!r} becomes {_clip(want)!r}"
        + crlf_note,
        path,
        line,
        hint="re-render the file, or run mdformat with the renderer's options on it, so that the committed text is what the renderer writes",
    )


def _clip(text: str, limit: int = 60) -> str:
    return shortened(text, limit)
