"""SG101 ranges of percent changes between two engine columns (studygen/lint/column_pairs.py, range_width.py):
the change's base is the column the clause names after "than" ("25-30% higher throughput than Beta": Beta's
figures), a table under a heading naming the quantity ("### Throughput (tokens/sec)") is read from a summary
section when the clause claims the range for every row, another column pair of the table does not stand in
for the one the clause names, and an integer end that is no round bound, far from every row, is a
misstatement ("9-37%" over rows from 25.0%). Documents and figures of our own; each change worked out next
to its assertion."""

from __future__ import annotations

from studygen.lint import lint_text

# Alpha over Beta, (a - b) / b: 10/40 = 25.0%, 50/190 = 26.3%, 180/520 = 34.6%, 350/950 = 36.8%;
# over Alpha, (a - b) / a: 20.0%, 20.8%, 25.7%, 26.9%
TABLE = """\
| Batch | Alpha | Beta |
|---|---|---|
| 1 | 50 | 40 |
| 8 | 240 | 190 |
| 32 | 700 | 520 |
| 64 | 1300 | 950 |
"""
SAME_SECTION = "# Engines\n\n### Throughput (tokens/sec)\n\n" + TABLE + "\n{claim}\n"  # the claim on line 12
SUMMARY = "# Engines\n\n## Results\n\n### Throughput (tokens/sec)\n\n" + TABLE + "\n## Summary\n\n{claim}\n"  # line 16


def _sg101(template: str, claim: str) -> list:
    return [f for f in lint_text(template.format(claim=claim), "engines.md") if f.code == "SG101"]


def test_the_base_is_the_column_named_after_than():
    (finding,) = _sg101(SAME_SECTION, "Alpha achieves 25-30% higher throughput than Beta.")
    assert finding.line == 12
    assert finding.message.startswith("range 25-30% leaves out 2 rows: '32' ((700 - 520) / 520 = 34.6%), "
                                      "'64' ((1300 - 950) / 950 = 36.8%) of a relative difference of 'Alpha' and 'Beta'")


def test_a_range_over_the_other_base_is_read_over_that_base():
    # "lower than Alpha's": Alpha's figures are the base, 20.0% to 26.9%
    assert _sg101(SAME_SECTION, "Beta's throughput is 20-27% lower than Alpha's.") == []


def test_a_summary_section_reads_the_table_under_a_quantity_heading():
    (finding,) = _sg101(SUMMARY, "Alpha achieves 25-30% higher throughput than Beta across all batch sizes.")
    assert finding.line == 16
    assert "range 25-30% leaves out 2 rows" in finding.message
    assert "(1300 - 950) / 950 = 36.8%" in finding.message


def test_an_integer_end_far_from_every_row_is_a_misstatement():
    (finding,) = _sg101(SUMMARY, "Alpha achieves 9-37% higher throughput than Beta across all batch sizes.")
    assert finding.line == 16
    assert finding.message == ("range 9-37% is wider than every row of a relative difference of 'Alpha' and 'Beta' "
                               "in the table at line 7: its 4 rows run 25.0 to 36.8% ('1' to '64')")


def test_round_bounds_and_near_ends_are_no_misstatement():
    # 20 and 40 are round bounds; 24 lies one step and under 5% from 25.0
    assert _sg101(SUMMARY, "Alpha achieves 20-40% higher throughput than Beta across all batch sizes.") == []
    assert _sg101(SUMMARY, "Alpha achieves 24-37% higher throughput than Beta across all batch sizes.") == []


def test_a_summary_without_an_every_row_claim_reads_no_loose_range():
    assert _sg101(SUMMARY, "Alpha achieves 9-37% higher throughput than Beta.") == []


# a third engine: Alpha over Gamma (a - b) / b as Alpha over Beta above (25.0% to 36.8%); Alpha over Beta here,
# (a - b) / b: 4/46 = 8.7%, 20/220 = 9.1%, 60/640 = 9.4%, 110/1190 = 9.2% (holds 9), a pair the clause does not name
THREE = """\
# Engines

## Results

### Throughput (tokens/sec)

| Batch | Alpha | Beta | Gamma |
|---|---|---|---|
| 1 | 50 | 46 | 40 |
| 8 | 240 | 220 | 190 |
| 32 | 700 | 640 | 520 |
| 64 | 1300 | 1190 | 950 |

## Summary

{claim}
"""


def test_an_unnamed_pair_does_not_stand_in_for_the_named_one():
    (finding,) = _sg101(THREE, "Alpha achieves 9-37% higher throughput than Gamma across all batch sizes.")
    assert finding.line == 16
    assert "a relative difference of 'Alpha' and 'Gamma'" in finding.message
    assert "its 4 rows run 25.0 to 36.8%" in finding.message



def test_a_summary_reads_precision_columns_under_a_quantity_heading_when_both_are_named():
    # "fp8" and "fp16" name no quantity: the heading "Throughput (tokens/sec)" ties the pair, both named
    precisions = SUMMARY.replace("| Batch | Alpha | Beta |", "| Batch | fp8 | fp16 |")
    (finding,) = _sg101(precisions, "fp8 achieves 9-37% higher throughput than fp16 across all batch sizes.")
    assert "a relative difference of 'fp8' and 'fp16'" in finding.message
    assert "its 4 rows run 25.0 to 36.8%" in finding.message
    # one precision named: no tie to that pair
    assert _sg101(precisions, "fp8 achieves 9-37% higher throughput across all batch sizes.") == []


def test_a_two_column_pair_needs_only_its_reference_named():
    (finding,) = _sg101(SAME_SECTION, "It achieves 25-30% higher throughput than Beta.")
    assert "(1300 - 950) / 950 = 36.8%" in finding.message


def test_a_reference_in_the_first_column_is_the_base():
    # "lower than Alpha's": over Alpha, (a - b) / a runs 20.0 to 26.9%; over Beta it would run 25.0 to 36.8%
    (finding,) = _sg101(SAME_SECTION, "Beta's throughput is 26-37% lower than Alpha's.")
    assert "'1' ((50 - 40) / 50 = 20.0%)" in finding.message
    assert "'8' ((240 - 190) / 240 = 20.8%)" in finding.message


def test_a_range_naming_no_reference_over_three_columns_is_read():
    # no "than": every pair may be meant; Alpha over Gamma (25.0 to 36.8%) fits and clears it
    assert _sg101(THREE, "Alpha achieves 25-37% higher throughput across all batch sizes.") == []


def test_a_round_end_over_a_pair_is_a_bound():
    # 25 is a row's figure (25.0%), 40 a multiple of five beyond 36.8%: a round bound, no misstatement
    assert _sg101(SAME_SECTION, "Alpha achieves 25-40% higher throughput than Beta.") == []


# a column printed finer than a range: ends at one decimal over rows at three
MODELS = "# Models\n\n| Model | Speedup (x) |\n|---|---:|\n| a | 1.312 |\n| b | 1.654 |\n| c | 2.083 |\n\n{claim}\n"


def test_a_decimal_end_printed_coarser_than_the_rows_is_judged_by_its_step():
    # 2.7 is no multiple of 0.5 and lies 0.6 (more than a 0.1 step, 30%) beyond 2.083
    (finding,) = _sg101(MODELS, "Speedups run 1.3-2.7x.")
    assert finding.line == 9
    assert finding.message == ("range 1.3-2.7x is wider than every row of 'Speedup (x)' in the table at line 3: "
                               "its 3 rows run 1.312 to 2.083x ('a' to 'c')")
    # 2.5 is a round bound at one decimal (25 tenths, a multiple of five)
    assert _sg101(MODELS, "Speedups run 1.3-2.5x.") == []
