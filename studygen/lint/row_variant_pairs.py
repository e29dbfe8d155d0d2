"""Column pairs made of row pairs, for a range of differences or ratios (SG101).

A table may write its variants as row labels, one row per model and precision:

    | Model | Precision | Latency (ms) | Memory (MB) |
    | small | FP16      | 20.0         | 300         |
    | large | FP16      | 25.0         | 410         |
    | small | FP32      | 40.0         | 200         |
    | large | FP32      | 35.0         | 300         |

"FP16 is 1.5-1.6x faster" or "FP16 takes 100-110 MB more" summarises the per-model ratios or differences of
the FP16 and FP32 rows of one column, as it would of two columns ``FP16 (ms)`` and ``FP32 (ms)``.
:func:`row_variant_pairs` offers such a column split in two: for a label column holding exactly two
labels, one of them named by the sentence, the rows of the two labels pair up when every other label cell
agrees (one row of each per key, two keys at least), and each measured column of the unit gives a pair
of :class:`~studygen.lint.document.Series` indexed like the table: the first holds the named label's
figure at its own row, the second the other label's figure at that same row, every other entry None. So
:func:`~studygen.lint.column_pairs.pair_reading` reads one entry per key, named by the first label's row.
Only the keys the whole sentence names are paired ("raises throughput 1.2x at batch 32 and 64, and frees
9.6 to 19.2 GB": the memory range is of those two batches too).

A label column of three labels or more ("FP32, FP16, INT8") gives no pair: which two the range compares
is then not read from one named label. Case (a Jetson benchmark page): "FP16 provides 1.7-1.8x faster
inference" over rows giving 1.76, 1.59 and 1.60, and "+120-140 MB" over 117, 119 and 125, both unread
while the precisions sat in a label column.
"""

from __future__ import annotations

from dataclasses import replace

from .document import Sentence, Series, Table, is_empty_cell
from .header_names import name_words, phrase_at
from .text import keywords


def _cell(text: str) -> str:
    return " ".join(text.split()).lower()


def _two_labels(table: Table, column: int) -> tuple[str, str] | None:
    """The two distinct label cells of ``column`` (lower case, single spaces) in table order, or None when
    it holds fewer or more, or one without a letter."""
    seen: list[str] = []
    for row in table.rows:
        cell = _cell(row.cells[column]) if column < len(row.cells) else ""
        if is_empty_cell(cell) or cell in seen:
            continue
        if not any(c.isalpha() for c in cell):
            return None
        seen.append(cell)
        if len(seen) > 2:
            return None
    return (seen[0], seen[1]) if len(seen) == 2 else None


def _matched(table: Table, column: int, first: str, second: str) -> list[tuple[int, int]]:
    """(row of ``first``, row of ``second``) for each key of the other label cells held by one row of each."""
    keys = [c for c in table.label_columns if c != column]

    def keyed(name: str) -> dict[tuple[str, ...], list[int]]:
        found: dict[tuple[str, ...], list[int]] = {}
        for i, row in enumerate(table.rows):
            if _cell(row.cells[column]) == name:
                found.setdefault(tuple(_cell(row.cells[c]) for c in keys), []).append(i)
        return found

    xs, ys = keyed(first), keyed(second)
    return [(xs[key][0], ys[key][0]) for key in xs if len(xs[key]) == 1 and len(ys.get(key, ())) == 1]


def _split(series: Series, label: str, other: str, matched: list[tuple[int, int]]) -> tuple[Series, Series]:
    size = len(series.values)
    mine: list = [None] * size
    theirs: list = [None] * size
    for row, other_row in matched:
        mine[row] = series.values[row]
        theirs[row] = series.values[other_row]

    def made(values: list, name: str) -> Series:
        return replace(series, header=f"{series.header} of {name}", keywords=series.keywords | keywords(name),
                       values=values, spans={})
    return made(mine, label), made(theirs, other)


def naming_tables(tables: list[Table], sentence: Sentence) -> list[Table]:
    """Those of ``tables`` with a label column of two labels that ``sentence`` names one of: a table of
    another section than the sentence is tied to it so, as by a header word."""
    return [table for table in tables if len(table.label_columns) >= 2 and any(
        (labels := _two_labels(table, column)) is not None and any(phrase_at(sentence.text, name_words(label)) for label in labels)
        for column in table.label_columns)]


def row_variant_pairs(table: Table, unit: str | None, sentence: Sentence) -> list[tuple[Series, Series]]:
    """Pairs of ``unit`` from the row pairs of a label column of two labels that ``sentence`` names one of
    (the named one first; both named: the first named first), two keys at least; [] when there is none.
    Memoised per table, label column and named label."""
    if len(table.label_columns) < 2 or not table.rows:
        return []
    found: list[tuple[Series, Series]] = []
    for column in table.label_columns:
        labels = _two_labels(table, column)
        if labels is None:
            continue
        spans = [phrase_at(sentence.text, name_words(label)) for label in labels]
        if not any(spans):
            continue
        if all(spans):
            first, second = labels if spans[0] <= spans[1] else labels[::-1]
        else:
            first, second = labels if spans[0] else labels[::-1]
        # the rows the whole sentence names ("... at batch 32 and 64, and frees 9.6 to 19.2 GB"): the pairs the
        # range's clause carries on from the clause before it
        rows = table.restrict(sentence.view)
        memo = table.pair_cache.setdefault("row variant pairs", {})
        key = (column, first, unit, None if rows is None else tuple(rows))
        if key not in memo:
            matched = [(row, other) for row, other in _matched(table, column, first, second) if rows is None or row in rows]
            memo[key] = [] if len(matched) < 2 else [
                _split(series, first, second, matched) for series in table.series
                if series.unit == unit and series.column not in table.label_columns and series.stat in (None, "p50")]
        found.extend(memo[key])
    return found


__all__ = ["naming_tables", "row_variant_pairs"]
