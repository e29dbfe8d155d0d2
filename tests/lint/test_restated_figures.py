"""A figure restated in another unit in the parenthesis right after it
("8.20 ms (122.0 FPS)") is one measurement: a ratio between two such
measurements and "than" is read over the pair of the unit its own word
names ("+22% FPS"), else over the pair printed first, else over the
quantity its words name ("lower latency"). And frames per second ("FPS",
"fps", "frames/s") is a rate unit, higher being the better.

Figures worked out by hand: 1 - 8.20 / 10.00 = 18%; 122.0 / 100.0 - 1 =
22%; 10.00 / 8.20 - 1 = 22%; neither 25% nor 28% follows from either pair
(1 - 100.0 / 122.0 = 18%).
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.figures import RATE_UNITS, figures_of
from studygen.lint.operand_pairs import restated_groups


def _sg103(sentence: str) -> list[str]:
    return [f.message for f in lint_text(f"# Engine check\n\n{sentence}\n", "x.md") if f.code == "SG103"]


TUNED = ("The tuned engine ran at 8.20 ms ({fps_a} FPS), {latency} lower latency ({rate} FPS) than the stock "
         "engine at 10.00 ms (100.0 FPS).")


@pytest.mark.parametrize("text", ["57.5 FPS", "57.5 fps", "57.5 frames/s", "57.5 frames/sec"])
def test_frames_per_second_is_a_rate(text):
    ((figure),) = figures_of(text)
    assert (figure.value, figure.unit) == (57.5, "frames/s")
    assert "frames/s" in RATE_UNITS


def test_a_word_fps_without_a_number_is_no_figure():
    assert [f.text for f in figures_of("the FPS counter shows 30 frames")] == ["30"]


def test_a_figure_and_its_restatement_group_together():
    text = "ran at 8.20 ms (122.0 FPS), 18% lower latency (+22% FPS) than 10.00 ms (100.0 FPS)"
    groups = restated_groups(text, figures_of(text))
    assert [[f.text for f in g.figures] for g in groups] == [["8.20", "122.0"], ["18", "+22"], ["10.00", "100.0"]]
    assert groups[1].named == (None, "frames/s")


def test_a_count_or_a_ratio_in_the_parenthesis_is_no_restatement():
    text = "took 8.20 ms (3 runs) and 9.10 ms (1.11x)"
    assert [[f.text for f in g.figures] for g in restated_groups(text, figures_of(text))] == [
        ["8.20"], ["3"], ["9.10"], ["1.11"]]


def test_both_figures_that_follow_give_no_finding():
    assert _sg103(TUNED.format(fps_a="122.0", latency="18%", rate="+22%")) == []


def test_a_restated_percent_is_read_over_the_unit_its_word_names():
    (message,) = _sg103(TUNED.format(fps_a="122.0", latency="18%", rate="+25%"))
    assert message.startswith("+25% does not follow from 122.0 and 100.0 frames/s")


def test_the_first_percent_is_read_over_the_pair_printed_first():
    (message,) = _sg103(TUNED.format(fps_a="122.0", latency="28%", rate="+22%"))
    assert message.startswith("28% does not follow from 8.20 and 10.00 ms: (10.00 - 8.20) / 10.00 = 18%")


def test_an_unnamed_percent_between_restated_figures_takes_the_quantity_its_words_name():
    first_time = "The tuned engine ran at 8.20 ms (122.0 FPS), {} lower latency than the stock engine at 10.00 ms (100.0 FPS)."
    first_rate = "The tuned engine ran at 122.0 FPS (8.20 ms), {} lower latency than the stock engine at 100.0 FPS (10.00 ms)."
    for sentence in (first_time, first_rate):
        assert _sg103(sentence.format("18%")) == []  # the rates would read "lower" the wrong way: never taken
        (message,) = _sg103(sentence.format("25%"))
        assert message.startswith("25% does not follow from 8.20 and 10.00 ms")


def test_a_count_in_a_parenthesis_leaves_the_pair_as_it_was():
    sentence = "The tuned engine ran at 8.20 ms (3 runs), {} lower latency than the stock engine at 10.00 ms."
    assert _sg103(sentence.format("18%")) == []
    (message,) = _sg103(sentence.format("25%"))
    assert message.startswith("25% does not follow from 8.20 and 10.00 ms")
