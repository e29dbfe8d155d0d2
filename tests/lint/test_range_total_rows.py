"""SG101: a table's total row (labelled total, all, sum or overall) sums its other rows and is none of them, so a
range over the column's rows leaves it out by meaning: the finding names only the member rows a range leaves out,
and its hint widens to them. Case: session 30's new user wrote "across the groups, layer time ranges from 0.02541 to
0.3799 ms" over a kernel-group table with a total row (an AlexNet fp16 TensorRT profile) and was told the range left
out the total and to widen it to a range reaching the total, which no group spans. Documents of our own words and
figures."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = ("## Layer time\n\n| Layer group | Time per iteration (ms) |\n| --- | --- |\n| Conv | 0.2210 |\n"
         "| GEMM | 0.6130 |\n| pooling | 0.0074 |\n| reformat | 0.0415 |\n| {total} | 0.8829 |\n\n")


def _sg101(paragraph: str, total: str = "total"):
    return [(f.message, f.hint) for f in lint_text(TABLE.format(total=total) + paragraph + "\n", "t.md")
            if f.code == "SG101"]


@pytest.mark.parametrize("total", ["total", "Total", "Sum", "overall", "all"])
def test_a_range_over_the_members_does_not_need_the_total(total):
    assert _sg101("Across the groups, layer time ranges from 0.0074 to 0.6130 ms.", total) == []


def test_a_member_left_out_is_named_and_the_hint_widens_to_the_members_only():
    (found,) = _sg101("Across the groups, layer time ranges from 0.0415 to 0.6130 ms.")
    assert found[0] == ("range 0.0415 to 0.6130 ms leaves out row 'pooling' (0.0074 ms) of 'Time per iteration (ms)' "
                        "in the table at line 3")
    assert found[1].startswith("widen the range to 0.0074 to 0.6130 ms to cover every row")


def test_a_row_of_another_label_is_still_a_member():
    # a row labelled 'rest' is a group of its own, not the sum: left out, it is named
    (found,) = _sg101("Across the groups, layer time ranges from 0.0074 to 0.6130 ms.", "rest")
    assert "leaves out row 'rest' (0.8829 ms)" in found[0]
