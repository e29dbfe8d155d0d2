"""source_decimals (studygen/numbers.py): the digits after the point of a
figure as its source printed them. A text whose part after the point is
ASCII digits alone is counted without a Decimal; every text gives what
``Decimal(text)``'s exponent gave before (the oracle below is the earlier
code, written out here), a failure included."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings, strategies as st

from studygen import numbers
from studygen.numbers import SourceFloat, source_decimals


def decimal_oracle(text: str):
    """The earlier rule: the exponent of ``Decimal(text)``, negated, at least 0; None for a NaN or infinity."""
    exponent = Decimal(text).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else None


def outcome(function, text: str):
    try:
        return function(text)
    except Exception as exc:  # noqa: BLE001 - the kind of failure is part of what must not change
        return type(exc)


def test_plain_texts_are_counted_without_a_decimal(monkeypatch):
    made = []
    monkeypatch.setattr(numbers, "Decimal", lambda text: made.append(text) or Decimal(text))
    figures = {"5.850": 3, "44.50031": 5, "-0.0": 1, ".5": 1, "0.0361328000": 10, "1_000.25": 2}
    for text, decimals in figures.items():
        value = SourceFloat(text)
        assert source_decimals(value) == decimals
        assert source_decimals(value) == decimals  # asked again: the same
    assert made == []  # none built a Decimal (before: one for each)
    assert source_decimals(SourceFloat("1.5e-3")) == 4 and made == ["1.5e-3"]  # an exponent: Decimal reads it


# Texts a JSON reader or a hand may give: digits (ASCII and others), points, exponents, signs, blanks, underscores.
TEXT = st.text(alphabet="0123456789.eE+-_ \t\u0661\u00b2nafiNIty", min_size=1, max_size=12)


def float_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@settings(max_examples=1000, deadline=None)
@given(TEXT.filter(float_text))
def test_every_float_text_gives_what_decimal_gave(text):
    assert outcome(lambda t: source_decimals(SourceFloat(t)), text) == outcome(decimal_oracle, text)


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["{!r}", "{:.3f}", "{:.0f}", "{:e}", "{:.7g}"]))
def test_printed_floats_give_what_decimal_gave(value, pattern):
    text = pattern.format(value)
    assert source_decimals(SourceFloat(text)) == decimal_oracle(text)
