"""SG103 reads a cell that prints its own change beside its figure
(studygen.lint.cell_changes): "16.0 s (−35%)" in a column of stage totals
whose first row is 40.0 s and whose row above is 20.0 s gives neither
(16.0 - 40.0) / 40.0 = -60% nor (16.0 - 20.0) / 20.0 = -20%. A change
against the first row, the row above or a figure of the same row in another
column of its unit is clean; a cell with no such figure in its table is left
unread. Figures of our own, worked by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

_STAGES = """# Stages

| Stage | Total | Note |
| ----- | ----- | ---- |
| Start | 40.0 s | first build |
| + Cache | 20.0 s | warm cache |
| + Fusion | {cell} | two folds |

"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_a_change_no_figure_of_the_table_gives_is_reported():
    assert _sg103(_STAGES.format(cell="16.0 s (−35%)")) == [(
        7, "'16.0 s (−35%)' in 'Total' prints a -35% change that no figure of the table gives: the first row gives "
           "(16.0 - 40.0) / 40.0 = -60%; the row above gives (16.0 - 20.0) / 20.0 = -20%")]


@pytest.mark.parametrize("cell", [
    "16.0 s (−20%)",  # against the row above
    "16.0 s (−60%)",  # against the first row
    "16.0 s (-25%)",  # (16.0 - 20.0) / 16.0, against the new figure
    "16.0 s (+20%)",  # a reduction printed without its sign's direction
    "16.0 s (−19.9%)",  # inside the printed digits: 15.95 / 20.05 - 1 = -20.4%, 16.05 / 19.95 - 1 = -19.5%
])
def test_a_change_a_figure_of_the_table_gives_is_clean(cell):
    assert _sg103(_STAGES.format(cell=cell)) == []


def test_a_change_against_another_column_of_the_row():
    table = """# Memory

| Model | FP32 | INT8 |
| ----- | ---- | ---- |
| m-1 | 12.0 GB | {cell} |

"""
    assert _sg103(table.format(cell="3.0 GB (−75%)")) == []
    assert _sg103(table.format(cell="3.0 GB (−70%)")) == [(
        5, "'3.0 GB (−70%)' in 'INT8' prints a -70% change that no figure of the table gives: 'FP32' gives "
           "(3.0 - 12.0) / 12.0 = -75%")]


@pytest.mark.parametrize("text", [
    # no figure above it and none beside it: the reference is outside the table
    "| Model | Latency |\n| --- | --- |\n| m-1 | 5.0 ms (−10%) |\n| m-2 | 6.0 ms |\n",
    # a unit no figure above shares
    "| Model | Size |\n| --- | --- |\n| m-1 | 900 MB |\n| m-2 | 2.0 GB (+50%) |\n",
    # more than a signed percentage in the parenthesis: a remark, not a change
    "| Stage | Total |\n| --- | --- |\n| a | 40.0 s |\n| b | 16.0 s (−35% vs paper) |\n",
])
def test_a_cell_with_no_reference_in_its_table_is_not_read(text):
    assert _sg103(text) == []


def test_a_ratio_printed_with_its_own_change_is_clean():
    table = "| Kernel | vs FP16 |\n| --- | --- |\n| a | 0.80x |\n| b | {cell} |\n"
    assert _sg103(table.format(cell="0.64x (−36%)")) == []  # 0.64 - 1
    assert _sg103(table.format(cell="0.64x (−30%)")) == [(
        4, "'0.64x (−30%)' in 'vs FP16' prints a -30% change that no figure of the table gives: the ratio itself "
           "gives (0.64 - 1) / 1 = -36%; the first row gives (0.64 - 0.80) / 0.80 = -20%")]


def test_a_unit_the_header_states_joins_cells_that_print_none():
    # the plain cells print no unit, the header says seconds: the change cell's "s" is theirs
    table = "| Stage | Total (s) |\n| --- | --- |\n| a | 40.0 |\n| b | 20.0 |\n| c | {cell} |\n"
    assert _sg103(table.format(cell="16.0 s (−20%)")) == []
    assert _sg103(table.format(cell="16.0 s (−35%)")) == [(
        5, "'16.0 s (−35%)' in 'Total (s)' prints a -35% change that no figure of the table gives: the first row "
           "gives (16.0 - 40.0) / 40.0 = -60%; the row above gives (16.0 - 20.0) / 20.0 = -20%")]


def test_the_first_row_stays_the_first_as_rows_go_down():
    table = "| Stage | Total |\n| --- | --- |\n| a | 50.0 s |\n| b | 40.0 s |\n| c | 20.0 s |\n| d | {cell} |\n"
    assert _sg103(table.format(cell="16.0 s (−68%)")) == []  # (16.0 - 50.0) / 50.0, against row a
    assert _sg103(table.format(cell="16.0 s (−60%)")) == [(
        6, "'16.0 s (−60%)' in 'Total' prints a -60% change that no figure of the table gives: the first row gives "
           "(16.0 - 50.0) / 50.0 = -68%; the row above gives (16.0 - 20.0) / 20.0 = -20%")]


def test_a_table_without_change_cells_does_not_end_the_reading():
    first = "| Model | Share |\n| --- | --- |\n| a | 30% |\n| b | 70% |\n\n"
    second = "| Stage | Total |\n| --- | --- |\n| a | 40.0 s |\n| b | 16.0 s (−35%) |\n"
    assert [line for line, _ in _sg103(first + second)] == [9]


def test_a_percentage_printed_with_a_change_is_not_read():
    # points or percent: "40% (+5%)" does not say which, and a change of a share is not read
    assert _sg103("| Model | Share |\n| --- | --- |\n| a | 20% |\n| b | 40% (+5%) |\n") == []


def _wide_row(values: list[float], changes: list[str]) -> str:
    header = "| Model | " + " | ".join(f"c{i}" for i in range(len(values))) + " |\n"
    rule = "| --- | " + " | ".join("---" for _ in values) + " |\n"
    cells = " | ".join(f"{v:.2f} ms ({c}%)" for v, c in zip(values, changes))
    return "# Wide\n\n" + header + rule + "| m | " + cells + " |\n"


def test_a_wide_row_tests_each_change_against_the_figures_near_it(monkeypatch):
    # 300 columns of one row, 1.00 to 3.99 ms, each printing +1.0%: only the next column's figure (1% larger
    # or smaller, 0.01 ms apart) is near enough to give it. Before the row index each cell tested every other
    # column: 300 * 299 tests (a 1,000-column row: 42 s CPU; 4,000 columns ran past 10 minutes).
    import studygen.lint.cell_changes as cell_changes

    calls = []
    real = cell_changes._gives
    monkeypatch.setattr(cell_changes, "_gives", lambda *args: calls.append(1) or real(*args))
    values = [1.0 + i / 100 for i in range(300)]
    lint_text(_wide_row(values, ["+1.0"] * 300), "x.md")
    assert len(calls) < 300 * 10


@pytest.mark.parametrize("seed", range(40))
def test_the_row_index_finds_what_testing_every_column_finds(monkeypatch, seed):
    # findings with the index equal those of testing every column (candidates None), on rows of figures below,
    # at and above zero and changes up to and beyond +-100%
    import random

    import studygen.lint.cell_changes as cell_changes

    rng = random.Random(seed)
    count = rng.randrange(2, 12)
    values = [rng.choice([0.0, -1.0, 2.0, rng.uniform(-5, 50)]) for _ in range(count)]
    changes = [rng.choice(["+", "-"]) + rng.choice(["0.0", "100", "99.5", "50", f"{rng.uniform(0, 300):.1f}"])
               for _ in range(count)]
    text = _wide_row(values, changes)
    indexed = _sg103(text)
    monkeypatch.setattr(cell_changes._RowIndex, "candidates", lambda *args: None)
    assert indexed == _sg103(text)


def test_a_finding_names_at_most_eight_figures_and_counts_the_rest():
    # 30 columns of 1.00 to 40.73 ms each printing +0.1%, which no other column gives: each finding printed all 29
    # other columns (at 2,000 columns, 100 KB a finding and 50 MB in all)
    values = [1 + i * 1.37 for i in range(30)]
    found = _sg103(_wide_row(values, ["+0.1"] * 30))
    assert len(found) == 30
    assert found[0][1] == (
        "'1.00 ms (+0.1%)' in 'c0' prints a +0.1% change that no figure of the table gives: "
        + "; ".join(f"'c{i}' gives (1.00 - {values[i]:.2f}) / {values[i]:.2f} = {(1 - values[i]) / values[i] * 100:.1f}%"
                    for i in range(1, 9))
        + "; and 21 other columns of the row")
