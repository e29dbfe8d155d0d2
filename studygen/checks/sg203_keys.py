"""SG203 by measurement key: one finding for each measurement whose jobs
disagree, however many pairs of its jobs do.

The verdict stays per pair (:func:`studygen.checks.sg203_reconcile.compare_pair`,
Holm's correction over a pair's keys, the levels of variance): a key is in
disagreement exactly when at least one pair of its jobs disagrees. What this
module changes is how that is reported. A configuration re-profiled ten times
(two traces, eleven jobs, figures +-10 % apart, no tolerance) made one error
for every pair of jobs of every key, 533 in all; 300 re-runs made 403,202 and
took a minute. Its finding now names the key, how many jobs hold it, their
range (lowest and highest figure with their jobs, in the key's unit), how
many pairs of them disagree, and one pair's verdict (the most severe, then the
widest apart: :func:`representative`), placed where that pair's verdict
places it (its row further from the key's median). A key two jobs report
keeps the words of their one pair (both figures, both jobs: the range).

Figures held to the tolerance alone (no row of the key has a spread of its
own or is covered by a declared source: one trace, one trtexec run a job, an
AP) are decided without a verdict's words: two such figures disagree when
they lie further apart than the timer's allowance and the tolerance, a rule
of the two values (:func:`_tolerance_verdicts`), so the pairs are counted on
the sorted figures, those far enough apart at once and only those near the
bound one by one; the words of one pair are written. Figures with a spread of
their own are still compared pair by pair (a bootstrap each).

Waivers (:mod:`studygen.checks.waivers`): a waiver by key names every pair of
the key. One by README line or message text was written against a pair's
finding (its place and words: both figures and jobs, the verdict): it waives
the pairs whose finding it would have matched (:func:`pair_finding`). Those
pairs are left out of the key's finding, which counts them apart ("and 2
more waived"); a key whose every disagreeing pair is waived reports as
waived, with the reasons of the entries that waived them. A waived pair never
makes its key an error, and a waiver never hides a pair it does not name.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import Callable, NamedTuple

from ..findings import Finding
from ..numbers import format_number
from ..records.kinds import Kind
from ..rules import ERROR, code_of
from ..study.resolution import printed_rounding, resolution
from ..study.rows import Row
from ..study.spread import compilation_spread, declared_sources, spread_of, tolerance
from ..study.timing import timing_name
from .base import row_finding
from .sg203_verdict import PairVerdict, unit_of
from .waivers import active_entries, matches

CODE = code_of("studygen.checks.sg203_reconcile")  # the check this module reports for
EPSILON = 1e-12  # the slack every SG203 comparison of two figures allows (float sums)

Pair = tuple[Row, Row, Row, PairVerdict]  # (earlier job's row, later job's row, the row it is placed at, verdict)


class KeyDisagreement(NamedTuple):
    """How the jobs of one measurement key compare.

    ``rows``: the key's rows in the study's order (job id, then pointer); ``compared``: pairs of two
    jobs among them; ``count``: those that disagree; ``placed``: ``id()`` of each row some disagreeing
    pair is placed at (its row further from the key's median: :func:`outlier`);
    ``representative``: the pair the finding words (:func:`representative`), None where none disagrees;
    ``every``: a call that returns every disagreeing pair, decided and worded (for pair waivers)."""

    rows: list[Row]
    compared: int
    count: int
    placed: frozenset
    representative: Pair | None
    every: Callable[[], list[Pair]]


def middle(rows: list[Row]) -> float:
    """The median of ``rows``' figures."""
    values = sorted(r.value for r in rows)
    half = len(values) // 2
    return values[half] if len(values) % 2 else (values[half - 1] + values[half]) / 2


def outlier(centre: float, a: Row, b: Row) -> Row:
    """Of a disagreeing pair, the row further from ``centre`` (the median of
    every job's figure of the key: the one the finding is placed at); the
    later job on a tie."""
    a, b = sorted((a, b), key=lambda r: r.job_id)
    return a if abs(a.value - centre) > abs(b.value - centre) + EPSILON else b


_SEVERITY_RANK = {ERROR: 1}


def representative(pairs: list[Pair]) -> Pair | None:
    """The pair a key's finding words: the most severe (an error before a warning), then the widest
    apart, then the first in the study's order; None for no pairs."""
    best = None
    for pair in pairs:
        rank = (_SEVERITY_RANK.get(pair[3].severity, 0), abs(pair[1].value - pair[0].value))
        if best is None or rank > best[0]:
            best = (rank, pair)
    return best[1] if best else None


def from_pairs(rows: list[Row], compared: int, pairs: list[Pair]) -> KeyDisagreement:
    """The key's comparison from its disagreeing ``pairs`` (every one decided already)."""
    return KeyDisagreement(rows, compared, len(pairs), frozenset(id(p[2]) for p in pairs), representative(pairs),
                           lambda: pairs)


def held_to_tolerance(study, rows: list[Row]) -> bool:
    """Whether every two jobs' figures of the key are decided by the tolerance and the timer
    alone: no row has a spread of its own (repeats, profiled iterations, compilations), no
    declared source covers any, and no job reports the key twice."""
    sources = declared_sources(study)
    return (len({r.job_id for r in rows}) == len(rows)
            and all(spread_of(r) is None and compilation_spread(r) is None for r in rows)
            and not any(source.covers(r) for source in sources for r in rows))


class _Figures:
    """A key's figures held to the tolerance, sorted, with what decides a pair of them."""

    def __init__(self, study, rows: list[Row]):
        self.rows = rows
        self.order = sorted(range(len(rows)), key=lambda i: rows[i].value)  # indexes into rows, by value
        self.values = [rows[i].value for i in self.order]
        self.steps = [resolution(r) for r in rows]
        self.rounding = [printed_rounding(r) for r in rows]
        self.tolerances = [tolerance(study, r) for r in rows]
        # no pair disagrees at or below the least tolerance; every pair beyond the largest bound does
        self.low = min(self.tolerances)
        self.high = max(max(self.tolerances), max(self.steps) + 2 * max(self.rounding))

    def disagree(self, i: int, j: int) -> bool:
        """Whether rows ``i`` and ``j`` disagree, as :func:`~studygen.checks.sg203_reconcile.compare_pair`
        decides figures without a spread: not within the timer's resolution and rounding, and
        further apart than the tolerance of the earlier row's metric."""
        a, b = min(i, j), max(i, j)
        difference = abs(self.rows[b].value - self.rows[a].value)
        step = max(self.steps[a], self.steps[b])
        if step and difference <= step + self.rounding[a] + self.rounding[b] + EPSILON:
            return False
        return difference > self.tolerances[a] + EPSILON

    def beyond(self, position: int) -> int:
        """First sorted position whose figure lies surely further above that at ``position`` than any
        bound: every pair from there on disagrees (twice the slack keeps float rounding out)."""
        return bisect_right(self.values, self.values[position] + self.high + 2 * EPSILON)

    def within(self, position: int) -> int:
        """First sorted position whose figure may lie beyond the least tolerance above that at
        ``position`` (past it: the tolerance is never negative)."""
        return bisect_right(self.values, self.values[position] + self.low)

    def pairs(self):
        """``(i, j)`` (indexes into rows) of every disagreeing pair: those past :meth:`beyond` at once."""
        for position, i in enumerate(self.order):
            sure = self.beyond(position)
            for other in range(self.within(position), sure):
                if self.disagree(i, self.order[other]):
                    yield i, self.order[other]
            for other in range(sure, len(self.order)):
                yield i, self.order[other]

    def count(self) -> int:
        """How many pairs disagree: those past :meth:`beyond` counted, those between checked."""
        total = 0
        for position, i in enumerate(self.order):
            sure = self.beyond(position)
            total += len(self.order) - sure
            total += sum(1 for other in range(self.within(position), sure) if self.disagree(i, self.order[other]))
        return total

    def placed(self) -> frozenset:
        """``id()`` of each row that some pair it disagrees in is placed at (:func:`outlier`): a row
        is, when a row no further from the median (the earlier job's, on a tie, strictly nearer)
        disagrees with it. The candidates lie between the median's two sides at the row's distance;
        those furthest from the row's figure are tried first, and the scan stops where no pair
        can disagree any more."""
        centre = middle(self.rows)
        found = set()
        for i, row in enumerate(self.rows):
            distance = abs(row.value - centre)
            start = bisect_left(self.values, centre - distance - 2 * EPSILON)
            stop = bisect_right(self.values, centre + distance + 2 * EPSILON)
            left, right = start, stop - 1
            while left <= right:
                # the candidate further from the row's figure first
                take_left = row.value - self.values[left] >= self.values[right] - row.value
                position = left if take_left else right
                if abs(self.values[position] - row.value) <= self.low:
                    break  # this one and every candidate left lie within the least tolerance
                other = self.order[position]
                if other != i and self.disagree(i, other) and outlier(centre, row, self.rows[other]) is row:
                    found.add(id(row))
                    break
                if take_left:
                    left += 1
                else:
                    right -= 1
        return frozenset(found)

    def widest(self) -> tuple[int, int]:
        """The disagreeing pair furthest apart, first in the study's order on a tie: the lowest and
        highest figures where they disagree, else the widest pair found one by one. Asked only of
        figures some pair of which disagrees."""
        lows = [i for i in self.order if self.rows[i].value == self.values[0]]
        highs = [i for i in self.order if self.rows[i].value == self.values[-1]]
        first = min(min(lows), min(highs))
        pair = (first, min(highs)) if first in lows else (first, min(lows))
        if self.disagree(*pair):
            return tuple(sorted(pair))
        best = None
        for i, j in self.pairs():
            rank = (abs(self.rows[i].value - self.rows[j].value), -min(i, j), -max(i, j))
            if best is None or rank > best[0]:
                best = (rank, (min(i, j), max(i, j)))
        return best[1]


def from_tolerance(study, rows: list[Row], decide: Callable[[Row, Row], PairVerdict]) -> KeyDisagreement:
    """The comparison of a key :func:`held_to_tolerance`, its pairs counted on the sorted figures
    (:class:`_Figures`) and only the representative's verdict worded by ``decide``
    (:func:`~studygen.checks.sg203_reconcile.compare_pair`), which decides it alike."""
    figures = _Figures(study, rows)
    count = figures.count()
    compared = len(rows) * (len(rows) - 1) // 2
    if not count:
        return KeyDisagreement(rows, compared, 0, frozenset(), None, list)
    centre = middle(rows)

    def worded(i: int, j: int) -> Pair:
        a, b = rows[min(i, j)], rows[max(i, j)]
        return a, b, outlier(centre, a, b), decide(a, b)

    return KeyDisagreement(rows, compared, count, figures.placed(), worded(*figures.widest()),
                           lambda: [worded(i, j) for i, j in sorted((min(p), max(p)) for p in figures.pairs())])


def describe(study, row: Row) -> str:
    """``fp16 AP on NVIDIA B200, tensorrt=11.4.0.106`` or ``fp16 median device-to-host copy time on …``
    style description of a row: a latency names its timing as its record took it (:func:`studygen.study.timing.timing_name`)."""
    parts = [study.variant_label(row.variant), row.statistic or row.metric or row.kind]
    if row.kind == Kind.LATENCY and row.metric:
        # a trtexec job reports six latencies per cell: name which one (SG207 words them alike)
        parts.append(timing_name(row))
    if row.group:
        parts.append(row.group)
    where = [row.gpu or "GPU not stated", row.software or "versions not stated"]
    if row.shape:
        where.append(row.shape)
    return f"{' '.join(p for p in parts if p)} on {', '.join(where)}"


def pair_finding(study, pair: Pair, hint: str = "") -> Finding:
    """The finding one disagreeing pair is worded as: both figures with their jobs and the verdict,
    at the row the pair is placed at. A key of two jobs reports it as it is; a waiver by line
    or message text is held to it (:func:`key_findings`)."""
    a, b, placed, verdict = pair
    values = f"{format_number(a.value)} in job {a.job_id}; {format_number(b.value)} in job {b.job_id}"
    return row_finding(CODE, placed,
                       f"same measurement disagrees across jobs: {describe(study, a)}: {values} ({verdict.basis})",
                       hint=hint, severity=verdict.severity)


def _pair_entries(study) -> list[dict]:
    """The study file's applied SG203 waivers and explanations that name a line or message text:
    those written against one pair's finding."""
    return [entry for entry in active_entries(study.spec)
            if entry["code"] == CODE and ("line" in entry or "match" in entry)]


def _ends(rows: list[Row]) -> str:
    """``0.452 ms in job r03 to 0.551 ms in job r08``: the lowest and highest figure of the key,
    each the first in the study's order on a tie."""
    low = min(rows, key=lambda r: r.value)
    high = max(rows, key=lambda r: r.value)
    unit = f" {unit_of(low)}" if unit_of(low) else ""
    return f"{format_number(low.value)}{unit} in job {low.job_id} to {format_number(high.value)}{unit} in job {high.job_id}"


def key_finding(study, disagreement: KeyDisagreement, hint_of: Callable[[Row], str], waived: int = 0) -> Finding:
    """One key's finding, from its ``representative`` (which sets the place and severity): a key
    of two jobs in its pair's words (:func:`pair_finding`); else its jobs, their range, how many
    pairs disagree (and ``waived``, how many more were waived) and the representative's verdict."""
    pair = disagreement.representative
    a, b, placed, verdict = pair
    rows = disagreement.rows
    jobs = len({r.job_id for r in rows})
    if jobs == 2 and not waived:
        return pair_finding(study, pair, hint_of(placed))
    more = f" and {waived} more waived" if waived else ""
    said = "disagree" if disagreement.count > 1 else "disagrees"
    which = ", among them" if disagreement.count > 1 else ":"
    return row_finding(
        CODE, placed,
        f"same measurement disagrees across jobs: {describe(study, a)}: {jobs} jobs, {_ends(rows)}; "
        f"{disagreement.count} of their {disagreement.compared} pairs {said}{more}{which} "
        f"{format_number(a.value)} in job {a.job_id} against {format_number(b.value)} in job {b.job_id} "
        f"({verdict.basis})", hint=hint_of(placed), severity=verdict.severity)


def key_findings(study, found: dict[tuple, KeyDisagreement], hint_of: Callable[[Row], str]) -> list[Finding]:
    """One finding per key with a disagreeing pair (:func:`key_finding`). Where the study file holds
    SG203 waivers by line or message text, each pair's finding (:func:`pair_finding`) is held to
    them first: the pairs they match leave the key's count and words; when they match every pair,
    the key's finding is waived through them. The key's finding carries every pair's finding
    (``parts``): :func:`~studygen.checks.waivers.apply_waivers` counts the entries that match one
    as used and waives the finding only where every one is matched."""
    entries = _pair_entries(study)
    findings = []
    for disagreement in found.values():
        if not disagreement.count:
            continue
        if not entries:
            findings.append(key_finding(study, disagreement, hint_of))
            continue
        pairs = disagreement.every()
        parts = [pair_finding(study, pair) for pair in pairs]  # matched, never printed: no hint
        named = [any(matches(entry, part) for entry in entries) for part in parts]
        left = [pair for pair, waived in zip(pairs, named) if not waived]
        if not left:  # every pair waived: the key's finding, waived through each of them
            findings.append(replace(key_finding(study, disagreement, hint_of), parts=tuple(parts)))
            continue
        kept = disagreement._replace(count=len(left), representative=representative(left))
        # every pair rides along: apply_waivers counts the entries that named some as used, and waives
        # the finding only where every one is named (here some are not)
        findings.append(replace(key_finding(study, kept, hint_of, waived=len(pairs) - len(left)), parts=tuple(parts)))
    return findings
