"""studygen.lint.derived: formulas over printed figures, their intervals, the
truncation allowance, and how a recomputed figure is printed; values worked
out by hand below each assertion."""

from __future__ import annotations

from studygen.lint import lint_text
from studygen.lint.derived import FORMULAS, fits, recomputed
from studygen.lint.figures import Figure


def fig(text: str, unit: str | None = None) -> Figure:
    decimals = len(text.split(".")[1]) if "." in text else 0
    return Figure(float(text), text, decimals, unit, 0, len(text))


def test_ratio_interval_is_undefined_only_when_the_denominator_may_be_zero():
    ratio = FORMULAS["ratio"][0]
    # 2.0 / 1.0: 1.0 stands for 0.95 to 1.05, which holds 1 but not 0
    low, high = ratio(fig("2.0"), fig("1.0"))
    assert (round(low, 4), round(high, 4)) == (round(1.95 / 1.05, 4), round(2.05 / 0.95, 4))
    assert ratio(fig("2.0"), fig("0.0")) is None


def test_percent_ratio_interval_scales_both_ends():
    low, high = FORMULAS["percent_ratio"][0](fig("50"), fig("200"))
    # 49.5 / 200.5 = 24.69%, 50.5 / 199.5 = 25.31%
    assert round(low, 2) == 24.69 and round(high, 2) == 25.31


def test_a_truncated_figure_fits_on_both_sides_of_zero():
    # 1.697 truncates to 1.69 (rounds to 1.70); -0.29x is no ratio, so use a difference: -0.297 cut to -0.29
    assert fits("ratio", fig("1.697"), fig("1.000"), fig("1.69", "x"))
    assert fits("difference", fig("0.403"), fig("0.700"), fig("-0.29"))
    assert not fits("difference", fig("0.403"), fig("0.700"), fig("-0.28"))
    # 0.520 / 1.000 (0.5195 to 0.5205) printed 0.4 is neither rounded nor truncated;
    # 0.500 / 1.000 may be 0.49925, which truncates to 0.4
    assert not fits("ratio", fig("0.520"), fig("1.000"), fig("0.4", "x"))
    assert fits("ratio", fig("0.500"), fig("1.000"), fig("0.4", "x"))


def test_small_integer_operands_count_by_their_value():
    # 1.72 over a batch size of 1: the interval of "1" (0.5 to 1.5) would fit 1.15 to 3.4; only 1.72 / 1 = 1.72 counts
    assert not fits("ratio", fig("1.72"), fig("1"), fig("2.5", "x"))
    assert fits("ratio", fig("1.72"), fig("1"), fig("1.7", "x"))
    # large integers keep their interval: 2650 / 1850 = 1.4324..., 2650.5 / 1849.5 = 1.4331 still prints 1.43
    assert fits("ratio", fig("2650"), fig("1850"), fig("1.43", "x"))
    # 1.0 / 3.0 = 0.333 misses 0.35 by value, but 1.05 / 2.95 = 0.356 reaches it: one decimal is not coarse
    assert fits("ratio", fig("1.0"), fig("3.0"), fig("0.35", "x"))
    # 0 is coarse: 0 - 5 = -5 by value only, which is not -3 (the interval -5.5 to -4.5 would not reach it either)
    assert not fits("difference", fig("0"), fig("5"), fig("-3"))
    assert fits("difference", fig("0"), fig("5"), fig("-5"))


def test_recomputed_prints_more_digits_when_the_derived_text_would_repeat():
    # 1.004 / 1.000 = 1.004: at two decimals "1.00" equals the printed figure, so a third digit is shown
    assert recomputed("ratio", fig("1.004"), fig("1.000"), fig("1.00", "x")) == "1.004 / 1.000 = 1.004x"
    assert recomputed("ratio", fig("3.0"), fig("2.0"), fig("1.4", "x")) == "3.0 / 2.0 = 1.5x"
    assert recomputed("ratio", fig("3.0"), fig("0.0"), fig("1.4", "x")) == "3.0 / 0.0 is undefined"
    assert recomputed("relative_first", fig("82.8"), fig("76.3"), fig("9.8", "%")) == "(82.8 - 76.3) / 82.8 = 7.9%"


def test_the_first_row_has_no_row_before():
    # each row's change against the row before: the first row prints none, so it is never read against the last row
    text = ("| step | req/s |\n|---|---|\n| base | 3.0 (+50%) |\n| + a | 6.0 (+100%) |\n"
            "| + b | 9.0 (+50%) |\n| + c | 12.0 (+33%) |\n")
    assert [f for f in lint_text(text, "x.md") if f.code == "SG103"] == []


def test_relative_intervals_at_both_ends():
    # relative_first(2.0, 1.0) = (1 - b / a) * 100 over b / a in 0.95 / 2.05 .. 1.05 / 1.95
    low, high = FORMULAS["relative_first"][0](fig("2.0"), fig("1.0"))
    assert (round(low, 3), round(high, 3)) == (round((1 - 1.05 / 1.95) * 100, 3), round((1 - 0.95 / 2.05) * 100, 3))
    # relative_second(2.0, 1.0) = (a / b - 1) * 100 over a / b in 1.95 / 1.05 .. 2.05 / 0.95
    low, high = FORMULAS["relative_second"][0](fig("2.0"), fig("1.0"))
    assert (round(low, 3), round(high, 3)) == (round((1.95 / 1.05 - 1) * 100, 3), round((2.05 / 0.95 - 1) * 100, 3))
    assert FORMULAS["relative_second"][0](fig("2.0"), fig("0.0")) is None
    assert FORMULAS["relative_first"][0](fig("0.0"), fig("2.0")) is None


def test_a_relative_difference_against_a_zero_first_figure_is_undefined():
    # (a - b) / a with a = 0.0: no value, and 0.0 stands for -0.05 to 0.05, which holds 0
    assert fits("relative_first", fig("0.0"), fig("1.0"), fig("50", "%")) is None


def test_recomputed_adds_digits_until_it_differs_from_the_printed_figure():
    # 2.10 / 2.00 = 1.05 prints as the figure itself at two decimals, so a third is shown
    assert recomputed("ratio", fig("2.10"), fig("2.00"), fig("1.05", "x")) == "2.10 / 2.00 = 1.050x"


def test_a_percentage_of_the_reference_after_it_is_read_as_its_share():
    # "a, N% of the X's b": the share a / b, a form SG103 read no operands of (a new user's trial, session 26):
    # 0.3072 / 10.69 = 2.87 %, so 3% holds and 9% does not
    wrong = lint_text("The H100 step is 0.3072 ms, 9% of the A100's 10.69 ms.\n", "x.md")
    assert [(f.code, f.message.split(":")[0]) for f in wrong] == [("SG103", "9% does not follow from 0.3072 and 10.69 ms")]
    assert lint_text("The H100 step is 0.3072 ms, about 3% of the A100's 10.69 ms.\n", "x.md") == []
    # "of" before a figure of another kind, or a multiple after "of", is no such share
    assert lint_text("The H100 step is 0.3072 ms, 9% of the 12 images.\n", "x.md") == []
