"""A percentage printed beside two AP figures that is their difference in points, not a percent change
("AP falls from 0.6311 to 0.5185, a 11.26% AP drop": 0.6311 - 0.5185 = 0.1126, 11.26 points) is still SG103,
as '%' says a percent of the first figure, but its message says what the figure is. Seen in a trial README:
"12.26% AP" between AP figures 12.26 points apart drew a message offering only the two percent changes.
Figures of our own: (0.6311 - 0.5185) / 0.6311 = 17.84%, (0.6311 - 0.5185) / 0.5185 = 21.72%."""

from __future__ import annotations

from studygen.lint import lint_text


def _sg103(sentence: str):
    return [f for f in lint_text(f"# Notes\n\n{sentence}\n", "x.md") if f.code == "SG103"]


def test_a_percentage_that_is_the_difference_in_points_says_so():
    # fails before: "11.26% does not follow from 0.6311 and AP 0.5185: (0.6311 - 0.5185) / 0.6311 = 17.84% (...)"
    (finding,) = _sg103("Quantizing costs accuracy: AP falls from 0.6311 to 0.5185, a 11.26% AP drop.")
    assert finding.message.startswith(
        "11.26% does not follow from 0.6311 and AP 0.5185 as a percent change: it is their difference in points "
        "(0.6311 - 0.5185 = 0.1126, 11.26 points), and as a percent change (0.6311 - 0.5185) / 0.6311 = 17.84%")
    assert finding.hint.startswith("write the difference in points ('11.26 points')")


def test_ap_printed_in_percent_points_reads_the_difference_unscaled():
    (finding,) = _sg103("Quantizing costs accuracy: AP falls from 63.11 to 51.85 AP, a 11.26% drop.")
    assert "it is their difference in points (63.11 - 51.85 = 11.26 points)" in finding.message


def test_a_percentage_that_is_no_difference_in_points_keeps_its_message():
    # 15.00 is neither a percent change nor the difference (11.26 points)
    (finding,) = _sg103("Quantizing costs accuracy: AP falls from 0.6311 to 0.5185, a 15.00% AP drop.")
    assert "difference in points" not in finding.message
    assert finding.message.startswith("15.00% does not follow from 0.6311 and AP 0.5185: (0.6311 - 0.5185) / 0.6311")
    # a right percent change stays quiet
    assert _sg103("Quantizing costs accuracy: AP falls from 0.6311 to 0.5185, a 17.84% AP drop.") == []


ROWS = """# Accuracy

| Precision | AP | Latency (ms) |
|---|---|---|
| fp16 | 0.6311 | 2.61 |
| int8 | 0.5185 | 1.98 |

{sentence}
"""


def test_a_percentage_between_two_rows_that_is_their_difference_in_points_says_so():
    # fails before: the message offered only -21.72% and 17.84%
    (finding,) = [f for f in lint_text(ROWS.format(sentence="int8 has 11.26% lower AP than fp16."), "x.md") if f.code == "SG103"]
    assert finding.message.startswith(
        "11.26% between row 'int8' and row 'fp16' does not follow from 'AP' of the table at line 3 as a percent "
        "change: it is their difference in points (0.6311 - 0.5185 = 0.1126, 11.26 points), and as a percent change "
        "(0.5185 - 0.6311) / 0.5185 = -21.72%")
    assert finding.hint.startswith("write the difference in points ('11.26 points')")
    # the latency rows are no AP: a wrong percent there keeps the plain message
    (finding,) = [f for f in lint_text(ROWS.format(sentence="int8 has 63% lower latency than fp16."), "x.md")
                  if f.code == "SG103"]
    assert "points" not in finding.message
