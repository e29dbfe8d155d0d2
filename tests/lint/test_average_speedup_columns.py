"""An "Average speedup" column closing rows of times at several settings states a mean of the row's speedups
over the baseline row, so it lies between the smallest and the largest of them (SG103). Seen on a tutorial
README (session 25's unseen set): speedups of 5.2x, 19.0x and 56.2x over rows whose per-length times were at
most 1.8x faster than the baseline's passed, as no formula over two columns was declared. Tables and
figures of our own; each row's speedups worked out by hand below."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# per-length speedups over 'eager' (its time over the row's): compiled 400/380 = 1.053, 210/190 = 1.105,
# 120/100 = 1.200 (1.05 to 1.20, mean 1.12; 120.5 / 99.5 = 1.211 at the printed digits' edge); fused 400/250 = 1.600, 210/140 = 1.500, 120/75 = 1.600
TIMES = """\
# Sequence length sweep

| Method | len 512 | len 256 | len 128 | Average speedup |
|---|---|---|---|---|
| eager | 400 ms | 210 ms | 120 ms | {base} |
| compiled | 380 ms | 190 ms | 100 ms | {compiled} |
| fused | 250 ms | 140 ms | 75 ms | {fused} |
"""


def _sg103(base: str = "1.00x", compiled: str = "1.12x", fused: str = "1.57x", table: str = TIMES) -> list[tuple[int, str]]:
    text = table.format(base=base, compiled=compiled, fused=fused)
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG103"]


def test_an_average_speedup_beyond_every_speedup_of_its_row_is_reported():
    # fails before: no finding (the column declared no formula over two columns)
    assert _sg103(compiled="12.0x") == [(6, (
        "row 'compiled': 'Average speedup' is 12.0x but its 3 columns give speedups over row 'eager' of 1.05, 1.11, "
        "1.20 (1.050 to 1.211x within the printed digits): no average of them gives it"))]


def test_a_placeholder_baseline_printing_zero_still_names_the_baseline_row():
    # "0.0x" where 1.00x is meant: the one row printing zero is the baseline
    found = _sg103(base="0.0x", fused="15.7x")
    assert [line for line, _ in found] == [7]
    assert "over row 'eager' of 1.60, 1.50, 1.60" in found[0][1]


def test_a_rate_table_divides_the_row_by_the_baseline():
    # rates, the row over the baseline: compiled 30 / 20 = 1.5 and 30 / 25 = 1.2 (a mean of 1.35 fits, 0.7x
    # lies below both); fused 40 / 20 = 50 / 25 = 2.0
    table = ("| Method | small (tok/s) | large (tok/s) | Mean speedup |\n|---|---|---|---|\n"
             "| eager | 20 | 25 | 1.0x |\n| compiled | 30 | 30 | {compiled} |\n| fused | 40 | 50 | {fused} |\n")
    assert _sg103(compiled="1.35x", fused="2.0x", table=table) == []
    assert [line for line, _ in _sg103(compiled="0.7x", fused="2.0x", table=table)] == [4]


@pytest.mark.parametrize("base, compiled, fused", [
    ("1.00x", "1.12x", "1.57x"),   # arithmetic means of each row
    ("1.00x", "1.05x", "1.60x"),   # a row's smallest and largest speedups are still averages of them
    ("1.00x", "1.20x", "1.50x"),
    ("-", "1.12x", "1.57x"),       # a dash where the baseline prints nothing: that row is the baseline
])
def test_an_average_within_the_rows_speedups_is_quiet(base, compiled, fused):
    assert _sg103(base, compiled, fused) == []


def test_no_baseline_row_or_a_column_that_is_no_average_is_not_read():
    # two rows print the identity: which one the speedups are over is not said
    assert _sg103(base="1.00x", compiled="1.00x", fused="15.7x") == []
    # a plain speedup column is the derived-column reader's, not an average of the row's speedups
    plain = _sg103(compiled="12.0x", table=TIMES.replace("Average speedup", "Speedup vs eager"))
    assert all("no average of them" not in message for _, message in plain)
