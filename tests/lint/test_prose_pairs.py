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
    assert line == 3 and message.startswith("5% does not follow from 2.673 and 2.621 ms: (2.673 - 2.621) / 2.673 = 2%")


def test_a_range_before_a_change_is_its_subject_s_spread_not_its_two_figures():
    # "(148-153 ms)" is lane B's spread; a change's before and after follow it ("by 12% (0.1536 to 0.1526 ms)")
    assert _sg103("Lane B at its best (148-153 ms, 4 threads) is 40% slower than lane A at 6 threads.") == []
    ((_, message),) = _sg103("Lane B at its best is 40% slower (148 to 153 ms).")
    assert message.startswith("40% does not follow from 148 and 153 ms")
