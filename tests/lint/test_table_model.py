"""studygen.lint.table_model and its use by SG103: derived columns, the
definitions a layout or header declares, row groups, and when a declared
definition is taken. Tables written for these tests; each ratio worked out
beside its assertion."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.figures import figures_of, in_one_unit
from studygen.lint.derived import best_fit, declared_fits, formulas_for, operand_pools
from studygen.lint.parse import parse_document
from studygen.lint.table_model import declared_definitions, identity_rows, is_derived, label_runs, precedes_derived, row_groups
from studygen.lint.text import ratio_header


def table(markdown: str):
    (parsed,) = parse_document(markdown, "t.md").tables
    return parsed


def series(parsed, header: str, sub: int = -1):
    return next(s for s in parsed.series if s.header.startswith(header) and (sub == -1 or s.sub == sub))


def definition_of(parsed, header: str, sub: int = -1):
    return [(d.kind, d.first.header, d.second.header if d.second else None, d.by_words)
            for d in declared_definitions(parsed, series(parsed, header, sub))]


def sg103(markdown: str):
    return [(f.line, f.message) for f in lint_text(markdown, "t.md") if f.code == "SG103"]


def test_derived_columns_are_ratios_by_unit_or_by_header():
    parsed = table("| run | ms | x | speedup | weak scaling | ms saved |\n|---|---|---|---|---|---|\n"
                   "| a | 2.0 | 1.5x | 1.5 | 1.00 | 0.5 |\n| b | 3.0 | 1.4x | 1.4 | 1.90 | 0.4 |\n")
    assert [is_derived(s) for s in parsed.series] == [False, True, True, True, False]
    assert precedes_derived(["run", "eager", "speedup"], 1) and not precedes_derived(["run", "eager", "ms"], 1)
    assert not precedes_derived(["run", "eager"], 1)
    assert ratio_header("Strong scaling - bf16") and ratio_header("speed-up vs fp32") and not ratio_header("scaling efficiency")


def test_the_header_names_both_columns_or_a_reference():
    parsed = table("| n | fp16 ms | int8 ms | speedup (fp16 / int8) | speedup (vs int8) | speedup (vs fp32) |\n"
                   "|---|---|---|---|---|---|\n| 1 | 8.0 | 4.0 | 2.0 | 2.0 | 3.0 |\n| 2 | 9.0 | 4.5 | 2.0 | 2.0 | 3.1 |\n")
    assert definition_of(parsed, "speedup (fp16") == [("pair", "int8 ms", "fp16 ms", True)]
    # "vs int8": the reference is int8, the other column the nearest before it
    assert definition_of(parsed, "speedup (vs int8)") == [("pair", "fp16 ms", "int8 ms", True)]
    # a reference the table does not hold: no definition is forced on the column
    assert definition_of(parsed, "speedup (vs fp32)") == []


def test_the_layout_places_the_columns_of_a_group_or_the_shared_first_one():
    parsed = table("| n | eager ms | compiled ms | speedup | graphs ms | speedup | a ms | b ms | speedup |\n"
                   "|---|---|---|---|---|---|---|---|---|\n| 1 | 9.0 | 6.0 | 1.50 | 4.5 | 2.00 | 3.0 | 2.0 | 1.50 |\n"
                   "| 2 | 18.0 | 12.0 | 1.50 | 9.0 | 2.00 | 6.0 | 4.0 | 1.50 |\n"
                   "| 4 | 36.0 | 24.0 | 1.50 | 18.0 | 2.00 | 12.0 | 8.0 | 1.50 |\n")
    first, second, third = [s for s in parsed.series if s.header == "speedup"]
    assert [(d.first.header, d.second.header, d.by_words) for d in declared_definitions(parsed, first)] == [
        ("compiled ms", "eager ms", False)]  # the last of its group against the first
    assert [(d.first.header, d.second.header) for d in declared_definitions(parsed, second)] == [
        ("graphs ms", "eager ms")]  # one column in its group: against the table's first data column
    assert [(d.first.header, d.second.header) for d in declared_definitions(parsed, third)] == [("b ms", "a ms")]


def test_a_row_printing_the_identity_declares_the_baseline_and_a_scaling_column_its_groups():
    parsed = table("| runner | passed | relative |\n|---|---|---|\n| a | 40/100 | 1x |\n| b | 50/100 | 1.3x |\n")
    assert definition_of(parsed, "relative") == [("baseline", "passed (figure 1 of 2)", None, False)]
    assert identity_rows(series(parsed, "relative")) == [0]
    scaled = table("| m | GPUs | bf16 | fp32 | strong scaling | weak scaling - fp32 |\n|---|---|---|---|---|---|\n"
                   "| a | 1 | 10 | 20 | 1.00 | 1.00 |\n| a | 2 | 20 | 40 | 2.00 | 2.00 |\n")
    # named by its header: fp32; unnamed: the data column right before it
    assert definition_of(scaled, "weak scaling - fp32") == [
        ("baseline", "fp32", None, True)]
    assert definition_of(scaled, "strong scaling") == [("baseline", "fp32", None, False)]


def test_the_figures_of_a_derived_cell_after_its_ratio_are_no_ratio_of_the_row():
    # "0.87x (0.86x to 0.92x)": the ratio, then its spread over compilations; only the first is fp16 / fp8
    parsed = table("| shape | fp16 ms | fp8 ms | fp16 / fp8 |\n|---|---|---|---|\n"
                   "| a | 8.19 | 9.45 | 0.87x (0.86x to 0.92x) |\n| b | 12.56 | 12.52 | 1.00x (1.00x to 1.01x) |\n")
    assert [bool(declared_definitions(parsed, s)) for s in parsed.series if s.unit == "x"] == [True, False, False]


def test_label_runs_and_row_groups():
    runs = table("| m | g | v |\n|---|---|---|\n| a | 1 | 1.0 |\n| a | 2 | 2.0 |\n| b | 1 | 3.0 |\n| b | 2 | 4.0 |\n")
    assert label_runs(runs) == [0, 2]
    blanks = table("| m | g | v |\n|---|---|---|\n| a | 1 | 1.0 |\n|  | 2 | 2.0 |\n| b | 1 | 3.0 |\n|  | 2 | 4.0 |\n")
    assert label_runs(blanks) == [0, 2]
    assert blanks.rows[3].label == "b / 2"  # the empty first label cell continues the one above
    back = table("| m | g | v |\n|---|---|---|\n| a | 1 | 1.0 |\n| b | 2 | 2.0 |\n| a | 1 | 3.0 |\n| c | 2 | 4.0 |\n")
    assert label_runs(back) == [0]  # 'a' comes back: the column labels rows, not runs
    distinct = table("| m | v |\n|---|---|\n| a | 1.0 |\n| b | 2.0 |\n| c | 3.0 |\n")
    assert label_runs(distinct) == [0]
    ratios = table("| n | t | x |\n|---|---|---|\n| 1 | 8.0 | 1.0x |\n| 2 | 4.0 | 2.0x |\n| 1 | 9.0 | 1.0x |\n| 2 | 4.5 | 2.0x |\n")
    assert [list(g) for g in row_groups(ratios, series(ratios, "x"))] == [[0, 1], [2, 3]]
    assert [list(g) for g in row_groups(ratios)] == [[0, 1, 2, 3]]


def test_a_declared_definition_is_taken_on_two_thirds_of_the_rows_or_when_every_row_is_close():
    def fits_of(markdown):
        parsed = table(markdown)
        target = series(parsed, "speedup")
        return [(f.kind, len(f.matched), len(f.missed), f.close)
                for f in declared_fits(parsed, target, formulas_for(target.unit, False, True))]

    head = "| n | a ms | b ms | speedup |\n|---|---|---|---|\n"
    # 8/4 = 2.0, 9/3 = 3.0 and 6/2 = 3.0 fit, 10/2 = 5.0 printed 4.0 does not: three of four
    assert fits_of(head + "| 1 | 8.0 | 4.0 | 2.0 |\n| 2 | 9.0 | 3.0 | 3.0 |\n| 3 | 6.0 | 2.0 | 3.0 |\n"
                          "| 4 | 10.0 | 2.0 | 4.0 |\n") == [("pair", 3, 1, False)]
    # two of four is no more than half: not taken (6/2 printed 2.5 is 17% off, so not close either)
    assert fits_of(head + "| 1 | 8.0 | 4.0 | 2.0 |\n| 2 | 9.0 | 3.0 | 3.0 |\n| 3 | 6.0 | 2.0 | 2.5 |\n"
                          "| 4 | 10.0 | 2.0 | 4.0 |\n") == []
    # one of four fits and the others are off by 17% to 25%: neither half nor close
    assert fits_of(head + "| 1 | 8.0 | 4.0 | 2.0 |\n| 2 | 9.0 | 3.0 | 2.5 |\n| 3 | 6.0 | 2.0 | 2.5 |\n"
                          "| 4 | 10.0 | 2.0 | 4.0 |\n") == []
    # none fits but each within 10% (2.1 for 2.0; 3.2 for 3.0, and 6.05 / 1.95 = 3.103 is short of 3.15): close,
    # over three rows
    assert fits_of(head + "| 1 | 8.0 | 4.0 | 2.1 |\n| 2 | 9.0 | 3.0 | 3.2 |\n| 3 | 6.0 | 2.0 | 3.2 |\n") == [
        ("pair", 0, 3, True)]
    # two rows are too few to call it close
    assert fits_of(head + "| 1 | 8.0 | 4.0 | 2.1 |\n| 2 | 9.0 | 3.0 | 3.2 |\n") == []


def test_a_definition_the_header_states_outranks_a_better_fit_over_other_columns():
    # 'speedup (a / b)' is printed as c / b on every row, a / b on three: the header is wrong on the fourth
    markdown = ("| n | a ms | b ms | c ms | speedup (a / b) |\n|---|---|---|---|---|\n"
                "| 1 | 8.0 | 4.0 | 8.0 | 2.0 |\n| 2 | 9.0 | 3.0 | 9.0 | 3.0 |\n| 3 | 6.0 | 2.0 | 6.0 | 3.0 |\n"
                "| 4 | 10.0 | 2.0 | 11.0 | 5.5 |\n")
    parsed = table(markdown)
    target = series(parsed, "speedup")
    fit = best_fit(parsed, target, ("ratio",), operand_pools(parsed))
    assert (fit.first.header, fit.second.header, fit.by_words) == ("a ms", "b ms", True)
    # 10.0 / 2.0 = 5.0 printed 5.5
    assert [line for line, _ in sg103(markdown)] == [6]
    assert "its header declares it" in sg103(markdown)[0][1]


def test_a_ratio_column_takes_no_unit_from_the_heading_and_a_figure_column_before_it_is_no_label():
    parsed = table("## Throughput (images/s)\n\n| GPUs | eager | TRT engine | speedup |\n|---|---|---|---|\n"
                   "| 1 | 100 | 300 | 3.00 |\n| 2 | 190 | 580 | 3.05 |\n")
    assert [(s.header, s.unit) for s in parsed.series] == [
        ("eager", "images/s"), ("TRT engine", "images/s"), ("speedup", None)]
    assert parsed.label_columns == [0]


def test_an_empty_derived_cell_beside_its_operands_is_no_row_of_the_definition():
    # the speedup of batch 4 is not printed ("-"): three rows remain, one of them wrong (9.0 / 3.0 = 3.0, printed 2.0)
    markdown = ("| batch | fp16 ms | int8 ms | speedup |\n|---|---|---|---|\n| 1 | 8.0 | 4.0 | 2.0 |\n"
                "| 2 | 9.0 | 3.0 | 2.0 |\n| 4 | 10.0 | 5.0 | - |\n| 8 | 12.0 | 4.0 | 3.0 |\n| 16 | 14.0 | 7.0 | 2.0 |\n")
    assert [line for line, _ in sg103(markdown)] == [4]


def test_a_reference_named_after_vs_is_said_in_the_finding():
    # 'speedup vs int8': fp16 over int8; 18.0 / 6.0 = 3.0 printed 2.5
    markdown = ("| batch | fp16 ms | int8 ms | speedup vs int8 |\n|---|---|---|---|\n| 1 | 8.0 | 4.0 | 2.0 |\n"
                "| 2 | 9.0 | 3.0 | 3.0 |\n| 4 | 18.0 | 6.0 | 2.5 |\n| 8 | 12.0 | 4.0 | 3.0 |\n")
    ((line, message),) = sg103(markdown)
    assert line == 5 and "its header declares it, its header names 'int8 ms' as the reference" in message


def test_a_percentage_column_names_its_baseline_as_the_100_percent_row():
    # relative throughput in % of the stock row: 540 / 450 = 120%, printed 125%
    markdown = ("| runner | img/s | relative |\n|---|---|---|\n| stock | 450 | 100% |\n| fused | 540 | 125% |\n"
                "| graphs | 495 | 110% |\n| both | 585 | 130% |\n")
    ((line, message),) = sg103(markdown)
    assert line == 4 and "the column before it against the 100% row" in message


def test_a_declared_baseline_of_times_is_read_baseline_over_row_in_each_group():
    # time in s, the speedup against each model's 1-GPU row (printing 1.00x): 120 / 60 = 2.00, 120 / 30 = 4.00;
    # model b: 90 / 45 = 2.00, but 90 / 30 = 3.00 printed 4.00 (row over baseline would read 30 / 90 = 0.33)
    markdown = ("| model | GPUs | time s | speedup |\n|---|---|---|---|\n| a | 1 | 120 | 1.00x |\n| a | 2 | 60 | 2.00x |\n"
                "| a | 4 | 30 | 4.00x |\n| b | 1 | 90 | 1.00x |\n| b | 2 | 45 | 2.00x |\n| b | 4 | 30 | 4.00x |\n")
    ((line, message),) = sg103(markdown)
    assert line == 8
    assert "'time s' against the baseline row 'b / 1' gives 90 / 30 = 3.00x" in message


def test_three_rows_are_enough_for_label_runs():
    assert label_runs(table("| m | g | v |\n|---|---|---|\n| a | 1 | 1.0 |\n| a | 2 | 2.0 |\n| b | 1 | 3.0 |\n")) == [0, 2]
    assert label_runs(table("| m | g | v |\n|---|---|---|\n| a | 1 | 1.0 |\n| b | 2 | 2.0 |\n")) == [0]


def _metric_rows(spaced: bool, change: str, ratio: str) -> str:
    """Two metric-per-row tables whose cells print one unit per row, with a
    space before it or glued to the figure: int8 against fp16 as a percent
    change, compiled over eager as a speedup of two rates."""
    gap = " " if spaced else ""
    return (f"| Metric | fp16 | int8 | change |\n|---|---|---|---|\n| Decode step | 24.0{gap}ms | 18.0{gap}ms | -25.0% |\n"
            f"| Output rate | 1,250{gap}tokens/s | 1,600{gap}tokens/s | {change} |\n\n"
            f"| Metric | eager | compiled | speedup |\n|---|---|---|---|\n| Prefill rate | 2,000{gap}tokens/s | 3,000{gap}tokens/s | 1.50x |\n"
            f"| Training rate | 410{gap}img/s | 615{gap}img/s | {ratio} |\n")


@pytest.mark.parametrize("spaced", [True, False])
def test_metric_rows_of_two_units_keep_each_row_in_its_own_unit(spaced):
    # one row in ms and one in tokens/s: neither unit is the column's, so neither row is left out of it
    first, _ = parse_document(_metric_rows(spaced, "+28.0%", "1.50x"), "t.md").tables
    fp16 = series(first, "fp16")
    assert fp16.unit is None
    assert [(v.value, v.unit) for v in fp16.values] == [(24.0, "ms"), (1250.0, "tokens/s")]


@pytest.mark.parametrize("spaced", [True, False])
def test_a_change_or_ratio_on_a_row_of_the_second_unit_is_checked(spaced):
    # 1600 / 1250 = 1.28: +28.0%, printed +32.0%; 615 / 410 = 1.50x, printed 1.70x (3000 / 2000 = 1.50x above it)
    findings = sg103(_metric_rows(spaced, "+32.0%", "1.70x"))
    assert [line for line, _ in findings] == [4, 9]
    assert "row 'Output rate': 'change' is +32.0% but 'int8' and 'fp16' give (1,600 - 1,250) / 1,250 = 28.0%" in findings[0][1]
    assert "row 'Training rate': 'speedup' is 1.70x but 'compiled' and 'eager' give 615 / 410 = 1.50x" in findings[1][1]


@pytest.mark.parametrize("spaced", [True, False])
def test_metric_rows_of_two_units_that_follow_from_their_cells_give_no_finding(spaced):
    assert sg103(_metric_rows(spaced, "+28.0%", "1.50x")) == []


def test_a_metric_cell_of_a_figure_and_free_words_stays_unread():
    # "18.0 ms under load" is a figure and a note, not a figure: its row, whose -40.0% 18.0 / 24.0 would not give, is
    # left unchecked as before, while the column's rows of the second unit are read
    markdown = ("| Metric | fp16 | int8 | change |\n|---|---|---|---|\n| Decode step | 24.0 ms | 18.0 ms under load | -40.0% |\n"
                "| Output rate | 1,250 tokens/s | 1,600 tokens/s | +28.0% |\n| Prefill rate | 2,000 tokens/s | 3,000 tokens/s | +50.0% |\n")
    assert [v.value if v else None for v in series(table(markdown), "int8").values] == [None, 1600.0, 3000.0]
    assert sg103(markdown) == []


def test_a_ratio_column_of_metric_rows_keeps_its_unit_beside_a_cell_of_seconds():
    # "8.2 s more" and "3.0 GiB more" are no ratios: the x cells, the most, type the column, which stays derived
    # and checked; 0.60 / 0.20 = 3.0x, printed 2.0x faster
    markdown = ("| Metric | eager | graphs | difference |\n|---|---|---|---|\n| Load time | 50.2 s | 58.4 s | 8.2 s more |\n"
                "| Peak memory | 12.0 GiB | 15.0 GiB | 3.0 GiB more |\n"
                "| First request | 1.20 s | 0.30 s | 4.0x faster |\n| Steady request | 0.41 s | 0.40 s | 1.0x |\n"
                "| Warm request | 0.60 s | 0.20 s | 2.0x faster |\n")
    difference = series(table(markdown), "difference")
    assert difference.unit == "x" and is_derived(difference)
    assert [v.value if v else None for v in difference.values] == [None, None, 4.0, 1.0, 2.0]
    assert [line for line, _ in sg103(markdown)] == [7]


def test_metric_rows_of_two_units_take_no_unit_from_the_heading():
    # the heading's ms is the first row's unit only: the column holding tokens/s too is given none
    (parsed,) = parse_document("## Serving (ms)\n\n" + _metric_rows(True, "+28.0%", "1.50x").split("\n\n")[0] + "\n",
                               "t.md").tables
    assert series(parsed, "fp16").unit is None and series(parsed, "change").unit == "%"
    # every row in ms: the column's unit, as before
    one_unit = table("| Metric | fp16 | int8 |\n|---|---|---|\n| Decode step | 24.0 ms | 18.0 ms |\n| Prefill | 310 ms | 250 ms |\n")
    assert series(one_unit, "fp16").unit == "ms"


# Eight rows that each print one unit, whose changes follow from their cells: enough for the column's layout to hold
# beside four rows more (two thirds of the rows fit it), so a row it does not fit is reported
_ONE_UNIT_ROWS = ("| Metric | Before | After | Change |\n|---|---|---|---|\n| Decode step | 24.0 ms | 18.0 ms | -25.0% |\n"
                  "| Output rate | 1,250 tok/s | 1,600 tokens/s | +28.0% |\n| Request rate | 12.1 req/s | 13.4 req/s | +10.7% |\n"
                  "| Prefill | 310 ms | 250 ms | -19.4% |\n| KV blocks | 5.0 GB | 5.5 GB | +10.0% |\n"
                  "| Serving | 950 QPS | 1010 QPS | +6.3% |\n| Sampler | 18.2 it/s | 19.9 it/s | +9.3% |\n"
                  "| Training | 310 samples/s | 331 samples/s | +6.8% |\n")


def _units_of_one_dimension(memory: str, load: str) -> str:
    """:data:`_ONE_UNIT_ROWS` and four rows (lines 11 to 14) whose Before
    and After cells print two units of one dimension: 20480 MB -> 21.5 GB
    is 20.48 -> 21.5 GB, +5.0%; 900 MB/s -> 1.2 GB/s +33.3%; 20480 MiB ->
    21.5 GiB is 20 -> 21.5 GiB, +7.5%; 1.50 s -> 1200 ms -20.0%; ``memory``
    and ``load`` are the printed changes of the first and the last."""
    return (_ONE_UNIT_ROWS + f"| Peak memory | 20480 MB | 21.5 GB | {memory} |\n| Copy rate | 900 MB/s | 1.2 GB/s | +33.3% |\n"
            f"| KV cache | 20480 MiB | 21.5 GiB | +7.5% |\n| Load time | 1.50 s | 1200 ms | {load} |\n")


def test_a_row_printing_two_units_of_one_dimension_is_compared_in_one_unit():
    # before, 21.5 against 20480 gave -99.9% on the MB, MB/s and MiB rows, (1200 - 1.50) / 1.50 on the s row
    assert sg103(_units_of_one_dimension("+5.0%", "-20.0%")) == []


def test_a_wrong_change_on_a_row_of_two_units_is_reported_in_the_units_printed():
    findings = sg103(_units_of_one_dimension("+6.0%", "-25.0%"))
    assert [line for line, _ in findings] == [11, 14]
    assert "row 'Peak memory': 'Change' is +6.0% but 'After' and 'Before' give (21.5 GB - 20480 MB) / 20480 MB = 5.0%" \
        in findings[0][1]
    assert "row 'Load time': 'Change' is -25.0% but 'After' and 'Before' give (1200 ms - 1.50 s) / 1.50 s = -20.0%" \
        in findings[1][1]


def test_binary_sizes_convert_by_1024_and_not_into_decimal_ones():
    # 20480 MiB -> 21.5 GiB is +7.5%, not the +5.0% of 20480 MB -> 21.5 GB
    markdown = _units_of_one_dimension("+5.0%", "-20.0%").replace("| +7.5% |", "| +5.0% |")
    assert [line for line, _ in sg103(markdown)] == [13]
    # 1000 MB against 1.0 GiB (1073.7 MB): units neither a power of ten nor of 1024 apart form no change, right or
    # wrong; (1.0 - 1000) / 1000 = -99.9% was reported before
    assert sg103(_ONE_UNIT_ROWS + "| Swap | 1000 MB | 1.0 GiB | +7.4% |\n") == []


def test_cells_of_units_that_do_not_convert_form_no_change():
    # 812.4 ms against 430.2 tok/s on one row: no change is computed from them (-47.0% was, before)
    assert sg103(_ONE_UNIT_ROWS + "| Mixed | 812.4 ms | 430.2 tok/s | +5.0% |\n") == []
    # the same row in one unit is checked: (430.2 - 812.4) / 812.4 = -47.0%
    assert [line for line, _ in sg103(_ONE_UNIT_ROWS + "| Mixed | 812.4 ms | 430.2 ms | +5.0% |\n")] == [11]


def _speedups(forward: str) -> str:
    """Times of two units on a row: 1230 / 410 = 3.00x, 300 / 200 = 1.50x
    (``forward`` printed), 900 / 450 = 2.00x."""
    return ("| Metric | Eager | Compiled | Speedup |\n|---|---|---|---|\n| Step time | 1.23 s | 410 ms | 3.00x |\n"
            f"| Forward time | 300 ms | 0.20 s | {forward} |\n| Backward time | 900 ms | 450 ms | 2.00x |\n")


def test_a_speedup_of_times_in_two_units_is_computed_in_one():
    assert sg103(_speedups("1.50x")) == []
    ((line, message),) = sg103(_speedups("1.40x"))
    assert line == 4 and "'Eager' and 'Compiled' give 300 ms / 0.20 s = 1.50x" in message


def test_in_one_unit_expresses_both_figures_in_the_larger_unit():
    megabytes, gigabytes = (f for f in figures_of("20480 MB against 21.5 GB"))
    a, b = in_one_unit(megabytes, gigabytes)
    # 20480 MB is 20.480 GB: three more decimals, so its rounding allowance stays 0.5 MB
    assert (a.value, a.decimals, a.unit, a.text) == (20.48, 3, "GB", "20480 MB")
    assert (b.value, b.decimals, b.unit, b.text) == (21.5, 1, "GB", "21.5 GB")
    mebibytes, gibibytes = figures_of("20480 MiB against 21.5 GiB")
    assert [(f.value, f.decimals, f.unit) for f in in_one_unit(gibibytes, mebibytes)] == [(21.5, 1, "GiB"), (20.0, 3, "GiB")]
    assert in_one_unit(*figures_of("812.4 ms against 430.2 tok/s")) is None
    assert in_one_unit(*figures_of("1000 MB against 1.0 GiB")) is None
    same = figures_of("1,250 tok/s against 1,600 tokens/s")
    assert in_one_unit(*same) == tuple(same)
