"""A bound stated for every row of a table (SG101, a range with one end):
"all runs finish under 10 ms" beside a row of 11.3 ms, "every variant is
within 3 % of fp16" beside a row 4.2 % from fp16's, "the differences stay
below 3 %" beside a difference column holding 4.2 %.

A clause (back to ``; :`` or the sentence start) holding a bound word right
before a figure is read when it claims the bound for every row and nothing
in it softens the claim:

- *every row*: a universal word ("all", "every", "each", "always") followed
  by a generic noun ("runs", "variants", "kernels", "configurations":
  :data:`_SUBJECT_NOUNS`), or put after the subject ("the variants all
  finish under"), or, for a ``%`` bound, a subject of differences
  ("differences", "the gap", "the delta"); without a universal word, the
  rows the clause names ("bf16 and int8 are within 3 % of fp16"), those
  only; "not all", "almost all", "all but", "most", "except", a modal or a
  target ("must", "should", "target", "budget", "SLO"), a hedge ("about",
  "roughly", "typically") or a denial leave it unread, as do a verb right
  after the figure ("all runs over 10 ms were repeated": the bound picks
  rows out), a comparison after it ("0.4 ms above fp16", "than") and words
  after it, or after the reference's name, that may set a setting apart
  ("at batch 1", "with one request in flight": :data:`_UNRESTRICTED_RE`
  lets only "per step", "on every GPU" and the like follow);
- the clause is read :data:`_SUBJECT_REACH` characters back from the bound
  and :data:`_AFTER_REACH` on from its figure, so that a paragraph of
  thousands of figures costs a bounded amount per figure;
- *the bound*: "under", "below", "less than", "at most", "no more than",
  "<", "≤", "within" (without "of") bound from above; "above", "over",
  "more than", "at least", "exceeds", ">", "≥" from below; "within N of X"
  bounds each row's difference from the reference X, in the figure's unit
  or, for ``%``, relative to X.

What the bound is read against, in the nearest table above the paragraph in
its section and the nearest below (:func:`~.row_axis.nearby_tables`; exactly
one of them must give a reading):

- an absolute bound: the one column of the figure's unit (the clause's
  header words choose among several; columns that differ only in their
  variant words, ``fp16 (ms)`` and ``bf16 (ms)``, are read together; not
  ``Batch 1 (ms)`` and ``Batch 8 (ms)``, told apart by a number), every
  row but a total, mean or baseline row, or the rows the clause names;
- "within N of X": X a row label (variants as rows: every other row of the
  one measured column) or a column's variant words (variants as columns:
  every other column of its unit and quantity, row by row);
- a bound on differences: the one ``%`` column whose header names a
  difference ("diff", "delta", "change", "gain", "overhead"), by magnitude;
  with none near, the two columns of one table the clause names, or else the
  heading over the sentence (:func:`_pair_readings`; a benchmark page's
  "Differences are minimal (< 3%)" under a heading naming two runtimes, whose
  comparison table, a section earlier, held a 12.7 % difference at p95).

A row *breaks* the bound only beyond the printed digits of both: a value
whose whole interval lies past the bound's ("10.6 ms" breaks "under 10 ms",
"10.4 ms" does not); a relative difference breaks "within N %" only when the
smallest it can be, over either figure as the base, exceeds ``N`` by more than
half its last digit. The finding names the column and each breaking row
(three at most, then a count).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..patterns import lazy_compile
from .bound_indexes import MAX_SHOWN as _MAX_SHOWN
from .bound_indexes import BoundIndex, GapIndex
from .document import Document, Sentence, Series, Table
from .figures import RATIO_UNITS, Figure, with_unit
from .rounding import Interval, printed_interval, stands_for
from .row_axis import label_mentions, nearby_tables
from .text import DIFFERENCE_WORDS, keywords, normalize, ratio_header
from .total_shares import POOLED_LABELS

_UPPER = r"under|below|less\s+than|fewer\s+than|lower\s+than|smaller\s+than|at\s+most|no\s+more\s+than|no\s+higher\s+than|within|<=?|≤"
_LOWER = r"above|over|more\s+than|higher\s+than|greater\s+than|at\s+least|exceed(?:s|ing)?|>=?|≥"
# the bound word right before the figure ("under 10 ms", "(< 3%)", "within 3% of")
_BOUND_RE = lazy_compile(rf"(?:(?<!\w)(?P<upper>{_UPPER})|(?<!\w)(?P<lower>{_LOWER}))\s*[(]?\s*$", re.IGNORECASE)
_OF_RE = lazy_compile(r"\s*of\s+(?:the\s+)?", re.IGNORECASE)
_UNIVERSAL_RE = lazy_compile(r"\b(all|every|each|always)\b", re.IGNORECASE)
# what makes "all" less than all, or the sentence other than a claim about the rows measured
_SOFTENED_RE = lazy_compile(
    r"\b(?:not|n't|never|no|none|almost|nearly|virtually|practically|most|mostly|typically|usually|generally|often|"
    r"roughly|about|around|approximately|some|must|should|shall|need|needs|required?|target(?:s|ed)?|goals?|budgets?|"
    r"slos?|slas?|limits?|thresholds?|caps?|aim(?:s|ed)?|expect(?:s|ed)?|would|could|can|may|might|if|unless|except|excluding|but|other\s+than|apart|"
    r"aside|besides)\b|~|≈", re.IGNORECASE)
_UNIVERSAL_WORDS = frozenset({"all", "every", "each", "always", "any"})
_ALL_BUT_RE = lazy_compile(r"\ball\s+but\b", re.IGNORECASE)
_DIFFERENCE_SUBJECT_RE = lazy_compile(r"\b(?:differences?|gaps?|deltas?|deviations?|discrepanc(?:y|ies))\b", re.IGNORECASE)
# the nouns that name every row of a table, not a subset of them ("all runs", not "all quantized models")
_SUBJECT_NOUNS = frozenset({
    "run", "variant", "configuration", "config", "setting", "model", "kernel", "row", "case", "size", "batch", "gpu",
    "request", "layer", "backend", "method", "mode", "precision", "engine", "framework", "implementation", "version",
    "combination", "point", "measurement", "result", "benchmark", "workload", "scenario", "sequence", "prompt",
    "length", "step", "iteration", "trial", "job", "query", "test", "option", "approach", "format", "dtype", "type",
    "build", "system", "device", "card", "node", "platform", "them", "they", "these", "those", "other", "others",
    "one", "entry", "entries", "candidate", "setup", "shape", "op", "operator", "stage", "phase", "pass",
})
_SKIPPED_BEFORE_NOUN = frozenset({"the", "of", "our", "these", "those", "its", "their", "three", "four", "five", "six"})
# rows that are not one of the measured variants: a total, a summary (a spread too: a "Std" row's 0.3 ms under
# runs is no run's time) or the reference itself
_SUMMARY_LABELS = POOLED_LABELS | {"baseline", "std dev", "standard deviation", "cv"}
# what may follow a bound's figure in its clause and leave it about every row: "per step", "on every GPU"
_UNRESTRICTED_RE = lazy_compile(
    r"\s*(?:(?:per|a|each)\s+[\w-]+|(?:on|in|at|for|across|over)\s+(?:all|every|each|any)\b[^.]*|in\s+total|each|"
    r"throughout|everywhere|across\s+the\s+board)?\s*[.!?)*_]*\s*", re.IGNORECASE)
# a verb after the bound's figure: the bound qualified the subject ("all runs under 10 ms were dropped")
_MODIFIER_AFTER_RE = lazy_compile(
    r"\s*(?:[a-z/-]+\s+){0,3}?(?:are|were|is|was|be|been|being|have|had|has|get|got|fail(?:ed|s)?|count(?:ed|s)?|"
    r"show(?:ed|n|s)?|drop(?:ped|s)?|discard(?:ed|s)?|exclud(?:ed|es)|remov(?:ed|es)|mark(?:ed|s)?|flag(?:ged|s)?|"
    r"hit|see|saw)\b", re.IGNORECASE,
    needs=("are", "were", "is", "was", "be", "have", "had", "has", "get", "got", "fail", "count", "show", "drop", "discard",
           "exclud", "remov", "mark", "flag", "hit", "see", "saw"))
_CLAUSE_BREAKS = ";:"
# how far back a bound's subject is sought: a subject and its verb, not a paragraph (names are read in it)
_SUBJECT_REACH = 240
# how far after its figure a bound's clause is read: its reference or the rows it names, a few words
_AFTER_REACH = 120
_EVERY_ROW = "bound rows"  # pair_cache key of the rows a claim about every row covers
_PAIR_REACH = 8  # tables either side of a sentence a pair of named variants is sought in
HINT = "state the bound the rows keep (or name the rows it holds for)"


def bound_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each bound claimed for every row that a row
    of the table it reads breaks (see the module docstring)."""
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        tables = [t for t in nearby_tables(document, block) if t.series]
        text = block.text
        for sentence in block.sentences:
            for token in sentence.tokens:
                figure = token.figure
                if figure is None or figure.unit is None or figure.start in sentence.range_ends:
                    continue
                bound = _BOUND_RE.search(text, max(sentence.start, figure.start - 24), figure.start)
                if bound is None:
                    continue
                claim = _claim(sentence, figure, bound)
                if claim is None:
                    continue
                readings = [r for t in tables if (r := _reading(t, sentence, figure, bound, claim)) is not None]
                if not readings and claim[0] == "differences":
                    readings = _pair_readings(document, sentence, figure, claim[1])
                if len(readings) == 1 and readings[0]:
                    found.append((sentence.line_at(figure.start), readings[0], HINT))
    return found


def _claim(sentence: Sentence, figure: Figure, bound: re.Match) -> tuple[str, int] | None:
    """("rows" or "differences", the clause's start) when the clause claims
    the bound for every row or every difference; None otherwise."""
    text = sentence.block.text
    reach = max(sentence.start, bound.start() - _SUBJECT_REACH)
    clause_start = max([text.rfind(c, reach, bound.start()) for c in _CLAUSE_BREAKS] + [reach - 1]) + 1
    before = text[clause_start:bound.start()]
    if _SOFTENED_RE.search(before) or _ALL_BUT_RE.search(before):
        return None
    after_end = _clause_end(sentence, figure.end)
    if _SOFTENED_RE.search(text, figure.end, after_end):
        return None
    if figure.unit == "%" and _DIFFERENCE_SUBJECT_RE.search(before) and bound.group("upper"):
        return "differences", clause_start
    if not _UNIVERSAL_RE.search(before):
        return "named", clause_start  # "bf16 and int8 are within 3% of fp16": read when the clause names rows
    for match in _UNIVERSAL_RE.finditer(before):
        words = [w for w in re.findall(r"[a-z][a-z0-9-]*", before[match.end():].lower())]
        nouns = [w for w in words if w not in _SKIPPED_BEFORE_NOUN]
        # "all runs", "each of the variants"; or after its subject: "the variants all finish under"
        if not nouns or _noun(nouns[0]) in _SUBJECT_NOUNS or any(_noun(w) in _SUBJECT_NOUNS for w in re.findall(
                r"[a-z][a-z0-9-]*", before[:match.start()].lower())[-2:]):
            return "rows", clause_start
    return None


def _noun(word: str) -> str:
    """``word`` without a plural ending ("runs" -> "run", "batches" -> "batch")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(("ch", "sh", "x", "s")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _clause_end(sentence: Sentence, offset: int) -> int:
    """The end of the clause from ``offset``: the next , ; : ( ) or the sentence end, at most
    :data:`_AFTER_REACH` characters on."""
    text = sentence.block.text
    limit = min(sentence.end, offset + _AFTER_REACH)
    ends = [i for c in ",;:()" if (i := text.find(c, offset, limit)) != -1]
    return min(ends, default=limit)


def _reading(table: Table, sentence: Sentence, figure: Figure, bound: re.Match, claim: tuple[str, int]) -> str | None:
    """What ``table``'s rows say of the bound: '' when every row keeps it,
    the message when some break it, None when the table gives no reading."""
    kind, clause_start = claim
    text = sentence.block.text
    upper = bound.group("upper") is not None
    relative = bound.group("upper") and bound.group("upper").lower() == "within" and _OF_RE.match(text, figure.end)
    if kind == "differences":
        return _differences(table, figure, text[clause_start:_clause_end(sentence, figure.end)])
    after = text[figure.end:_clause_end(sentence, figure.end)]
    if _MODIFIER_AFTER_RE.match(after):
        return None  # "all runs over 10 ms were discarded": the bound picks runs out, it claims nothing of them
    if re.search(r"\bthan\b", after) or (table.label_columns and not relative and label_mentions(table, after)):
        return None  # "0.5 ms above fp16", "under 12 ms than before": a comparison, not a bound on the rows
    if not relative and not _UNRESTRICTED_RE.fullmatch(after):
        return None  # "under 10 ms at batch 1", "with one request in flight": a setting lint may not read
    if kind == "named" and not (table.label_columns and label_mentions(table, text[clause_start:figure.start])):
        return None  # no universal word: a claim about the rows its subject names, or none
    if relative:
        reference_start = _OF_RE.match(text, figure.end).end()
        return _within(table, sentence, figure, clause_start, reference_start)
    return _absolute(table, sentence, figure, clause_start, upper)


def _candidates(table: Table, figure: Figure, clause: str) -> list[Series] | None:
    """The columns of ``figure``'s unit the clause reads: one, or several
    that differ only in their variant words; None otherwise."""
    series = [s for s in table.series if s.unit == figure.unit and s.column not in table.label_columns and not s.spans
              and not (s.keywords & DIFFERENCE_WORDS)]
    if len(series) > 1:
        words = keywords(normalize(clause))
        series = [s for s in series if s.keywords & words] or series
    if not series:
        return None
    if len(series) > 1 and (len({s.measure for s in series}) != 1 or any(s.stat for s in series)):
        return None
    # columns read together are variants, each named by words of its own ("fp16", "bf16"); columns told apart
    # by a number alone ("Batch 1 (ms)", "Batch 8 (ms)") are settings a clause may pick in words lint cannot read
    variants = [s.keywords - s.measure for s in series]
    if len(series) > 1 and (not all(variants) or len(set(variants)) != len(variants)):
        return None
    return series


def _rows(table: Table, clause: str) -> list[int] | None:
    """The rows a claim about every row covers: those the clause names, or
    every row but a summary one; None when a name is not one row's."""
    if len(table.label_columns) > 1:
        return None  # row groups: "every variant" may mean within each group
    mentions = label_mentions(table, clause)
    if mentions:
        rows = sorted({row for _, _, named in mentions for row in named})
        return rows
    if _EVERY_ROW not in table.pair_cache:  # kept: a claim costs its clause, not the table's rows
        column = table.label_columns[0] if table.label_columns else None
        table.pair_cache[_EVERY_ROW] = [row.index for row in table.rows if column is None
                                        or normalize(row.cells[column]).strip() not in _SUMMARY_LABELS]
    return table.pair_cache[_EVERY_ROW]


def _absolute(table: Table, sentence: Sentence, figure: Figure, clause_start: int, upper: bool) -> str | None:
    text = sentence.block.text
    clause = text[clause_start:_clause_end(sentence, figure.end)]
    columns = _candidates(table, figure, clause)
    rows = _rows(table, clause)
    if columns is None or rows is None:
        return None
    limit = printed_interval(figure)
    every_row = rows is table.pair_cache.get(_EVERY_ROW)
    shown: list[int] = []
    count = 0
    for series in columns:
        if every_row:
            first, more = BoundIndex.of(table, series, rows).broken(limit.hi if upper else limit.lo, upper)
        else:
            first = [row for row in rows if series.values[row] is not None
                     and _breaks(stands_for(series.values[row]), limit, upper)]
            more = len(first)
        count += more
        shown += [(series, row) for row in first[:_MAX_SHOWN - len(shown)]] if len(shown) < _MAX_SHOWN else []
    if not count:
        return ""
    broken = [f"'{_label(table, row)}' {with_unit(series.values[row].text, series.unit)}"
              + (f" ({series.header})" if len(columns) > 1 else "") for series, row in shown]
    where = columns[0].header if len(columns) == 1 else ", ".join(f"'{s.header}'" for s in columns)
    bound_text = text[_BOUND_RE.search(text, max(sentence.start, figure.start - 24), figure.start).start():figure.end]
    return (f"'{bound_text}' is claimed for every row but {_listed(broken, count)} in "
            f"{repr(where) if len(columns) == 1 else where} of the table at line {table.line}")


def _breaks(interval, limit, upper: bool) -> bool:
    """True when a cell's ``interval`` lies beyond the bound's printed ``limit`` on the side ``upper`` says."""
    return interval.lo > limit.hi if upper else interval.hi < limit.lo


def _within(table: Table, sentence: Sentence, figure: Figure, clause_start: int, reference_start: int) -> str | None:
    text = sentence.block.text
    end = _clause_end(sentence, reference_start)
    reference = text[reference_start:end]
    clause = text[clause_start:end]
    subject = text[clause_start:figure.start]
    row_reading = _within_rows(table, figure, reference, subject, clause)
    if row_reading is not None:
        return row_reading
    return _within_columns(table, figure, reference, subject)


def _within_rows(table: Table, figure: Figure, reference: str, subject: str, clause: str) -> str | None:
    """Variants as rows: the reference a row label, every other row of the one measured column."""
    if len(table.label_columns) != 1:
        return None
    mentions = label_mentions(table, reference)
    if not mentions or mentions[0][0] > 1 or len(mentions[0][2]) != 1:
        return None
    base = mentions[0][2][0]
    if not _UNRESTRICTED_RE.fullmatch(reference[mentions[0][1]:]):
        return None  # "within 3% of fp16 at batch 8": a setting lint may not read
    measured = [s for s in table.series if s.column not in table.label_columns and s.unit and s.unit not in RATIO_UNITS
                and not s.spans and not ratio_header(s.header)]
    if figure.unit != "%":
        measured = [s for s in measured if s.unit == figure.unit]
    if len(measured) > 1:
        words = keywords(normalize(clause))
        measured = [s for s in measured if s.keywords & words]
    if len(measured) != 1:
        return None
    series = measured[0]
    rows = _rows(table, subject)
    if rows is None:
        return None
    reference = series.values[base]
    limit = printed_interval(figure).hi
    gap = _percent_gap if figure.unit == "%" else _unit_gap
    if rows is table.pair_cache.get(_EVERY_ROW) and limit >= 0:  # the reference row itself never breaks
        if reference is None:
            return ""
        known = stands_for(reference)
        if figure.unit == "%" and known.hi <= 0:
            return ""  # no relative difference from a reference of 0 or less is read
        index = BoundIndex.of(table, series, rows, positive=figure.unit == "%")
        shown, count = index.within_broken(known, limit, figure.unit == "%",
                                           lambda interval: _exceeds(gap(interval, known), limit))
    else:
        shown = [row for row in rows if row != base and _pair_breaks(series, series, row, base, gap, limit)]
        count = len(shown)
    broken = [_broken_pair(table, figure, series, row, series.values[row], reference) for row in shown[:_MAX_SHOWN]]
    return _judged(figure, broken, count, _label(table, base), table)


def _within_columns(table: Table, figure: Figure, reference: str, subject: str) -> str | None:
    """Variants as columns: the reference a column's variant words, every other column of its unit and quantity."""
    words = set(keywords(normalize(reference[:40])))
    named = [s for s in table.series if s.keywords - s.measure and (s.keywords - s.measure) <= words
             and s.unit and s.unit not in RATIO_UNITS and not s.spans]
    if len(named) != 1 or (figure.unit != "%" and named[0].unit != figure.unit):
        return None
    base = named[0]
    if words - base.keywords - _UNIVERSAL_WORDS:
        return None  # "within 2% of fp16 at batch 8": words beside the reference's name may set rows apart
    others = [s for s in table.series if s is not base and s.unit == base.unit and s.measure == base.measure
              and s.stat == base.stat and not s.spans and not (s.keywords & DIFFERENCE_WORDS)]
    subject_words = keywords(normalize(subject))
    chosen = [s for s in others if (s.keywords - s.measure) & subject_words]
    others = chosen or others
    if not others or len(table.label_columns) > 1:
        return None
    rows = _rows(table, subject)  # "at batch 1, int8 is within 2% of fp16": that row only
    if rows is None:
        return None
    limit = printed_interval(figure).hi
    gap, kind = (_percent_gap, "within %") if figure.unit == "%" else (_unit_gap, "within")
    every_row = rows is table.pair_cache.get(_EVERY_ROW)
    shown: list[tuple[Series, int]] = []
    count = 0
    for other in others:  # column by column, each in row order
        if every_row:
            first, more = GapIndex.of(table, other, base, rows, kind, gap).broken(limit)
        else:
            first = [row for row in rows if _pair_breaks(other, base, row, row, gap, limit)]
            more = len(first)
        shown += [(other, row) for row in first[:_MAX_SHOWN - len(shown)]]
        count += more
    broken = [_broken_pair(table, figure, base, row, other.values[row], base.values[row], other.header)
              for other, row in shown]
    return _judged(figure, broken, count, base.header, table)


def _unit_gap(value: Interval, reference: Interval) -> float:
    """The least distance between two cells' intervals, in their unit (0 when they meet)."""
    return max(0.0, value.lo - reference.hi, reference.lo - value.hi)


def _percent_gap(value: Interval, reference: Interval) -> float | None:
    """The least relative difference two cells' intervals allow, in % of
    the larger figure (over either as the base); None when either interval
    lies at or below 0 (no relative difference is read there)."""
    if reference.hi <= 0 or value.hi <= 0:
        return None
    gap = max(0.0, value.lo - reference.hi, reference.lo - value.hi)
    return 100.0 * min(gap / reference.hi, gap / value.hi)


def _exceeds(amount: float | None, limit: float) -> bool:
    return amount is not None and amount > limit


def _pair_breaks(series: Series, base: Series, row: int, base_row: int, gap, limit: float) -> bool:
    """True when row ``row`` of ``series`` lies further than ``limit`` (by ``gap``) from row ``base_row`` of ``base``."""
    value, reference = series.values[row], base.values[base_row]
    if value is None or reference is None:
        return False
    return _exceeds(gap(stands_for(value), stands_for(reference)), limit)


def _broken_pair(table: Table, figure: Figure, series: Series, row: int, value: Figure, base: Figure,
                 column: str | None = None) -> str:
    """How row ``row`` breaks a "within" bound: its label (and ``column``), its figure against the reference's and
    their difference (in % of the reference, or in the unit)."""
    if figure.unit == "%":
        exact = 100.0 * abs(value.value - base.value) / base.value if base.value else 0.0
        shown = f"{exact:.1f}%"
    else:
        # a figure printed "2.48K" has decimals -1: a difference still prints whole units at least
        shown = with_unit(f"{abs(value.value - base.value):.{max(value.decimals, base.decimals, 0)}f}", series.unit)
    where = f" in '{column}'" if column is not None else ""
    return (f"'{_label(table, row)}'{where} ({with_unit(value.text, series.unit)} against "
            f"{with_unit(base.text, series.unit)}: {shown})")


def _judged(figure: Figure, broken: list[str], count: int, reference: str, table: Table) -> str:
    """'' when no row breaks a "within" bound, else the message naming the first rows that do and how many."""
    if not count:
        return ""
    return (f"'within {figure.text}{'%' if figure.unit == '%' else ' ' + (figure.unit or '')} of {reference}' is "
            f"claimed for every row but {_listed(broken, count)} in the table at line {table.line}")


def _differences(table: Table, figure: Figure, clause: str) -> str | None:
    """A bound on differences against the table's one difference column in
    %; None when the clause names a variant column its header does not
    ("between fp16 and int8" beside 'Diff vs bf16 (%)')."""
    columns = [s for s in table.series if s.unit == "%" and s.keywords & DIFFERENCE_WORDS and not s.spans]
    if len(columns) != 1:
        return None
    series = columns[0]
    # a column's variant words; all its words where lint takes them all for the quantity ("onnx (ms)")
    variant_words = set().union(*((s.keywords - s.measure) or s.keywords for s in table.series if s is not series))
    if (keywords(normalize(clause)) & variant_words) - series.keywords:
        return None
    limit = printed_interval(figure).hi
    rows = _rows(table, "")
    if rows is None:
        return None
    if limit >= 0:  # the cells above the bound and those below minus it: two prefixes of the index, apart
        index = BoundIndex.of(table, series, rows)
        (above, count_above), (below, count_below) = index.broken(limit, True), index.broken(-limit, False)
        shown, count = sorted(above + below)[:_MAX_SHOWN], count_above + count_below
    else:
        shown = [row for row in rows if series.values[row] is not None
                 and (stands_for(series.values[row]).lo > limit or -stands_for(series.values[row]).hi > limit)]
        count = len(shown)
    if not count:
        return ""
    broken = [f"'{_label(table, row)}' {with_unit(series.values[row].text, '%')}" for row in shown]
    return (f"differences under {figure.text}% are claimed but {_listed(broken, count)} in '{series.header}' of the "
            f"table at line {table.line}")


def _pair_readings(document: Document, sentence: Sentence, figure: Figure, clause_start: int) -> list[str]:
    """A bound on the differences between two variants that no difference
    column gives, read against the two variant columns of the one table
    that the clause names both of ("OpenVINO and ONNX Runtime differ by
    under 3 %"), or else the heading right over the sentence ("### OpenVINO
    vs ONNX Runtime"): each row's difference relative to the larger figure,
    the smallest its digits allow. Tables :data:`_PAIR_REACH` either side of
    the sentence in document order are looked at; [] unless exactly one
    names both."""
    block = sentence.block
    text = block.text
    for words in (keywords(normalize(text[clause_start:_clause_end(sentence, figure.end)])),
                  keywords(normalize(block.headings[0])) if block.headings else frozenset()):
        found = [pair for t in _near(document, block.order) if (pair := _named_pair(t, words)) is not None]
        if found:
            if len(found) != 1:
                return []
            table, (a, b) = found[0]
            return [_judge_pair(table, figure, a, b)]
    return []


def _near(document: Document, order: int) -> list[Table]:
    """The :data:`_PAIR_REACH` tables before ``order`` and after it, in document order."""
    tables = document.tables
    at = bisect_left(tables, order, key=lambda t: t.order)
    return tables[max(0, at - _PAIR_REACH):at + _PAIR_REACH]


def _named_pair(table: Table, words: frozenset[str]) -> tuple[Table, tuple[Series, Series]] | None:
    """(table, its two columns) when exactly two figure columns of ``table``
    have every header word among ``words``."""
    named = [s for s in table.series if s.keywords and s.keywords <= words and s.column not in table.label_columns
             and s.unit not in RATIO_UNITS and not s.spans]
    return (table, (named[0], named[1])) if len(named) == 2 else None


def _judge_pair(table: Table, figure: Figure, a: Series, b: Series) -> str:
    """'' when every row's two figures differ by ``figure`` % at most, else the message."""
    first, count = GapIndex.of(table, a, b, list(range(len(table.rows))), "pair %", _larger_gap).broken(
        printed_interval(figure).hi)
    if not count:
        return ""
    broken = [f"'{_label(table, row)}' ({a.values[row].text} against {b.values[row].text}: "
              f"{_apart(a.values[row], b.values[row])})" for row in first]
    return (f"differences under {figure.text}% between '{a.header}' and '{b.header}' are claimed but "
            f"{_listed(broken, count)} in the table at line {table.line}")


def _apart(x: Figure, y: Figure) -> str:
    """How far apart two figures are: in % of the larger, or in their unit where the larger is not above 0 (a
    printed 0.0 against -5.0: its digits let it stand above 0, so the bound reads it)."""
    larger = max(x.value, y.value)
    if larger > 0:
        return f"{100.0 * abs(x.value - y.value) / larger:.1f}%"
    return f"{abs(x.value - y.value):.{max(x.decimals, y.decimals)}f} apart"


def _larger_gap(x: Interval, y: Interval) -> float | None:
    """The least difference two cells' intervals allow in % of the larger's high end; None when neither is above 0."""
    larger = max(x.hi, y.hi)
    if larger <= 0:
        return None
    return 100.0 * max(0.0, x.lo - y.hi, y.lo - x.hi) / larger


def _label(table: Table, row: int) -> str:
    """Row ``row``'s cell of the table's first label column ("P95 latency", not "P95 latency / winner")."""
    if table.label_columns:
        return table.rows[row].cells[table.label_columns[0]]
    return table.rows[row].label


def _listed(items: list[str], count: int | None = None) -> str:
    """The first :data:`_MAX_SHOWN` of ``items`` and how many more (of ``count`` in all, ``len(items)`` unless given)."""
    shown = ", ".join(items[:_MAX_SHOWN])
    more = (len(items) if count is None else count) - _MAX_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


__all__ = ["bound_findings", "HINT"]
