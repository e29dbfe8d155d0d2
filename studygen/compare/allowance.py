"""How far a figure may move between two revisions and stay within its spread
(:class:`Allowance`), and the words ``studygen diff`` prints it with.

An allowance is read from the base revision alone (:mod:`studygen.compare.figures`
says which: repeat medians, profiled iterations, compilations, the jobs that report
a key, a declared source, the study file's tolerance, the timer's resolution).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..numbers import exact_decimal, format_number, source_decimals, two_significant_decimals
from ..render.rows import reads_as_difference, unit_suffix

DECLARED = "declared"
TOLERANCE = "tolerance"
TIMER = "timer resolution"
# Said of a spread of one process's samples (Allowance.one_run): a job measured again is another process, whose
# clocks, memory placement and kernel choices those samples never saw (a DINOv2-S re-run on one H100 moved
# GPU-bound figures 0.1 to 0.75 %, up to seven times what one run's five forwards or repeat medians spread).
RERUN_WORDS = (", the scatter inside one run of job {job}: another process may move further "
               "(spread_sources, source job, declares how far)")


@dataclass(frozen=True)
class Allowance:
    """How far a figure may move and stay within its spread: ``width`` (in
    the figure's unit) and where it comes from: ``source`` (a source of
    :mod:`studygen.study.spread`: ``repeat medians``, ``profiled iterations``,
    ``compilations``, ``jobs``; or :data:`DECLARED`, :data:`TOLERANCE`,
    :data:`TIMER`),
    ``side`` (``base``: whose records measured it; a head's never count), ``count`` and
    ``low``/``high`` (the values it is read from), ``percent`` (a declared
    bound), ``declared`` (a declared source's words), ``one_run`` (its values are one process's repeat
    medians or profiled iterations: no compilations pooled, so no re-run in another process is among them)."""

    width: float
    source: str
    side: str = ""
    count: int = 0
    low: float | None = None
    high: float | None = None
    percent: float | None = None
    declared: str = ""
    one_run: bool = False

    def words(self, unit: str, decimals: int | None, points_per_unit: float | None = None) -> str:
        """The allowance as a report prints it: ``0.081 ms spread of 15 repeat
        medians in base (8.157 to 8.238 ms)``, its ends at the line's
        ``decimals`` but never past the digits their sources carry (repeats
        of 14.1 and 15.3 print so, not 14.100 and 15.300; ``decimals`` where a
        source carries none) and its width their exact difference at the
        most of those, ``up to 5 % between independent
        compilations (study file): 0.412 ms``, ``tolerance 0.05 ms (study file)``,
        ``timer resolution 0.00024415 ms (one step of the timer, plus print rounding)``
        (at least two significant digits: a step of 2**-12 ms may have more than the figures print).
        With ``points_per_unit`` (a quality figure, whose change the line
        gives in points: :data:`~studygen.records.kinds.POINTS_PER_UNIT`),
        the width is in points too (:meth:`_points_words`)."""
        if points_per_unit is not None:
            return self._points_words(decimals, points_per_unit)
        suffix = unit_suffix(unit)
        width = f"{format_number(self.width, decimals)}{suffix}"
        if self.source == TOLERANCE:
            return f"tolerance {width} (study file)"
        if self.source == TIMER:
            places = max(decimals or 0, two_significant_decimals(self.width))
            return f"timer resolution {format_number(self.width, places)}{suffix} (one step of the timer, plus print rounding)"
        if self.source == DECLARED:
            return f"up to {format_number(self.percent)} % between {self.declared} (study file): {width}"
        # the ends at the line's digits, never past their sources' (repeats of 14.1 and 15.3 are no 14.100 and
        # 15.300; CUDA-event medians of six decimals print as the line's values do), and the width their exact
        # difference at the same digits, so that it reads as high minus low
        carried = [source_decimals(end) for end in (self.low, self.high)]
        if None not in carried:
            ends = carried if decimals is None else [min(digits, decimals) for digits in carried]
            exact = exact_decimal(self.high) - exact_decimal(self.low)
            # more digits, up to those the ends carry, where the line's would print two different ends alike
            # beside a width of 0 (a new user's "0.0 ms spread of 3 repeat medians (3.5 to 3.5 ms)" for 3.48
            # to 3.52): the ends and width read as high minus low, as a README's spread cell does
            while not reads_as_difference([self.low, self.high], [format_number(e, d) for e, d in
                                          zip((self.low, self.high), ends)], format_number(exact, max(ends))) \
                    and any(d < c for d, c in zip(ends, carried)):
                ends = [min(d + 1, c) for d, c in zip(ends, carried)]
            places = max(ends)
            width = f"{format_number(exact, places)}{suffix}"
        else:
            ends = [decimals, decimals]
        return (f"{width} spread of {self.count} {self.source} in {self.side} "
                f"({format_number(self.low, ends[0])} to {format_number(self.high, ends[1])}{suffix})")


    def _points_words(self, decimals: int | None, points_per_unit: float) -> str:
        """:meth:`words` of a quality figure: the width in points, at the
        digits the line's change prints its points with (``decimals`` of the
        line's values less the factor's: 0.4476 -> 0.5190 is +7.14 points),
        at least two significant; the spread's ends as the line prints its
        values, never past their sources' digits. Case (a new user's diff):
        an AP that moved ``+7.134915 points`` was said to be ``more than
        0.02413408051978777 spread of 2 jobs in base (0.44764543097553977 to
        0.47177951149532754)``: a fraction of AP beside a change in points,
        at every digit of the float."""
        width = self.width * points_per_unit
        places = None if decimals is None else max(decimals - round(math.log10(points_per_unit)), 0)
        if width and (places is None or format_number(width, places) == format_number(0.0, places)):
            places = two_significant_decimals(width)
        points = f"{format_number(width, places)} points"
        if self.source == TOLERANCE:
            return f"tolerance {format_number(self.width, decimals)} (study file): {points}"
        if self.source == DECLARED:
            return f"up to {format_number(self.percent)} % between {self.declared} (study file): {points}"
        if self.source == TIMER or self.low is None or self.high is None:
            return f"{self.source} {points}"
        ends = [source_decimals(end) for end in (self.low, self.high)]
        ends = [decimals if carried is None else carried if decimals is None else min(carried, decimals)
                for carried in ends]
        return (f"{points} spread of {self.count} {self.source} in {self.side} "
                f"({format_number(self.low, ends[0])} to {format_number(self.high, ends[1])})")
