"""studygen.terminal_width: the width wcwidth.wcswidth gives a text, without
importing wcwidth for a text whose width is its length (the argument is in
the module's docstring; here wcwidth itself is asked)."""

from __future__ import annotations

import string

import pytest
import wcwidth
from hypothesis import example, given, settings
from hypothesis import strategies as st

from studygen.terminal_width import NARROW_SYMBOLS, length_width, terminal_width

PRINTABLE_ASCII = "".join(chr(code) for code in range(0x20, 0x7F))


def test_each_narrow_symbol_is_one_column_and_in_no_sequence_of_wcswidth():
    assert len(set(NARROW_SYMBOLS)) == len(NARROW_SYMBOLS) == 94 + 24 + 25 + 24 + 10 + 9  # Latin-1, Greek capitals and small, punctuation, arrows, signs
    for char in NARROW_SYMBOLS:
        assert ord(char) <= 0xFFFF and char not in "\u200d\ufe0f" and char.isprintable(), hex(ord(char))
        assert wcwidth.wcwidth(char) == 1, hex(ord(char))
    assert not set(NARROW_SYMBOLS) & set(string.printable)  # ASCII is measured on its own path
    assert {"—", "–", "…", "±", "×", "µ", "Δ", "→", "≤", "≥", "−", "✓"} <= set(NARROW_SYMBOLS)
    assert not {"\u00a0", "\u00ad", "\u2028", "\u200b", "界", "😀"} & set(NARROW_SYMBOLS)


@settings(max_examples=1000, deadline=None)
@given(st.text(st.sampled_from(PRINTABLE_ASCII + NARROW_SYMBOLS), max_size=40))
@example("pointwise kernel 2 of 8: triton_poi_fused_addmm_bitwise_not_grid_sampler\\_…")
@example("—")
@example("0.38x to 0.43x — ±1.2 µs")
def test_text_of_printable_ascii_and_narrow_symbols_is_as_wide_as_it_is_long(text):
    assert length_width(text) == len(text) == wcwidth.wcswidth(text) == terminal_width(text)


# Characters wcswidth measures otherwise or in sequences: wide, zero-width, joiners, selectors, combining and
# spacing marks, a virama conjunct, regional indicators, skin tones, controls, a soft hyphen, no-break space.
OTHERS = ["界", "ｱ", "😀", "👍🏽", "\u200d", "\ufe0f", "\u0301", "\u093e", "\u094d", "क", "\u200b", "\u2060", "\u00a0",
          "\u00ad", "🇯🇵", "\x07", "\x85", "\t", "\n", "\u2028", "\u03a2"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(OTHERS), st.sampled_from(NARROW_SYMBOLS), st.text(PRINTABLE_ASCII, max_size=3),
                          st.characters()), max_size=8).map("".join))
@example("—\ufe0f")
@example("1\ufe0f")
@example("\u094d—")
def test_any_text_is_as_wide_as_wcswidth_measures_it(text):
    assert terminal_width(text) == wcwidth.wcswidth(text)
    assert length_width(text) in (None, wcwidth.wcswidth(text))
    if any(char in OTHERS for char in text):
        assert length_width(text) is None


def test_wcwidth_measures_only_what_length_cannot(monkeypatch):
    monkeypatch.setattr(wcwidth, "wcswidth", lambda text: pytest.fail(f"wcswidth of {text!r}"))
    assert terminal_width("H100 — B200: ±1.2 µs…") == 21 and terminal_width("") == 0
    monkeypatch.setattr(wcwidth, "wcswidth", lambda text: -7)
    assert terminal_width("界") == terminal_width("a\x07") == -7  # asked of wcwidth (a stand-in here)
