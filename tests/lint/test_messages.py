"""Figures that lint recomputes are printed by studygen.numbers.format_number,
the formatter render prints README figures with."""

from __future__ import annotations

from studygen.lint import lint_text


def test_recomputed_ratio_rounds_a_tie_half_up_as_render_does():
    # 1.0 / 8.0 is exactly 0.125: half up gives 0.13 (the reader's rounding and render's);
    # float formatting would print 0.12 (round half to even on the binary value)
    (finding,) = lint_text("FP8 takes 1.0 ms against 8.0 ms for fp16, a 0.10x ratio.\n", "x.md")
    assert (finding.code, finding.line) == ("SG103", 1)
    # within the printed digits 0.95 / 8.05 = 0.118 to 1.05 / 7.95 = 0.132, and 7.95 / 1.05 = 7.571 to 8.05 / 0.95 = 8.474
    assert finding.message == ("0.10x does not follow from 1.0 and 8.0 ms: 1.0 / 8.0 = 0.13x (0.118x to 0.132x within the "
                               "printed digits) or 8.0 / 1.0 = 8.00x (7.571x to 8.474x within the printed digits)")


def test_a_bound_in_prose_is_checked_for_its_direction_only():
    # 12.0 / 4.0 = 3.0x; with the printed digits at most 12.05 / 3.95 = 3.05x
    def sg103(text):
        return [f.message for f in lint_text(text + "\n", "x.md") if f.code == "SG103"]

    assert sg103("Compiled, it runs at least 3.05x faster (12.0 vs 4.0 ms).") == []
    assert sg103("Compiled, it runs at least 2.5x faster (12.0 vs 4.0 ms).") == []
    # 11.95 / 4.05 = 2.95 to 12.05 / 3.95 = 3.05; 3.95 / 12.05 = 0.33 to 4.05 / 11.95 = 0.34
    both = ("12.0 / 4.0 = 3.0x (2.95x to 3.05x within the printed digits) "
            "or 4.0 / 12.0 = 0.33x (0.33x to 0.34x within the printed digits)")
    assert sg103("Compiled, it runs at least 3.5x faster (12.0 vs 4.0 ms).") == [f"3.5x does not follow from 12.0 and 4.0 ms: {both}"]
    assert sg103("Compiled, it runs 2.5x faster (12.0 vs 4.0 ms).") == [f"2.5x does not follow from 12.0 and 4.0 ms: {both}"]


def test_a_percentage_in_prose_is_shown_against_its_first_formula_both_ways():
    (finding,) = lint_text("With FP8, COCO AP drops from 0.4644 to 0.4625 (-2.0%), a small loss.\n", "x.md")
    # (0.4644 - 0.4625) / 0.4644 = 0.41%, (0.4625 - 0.4644) / 0.4625 = -0.41%
    # within the printed digits (0.46435 - 0.46255) / 0.46435 = 0.39% to (0.46445 - 0.46245) / 0.46445 = 0.43%
    assert finding.message == ("-2.0% does not follow from 0.4644 and AP 0.4625: (0.4644 - 0.4625) / 0.4644 = 0.4% "
                               "(0.39% to 0.43% within the printed digits) "
                               "or (0.4625 - 0.4644) / 0.4625 = -0.4% (-0.43% to -0.39% within the printed digits)")
