"""SG102 statistic order: min <= median, mean <= max and
p50 <= p90 <= p95 <= p99 (median is p50), within one row.

Statistics come from column headers (``min ms``, ``median ms``, ``p99 ms``),
from the parts of a header whose cells hold several figures
(``min / max ms`` over ``5.1 / 5.9``, ``median (min–max)`` over
``5.3 (5.1–5.9)``, ``range ms`` over ``5.1 to 5.9``), from a label column whose
rows name statistics (``| statistic | fp16 ms |`` with rows min, median, p99),
and from prose lists ("median 5.3 ms, p90 5.5 ms and p99 5.9 ms",
"min/median/max 5.1/5.3/5.9 ms"). Only statistics of the same quantity and
unit are compared (``fp16 median`` is not compared with ``FP8 p99``; rows
``mean latency`` and ``max abs error`` of one ``Metric | Value`` table are
different quantities, ``Median E2EL`` and ``P99 TTFT`` too), a column of
changes or ratios (``Change``, ``x``) holds no statistics, and a pair is
out of order only beyond the rounding of both printed figures.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..patterns import lazy_compile
from .document import Document, Series, Table
from .figures import Figure, out_of_order, statistic_of, statistic_rank, statistics_in, with_unit
from .text import keywords

CODE = "SG102"

# A prose list of statistics names at least one of these.
_STAT_HINTS = ("min", "max", "median", "mean", "avg", "average", "p50", "p9", "p5", "percentile")
_ORDER_TEXT = "min <= median, mean <= max and p50 <= p90 <= p95 <= p99 <= max"


def check(document: Document) -> list[Finding]:
    """SG102 findings: one per row (or prose list) and pair out of order."""
    findings: list[Finding] = []
    for table in document.tables:
        findings.extend(_row_statistics(document, table))
        findings.extend(_statistic_rows(document, table))
    for block in document.prose:
        if not block.has_digits:
            continue
        lowered = block.lowered
        if not any(word in lowered for word in _STAT_HINTS):
            continue
        for sentence in block.sentences:
            findings.extend(_prose_statistics(document, sentence))
    return findings


def _name(stat: str) -> str:
    return "median" if stat == "p50" else stat


# A column of changes or ratios ("Change", "Δ", "speedup", "vs fp16") holds no
# statistics of one distribution, whatever its rows are called.
_CHANGE_WORDS = frozenset({"change", "delta", "diff", "difference", "improvement", "speedup", "slowdown", "reduction", "gain",
                           "saving", "saved", "ratio", "relative", "overhead", "increase", "decrease", "regression", "vs"})


def _holds_statistics(series: Series) -> bool:
    """False for a column of changes or ratios (unit ``x``, a header naming a
    change, or a ``Δ``): its median row and p99 row need no order."""
    if series.unit == "x" or "Δ" in series.header or "±" in series.header:
        return False
    return not (_CHANGE_WORDS & series.keywords)


def _pairs_out_of_order(items: list[tuple[str, Figure, str]]):
    """(low item, high item) pairs whose order is broken; items are
    (statistic, figure, where)."""
    for i, low in enumerate(items):
        for high in items[i + 1:]:
            if low[0] == high[0]:
                continue
            # quick reject: only a pair whose figures differ beyond rounding can be out of order
            a, b = low[1], high[1]
            gap = abs(a.value - b.value) - a.half_step - b.half_step
            if gap <= 1e-12:
                continue
            for x, y in ((low, high), (high, low)):
                if out_of_order(x[0], x[1], y[0], y[1]):
                    yield x, y


def _must_not_exceed(low: str, high: str) -> bool:
    """True when statistic ``low`` may not exceed ``high`` (min <= p50,
    mean <= max, p90 <= p99 …)."""
    low_rank, high_rank = statistic_rank(low), statistic_rank(high)
    if low_rank is None:
        return high_rank == 100.0
    if high_rank is None:
        return low_rank == 0.0
    return low_rank < high_rank


def _varying_key(series: Series) -> str:
    """The sub-column label that separates distributions (``800x1067``), or
    "" when it only names the statistic (``min / max``)."""
    if not series.varying or series.varying.startswith("#") or statistics_in(series.varying):
        return ""
    return series.varying


def _row_statistics(document: Document, table: Table) -> list[Finding]:
    groups: dict[tuple, list[Series]] = {}
    for series in table.series:
        if series.stat:
            groups.setdefault((series.unit, series.quantity, _varying_key(series)), []).append(series)
    findings = []
    for group in groups.values():
        if len({s.stat for s in group}) < 2:
            continue
        # The ordered pairs of this group, found once; each row then costs
        # one comparison per pair.
        ordered = [
            (low, high)
            for low in group
            for high in group
            if low.stat != high.stat and _must_not_exceed(low.stat, high.stat)
        ]
        for row in table.rows:
            index = row.index
            broken = []
            for low, high in ordered:
                a, b = low.values[index], high.values[index]
                if a is None or b is None or a.value - a.half_step <= b.value + b.half_step + 1e-12:
                    continue
                broken.append(
                    f"{_name(low.stat)} {with_unit(a.text, group[0].unit)} ('{low.header}') exceeds "
                    f"{_name(high.stat)} {with_unit(b.text, group[0].unit)} ('{high.header}')"
                )
            if broken:
                findings.append(Finding(
                    CODE,
                    f"{row.name()}: " + "; ".join(broken),
                    document.path,
                    row.line,
                    hint=f"statistics of one distribution keep {_ORDER_TEXT}; check which cell was swapped or mistyped",
                ))
    return findings


# A label cell "P128": a concurrency, a process count, never a percentile (no percentile passes 100)
_P_LABEL_RE = lazy_compile(r"\W*p(\d+)\W*", re.IGNORECASE)
# What a column of a distribution's statistics names at least one of: its ends, centre or a high percentile
_DISTRIBUTION_STATS = frozenset({"min", "max", "mean", "p50"})


def _names_a_distribution(table: Table, column: int, named: set[str]) -> bool:
    """Whether a label column whose rows name statistics (``named``) reads as one distribution's: it names
    its min, max, mean, median or a percentile from p90 up, and no cell of it is a "P" number past 100. Rows
    P1, P8, P32, P64, P128 of a serving page count concurrent requests: its TTFT rising down them is no p8
    above p32 (a public page's seven false findings; p4, p16 alone name no distribution either)."""
    if any((m := _P_LABEL_RE.fullmatch(row.cells[column])) and int(m.group(1)) > 100
           for row in table.rows if column < len(row.cells)):
        return False
    return any(stat in _DISTRIBUTION_STATS or (stat.startswith("p") and _percentile(stat) >= 90) for stat in named)


def _percentile(stat: str) -> float:
    try:
        return float(stat[1:])
    except ValueError:
        return 0.0


def _statistic_rows(document: Document, table: Table) -> list[Finding]:
    """Tables whose rows are statistics: compare down each numeric column,
    within rows that share their other labels."""
    findings = []
    for column in table.label_columns:
        head = [row.cells[column] for row in table.rows[:3] if column < len(row.cells)]
        if not any(statistics_in(text) for text in head):
            continue
        stats = {}
        quantities = {}
        for row in table.rows:
            text = row.cells[column] if column < len(row.cells) else ""
            named = statistics_in(text)
            if len(named) == 1 and len(text.split()) <= 4:
                stats[row.index] = named[0][0]
                # what the statistic is of: "max abs error" -> {abs, error}, "P99 TTFT" -> {ttft}
                quantities[row.index] = keywords(text[:named[0][1]] + " " + text[named[0][2]:])
        if len(set(stats.values())) < 2 or not _names_a_distribution(table, column, set(stats.values())):
            continue
        others = [c for c in table.label_columns if c != column]
        grouped: dict[tuple, list[int]] = {}
        for row_index in stats:
            row = table.rows[row_index]
            key = tuple(row.cells[c] if c < len(row.cells) else "" for c in others)
            grouped.setdefault((key, quantities[row_index]), []).append(row_index)
        for series in table.series:
            if series.stat or not _holds_statistics(series):
                continue
            for row_indexes in grouped.values():
                items = [(stats[i], series.values[i], str(i)) for i in row_indexes if series.values[i] is not None]
                for low, high in _pairs_out_of_order(items):
                    low_row, high_row = table.rows[int(low[2])], table.rows[int(high[2])]
                    findings.append(Finding(
                        CODE,
                        f"'{series.header}': {_name(low[0])} {with_unit(low[1].text, series.unit)} (line {low_row.line}) exceeds "
                        f"{_name(high[0])} {with_unit(high[1].text, series.unit)} (line {high_row.line})",
                        document.path,
                        max(low_row.line, high_row.line),
                        hint=f"statistics of one distribution keep {_ORDER_TEXT}; check which cell was swapped or mistyped",
                    ))
    return findings


# "median 5.3 ms", "p99 of 5.9 ms", "p90: 5.5 ms"
_STAT_FIGURE_GAP_RE = lazy_compile(r"\s*(?:latency|time|gpu compute time|of|=|:|is|was|at|\s)*\s*", re.IGNORECASE)
_LIST_GAP_RE = lazy_compile(r"\s*(?:,|;|/|and|,\s*and)?\s*", re.IGNORECASE)
_STAT_SLASH_RE = lazy_compile(
    r"(?<![\w.])((?:min|max|median|mean|avg|p\d{1,2}(?:\.\d+)?)(?:\s*/\s*(?:min|max|median|mean|avg|p\d{1,2}(?:\.\d+)?))+)\s*(?:latency|time|of|=|:|is|are)?\s*$",
    re.IGNORECASE,
)


def _prose_statistics(document: Document, sentence) -> list[Finding]:
    tokens = [t for t in sentence.tokens if t.figure is not None]
    if len(tokens) < 2:
        return []
    text = sentence.block.text
    stats = statistics_in(sentence.text)
    if not stats:
        return []
    findings = []
    # "min/median/max 5.1/5.3/5.9 ms": k statistic words, then k figures joined by "/"
    for index, token in enumerate(tokens):
        match = _STAT_SLASH_RE.search(text, max(sentence.start, token.start - 80), token.start)
        if not match:
            continue
        names = [statistic_of(w) for w in re.split(r"\s*/\s*", match.group(1))]
        run = tokens[index:index + len(names)]
        if len(run) != len(names) or any(text[a.end:b.start].strip() != "/" for a, b in zip(run, run[1:])):
            continue
        unit = next((t.figure.unit for t in reversed(run) if t.figure.unit), None)
        items = [(n, t.figure, "") for n, t in zip(names, run) if n]
        findings.extend(_prose_finding(document, sentence, token.start, items, unit))
    # "median 5.3 ms, p90 5.5 ms and p99 5.9 ms": statistic-figure pairs in a tight list
    pairs = []
    for name, start, end in stats:
        absolute_end = sentence.start + end
        following = next((t for t in tokens if t.start >= absolute_end), None)
        if following is None or not _STAT_FIGURE_GAP_RE.fullmatch(text, absolute_end, following.start):
            continue
        pairs.append((name, sentence.start + start, following))
    run: list = []
    for pair in pairs:
        if run and not _LIST_GAP_RE.fullmatch(text, run[-1][2].end, pair[1]):
            findings.extend(_prose_run(document, sentence, run))
            run = []
        run.append(pair)
    findings.extend(_prose_run(document, sentence, run))
    return findings


def _prose_run(document: Document, sentence, run: list) -> list[Finding]:
    if len(run) < 2:
        return []
    units = {p[2].figure.unit for p in run}
    if len(units) != 1 or None in units:
        return []
    items = [(name, token.figure, "") for name, _, token in run]
    return _prose_finding(document, sentence, run[0][1], items, units.pop())


def _prose_finding(document: Document, sentence, offset: int, items, unit) -> list[Finding]:
    broken = [
        f"{_name(low[0])} {with_unit(low[1].text, unit)} exceeds {_name(high[0])} {with_unit(high[1].text, unit)}"
        for low, high in _pairs_out_of_order(items)
    ]
    if not broken:
        return []
    return [Finding(
        CODE,
        "; ".join(broken),
        document.path,
        sentence.line_at(offset),
        hint=f"statistics of one distribution keep {_ORDER_TEXT}; check which figure was swapped or mistyped",
    )]
