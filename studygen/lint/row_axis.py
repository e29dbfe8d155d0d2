"""The rows of a table as the variants a clause compares (SG103 row ratios,
SG107 comparisons between two rows).

"FP16 is 3.1x faster than FP32", "batch 8 gives 2.9x the throughput of batch
1", "the A100 row beats the H100 row": the variants are rows of one table,
named by the cells of its first label column, not columns named by their
headers. :func:`named_rows` finds the two rows a clause names and which of
them is the reference:

- a label with a letter ("a100", "int8+sq") is named whole-word, case aside;
  its words may be parted by a space, a hyphen or nothing ("GTX 1070",
  "GTX-1070", "gtx1070"; two numbers stay parted), and a vendor or product-line word
  opening it (:data:`~studygen.label_names.VENDOR_WORDS`: "GeForce GTX 1070", "Jetson AGX Orin")
  may be written or left out on either side; a label inside a longer one it
  also names ("int8" in "int8+sq") counts as the longer one;
- a label of a number ("8", "1.5") is named only together with its column's
  word, either side of it: "batch 8", "batch size 8", "bs=8" under "Batch",
  "8 GPUs" under "GPUs" (the spellings of
  :data:`~studygen.lint.vocabulary.CONFIGURATION_WORDS`); a bare "8" names
  nothing;
- each of the two labels names exactly one row, and no third is named;
- the reference is the row named right after "than", "vs", "over",
  "compared to" or a verb of ranking.

:func:`label_spans` gives where a clause names labels: a number there
("1070" of "GTX 1070", "8" of "batch 8") is part of a name, no figure.
"""

from __future__ import annotations

import bisect
import re

from ..label_names import label_pattern
from ..patterns import LazyPattern, lazy_compile
from .document import Document, Table
from .row_variants import RowPair, measured_series
from .text import keywords, normalize
from .variant_pairs import reference_before
from .vocabulary import CONFIGURATION_WORDS

_NUMBER_LABEL_RE = lazy_compile(r"\d+(?:\.\d+)?")


# "+ SDPA attention": the mark of a step that adds to the rows above it (an ablation's cumulative rows), no part
# of the name a sentence calls the row by ("SDPA attention")
_STEP_MARK_RE = lazy_compile(r"\+\s+(?=\S)")


def _label_of(cell: str) -> str:
    # cells are plain text already (markup removed by the parser): only case and spacing vary
    label = " ".join(cell.lower().split())
    step = _STEP_MARK_RE.match(label)
    return label[step.end():] if step else label


def naming_column(table: Table) -> int:
    """The label column whose cells name the table's rows: the first, unless it holds one label in every row (a
    table of one GPU, "| Jetson AGX Xavier | 64 |"), where the first that tells rows apart does ("batch 64");
    kept on the table."""
    column = table.pair_cache.get("naming column")
    if column is None:
        column = table.label_columns[0]
        for candidate in table.label_columns:
            if len({_label_of(row.cells[candidate]) for row in table.rows}) > 1:
                column = candidate
                break
        table.pair_cache["naming column"] = column
    return column


def _labelled_rows(table: Table) -> dict[str, list[int]]:
    """Label -> rows of the table's naming label column (:func:`naming_column`; labels of two characters
    or more with a letter); kept on the table, which clauses read repeatedly."""
    cached = table.pair_cache.get("labelled rows")
    if cached is None:
        column = naming_column(table)
        cached = {}
        for row in table.rows:
            label = _label_of(row.cells[column])
            if len(label) >= 2 and any(c.isalpha() for c in label):
                cached.setdefault(label, []).append(row.index)
        table.pair_cache["labelled rows"] = cached
    return cached


def _label_patterns(table: Table) -> list[tuple[str, tuple[str, ...], LazyPattern]]:
    """(label, its words, pattern) of each label of :func:`_labelled_rows`;
    kept on the table. A pattern is compiled at its first search: only where
    a text holds the label's words (most labels are never searched for)."""
    cached = table.pair_cache.get("label patterns")
    if cached is None:
        cached = []
        for label in _labelled_rows(table):
            words, pattern = label_pattern(label)
            cached.append((label, words, lazy_compile(pattern)))
        table.pair_cache["label patterns"] = cached
    return cached


def _patterns_by_start(table: Table) -> tuple[dict[str, list[int]], tuple[int, ...], list[int]]:
    """(the first word-character run of a label's first word -> indexes into
    :func:`_label_patterns`, the lengths of those runs, the indexes of labels
    whose first word opens with no word character); kept on the table."""
    cached = table.pair_cache.get("label starts")
    if cached is None:
        by_start: dict[str, list[int]] = {}
        others = []
        for index, (_, words, _) in enumerate(_label_patterns(table)):
            run = _WORD_RUN_RE.match(words[0])
            if run is None:
                others.append(index)
            else:
                by_start.setdefault(run.group(), []).append(index)
        cached = by_start, tuple(sorted({len(start) for start in by_start})), others
        table.pair_cache["label starts"] = cached
    return cached


def _candidate_patterns(table: Table, lowered: str) -> list[tuple[str, tuple[str, ...], LazyPattern]]:
    """The labels of :func:`_label_patterns` that ``lowered`` may name, in
    their table order: a label's pattern opens its first word where no word
    character stands before it (:func:`~studygen.label_names.label_pattern`),
    so a text names only labels whose first word's opening run opens one of
    its own runs ("gtx" of "gtx1070"). Looked up by each run's openings
    instead of trying every label on every clause: a paragraph comparing
    thousands of rows two by two took time quadratic in the rows."""
    patterns = _label_patterns(table)
    by_start, lengths, others = _patterns_by_start(table)
    chosen = set(others)
    for run in _RUN_START_RE.findall(lowered):
        for length in lengths:
            if length > len(run):
                break
            chosen.update(by_start.get(run[:length], ()))
    return [patterns[index] for index in sorted(chosen)]


# a run of word characters where none stands before it (the first word of a label opens there)
_RUN_START_RE = lazy_compile(r"(?<!\w)\w+")
_WORD_RUN_RE = lazy_compile(r"\w+")


def _mentions(table: Table, lowered: str) -> tuple[list[tuple[int, int, str]], dict[str, list[int]]]:
    """(start, end, label) of each row label ``lowered`` names (a label inside
    a longer one named there left out), and label -> rows."""
    rows_of = _labelled_rows(table)
    spans = []
    for label, words, pattern in _candidate_patterns(table, lowered):
        if not all(word in lowered for word in words):
            continue  # the regex search below only where the text holds the label's words at all
        spans.extend((match.start(), match.end(), label) for match in pattern.finditer(lowered))
    numbered = _numbered_rows(table)
    if numbered is not None:
        spans.extend(_number_mentions(lowered, *numbered))
        rows_of = {**rows_of, **numbered[1]}
    return _outermost(spans), rows_of


def _outermost(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``spans`` less each that another, longer span holds: a label inside a
    longer one ("int8" in "int8+sq") is the longer one. By the furthest end
    of the spans opening before each one (a sentence naming two labels
    thousands of times compared every span with every other)."""
    furthest_at: dict[int, int] = {}  # opening -> the furthest end of the spans opening there
    for start, end, _ in spans:
        furthest_at[start] = max(end, furthest_at.get(start, end))
    reach_before, furthest = {}, -1  # opening -> the furthest end of the spans opening before it
    for start in sorted(furthest_at):
        reach_before[start] = furthest
        furthest = max(furthest, furthest_at[start])
    # held when one opening before it ends at or after its end, or one opening with it ends after
    return [s for s in spans if not (reach_before[s[0]] >= s[1] or furthest_at[s[0]] > s[1])]


def named_rows(table: Table, clause: str) -> tuple[int, int, int | None] | None:
    """(first row, second row, which of the two is the reference: 0, 1 or
    None) of the two rows the clause names by their labels (a number label
    with its column's word: "batch 8", "bs=8", "8 GPUs"), in the clause's
    order, or None (not two, a label shared by several rows, or no label
    column). The reference is the row named right after "than", "vs",
    "over", "compared to" …; None when neither or both are."""
    if not table.label_columns:
        return None
    lowered = clause.lower()
    kept, rows_of = _mentions(table, lowered)
    labels = {label for _, _, label in kept}
    if len(labels) != 2 or any(len(rows_of[label]) != 1 for label in labels):
        return None
    first, second = sorted(labels, key=lambda label: min(s[0] for s in kept if s[2] == label))
    references = [index for index, label in enumerate((first, second))
                  if reference_before(lowered, min(s[0] for s in kept if s[2] == label))]
    if len(references) == 1:
        named_end = max(s[1] for s in kept if s[2] == (first, second)[references[0]])
        if _SECOND_REFERENCE_RE.match(lowered, named_end):
            return None  # "slower than the A10 and the T4": the figure may be against either, or both
    return rows_of[first][0], rows_of[second][0], references[0] if len(references) == 1 else None


# After the reference row's name, another name joined to it ("than the A10 and the T4", "than fp16 or fp32"): a
# word holding a digit, as GPU models and precisions do (a verb after "and" starts another clause, no second name)
_SECOND_REFERENCE_RE = lazy_compile(r"\s*,?\s*(?:and|or)\s+(?:the\s+)?[a-z-]*\d")


def _numbered_rows(table: Table) -> tuple[str, dict[str, list[int]]] | None:
    """(pattern of the column's word, label -> rows) when the table's naming
    label column (:func:`naming_column`) holds numbers only and its header names a word ("Batch",
    "GPUs", "Batch size"), else None; kept on the table."""
    key = "numbered rows"
    if key in table.pair_cache:
        return table.pair_cache[key]
    found = None
    column = naming_column(table)
    words = sorted(keywords(normalize(table.headers[column])))
    cells = [_label_of(row.cells[column]) for row in table.rows]
    if len(words) == 1 and cells and all(_NUMBER_LABEL_RE.fullmatch(c) for c in cells):
        word = words[0]
        spellings = (re.escape(word) + r"e?s?", *CONFIGURATION_WORDS.get(word, ()))
        rows: dict[str, list[int]] = {}
        for row, cell in zip(table.rows, cells):
            rows.setdefault(cell, []).append(row.index)
        found = ("(?:" + "|".join(sorted(spellings, key=len, reverse=True)) + ")", rows)
    table.pair_cache[key] = found
    return found


def _number_mentions(lowered: str, word: str, rows: dict[str, list[int]]) -> list[tuple[int, int, str]]:
    """(start, end, label) of each number label named with its column's
    ``word`` in ``lowered``: "batch 8", "bs=8", "batch size of 8", "8 gpus"."""
    found = []
    for label in rows:
        if label not in lowered:
            continue
        number = re.escape(label) + r"(?!\w|\.\d)"
        pattern = (rf"(?<![\w.-]){word}\s*(?:[=:]|of)?\s*(?<![\w.]){number}"
                   rf"|(?<![\w.]){re.escape(label)}\s*-?\s*{word}\b")
        found.extend((m.start(), m.end(), label) for m in re.finditer(pattern, lowered))
    return found


def nearby_tables(document: Document, block) -> list[Table]:
    """The nearest table above the paragraph in its section and the nearest below."""
    order = block.order
    tables = document.tables_by_section.get(block.section, ())
    orders = document.table_orders_by_section.get(block.section, ())
    above, below = bisect.bisect_left(orders, order), bisect.bisect_right(orders, order)
    return tables[above - 1:above] + tables[below:below + 1]


def row_comparison(document: Document, block, clause: str, kinds: tuple[str, ...],
                   tables: list[Table] | None = None) -> RowPair | None:
    """The two rows of one nearby table (:func:`nearby_tables`, or ``tables``
    where the sentence names the heading over others) that a
    comparison without a figure names ("the A100 row beats the H100 row",
    "batch 8 has higher throughput than batch 1"), as a :class:`RowPair` of
    one pair (subject row, reference row) read in the one measured column of
    ``kinds`` (the clause's header words choose among several); None unless
    exactly one table gives such a reading and the clause names which row is
    the reference."""
    found = []
    for table in nearby_tables(document, block) if tables is None else tables:
        rows = named_rows(table, clause)
        if rows is None or rows[2] is None:
            continue
        series = measured_series(table, kinds, clause)
        if series is None:
            continue
        subject, reference = (rows[1], rows[0]) if rows[2] == 0 else (rows[0], rows[1])
        cells = table.rows
        found.append(RowPair(table, series[0], cells[subject].label, cells[reference].label, series[1],
                             ((subject, reference),)))
    return found[0] if len(found) == 1 else None


def label_spans(table: Table, clause: str) -> list[tuple[int, int]]:
    """(start, end) in ``clause`` of each row label of ``table`` the clause
    names ("GTX 1070", "GeForce GTX-1070", "batch 8": see the module
    docstring): a figure there is part of a row's name, not a value."""
    if not table.label_columns:
        return []
    return [(start, end) for start, end, _ in _mentions(table, clause.lower())[0]]


def label_mentions(table: Table, clause: str) -> list[tuple[int, int, list[int]]]:
    """(start, end, rows) in ``clause`` of each row label of ``table`` it
    names (see the module docstring), with the rows that label names."""
    if not table.label_columns:
        return []
    spans, rows_of = _mentions(table, clause.lower())
    return [(start, end, rows_of[label]) for start, end, label in spans]


__all__ = ["named_rows", "nearby_tables", "label_mentions", "label_spans", "row_comparison"]
