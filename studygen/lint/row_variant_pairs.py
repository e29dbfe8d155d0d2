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

import re
from bisect import bisect_left
from dataclasses import replace

from .claims import name_shaped
from .document import Document, Sentence, Series, Table, is_empty_cell
from .header_names import name_words, prose_words
from .text import keywords


# The most tables of other sections a sentence is tied to by a label it names, nearest first: a summary names
# a precision over a few result tables; a bound keeps lint linear on a generated document of hundreds of them.
NAMING_LIMIT = 8


def _cell(text: str) -> str:
    return " ".join(text.split()).lower()


def _said(sentence: Sentence) -> tuple[tuple[int, int, str], ...]:
    """The sentence's words as :func:`~.header_names.prose_words` gives them, found once a sentence."""
    found = sentence.__dict__.get("_row_variant_words")
    if found is None:
        found = sentence.__dict__["_row_variant_words"] = prose_words(sentence.text)
    return found


def _at(said: tuple[tuple[int, int, str], ...], phrase: tuple[str, ...]) -> tuple[int, int] | None:
    """(start, end) of the first place the words ``said`` hold ``phrase`` in order (as
    :func:`~.header_names.phrase_at` over the same text), else None."""
    size = len(phrase)
    for index in range(len(said) - size + 1):
        if said[index][2] == phrase[0] and all(said[index + k][2] == phrase[k] for k in range(1, size)):
            return said[index][0], said[index + size - 1][1]
    return None


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


def _variant_columns(table: Table) -> list[tuple[int, tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]]:
    """(label column, its two labels, the words each is named by) of each label column of two labels named
    by words, for a table of two label columns or more; found once a table (every range of the document asks)."""
    made = table.pair_cache.get("variant columns")
    if made is None:
        made = []
        if len(table.label_columns) >= 2:
            for column in table.label_columns:
                labels = _two_labels(table, column)
                if labels is not None and all(words := (name_words(labels[0]), name_words(labels[1]))):
                    made.append((column, labels, words))
        table.pair_cache["variant columns"] = made
    return made


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


def naming_tables(document: Document, sentence: Sentence, skip) -> list[Table]:
    """The tables of ``document`` not in ``skip`` (a predicate) with a label column of two labels that
    ``sentence`` names one of: a table of another section than the sentence is tied to it so, as by a header
    word; at most :data:`NAMING_LIMIT`, nearest the sentence first. The tables are found by the first word of
    their labels (an index made once a document, in table order), read outward from the sentence's place:
    a sentence costs its own words and the tables it takes, not every table of the document."""
    index = document.__dict__.get("_row_variant_index")
    if index is None:
        index = document.__dict__["_row_variant_index"] = {}
        for table in document.tables:
            for _, _, words in _variant_columns(table):
                for named in words:
                    orders, tables = index.setdefault(named[0], ([], []))
                    if not tables or tables[-1] is not table:
                        orders.append(table.order)
                        tables.append(table)
    if not index:
        return []
    said = _said(sentence)
    here = sentence.block.order
    found: dict[int, Table] = {}
    for word in {word for _, _, word in said} & index.keys():
        orders, tables = index[word]
        after = bisect_left(orders, here)
        before, taken, looked = after - 1, 0, 0
        # tables the caller skips (its section's, those a header word gave) are passed over, a few limits' worth
        while taken < NAMING_LIMIT and looked < 4 * NAMING_LIMIT and (before >= 0 or after < len(tables)):
            looked += 1
            # the nearer of the next table above and the next below
            if after >= len(tables) or (before >= 0 and here - tables[before].order <= tables[after].order - here):
                table, before = tables[before], before - 1
            else:
                table, after = tables[after], after + 1
            if id(table) in found or skip(table):
                continue
            if any(_at(said, named) for _, _, words in _variant_columns(table) for named in words):
                found[id(table)] = table
                taken += 1
    return sorted(found.values(), key=lambda t: (abs(t.order - here), t.order))[:NAMING_LIMIT]


def _nearest(sentence: Sentence) -> set[int]:
    """Ids of the tables of other sections than the sentence's that :func:`naming_tables` gives it, found once
    a sentence: the only far tables whose rows it pairs, however many a header word ties it to."""
    found = sentence.__dict__.get("_row_variant_near")
    if found is None:
        section = sentence.block.section
        found = {id(t) for t in naming_tables(sentence.block.document, sentence, lambda t: t.section == section)}
        sentence.__dict__["_row_variant_near"] = found
    return found


_WORD_RE = re.compile(r"[a-z0-9][a-z0-9_+-]*")
_NAME_SHAPED_RE = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9+-]*)")


def _words(texts) -> frozenset[str]:
    return frozenset(word for text in texts for word in _WORD_RE.findall(text.lower()))


def _table_words(table: Table) -> frozenset[str]:
    found = table.pair_cache.get("row variant words")
    if found is None:
        found = table.pair_cache["row variant words"] = _words(
            (*table.headers, *(cell for row in table.rows for cell in row.cells)))
    return found


def _names_another_tables_row(table: Table, sentence: Sentence) -> bool:
    """Whether ``sentence`` names, by a word written as a name (a capital after its first letter or letters and
    digits mixed: ``GEMM``, ``A100``), something another table of its document holds and ``table`` does not: its
    figures are then of that table's rows. Case (a generated H200 README, session 27): "FP8's GEMM kernels take
    0.060 to 0.068 ms less than fp16's", a kernel group's difference, was read against a table of latencies and
    kernel totals whose rows are split by variant."""
    found = sentence.__dict__.get("_row_variant_names")
    if found is None:
        found = sentence.__dict__["_row_variant_names"] = frozenset(
            match.group(1).lower() for match in _NAME_SHAPED_RE.finditer(sentence.text) if name_shaped(match.group(1)))
    if not found:
        return False
    document = sentence.block.document
    everywhere = document.__dict__.get("_row_variant_words")
    if everywhere is None:  # every table's words, once a document (a word this table lacks is another's)
        everywhere = document.__dict__["_row_variant_words"] = frozenset().union(*map(_table_words, document.tables))
    mine = _table_words(table)
    return any(name not in mine and name in everywhere for name in found)



def row_variant_pairs(table: Table, unit: str | None, sentence: Sentence) -> list[tuple[Series, Series]]:
    """Pairs of ``unit`` from the row pairs of a label column of two labels that ``sentence`` names one of
    (the named one first; both named: the first named first), two keys at least; [] when there is none.
    Memoised per table, label column and named label."""
    found: list[tuple[Series, Series]] = []
    if table.section != sentence.block.section and id(table) not in _nearest(sentence):
        return found  # a far table the sentence names, past the nearest few: no pair (lint stays linear)
    if _names_another_tables_row(table, sentence):
        return found
    for column, labels, words in _variant_columns(table):
        said = _said(sentence)
        spans = [_at(said, named) for named in words]
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
            named_rows = None if rows is None else set(rows)
            matched = [(row, other) for row, other in _matched(table, column, first, second) if named_rows is None or row in named_rows]
            memo[key] = [] if len(matched) < 2 else [
                _split(series, first, second, matched) for series in table.series
                if series.unit == unit and series.column not in table.label_columns and series.stat in (None, "p50")]
        found.extend(memo[key])
    return found


__all__ = ["NAMING_LIMIT", "naming_tables", "row_variant_pairs"]
