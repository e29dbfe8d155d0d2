"""SG103 percent changes and ratios beside the two figures their sentence
prints, read the way the sentence's words say (studygen.lint.sg103_derived_figures,
prose_changes.change_formulas, prose_tables). A decrease is
(before - after) / before, an increase (after - before) / before; words of no
direction accept either. A ratio whose sentence prints its figures in ms is not
read against a column of img/s. Figures of our own, worked by hand:
2.40 and 1.80 ms: (2.40 - 1.80) / 2.40 = 25.0% saved, (2.40 - 1.80) / 1.80 = 33.3% added;
2.60 and 2.00 ms: 2.60 / 2.00 = 1.30x; 600 and 400 img/s: 1.50x."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text


def _sg103(body: str):
    return [(f.line, f.message) for f in lint_text(f"# Notes\n\n{body}\n", "x.md") if f.code == "SG103"]


_SAVED = "(2.40 - 1.80) / 2.40 = 25.0%"
_ADDED = "(2.40 - 1.80) / 1.80 = 33.3%"


@pytest.mark.parametrize("sentence, recomputed", [
    # 33.3% is the rise from 1.80 to 2.40, not the cut from 2.40 to 1.80
    ("int8 cuts latency by 33.3% (2.40 ms for fp16 against 1.80 ms for int8).", _SAVED),
    ("int8 cuts latency by 33.3% (2.40 ms against 1.80 ms).", _SAVED),
    ("int8 reduces latency by 33.3%, from 2.40 ms to 1.80 ms.", _SAVED),
    ("int8 lowers latency by 33.3% (from 2.40 ms to 1.80 ms).", _SAVED),
    # "drops ... by" is read by ratio_direction's words, not by prose_changes'
    ("Latency drops by 33.3% with int8 (2.40 ms vs 1.80 ms).", _SAVED),
    ("fp16 raises latency by 25.0% (1.80 ms for int8 against 2.40 ms for fp16).", _ADDED),
    ("Latency grows by 25.0% without int8, from 1.80 ms to 2.40 ms.", _ADDED),
])
def test_a_change_beside_its_figures_follows_the_way_its_words_go(sentence, recomputed):
    ((line, message),) = _sg103(sentence)
    stated = "33.3%" if recomputed == _SAVED else "25.0%"
    first, second = ("2.40", "1.80") if "2.40 ms" in sentence.split("1.80")[0] else ("1.80", "2.40")
    # only the formula of the stated direction is shown, the larger figure first
    assert line == 3 and message.startswith(f"{stated} does not follow from {first} and {second} ms: {recomputed} (")
    assert " or " not in message


@pytest.mark.parametrize("sentence", [
    "int8 cuts latency by 25.0% (2.40 ms for fp16 against 1.80 ms for int8).",
    "int8 reduces latency by 25.0%, from 2.40 ms to 1.80 ms.",
    "fp16 raises latency by 33.3% (1.80 ms for int8 against 2.40 ms for fp16).",
    # the attack's figures, with the cut they give
    "int8 cuts latency by 35.5% (1.398 ms for fp16 against 0.9012 ms for int8).",
    # "faster" is either the time saved or the speed gained
    "int8 is 25.0% faster (2.40 ms vs 1.80 ms).",
    "int8 is 33.3% faster (2.40 ms vs 1.80 ms).",
    # a part of its whole keeps its share reading: saving 3.10 of 4.00 ms cuts it by 3.10 / 4.00 = 77.5%
    "Fusing saves 3.10 of 4.00 ms, cutting the time by 77.5%.",
    # no direction word: either base fits
    "The two runs differ by 33.3% (2.40 ms against 1.80 ms).",
    "The two runs differ by 25.0% (2.40 ms against 1.80 ms).",
])
def test_a_change_its_figures_give_or_one_of_no_direction_stays_quiet(sentence):
    assert _sg103(sentence) == []


_LATENCY = "| GPU | fp16 (ms) | int8 (ms) |\n| --- | --- | --- |\n| T4 | 2.40 | 1.80 |\n\n"


@pytest.mark.parametrize("sentence", [
    "On the T4, int8 cuts latency by 33.3% (2.40 ms against 1.80 ms).",
    # a place phrase after each figure: the table reader cannot tie the clause, the sentence's own reading can
    "On the T4, int8 cuts latency by 33.3% (2.40 ms for fp16 against 1.80 ms for int8).",
])
def test_a_change_its_printed_cells_refute_is_reported_once_by_its_own_figures(sentence):
    assert _sg103(_LATENCY + sentence) == [
        (7, "33.3% does not follow from 2.40 and 1.80 ms: (2.40 - 1.80) / 2.40 = 25.0% "
            "(24.63% to 25.36% within the printed digits)")]


def test_a_change_whose_printed_figures_are_not_the_cells_is_reported_against_both():
    # (2.50 - 1.80) / 2.50 = 28.0% from the sentence; 25.0% from the table's cells: two faults
    found = _sg103(_LATENCY + "On the T4, int8 cuts latency by 33.3% (2.50 ms against 1.80 ms).")
    assert sorted(message.split(":")[0] for _, message in found) == [
        "'cuts latency by 33.3%' does not follow from the table at line 3", "33.3% does not follow from 2.50 and 1.80 ms"]


_TIMES = "| GPU | fp16 (ms) | int8 (ms) |\n| --- | --- | --- |\n| A100 | 2.60 | 2.00 |\n\n"
_RATES = "| GPU | fp16 (img/s) | int8 (img/s) |\n| --- | --- | --- |\n| A100 | 400 | 600 |\n\n"


def test_a_ratio_printed_with_ms_figures_is_not_read_against_an_img_per_s_table():
    # right against its own figures (2.60 / 2.00); the rate table's 1.50x is another quantity
    assert _sg103(_RATES + "On the A100, int8 is 1.30x faster than fp16 with 2.00 ms against 2.60 ms.") == []


def test_a_ratio_its_figures_refute_is_not_repeated_against_another_unit_s_table():
    found = _sg103(_TIMES + _RATES + "On the A100, int8 is 1.45x faster than fp16 with 2.00 ms against 2.60 ms.")
    assert [(line, message.split(":")[0]) for line, message in found] == [
        (11, "1.45x does not follow from 2.00 and 2.60 ms")]


def test_a_ratio_printed_in_us_is_still_read_against_a_table_in_ms():
    # both are times: the table's 2.60 / 2.00 = 1.30x is read, and differs from the sentence's 2500 / 2000 = 1.25x
    found = _sg103(_TIMES + "On the A100, int8 is 1.45x faster than fp16 with 2000 us against 2500 us.")
    assert [message.split(":")[0] for _, message in found] == [
        "1.45x does not follow from 2000 and 2500 us", "1.45x vs fp16 does not follow from the table at line 3"]
