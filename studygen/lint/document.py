"""The lint model of a Markdown document: typed tables and prose.

- :class:`Document` holds the document's prose :class:`Block` s (paragraphs,
  list-item paragraphs, headings: plain text and first source line, so any
  offset maps back to a line), its :class:`Table` s and its :class:`Fence` s,
  with the lookups the checks share (series by unit or section, tables by
  header keyword, the label vocabulary prose is matched against);
- a :class:`Table` has header cells, :class:`Row` s with their source line,
  label columns (GPU, TensorRT, shape … or any mostly non-numeric column) and
  numeric :class:`Series`, one per figure position in a cell, each with its
  unit, statistic and header keywords (typed by :mod:`studygen.lint.columns`);
- a :class:`Sentence` of a block carries its figure tokens and ranges, and
  the :class:`~studygen.lint.restriction.TextView` that says which rows of a
  table its clauses name.

:mod:`studygen.lint.parse` builds the model from one markdown-it-py parse.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..patterns import lazy_compile
from .figures import RATIO_UNITS, Figure, Range, Token, find_ranges, statistic_of, tokenize
from .restriction import TextView, is_single_token, restricted_rows
from .vocabulary import ascii_folded
from .worded_ratios import readings as worded_readings
from .text import elided_subject, figure_scope, keywords, label_tokens, measure_words, normalize, opening_phrase, split_sentences, stem

_LINE_BREAK_RE = lazy_compile("\n")


class cached_property:  # noqa: N801 - used as functools.cached_property is
    """A property computed on first read and kept in the instance's
    ``__dict__`` (later reads never reach it): functools.cached_property
    without the lock it takes on every first read in Python 3.11, which the
    model's many small objects (sentences, series) paid for each."""

    def __init__(self, function):
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)
        return value


# What an empty table cell holds ("-", "n/a", "tbd" …); compared in lower case.
EMPTY_CELLS = frozenset({"", "-", "–", "—", "n/a", "na", "n.a.", "?", "tbd", "…", "..."})


def is_empty_cell(text: str) -> bool:
    """True when a cell's text says it holds nothing (``""``, ``-``, ``n/a``, ``TBD`` …)."""
    return len(text) < 5 and text.lower() in EMPTY_CELLS


_NEWLINE_RE = lazy_compile("\n")


class SourceLines(Sequence):
    """The lines of a text (``text.split("\\n")``) without a string per line.

    ``lines[i]`` is line ``i`` (0-based), sliced from :attr:`text` when read;
    :attr:`starts` holds the offset each line starts at, 8 bytes a line
    (the split list would hold ~90 bytes a line for as long as the model
    lives). Negative indexes and slices read as a list's."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str):
        self.text = text
        self.starts = array("q", [0])
        self.starts.extend(match.end() for match in _NEWLINE_RE.finditer(text))

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.starts)))]
        count = len(self.starts)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("line index out of range")
        end = self.starts[index + 1] - 1 if index + 1 < count else len(self.text)
        return self.text[self.starts[index]:end]


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
        """The row's label cells joined (``B200 / 11.1 / 800 x 1067``); "" when
        none. An empty first label cell beside other label cells continues
        the label above it (a model named on the first row of its group
        only: ``R101 / 4``)."""
        if self._label is None:
            columns = self.table.label_columns if self.table is not None else ()
            cells = [self.cells[c] for c in columns]
            # (only beside another label cell: a lone empty label is no continuation, it names nothing)
            if len(cells) > 1 and is_empty_cell(cells[0]) and self.index:
                cells[0] = self._label_above(columns[0])
            self._label = " / ".join(t for t in cells if not is_empty_cell(t))
        return self._label

    def _label_above(self, column: int) -> str:
        """The nearest non-empty cell of ``column`` above this row ("" at the top)."""
        rows = self.table.rows
        for index in range(self.index - 1, -1, -1):
            text = rows[index].cells[column]
            if not is_empty_cell(text):
                return text
        return ""

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
    # row -> (low end, high end) of a cell holding a range of values ("1.20–1.31", "(3 jobs: 1.20 to 1.31)");
    # such a row's ``values`` entry is None: no one figure stands for it (studygen.lint.columns)
    spans: dict[int, tuple[Figure, Figure]] = field(default_factory=dict)

    def ends(self, row: int) -> tuple[Figure, ...]:
        """The figures row ``row`` holds: its value alone, the (low, high) ends
        of a cell holding a range, or none for an empty cell."""
        value = self.values[row]
        return (value,) if value is not None else self.spans.get(row, ())

    @cached_property
    def figures(self) -> list[tuple[int, Figure]]:
        """(row, figure) of every value of the series in row order, both ends
        of a cell holding a range counted as values of the column."""
        if not self.spans:
            return [(i, v) for i, v in enumerate(self.values) if v is not None]
        return [(i, end) for i in range(len(self.values)) for end in self.ends(i)]

    @cached_property
    def present_indexes(self) -> list[int]:
        """Indexes of the rows holding a value."""
        return [i for i, v in enumerate(self.values) if v is not None]

    @cached_property
    def bounds(self) -> tuple[float, float]:
        """(smallest, largest) value of the series."""
        present = [v.value for _, v in self.figures]
        return min(present), max(present)

    @cached_property
    def quantity(self) -> frozenset[str]:
        """Header keywords without statistic names (what is measured)."""
        return _quantity_words(self.keywords)

    @cached_property
    def measure(self) -> frozenset[str]:
        """Header keywords that name the quantity: no statistic, no variant
        name (see :func:`studygen.lint.text.measure_words`)."""
        return measure_words(self.quantity)

    @cached_property
    def sole_of_unit(self) -> bool:
        """True when no other series of its table has its unit: the unit
        itself then names the quantity (an "images/s" or "AP" column)."""
        return self.unit is not None and self.table.unit_counts[self.unit] == 1


class Table:
    """A GFM table: ``line`` is the header's 1-based source line. (A plain
    class, as :class:`Row`: a dataclass's generated methods cost each process
    a compile when this module is imported.)"""

    def __init__(self, order: int, section: int, line: int, end_line: int, headers: list[str], rows: list[Row],
                 context: str = "", headings: tuple[str, ...] = ()):
        self.order, self.section, self.line, self.end_line = order, section, line, end_line
        self.headers, self.rows, self.context = headers, rows, context
        self.headings = headings  # the headings above the table, nearest first
        self.label_columns: list[int] = []
        self.series: list[Series] = []
        # label column -> normalised value -> row indexes
        self.label_values: dict[int, dict[str, list[int]]] = {}
        self.numeric_labels: dict[int, str] = {}  # column -> header word before its numbers
        # label column -> word of its labels -> rows whose label holds it ("decode" of "deepep_decode")
        self.label_parts: dict[int, dict[str, set[int]]] = {}
        self.pair_cache: dict = {}  # what checks keep per table: column pairs by unit (SG101), labelled rows (SG103)

    @cached_property
    def unit_counts(self) -> Counter:
        """Unit -> how many series of this table have it."""
        return Counter(s.unit for s in self.series)

    @cached_property
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
        rows = restricted_rows(self, view)
        view.restrictions[key] = rows
        return rows

    @cached_property
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

    @cached_property
    def all_rows(self) -> list[int]:
        """Every row index, ascending: the rows' own index objects, which
        every list of row indexes of the table shares."""
        return [row.index for row in self.rows]

    @cached_property
    def heading_words(self) -> frozenset[str]:
        """Quantity words of the heading above the table ("Time per token
        (ms)" over columns named baseline and quantized)."""
        return measure_words(keywords(self.context.split("\n", 1)[0])) if self.context else frozenset()

    @cached_property
    def part_words(self) -> frozenset[str]:
        """Every label word of :attr:`label_parts`."""
        return frozenset(part for parts in self.label_parts.values() for part in parts)

    @cached_property
    def label_words(self) -> tuple[frozenset[str], bool]:
        """(header words of numeric label columns, whether a label value has several words)."""
        multiword = any(not is_single_token(v) for values in self.label_values.values() for v in values)
        return frozenset(self.numeric_labels.values()), multiword


class Sentence:
    """A sentence of a prose block, with its figures and ranges (offsets
    relative to the block's text)."""

    def __init__(self, block: "Block", start: int, end: int, tokens: list[Token], ranges: list[Range]):
        self.block, self.start, self.end, self.tokens, self.ranges = block, start, end, tokens, ranges

    @cached_property
    def text(self) -> str:
        """The sentence's text (sliced once: clauses and views read it often)."""
        return self.block.text[self.start:self.end]

    def line_at(self, offset: int) -> int:
        """Source line of block-text ``offset``."""
        return self.block.line_at(offset)

    @cached_property
    def range_ends(self) -> frozenset[int]:
        """Start offsets of the figures that are a range's endpoints ("1.2-1.5x"):
        SG101 checks ranges, so the single-figure rules skip them."""
        return frozenset({r.lo.start for r in self.ranges} | {r.hi.start for r in self.ranges})

    @cached_property
    def by_unit(self) -> dict:
        """unit -> (figures of that unit that are no range's endpoint, ranges
        of that unit), each in sentence order: built once, so a sentence of
        many ranges does not rescan itself per range (issue 23 item 6)."""
        grouped: dict = {}
        ends = self.range_ends
        for token in self.tokens:
            figure = token.figure
            if figure is not None and token.start not in ends:
                grouped.setdefault(figure.unit, ([], []))[0].append(figure)
        for rng in self.ranges:
            grouped.setdefault(rng.unit, ([], []))[1].append(rng)
        return {unit: (tuple(figures), tuple(ranges)) for unit, (figures, ranges) in grouped.items()}

    @cached_property
    def keywords(self) -> frozenset[str]:
        return keywords(self.text)

    @cached_property
    def measure(self) -> frozenset[str]:
        """Keywords naming quantities (variant names left out)."""
        return measure_words(self.keywords)

    @cached_property
    def view(self) -> TextView:
        document = self.block.document
        return TextView(self.text, document.label_vocab, document.multiword_labels, document.label_parts)

    def clause_view(self, offset: int, length: int = 0) -> TextView:
        """The view that scopes a figure at block-text ``offset`` (``length``
        characters long): the words around it (see
        :func:`studygen.lint.text.figure_scope`) when they name a label, else
        the sentence's opening restriction phrase ("On TensorRT 11.4, A takes
        …, and B takes …"), else those words (no restriction)."""
        relative = offset - self.start
        document = self.block.document
        start, end = figure_scope(self.text, relative, relative + max(length, 1))
        own = self.segment_view(start, end)
        # a clause opening with a verb has the subject of the clause before: "INT4 is slow at 32, but turns faster from 64"
        subject = elided_subject(self.text, start)
        if subject is not None:
            named = self.segment_view(*subject)
            if named.vocab_mentions or named.part_mentions:
                return TextView(f"{named.normalized} {self.text[start:end]}", document.label_vocab, parts=document.label_parts)
        if names_rows(own, document):
            return own  # (the sentence then names a label too: the whole-sentence view is not needed)
        if start > 1 and _APPOSITION_RE.fullmatch(self.text, start, relative):
            # ", by 1.26x to 1.47x" says how much of the clause before it ("faster from M = 16"): scoped by it
            joined = self.segment_view(figure_scope(self.text, start - 2, start - 1)[0], end)
            if names_rows(joined, document):
                return joined
        whole = self.view
        if not (names_rows(whole, document) or whole.multiword_possible or document.header_parts & whole.token_set):
            return whole  # the sentence names no label and no header part at all
        # inside a parenthesis the whole parenthesis scopes it: "(nvfp4 loses at 1024, 0.80-0.83x)"
        opened = self.text.rfind("(", 0, relative)
        if opened != -1 and self.text.rfind(")", opened, relative) == -1:
            closed = self.text.find(")", relative)
            inner = self.segment_view(opened + 1, closed if closed != -1 else len(self.text))
            if names_rows(inner, document):
                return inner
        opening = self.opening_view
        if opening is not None and names_rows(opening, document):
            return opening
        return own

    @cached_property
    def opening_view(self) -> "TextView | None":
        opening = opening_phrase(self.text)
        document = self.block.document
        return TextView(opening, document.label_vocab, parts=document.label_parts) if opening else None

    def segment_view(self, start: int, end: int) -> TextView:
        """The view of the sentence's text ``start:end`` (offsets into
        :attr:`text`), made once per span: several checks read one clause."""
        views = self.__dict__.setdefault("_segment_views", {})
        view = views.get((start, end))
        if view is None:
            document = self.block.document
            view = views[(start, end)] = TextView(self.text[start:end], document.label_vocab, parts=document.label_parts)
        return view


class Block:
    """A paragraph or heading: ``text`` is its plain text, soft breaks kept
    as newlines, ``line`` its first source line (1-based)."""

    def __init__(self, document: "Document", order: int, section: int, kind: str, line: int, end_line: int, text: str,
                 heading: str, in_list: bool = False, headings: tuple[str, ...] = ()):
        self.document, self.order, self.section, self.kind = document, order, section, kind
        self.line, self.end_line, self.text, self.heading, self.in_list = line, end_line, text, heading, in_list
        self.headings = headings  # the headings above the block, nearest first

    def line_at(self, offset: int) -> int:
        """Source line of ``offset`` in :attr:`text`."""
        return self.line + bisect_left(self._line_ends, offset)

    @cached_property
    def _line_ends(self) -> list[int]:
        # offsets of the text's line breaks, found once: counting them up to each finding's offset cost a
        # paragraph of a megabyte its length again per finding
        return [match.start() for match in _LINE_BREAK_RE.finditer(self.text)]

    @cached_property
    def lowered(self) -> str:
        """The block's text in lower case, folded as ``re.IGNORECASE`` reads
        letters (:func:`~studygen.lint.vocabulary.ascii_folded`: a long s is an
        s), so that a substring prefilter never passes over what the pattern
        after it matches; as long as :attr:`text`, offset for offset."""
        return ascii_folded(self.text)

    @cached_property
    def has_digits(self) -> bool:
        """Whether the text holds any digit or a ratio written in words ("twice
        as fast as": :mod:`studygen.lint.worded_ratios`): no figure, no range otherwise."""
        return _DIGIT_RE.search(self.text) is not None or bool(worded_readings(self.text))

    @cached_property
    def sentences(self) -> list[Sentence]:
        """The block's sentences, each with its figure tokens and ranges."""
        tokens = tokenize(self.text)
        ranges = find_ranges(self.text, tokens) if len(tokens) > 1 else []
        sentences = []
        # tokens and ranges are in text order, as are the sentences: one pass over each
        token_at = range_at = 0
        for start, end in split_sentences(self.text):
            while token_at < len(tokens) and tokens[token_at].start < start:
                token_at += 1
            first_token = token_at
            while token_at < len(tokens) and tokens[token_at].start < end:
                token_at += 1
            while range_at < len(ranges) and ranges[range_at].start < start:
                range_at += 1
            first_range = range_at
            while range_at < len(ranges) and ranges[range_at].start < end:
                range_at += 1
            sentences.append(Sentence(self, start, end, tokens[first_token:token_at], ranges[first_range:range_at]))
        return sentences


class Fence:
    """A fenced code block: ``line`` its opening line, ``closed`` whether a
    closing fence ends it before the end of its container."""

    def __init__(self, line: int, end_line: int, markup: str, closed: bool):
        self.line, self.end_line, self.markup, self.closed = line, end_line, markup, closed


class Document:
    """A parsed Markdown document (see the module docstring)."""

    def __init__(self, path: str, text: str, lines: SourceLines):
        self.path, self.text, self.lines = path, text, lines
        self.blocks: list[Block] = []
        self.tables: list[Table] = []
        self.fences: list[Fence] = []
        self.paragraph_lines: list[tuple[int, int]] = []
        self.label_vocab: frozenset[str] = frozenset()
        self.multiword_labels: frozenset[str] = frozenset()
        self.label_parts: frozenset[str] = frozenset()  # words of labels that tell rows apart ("decode", "first")
        self.numeric_header_words: frozenset[str] = frozenset()
        self.header_parts: frozenset[str] = frozenset()  # varying parts of split headers ("fp8", "800x1067")
        self.memo: dict = {}  # what checks keep per document (SG101: the columns backing a kind of claim)

    @cached_property
    def prose(self) -> list[Block]:
        """Paragraph blocks (headings left out)."""
        return [b for b in self.blocks if b.kind == "paragraph"]

    @cached_property
    def series_by_section(self) -> dict[tuple[int, str | None], list[Series]]:
        """(section, unit) -> series of the tables in that section."""
        grouped: dict[tuple[int, str | None], list[Series]] = {}
        for table in self.tables:
            for series in table.series:
                grouped.setdefault((table.section, series.unit), []).append(series)
        return grouped

    @cached_property
    def lowered(self) -> str:
        """The source text in lower case, folded as :attr:`Block.lowered` is
        (for substring prefilters)."""
        return ascii_folded(self.text)

    def line_of_offset(self, offset: int) -> int:
        """1-based line of a character offset into :attr:`text`."""
        return bisect_right(self.lines.starts, offset)

    @cached_property
    def _table_at(self) -> dict[int, Table]:
        return {t.order: t for t in self.tables}

    def tables_by_order(self, *orders: int) -> list[Table]:
        """The tables at these block positions (a table and a block share one order)."""
        return [self._table_at[o] for o in orders if o in self._table_at]

    @cached_property
    def tables_by_section(self) -> dict[int, list[Table]]:
        grouped: dict[int, list[Table]] = {}
        for table in self.tables:
            grouped.setdefault(table.section, []).append(table)
        return grouped

    @cached_property
    def table_orders_by_section(self) -> dict[int, list[int]]:
        """Section -> its tables' block orders, ascending (tables come in document
        order): a block finds its nearest tables by bisection."""
        return {section: [t.order for t in tables] for section, tables in self.tables_by_section.items()}

    @cached_property
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

    @cached_property
    def tables_by_heading_word(self) -> dict[str, list[Table]]:
        """Quantity word of a table's heading (:attr:`Table.heading_words`) -> the tables under such a heading."""
        words = {word for table in self.tables for word in table.heading_words}
        return {word: [table for table in self.tables if word in table.heading_words] for word in words}

    @cached_property
    def series_by_unit(self) -> dict[str | None, list[Series]]:
        grouped: dict[str | None, list[Series]] = {}
        for table in self.tables:
            for series in table.series:
                grouped.setdefault(series.unit, []).append(series)
        return grouped


_DIGIT_RE = lazy_compile(r"\d")


# A clause of nothing but a figure and the word joining it to the clause before: ", by 1.3x", "— up to 2x"
_APPOSITION_RE = lazy_compile(r"\s*(?:[—–-]\s*)?(?:by|of|with|up\s+to)\s+(?:about|roughly|around|some\s+)?\s*", re.IGNORECASE)


def names_rows(view: TextView, document: "Document") -> bool:
    """True when ``view`` names a label, a label word, a sweep point or an exclusion."""
    return bool(
        view.vocab_mentions or view.excluded or view.part_mentions or view.bare_numbers or view.number_spans
        or document.numeric_header_words & view.token_set
    )


@lru_cache(maxsize=4096)
def _header_terms(headers: tuple[str, ...]) -> frozenset[str]:
    terms = set()
    for header in headers:
        terms.update(label_tokens(normalize(header)))
    return frozenset(terms)


@lru_cache(maxsize=8192)
def _quantity_words(words: frozenset[str]) -> frozenset[str]:
    return frozenset(k for k in words if statistic_of(k) is None)
