"""A comparison whose pair of figures follows its clause after a comma or colon ("it is faster than fp32 at both
shapes, 0.562 ms against 0.32 ms") is read subject first, as the clause names them, and figures that go the other
way are SG103. Seen in a trial's decision summary: bf16's 0.562 ms called faster than fp32's 0.32 ms passed check.
Sentences and figures of our own; each direction worked out by hand."""

from __future__ import annotations

import pytest

from .test_colon_comparisons import WRONG, _sg103  # one wording and one reader for both forms of a pair


@pytest.mark.parametrize("sentence, phrase, a, b, wanted", [
    # fails before: no finding (a pair after a comma was not read)
    ("int4 is faster than bf16 at every batch, 7.31 ms against 6.05 ms.", "faster than", "7.31 ms", "6.05 ms",
     "smaller"),
    ("int4 is slower than bf16 at batch 8: 6.05 ms vs 7.31 ms.", "slower than", "6.05 ms", "7.31 ms", "larger"),
    ("int4 is faster than bf16 at batch 8, 7.31 ms versus 6.05 ms, so we keep it.", "faster than", "7.31 ms",
     "6.05 ms", "smaller"),
    # a rate: faster is the larger figure
    ("The int4 engine is faster than bf16, 1180 tokens/s against 1315 tokens/s.", "faster than", "1180 tokens/s",
     "1315 tokens/s", "larger"),
    ("int4 uses less memory than bf16, 9.6 GB against 8.2 GB.", "less memory than", "9.6 GB", "8.2 GB", "smaller"),
    # a place phrase after the second figure alone is both figures'
    ("int4 is faster than bf16, 7.31 ms compared with 6.05 ms at 512 tokens; it ships.", "faster than", "7.31 ms",
     "6.05 ms", "smaller"),
])
def test_a_pair_after_the_clause_that_goes_the_other_way_is_reported(sentence, phrase, a, b, wanted):
    assert _sg103(sentence) == [(3, WRONG.format(phrase=phrase, a=a, b=b, wanted=wanted))]


def test_each_pair_joined_by_and_is_read():
    # the first pair agrees (4.12 < 4.87), the second does not (6.05 > 5.93)
    sentence = "int4 is faster than bf16 at both sizes, 4.12 ms against 4.87 ms at 256 and 6.05 ms against 5.93 ms at 512."
    assert _sg103(sentence) == [(3, WRONG.format(phrase="faster than", a="6.05 ms", b="5.93 ms", wanted="smaller"))]


@pytest.mark.parametrize("sentence", [
    "int4 is faster than bf16 at every batch, 6.05 ms against 7.31 ms.",  # the figures agree
    "int4 is slower than bf16 at batch 8: 7.31 ms vs 6.05 ms, so we ship bf16.",
    "int4 is faster than bf16, 1315 tokens/s against 1180 tokens/s.",
    "int4 is faster than bf16, while fp8 takes 7.31 ms against 6.05 ms for fp16.",  # the pair is another clause's
    "int4 is faster than bf16; 7.31 ms against 6.05 ms is what fp8 gives.",
    "int4 is faster than bf16, 7.31 ms against 6.05 ms being the fp8 figures.",  # the pair goes on past its figures
    "int4 is faster than bf16, 7.31 ms and 6.05 ms.",  # "and" lists, it does not compare
    "int4 is not faster than bf16, 7.31 ms against 6.05 ms.",  # denied
    "int4 was expected to be faster than bf16, 7.31 ms against 6.05 ms.",  # hedged: what was hoped, disproved
    "int4 should be faster than bf16 at batch 8, 7.31 ms against 6.05 ms.",
    "int4 is more accurate than bf16, 7.31 ms against 6.05 ms.",  # another quantity than the figures
    # place phrases that say whose each is, here the reference's first
    "int4 is faster than bf16 at batch 8, 7.31 ms on bf16 against 6.05 ms on int4.",
])
def test_a_pair_in_order_or_not_the_comparisons_is_quiet(sentence):
    assert _sg103(sentence) == []
