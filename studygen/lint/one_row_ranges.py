"""A prose range said of one row: "the medium model keeps 98-99% word similarity" (SG101).

A range whose clause names the rows it speaks of may name a single row of a table, and then states that
row's value, not a spread of a column: SG101's column readers need two values and leave it unread.
:func:`one_row_finding` reads it when, in exactly one of the 16 tables nearest it,

- the words around the range (its clause: :func:`~studygen.lint.text.figure_scope`) restrict the table to one
  row (:meth:`~studygen.lint.document.Table.restrict`: a whole label, "medium", or a label and its header
  word; naming two rows names no one row, nor does a part of a label that leaves one: "(mode compile
  only) per forward in fp16" of a generated README named two compiled fp16 rows, and the part "compile" of
  one's job ``h200-compile-800x1067`` left that one, so a GEMM kernels' range was read as its kernel
  total), and
- exactly one column of the range's unit holds a figure in that row and is named there by a word of its
  header that names a quantity ("similarity" of ``Word Similarity``; not a variant's name, ``ONNX (ms)``);

and reports the row's figure when it lies outside the range, each end widened by half its last digit. A row
whose label names a metric or a statistic ("Avg compute", "p95") is no configuration a range is said of, and
a column of ratios (``x``, "speedup") may print the range's reference on the row it names; two
tables offering such a row and column, a hedged range (:func:`~studygen.lint.rounding.hedged_range` has
widened it) or a range of differences ("2-3% faster") are not read: which figure it states is not plain.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from .best_columns import names_quantity
from .document import Document, Sentence, Table
from .figures import Range, with_unit
from .restriction import restricted_rows
from .rounding import covers
from .text import figure_scope, keywords, normalize, ratio_header

HINT = "state the row's own figure (or a range that holds it), or name the rows the range is about"


# The tables read for one range, nearest first in document order: a long document of many small tables, each
# followed by a range, costs a few tables per range (tests/lint/test_lint_scaling.py), not every table.
NEAREST = 16


def _nearest(document: Document, order: int) -> list[Table]:
    """The :data:`NEAREST` tables nearest ``order`` (a block's place in the document), either side."""
    tables = document.tables
    if len(tables) <= NEAREST:
        return tables
    orders = document.memo.get("table orders")
    if orders is None:  # once a document: the tables' places, in order
        orders = document.memo["table orders"] = [t.order for t in tables]
    at = bisect_left(orders, order)
    low, high = max(0, at - NEAREST // 2), min(len(tables), at + NEAREST // 2)
    return tables[low:high]


# the words after a range that still name what it measures ("98-99% word similarity"): up to a comma, a
# parenthesis, a semicolon or a figure, at most this many characters
_AFTER = re.compile(r"[^,;:()\d]{0,40}")


def _near_words(text: str, clause_start: int, start: int, end: int) -> frozenset:
    """The words that name a range's quantity: its clause's words before it, and the few words right after it
    (:data:`_AFTER`). A header is taken to be named only when all its quantity words are among them: in "GEMM
    kernels take 0.978 to 1.185 ms ..., out of an fp16 profiled kernel total of 12.106 to 12.113 ms" (a
    generated README, session 28) the words of the second figure's column ("profiled kernel total") follow
    the first range, and that range is a kernel group's, no total."""
    after = _AFTER.match(text, end)
    return keywords(text[clause_start:start] + " " + (after.group(0) if after else ""))


def one_row_finding(document: Document, sentence: Sentence, rng: Range) -> tuple[int, str, str] | None:
    """(line, message, hint) when ``rng`` states one row's figure that its table does not hold (see the module
    docstring); None otherwise."""
    if rng.difference or rng.unit is None:
        return None
    # the words around the range (its clause, as SG101 scopes a range): a row named elsewhere in the sentence
    # ("TensorRT splits it into launches of 5-15 us each, so its latency ...") is another clause's subject
    start, end = figure_scope(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    scope = sentence.segment_view(start, end)
    words = _near_words(sentence.text, start, rng.start - sentence.start, rng.end - sentence.start)
    offered = []
    for table in _nearest(document, sentence.block.order):
        # a ratio column's row is often the reference the range is taken against ("0.4-0.55x of fp16"): not read
        series = [s for s in table.series if s.unit == rng.unit and s.measure and s.measure <= words and s.unit != "x"
                  and not ratio_header(s.header)]
        if not series:
            continue
        rows = table.restrict(scope)
        if rows is None or rows is table.all_rows or len(rows) != 1 or restricted_rows(table, scope, parts=False) != rows:
            continue  # one row only through a part of a label ("compile" of job h200-compile-800x1067): not named
        (row,) = rows
        cells = table.rows[row].cells
        if any(names_quantity(normalize(cells[c])) for c in table.label_columns if c < len(cells)):
            continue  # a row of a metric ("Avg compute", "p95"): a range beside it is no figure of one configuration
        filled = [s for s in series if s.values[row] is not None]
        if len(filled) == 1:
            offered.append((table, filled[0], row))
        if len(offered) > 1:
            return None
    if len(offered) != 1:
        return None
    table, series, row = offered[0]
    value = series.values[row]
    if covers(rng.lo, rng.hi, value.value):
        return None
    return (sentence.line_at(rng.start),
            f"range {rng.source} is said of {table.rows[row].name()} alone, whose '{series.header}' in the table "
            f"at line {table.line} is {with_unit(value.text, series.unit)}", HINT)


__all__ = ["one_row_finding"]
