"""SG103 pairs a sentence states for a percentage beside them
(studygen.lint.sg103_derived_figures): a part and its whole ("5.363 of
10.692 ms, 50%") and two figures joined by "and" whose first carries its own
place ("2.673 ms in run two and 2.621 ms in run one, a 2% reduction").
Figures of our own; each percentage worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text


def _sg103(sentence: str):
    return [(f.line, f.message) for f in lint_text(f"# Notes\n\n{sentence}\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, message", [
    ("Convolution takes 5.363 of 10.692 ms, 60%.", "60% does not follow from 5.363 and 10.692 ms: 5.363 / 10.692 = 50%"),
    ("Convolution takes 5.363 ms out of the 10.692 ms total (40%).",
     "40% does not follow from 5.363 and 10.692 ms: 5.363 / 10.692 = 50%"),
    # 3.095 / 4.005 to 3.105 / 3.995 within the printed digits
    ("GEMMs take 3.10 of 4.00 ms, or 70.0%.",
     "70.0% does not follow from 3.10 and 4.00 ms: 3.10 / 4.00 = 77.5% (77.28% to 77.72% within the printed digits)"),
])
def test_a_share_of_its_whole_is_recomputed(sentence, message):
    assert _sg103(sentence) == [(3, message)]


@pytest.mark.parametrize("sentence", [
    "Convolution takes 5.363 of 10.692 ms, 50%.",
    "GEMMs take 3.10 of 4.00 ms, or 77.5%.",
    "In 2 of 3 runs fp8 was 40% faster.",  # counts, no measured whole
    "It took 3 s of a 10 ms budget (40%).",  # a part in another unit than its whole: not read
])
def test_a_share_that_fits_or_is_no_share_stays_quiet(sentence):
    assert _sg103(sentence) == []


def test_an_and_pair_whose_first_figure_names_its_place():
    stated = "Kernel time is 2.673 ms in run two and 2.621 ms in run one, a {}% reduction."
    assert _sg103(stated.format(2)) == []
    ((line, message),) = _sg103(stated.format(5))
    assert line == 3 and message.startswith("5% does not follow from 2.673 and 2.621 ms: (2.673 - 2.621) / 2.673 = 1.9%")


def test_a_range_before_a_change_is_its_subject_s_spread_not_its_two_figures():
    # "(148-153 ms)" is lane B's spread; a change's before and after follow it ("by 12% (0.1536 to 0.1526 ms)")
    assert _sg103("Lane B at its best (148-153 ms, 4 threads) is 40% slower than lane A at 6 threads.") == []
    ((_, message),) = _sg103("Lane B at its best is 40% slower (148 to 153 ms).")
    assert message.startswith("40% does not follow from 148 and 153 ms")


# Two figures compared in a parenthesis, each followed by where or what it was measured on (a new user's trial:
# "(0.2754 ms on the RTX 3080 against 1.398 ms on the RTX 3070)" passed a wrong 6.1x unread). Our own figures:
# 40.0 / 31.0 = 1.29x, (40.0 - 31.0) / 40.0 = 22.5%; 880 / 220 = 4.0x.
@pytest.mark.parametrize("sentence, message", [
    ("fp8 is 1.6x faster than bf16 (31.0 us on the L4 versus 40.0 us on the T4).",
     "1.6x does not follow from 31.0 and 40.0 us: 31.0 / 40.0 = 0.78x"),
    ("fp8 is 45% faster than bf16 (31.0 us on one card vs 40.0 us on another).",
     # "faster": the time saved or the speed gained, each shown with the larger figure first
     "45% does not follow from 31.0 and 40.0 us: (40.0 - 31.0) / 40.0 = 22.5% (22.3% to 22.7% within the printed "
     "digits) or (40.0 - 31.0) / 31.0 = 29%"),
    ("The fused kernel serves 3.0x more (880 tokens/s with graphs compared with 220 tokens/s without).",
     "3.0x does not follow from 880 and 220 tokens/s: 880 / 220 = 4.0x"),
    # "batch 16" names the first figure's place: 16 is no operand ("16 and 40.0 us" was read before)
    ("fp8 runs at 31.0 us for batch 16 against 40.0 us for bf16, a 1.6x speedup.",
     "1.6x does not follow from 31.0 and 40.0 us: 31.0 / 40.0 = 0.78x"),
])
def test_a_pair_whose_figures_name_their_place_is_still_the_pair(sentence, message):
    ((line, found),) = _sg103(sentence)
    assert line == 3 and found.startswith(message)


@pytest.mark.parametrize("sentence", [
    "fp8 is 1.3x faster than bf16 (31.0 us on the L4 versus 40.0 us on the T4).",
    "fp8 is 22.5% faster than bf16 (31.0 us on one card vs 40.0 us on another).",
    # a clause, or another figure, between the first figure and the connector: no pair is read
    "fp8 is 1.6x faster than bf16 (31.0 us, timed on the L4 with graphs, versus 40.0 us on the T4).",
    "fp8 is 1.6x faster than bf16 (31.0 us at 1.5 GHz versus 40.0 us at 1.1 GHz).",
])
def test_a_placed_pair_that_fits_or_is_no_pair_stays_quiet(sentence):
    assert _sg103(sentence) == []


_ONE_ROW = "| GPU | bf16 (us) | fp8 (us) |\n| --- | --- | --- |\n| T4 | 40.0 | 31.0 |\n\n"


def test_a_ratio_its_own_figures_and_its_table_refute_alike_is_reported_once():
    # the parenthesis prints the table's two cells: the table reader would say the same 1.29x again
    found = _sg103(_ONE_ROW + "fp8 is 1.6x faster than bf16 (31.0 us against 40.0 us).")
    assert [message.split(":")[0] for _, message in found] == ["1.6x does not follow from 31.0 and 40.0 us"]


def test_a_ratio_whose_printed_figures_are_not_its_table_s_is_reported_against_both():
    # 40.0 / 35.0 = 1.14x from the sentence, 40.0 / 31.0 = 1.29x from the table: two different faults to fix
    found = _sg103(_ONE_ROW + "fp8 is 1.6x faster than bf16 (35.0 us against 40.0 us).")
    assert [message.split(":")[0] for _, message in found] == [
        "1.6x does not follow from 35.0 and 40.0 us", "1.6x vs bf16 does not follow from the table at line 3"]


@pytest.mark.parametrize("sentence", [
    "Across the sweep, 95% of samples fall between 239.9 ns and 244.4 ns.",
    "Half the gap: 80% of runs landed between 3.10 s and 3.55 s.",
    "About 90% of the requests finished between 11.2 ms and 14.8 ms.",
    "Latency fell from 20.0 ms to 15.0 ms, 40% of samples faster.",
])
def test_a_percentage_of_a_population_is_no_change_between_the_figures_beside_it(sentence):
    # "95% of samples" counts samples: two latencies in ns cannot give it
    assert _sg103(sentence) == []


@pytest.mark.parametrize("sentence, message", [
    # no population after the percentage: the pair beside it is still read
    ("The tail moved from 239.9 ns to 244.4 ns, a 95% increase.",
     "95% does not follow from 239.9 and 244.4 ns: (244.4 - 239.9) / 239.9 = 1.9%"),
    # "of the time" names a whole, not items counted: the share is still read
    ("Decode takes 5.363 of 10.692 ms, 60% of the time.", "60% does not follow from 5.363 and 10.692 ms: 5.363 / 10.692 = 50%"),
])
def test_a_percentage_not_counting_items_is_still_recomputed(sentence, message):
    found = _sg103(sentence)
    assert len(found) == 1 and found[0][1].startswith(message)
