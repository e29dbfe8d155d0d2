"""A share of a table's total stated in prose without its operands (SG103):
"GEMM is 20 % of the kernel time" beside a table whose ``GEMM`` row prints
46.11 ms and whose ``total`` row prints 303.3 ms (15.2 %).

The operands are read from the table, so the reading is narrow:

- the figure is a percentage (``P %`` between 0 and 100) followed by "of"
  or "of the" and the words of what it is a share of ("of the kernel
  time", "of the total"), neither hedged ("about", "~", "up to"), denied nor
  a range's end, and the only figure of its clause (a number inside a row
  label the clause names is part of the name);
- the clause (back to a , ; : or parenthesis, or the sentence start) names
  exactly one row label of the table, before the figure, and holds no word
  of change or comparison ("saves", "cuts", "faster", "more", "by", "than"):
  "fusion saves 20 % of the kernel time" is a saving, not the row's share;
- the table (the nearest above the paragraph in its section or the nearest
  below) has exactly one *total row*, labelled ``total``, ``all``, ``sum``
  or ``overall``, whose figure in the column read is the sum of the other
  rows' figures to their printed digits (every other row filled); a total
  row that is not the column's sum (other kernels left out of the table)
  is not read as its total;
- the column is the one such column whose header's quantity words the
  words after "of" name ("kernel time" for ``Kernel time (ms)``), or, when
  those words say only "the total", the table's one such column.

The share is the named row's figure over the total row's, times 100,
evaluated over their printed intervals (:mod:`studygen.lint.rounding`);
only when that misses the printed percentage, rounded or truncated, is it
reported, and only when exactly one nearby table gives a reading. A share
stated beside its two figures ("46.11 of 303.3 ms, 20 %") is read by the
inline-share rule instead, and a clause naming two rows, a total row that
is a group's, a count column the words do not name, are left unread.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..patterns import lazy_compile
from .derived import fits, recomputed
from .document import Document, Sentence, Series, Table
from .figures import RATIO_UNITS, Figure, with_unit
from .prose_rows import HEDGE_WINDOW, HEDGED_BEFORE_RE
from .rounding import Interval, stands_for
from .row_axis import label_mentions, nearby_tables
from .text import CLAUSE_REACH, label_tokens, normalize, stem

# "of the kernel time", "of all GPU time", "of the total": the words up to the clause's end
_SHARE_OF_RE = lazy_compile(r"\s*of\s+(?:the\s+|all\s+(?:the\s+)?)?((?:[A-Za-z][\w-]*\s*){1,4})", re.IGNORECASE)
# a saving, a change or a comparison in the clause: the percentage is not the row's share of the total
CHANGE_RE = lazy_compile(
    r"\b(?:sav\w*|cut\w*|reduc\w*|shav\w*|remov\w*|trim\w*|drop\w*|decreas\w*|increas\w*|grow\w*|grew|rais\w*|add\w*|"
    r"improv\w*|faster|slower|speed\w*|lower\w*|higher|less|more|fewer|by|than|vs|versus|over|relative|compared|gain\w*|"
    r"los[est]\w*|shrink\w*|shrank)\b", re.IGNORECASE)
TOTAL_LABELS = frozenset({"total", "all", "sum", "overall"})
# labels of a row that pools or spreads the others ("Total", "mean", "Std"), no measured variant's: what a claim
# over every row (stated_bounds) or a best-of claim (best_unquoted) never reads as one, each adding its own
POOLED_LABELS = TOTAL_LABELS | {"average", "avg", "mean", "geomean", "median", "reference", "std", "stdev", "stddev",
                                 "variance"}
_TOTAL_WORDS = frozenset({"total", "sum", "overall", "whole"})
_CLAUSE_BREAKS = ",;:()"
HINT = "recompute the share from the row and the table's total row (to their printed digits), or name what it is a share of"


def total_rows(table: Table) -> set[int]:
    """Indexes of the rows of ``table`` labelled as the sum of the others
    (``total``, ``all``, ``sum``, ``overall``, :data:`TOTAL_LABELS`),
    unless every row is. Case (session 30's new user): "across the groups,
    layer time ranges from 0.02541 to 0.3799 ms" over a kernel-group table
    with a ``total`` row was told it left out the total's 0.5242 ms and to
    widen the range to 0.004096 to 0.5242 ms, a range no group spans."""
    found = {i for i, row in enumerate(table.rows) if normalize(row.label).strip() in TOTAL_LABELS}
    return found if len(found) < len(table.rows) else set()


def total_share_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each prose share of a table's total row that
    the table's figures do not give (see the module docstring)."""
    found = []
    for block in document.prose:
        if "%" not in block.text or not block.has_digits:
            continue
        tables = [t for t in nearby_tables(document, block) if _total_row(t) is not None]
        if not tables:
            continue
        for sentence in block.sentences:
            for figure, clause_start, words in _shares(sentence):
                readings = [r for t in tables if (r := _reading(t, sentence, figure, clause_start, words)) is not None]
                if len(readings) == 1 and readings[0]:
                    found.append((sentence.line_at(figure.start), readings[0], HINT))
    return found


def _shares(sentence: Sentence):
    """(figure, its clause's start, the words after "of") of each
    percentage of the sentence written as a share of something."""
    text = sentence.block.text
    in_ranges = sentence.range_ends
    for token in sentence.tokens:
        figure = token.figure
        if figure is None or figure.unit != "%" or figure.start in in_ranges or not 0 < figure.value < 100:
            continue
        # "of" follows the figure, so no hedge after it ("20% or more") can: only the words before are read
        match = _SHARE_OF_RE.match(text, figure.end, sentence.end)
        if match is None or HEDGED_BEFORE_RE.search(text, max(sentence.start, figure.start - HEDGE_WINDOW), figure.start):
            continue
        reach = max(sentence.start, figure.start - CLAUSE_REACH)  # a clause of a thousand characters at most
        clause_start = max([text.rfind(c, reach, figure.start) for c in _CLAUSE_BREAKS] + [reach - 1]) + 1
        if CHANGE_RE.search(text, clause_start, figure.start):
            continue
        yield figure, clause_start, tuple(label_tokens(normalize(match.group(1))))


def _reading(table: Table, sentence: Sentence, figure: Figure, clause_start: int, words: tuple[str, ...]) -> str | None:
    """What is wrong with ``figure`` read in ``table``: '' when the share
    follows from the table, the message when it does not, None when the
    table gives no reading."""
    total = _total_row(table)
    text = sentence.block.text
    clause = text[clause_start:figure.start]
    mentions = label_mentions(table, clause)
    # every mention names a row or more: no mention, or two naming different rows, leave other than one row
    rows = {row for _, _, named in mentions for row in named}
    if len(rows) != 1 or total in rows:
        return None
    # the clause's only figure: a number inside the named label is part of its name
    tokens = sentence.tokens
    first = bisect_left(tokens, clause_start, key=lambda t: t.start)
    others = [t for t in tokens[first:bisect_left(tokens, figure.start, key=lambda t: t.start)] if t.figure is not None
              and not any(clause_start + s <= t.start < clause_start + e for s, e, _ in mentions)]
    if others:
        return None
    series = _column(table, total, words)
    if series is None:
        return None
    row = rows.pop()
    part, whole = series.values[row], series.values[total]
    if part is None:
        return None
    label, total_label = table.rows[row].label, table.rows[total].label
    if fits("percent_ratio", part, whole, figure):
        return ""
    shown = recomputed("percent_ratio", part, whole, figure)
    return (f"{figure.text}% does not follow from the '{label}' row ({with_unit(part.text, series.unit)}) over the "
            f"'{total_label}' row ({with_unit(whole.text, series.unit)}) of '{series.header}' in the table at line "
            f"{table.line}: {shown}")


def _column(table: Table, total: int, words: tuple[str, ...]) -> Series | None:
    """The one column whose total row sums its other rows and whose quantity
    ``words`` name (or, for "the total" alone, the table's one such column)."""
    summed = [s for s in table.series if _sums(s, total)]
    stems = {stem(w) for w in words}
    if stems and stems <= _TOTAL_WORDS:
        return summed[0] if len(summed) == 1 else None
    named = [s for s in summed if s.measure and {stem(w) for w in s.measure} & stems]
    return named[0] if len(named) == 1 else None


def _sums(series: Series, total: int) -> bool:
    """True when ``series``'s total-row figure is the sum of its other rows'
    figures to their printed digits, every other row filled (two at least:
    :func:`_total_row` reads no table of fewer than three rows)."""
    if series.unit in RATIO_UNITS or series.spans or series.values[total] is None:
        return False
    others = [v for i, v in enumerate(series.values) if i != total]
    if any(v is None for v in others):
        return False
    intervals = [stands_for(v) for v in others]
    summed = Interval(sum(i.lo for i in intervals), sum(i.hi for i in intervals))
    return summed.meets(stands_for(series.values[total]))


def _total_row(table: Table) -> int | None:
    """The index of the table's one row labelled total, all, sum or overall
    (its first label column), else None; kept on the table."""
    key = "total row"
    if key not in table.pair_cache:
        found = None
        if table.label_columns and len(table.rows) >= 3:
            column = table.label_columns[0]
            totals = [row.index for row in table.rows if normalize(row.cells[column]).strip() in TOTAL_LABELS]
            found = totals[0] if len(totals) == 1 else None
        table.pair_cache[key] = found
    return table.pair_cache[key]


__all__ = ["total_share_findings", "CHANGE_RE", "HINT"]
