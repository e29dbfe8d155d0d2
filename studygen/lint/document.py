"""A Markdown document as the lint checks see it: typed tables and prose.

:func:`parse_document` runs markdown-it-py once (CommonMark + GFM tables and
strikethrough) and walks its tokens a single time:

- **prose blocks** (paragraphs, list-item paragraphs, headings) keep their
  plain text (inline code and link text kept, markup dropped) and the line
  of their first source line (``token.map``), so any offset maps back to a
  source line;
- **tables** become :class:`Table`: header cells, rows with their source
  line, label columns (GPU, TensorRT, shape … or any mostly non-numeric
  column) and numeric :class:`Series`, one per figure position in a cell
  (``5.889 / 14.747`` under ``fp16 ms 800x800 / 800x1067`` gives two series,
  ``fp16 ms 800x800`` and ``fp16 ms 800x1067``), each with its unit, the
  statistic it holds (min, p50, mean, p99, max …) and its header keywords;
- **fences** keep their map, so SG104 can tell an unclosed code fence.

markdown-it pads or truncates table rows to the header's cell count; each
row keeps the line of its ``token.map``, through which SG104 reads the raw
source line.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate

from markdown_it import MarkdownIt

from .figures import (
    RATIO_UNITS,
    UNITS,
    Figure,
    Range,
    Token,
    find_ranges,
    statistic_of,
    statistics_in,
    tokenize,
)
from .text import cached_keywords, figure_scope, keywords, label_tokens, measure_words, normalize, opening_phrase, split_sentences, stem

_PARSER: MarkdownIt | None = None


class cached:
    """A property computed on first access and then stored on the instance
    (functools.cached_property without its per-access lock, which Python
    3.11 takes on every first access; the model is never shared between
    threads)."""

    def __init__(self, function):
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = self.function(instance)
        instance.__dict__[self.name] = value
        return value


def markdown_parser() -> MarkdownIt:
    """The one markdown-it-py parser lint uses: CommonMark with the GFM table
    and strikethrough rules (the same rules mdformat-gfm renders)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    return _PARSER


# --- cells and headers -----------------------------------------------------

EMPTY_CELLS = frozenset({"", "-", "–", "—", "n/a", "na", "n.a.", "?", "tbd", "…", "..."})

_LABEL_HEADER_RE = re.compile(
    r"^\W*(?:gpus?|device|tensorrt|trt|version|software|shape|shapes|resolution|input|batch|model|models|"
    r"variant|variants|precision|dtype|recipe|config|configuration|part|parts|group|groups|kernel|kernels|"
    r"name|job|jobs|engine|backend|framework|layer|layers|component|setting|settings|dataset|run|stage|mode|"
    r"method|item|case|step|family|checkpoint|revision|commit|date|notes?|comment|source|what|where|"
    r"statistic|stat|metric|quantity)\b",
    re.IGNORECASE,
)
_HEADER_UNIT_RE = re.compile(
    r"(?<![\w/'])(" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u not in ("second", "seconds", "sec", "secs", "s"))
    + r"|s(?=\)|\]|$))(?![\w/])"
)
# A header split into the parts of a multi-figure cell: "fp16 ms 800x800 / 800x1067",
# "plan MiB fp16 to FP8", "GEMM ms fp16 → FP8", "min / max ms", "median (min–max)".
_HEADER_SPLIT_RE = re.compile(r"\s*/\s*(?!s\b)|\s+to\s+|\s*(?:→|->|=>)\s*|\s+vs\.?\s+|\s*[–—]\s*")
_RESIDUE_RE = re.compile(
    r"[\s/|(),;:±~≈→<>=+*\-–—\[\]]+|\b(?:to|vs|and|of|or|from|about)\b|\b(?:"
    + "|".join(re.escape(u) for u in UNITS if u[0].isalpha())
    + r")\b"
)
_LETTER_RE = re.compile(r"[A-Za-z]")
_PLAIN_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?")
_PLAIN_PAIR_RE = re.compile(r"(-?\d+(?:\.\d+)?) ?(?:/|→|->|to) ?(-?\d+(?:\.\d+)?)")
_ANNOTATION_RE = re.compile(r"^(.*?\S)\s*\(([^()]*[A-Za-z][^()]*)\)$")
_CONTEXT_UNIT_RE = re.compile(
    r"\((?:in\s+)?(" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True)) + r")\)"
    r"|\b(?:in|times\s+in|latency\s+in)\s+(ms|us|µs|MiB|GiB|MB|GB|seconds)\b"
)
_TEXT_HEADER_RE = re.compile(
    r"^\W*(?:notes?|comments?|remarks?|source|sources|details?|description|why|explanation|reason|command|link|links|see|evidence)\b",
    re.IGNORECASE,
)
_MAX_LABEL_WORDS = 5
_RANGE_HEADER_RE = re.compile(r"\brange\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def context_unit(context: str) -> str | None:
    """The one unit a table's heading or caption gives for all its figures
    ("Latency (ms)", "times in ms"), or None when it gives none or several."""
    found = {UNITS.get(a or b, "s" if (a or b) == "seconds" else None) for a, b in _CONTEXT_UNIT_RE.findall(context)}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


@lru_cache(maxsize=8192)
def header_unit(header: str) -> str | None:
    """The unit a header names (``GEMM ms fp16`` -> ``ms``, ``plan MiB`` ->
    ``MiB``, ``speedup (x)`` -> ``x``, ``AP fp16 / FP8`` -> ``AP``), or None."""
    match = _HEADER_UNIT_RE.search(header.replace("×", "x"))
    if not match:
        return None
    return UNITS.get(match.group(1))


_EMPTY = (None, False)


@lru_cache(maxsize=4096)
def _parsed_cell(text: str) -> tuple[tuple[Figure, ...] | None, bool]:
    """(figures when the cell is numeric else None, whether it holds
    anything): :func:`_cell_figures`, cached, since label cells ("B200",
    "11.4", "800 x 800") repeat on every row."""
    if len(text) < 5 and text.lower() in EMPTY_CELLS:
        return _EMPTY
    figures, numeric = _cell_figures(text)
    return (tuple(figures) if numeric else None), True


def _plain_figure(text: str, start: int) -> Figure:
    dot = text.find(".")
    decimals = len(text) - dot - 1 if dot != -1 else 0
    return Figure(float(text), text, decimals, None, start, start + len(text))


def _cell_figures(text: str) -> tuple[list[Figure], bool]:
    """(figures, numeric) of a cell: numeric when nothing but figures,
    separators and unit words is left once the figures are taken out. A
    trailing note in parentheses with words in it (``0.4644 (2 jobs: 0.4639
    to 0.4644)``) is left out; one of figures only (``5.3 (5.1–5.9)``) is kept."""
    # Fast paths for the common cells: "5.889", "0.409 → 0.073", "5.889 / 14.747".
    if _PLAIN_NUMBER_RE.fullmatch(text):
        return [_plain_figure(text, 0)], True
    pair = _PLAIN_PAIR_RE.fullmatch(text)
    if pair:
        return [_plain_figure(pair.group(1), pair.start(1)), _plain_figure(pair.group(2), pair.start(2))], True
    if text.endswith(")"):
        annotated = _ANNOTATION_RE.match(text)
        if annotated:
            figures, numeric = _cell_figures_plain(annotated.group(1))
            if numeric:
                return figures, True
    return _cell_figures_plain(text)


def _cell_figures_plain(text: str) -> tuple[list[Figure], bool]:
    tokens = tokenize(text)
    figures = [t.figure for t in tokens if t.figure is not None]
    if not figures:
        return figures, False
    pieces = []
    cursor = 0
    for token in tokens:
        pieces.append(text[cursor:token.start])
        cursor = token.end
    pieces.append(text[cursor:])
    residue = "".join(pieces)
    if residue.strip() and _LETTER_RE.search(_RESIDUE_RE.sub(" ", residue)):
        return figures, False
    return figures, True


# --- the document model ----------------------------------------------------


class Row:
    """A table body row: ``line`` is its 1-based source line; ``cells`` the
    plain text of each header column (markdown-it's padded view);
    :attr:`label` the label cells joined with `` / ``."""

    __slots__ = ("index", "line", "cells", "table", "_label")

    def __init__(self, index: int, line: int, cells: list[str], table: "Table | None" = None):
        self.index = index
        self.line = line
        self.cells = cells
        self.table = table
        self._label: str | None = None

    @property
    def label(self) -> str:
        """The row's label cells joined (``B200 / 11.1 / 800 x 1067``); "" when none."""
        if self._label is None:
            columns = self.table.label_columns if self.table is not None else ()
            self._label = " / ".join(
                t for t in (self.cells[c] for c in columns) if t and not (len(t) < 5 and t.lower() in EMPTY_CELLS)
            )
        return self._label

    def name(self) -> str:
        """``row 'B200 / 11.1 / 800 x 1067'`` (or ``the row at line N``)."""
        label = self.label
        return f"row '{label}'" if label else f"the row at line {self.line}"


@dataclass(eq=False)
class Series:
    """One numeric column of a table, or one figure position of a column
    whose cells hold several figures.

    ``values[i]`` is the :class:`Figure` of row ``i`` (None when empty);
    ``header`` the display name (``GEMM ms FP8``); ``varying`` the normalised
    header part that tells the sub-columns of one column apart (``fp8``,
    ``800x1067``; empty for a plain column); ``unit`` as in
    :mod:`studygen.lint.figures`; ``stat`` the statistic it holds or None."""

    table: "Table"
    column: int
    sub: int
    parts: int
    header: str
    varying: str
    unit: str | None
    stat: str | None
    keywords: frozenset[str]
    values: list[Figure | None]

    @cached
    def present_indexes(self) -> list[int]:
        """Indexes of the rows holding a value."""
        return [i for i, v in enumerate(self.values) if v is not None]

    @cached
    def present_values(self) -> list[float]:
        """The values of :attr:`present_indexes`."""
        return [self.values[i].value for i in self.present_indexes]

    @cached
    def bounds(self) -> tuple[float, float]:
        """(smallest, largest) value of the series."""
        present = [v.value for v in self.values if v is not None]
        return min(present), max(present)

    @cached
    def quantity(self) -> frozenset[str]:
        """Header keywords without statistic names (what is measured)."""
        return _quantity_words(self.keywords)

    @cached
    def measure(self) -> frozenset[str]:
        """Header keywords that name the quantity: no statistic, no variant
        name (see :func:`studygen.lint.text.measure_words`)."""
        return measure_words(self.quantity)

    @cached
    def sole_of_unit(self) -> bool:
        """True when no other series of its table has its unit: the unit
        itself then names the quantity (an "images/s" or "AP" column)."""
        return self.unit is not None and self.table.unit_counts[self.unit] == 1


@dataclass(eq=False)
class Table:
    """A GFM table: ``line`` is the header's 1-based source line."""

    order: int
    section: int
    line: int
    end_line: int
    headers: list[str]
    rows: list[Row]
    context: str = ""
    label_columns: list[int] = field(default_factory=list)
    series: list[Series] = field(default_factory=list)
    # label column -> normalised value -> row indexes
    label_values: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    numeric_labels: dict[int, str] = field(default_factory=dict)  # column -> header word before its numbers
    pair_cache: dict = field(default_factory=dict)  # unit -> column pairs (SG101)

    @cached
    def unit_counts(self) -> Counter:
        """Unit -> how many series of this table have it."""
        return Counter(s.unit for s in self.series)

    @cached
    def pair_units(self) -> frozenset[str]:
        """Units of this table's series that a difference can compare (not x or %)."""
        return frozenset(s.unit for s in self.series if s.unit and s.unit not in RATIO_UNITS)

    def restrict(self, view: "TextView") -> list[int] | None:
        """Row indexes that ``view``'s restriction phrases leave ("on TensorRT
        11.4", "at 800 x 800", "except B200"), all rows when it names none of
        this table's labels, None when it names labels of other tables only
        (the text is not about this table)."""
        key = id(self)
        if key in view.restrictions:
            return view.restrictions[key]
        rows = self._restrict(view)
        view.restrictions[key] = rows
        return rows

    @cached
    def terms(self) -> set[str]:
        """Every word of the table's labels, headers and caption (and their
        stems): a text naming none of them is not about this table."""
        terms = set(_header_terms(tuple(self.headers)))
        for values in self.label_values.values():
            for value in values:
                terms.update(label_tokens(value))
                terms.add(value)
        if self.context:
            terms.update(label_tokens(normalize(self.context)))
        terms.update([stem(t) for t in terms])
        return terms

    @property
    def row_source_lines(self) -> list[int]:
        """0-based source line of each body row (from its ``token.map``)."""
        return [row.line - 1 for row in self.rows]

    @cached
    def all_rows(self) -> list[int]:
        return list(range(len(self.rows)))

    @cached
    def _label_words(self) -> tuple[frozenset[str], bool]:
        """(header words of numeric label columns, whether a label value has several words)."""
        multiword = any(not _is_single_token(v) for values in self.label_values.values() for v in values)
        return frozenset(self.numeric_labels.values()), multiword

    def _restrict(self, view: "TextView") -> list[int] | None:
        mentioned_vocab = view.vocab_mentions
        if mentioned_vocab and not (mentioned_vocab & self.terms):
            return None
        numeric_words, multiword = self._label_words
        if not mentioned_vocab and not view.excluded and not multiword and not (numeric_words & view.token_set):
            return self.all_rows  # the text names none of this table's labels
        include: dict[int, set[str]] = {}
        exclude: dict[int, set[str]] = {}
        for column, values in self.label_values.items():
            header_word = self.numeric_labels.get(column)
            for value in values:
                if header_word is not None:
                    state = view.numeric_mention(header_word, value)
                else:
                    state = view.mention(value)
                if state == 1:
                    include.setdefault(column, set()).add(value)
                elif state == -1:
                    exclude.setdefault(column, set()).add(value)
        if not include and not exclude:
            return self.all_rows
        kept = set(range(len(self.rows)))
        for column, wanted in include.items():
            rows = set()
            for value in wanted:
                rows.update(self.label_values[column][value])
            kept &= rows
        for column, unwanted in exclude.items():
            for value in unwanted:
                kept.difference_update(self.label_values[column][value])
        return sorted(kept)


_EXCLUDE_WORDS = frozenset({"except", "excluding", "exclude", "besides", "without"})
_EXCLUSION_RE = re.compile(r"except|exclud|besides|without|other than|apart from")


@lru_cache(maxsize=16384)
def _is_single_token(value: str) -> bool:
    tokens = label_tokens(value)
    return len(tokens) == 1 and tokens[0] == value


class TextView:
    """A clause or sentence prepared for restriction tests: normalised text,
    its tokens (and their stems), the positions after exclusion words."""

    __slots__ = ("normalized", "tokens", "token_set", "excluded", "vocab_mentions", "restrictions", "_followers", "multiword_possible")

    def __init__(self, text: str, vocab: frozenset[str], multiword_labels: frozenset[str] = frozenset()):
        self.normalized = normalize(text)
        self.tokens = label_tokens(self.normalized)
        token_set = set(self.tokens)
        token_set.update(map(stem, self.tokens))
        self.token_set = token_set
        excluded = set()
        self.restrictions: dict[int, list[int] | None] = {}
        self._followers: dict[str, list[str]] = {}
        scan = _EXCLUSION_RE.search(self.normalized) is not None
        for index, token in enumerate(self.tokens if scan else ()):
            if token in _EXCLUDE_WORDS or (token == "than" and index and self.tokens[index - 1] == "other") or (
                token == "from" and index and self.tokens[index - 1] == "apart"
            ):
                excluded.update(self.tokens[index + 1:index + 6])
        self.excluded = excluded
        self.vocab_mentions = frozenset(token_set & vocab) if vocab else frozenset()
        # a label of several words ("fp16 Dequantize") may be named without any one-word label
        self.multiword_possible = bool(multiword_labels) and any(label in self.normalized for label in multiword_labels)

    def mention(self, value: str) -> int:
        """1 when the text names label ``value``, -1 when it names it after
        "except"/"excluding", 0 when it does not name it."""
        if _is_single_token(value):
            if value in self.token_set or stem(value) in self.token_set:
                return -1 if value in self.excluded else 1
            return 0
        match = re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w])", self.normalized)
        if not match:
            return 0
        first = label_tokens(value)
        return -1 if first and first[0] in self.excluded else 1

    def numeric_mention(self, header_word: str, value: str) -> int:
        """Like :meth:`mention` for a numeric label (``11.4`` under ``TensorRT``,
        ``1`` under ``batch``): it counts only within four words after the
        column's header word (``on TensorRT 11.4 and 11.1``); a version
        ``11.4.0.106`` is named by ``11.4``."""
        followers = self._followers.get(header_word)
        if followers is None:
            tokens = self.tokens
            followers = []
            if header_word in self.token_set:
                for index, token in enumerate(tokens):
                    if token == header_word:
                        followers.extend(tokens[index + 1:index + 5])
            self._followers[header_word] = followers
        for follower in followers:
            if follower == value or value.startswith(follower + ".") and follower[:1].isdigit():
                return -1 if follower in self.excluded else 1
        return 0


@dataclass(eq=False)
class Sentence:
    """A sentence of a prose block, with its figures and ranges (offsets
    relative to the block's text)."""

    block: "Block"
    start: int
    end: int
    tokens: list[Token]
    ranges: list[Range]

    @property
    def text(self) -> str:
        return self.block.text[self.start:self.end]

    def line_at(self, offset: int) -> int:
        """Source line of block-text ``offset``."""
        return self.block.line_at(offset)

    @cached
    def keywords(self) -> frozenset[str]:
        return keywords(self.text)

    @cached
    def measure(self) -> frozenset[str]:
        """Keywords naming quantities (variant names left out)."""
        return measure_words(self.keywords)

    @cached
    def view(self) -> TextView:
        document = self.block.document
        return TextView(self.text, document.label_vocab, document.multiword_labels)

    def clause_view(self, offset: int, length: int = 0) -> TextView:
        """The view that scopes a figure at block-text ``offset`` (``length``
        characters long): the words around it (see
        :func:`studygen.lint.text.figure_scope`) when they name a label, else
        the sentence's opening restriction phrase ("On TensorRT 11.4, A takes
        …, and B takes …"), else those words (no restriction)."""
        relative = offset - self.start
        document = self.block.document
        whole = self.view
        if not (
            whole.vocab_mentions or whole.excluded or whole.multiword_possible
            or document.numeric_header_words & whole.token_set or document.header_parts & whole.token_set
        ):
            return whole  # the sentence names no label and no header part at all
        start, end = figure_scope(self.text, relative, relative + max(length, 1))
        own = self._segment_view(start, end)
        if own.vocab_mentions or own.excluded or document.numeric_header_words & own.token_set:
            return own
        opening = self.opening_view
        if opening is not None and (opening.vocab_mentions or document.numeric_header_words & opening.token_set):
            return opening
        return own

    @cached
    def opening_view(self) -> "TextView | None":
        opening = opening_phrase(self.text)
        return TextView(opening, self.block.document.label_vocab) if opening else None

    def _segment_view(self, start: int, end: int) -> TextView:
        views = self.__dict__.setdefault("_segment_views", {})
        view = views.get((start, end))
        if view is None:
            view = views[(start, end)] = TextView(self.text[start:end], self.block.document.label_vocab)
        return view


@dataclass(eq=False)
class Block:
    """A paragraph or heading: ``text`` is its plain text, soft breaks kept
    as newlines, ``line`` its first source line (1-based)."""

    document: "Document"
    order: int
    section: int
    kind: str
    line: int
    end_line: int
    text: str
    heading: str
    in_list: bool = False

    def line_at(self, offset: int) -> int:
        """Source line of ``offset`` in :attr:`text`."""
        return self.line + self.text.count("\n", 0, offset)

    @cached
    def has_digits(self) -> bool:
        """Whether the text holds any digit (no figure, no range otherwise)."""
        return _DIGIT_RE.search(self.text) is not None

    @cached
    def sentences(self) -> list[Sentence]:
        """The block's sentences, each with its figure tokens and ranges."""
        tokens = tokenize(self.text)
        ranges = find_ranges(self.text, tokens) if len(tokens) > 1 else []
        sentences = []
        for start, end in split_sentences(self.text):
            own_tokens = [t for t in tokens if start <= t.start < end]
            own_ranges = [r for r in ranges if start <= r.start < end]
            sentences.append(Sentence(self, start, end, own_tokens, own_ranges))
        return sentences


@dataclass(eq=False)
class Fence:
    """A fenced code block: ``line`` its opening line, ``closed`` whether a
    closing fence ends it before the end of its container."""

    line: int
    end_line: int
    markup: str
    closed: bool


@dataclass(eq=False)
class Document:
    """A parsed Markdown document (see the module docstring)."""

    path: str
    text: str
    lines: list[str]
    blocks: list[Block] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    paragraph_lines: list[tuple[int, int]] = field(default_factory=list)
    label_vocab: frozenset[str] = frozenset()
    multiword_labels: frozenset[str] = frozenset()
    numeric_header_words: frozenset[str] = frozenset()
    header_parts: frozenset[str] = frozenset()  # varying parts of split headers ("fp8", "800x1067")

    @cached
    def prose(self) -> list[Block]:
        """Paragraph blocks (headings left out)."""
        return [b for b in self.blocks if b.kind == "paragraph"]

    @cached
    def series_by_section(self) -> dict[tuple[int, str | None], list[Series]]:
        """(section, unit) -> series of the tables in that section."""
        grouped: dict[tuple[int, str | None], list[Series]] = {}
        for table in self.tables:
            for series in table.series:
                grouped.setdefault((table.section, series.unit), []).append(series)
        return grouped

    @cached
    def lowered(self) -> str:
        """The source text in lower case (for substring prefilters)."""
        return self.text.lower()

    @cached
    def _line_starts(self) -> list[int]:
        return [0, *accumulate(len(line) + 1 for line in self.lines[:-1])]

    def line_of_offset(self, offset: int) -> int:
        """1-based line of a character offset into :attr:`text`."""
        return bisect_right(self._line_starts, offset)

    @cached
    def _table_at(self) -> dict[int, Table]:
        return {t.order: t for t in self.tables}

    def tables_by_order(self, *orders: int) -> list[Table]:
        """The tables at these block positions (a table and a block share one order)."""
        return [self._table_at[o] for o in orders if o in self._table_at]

    @cached
    def tables_by_section(self) -> dict[int, list[Table]]:
        grouped: dict[int, list[Table]] = {}
        for table in self.tables:
            grouped.setdefault(table.section, []).append(table)
        return grouped

    @cached
    def tables_by_keyword(self) -> dict[str, list[Table]]:
        """Header keyword -> tables with a series whose header holds it."""
        grouped: dict[str, list[Table]] = {}
        for table in self.tables:
            words = set()
            for series in table.series:
                words.update(series.keywords)
            for word in words:
                grouped.setdefault(word, []).append(table)
        return grouped

    @cached
    def series_by_unit(self) -> dict[str | None, list[Series]]:
        grouped: dict[str | None, list[Series]] = {}
        for table in self.tables:
            for series in table.series:
                grouped.setdefault(series.unit, []).append(series)
        return grouped


_DIGIT_RE = re.compile(r"\d")
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
    _finish(document)
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
    _type_columns(table)
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


def _type_columns(table: Table) -> None:
    """Split the table's columns into label columns and numeric series."""
    numeric_columns: list[tuple[int, list, int]] = []
    label_texts: dict[int, list[str]] = {}
    # markdown-it pads every row to the header's cells: transpose once
    columns = list(zip(*[row.cells for row in table.rows])) if table.rows else [()] * len(table.headers)
    for column, header in enumerate(table.headers):
        unit = header_unit(header)
        texts = columns[column]
        cells = list(map(_parsed_cell, texts))
        nonempty = len(cells) - cells.count(_EMPTY)
        if nonempty == 0:
            continue
        parsed = [cell[0] for cell in cells]
        numeric = len(parsed) - parsed.count(None)
        if (unit is None and _is_label_header(header)) or numeric * 2 <= nonempty:
            if not _is_text_header(header) and _short_cells(texts):
                table.label_columns.append(column)
                label_texts[column] = texts
            continue
        lengths = {len(f) for f in parsed if f}
        if len(lengths) == 1:
            parts = lengths.pop()
        else:
            parts = Counter(len(f) for f in parsed if f).most_common(1)[0][0]
        numeric_columns.append((column, parsed, parts))
    _label_rows(table, label_texts)
    split_labels: dict[int, list[str]] = {}
    for column, parsed, parts in numeric_columns:
        if parts > 1:
            headers = _split_header(table.headers[column], parts)
            if headers is not None:
                split_labels.setdefault(parts, [varying for _, varying in headers])
    default_unit = context_unit(table.context) if table.context else None
    for column, parsed, parts in numeric_columns:
        _add_series(table, column, parsed, parts, split_labels.get(parts), default_unit)


@lru_cache(maxsize=4096)
def _header_terms(headers: tuple[str, ...]) -> frozenset[str]:
    terms = set()
    for header in headers:
        terms.update(label_tokens(normalize(header)))
    return frozenset(terms)


@lru_cache(maxsize=8192)
def _quantity_words(words: frozenset[str]) -> frozenset[str]:
    return frozenset(k for k in words if statistic_of(k) is None)


@lru_cache(maxsize=4096)
def _is_label_header(header: str) -> bool:
    return _LABEL_HEADER_RE.match(header) is not None


@lru_cache(maxsize=4096)
def _is_text_header(header: str) -> bool:
    return _TEXT_HEADER_RE.match(header) is not None


def _short_cells(texts) -> bool:
    """True when the cells are short enough to be row labels (not notes)."""
    return any(texts) and max(text.count(" ") for text in texts) < _MAX_LABEL_WORDS


def _label_rows(table: Table, label_texts: dict[int, list[str]]) -> None:
    """Label values per label column and each row's label (``B200 / 11.1 / 800 x 1067``)."""
    for column, texts in label_texts.items():
        values: dict[str, list[int]] = {}
        numbers = counted = 0
        for row_index, text in enumerate(texts):
            if not text or len(text) < 5 and text.lower() in EMPTY_CELLS:
                continue
            value = normalize(text)
            values.setdefault(value, []).append(row_index)
            counted += 1
            if value.replace(".", "").isdigit():
                numbers += 1
        table.label_values[column] = values
        if values and numbers == counted:
            header_tokens = label_tokens(normalize(table.headers[column]))
            if header_tokens:
                table.numeric_labels[column] = header_tokens[0]


def _split_header(header: str, parts: int) -> list[tuple[str, str]] | None:
    """(display header, varying part) per figure position, when the header
    splits into ``parts`` pieces; shared words are borrowed from the longest
    piece (``fp16 ms 800x800 / 800x1067`` -> ``fp16 ms 800x800``,
    ``fp16 ms 800x1067``; ``min / max ms`` -> ``min ms``, ``max ms``)."""
    pieces = [p.strip() for p in _HEADER_SPLIT_RE.split(header)]
    if len(pieces) != parts or not all(pieces):
        return None
    words = [p.split() for p in pieces]
    first, last = len(words[0]), len(words[-1])
    result = []
    if first >= last:
        shared = words[0][: first - min(len(w) for w in words[1:])] if parts > 1 else []
        for i, piece_words in enumerate(words):
            own = piece_words[len(shared):] if i == 0 else piece_words
            full = piece_words if i == 0 else shared + piece_words
            result.append((" ".join(full), normalize(" ".join(own))))
    else:
        keep = last - min(len(w) for w in words[:-1])
        shared = words[-1][len(words[-1]) - keep:]
        for i, piece_words in enumerate(words):
            own = piece_words[: len(piece_words) - keep] if i == len(words) - 1 else piece_words
            full = piece_words if i == len(words) - 1 else piece_words + shared
            result.append((" ".join(full), normalize(" ".join(own))))
    return result


@lru_cache(maxsize=8192)
def _series_specs(header: str, parts: int, sibling_labels: tuple[str, ...] | None) -> tuple[tuple, ...]:
    """(display header, varying part, header unit, statistic, keywords) per
    figure position of a column; cached, since generated documents repeat
    their headers table after table."""
    unit = header_unit(header)
    split = _split_header(header, parts) if parts > 1 else None
    stats = [s[0] for s in statistics_in(header)]
    if parts == 2 and len(stats) != 2 and _RANGE_HEADER_RE.search(header):
        stats = ["min", "max"]
    specs = []
    for sub in range(parts):
        if split is not None:
            display, varying = split[sub]
        elif parts > 1:
            varying = sibling_labels[sub] if sibling_labels else f"#{sub + 1}"
            display = f"{header} {varying}" if sibling_labels else f"{header} (figure {sub + 1} of {parts})"
        else:
            display, varying = header, ""
        part_unit = header_unit(display) if split is not None else unit
        if part_unit is None:
            part_unit = unit
        if split is not None:
            stat_names = [s[0] for s in statistics_in(display)]
            stat = stat_names[0] if len(set(stat_names)) == 1 else None
        elif len(stats) == parts:
            stat = stats[sub]
        else:
            stat = stats[0] if parts == 1 and len(set(stats)) == 1 else None
        if stat and parts > 1 and split is None:
            display = f"{header}, {'median' if stat == 'p50' else stat}"
        specs.append((display, varying, part_unit, stat, cached_keywords(display)))
    return tuple(specs)


def _add_series(table: Table, column: int, parsed: list, parts: int, sibling_labels: list[str] | None, default_unit: str | None) -> None:
    header = table.headers[column] or f"column {column + 1}"
    specs = _series_specs(header, parts, tuple(sibling_labels) if sibling_labels else None)
    unit = header_unit(header)
    for sub, (display, varying, part_unit, stat, words) in enumerate(specs):
        if parts == 1:
            values = [(f[0] if len(f) == 1 else _one_of_unit(f, unit)) if f else None for f in parsed]
        else:
            values = [f[sub] if f and len(f) == parts else None for f in parsed]
        units_seen = {v.unit for v in values if v is not None}
        units_seen.discard(None)
        if units_seen:
            cell_units = Counter(v.unit for v in values if v is not None and v.unit)
            if part_unit is None:
                part_unit = cell_units.most_common(1)[0][0]
            if units_seen != {part_unit}:
                values = [v if v is None or v.unit in (None, part_unit) else None for v in values]
        if part_unit is None:
            part_unit = default_unit
        if any(v is not None for v in values):
            table.series.append(Series(table, column, sub if parts > 1 else -1, parts, display, varying, part_unit, stat, words, values))


def _one_of_unit(figures, unit: str | None) -> Figure | None:
    """The one figure of ``unit`` in a cell holding several ("5.889 ms (1.01x)")."""
    chosen = [f for f in figures if f.unit == unit] if unit else []
    return chosen[0] if len(chosen) == 1 else None


def _finish(document: Document) -> None:
    """The document's label vocabulary: one-word labels, labels of several
    words, and the header words that introduce numeric labels."""
    vocab = set()
    multiword = set()
    numeric_words = set()
    for table in document.tables:
        for column, values in table.label_values.items():
            if column in table.numeric_labels:
                numeric_words.add(table.numeric_labels[column])
                continue
            for value in values:
                if _is_single_token(value):
                    vocab.add(value)
                else:
                    multiword.add(value)
    document.label_vocab = frozenset(vocab)
    document.multiword_labels = frozenset(multiword)
    document.header_parts = frozenset(
        part for table in document.tables for series in table.series
        for part in label_tokens(series.varying) if series.varying and not series.varying.startswith("#")
    )
    document.numeric_header_words = frozenset(numeric_words)

