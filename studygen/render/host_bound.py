"""Host-bound latencies in words (the rule: :mod:`studygen.study.host_bound`).

- :func:`host_bound_line`: one latency's host issue time, median and kernel
  total, for the list under the latency tables;
- :func:`inversion_clause`: the sentence a precision inversion's side finding
  ends with when either side's timing is host-bound.
"""

from __future__ import annotations

from collections.abc import Callable

from ..study.host_bound import HOST_BOUND_SHARE, HostBound, host_bound
from ..study.rows import Row

# the rule as the README states it above the list of host-bound latencies; no comparative ("less than"), which
# studygen diff would read as a verdict of the sentence
RULE_WORDS = (f"the host took at least {round(HOST_BOUND_SHARE * 100)} % of a forward's median time to issue the "
              "forward (host issue time per forward, recorded by collect run) and the profiled kernels fill under "
              f"{round(HOST_BOUND_SHARE * 100)} % of it")


def host_bound_line(found: HostBound, ms: Callable[[float], str]) -> str:
    """``the host took 6.031 ms to issue each forward against a median of
    6.185 ms; the profiled kernels take 1.159 ms`` (``ms``: a time in ms as
    the study prints computed times)."""
    text = f"the host took {ms(found.issue_ms)} ms to issue each forward against a median of {ms(found.median_ms)} ms"
    if found.kernel_ms is not None:
        text += f"; the profiled kernels take {ms(found.kernel_ms)} ms"
    return text


def _bound(values: list[float], ms: Callable[[float], str], least: bool) -> str:
    """``6.031`` for one side's figures that print alike, else the bound every
    job's figure keeps (several jobs): ``at least 6.031`` (``least``: the
    smallest) or ``at most 6.2``. A bound, not the span ``6.031 to 6.2``: a
    range in a sentence reads as a summary of the table column it is taken
    from, which the other variants' and shapes' rows would contradict (lint's
    SG101 on the README), while what the sentence rests on is that every
    job's host time is that long, and every job's kernel time that short."""
    low, high = ms(min(values)), ms(max(values))
    if low == high:
        return low
    return f"at least {low}" if least else f"at most {high}"


def inversion_clause(lows: list[Row], highs: list[Row], low_label: str, high_label: str,
                     ms: Callable[[float], str]) -> str:
    """What to add after a precision inversion's sentence (``lows``: the
    slower lower-precision variant's figures, ``highs``: the other's, every
    job's) when every figure of a side is host-bound; ``''`` when neither
    side is. Both sides: the gap is the host's, with each side's host issue
    time and, where every figure of both has a profile, their kernel totals;
    one side: that side's timing is host-bound, with its issue time."""
    sides = []
    for rows, label in ((lows, low_label), (highs, high_label)):
        found = [host_bound(row) for row in rows]
        if rows and all(found):
            sides.append((label, found))
    if not sides:
        return ""
    every = " in every job" if any(len({ms(f.issue_ms) for f in found}) > 1 for _, found in sides) else ""
    if len(sides) == 1:
        label, found = sides[0]
        return (f" The {label} timing is host-bound: the host took {_bound([f.issue_ms for f in found], ms, True)} "
                f"ms to issue each forward{every}, so that figure times the host at least as much as the GPU.")
    issues = " and ".join(f"{_bound([f.issue_ms for f in found], ms, True)} ms ({label})" for label, found in sides)
    kernels = [[f.kernel_ms for f in found] for _, found in sides]
    profiled = all(k is not None for side in kernels for k in side)
    return (" Both timings are host-bound: the host took " + issues + " to issue each forward" + every
            + (f", while the profiled kernels take {' and '.join(_bound(side, ms, False) for side in kernels)} ms"
               if profiled else "")
            + ", so the gap is in the host's work per forward, not in the GPU's.")
