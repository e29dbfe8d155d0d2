"""The indexes a bound stated for every row reads a table through
(studygen.lint.bound_indexes): each query gives the rows a row-by-row reading
gives, on tables of figures printed at mixed digits, with exact small counts,
zeros and negatives, and at bounds right at a cell's edge."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from studygen.lint import lint_text
from studygen.lint.bound_indexes import MAX_SHOWN, BoundIndex, GapIndex
from studygen.lint.parse import parse_document
from studygen.lint.rounding import stands_for

# a cell as printed: a whole number 0 to 4 (read exactly), or a figure with 0 to 3 decimals, some below 0
_CELLS = st.one_of(
    st.integers(min_value=0, max_value=4).map(str),
    st.just(""),  # an empty cell
    st.tuples(st.integers(min_value=-300, max_value=30000), st.integers(min_value=0, max_value=3)).map(
        lambda pair: f"{pair[0] / 10 ** pair[1]:.{pair[1]}f}"),
)


def _table(first: list[str], second: list[str]) -> str:
    rows = "".join(f"| r{i} | {a} | {b} |\n" for i, (a, b) in enumerate(zip(first, second)))
    return "| Row | fp16 (ms) | int8 (ms) |\n|---|---|---|\n" + rows


def _series(first: list[str], second: list[str]):
    table = parse_document(_table(first, second), "t.md").tables[0]
    columns = {s.column: s for s in table.series}
    return table, columns.get(1), columns.get(2)  # None for a column of empty cells (no series)


def _expected(rows_in_order: list[int]) -> tuple[list[int], int]:
    return rows_in_order[:MAX_SHOWN], len(rows_in_order)


def _unit_gap(value, reference):
    return max(0.0, value.lo - reference.hi, reference.lo - value.hi)


def _percent_gap(value, reference):
    if reference.hi <= 0 or value.hi <= 0:
        return None
    gap = max(0.0, value.lo - reference.hi, reference.lo - value.hi)
    return 100.0 * min(gap / reference.hi, gap / value.hi)


@given(cells=st.lists(_CELLS, min_size=1, max_size=25), base_row=st.integers(min_value=0, max_value=24),
       limit=st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.5, 10.0, 99.0, 100.0, 150.0]),
                       st.floats(min_value=0, max_value=200, allow_nan=False)),
       percent=st.booleans())
def test_within_a_reference_row_gives_the_rows_a_row_by_row_reading_gives(cells, base_row, limit, percent):
    table, fp16, _ = _series(cells, cells)
    assume(fp16 is not None)
    rows = list(range(len(table.rows)))
    assume(fp16.values[base_row % len(rows)] is not None)  # the caller reads no bound against an empty cell
    base = stands_for(fp16.values[base_row % len(rows)])
    if percent and base.hi <= 0:
        return  # the caller reads no relative difference from such a reference
    gap = _percent_gap if percent else _unit_gap

    def breaks(interval):
        amount = gap(interval, base)
        return amount is not None and amount > limit

    index = BoundIndex(fp16, rows, positive=percent)
    assert index.within_broken(base, limit, percent, breaks) == _one_by_one(fp16, breaks, positive=percent)


@given(first=st.lists(_CELLS, min_size=1, max_size=25), second=st.lists(_CELLS, min_size=25, max_size=25),
       limit=st.floats(min_value=-5, max_value=200, allow_nan=False), percent=st.booleans())
def test_gap_against_another_column_gives_the_rows_a_row_by_row_reading_gives(first, second, limit, percent):
    table, fp16, int8 = _series(first, second[:len(first)])
    assume(fp16 is not None and int8 is not None)
    rows = list(range(len(table.rows)))
    gap = _percent_gap if percent else _unit_gap
    index = GapIndex(int8, fp16, rows, gap)
    one_by_one = [row for row in rows if int8.values[row] is not None and fp16.values[row] is not None
                  and (amount := gap(stands_for(int8.values[row]), stands_for(fp16.values[row]))) is not None
                  and amount > limit]
    assert index.broken(limit) == _expected(one_by_one)


def test_cells_at_a_bound_s_edge_break_only_beyond_it():
    # reference 10.0 (9.95 to 10.05); "within 5%": a cell breaks above when its low end minus 10.05 exceeds 5 % of
    # its high end: 10.6 (10.55 to 10.65) gives 0.50 / 10.65 = 4.7 %, no; 10.65 (10.645 to 10.655) 0.595 / 10.655 =
    # 5.58 %, yes; 10.61 at two decimals 0.555 / 10.615 = 5.23 %, yes; below when 9.95 - its high end exceeds 5 % of
    # 10.05 (0.5025): 9.4 (high 9.45) gives 0.50, no; 9.44 (high 9.445) 0.505, yes. Low ends between 10.05 / 0.95 =
    # 10.5789 and (10.05 + 2 x 0.05 x 0.05) / 0.95 = 10.5842 (the column's widest half interval is 0.05) may break
    # or not, and are tested one by one: 10.580 (0.5295 / 10.5805 = 5.0045 %) breaks, 10.579 (4.9955 %) does not
    table, fp16, _ = _series(["10.0", "10.6", "10.65", "10.61", "9.4", "9.44", "10.579", "10.580"], ["1"] * 8)
    base = stands_for(fp16.values[0])
    tested = []

    def breaks(interval):
        tested.append(interval)
        return _percent_gap(interval, base) > 5.0

    index = BoundIndex(fp16, list(range(8)), positive=True)
    assert index.within_broken(base, 5.0, True, breaks) == ([2, 3, 5], 4)
    assert [round(interval.lo, 4) for interval in tested] == [10.5795]  # the certain ones are counted untested


def test_every_row_within_a_reference_row_names_the_first_three_breaking_rows_and_counts_them():
    # 40 engines at 10.00 to 10.39 ms; engine 20 is 10.20 ms (10.195 to 10.205). "1%" stands for up to 1.5 %: a row
    # above breaks when its low end minus 10.205 exceeds 1.5 % of its high end, v - 0.005 - 10.205 > 0.015 (v +
    # 0.005), v > 10.366: 10.37 to 10.39 (3 rows); one below when its high end lies under 10.195 - 0.015 x 10.205 =
    # 10.0419, v <= 10.03 (4 rows); the first three in table order are engines 0, 1 and 2, then 4 more
    rows = "".join(f"| engine{i} | {10 + i / 100:.2f} |\n" for i in range(40))
    text = f"| Engine | Latency (ms) |\n|---|---|\n{rows}\nEvery engine is within 1% of engine20.\n"
    found = [(f.line, f.message) for f in lint_text(text, "e.md") if f.code == "SG101"]
    assert found == [(44, "'within 1% of engine20' is claimed for every row but 'engine0' (10.00 ms against 10.20 ms: "
                          "2.0%), 'engine1' (10.01 ms against 10.20 ms: 1.9%), 'engine2' (10.02 ms against 10.20 ms: 1.8%)"
                          " and 4 more in the table at line 1")]


def test_every_row_within_a_reference_row_in_the_unit():
    # "0.05 ms" stands for up to 0.055 ms; engine5 is 10.05 (10.045 to 10.055): 10.11 (low 10.105) lies 0.05 beyond,
    # no; 10.12 (low 10.115) 0.06 beyond and 10.20 0.14: they break; below, 9.98 (high 9.985) lies 0.06 under: breaks
    rows = "".join(f"| engine{i} | {value} |\n" for i, value in enumerate(
        ["9.98", "10.00", "10.03", "10.05", "10.08", "10.05", "10.11", "10.12", "10.20"]))
    text = f"| Engine | Latency (ms) |\n|---|---|\n{rows}\nEvery engine is within 0.05 ms of engine5.\n"
    found = [f.message for f in lint_text(text, "e.md") if f.code == "SG101"]
    assert found == ["'within 0.05 ms of engine5' is claimed for every row but 'engine0' (9.98 ms against 10.05 ms: "
                     "0.07 ms), 'engine7' (10.12 ms against 10.05 ms: 0.07 ms), 'engine8' (10.20 ms against 10.05 ms: "
                     "0.15 ms) in the table at line 1"]


def test_a_column_within_another_counts_every_breaking_row():
    # int8 against fp16 row by row, "within 2%" (up to 2.5 %), each cell standing for +-0.05 ms: m1 0.40 ms apart at
    # the least, 3.8 % of 10.55; m3 0.40 of 12.85, 3.1 %; m4 1.10 of 13.25, 8.3 %: they break; m6 (16.5 against
    # 17.0) 0.40 of 17.05, 2.35 %, and m5 1.3 % do not; m0 and m2 meet. The message gives each row's difference
    # from its fp16 figure as printed (0.5 of 10.5: 4.8 %)
    fp16 = ["10.0", "10.5", "11.0", "12.8", "13.2", "15.0", "17.0"]
    int8 = ["9.9", "10.0", "11.0", "12.3", "12.0", "14.7", "16.5"]
    rows = "".join(f"| m{i} | {a} | {b} |\n" for i, (a, b) in enumerate(zip(fp16, int8)))
    text = f"| Model | fp16 (ms) | int8 (ms) |\n|---|---|---|\n{rows}\nEvery model runs int8 within 2% of fp16.\n"
    found = [f.message for f in lint_text(text, "m.md") if f.code == "SG101"]
    assert found == ["'within 2% of fp16 (ms)' is claimed for every row but 'm1' in 'int8 (ms)' (10.0 ms against "
                     "10.5 ms: 4.8%), 'm3' in 'int8 (ms)' (12.3 ms against 12.8 ms: 3.9%), 'm4' in 'int8 (ms)' (12.0 ms "
                     "against 13.2 ms: 9.1%) in the table at line 1"]


def test_differences_between_two_columns_with_a_figure_of_zero_against_a_negative_one_are_reported():
    # the 0.0 cell stands for -0.05 to 0.05, so a relative difference is read; the larger figure (0.0) is not above
    # 0, so the message gives the distance in the unit (this raised ZeroDivisionError before)
    text = ("| Model | onnx (ms) | openvino (ms) |\n|---|---:|---:|\n| small | 0.0 | -5.0 |\n| medium | 5.52 | 5.53 |\n\n"
            "The differences between onnx and openvino stay below 3%.\n")
    found = [f.message for f in lint_text(text, "z.md") if f.code == "SG101"]
    assert found == ["differences under 3% between 'onnx (ms)' and 'openvino (ms)' are claimed but 'small' (0.0 against "
                     "-5.0: 5.0 apart) in the table at line 1"]


def _breaks_by(gap, base, limit):
    def breaks(interval):
        amount = gap(interval, base)
        return amount is not None and amount > limit
    return breaks


def _one_by_one(series, breaks, positive=False):
    return _expected([row for row, value in enumerate(series.values) if value is not None
                      and (not positive or stands_for(value).hi > 0) and breaks(stands_for(value))])


def test_cells_a_hair_beyond_a_bound_in_the_unit_are_counted():
    # reference 10.0 (up to 10.05), "within 0.1" read as up to 0.15: a cell whose low end lies 1e-11 above 10.2 breaks
    # (its gap, 0.15000000001, exceeds 0.15), one 1e-11 under 9.8 at its high end too; 10.2 itself and 9.8 do not.
    # Printed to 12 decimals, each cell stands for +-5e-13
    cells = ["10.0", "10.2", "9.8", f"{10.2 + 1e-11 + 5e-13:.12f}", f"{9.8 - 1e-11 - 5e-13:.12f}"]
    table, fp16, _ = _series(cells, ["1"] * len(cells))
    base = stands_for(fp16.values[0])
    breaks = _breaks_by(_unit_gap, base, 0.15)
    index = BoundIndex(fp16, list(range(len(cells))))
    assert index.within_broken(base, 0.15, False, breaks) == ([3, 4], 2) == _one_by_one(fp16, breaks)


def test_cells_a_hair_beyond_a_relative_bound_are_counted():
    # reference 10.0 (up to 10.05, from 9.95), "within 5%" read as up to 5.5 %: above, a cell breaks when its low end
    # exceeds 10.05 / 0.945 = 10.6349 by more than 5.5 % of its own half width (here 5e-13); below, when its high end
    # lies under 9.95 - 0.055 x 10.05 = 9.39725. Cells 2e-10 beyond each end break, cells 2e-10 short of them do not
    above, below = 10.05 / (1 - 0.055), 9.95 - 0.055 * 10.05
    cells = ["10.0", f"{above + 2e-10:.12f}", f"{above - 2e-10:.12f}", f"{below - 2e-10:.12f}", f"{below + 2e-10:.12f}"]
    table, fp16, _ = _series(cells, ["1"] * len(cells))
    base = stands_for(fp16.values[0])
    breaks = _breaks_by(_percent_gap, base, 5.5)
    index = BoundIndex(fp16, list(range(len(cells))), positive=True)
    assert index.widest_half == pytest.approx(0.05)  # the 10.0 cell's: the certain end lies 2 x 0.055 x 0.05 / 0.945 beyond
    assert index.within_broken(base, 5.5, True, breaks) == ([1, 3], 2) == _one_by_one(fp16, breaks, positive=True)


def test_a_bound_side_that_nothing_breaks_shows_no_rows():
    # upper bound 12: nothing lies above; lower bound 9: rows 1 and 2 lie under. The side without a count gives no rows
    table, fp16, _ = _series(["10.0", "8.0", "7.5", "11.0"], ["1"] * 4)
    index = BoundIndex(fp16, list(range(4)))
    assert index.broken(12.0, True) == ([], 0)
    assert index.broken(9.0, False) == ([1, 2], 2)
    assert index.broken(0.0, False) == ([], 0)
    assert index.broken(10.5, True) == ([3], 1)


def test_a_figure_at_or_below_zero_is_no_row_of_a_relative_bound():
    # "within 5%" of 10.0: -2.0 and 0.0 (standing for -0.05 to 0.05, so its high end is above 0: read, and 0.05 lies
    # 99 % under 9.95) give no relative difference at -2.0; 0.0 breaks, as does 12.0 (1.95 / 12.05 = 16 %)
    rows = "".join(f"| e{i} | {value} |\n" for i, value in enumerate(["10.0", "-2.0", "0.0", "10.2", "12.0"]))
    text = f"| Engine | Latency (ms) |\n|---|---|\n{rows}\nEvery engine is within 5% of e0.\n"
    assert [f.message for f in lint_text(text, "n.md") if f.code == "SG101"] == [
        "'within 5% of e0' is claimed for every row but 'e2' (0.0 ms against 10.0 ms: 100.0%), 'e4' (12.0 ms against "
        "10.0 ms: 20.0%) in the table at line 1"]


def test_two_columns_within_a_third_are_each_read_against_it():
    # fp16 is the reference; int8 breaks "within 3%" (up to 3.5 %) at m1 (8.0 against 9.0: 0.9 of 9.05 at the least,
    # 9.9 %), bf16 at m0 (10.6 against 10.0: 0.5 of 10.65, 4.7 %); an empty int8 cell is no row
    text = ("| Model | fp16 (ms) | int8 (ms) | bf16 (ms) |\n|---|---|---|---|\n| m0 | 10.0 | 9.9 | 10.6 |\n"
            "| m1 | 9.0 | 8.0 | 9.1 |\n| m2 | 5.0 |  | 5.0 |\n\nEvery model runs int8 and bf16 within 3% of fp16.\n")
    assert [f.message for f in lint_text(text, "c.md") if f.code == "SG101"] == [
        "'within 3% of fp16 (ms)' is claimed for every row but 'm1' in 'int8 (ms)' (8.0 ms against 9.0 ms: 11.1%), "
        "'m0' in 'bf16 (ms)' (10.6 ms against 10.0 ms: 6.0%) in the table at line 1"]


def test_an_index_of_no_cells_breaks_nothing():
    # a column whose only figure is in a row the bound does not read (rows=[]): no cell, no half width
    table, fp16, _ = _series(["10.0", "12.0"], ["1", "1"])
    index = BoundIndex(fp16, [])
    assert index.widest_half == 0.0
    assert index.broken(11.0, True) == ([], 0) and index.broken(11.0, False) == ([], 0)


def test_a_relative_bound_of_100_percent_or_more_breaks_only_below():
    # at 100 %, no cell above a positive reference can lie 100 % of its own figure beyond it; below, a cell breaks
    # when its high end lies under 9.95 - 1.0 x 10.05 < 0, which no positive cell does: nothing breaks at 100 or 150 %
    table, fp16, _ = _series(["10.0", "25.0", "1000.0", "0.5"], ["1"] * 4)
    base = stands_for(fp16.values[0])
    index = BoundIndex(fp16, list(range(4)), positive=True)
    for limit in (100.0, 150.0):
        breaks = _breaks_by(_percent_gap, base, limit)
        assert index.within_broken(base, limit, True, breaks) == ([], 0) == _one_by_one(fp16, breaks, positive=True)


def test_a_cell_a_hair_short_of_the_certain_end_is_tested_not_counted():
    # all cells at three decimals (half width 0.0005); reference 10.000 (up to 10.0005). A cell of the widest half
    # width breaks above exactly when its low end exceeds (10.0005 + 2 l 0.0005) / (1 - l): the bound l is chosen so
    # that this end lies 1e-11 above the 10.583 cell's low end (10.5825), which therefore does not break
    table, fp16, _ = _series(["10.000", "10.583", "11.000"], ["1"] * 3)
    base = stands_for(fp16.values[0])
    low_end = stands_for(fp16.values[1]).lo
    share = (low_end + 1e-11 - base.hi) / (2 * 0.0005 + low_end + 1e-11)
    breaks = _breaks_by(_percent_gap, base, 100 * share)
    assert not breaks(stands_for(fp16.values[1])) and breaks(stands_for(fp16.values[2]))
    index = BoundIndex(fp16, list(range(3)), positive=True)
    assert index.within_broken(base, 100 * share, True, breaks) == ([2], 1)


def test_an_absolute_bound_reads_figures_below_zero_too():
    # "every difference is above -1" over -2.5, -0.4 and 3.0: only -2.5 lies under (an index for a relative bound
    # would hold the positive cells only)
    table, fp16, _ = _series(["-2.5", "-0.4", "3.0"], ["1"] * 3)
    assert BoundIndex(fp16, list(range(3))).broken(-1.0, False) == ([0], 1)
    assert BoundIndex(fp16, list(range(3)), positive=True).broken(-1.0, False) == ([], 0)
