"""SG103: percent reductions and increases worded with a quantity noun
("25% less time", "10% less disk") between two named rows, and ones whose
before and after figures follow in the sentence without "from" ("cuts the
step time by 25% (8.40 ms to 7.14 ms)", "saves 25% of", "grows by").
Documents of our own: compiled against eager is (8.40 - 7.14) / 8.40 = 15.0%
less time (17.6% speed gained) and (512 - 498) / 512 = 2.7% less disk."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text, parse_document
from studygen.lint.prose_changes import changes_of

TABLE = (
    "## Steps\n\n| Backend | p50 per step (ms) | Checkpoint size (MB) |\n|---|---:|---:|\n"
    "| eager | 8.40 | 512 |\n| compiled | 7.14 | 498 |\n\nSome words between.\n\n"
)


def _sg103(paragraph: str) -> list[str]:
    return [f.message for f in lint_text(TABLE + paragraph + "\n", "t.md") if f.code == "SG103" and f.line == 10]


SIZE_PAIR = "(498 - 512) / 498 = -2.8% (-3.0% to -2.6% within the printed digits) or (512 - 498) / 512 = 2.7% " \
            "(2.5% to 2.9% within the printed digits)"


@pytest.mark.parametrize("paragraph, column, computed", [
    ("compiled takes 25% less time than eager.", "p50 per step (ms)",
     "(7.14 - 8.40) / 7.14 = -17.6% (-17.8% to -17.5% within the printed digits) or (8.40 - 7.14) / 8.40 = 15% "
     "(14.9% to 15.1% within the printed digits)"),
    ("compiled needs 10% less disk than eager.", "Checkpoint size (MB)", SIZE_PAIR),
])
def test_a_quantity_noun_picks_the_column_of_its_kind(paragraph, column, computed):
    figure = paragraph.split()[2]
    assert _sg103(paragraph) == [f"{figure} between row 'compiled' and row 'eager' does not follow from '{column}' "
                                 f"of the table at line 3: {computed}"]


# the words give the change's direction: only its formula is shown (and may fit), the larger figure first
TIME_SAVED = "(8.40 - 7.14) / 8.40 = 15% (14.9% to 15.1% within the printed digits)"


@pytest.mark.parametrize("paragraph, expected", [
    ("Compiling cuts the step time by 25% (8.40 ms to 7.14 ms).", "25% does not follow from 8.40 and 7.14 ms: " + TIME_SAVED),
    ("Compiling saves 25% of the step time (8.40 ms to 7.14 ms).", "25% does not follow from 8.40 and 7.14 ms: " + TIME_SAVED),
    ("Compiling shaves 25% off the step (8.40 ms to 7.14 ms).", "25% does not follow from 8.40 and 7.14 ms: " + TIME_SAVED),
    # 18% is the speed gained (8.40 / 7.14 - 1 = 17.6%), not the time a saving saves
    ("Compiling saves 18% of the step time (8.40 ms to 7.14 ms).", "18% does not follow from 8.40 and 7.14 ms: " + TIME_SAVED),
    ("The checkpoint grows by 9% (498 MB to 512 MB).",
     "9% does not follow from 498 and 512 MB: (512 - 498) / 498 = 2.8% (2.6% to 3.0% within the printed digits)"),
    ("eager is 25% slower than compiled (7.14 ms to 8.40 ms).",       # slower on a time: low to high, either reading
     "25% does not follow from 7.14 and 8.40 ms: " + TIME_SAVED + " or (8.40 - 7.14) / 7.14 = 17.6% "
     "(17.5% to 17.8% within the printed digits)"),
])
def test_figures_printed_in_the_direction_of_the_change_are_its_operands(paragraph, expected):
    assert _sg103(paragraph) == [expected]


@pytest.mark.parametrize("paragraph", [
    "compiled takes 15% less time than eager.",                           # (8.40 - 7.14) / 8.40 = 15.0%
    "compiled needs 2.7% less disk than eager.",
    "Compiling cuts the step time by 15% (8.40 ms to 7.14 ms).",
    "Compiling saves 15% of the step time (8.40 ms to 7.14 ms).",
    "The checkpoint grows by 2.8% (498 MB to 512 MB).",
    "The checkpoint grows by 9% (512 MB to 498 MB).",                     # printed against the change: no before/after
    "compiled is 25% faster than eager (7.14 to 8.40 ms).",               # low to high: a range of values, not a change
    "Compiling cuts the step time by 25%, and the steps span 7.14 to 8.40 ms.",  # a new clause
    "Compiling takes 25% less time on 2 to 4 GPUs.",
    "Compiling cuts the step time by 25%; eager went 8.40 ms to 7.14 ms.",  # the pair stands in another clause
    "Compiling cuts the step time by 15%; the log shows 2.0x (8.40 ms to 7.14 ms).",  # no change word by the 2.0x
])
def test_near_misses_stay_silent(paragraph):
    assert _sg103(paragraph) == []


def test_verbs_of_saving_and_growing_state_a_change():
    document = parse_document("Intro.\n\nIt saves about 12% here. It rose by 3% there. It has 12% there.\n", "t.md")
    found = [(c.figure.text, c.sense, c.hedge) for s in document.prose[-1].sentences for c in changes_of(s)]
    assert found == [("12", "decrease", "about"), ("3", "increase", "")]


def test_a_quantity_noun_picks_no_column_when_the_table_has_two_of_its_kind():
    table = ("## Steps\n\n| Backend | p50 per step (ms) | p99 per step (ms) |\n|---|---:|---:|\n"
             "| eager | 8.40 | 9.90 |\n| compiled | 7.14 | 9.80 |\n\nSome words.\n\n")
    found = lint_text(table + "compiled takes 25% less time than eager.\n", "t.md")
    assert [f for f in found if f.code == "SG103"] == []


# ---- a change named by a noun alone, after a comparison (trial s21) ---------------------------------------------

VARIANTS = ("| GPU | fp32 (ms) | fp16 (ms) | fp32 (img/s) | fp16 (img/s) |\n|---|---:|---:|---:|---:|\n"
            "| L4 | 0.0440 | 0.0310 | 2270 | 3220 |\n\n")


def _variant_sg103(sentence: str) -> list[str]:
    return [f.message for f in lint_text(VARIANTS + sentence + "\n", "t.md") if f.code == "SG103"]


def test_a_reduction_set_after_a_speedup_is_of_the_time_the_speedup_compares():
    # 0.0440 / 0.0310 = 1.42x; the time saved is (0.0440 - 0.0310) / 0.0440 = 29.5 %, the speed gained 41.9 %
    (message,) = _variant_sg103("On the L4 fp16 is 1.42x faster than fp32, a 40% reduction.")
    assert message.startswith("'40% reduction' does not follow from the table at line 1: ('fp32 (ms)' - 'fp16 (ms)') "
                              "/ 'fp32 (ms)' gives L4 29.5% (1 row)")


@pytest.mark.parametrize("sentence", [
    "On the L4 fp16 is 1.42x faster than fp32, a 29.5% reduction.",  # the time saved, as the table gives it
    "On the L4 fp16 is 1.42x faster than fp32, a 42% gain.",  # the speed gained
    "On the L4 fp16 is 1.42x faster than fp32, a 40% reduction in power.",  # another quantity, in no column
    "On the L4 fp16 is 1.42x faster than fp32. A 40% reduction.",  # no comparison in its sentence
])
def test_a_noun_change_that_fits_or_is_of_something_else_passes(sentence):
    assert _variant_sg103(sentence) == []
