"""A sum of table rows stated in prose (SG103): "Conv and GEMM together are
85% of the kernel time" beside a profile whose share column gives 45.1 %
and 26.9 % (72.0 %), "the two attention kernels take 3.1 ms between them"
where their rows print 1.2 and 1.4 ms.

The figure's operands are rows of a nearby table (the nearest above the
paragraph in its section and the nearest below,
:func:`~studygen.lint.row_axis.nearby_tables`), named the way other prose
readers name rows (:func:`~studygen.lint.row_axis.label_mentions`), or
columns of a table whose first column names quantities (``| Metric | conv |
gemm |``: its columns read as rows). The reading is narrow:

- the sentence holds a word of summing ("together", "combined", "between
  them", "in total", "jointly", "add up to", "sum to");
- before that word, its clause (back to ``; : (`` or the sentence start)
  names two rows or more, one row each, written as a list: only ",",
  "and", "&", "+", "plus" or "the" between the names, or counts the rows
  whose labels share a word ("the two attention kernels": exactly two
  labels hold "attention"); at most four words without a figure stand
  between the last name and the word of summing;
- the clause's one figure from the last name to the clause's end (the next
  ``, ; : ( )`` after the word of summing, or the sentence end) is the
  stated sum: not hedged ("about", "over", "under"), not a range's end, and
  no word of change, comparison or difference ("cut", "faster", "than",
  "by", "gap") between the names and the clause's end, since "A and B together cut latency by
  30 %" states a change, not a sum;
- the column read is the one of the figure's unit (a time, a size, or a
  ``%`` share column: every figure at least 0, the rows summing to 100 at
  most, its header naming a share or its rows summing to 100), chosen among several by the clause's header words; neither a
  ratio column nor a difference ("saving", "delta") nor a throughput;
- a time or size figure must lie above every named row's (a sum of parts
  exceeds each part): "fusion and graphs together reach 1.2 ms" states a
  combined configuration, not a sum; and a table with a row whose label
  joins variants ("fusion + graphs", "both") is not read.

The sum is taken over the rows' printed intervals
(:mod:`studygen.lint.rounding`); only a figure that sum misses, rounded or
truncated, is reported, and only when exactly one nearby table gives a
reading.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..patterns import lazy_compile
from .columns import columns_as_rows
from .document import Document, Sentence, Series, Table
from .figures import Figure, with_unit
from .prose_rows import HEDGE_WINDOW, HEDGED_BEFORE_RE, SUM_RE
from .rounding import Interval, consistent, stands_for
from .row_axis import label_mentions, nearby_tables
from .text import DIFFERENCE_WORDS, keywords, normalize, ratio_header
from .total_shares import CHANGE_RE
from .variant_pairs import DURATION_UNITS

# what may stand between two names of a list: "A, B and C", "A & B", "A + B", "A plus the B"
_LIST_GAP_RE = lazy_compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|\+\s*|plus\s+)?(?:the\s+)?", re.IGNORECASE)
# a row label that joins variants: its figure is a combined configuration's, and "A and B together" may mean it
_JOINED_LABEL_RE = lazy_compile(r"\+|&|\band\b|\bboth\b|\bcombined\b|\btogether\b|\bwith\b", re.IGNORECASE)
_COUNTS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5}
# "the two attention kernels", "both decode steps", "all three gemm calls": a count and the word the labels share
_GROUP_RE = lazy_compile(r"\b(both|two|three|four|five)\s+(?:of\s+the\s+)?([a-z][\w-]*)", re.IGNORECASE)
# a bound on the sum, not the sum ("together fewer than 10%", "within 5 ms"), beyond the hedges prose_rows knows
_BOUNDED_RE = lazy_compile(r"(?:\b(?:fewer|lower|greater|higher|smaller|larger)\s+than|\bwithin|\bexceed\w*|≤|≥)\s*$",
                           re.IGNORECASE)
_APART_RE = lazy_compile(r"\b(?:gaps?|differ\w*|deltas?|spread|margins?|distance|apart|ratio)\b", re.IGNORECASE)
_SIZE_UNITS = frozenset({"MiB", "GiB", "KiB", "MB", "GB", "KB"})
_ADDITIVE_UNITS = DURATION_UNITS | _SIZE_UNITS
_MAX_TAIL_WORDS = 4  # "Conv and GEMM kernels together", "prefill and decode steps take ... combined"
_CLAUSE_BREAKS = ";:("
# how far back the names of a sum are sought: a list of names, not a paragraph (names are read in it)
_LIST_REACH = 240
_CLAUSE_ENDS_RE = lazy_compile(r"[,;:()]")
HINT = "recompute the sum from the rows it names (to their printed digits), or name the rows it adds"


def sum_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each prose sum of table rows that the rows'
    figures do not give (see the module docstring)."""
    found = []
    for block in document.prose:
        if not block.has_digits or not SUM_RE.search(block.text):
            continue
        tables = [view for t in nearby_tables(document, block) for view in _views(t)]
        if not tables:
            continue
        for sentence in block.sentences:
            text = sentence.block.text
            for mark in SUM_RE.finditer(text, sentence.start, sentence.end):
                readings = [r for t in tables if (r := _reading(t, sentence, mark.start(), mark.end())) is not None]
                if len(readings) == 1 and readings[0][1]:
                    found.append((sentence.line_at(readings[0][0].start), readings[0][1], HINT))
    return found


def _views(table: Table) -> list[Table]:
    """``table`` itself when a label column names its rows, and its columns
    as rows when its first column names quantities (kept on the table)."""
    key = "sum views"
    if key not in table.pair_cache:
        views = []
        if table.label_columns and not any(_JOINED_LABEL_RE.search(row.cells[table.label_columns[0]])
                                           for row in table.rows):
            views.append(table)
        flipped = _columns_as_rows(table)
        if flipped is not None:
            views.append(flipped)
        table.pair_cache[key] = views
    return table.pair_cache[key]


def _columns_as_rows(table: Table) -> Table | None:
    """The table read the other way round when its one label column is the
    first and it has two figure columns or more; row ``j`` of the view is
    column ``j + 1`` of ``table``, whose lines it keeps. None otherwise."""
    if table.label_columns != [0] or len(table.headers) < 3 or len(table.rows) < 1:
        return None
    if any(_JOINED_LABEL_RE.search(header) for header in table.headers[1:]):
        return None
    view = columns_as_rows(table)
    return view if view.label_columns == [0] and view.series else None


def _reading(table: Table, sentence: Sentence, mark_start: int, mark_end: int) -> tuple[Figure, str] | None:
    """(the stated sum, what is wrong with it: '' when the rows give it) for
    the word of summing at ``mark_start`` read in ``table``; None when the
    table gives no reading."""
    text = sentence.block.text
    reach = max(sentence.start, mark_start - _LIST_REACH)
    clause_start = max([text.rfind(c, reach, mark_start) for c in _CLAUSE_BREAKS] + [reach - 1]) + 1
    named = _named_rows(table, text[clause_start:mark_start])
    if named is None:
        return None
    rows, last_name = named[0], clause_start + named[1]
    limit = min(sentence.end, mark_end + _LIST_REACH)  # the figure stands a few words after the word of summing
    closing = _CLAUSE_ENDS_RE.search(text, mark_end, limit)
    clause_end = closing.start() if closing else limit
    # the word of summing itself ("add up to") is no change; "a 3% gap between them" states a difference
    if CHANGE_RE.search(text, last_name, mark_start) or CHANGE_RE.search(text, mark_end, clause_end) or \
            _APART_RE.search(text, last_name, clause_end):
        return None
    tokens = sentence.tokens
    first = bisect_left(tokens, last_name, key=lambda t: t.start)
    figures = [t.figure for t in tokens[first:bisect_left(tokens, clause_end, key=lambda t: t.start)] if t.figure is not None]
    if len(figures) != 1:
        return None
    figure = figures[0]
    if figure.start > mark_start:
        tail = text[last_name:mark_start]
    else:
        tail = text[last_name:figure.start]
    if len(tail.split()) > _MAX_TAIL_WORDS or figure.start in sentence.range_ends or figure.value <= 0:
        return None
    # "add up to 52 ms": the "up to" of the word of summing is no hedge
    hedge_from = max(sentence.start, figure.start - HEDGE_WINDOW, mark_end if figure.start >= mark_end else 0)
    if HEDGED_BEFORE_RE.search(text, hedge_from, figure.start) or _BOUNDED_RE.search(text, hedge_from, figure.start):
        return None
    series = _column(table, figure, text[clause_start:clause_end])
    if series is None:
        return None
    parts = [series.values[row] for row in rows]
    if any(part is None for part in parts):
        return None
    intervals = [stands_for(part) for part in parts]
    total = Interval(sum(i.lo for i in intervals), sum(i.hi for i in intervals))
    if series.unit != "%" and figure.value - figure.half_step <= max(i.hi for i in intervals):
        return None  # no more than one of its parts: a combined configuration, not a sum
    if consistent(total, figure):
        return figure, ""
    labels = [table.rows[row].label for row in rows]
    named = " + ".join(with_unit(part.text, series.unit) for part in parts)
    exact = sum(part.value for part in parts)
    return figure, (f"{with_unit(figure.text, series.unit)} is not the sum of the "
                    f"{', '.join(repr(label) for label in labels)} rows of '{series.header}' in the table at line "
                    f"{table.line}: {named} = {with_unit(_printed(exact, parts), series.unit)}")


def _named_rows(table: Table, clause: str) -> tuple[list[int], int] | None:
    """(the rows ``clause`` names as a list, in its order; the end of the
    last name in ``clause``), or None: two rows or more named one each
    ("conv, matmul and softmax"), or a count of the rows whose labels share
    a word ("the two attention kernels" over ``attention fwd`` and
    ``attention bwd``, no third label holding "attention")."""
    mentions = sorted(label_mentions(table, clause))
    if len(mentions) < 2:
        return _group(table, clause)
    if any(len(rows) != 1 for _, _, rows in mentions):
        return None
    rows = [rows[0] for _, _, rows in mentions]
    if len(set(rows)) != len(rows):
        return None
    # the names form a list: nothing but list words between them
    for (_, end, _), (start, _, _) in zip(mentions, mentions[1:]):
        if _LIST_GAP_RE.fullmatch(clause, end, start) is None:
            return None
    return rows, mentions[-1][1]


def _group(table: Table, clause: str) -> tuple[list[int], int] | None:
    """The rows of "the two attention kernels", "both decode steps": the
    last such count of the clause and the word after it, when exactly that
    many labels of the first label column hold the word; None otherwise."""
    parts = table.label_parts.get(table.label_columns[0]) if table.label_columns else None
    if not parts:
        return None
    found = None
    for match in _GROUP_RE.finditer(clause):
        found = match
    if found is None:
        return None
    rows = parts.get(found.group(2).lower())
    if rows is None or len(rows) != _COUNTS[found.group(1).lower()]:
        return None
    return sorted(rows), found.end()


def _printed(value: float, parts: list[Figure]) -> str:
    """``value`` at the most decimals its parts print (none for parts printed "2.48K", whose decimals are -1)."""
    return f"{value:.{max(0, *(part.decimals for part in parts))}f}"


def _column(table: Table, figure: Figure, clause: str) -> Series | None:
    """The one column of ``figure``'s unit that a sum can add (a time, a size
    or a share), chosen by the clause's header words among several."""
    if figure.unit not in _ADDITIVE_UNITS and figure.unit != "%":
        return None
    candidates = [s for s in table.series if s.unit == figure.unit and not s.spans and s.column not in table.label_columns
                  and not (s.keywords & DIFFERENCE_WORDS) and not ratio_header(s.header)]
    if figure.unit == "%":
        candidates = [s for s in candidates if _share_column(s)]
    if len(candidates) > 1:
        words = keywords(normalize(clause))
        candidates = [s for s in candidates if s.measure & words] or candidates
    return candidates[0] if len(candidates) == 1 else None


def _share_column(series: Series) -> bool:
    """True when ``series`` reads as shares of one whole: every figure at
    least 0, those of the rows other than a total row summing to 100 at most
    (to their printed digits), and either its header names a share ("Share",
    "% of total", "Time (%)", a bare "%") or its rows sum to 100: a column of
    utilisation or accuracy percentages ("SM util (%)") may sum below 100 by
    chance, and its rows do not add."""
    values = [v for v in series.values if v is not None]
    if len(values) < 2 or any(v.value < 0 for v in values):
        return False
    largest = max(values, key=lambda v: v.value)
    # a total row (100 %) is the sum of the others, not a share beside them
    rest = [v for v in values if v is not largest] if largest.value >= 99.5 else values
    low, high = sum(stands_for(v).lo for v in rest), sum(stands_for(v).hi for v in rest)
    if low > 100.0:
        return False
    return bool(_SHARE_HEADER_RE.fullmatch(series.header.strip())) or high >= 100.0


# a header naming a share of a whole: "Share", "% of total", "Time %", "Kernel time (%)", "GPU time share", "%"
_SHARE_HEADER_RE = lazy_compile(
    r"(?:[\w ]*\b(?:share|fraction|portion|proportion|breakdown|of\s+total|of\s+time)\b.*|(?:[\w ]*\btime\b\s*)?"
    r"\(?\s*%\s*\)?(?:\s+of\s+[\w ]+)?)", re.IGNORECASE)


__all__ = ["sum_findings", "HINT"]
