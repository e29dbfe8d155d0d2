"""studygen.lint.averages: average rows and columns against the mean the
table's other average cells follow (SG103). Tables of our own; every mean
worked out by hand next to its assertion."""

from __future__ import annotations

from studygen.lint.averages import average_findings, average_kind
from studygen.lint.parse import parse_document


def findings(text: str) -> list[tuple[int, str, str]]:
    document = parse_document(text, "doc.md")
    return [f for table in document.tables for f in average_findings(table)]


def test_labels_and_headers_that_name_an_average():
    assert [average_kind(t) for t in ("Average", "**Avg.**", "mean", "Mean (ms)", "Arithmetic mean", "Average:")] == ["any"] * 6
    assert [average_kind(t) for t in ("Geomean", "geo mean", "Geometric mean")] == ["geometric"] * 3
    assert [average_kind(t) for t in ("Mean TTFT", "Avg F1", "average latency", "Median", "")] == [None] * 5


ROWS = """| Prompt set | fp16 | fp8 | int8 |
|---|---:|---:|---:|
| chat | 12.40 | 9.10 | 10.20 |
| | | | |
| code | 14.80 | 10.90 | 11.60 |
| summaries | 18.30 | 13.20 | 14.10 |
| Average | 15.17 | 12.40 | 11.96 |
| long | 30.00 | 20.00 | 25.00 |
| longer | 50.00 | 40.00 | 45.00 |
| Mean | 40.00 | 30.00 | 35.00 |
"""


def test_an_average_row_cell_the_tables_mean_does_not_give():
    # fp16: (12.40 + 14.80 + 18.30) / 3 = 15.167 -> 15.17; int8: 35.90 / 3 = 11.967 -> 11.96 truncated, fits;
    # fp8: 33.20 / 3 = 11.067, not 12.40 (the spacer row is no row of the group). The second group: 40, 30, 35 fit.
    # The printed digits allow 33.185 / 3 = 11.062 to 33.215 / 3 = 11.072.
    assert findings(ROWS) == [(
        7, "row 'Average': 'fp8' is 12.40 but the arithmetic mean of the 3 rows above (9.10, 10.90, 13.20) is 11.067 "
               "(11.062 to 11.072 within the printed digits) "
           "(that mean fits the table's other average cells)",
        "recompute the average from the figures it averages, or say what else it averages",
    )]


def test_a_second_group_starts_after_an_average_row():
    # "Mean" averages only long and longer: (30 + 50) / 2 = 40 fits; with every row above it (15.25) nothing would
    wrong = ROWS.replace("| Mean | 40.00 | 30.00 | 35.00 |", "| Mean | 40.00 | 30.00 | 36.00 |")
    assert [(line, "(25.00, 45.00) is 35.000" in message) for line, message, _ in findings(wrong)][-1] == (10, True)


def test_an_average_column_cell_the_tables_mean_does_not_give():
    text = """| Recipe | ARC | GSM8K | MMLU | Avg | max |
|---|---:|---:|---:|---:|---:|
| fp16 | 61.2 | 55.0 | 66.1 | 60.8 | 66.1 |
| fp8 | 60.9 | 54.1 | 65.8 | 60.3 | 65.8 |
| int4 | 58.7 | 49.6 | 63.0 | 58.4 | 63.0 |
"""
    # the "max" column is a statistic of the row: it is no operand. int4: 171.3 / 3 = 57.10, not 58.4
    assert [(line, message.split(" (that")[0]) for line, message, _ in findings(text)] == [
        (5, "row 'int4': 'Avg' is 58.4 but the arithmetic mean of the row's 3 other columns (58.7, 49.6, 63.0) is 57.10 "
            "(57.05 to 57.15 within the printed digits)")]  # 171.15 / 3 to 171.45 / 3


def test_the_median_when_the_table_uses_it_and_a_geometric_mean_of_ratios():
    median = """| Run | step ms | load s | tokens/s |
|---|---:|---:|---:|
| run 1 | 8.20 | 41.0 | 1203 |
| run 2 | 8.90 | 43.5 | 1150 |
| run 3 | 8.30 | 40.2 | 1187 |
| Average | 8.30 | 41.0 | 1177 |
"""
    # medians 8.30, 41.0, 1187: the table's mean is the median; 1177 is neither the median nor the mean 1180
    assert [(line, "median mean of the 3 rows above (1203, 1150, 1187) is 1187.0" in message)
            for line, message, _ in findings(median)] == [(6, True)]
    geomean = """| Model | fp8 | int8 | int4 |
|---|---:|---:|---:|
| A | 1.21x | 1.34x | 1.80x |
| B | 1.44x | 1.62x | 2.40x |
| C | 1.30x | 1.50x | 2.10x |
| Geomean | 1.31x | 1.49x | 2.20x |
"""
    # (1.21 * 1.44 * 1.30) ** (1 / 3) = 1.3135 (1.31); 3.2562 ** (1 / 3) = 1.4822, and the inputs' rounding
    # reaches 1.4872, so 1.49x fits; 9.072 ** (1 / 3) = 2.0856 is not 2.20x
    assert [(line, message.split(" (that")[0]) for line, message, _ in findings(geomean)] == [
        (6, "row 'Geomean': 'int4' is 2.20x but the geometric mean of the 3 rows above (1.80, 2.40, 2.10) is 2.086x "
            "(2.081x to 2.091x within the printed digits)")]  # cube roots of 1.795 * 2.395 * 2.095 and 1.805 * 2.405 * 2.105


def test_no_finding_without_a_majority_or_with_one_cell_or_in_a_statistics_table():
    weighted = """| Set | fp16 | fp8 | int8 |
|---|---:|---:|---:|
| chat | 12.40 | 9.10 | 10.20 |
| code | 14.80 | 10.90 | 11.60 |
| summaries | 18.30 | 13.20 | 14.10 |
| Average | 13.90 | 10.20 | 11.10 |
"""
    single = """| Task | score |
|---|---:|
| ARC | 61.2 |
| GSM8K | 55.0 |
| Average | 70.0 |
"""
    stats = """| Stat | fp16 ms | fp8 ms | int8 ms |
|---|---:|---:|---:|
| Min | 10.0 | 8.0 | 9.0 |
| Max | 14.0 | 12.0 | 13.0 |
| Average | 13.5 | 9.0 | 11.0 |
"""
    # weighted: no mean fits any column (13.90 vs mean 15.17 and median 14.80); single: one cell says nothing;
    # stats: Min and Max are no group (the true mean is not (min + max) / 2)
    assert findings(weighted) == findings(single) == findings(stats) == []


def test_a_geometric_mean_over_a_zero_is_undefined_and_another_mean_may_stand():
    text = """| Model | q1 | q2 | q3 |
|---|---:|---:|---:|
| A | 1.0 | 0.0 | 2.0 |
| B | 3.0 | 1.0 | 4.0 |
| Average | 2.0 | 0.5 | 3.0 |
"""
    assert findings(text) == []


def test_a_geomean_row_is_read_as_a_geometric_mean_only_and_is_undefined_over_a_negative():
    text = """| Model | fp8 | int8 | w8a8 | int4 | delta |
|---|---:|---:|---:|---:|---:|
| A | 0.90x | 1.00x | 0.00x | 1.00x | -1.00x |
| B | 0.80x | 0.64x | 1.00x | 4.00x | 1.00x |
| Geomean | 0.85x | 0.80x | 0.00x | 2.50x | 0.50x |
"""
    # fp8: (0.90 * 0.80) ** 0.5 = 0.8485 (0.85x); int8: 0.64 ** 0.5 = 0.80; w8a8: a zero makes it 0; int4:
    # 4.00 ** 0.5 = 2.00, while the arithmetic mean 2.50 would fit (a geomean row may not be one); delta: no
    # geometric mean over a negative figure (and that cell does not count against the table's mean)
    assert [(line, message.split(" (that")[0]) for line, message, _ in findings(text)] == [
        (5, "row 'Geomean': 'int4' is 2.50x but the geometric mean of the 2 rows above (1.00, 4.00) is 2.000x "
            "(1.994x to 2.006x within the printed digits)"),  # sqrt(0.995 * 3.995), sqrt(1.005 * 4.005)
        (5, "row 'Geomean': 'delta' is 0.50x but the geometric mean of the 2 rows above (-1.00, 1.00) is undefined"),
    ]


def test_truncated_negative_averages_fit_and_half_the_cells_is_no_majority():
    negative = """| Set | delta a | delta b | delta c |
|---|---:|---:|---:|
| x | -0.31 | -0.10 | -1.20 |
| y | -0.25 | -0.20 | -1.40 |
| z | -0.32 | -0.30 | -1.30 |
| Average | -0.2 | -0.4 | -1.3 |
"""
    # a: -0.2933 cut at one decimal is -0.2 (fits); b: -0.20 is not -0.4; c: -1.30 fits
    assert [(line, "'delta b' is -0.4" in message) for line, message, _ in findings(negative)] == [(6, True)]
    half = """| Set | a | b | c | d |
|---|---:|---:|---:|---:|
| x | 1.0 | 2.0 | 3.0 | 4.0 |
| y | 3.0 | 4.0 | 5.0 | 6.0 |
| Average | 2.0 | 3.0 | 9.0 | 9.0 |
"""
    # two of four cells fit: less than two thirds, so the table states no mean
    assert findings(half) == []


def test_an_average_column_over_two_columns_and_cells_left_out():
    text = """| Recipe | seed A | seed B | Avg |
|---|---:|---:|---:|
| fp16 | 10.0 | 12.0 | 11.0 |
| fp8 | 8.0 | 9.0 | 8.5 |
| int8 | 9.0 | 11.0 | 12.0 |
| int4 | 7.0 | | 9.0 |
"""
    # (9.0 + 11.0) / 2 = 10.00, not 12.0; int4 has an empty cell, so its average is not checked
    assert [(line, message.split(" (that")[0]) for line, message, _ in findings(text)] == [
        (5, "row 'int8': 'Avg' is 12.0 but the arithmetic mean of the row's 2 other columns (9.0, 11.0) is 10.00 "
            "(9.95 to 10.05 within the printed digits)")]  # (8.95 + 10.95) / 2, (9.05 + 11.05) / 2


def test_an_average_after_a_statistics_group_and_one_over_an_empty_cell():
    text = """| Stat | a | b | c | d |
|---|---:|---:|---:|---:|
| Min | 1.0 | 2.0 | 3.0 | 0.5 |
| Max | 5.0 | 6.0 | 7.0 | 3.5 |
| Average | 3.5 | 4.5 | 5.5 | 2.5 |
| x | 2.0 | 4.0 | 6.0 | 1.0 |
| y | 4.0 | | 8.0 | 2.0 |
| z | 6.0 | 8.0 | 10.0 | 3.0 |
| Average | 4.0 | 9.0 | 9.0 | 2.0 |
"""
    # the first average follows Min and Max (no group); the second averages x, y, z: a 4.0 and d 2.0 fit, c (8.0) is not
    # 9.0, b has an empty cell in its group and is not checked
    assert [(line, "'c' is 9.0" in message) for line, message, _ in findings(text)] == [(9, True)]
