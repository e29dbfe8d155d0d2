"""Compiled cells over their compilations, differences by kernel group and host time, against
figures read by hand from the shipped H200 records (h200-compile.json, h200-eager.json).

h200-compile.json, compilations[*].median_ms: fp16 800x800 8.158928, 8.235888, 8.187952 (value 8.187952);
fp8 800x800 8.984336, 9.453008, 9.491168 (value 9.453008). Kernel time compilations[*].groups.GridSample:
fp16 800x800 6.365345, 6.381212, 6.376827 (median 6.376827); fp8 800x800 7.064081, 7.559491, 7.601028
(median 7.559491).
"""

from __future__ import annotations

import pytest

from .views import H200, printed, view_of


@pytest.fixture(scope="module")
def h200():
    return view_of(H200)


def test_compilation_table_gives_the_median_the_range_and_the_ratio_range(h200):
    text, (*_, entry) = printed(h200.compilation_table, "fp16", "fp8", mode="compile")
    lines = text.splitlines()
    assert [cell.strip() for cell in lines[0].split("|")[1:-1]] == [
        "Shape HxW", "fp16 ms", "FP8 recipe (72 linears) ms", "fp16 / FP8 recipe (72 linears)"]
    row = [cell.strip() for cell in lines[2].split("|")[1:-1]]
    # ratio 8.187952 / 9.453008 = 0.866; over every pair: 8.158928 / 9.491168 = 0.860, 8.235888 / 8.984336 = 0.917
    assert row == ["800 x 800", "8.188 (3 compilations: 8.159 to 8.236)", "9.453 (3 compilations: 8.984 to 9.491)",
                   "0.87x (0.86x to 0.92x)"]
    assert entry.kind == "table" and len(entry.rows) == 4


def test_attribution_sentence_names_the_groups_that_carry_the_difference(h200):
    text = h200.attribution_sentence("fp16", "fp8", mode="compile", shape="800x800")
    # 9.453008 - 8.187952 = 1.265056; GridSample 7.559491 - 6.376827 = 1.182664
    assert text.startswith("FP8 recipe (72 linears) minus fp16, by kernel group (mode compile, at 800 x 800 only): "
                           "at 800 x 800 +1.265 ms (GridSample +1.183 ms, ")
    assert "unattributed" in text


def test_attribution_table_splits_each_difference_and_the_spread_between_compilations(h200):
    text = h200.attribution_table("fp16", "fp8", mode="compile", shape="800x800")
    header = [cell.strip() for cell in text.splitlines()[0].split("|")[1:-1]]
    assert header[:4] == ["Shape HxW", "Difference", "Latency ms", "GridSample"] and header[-1] == "Unattributed ms"
    rows = {cells[1]: cells for cells in ([c.strip() for c in line.split("|")[1:-1]]
                                          for line in text.splitlines()[2:])}
    assert rows["FP8 recipe (72 linears) minus fp16"][2:4] == ["+1.265", "+1.183"]
    # FP8's slowest compilation (3, 9.491168) minus its fastest (1, 8.984336) = 0.506832;
    # GridSample 7.601028 - 7.064081 = 0.536947
    assert rows["FP8 recipe (72 linears): slowest minus fastest compilation"][2:4] == ["+0.507", "+0.537"]
    # fp16: compilation 2 (8.235888) minus 1 (8.158928) = 0.07696; GridSample 6.381212 - 6.365345 = 0.015867
    assert rows["fp16: slowest minus fastest compilation"][2:4] == ["+0.077", "+0.016"]


def test_compilation_count_and_host_table(h200):
    assert h200.compilation_count(kind="latency", mode="compile") == 3
    assert h200.compilation_count(kind="latency", mode="eager") == 1
    text = h200.host_table(kind="latency", mode="eager", variant="fp16", shape="800x800")
    # h200-eager.json /results/19: host_issue_ms_per_forward 38.600987, host_ms_per_forward 38.601407,
    # cv 0.218873, pinned_cores 8..15
    row = [cell.strip() for cell in text.splitlines()[2].split("|")[1:-1]]
    assert row == ["h200-eager", "eager", "800 x 800", "fp16", "39.037", "38.601", "38.601", "21.9%", "8-15"]
