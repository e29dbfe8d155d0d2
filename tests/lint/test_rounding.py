"""studygen.lint.rounding: what a printed figure stands for, exact counts,
the one consistency rule (rounded or truncated) and how a finding states the
interval; every value below is worked out by hand next to its assertion."""

from __future__ import annotations

import pytest

from studygen.lint.columns import _cell_figures
from studygen.lint.derived import derivation, fits
from studygen.lint.figures import Figure, figures_of
from studygen.lint.rounding import (
    Interval, consistent, covers, gives, is_exact, printed_interval, quotient, stands_for, truncation_interval,
    verdict,
)


def fig(text: str, unit: str | None = None, exact: bool = False) -> Figure:
    decimals = len(text.split(".")[1]) if "." in text else 0
    return Figure(float(text), text, decimals, unit, 0, len(text), exact)


def close(interval, low, high):
    return interval.lo == pytest.approx(low) and interval.hi == pytest.approx(high)


def test_a_printed_figure_stands_for_the_values_that_print_as_it():
    assert close(stands_for(fig("0.97")), 0.965, 0.975)
    assert close(stands_for(fig("1040")), 1039.5, 1040.5)
    assert close(stands_for(fig("-2.5", "%")), -2.55, -2.45)


def test_small_whole_counts_without_a_unit_and_counted_shares_are_exact():
    # 0 to 4 without a unit: a batch size, a GPU count
    assert [is_exact(fig(t)) for t in ("0", "1", "4", "5", "4.0")] == [True, True, True, False, False]
    assert stands_for(fig("3")) == Interval(3.0, 3.0)
    # with a unit it is a rounded measurement: "3x" stands for 2.5 to 3.5, "2 ms" for 1.5 to 2.5
    assert not is_exact(fig("3", "x")) and close(stands_for(fig("3", "x")), 2.5, 3.5)
    assert close(stands_for(fig("2", "ms")), 1.5, 2.5)
    # a count share is exact at any size
    assert stands_for(fig("83", exact=True)) == Interval(83.0, 83.0)


def test_a_derived_or_printed_figure_is_always_read_as_rounded():
    # even a whole one that an input would read as exact
    assert close(printed_interval(fig("2")), 1.5, 2.5)
    assert verdict(Interval(2.4, 2.4), fig("2")) == "rounded"


def test_counted_shares_are_marked_in_prose_and_in_cells():
    first, second = figures_of("61/200 checks passed")
    assert first.exact and second.exact
    # spaces around the slash, decimals, or a first figure above the second: no count of a total
    assert not any(f.exact for f in figures_of("61 / 200 and 4.5/6.1 ms and 120/100"))
    (k, n), numeric = _cell_figures("26/100")
    assert numeric and k.exact and n.exact and (k.value, n.value) == (26.0, 100.0)
    (a, b), _ = _cell_figures("4.5/6.1")
    assert not a.exact and not b.exact
    (a, b), _ = _cell_figures("7/3")
    assert not a.exact  # 7 of 3 is no share


def test_consistent_means_rounded_or_truncated_and_nothing_else():
    # 70 / 30 with counts exact = 2.333: 2.3 rounds, 2.4 neither rounds nor cuts
    assert verdict(Interval(70 / 30, 70 / 30), fig("2.3", "x")) == "rounded"
    assert verdict(Interval(70 / 30, 70 / 30), fig("2.4", "x")) is None
    # read as rounded figures 69.5 / 30.5 to 70.5 / 29.5 = 2.279 to 2.390 meets 2.35 to 2.45: the 2.4 would fit
    assert verdict(quotient(stands_for(fig("70")), stands_for(fig("30"))), fig("2.4", "x")) == "rounded"
    # truncated: 1.697 cut to 1.69, -0.297 cut to -0.29
    assert verdict(Interval(1.697, 1.697), fig("1.69")) == "truncated"
    assert verdict(Interval(-0.297, -0.297), fig("-0.29")) == "truncated"
    assert consistent(Interval(1.697, 1.697), fig("1.69"))
    # the far end of the cut prints as the next figure: 1.700 is 1.70, not a cut 1.69
    assert verdict(Interval(1.70, 1.70), fig("1.69")) is None
    # off by more than the last digit: neither
    assert verdict(Interval(1.71, 1.72), fig("1.69")) is None
    assert close(truncation_interval(fig("1.69")), 1.69, 1.70)
    assert close(truncation_interval(fig("-0.29")), -0.30, -0.29)


def test_a_quotient_over_intervals_takes_the_extremes_and_refuses_a_denominator_that_may_be_zero():
    assert close(quotient(Interval(2.0, 3.0), Interval(4.0, 5.0)), 0.4, 0.75)
    assert close(quotient(Interval(-3.0, -2.0), Interval(4.0, 5.0)), -0.75, -0.4)
    assert quotient(Interval(1.0, 2.0), Interval(-0.5, 0.5)) is None
    assert quotient(Interval(1.0, 2.0), Interval(0.0, 0.5)) is None


def test_the_interval_is_stated_at_one_more_digit_unless_both_ends_print_alike():
    # 7.53 / 3.20: 7.525 / 3.205 = 2.3479 to 7.535 / 3.195 = 2.3584
    assert gives(quotient(stands_for(fig("7.53")), stands_for(fig("3.20"))), fig("2.24")) == \
        " (2.348 to 2.358 within the printed digits)"
    assert gives(Interval(2.0004, 2.0004), fig("2.5", "x")) == ""
    assert gives(Interval(1.0, 3.0), fig("4", "x")) == " (1.0x to 3.0x within the printed digits)"
    assert derivation("ratio", fig("83", exact=True), fig("48", exact=True), fig("1.8", "x")) == "83 / 48 = 1.7x"


def test_derived_fits_follow_the_one_rule():
    assert fits("ratio", fig("83", exact=True), fig("48", exact=True), fig("1.8", "x")) is False
    assert fits("ratio", fig("83"), fig("48"), fig("1.8", "x")) is True  # 83.5 / 47.5 = 1.758 reaches 1.75
    assert fits("ratio", fig("1.0"), fig("0.0"), fig("2.0", "x")) is None


def test_covers_widens_by_half_a_last_digit():
    assert covers(fig("0.19"), fig("0.21"), 0.2149) and not covers(fig("0.19"), fig("0.21"), 0.2151)
    assert covers(fig("0.19"), fig("0.21"), 0.1851) and not covers(fig("0.19"), fig("0.21"), 0.1849)


def test_intervals_that_touch_meet():
    assert Interval(1.0, 2.0).meets(Interval(0.0, 1.0)) and Interval(0.0, 1.0).meets(Interval(1.0, 2.0))
    assert not Interval(1.0, 2.0).meets(Interval(0.0, 0.999))


def test_a_value_half_way_between_two_printed_figures_rounds_to_either():
    # 2.25 - 2.2 is 0.04999999999999982 in floats, 2.45 - 2.4 is 0.05000000000000027: both half a last digit
    for value, below, above in ((2.25, "2.2", "2.3"), (2.45, "2.4", "2.5")):
        assert verdict(Interval(value, value), fig(below)) == verdict(Interval(value, value), fig(above)) == "rounded"
    # half a last digit and a little more is no longer either: 2.2 stands for 2.15 to 2.25 only
    assert verdict(Interval(2.2501, 2.2501), fig("2.2")) == "truncated"
    assert verdict(Interval(2.1499, 2.1499), fig("2.2")) is None


def test_the_far_end_of_a_cut_is_excluded_to_the_float_tolerance():
    # 1.69 cut covers 1.690 up to but not including 1.700; a value at 1.700 less the float tolerance is not a cut 1.69
    far_end = (1.69 + 2 * (0.5 * 10.0 ** -2)) - 1e-12
    assert verdict(Interval(far_end, far_end), fig("1.69")) is None
    assert verdict(Interval(far_end - 1e-9, far_end - 1e-9), fig("1.69")) == "truncated"
    # -0.29 cut covers -0.300 (excluded: cut towards zero it prints -0.30) up to -0.290 (included)
    far_end = -0.29 - 2 * (0.5 * 10.0 ** -2)
    assert verdict(Interval(far_end - 0.01, far_end), fig("-0.29")) is None
    assert verdict(Interval(far_end - 0.01, far_end + 1e-9), fig("-0.29")) == "truncated"
    assert verdict(Interval(-0.2899999999999, -0.2899999999999), fig("-0.29")) == "rounded"


def test_the_edges_are_held_to_the_float_tolerance():
    assert Interval(1.0 + 1e-12, 2.0).meets(Interval(0.0, 1.0))  # touching to within the tolerance
    assert covers(fig("0.19"), fig("0.21"), 0.21 + 0.005 + 1e-9)  # the high end itself, as covers computes it
