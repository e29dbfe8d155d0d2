"""SG103's prose ratios between two named rows (studygen.lint.prose_rows) on
small tables of our own: a table of one measured column named by the
sentence, the whole message with both recomputed readings, and a
parenthesis of operands left open. Figures recomputed by hand."""

from __future__ import annotations

from studygen.lint import lint_text


def _sg103(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


_PLANS = "# Plans\n\n| recipe | engine size MiB |\n|---|---|\n| fp16 | 80 |\n| int8 | 50 |\n\n"
_SPEED = "# Speed\n\n| recipe | latency ms |\n|---|---|\n| fp16 | 4.20 |\n| fp32 | 9.00 |\n\n"


def test_the_only_measured_column_is_read_when_the_clause_names_it_without_speed_words():
    # (80 - 50) / 80 = 37.5 %: "38%" fits, "25%" fits no reading ("smaller" is no speed word)
    assert _sg103(_PLANS + "int8 has a 38% smaller engine size than fp16.\n") == []
    assert _sg103(_PLANS + "int8 has a 25% smaller engine size than fp16.\n") == [
        (8, "25% between row 'int8' and row 'fp16' does not follow from 'engine size MiB' of the table at line 3: "
            "(50 - 80) / 50 = -60% (-62.6% to -57.4% within the printed digits) "
            "or (80 - 50) / 80 = 38% (36.5% to 38.5% within the printed digits)")]  # (79.5 - 50.5) / 79.5, (80.5 - 49.5) / 80.5


def test_a_wrong_ratio_between_two_rows_prints_both_orders():
    # 9.00 / 4.20 = 2.14: 2.1x fits, 3.1x does not
    assert _sg103(_SPEED + "fp16 is 2.1x faster than fp32.\n") == []
    assert _sg103(_SPEED + "fp16 is 3.1x faster than fp32.\n") == [
        (8, "3.1x between row 'fp16' and row 'fp32' does not follow from 'latency ms' of the table at line 3: "
            "4.20 / 9.00 = 0.5x or 9.00 / 4.20 = 2.14x (2.14x to 2.15x within the printed digits)")]  # 8.995 / 4.205, 9.005 / 4.195


def test_an_unclosed_parenthesis_of_operands_runs_to_the_sentence_end():
    # the figures in "(4.20 ms vs 9.00 ms." are the operands: only the pair reading is reported, not the rows'
    assert _sg103(_SPEED + "fp16 is 3.1x faster than fp32 (4.20 ms vs 9.00 ms. All runs at batch 1.\n") == [
        (8, "3.1x does not follow from 4.20 and 9.00 ms: 4.20 / 9.00 = 0.5x or 9.00 / 4.20 = 2.14x "
            "(2.14x to 2.15x within the printed digits)")]
    # a parenthesis without figures leaves the row reading in place
    assert [line for line, _ in _sg103(_SPEED + "fp16 is 3.1x faster than fp32 (all runs.\n")] == [8]


def test_the_batch_a_clause_speaks_at_is_no_operand():
    # 9.00 / 4.20 = 2.14: "at batch 1", "bs=8", "a batch size of 16" are settings, so the ratio is read
    for setting in ("at batch 1", "with bs=8", "at a batch size of 16", "at batch-size 4"):
        assert _sg103(_SPEED + f"fp16 is 3.1x faster than fp32 {setting}.\n") == [
            (8, "3.1x between row 'fp16' and row 'fp32' does not follow from 'latency ms' of the table at line 3: "
                "4.20 / 9.00 = 0.5x or 9.00 / 4.20 = 2.14x (2.14x to 2.15x within the printed digits)")], setting
        assert _sg103(_SPEED + f"fp16 is 2.1x faster than fp32 {setting}.\n") == [], setting
