"""Approximate figures ("~2.3x", "about 3x", "roughly 40%"): false only when far from every reading.

A figure written after a word of approximation (``~``, ``≈``, "about", "around", "roughly", "approximately",
"approx.", "nearly", "almost", "close to") does not claim its printed digits: "~2x" for 1.8 is what the writer
meant. A reader holds such a figure only to a margin: its printed interval divided and multiplied by
:data:`MARGIN` (:func:`widened`; a ratio's error is relative), and it is false when every value its table gives
lies outside that (:func:`far_from`). ``~2.3x`` stands for 2.25 to 2.35, widened to 2.25 / 1.6 = 1.41 up to
2.35 * 1.6 = 3.76: a ratio of 1.33 makes it false, one of 1.6 does not. Readers: SG103's ratio between two named
rows (:mod:`studygen.lint.prose_rows`) and SG101's single-figure claim (:mod:`studygen.lint.claims`).

The margin is 1.6. On the lint corpus and the unseen sets of sessions 24 to 29 the two readers reach two
approximate figures, both true or neutral, at 1.19 and 1.49 times off their nearest reading ("~4x speedup" said
of another GPU than the rows' best 2.93x; "~1.6x larger" read against rows 0.96x apart); 1.6 flags neither, and
a figure 1.6 times off what its rows give is another figure, not a rounding of it.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .rounding import Interval, printed_interval

MARGIN = 1.6  # an approximate ratio may be this many times off its printed interval, either way
# The words that make a ratio an approximation (bounds such as "up to", "over" are not)
APPROXIMATE_BEFORE_RE = lazy_compile(
    r"(?:~|≈|\babout|\baround|\broughly|\bapprox(?:imately|\.)?|\bnearly|\balmost|\bclose\s+to)\s*$",
    re.IGNORECASE)


def widened(figure) -> Interval:
    """The values an approximate ``figure`` (a ratio, value > 0) allows: its
    printed interval divided and multiplied by :data:`MARGIN`."""
    stated = printed_interval(figure)
    return Interval(stated.lo / MARGIN, stated.hi * MARGIN)


def far_from(figure, readings: list[Interval]) -> bool:
    """True when no reading (the intervals a ratio's operands give, at least
    one) meets the approximate ``figure``'s :func:`widened` interval."""
    allowed = widened(figure)
    return bool(readings) and not any(reading.meets(allowed) for reading in readings)
