"""Every escaper of render: how a string from a record or a study file is
placed in a README so that it reads exactly as written, escaped once.

- :func:`escape_prose`: what the template engine applies to any plain string
  a template prints (render/engine.py); emphasis and code spans are left to
  the template's author.
- :func:`escape_markup`: :func:`escape_prose` with the string's own inline
  markup shown as text (``study.escape``: a note a collector copied).
- :func:`escape_cell`: a record string in a GFM table cell (HTML, ``|``,
  backticks, backslashes; control and bidirectional characters as ``\\uXXXX``).
- :func:`escape_label` and :func:`escape_label_in_prose`: a label (a
  variant's label, a GPU name, a recipe name) in a table cell, or inside
  text a helper returns as a plain string for the engine to escape: its
  emphasis, link and strikethrough characters as text too, so ``*fast*``
  never prints italic.
- :func:`escape_alt`: an image's alt text.
- :func:`escape_name`: a name in a line or cell of ``studygen diff``'s
  pull-request comment (emphasis and link characters too, but ``_``
  inside a word).

A helper escapes a string once, with the one escaper of the place it puts
it: a helper declared Markdown (:func:`~studygen.render.produced.helper`)
escapes everything it prints, one returning a plain string escapes nothing
but the inline markup of its labels (:func:`escape_label_in_prose`), and the
engine escapes the rest (:func:`escape_prose`). Escaping HTML twice shows
``&lt;`` to the reader; escaping a label's ``*`` not at all shows emphasis.
"""

from __future__ import annotations

import functools
import html
import re

from ..markdown_format import format_markdown
from ..patterns import lazy_compile
from .produced import anchors_around

# CommonMark's inline markup characters (0.31, "Backslash escapes"), and GFM's ~ (strikethrough); of them,
# those escape_cell leaves as they are (it escapes backslashes and backticks itself)
_INLINE_MARKUP = re.compile(r"[\\`*_\[\]~]")
_LABEL_MARKUP = re.compile(r"[*_\[\]~]")


def escape_cell(text) -> str:
    """A record string made safe for one GFM table cell: line breaks folded to
    one space (:func:`fold_line_breaks`), control and bidirectional
    characters as ``\\uXXXX`` (as :func:`escape_prose` shows them), HTML
    escaped, backslashes, pipes and backticks backslash-escaped."""
    value = _CONTROL.sub(_code_point, fold_line_breaks(str(text)))
    value = html.escape(value, quote=False)
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


# C0 and C1 control characters but tab (a newline is folded, not escaped): a terminal escape
# (\x1b[2J) or a NUL from a record never reaches the README or the terminal that shows it. So do the
# bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): a U+202E in a note
# would show the rest of its line reversed (Unicode TR #9; the "Trojan Source" characters).
_CONTROL = lazy_compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A run of line breaks; the blanks around it are stripped from the text beside it (fold_line_breaks).
# One pattern that also held the blanks ([ \t]*[\r\n]+[ \t]*) tried every blank of a long run as a
# start: 60,000 spaces took render two minutes.
_LINE_BREAKS = lazy_compile(r"[\r\n\u2028\u2029\x85]+")
# A thematic break (CommonMark 0.31: three or more of one of "-", "*", "_", spaces and tabs between), matched
# before a bullet ("* * *" is both): the whole line is its opening, so no anchor lands beside one of its markers
_THEMATIC_BREAK = re.compile(r"([-*_])[ \t]*(?:\1[ \t]*){2,}")
# Of a "*" or "_" rule, the markers mdformat escapes (escape_asterisk_emphasis, escape_underscore_emphasis):
# every one but those with a blank on both sides; a "-" rule gets one backslash, before its first marker,
# as mdformat writes a paragraph line. Escaped in full, "* * *" read "\* \* \*", which mdformat rewrites.
_RULE_MARKERS = re.compile(r"(?<![ \t])[*_]|[*_](?![ \t])")
# What makes a line a block when it starts it (CommonMark 0.31): an ATX heading, a quote, a
# bullet or ordered list item, a setext underline (a thematic break: above), a fence, a link reference
# definition (a quote's ">" and an HTML block's "<" are entities already); escaped by a backslash before the
# character that makes it. Anywhere in a line, "|" could make a table row.
_BLOCK_STARTS = (
    re.compile(r"^(#{1,6})(?=[ \t]|$)"),
    re.compile(r"^([-+*])(?=[ \t]|$)"),
    re.compile(r"^\d{1,9}([.)])(?=[ \t]|$)"),
    re.compile(r"^(=)=*[ \t]*$"),
    re.compile(r"^(`{3,}|~{3,})"),
    re.compile(r"^(\[)[^\]]*\]:"),
)


def escape_prose(text) -> str:
    """A string from a record or a study file made safe for Markdown prose,
    wherever a template places it (a paragraph, a heading, a list item, alt
    text), without changing how an ordinary string reads: line breaks folded
    to one space (a string cannot end a paragraph, start a heading or a list
    item), leading blanks dropped (spaces and tabs: four would start a code
    block; Unicode space separators such as U+00A0 or U+3000 too: mdformat
    drops them where a line starts, and a block start behind them would
    open the line), trailing blanks put after the closing anchors, where
    mdformat drops them at a line end (and dropped after a ``*`` or ``_``), HTML's
    ``<``, ``>`` and ``&`` as entities, control characters as ``\\uXXXX``,
    ``|`` as ``\\|`` and a start that would make a block (``#``, ``>``,
    ``-``, ``1.``, ``---``, a fence, ``[x]:``) backslash-escaped. Emphasis,
    links and code spans in the text are left to the template's author
    (inside a code span a backslash would show: CommonMark 0.31,
    "Backslash escapes"). A helper's anchors around the string
    (:mod:`studygen.render.produced`) are no text: what they enclose is
    escaped as the string itself. Where the string opens with what mdformat
    escapes only at the start of a line (a block start above, or ``>``), the
    anchors before it move past that opening and the blanks after it; when
    nothing follows (``---``, a rule only as a whole line), the anchors on
    both sides are dropped and the output gets no place. An anchor beside the
    opening would hide it from mdformat, which then removes the escape, and
    the README would get the heading, list or rule the string spelled."""
    value = fold_line_breaks(str(text))
    start, end = anchors_around(value)
    escaped, opening, blanks = _escaped_prose(value[start:end])
    if start and opening:
        rest = escaped[opening:]
        return (escaped[:opening] + value[:start] + rest + value[end:] if rest else escaped) + blanks
    return value[:start] + escaped + value[end:] + blanks


def _code_point(match) -> str:
    """A control character matched by :data:`_CONTROL` as ``\\uXXXX``."""
    return f"\\u{ord(match.group()):04x}"


# After an escaped block start: the blanks mdformat reads with it (a "#" is a heading only before one)
_BLANKS = lazy_compile(r"[ \t]*")
# Two spaces before a line break make a hard one: trailing blanks are written with no two spaces together
_SPACE_RUN = lazy_compile(" {2,}")
_QUOTE_ENTITY = "&gt;"  # a ">" as html.escape writes it: mdformat escapes a line that starts with one


def _escaped_prose(value: str) -> tuple[str, int, str]:
    """``(escaped, opening, blanks)``: ``value`` escaped for prose, less its
    leading and trailing blanks; the length of its opening that mdformat must
    see first on a line to keep it text (an escaped block start and the
    blanks after it, or a ``>``; 0 when it has none); and the trailing blanks
    as mdformat writes them inside a line (tabs as spaces, a run of spaces as
    one), for after the closing anchors."""
    # str.lstrip drops what str.isspace holds; after folding and the control characters' escapes that is a
    # space, a tab or a Unicode space separator (Zs: U+00A0, U+2003, U+3000, ...), which markdown-it trims
    # off a paragraph, a heading or a list item (mdTrim) and mdformat off each line of a paragraph
    # (str.strip): written, it would go, and a "# x" behind it would open the line unescaped
    # Trailing blanks likewise go where a line ends (a paragraph's, a heading's, a list item's), but not before a
    # closing anchor, which mdformat keeps: they follow the anchors, where mdformat drops or keeps them itself
    value = _CONTROL.sub(_code_point, value).lstrip()
    kept = value.rstrip()
    # but after a "*" or "_": mdformat leaves the marker unescaped between a blank and the Unicode blank, then drops
    # that blank at a line end and escapes the marker on the next pass ("* * *\u00a0" formats to "\* * *")
    blanks = "" if kept.endswith(("*", "_")) else _SPACE_RUN.sub(" ", value[len(kept):].replace("\t", " "))
    value = html.escape(kept, quote=False).replace("|", "\\|")
    if _THEMATIC_BREAK.fullmatch(value):
        escaped = "\\" + value if value[0] == "-" else _RULE_MARKERS.sub(r"\\\g<0>", value)
        return escaped, len(escaped), blanks
    for pattern in _BLOCK_STARTS:
        match = pattern.match(value)
        if match:
            at = next(match.start(i) for i in range(1, (match.lastindex or 0) + 1) if match.group(i) is not None)
            escaped = value[:at] + "\\" + value[at:]
            return escaped, _BLANKS.match(escaped, match.end() + 1).end(), blanks
    return value, len(_QUOTE_ENTITY) if value.startswith(_QUOTE_ENTITY) else 0, blanks


def fold_line_breaks(text: str) -> str:
    """``text`` with each run of line breaks (CR, LF, U+2028, U+2029, NEL)
    and the blanks (spaces, tabs) on either side of it as one space; linear
    in the length of ``text``, whatever its runs of blanks."""
    pieces = _LINE_BREAKS.split(text)
    if len(pieces) == 1:
        return text
    last = len(pieces) - 1
    return " ".join(piece.lstrip(" \t") if index == last else piece.rstrip(" \t") if index == 0
                    else piece.strip(" \t") for index, piece in enumerate(pieces))


def escape_markup(text) -> str:
    """:func:`escape_prose` with the inline markup of the text shown as
    text too: ``\\``, `````, ``*``, ``_``, ``[``, ``]`` and ``~``
    backslash-escaped (CommonMark 0.31, "Backslash escapes"; ``~`` for GFM's
    strikethrough), so that a note a collector copied from a log cannot add
    a link, an image, emphasis or a code span to the README, and reads as
    the log wrote it. For the template helper ``study.escape``."""
    return escape_prose(_INLINE_MARKUP.sub(r"\\\g<0>", str(text)))


def escape_alt(text) -> str:
    """An image's alt text (``![alt](path)``) as plain text that mdformat
    writes back as it is: line breaks folded to one space, control and
    bidirectional characters as ``\\uXXXX``, blanks at either end dropped.

    mdformat writes an alt text as the text it reads as (CommonMark keeps a
    description's text, not its markup), unescaped: ``\\_scaled\\_mm\\_``
    was written ``_scaled_mm_``, which the next pass read as emphasis and
    wrote ``scaled_mm``, so check's SG104 failed the README render had just
    written, and no escape survives that. The text is therefore kept as
    written when mdformat gives it back unchanged (:func:`_stays_as_written`:
    ``scaled_mm``, ``R&D``, ``a < b``); otherwise each character that may
    open or close inline markup (a backslash, a backtick, ``*``, ``_``,
    ``~``, a bracket, ``<``, ``>``, ``&``) is written as its fullwidth form
    (``＿scaled＿mm＿``), which reads alike and which no Markdown reads as
    markup, so a group or label name can neither close the alt text nor add
    a link, emphasis or HTML."""
    value = _CONTROL.sub(_code_point, fold_line_breaks(str(text))).strip()
    if _stays_as_written(value):
        return value
    return _CONTROL.sub(_code_point, fold_line_breaks(str(text)).translate(_FULLWIDTH_MARKUP)).strip()


# Inline markup characters of CommonMark 0.31 and GFM that can open or close markup in an alt text, each mapped
# to its fullwidth form (U+FF01-U+FF5E are U+0021-U+007E shifted by 0xFEE0)
_FULLWIDTH_MARKUP = str.maketrans({char: chr(ord(char) + 0xFEE0) for char in "\\`*_~[]<>&"})


def _stays_as_written(alt: str) -> bool:
    """True when ``![alt](x)`` is one image whose alt text reads as ``alt``,
    text only (no markup, escape or character reference), and mdformat
    formats the line to itself. The alt text is parsed on its own whatever
    surrounds the image, so this holds in any README. ``GEMM](http://x) ![y``
    formats to itself too, as two images: hence the parse."""
    line = f"![{alt}](x)"
    if format_markdown(line) != line + "\n":
        return False
    (inline,) = _inline_parser().parseInline(line)
    if len(inline.children) != 1:
        return False
    (image,) = inline.children
    alt_tokens = image.children or []
    return image.type == "image" and image.attrs.get("src") == "x" and \
        all(token.type == "text" for token in alt_tokens) and "".join(token.content for token in alt_tokens) == alt


@functools.cache
def _inline_parser():
    """markdown-it as CommonMark with GFM's strikethrough, built once (imported only when an alt text is escaped)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("strikethrough")


def escape_label(text) -> str:
    """A label (a variant's label, a GPU name, a recipe name) made safe for
    one GFM table cell and read as written: :func:`escape_cell`, and its
    emphasis, link and strikethrough characters (``*``, ``_``, ``[``,
    ``]``, ``~``) backslash-escaped too (``*SXM*`` never prints italic)."""
    return _LABEL_MARKUP.sub(r"\\\g<0>", escape_cell(text))


# A "_" that can open or close emphasis: not between two letters or digits (GFM: intraword "_" never does)
_EDGE_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
_NAME_MARKUP = re.compile(r"[*\[\]~]")


def escape_name(text) -> str:
    """A name from a record or a study file (a kernel group, a figure in
    words) in a line or a cell of a pull-request comment, read as written:
    :func:`escape_cell`, and ``*``, ``[``, ``]``, ``~`` and each ``_`` not
    inside a word backslash-escaped, so that ``*bold*`` or ``_x_`` shows no
    emphasis and ``[text](url)`` no link, while ``deformable_detr_h200``
    keeps its underscores as they are (inside a word they make no
    emphasis). A bare URL may still be autolinked (GFM's extension):
    escaping cannot stop that."""
    return _EDGE_UNDERSCORE.sub(r"\\_", _NAME_MARKUP.sub(r"\\\g<0>", escape_cell(text)))


def escape_label_in_prose(text) -> str:
    """A label inside a sentence a helper returns as a plain string, which
    the template engine then escapes for prose (:func:`escape_prose`: HTML,
    ``|``, a block start): only the label's inline markup, backslash-escaped
    here (``\\``, `````, ``*``, ``_``, ``[``, ``]``, ``~``), so that each
    character is escaped once in all."""
    return _INLINE_MARKUP.sub(r"\\\g<0>", fold_line_breaks(str(text)))


def code_span(text) -> str:
    """A study-file name (a variant's, a recipe's) as a CommonMark code span,
    whose content shows as written with no escape at all (a backslash in a
    code span is a backslash): line breaks folded and control characters as
    ``\\uXXXX``, fenced by one backtick more than its longest run of
    backticks, with a space inside each fence where it starts or ends with
    one (CommonMark 0.31, "Code spans")."""
    value = _CONTROL.sub(_code_point, fold_line_breaks(str(text)))
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"
