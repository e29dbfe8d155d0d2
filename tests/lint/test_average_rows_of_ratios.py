"""SG103: the Average row of a derived column (studygen/lint/averages.py ``states_row_mean``, read by
sg103_derived_figures). A speedup column's Average row may print the mean of the speedups above it rather
than the ratio of the averaged rates; the column's formula does not judge that cell, the average reader
does. Tables and figures of our own; each mean worked out next to its assertion."""

from __future__ import annotations

from studygen.lint import lint_text

# speedups 120.0/40.0 = 3.00x, 90.0/45.0 = 2.00x, 150.0/30.0 = 5.00x; their mean is 3.33x, while the
# averaged rates give 120.0 / 38.33 = 3.13x
TABLE = """\
# Draft decoding

| {label} | Draft tok/s | Plain tok/s | Speedup |
|---|---|---|---|
| {first} | 120.0 | 40.0 | 3.00x |
| {second} | 90.0 | 45.0 | 2.00x |
| {third} | 150.0 | 30.0 | 5.00x |
| {last} | {draft} | {plain} | {speedup} |
"""
SHORT = {"label": "Prompt", "first": "alpha", "second": "beta", "third": "gamma"}
# a first column of whole prompts: too long to be a label column, still naming the rows
LONG = {"label": "Prompt", "first": '"Summarise the meeting notes in three bullets."',
        "second": '"Translate the release notes into plain English."', "third": '"List every flag the build accepts."'}


def _sg103(labels: dict, last: str, draft: str, plain: str, speedup: str) -> list:
    text = TABLE.format(**labels, last=last, draft=draft, plain=plain, speedup=speedup)
    return [f for f in lint_text(text, "draft.md") if f.code == "SG103"]


def test_an_average_row_printing_the_mean_of_the_speedups_is_no_finding():
    assert _sg103(SHORT, "Average", "120.0", "38.33", "3.33x") == []
    assert _sg103(SHORT, "**Mean**", "120.0", "38.33", "3.33x") == []


def test_an_average_row_printing_the_ratio_of_the_averaged_rates_is_no_finding():
    assert _sg103(SHORT, "Average", "120.0", "38.33", "3.13x") == []


def test_an_average_row_that_is_neither_is_reported_both_ways():
    findings = _sg103(SHORT, "Average", "120.0", "38.33", "3.50x")
    assert [f.line for f in findings] == [8, 8]
    messages = " | ".join(f.message for f in findings)
    # the column's formula: 120.0 / 38.33 = 3.131
    assert "'Speedup' is 3.50x but 'Draft tok/s' and 'Plain tok/s' give 120.0 / 38.33 = 3.13x" in messages
    # the mean: (3.00 + 2.00 + 5.00) / 3 = 3.333
    assert "the arithmetic mean of the 3 rows above (3.00, 2.00, 5.00) is 3.333x" in messages


def test_a_total_row_is_held_to_the_columns_formula():
    # a Total row is no average: 360.0 / 115.0 = 3.130, so the mean of the speedups (3.33x) is a miss
    (finding,) = _sg103(SHORT, "Total", "360.0", "115.0", "3.33x")
    assert finding.line == 8
    assert "360.0 / 115.0 = 3.13x" in finding.message


def test_a_first_column_of_long_labels_still_names_an_average_row():
    assert _sg103(LONG, "Average", "120.0", "38.33", "3.33x") == []
    findings = _sg103(LONG, "Average", "120.0", "38.33", "3.50x")
    assert any("the arithmetic mean of the 3 rows above (3.00, 2.00, 5.00) is 3.333x" in f.message for f in findings)
