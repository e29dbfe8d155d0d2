"""Approximate figures read with a margin (studygen.lint.approximate).

"~2.3x", "about 3x", "roughly 40%" were skipped by SG103's ratio between two named rows and by SG101's
single-figure claims, so a grossly wrong estimate passed. They are now false only when every value the table
gives lies outside the printed interval divided and multiplied by 1.6. Figures of our own: a latency table whose
rows are 1.25x, 1.6x and 2x apart, and a speedup column whose largest row is 1.72x."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.approximate import MARGIN, far_from, widened
from studygen.lint.figures import figures_of
from studygen.lint.rounding import Interval

_ROWS = """# Latency

| Precision | Latency (ms) |
| --- | ---: |
| fp32 | 48.0 |
| fp16 | 24.0 |
| int8 | 19.2 |
| int4 | 30.0 |

"""


def _findings(document: str, code: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(document, "x.md") if f.code == code]


def test_the_margin_widens_the_printed_interval_both_ways():
    (figure,) = figures_of("2.3x")
    assert MARGIN == 1.6
    assert widened(figure) == pytest.approx(Interval(2.25 / 1.6, 2.35 * 1.6))
    assert far_from(figure, [Interval(1.30, 1.36)])  # 1.36 < 1.406
    assert not far_from(figure, [Interval(1.30, 1.41)])  # 1.41 reaches 2.25 / 1.6 = 1.40625
    assert not far_from(figure, [Interval(3.70, 3.80)])  # 3.70 < 2.35 * 1.6 = 3.76
    assert far_from(figure, [Interval(3.77, 3.90), Interval(0.25, 0.27)])
    assert not far_from(figure, [])  # nothing read, nothing false


@pytest.mark.parametrize("sentence, figure", [
    # fp32 / fp16 = 2.0x: 4.5x is 2.25 times off
    ("fp16 is ~4.5x faster than fp32 in latency.", "4.5x"),
    ("fp16 is about 4.5x faster than fp32 in latency.", "4.5x"),
    # int8 against fp16 is 1.25x either way round: "roughly 2.4x" lies outside 2.35 / 1.6 = 1.47
    ("int8 has roughly 2.4x lower latency than fp16.", "2.4x"),
    ("The latency of int4 is nearly 3x that of fp16.", "3x"),  # 30.0 / 24.0 = 1.25x
])
def test_a_far_approximate_row_ratio_is_reported(sentence, figure):
    found = _findings(_ROWS + sentence + "\n", "SG103")
    assert len(found) == 1
    line, message = found[0]
    assert line == 10
    assert message.startswith(f"approximate {figure} between ")
    assert "within 1.6 times of its printed digits" in message


@pytest.mark.parametrize("sentence", [
    "fp16 is ~2x faster than fp32 in latency.",  # 2.0x exactly
    "fp16 is about 3x faster than fp32 in latency.",  # 2.0x: 2.5 / 1.6 = 1.56 reaches it
    "int8 has roughly 1.5x lower latency than fp16.",  # 1.25x: 1.45 / 1.6 = 0.91
    "fp16 is ~3x faster than fp32 in latency.",
    "fp16 is over 6x faster than fp32 in latency.",
    "The new build is ~4.5x faster than the old one in latency.",  # no two rows named
])
def test_a_near_approximate_row_ratio_or_a_bound_is_not_reported(sentence):
    assert _findings(_ROWS + sentence + "\n", "SG103") == []


_SPEEDUPS = """# Kernels

| Kernel | Speedup |
| --- | ---: |
| gemm | 1.72x |
| softmax | 1.30x |
| layernorm | 1.08x |

"""


@pytest.mark.parametrize("sentence", [
    "Fusion gives a ~3x speedup on these kernels.",  # 2.5 / 1.6 = 1.5625: the 1.72x row reaches it
    "The fused kernels run about 2.7x faster.",  # 2.65 / 1.6 = 1.66
    "Fusion gives roughly a 2x speedup.",
])
def test_an_approximate_claim_within_the_margin_of_the_largest_row_is_not_reported(sentence):
    assert _findings(_SPEEDUPS + sentence + "\n", "SG101") == []


@pytest.mark.parametrize("sentence, claim", [
    ("Fusion gives a ~4x speedup on these kernels.", "~4x speedup"),  # 3.5 / 1.6 = 2.19 > 1.725
    ("The fused kernels run about 5x faster.", "about 5x faster"),
    ("With fusion every kernel is roughly 3.5x faster.", "roughly 3.5x faster"),  # 3.45 / 1.6 = 2.16
])
def test_an_approximate_claim_far_above_every_row_is_reported(sentence, claim):
    found = _findings(_SPEEDUPS + sentence + "\n", "SG101")
    assert len(found) == 1
    line, message = found[0]
    assert line == 9
    assert message.startswith(f"'{claim}' exceeds every row of 'Speedup' in the table at line 3 (3 rows, largest 1.72x)")
    assert message.endswith("an approximate figure is read within 1.6 times of its printed digits")


@pytest.mark.parametrize("sentence", [
    # the sentence prints the operands the estimate comes from: the inline pair check reads it
    "Throughput went from 210 to 830 tokens/s, a ~4x speedup.",
    "Fusion gives a ~4x speedup over the eager loop on 2 GPUs and 8 nodes.",
])
def test_an_approximate_claim_beside_its_own_operands_is_not_read(sentence):
    assert _findings(_SPEEDUPS + sentence + "\n", "SG101") == []


def test_the_row_ratio_finding_shows_both_orders_and_sits_on_the_figure_line():
    document = _ROWS + "Quantizing pays off.\nfp16 is ~4.5x faster than fp32 in latency.\n"
    assert _findings(document, "SG103") == [(11, (
        "approximate 4.5x between row 'fp16' and row 'fp32' is far from what 'Latency (ms)' of the table at line 3 "
        "gives: 24.0 / 48.0 = 0.50x or 48.0 / 24.0 = 2.00x (an approximate ratio is read within 1.6 times of its "
        "printed digits)"))]


def test_each_approximate_ratio_of_a_sentence_is_read_in_its_own_clause():
    # the first clause names int4 and fp32 too: a clause reaching the sentence's start or end names four rows
    document = _ROWS + ("The int4 row trails fp32. Then fp16 is ~4.5x faster than fp32 in latency, and int8 is ~2.4x faster "
                        "than fp16. The int4 row lags.\n")
    assert sorted(message.split(" is far")[0] for _, message in _findings(document, "SG103")) == [
        "approximate 2.4x between row 'int8' and row 'fp16'", "approximate 4.5x between row 'fp16' and row 'fp32'"]


_TWO_COLUMNS = """# Footprint

| Precision | Latency (ms) | Memory (GB) |
| --- | ---: | ---: |
| fp32 | 48.0 | 16.0 |
| fp16 | 24.0 | 8.0 |
| int2 | | 8.1 |

"""


def test_the_column_may_be_named_before_the_clause():
    # "In memory" names the column; 16.0 / 8.0 = 2.0x, so ~5x (4.5 / 1.6 = 2.81) is far
    (found,) = _findings(_TWO_COLUMNS + "In memory, fp32 takes ~5x the space of fp16.\n", "SG103")
    assert "'Memory (GB)' of the table at line 3 gives: 16.0 / 8.0 = 2.00x or 8.0 / 16.0 = 0.50x" in found[1]
    assert _findings(_TWO_COLUMNS + "In memory, fp32 takes ~2x the space of fp16.\n", "SG103") == []


def test_an_empty_cell_gives_no_reading():
    assert _findings(_TWO_COLUMNS + "int2 is ~9x faster than fp32 in latency.\n", "SG103") == []
    assert _findings(_TWO_COLUMNS + "fp32 is ~9x faster than int2 in latency.\n", "SG103") == []


def test_a_printed_ratio_column_gives_a_reading_too():
    table = ("| Precision | Latency (ms) | Speedup |\n| --- | ---: | ---: |\n| fp32 | 48.0 | 1.00x |\n"
             "| fp16 | 24.0 | 3.50x |\n\n")
    # latency gives 2.0x, far from ~5x (4.5 / 1.6 = 2.81); the printed 3.50x over 1.00x reaches it
    assert _findings(table + "fp16 is ~5x faster than fp32 in latency.\n", "SG103") == []
    assert len(_findings(table + "fp16 is ~7x faster than fp32 in latency.\n", "SG103")) == 1  # 6.5 / 1.6 = 4.06
    # a printed ratio cell left empty gives nothing: the latency rows alone make ~5x far
    blank = table.replace("| 3.50x |", "| |")
    assert len(_findings(blank + "fp16 is ~5x faster than fp32 in latency.\n", "SG103")) == 1


@pytest.mark.parametrize("sentence, found", [
    ("fp16 is ~4.5x or more faster than fp32 in latency.", 0),  # a floor after the figure
    ("fp16 runs ~4.5x faster than fp32 in latency combined.", 0),  # a sum, not a ratio
    ("fp16 is ~4.5x faster than fp32 in latency, with both combined on one card.", 1),  # the sum word is the next clause's
])
def test_words_after_an_approximate_ratio_that_make_it_no_ratio(sentence, found):
    assert len(_findings(_ROWS + sentence + "\n", "SG103")) == found


@pytest.mark.parametrize("sentence, claim", [
    ("Fusion is close to 4x faster.", "close to 4x faster"),
    ("Fusion is approx. 4x faster.", "approx. 4x faster"),
    ("Fusion is ≈4x faster.", "≈4x faster"),
])
def test_the_claim_quotes_its_word_of_approximation(sentence, claim):
    ((_, message),) = _findings(_SPEEDUPS + sentence + "\n", "SG101")
    assert message.startswith(f"'{claim}' exceeds every row")


def test_one_other_figure_does_not_stop_an_approximate_claim_and_a_plain_one_after_is_read():
    (found,) = _findings(_SPEEDUPS + "On 8 GPUs fusion gives a ~4x speedup.\n", "SG101")
    assert found[1].startswith("'~4x speedup' exceeds")
    found = _findings(_SPEEDUPS + "Throughput went from 210 to 830 tokens/s, a ~4x speedup, and the kernels run 5x faster.\n",
                      "SG101")
    assert [message.split(" exceeds")[0] for _, message in found] == ["'5x faster'"]


def test_a_claim_after_a_bound_in_the_same_sentence_is_still_read():
    found = _findings(_SPEEDUPS + "Each kernel is at most 1.5x faster alone, and about 4x faster when fused.\n", "SG101")
    assert [message.split(" exceeds")[0] for _, message in found] == ["'about 4x faster'"]


@pytest.mark.parametrize("sentence, found", [
    ("The patch makes decoding roughly 12% faster.", 1),  # 11.5 / 1.6 = 7.19 above the 4.8% row
    ("The patch makes decoding about 7% faster.", 0),  # 6.5 / 1.6 = 4.06 is reached
])
def test_an_approximate_percent_claim_is_read_with_the_same_margin(sentence, found):
    table = "| Model | decode |\n|---|---|\n| small | 3.1% faster |\n| large | 4.8% faster |\n\n"
    assert len(_findings(table + sentence + "\n", "SG101")) == found
