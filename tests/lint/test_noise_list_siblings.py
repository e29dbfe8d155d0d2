"""A noise verdict in a list item whose evidence another item of the same list states (SG105,
sg105_noise_wording._sibling_evidence): the items of one list read as one paragraph, so "- each figure is
the median of 7 runs" excuses "- the two builds are within noise" below it. Before, each item was its own
paragraph and the verdict was reported. A list without such an item, or evidence in another list or a
paragraph between, still leaves the verdict unexcused. Wording and figures are invented."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text


def _sg105(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "x.md") if f.code == "SG105"]


_EVIDENCE_ITEM = """\
# Build comparison

Notes on the two builds:

- Each figure is the median of 7 runs on an idle host.
- Build A takes 41.2 s and build B 41.5 s, which is within noise.
"""

_EVIDENCE_AFTER = """\
# Build comparison

- Build A takes 41.2 s and build B 41.5 s: within noise.
- Spread over the repeats: min to max 40.8 to 41.9 s.
"""

_NESTED = """\
# Build comparison

- Timing: median of 7 runs.
  - Build A at 41.2 s and build B at 41.5 s are within noise.
"""


@pytest.mark.parametrize("text", [_EVIDENCE_ITEM, _EVIDENCE_AFTER, _NESTED])
def test_evidence_in_another_item_of_the_list_excuses_the_verdict(text):
    # before: one SG105 warning at the verdict's item
    assert _sg105(text) == []


def test_a_list_whose_items_hold_no_evidence_is_still_reported():
    text = """\
# Build comparison

- The cache was warm for both builds.
- Build A takes 41.2 s and build B 41.5 s, which is within noise.
"""
    assert _sg105(text) == [4]


def test_evidence_in_another_list_does_not_reach_the_verdict():
    # a paragraph between the lists ends the first one
    text = """\
# Build comparison

- Each figure is the median of 7 runs.

Then the second machine:

- Build A takes 41.2 s and build B 41.5 s, which is within noise.
"""
    assert _sg105(text) == [7]


def test_evidence_in_another_sections_list_does_not_reach_the_verdict():
    text = """\
# Build comparison

## Method

- Each figure is the median of 7 runs.

## Result

- Build A takes 41.2 s and build B 41.5 s, which is within noise.
"""
    assert _sg105(text) == [9]


def test_a_lone_item_with_no_evidence_is_reported():
    text = """\
# Build comparison

- Build A takes 41.2 s and build B 41.5 s, which is within noise.
"""
    assert _sg105(text) == [3]


def test_each_list_is_judged_on_its_own_items():
    # the first list's evidence excuses its own verdict only; the second list, read after it, states none
    text = """\
# Build comparison

- Each figure is the median of 7 runs.
- Build A takes 41.2 s and build B 41.5 s, which is within noise.

On the second machine:

- The cache was warm for both builds.
- Build A takes 52.0 s and build B 52.4 s, which is within noise.
"""
    assert _sg105(text) == [9]
