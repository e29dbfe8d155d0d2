"""NearValues, the index SG212 and SG213 find the rows of a quoted figure by:
every value that prints as the quote (rounded or cut, :func:`matches`) must be
among those it gives, whatever the digits, the unit's factor or the sign, so
that reading through it reports what testing every row reported. The old
reading (every value tested) is the oracle."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from studygen.checks.prose_figures import NearValues, matches

FACTORS = (1.0, 1000.0, 0.001)


def _exact(values: list[float], text: str, factor: float) -> list[int]:
    return [index for index, value in enumerate(values) if matches(text, value * factor)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=40),
       st.integers(min_value=0, max_value=39), st.integers(min_value=0, max_value=6), st.sampled_from(FACTORS),
       st.sampled_from(("round", "cut", "next")))
def test_every_value_printing_as_the_quote_is_near_it(values, pick, decimals, factor, how):
    value = abs(values[pick % len(values)]) * factor
    text = {"round": f"{value:.{decimals}f}",
            "cut": f"{math.floor(value * 10 ** decimals) / 10 ** decimals:.{decimals}f}",
            "next": f"{value + 10 ** -decimals:.{decimals}f}"}[how]
    near = NearValues((value, index) for index, value in enumerate(values)).near(text, factor)
    assert set(_exact(values, text, factor)) <= set(near)
    assert near == sorted(set(near))


def test_the_edges_of_rounding_and_cutting():
    # to one decimal 0.15 rounds to 0.2 and cuts to 0.1, 0.1999 rounds to 0.2 and cuts to 0.1, 0.25 cuts to 0.2,
    # 0.05 rounds to 0.1; 2.0 and 0.3 are neither
    values = [0.15, 0.1999, 0.25, 0.05, 2.0, -0.15, 0.3]
    near = NearValues((value, index) for index, value in enumerate(values))
    assert _exact(values, "0.2", 1.0) == [0, 1, 2, 5] and {0, 1, 2, 5} <= set(near.near("0.2"))
    assert _exact(values, "0.1", 1.0) == [0, 1, 3, 5] and {0, 1, 3, 5} <= set(near.near("0.1"))
    assert 4 not in near.near("0.2") and 4 not in near.near("0.1")  # far values are left out
    # a figure in us of values in ms: 150 us is 0.15 ms
    assert _exact(values, "150", 1000.0) == [0, 5] and near.near("150", 1000.0) == [0, 5]


def test_several_values_of_one_item_and_what_is_no_plain_figure():
    near = NearValues([(0.7275, 0), (0.9, 0), (4.118, 1), (math.inf, 2)])
    assert near.near("0.90") == [0, 2]  # an item once; a value that is no finite float is always tested
    assert near.near("4.12") == [1, 2]
    assert near.near("1,234.5") == [0, 1, 2]  # not a figure float() reads: every item
    assert near.near("9" * 400) == [0, 1, 2]  # beyond a double: every item
    assert near.near("-0.90") == [2]  # a negative quote: no size is near, none matches either
    assert not matches("-0.90", 0.9)
