"""SG203's verdict on two jobs' figures of one measurement (:class:`PairVerdict`), the digits
its words print with, and what it does where the samples are too few: the least p an exact
permutation test of their counts allows (:func:`bootstrap_floor`; 3 against 3 values: 0.1,
so no bootstrap difference reaches 5 %) and the verdict of such a pair, held to the spread its two
jobs measured plus the tolerance (:func:`untested`, :func:`beyond_spread`). :mod:`studygen.checks.sg203_reconcile` decides and words the rest."""

from __future__ import annotations

from typing import NamedTuple
from math import comb

from ..numbers import format_number, two_significant_decimals
from ..render.stats import permutation_floor
from ..rules import ERROR, WARNING
from ..study.resolution import timer_allowance
from ..study.rows import Row
from ..study.spread import COMPILATIONS, PROFILED_ITERATIONS, Spread, compared_spreads, declared_source_of


def figure_decimals(rows: list[Row]) -> int:
    """Digits to print a difference of ``rows`` with: the most any of them carries (4 for computed values)."""
    return max((r.decimals if r.decimals is not None else 4) for r in rows)


def gap_decimals(rows: list[Row], *gaps: float) -> int:
    """Digits to print the gaps of one message (a difference, a tolerance, a
    resolution) with, all alike: two significant digits of the largest, but
    no more than the figures carry (:func:`figure_decimals`). 0.00024414 and
    0.0005 ms print as 0.00024 and 0.00050, not with the eight digits of
    the figures."""
    largest = max((abs(g) for g in gaps if g), default=0.0)
    return min(figure_decimals(rows), two_significant_decimals(largest) if largest else 4)


def gap(value: float, decimals: int) -> str:
    """A gap printed with ``decimals`` digits; a zero prints as ``0`` (no ``0.00000000``)."""
    return "0" if not value else format_number(value, decimals)


def unit_of(row: Row) -> str:
    return row.unit if row.unit not in (None, "", "AP") else ""


class PairVerdict(NamedTuple):
    """Whether two jobs' rows of one key disagree, and the words that say how it was decided.

    ``p_value``: of a bootstrap comparison (a figure with a spread of its own, no declared source, and
    counts that can reach the level: :func:`bootstrap_floor`), its two-sided p before any correction
    (:attr:`studygen.render.stats.MedianDifference.p_value`), no lower than the floor of its counts,
    and ``alpha`` the level it is held to (1 - the interval's confidence); 1.0 where such figures lie
    within the timer's resolution (never a disagreement, and not tested, but one of the comparisons
    Holm's correction counts: leaving it out would choose the family by the data); None and 0.0 for
    the other comparisons. ``p_note``: words after a p the floor set (`` (the least 5 against 5 values
    allow)``), else empty.
    ``level_clause``: the words a disagreement ends with where no third job of the key measures the
    job-to-job spread (then a warning: :func:`~studygen.checks.sg203_reconcile.disagreeing_pairs`); empty where the verdict rests on no
    job's own samples (a declared source, figures without a spread of their own).
    ``severity``: of the finding a disagreement makes (:func:`~studygen.checks.sg203_reconcile.disagreeing_pairs` sets it)."""

    disagree: bool
    basis: str
    p_value: float | None = None
    alpha: float = 0.0
    severity: str = ERROR
    p_note: str = ""
    level_clause: str = ""


UNMEASURED = "; job-to-job spread not measured: repeat the job or declare spread_sources"


def sample_noun(spread: Spread) -> str:
    if spread.source == COMPILATIONS:
        return "compilations"
    return "forwards" if spread.source == PROFILED_ITERATIONS else "repeats"


def beyond_tolerance(a: Row, b: Row, allowed: float, step: float, unit_text: str) -> tuple[bool, str]:
    """Whether ``a`` and ``b`` differ by more than the tolerance ``allowed`` (the rule of figures
    without a spread of its own), and the words that say so, with the timer's resolution
    ``step`` where it, not the study file, set the bar."""
    difference = abs(b.value - a.value)
    places = gap_decimals([a, b], difference, allowed)
    while places < 12 and difference > allowed + 1e-12 and gap(difference, places) == gap(allowed, places):
        places += 1  # a gap beyond the tolerance printed alike ("spread 0.1, tolerance 0.1") read as agreement
    floor = ""
    if step > allowed:  # the timer, not the study file, set the bar: say so, with the digits to show it
        places = max(places, two_significant_decimals(step))
        floor = f"; timer resolution {gap(step, places)}{unit_text}"
    return (difference > allowed + 1e-12,
            f"spread {gap(difference, places)}{unit_text}, tolerance {gap(allowed, places)}{floor}")


def bootstrap_floor(study, a: Row, b: Row) -> float | None:
    """The least two-sided p a bootstrap comparison of ``a`` and ``b`` is read at: that of an exact
    permutation test of their counts (:func:`studygen.render.stats.permutation_floor`), a figure
    without a spread of its own counted as one value. None where they are not compared by bootstrap
    (neither has a spread of its own, or a declared source covers them)."""
    spread_a, spread_b = compared_spreads(a, b)
    if (spread_a is None and spread_b is None) or declared_source_of(study, a, b) is not None:
        return None
    return permutation_floor(*(len(s.values) if s is not None else 1 for s in (spread_a, spread_b)))


def floor_note(p_value: float, floor: float, count_a: int, count_b: int) -> str:
    """`` (the least 3 against 40 values allow)`` where the floor, not the bootstrap, set the p; else empty."""
    return f" (the least {count_a} against {count_b} values allow)" if p_value < floor else ""


def beyond_spread(a: Row, b: Row, allowed: float, unit_text: str) -> tuple[bool, str]:
    """Whether ``a`` and ``b`` (one of them at least with a spread of its own) lie further apart than
    the widest spread either job measured (its values' largest minus smallest, as ``studygen diff``
    reads a spread) plus the tolerance ``allowed`` plus, where the rows have a timer resolution, the
    timer allowance (:func:`studygen.study.resolution.timer_allowance`), and the words that say so
    with that spread's job, count and ends. The rule of a pair no bootstrap can decide (:func:`untested`)."""
    measured = [(spread, row) for spread, row in zip(compared_spreads(a, b), (a, b)) if spread is not None]
    widest, owner = max(measured, key=lambda pair: pair[0].width)  # the earlier job's on a tie
    timer = timer_allowance([a], [b])
    difference = abs(b.value - a.value)
    places = gap_decimals([a, b], difference, widest.width, allowed)
    if timer:
        places = max(places, two_significant_decimals(timer))
    bound = widest.width + allowed + timer
    while gap(difference, places) == gap(bound, places) and difference != bound and places < figure_decimals([a, b]):
        places += 1  # "0.47 ms apart, beyond the spread ... 0.47 ms": a digit more shows which side it lies on
    ends = f"{format_number(widest.low)} to {format_number(widest.high)}{unit_text}: {gap(widest.width, places)}{unit_text}"
    samples = f"job {owner.job_id}'s {len(widest.values)} {widest.source}"
    whose = f"both jobs' samples (the wider: {samples}, {ends})" if len(measured) == 2 else f"{samples} ({ends})"
    disagree = difference > widest.width + allowed + timer + 1e-12
    timer_words = f" and timer allowance {gap(timer, places)}{unit_text}" if timer else ""
    return disagree, (f"{gap(difference, places)}{unit_text} apart, {'beyond' if disagree else 'within'} the spread "
                      f"of {whose} plus tolerance {gap(allowed, places)}{timer_words}")


def untested(a: Row, b: Row, floor: float, alpha: float, allowed: float, unit_text: str, family: str = "") -> PairVerdict:
    """The verdict of rows whose counts cannot reach the level ``alpha`` (their least p, ``floor``,
    is at or above it, or would be after Holm's correction: ``family`` says so): no bootstrap
    decides; the spread the two jobs measured does (:func:`beyond_spread`, with the tolerance
    ``allowed``), as ``studygen diff`` holds a move, and the words say what was not tested and how
    far apart the figures lie. A warning, never an error (nothing was established statistically),
    also where a third job measures the job-to-job spread, ending with ``level_clause`` where none
    does: a pair measured too few times to test is no worse off than one measured enough to (a
    bootstrap disagreement of two jobs is a warning)."""
    spread_a, spread_b = compared_spreads(a, b)
    if spread_a is not None and spread_b is not None:
        counts = (len(spread_a.values), len(spread_b.values))
        what = f"{counts[0]} against {counts[1]} {spread_a.source} allow"
    else:
        with_spread, single = (a, b) if spread_a is not None else (b, a)
        spread = spread_a or spread_b
        counts = (1, len(spread.values))
        what = (f"job {single.job_id}'s figure has no spread of its own, and one value against job "
                f"{with_spread.job_id}'s {counts[1]} {spread.source} allows")
    splits = comb(sum(counts), counts[0])
    disagree, words = beyond_spread(a, b, allowed, unit_text)
    return PairVerdict(disagree, f"not decided by bootstrap: {what} no two-sided p below "
                                 f"{format_number(round(floor, two_significant_decimals(floor)))} (2 of the {splits} ways to split "
                                 f"them){family}, so none below {format_number(round(alpha, 6))}; {words}",
                       severity=WARNING, level_clause=UNMEASURED)


def within_jobs_only(spread_a: Spread, spread_b: Spread) -> str:
    """The clause a bootstrap disagreement of two jobs ends with where nothing measures or declares
    their job-to-job spread: its interval holds only the scatter inside each job."""
    noun = sample_noun(spread_a)
    counts = len(spread_a.values), len(spread_b.values)
    each = f"each job's {counts[0]} {noun}" if counts[0] == counts[1] else f"each job's {noun} ({counts[0]} and {counts[1]})"
    return f"; beyond the scatter of {each}{UNMEASURED}"
