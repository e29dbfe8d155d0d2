"""Figures that lint recomputes are printed by studygen.numbers.format_number,
the formatter render prints README figures with."""

from __future__ import annotations

from studygen.lint import lint_text


def test_recomputed_ratio_rounds_a_tie_half_up_as_render_does():
    # 1.0 / 8.0 is exactly 0.125: half up gives 0.13 (the reader's rounding and render's);
    # float formatting would print 0.12 (round half to even on the binary value)
    (finding,) = lint_text("FP8 takes 1.0 ms against 8.0 ms for fp16, a 0.10x ratio.\n", "x.md")
    assert (finding.code, finding.line) == ("SG103", 1)
    assert finding.message == "0.10x does not follow from 1.0 and 8.0 ms: 1.0 / 8.0 = 0.13x or 8.0 / 1.0 = 8.00x"


def test_a_bound_in_prose_is_checked_for_its_direction_only():
    # 12.0 / 4.0 = 3.0x; with the printed digits at most 12.05 / 3.95 = 3.05x
    def sg103(text):
        return [f.message for f in lint_text(text + "\n", "x.md") if f.code == "SG103"]

    assert sg103("Compiled, it runs at least 3.05x faster (12.0 vs 4.0 ms).") == []
    assert sg103("Compiled, it runs at least 2.5x faster (12.0 vs 4.0 ms).") == []
    assert sg103("Compiled, it runs at least 3.5x faster (12.0 vs 4.0 ms).") == [
        "3.5x does not follow from 12.0 and 4.0 ms: 12.0 / 4.0 = 3.0x or 4.0 / 12.0 = 0.3x"]
    assert sg103("Compiled, it runs 2.5x faster (12.0 vs 4.0 ms).") == [
        "2.5x does not follow from 12.0 and 4.0 ms: 12.0 / 4.0 = 3.0x or 4.0 / 12.0 = 0.3x"]


def test_a_percentage_in_prose_is_shown_against_its_first_formula_both_ways():
    (finding,) = lint_text("With FP8, COCO AP drops from 0.4644 to 0.4625 (-2.0%), a small loss.\n", "x.md")
    # (0.4644 - 0.4625) / 0.4644 = 0.41%, (0.4625 - 0.4644) / 0.4625 = -0.41%
    assert finding.message == ("-2.0% does not follow from 0.4644 and AP 0.4625: (0.4644 - 0.4625) / 0.4644 = 0.4% "
                               "or (0.4625 - 0.4644) / 0.4625 = -0.4%")
