"""Which columns a prose range may be held to by the quantity its clause
names (SG101).

"LMDB uses 60-80% less memory" is about memory: a percentage column of
read throughput ("Advantage" beside ops/sec figures, unseen document 12)
is no summary of it, however near it sits or whatever word its header
shares with the sentence. So where the words around a range
(:func:`~studygen.lint.text.figure_scope`) name one quantity kind by its
quantity words (:func:`~studygen.lint.variant_pairs.kinds_named`:
"memory" and "size" are ``size``, "latency" ``time``, "throughput"
``throughput``, "accuracy" ``quality``; not in a phrase of what the range
varies over, "depending on model size"), a column of another kind is never
the one a finding names (:func:`holds_quantity`); like any column, it still
shows that the range fits somewhere when it does (lint stays quiet rather
than guess).

A column's kind comes from :func:`~studygen.lint.variant_pairs.kind_of_series`
(its unit, header words or the heading over its table); figures without a
unit take the unit a caption or heading gives; a percentage or ratio column
(and one without a unit) is told by its header words, its table's heading,
then its table's other columns (one kind among them; a column of rates in
any noun, "762,697 ops/sec", is a throughput: :func:`column_kind`). Time and
throughput are one family (a run that takes less time has the higher rate:
"20-30% faster" over a column of times or of rates), and so are quality and
error. A column whose kind nothing tells, and a clause that names no
quantity or two, are read as before (its section's columns and the columns
tied to it).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Sentence, Series, Table
from .figures import RATIO_UNITS, Range
from .text import figure_scope
from .columns import table_unit
from .variant_pairs import ERROR, QUALITY, THROUGHPUT, TIME, kind_of_series, kind_of_unit, kind_of_words, kinds_named

# kinds one range may be read across: a time and a rate of the same runs, a quality and its error
_FAMILY = {TIME: "speed", THROUGHPUT: "speed", QUALITY: "quality", ERROR: "quality"}
# A phrase naming what the range varies over, not what it measures: "depending on model size", "across all
# model sizes", "regardless of batch size", "for every input size" (up to the next mark of the clause)
_AXIS_PHRASE_RE = lazy_compile(r"\b(?:depending\s+on|regardless\s+of|irrespective\s+of|across|"
                               r"(?:for|at|on|over|with)\s+(?:all|each|every|any|different|various))\b[^,;:()]*",
                               re.IGNORECASE)
# a cell of a rate in any noun per second, a unit lint does not read as one ("762,697 ops/sec", "1.2M rows/s")
_RATE_CELL_RE = lazy_compile(r"^\s*[~≈]?\d[\d,.]*\s*[kmg]?\s*[a-z]+\s*/\s*(?:s|sec|second)\b", re.IGNORECASE)


def family(kind: str | None) -> str | None:
    """The family of a quantity ``kind`` (time and throughput: ``speed``;
    quality and error: ``quality``; size: itself); None for None."""
    return _FAMILY.get(kind, kind)


def clause_kind(sentence: Sentence, rng: Range) -> str | None:
    """The one quantity kind the words around ``rng`` (a range of
    ``sentence``, block offsets) name by quantity words, else None (no
    quantity word, or two kinds): "uses 60-80% less memory" is ``size``;
    a phrase of what it varies over names none (:data:`_AXIS_PHRASE_RE`:
    "1.5-2.6x faster depending on model size")."""
    start, end = figure_scope(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    kinds = kinds_named(_AXIS_PHRASE_RE.sub(" ", sentence.text[start:end]), "", ())
    return kinds[0] if kinds else None


def column_kind(series: Series) -> str | None:
    """The quantity kind of ``series``: by :func:`kind_of_series` (unit,
    header words, heading); for a column of figures without a unit by the
    unit its caption or a heading gives; for those and a percentage or ratio
    column by its header words, its table's heading words, then the one kind
    of its table's other columns; None when nothing tells or two kinds do."""
    kind = kind_of_series(series)
    if kind is not None or series.unit not in RATIO_UNITS | {None}:
        return kind
    table = series.table
    if series.unit is None:  # figures without a unit: the one the caption or a heading gives ("p50 µs")
        kind = kind_of_unit(table_unit(table))
        if kind is not None:
            return kind
    for words in (series.keywords, table.heading_words):
        kind = kind_of_words(tuple(sorted(words)))
        if kind is not None:
            return kind
    others = {kind_of_series(other, heading=False) for other in table.series if other.unit not in RATIO_UNITS}
    if _has_rate_cells(table, series.column):
        others.add(THROUGHPUT)
    others.discard(None)
    return others.pop() if len(others) == 1 else None


def _has_rate_cells(table: Table, column: int) -> bool:
    """True when a column of ``table`` other than ``column`` holds rates
    in every non-empty cell (:data:`_RATE_CELL_RE`)."""
    for other in range(len(table.headers)):
        cells = [row.cells[other] for row in table.rows if other < len(row.cells) and row.cells[other].strip()]
        if other != column and cells and all(_RATE_CELL_RE.match(cell) for cell in cells):
            return True
    return False


def holds_quantity(series: Series, kind: str | None) -> bool:
    """True when a range whose clause names quantity ``kind``
    (:func:`clause_kind`) may be held to ``series``: it names none, nothing
    tells the column's kind, or the column is of its family (:func:`family`)."""
    if kind is None:
        return True
    own = column_kind(series)
    return own is None or family(own) == family(kind)


__all__ = ["clause_kind", "column_kind", "family", "holds_quantity"]


# "1.9x - 3.7x faster", "5-16% faster", "a 9-18% speed advantage": a range of speed ratios, the quantity a
# column headed as a speedup holds; one word may stand between the range and the word that says so
SPEED_RATIO_AFTER_RE = lazy_compile(r"\W*(?:\w+\s+)?(?:faster|slower|quicker|speed-?ups?|slowdowns?|advantage)\b",
                                    re.IGNORECASE)
# "outperforms ONNX models by 5-16%": the same said before the range
_SPEED_BY_BEFORE_RE = lazy_compile(r"\b(?:outperform|faster|beat)\w*\b[^,;.]{0,40}\bby\s*$", re.IGNORECASE)


def speedup_reading(text: str, rng: Range) -> Range | None:
    """A percent range worded as a speed comparison (:data:`SPEED_RATIO_AFTER_RE`
    after it, "outperforms ... by" before it) read as the speed ratios it
    states, 16% faster being 1.16x (one more decimal for each of the two
    places the percent moves, so "16%" covers 1.155x to 1.165x), for a
    column of speedups in ``x`` ("| Gain | 1.19x faster |"); None for any
    other range. ``text``: the block the range's offsets index."""
    if rng.unit != "%" or rng.lo.value < 0 or not (SPEED_RATIO_AFTER_RE.match(text, rng.end) or
                                                   _SPEED_BY_BEFORE_RE.search(text, max(0, rng.start - 60), rng.start)):
        return None

    def as_ratio(figure):
        return figure._replace(value=1 + figure.value / 100, decimals=figure.decimals + 2, unit="x")

    return rng._replace(lo=as_ratio(rng.lo), hi=as_ratio(rng.hi), unit="x")

