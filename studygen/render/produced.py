"""What the view's helpers printed, and where it landed in the README.

Checks need to tell text a helper computed from records from text a person
wrote (SG204 verdicts, SG206 hedged wording, SG205 counts, SG212/SG213 rows
behind a range), and, of text a person wrote, the study file's from the
template's (a finding about the first names the study-file field). While a
:func:`recording` block is active, every helper call appends what it
returned, with the rows it used, to the block's list, and every prose field
of the study file printed as written (:func:`written`) its field.

Where it landed is recorded by the render itself, not found again by
searching the text: while a template runs (:func:`anchoring`, which
:func:`studygen.render.engine.render_markdown` holds), each helper output
outside a table cell comes back wrapped in two **anchors**, invisible
markers (Unicode format characters of width 0, so that mdformat lays out a
table as it would without them) that carry a random 32-bit id. mdformat
formats the anchored text; :meth:`Anchors.strip` then removes every anchor
it issued (and what is left of one a template cut short) and notes, for each
output, its places (where it starts and ends) in the text that remains. Those
bytes are the README. A table is anchored inside its first and last cell (a
marker before a table's first pipe would be a cell of its own); a table cell
is placed by its table.
An id is random so that a record string cannot forge one: invisible
characters that are no anchor this render issued stay in the README as they
are.
"""

from __future__ import annotations

import functools
import re
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import NamedTuple

from ..patterns import lazy_compile
from ..place import Place

OPEN, CLOSE = "\u2060", "\u2061"  # word joiner, function application: where an output starts and ends
BITS = "\u2062\u2063"  # invisible times (0) and invisible separator (1): the id, 32 of them
ID_BITS = 32
ANCHOR = re.compile(f"[{OPEN}{CLOSE}][{BITS}]{{{ID_BITS}}}")
_LEADING_ANCHORS = re.compile(f"(?:{ANCHOR.pattern})*")
# What markdown-it trims off a table cell (mdTrim) on one line: a space, a tab, a Unicode space separator (Zs).
# A header cell keeps the blanks of the label it prints (a U+00A0 before a variant's label); an anchor put
# after the cell's spaces but before them would keep them in the README, and mdformat would then drop them.
_CELL_BLANKS = " \t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"


WRITTEN = "study_text"  # the kind of a study-file string printed as written (see written)


class OutputKind(NamedTuple):
    """What one kind of helper output is to the checks. ``side_by_side``: it
    puts figures of several rows together (a range, a ratio, a verdict, a
    side finding, a table column), so SG212 holds their timings comparable;
    ``concludes``: it states something built on its figures, so SG213 warns
    when one of them is unstable (a table that merely shows a figure does
    not, nor does the sentence that no verdict can be given)."""

    name: str
    side_by_side: bool = False
    concludes: bool = False


OUTPUT_KINDS = {kind.name: kind for kind in (
    OutputKind("figure"),
    OutputKind("ratio", side_by_side=True, concludes=True),
    OutputKind("range", side_by_side=True, concludes=True),
    OutputKind("verdict", side_by_side=True, concludes=True),
    OutputKind("no_verdict", side_by_side=True),
    OutputKind("side_finding", side_by_side=True, concludes=True),
    OutputKind("table", side_by_side=True),
    OutputKind("ap_difference"),
    OutputKind("expectation"),
    OutputKind("variant_list"),  # a Variants list item: what the study file declares
    OutputKind("condition"),  # a revisit_when entry: when to decide again
    OutputKind("gap"),
    OutputKind("dataset"),
    OutputKind("record_note"),  # a note a record holds on its input, printed as written: no result
    # a prose field of the study file printed as written (Produced.source names it), by the template or inside a
    # helper's output: the study's own words, not what a helper computed, so no check counts it as helper text
    OutputKind(WRITTEN),
)}


def kinds_where(flag: str) -> frozenset[str]:
    """The output kinds whose :class:`OutputKind` sets ``flag``."""
    return frozenset(name for name, kind in OUTPUT_KINDS.items() if getattr(kind, flag))


class HelperSpec(NamedTuple):
    """A template helper as declared by :func:`helper`."""

    kind: str | None
    markdown: bool


HELPER = "_studygen_helper"  # the attribute :func:`helper` sets (a name the sandbox keeps templates from)
_HELPING: ContextVar[str | None] = ContextVar("studygen_helper_kind", default=None)


def helper(kind: str | None = None, *, markdown: bool = False):
    """Declare a method of the view a template helper, where it is defined:
    ``kind`` is the :data:`OUTPUT_KINDS` entry of what it prints (None: it
    prints no figure of its own, such as a label or a selection of rows), and
    :func:`emit` inside it records that kind unless told another;
    ``markdown``: it returns Markdown blocks it built, record strings in them
    already escaped, which the template engine passes through as they are.
    Raises ValueError for a kind :data:`OUTPUT_KINDS` does not know."""
    if kind is not None and kind not in OUTPUT_KINDS:
        raise ValueError(f"unknown output kind {kind!r}")
    spec = HelperSpec(kind, markdown)

    def declare(function):
        if kind is None:
            setattr(function, HELPER, spec)
            return function

        @functools.wraps(function)
        def helping(*args, **kwargs):
            token = _HELPING.set(kind)
            try:
                return function(*args, **kwargs)
            finally:
                _HELPING.reset(token)

        setattr(helping, HELPER, spec)
        return helping

    return declare


def helper_spec(function) -> HelperSpec | None:
    """The declaration of ``function`` (a method, bound or not), None for anything not declared a helper."""
    return getattr(getattr(function, "__func__", function), HELPER, None)


@dataclass(frozen=True, eq=False)
class Produced:
    """One helper output: ``kind`` (figure, ratio, range, table, verdict,
    no_verdict, ap_difference, expectation, variant_list, condition, gap,
    side_finding, dataset, record_note; or :data:`WRITTEN`, a study-file
    string printed as written, see :func:`written`),
    the text it returned, the rows it was computed from
    (:class:`studygen.study.rows.Row`), and for tables the header cells.

    ``places`` are where the README shows it, filled when the formatted
    README is made (:meth:`Anchors.strip`): ``(start, end)`` character
    offsets into the README, end exclusive, once per time the template
    printed it; empty for an output the README does not show, and for a
    table cell (``within``: the header cells of its table, which places it).
    """

    kind: str
    text: str
    rows: tuple = ()
    headers: tuple = ()
    within: tuple = ()  # header cells of the table this output is a cell of
    # For a table, the row field whose rows are compared with each other: a column per variant, or
    # (repeated_measurements) a table row per measurement key. SG212 checks each such set.
    compared_by: str = "variant"
    # The (a, b) row pairs whose difference or ratio the text states (a ratio, a range of ratios or
    # savings, a verdict, a side finding, an attribution row); SG203 reads which differences the README uses.
    compared: tuple = ()
    places: list = field(default_factory=list, compare=False)
    # Which printed table a cell belongs to: the same token on the table's entry and on its cells
    # (:func:`cells_of`), so that two tables with the same header cells are told apart; and the
    # cell's body row in it (0-based), where its table builder names one. None when unknown.
    table: object = field(default=None, compare=False)
    cell_row: int | None = field(default=None, compare=False)
    # For a study-file string printed as written (kind WRITTEN): the study file as shown with the field's JSON
    # pointer (line 0: a check reads the line from the file), and the field's keys and indexes from the root.
    source: Place | None = field(default=None, compare=False)
    field_path: tuple = field(default=(), compare=False)


_PRODUCED: ContextVar[list | None] = ContextVar("studygen_produced", default=None)
_WITHIN: ContextVar["TableCells | None"] = ContextVar("studygen_within_table", default=None)
# the table whose cells were just made: its entry, emitted next, takes the token (see cells_of)
_FINISHED: ContextVar["TableCells | None"] = ContextVar("studygen_finished_table", default=None)
_ANCHORS: ContextVar["Anchors | None"] = ContextVar("studygen_anchors", default=None)


@contextmanager
def recording():
    """Collect :class:`Produced` entries of every helper call made inside the block."""
    log: list[Produced] = []
    token = _PRODUCED.set(log)
    try:
        yield log
    finally:
        _PRODUCED.reset(token)


class TableCells:
    """The table being built inside :func:`cells_of`: its header cells, and
    the body rows built so far (a cell made now is in row ``len(body)``)."""

    def __init__(self, headers: tuple, body: list | None = None):
        self.headers, self.body = headers, body

    def row_now(self) -> int | None:
        """0-based body row of a cell made now; None when the builder gave no body list."""
        return None if self.body is None else len(self.body)


@contextmanager
def cells_of(headers, body: list | None = None):
    """Mark helper outputs made while building a table as cells of that
    table; the table's own entry, emitted right after the block, is tied to
    them. ``body``: the list the builder appends the table's rows to, each
    after making its cells, so that a cell knows its row (a builder that
    adds several rows at once gives each of their cells the first)."""
    cells = TableCells(tuple(headers), body)
    token = _WITHIN.set(cells)
    try:
        yield cells
    finally:
        _WITHIN.reset(token)
        _FINISHED.set(cells)


class Anchors:
    """The anchors of one template run: which id stands for which output."""

    def __init__(self):
        self.items: dict[str, Produced] = {}

    def _issue(self, item: Produced) -> str:
        while True:
            bits = format(secrets.randbits(ID_BITS), f"0{ID_BITS}b").translate(_TO_BITS)
            if bits not in self.items:
                self.items[bits] = item
                return bits

    def wrap(self, item: Produced, text: str) -> str:
        """``text`` between the opening and closing anchor of ``item``; a
        table (``item.headers``) anchored inside its first and last cell."""
        bits = self._issue(item)
        if not item.headers:
            return f"{OPEN}{bits}{text}{CLOSE}{bits}"
        lines = text.split("\n")
        if not (lines[0].startswith("|") and lines[-1].endswith("|")):
            return text  # no GFM pipe table: left unplaced rather than broken
        # next to the cells' text, not to their padding: mdformat strips blanks around a cell, not anchors.
        # A delimiter row holding an anchor is no delimiter row: a table without body rows closes in its header.
        closing = len(lines) - 1 if len(lines) > 2 else 0
        last = len(lines[closing][:-1].rstrip(_CELL_BLANKS))
        lines[closing] = f"{lines[closing][:last]}{CLOSE}{bits}{lines[closing][last:]}"
        first = len(lines[0]) - len(lines[0][1:].lstrip(_CELL_BLANKS))
        lines[0] = f"{lines[0][:first]}{OPEN}{bits}{lines[0][first:]}"
        return "\n".join(lines)

    def plain(self, text: str) -> str:
        """``text`` without the anchors this run issued."""
        if OPEN not in text and CLOSE not in text:  # no anchor starts anywhere in it (most helper outputs)
            return text
        return ANCHOR.sub(lambda m: "" if m.group()[1:] in self.items else m.group(), text)

    def strip(self, text: str) -> str:
        """``text`` (the formatted README) without the anchors this run
        issued, each output's places noted in it (:attr:`Produced.places`).
        An output whose opening anchor has no closing one (a template that cut
        its text short) gets no place."""
        pieces, at, last, opened = [], 0, 0, {}
        spans: list[tuple[Produced, int, int]] = []
        for match in ANCHOR.finditer(text):
            item = self.items.get(match.group()[1:])
            if item is None:
                continue  # invisible characters of a record string: README text like any other
            pieces.append(text[last:match.start()])
            at += match.start() - last
            last = match.end()
            if match.group()[0] == OPEN:
                opened.setdefault(id(item), []).append(at)
            elif opened.get(id(item)):
                spans.append((item, opened[id(item)].pop(0), at))
        pieces.append(text[last:])
        stripped = self._without_remains("".join(pieces))
        for item, start, end in sorted(spans, key=lambda span: span[1]):
            item.places.append((start, end))
        return stripped

    def _without_remains(self, text: str) -> str:
        """``text`` without what is left of an anchor a template cut in two
        (``{{ helper()[:-5] }}``): a run of anchor characters, at least one of
        them a bit of an id, that is the start or the end of an anchor this run
        issued (left in, the README would change with the random ids). Such an
        output has no place."""
        if not any(char in text for char in _ALPHABET):
            return text
        issued = [marker + bits for bits in self.items for marker in (OPEN, CLOSE)]

        def cut(match) -> str:
            run = match.group()
            return "" if any(anchor.startswith(run) or anchor.endswith(run) for anchor in issued) else run

        return _REMAINS.sub(cut, text)


_TO_BITS = str.maketrans("01", BITS)
_ALPHABET = OPEN + CLOSE + BITS
# A lone word joiner is text (a record may hold one); remains hold at least one bit of an id.
_REMAINS = lazy_compile(f"[{OPEN}{CLOSE}]?[{BITS}]+")


@contextmanager
def anchoring():
    """Anchor every helper output made inside the block (see the module
    docstring); yields the :class:`Anchors` whose :meth:`~Anchors.strip`
    turns the formatted text into the README."""
    anchors = Anchors()
    token = _ANCHORS.set(anchors)
    try:
        yield anchors
    finally:
        _ANCHORS.reset(token)


def anchors_around(text: str) -> tuple[int, int]:
    """``(start, end)`` of ``text`` without the anchors before its first and
    after its last character of text: what escaping a string's start (or its
    whole line) must look at."""
    start = _LEADING_ANCHORS.match(text).end()
    end = len(text)
    while end - start > ID_BITS and ANCHOR.fullmatch(text, end - ID_BITS - 1, end):
        end -= ID_BITS + 1
    return start, end


def emit(text: str, rows=(), headers=(), compared_by: str = "variant", kind: str | None = None,
         compared=()) -> str:
    """``text`` as a helper returns it, noted as helper output when recording
    and anchored when a template runs (:func:`anchoring`; not a table cell).

    ``rows``: the rows the text was computed from; ``headers``: a table's
    header cells (only for a whole table, whose output is then no cell);
    ``compared_by``: see :attr:`Produced.compared_by`; ``kind``: what the
    output is (:data:`OUTPUT_KINDS`), by default the kind its helper declares
    (:func:`helper`); ``compared``: the ``(a, b)`` row pairs whose difference
    or ratio the text states (:attr:`Produced.compared`). Raises ValueError
    for an unknown kind, or none at all."""
    kind = kind or _HELPING.get()
    if kind not in OUTPUT_KINDS:
        raise ValueError(f"helper output of unknown kind {kind!r}")
    log, anchors = _PRODUCED.get(), _ANCHORS.get()
    if log is None and anchors is None:
        return text
    text = str(text)
    cells = None if headers else _WITHIN.get()
    table = cells
    if headers:  # a table's entry takes the cells made just before it, if they are its own, and no later table does
        finished = _FINISHED.get()
        _FINISHED.set(None)
        if finished is not None and finished.headers == tuple(headers):
            table = finished
    item = Produced(kind, anchors.plain(text) if anchors else text, tuple(rows), tuple(headers),
                    cells.headers if cells else (), compared_by, tuple(tuple(pair) for pair in compared),
                    table=table, cell_row=cells.row_now() if cells else None)
    return _noted(item, text, log, anchors)


def written(text: str, source: Place, field_path: tuple) -> str:
    """``text``, printed from the study-file field at ``field_path`` (its
    keys and indexes from the root; ``source``: the study file as shown with
    the field's pointer), noted as such when recording and anchored when a
    template runs, like a helper's output (:func:`emit`), so that a check
    finding fault with the sentence can name the field instead of the
    README. Inside a helper's output it is anchored within the helper's own
    anchors; in a table cell it is noted, not anchored."""
    log, anchors = _PRODUCED.get(), _ANCHORS.get()
    if log is None and anchors is None:
        return text
    text = str(text)
    cells = _WITHIN.get()
    item = Produced(WRITTEN, anchors.plain(text) if anchors else text, within=cells.headers if cells else (),
                    table=cells, cell_row=cells.row_now() if cells else None, source=source,
                    field_path=tuple(field_path))
    return _noted(item, text, log, anchors)


def _noted(item: Produced, text: str, log: list | None, anchors: "Anchors | None") -> str:
    """``text`` of ``item`` after noting the item in ``log`` (when recording),
    anchored when a template runs and the item is no table cell."""
    if log is not None:
        log.append(item)
    if anchors is None or item.within:
        return text
    return anchors.wrap(item, text)
