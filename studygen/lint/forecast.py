"""Ranges a document gives as a forecast, not as a summary of its rows (SG101).

A plan or a research note often states what it expects before anything is
measured: "**Expected speedup**: 12-18x", "Target gain: 10-15x", "we
anticipate 2-3x on the larger board". Such a range says what the author hopes
to see, perhaps taken from someone else's figures; a row of the document's
tables outside it contradicts nothing, so SG101 does not read it against them.

:func:`forecast` reads the words of the range's clause before it (from the
sentence's start, or from the last "but", "and", "while", "whereas" or
semicolon joining a second clause: "we expected 2x, but measured 2.5-3x"
states a measurement):

- a word of expectation: "expected", "expect(s)", "anticipate(d)",
  "projected", "predicted", "forecast"; "as expected", "than expected" and
  their kin ("as we had predicted") judge a measurement against a forecast
  and do not count ("As expected, the gain spans 10-15x" summarises rows);
- or a lead-in label naming a goal right before the range: "Target gain:
  10-15x", "**Goal**: 2-3x" (the label ends with a colon, only markup
  between it and the range). "target" alone elsewhere in a clause is often
  a compiler's or a board's target ("on the x86 target, 2-3x") and does not
  count.

Cases: ``tests/lint/test_forecast_ranges.py`` (a research note's plan
section under a measured table: session 28's public Raspberry Pi accelerator
note, whose per-task expected speedup was read against every row).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile

_EXPECT_RE = lazy_compile(
    r"\b(?:expect(?:ed|s|ing)?|anticipat(?:e|es|ed|ing)|projected|predicted|forecasts?)\b", re.IGNORECASE,
    needs=("expect", "anticipat", "projected", "predicted", "forecast"))
# a measurement judged against a forecast: "as expected", "than we had anticipated", "as was predicted"
_JUDGED_RE = lazy_compile(
    r"\b(?:as|than)\s+(?:(?:we|I|they|one|was|were|had|been|is|are|originally|initially)\s+){0,3}"
    r"(?:expected|anticipated|predicted|projected|forecast)\b", re.IGNORECASE,
    needs=("expected", "anticipated", "predicted", "projected", "forecast"))
# a goal's label right before the range: "Target gain: ", "**Goal**: ", "- target speedup (7B): "
_GOAL_LABEL_RE = lazy_compile(r"\b(?:targets?|goals?|aims?)\b[^:.;\n]{0,40}:[\s*_`]*$", re.IGNORECASE,
    needs=("target", "goal", "aim"))
# where a second clause starts: what it states is no longer under the first one's "expected"
_JOIN_RE = lazy_compile(r";|\b(?:but|and|while|whereas|though|although|yet)\b", re.IGNORECASE)
_REACH = 200  # characters of the clause read before a range: a lead-in or a verb of expectation stands close


def forecast(text: str, start: int, at: int) -> bool:
    """True when the range at offset ``at`` of ``text`` is given as a
    forecast or a goal by the words of its clause before it, the clause
    starting no earlier than ``start`` (its sentence's start) nor more than
    :data:`_REACH` characters before the range (a generated paragraph may be
    one sentence of thousands of ranges: each reads a bounded stretch)."""
    start = max(start, at - _REACH)
    joins = [match.end() for match in _JOIN_RE.finditer(text, start, at)]
    clause = text[joins[-1] if joins else start:at]
    if _GOAL_LABEL_RE.search(clause):
        return True
    return _EXPECT_RE.search(_JUDGED_RE.sub(" ", clause)) is not None


__all__ = ["forecast"]
