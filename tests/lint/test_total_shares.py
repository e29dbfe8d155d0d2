"""SG103 and a prose share of a table's total row, its operands left in the
table (studygen.lint.total_shares).

A trial README said a kernel took a fifth of the kernel time, beside a
profile table whose total row gave it about 15 %; the same claim with both
figures in the sentence was reported, the claim without them was not. Our
own profile below: GEMM 46.11 of 303.3 ms is 15.20 % (15.199 to 15.207 within
the printed digits); the four kernels sum to 303.30 ms, the call counts to
2160.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

PROFILE = """# Decoder profile

## Kernel time

| Kernel | Kernel time (ms) | Calls |
|---|---:|---:|
| GEMM | 46.11 | 480 |
| attention | 121.70 | 240 |
| layernorm | 35.40 | 480 |
| other | 100.09 | 960 |
| total | 303.3 | 2160 |

{sentence}
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_share_of_the_total_row_that_the_table_does_not_give_is_reported():
    assert _sg103(PROFILE.format(sentence="GEMM is 20 % of the kernel time.")) == [
        (13, "20% does not follow from the 'GEMM' row (46.11 ms) over the 'total' row (303.3 ms) of "
             "'Kernel time (ms)' in the table at line 5: 46.11 / 303.3 = 15%")]


def test_count_column_named_by_its_header_is_read():
    found = _sg103(PROFILE.format(sentence="GEMM makes 30% of the calls."))
    assert found == [(13, "30% does not follow from the 'GEMM' row (480) over the 'total' row (2160) of 'Calls' "
                          "in the table at line 5: 480 / 2160 = 22%")]


@pytest.mark.parametrize("sentence", [
    "GEMM is 15 % of the kernel time.",
    "GEMM is 15.2% of the kernel time.",
    "GEMM makes 22% of the calls.",
])
def test_share_the_rows_give_is_quiet(sentence):
    assert _sg103(PROFILE.format(sentence=sentence)) == []


@pytest.mark.parametrize("sentence", [
    "GEMM is about 20 % of the kernel time.",  # hedged
    "GEMM is not 20 % of the kernel time.",  # denied
    "Fusing GEMM saves 20% of the kernel time.",  # a saving, not the row's share
    "GEMM is 20% of the total.",  # two columns sum to their total row: which one?
    "GEMM on 2 GPUs is 20% of the kernel time.",  # another figure in the clause: another run
    "GEMM is 20% of its budget.",  # no column named
])
def test_share_not_read(sentence):
    assert _sg103(PROFILE.format(sentence=sentence)) == []


def test_total_of_one_summed_column_is_read_for_the_total():
    text = PROFILE.format(sentence="GEMM is 20% of the total.").replace("| 2160 |", "| 2500 |")
    assert [line for line, _ in _sg103(text)] == [13]


def test_total_row_that_is_not_the_columns_sum_is_not_read():
    # the 'other' row gone, the total covers kernels the table does not list
    text = PROFILE.format(sentence="GEMM is 20 % of the kernel time.").replace("| other | 100.09 | 960 |\n", "")
    assert _sg103(text) == []


def test_share_printed_beside_its_figures_is_reported_once():
    found = _sg103(PROFILE.format(sentence="GEMM takes 46.11 of 303.3 ms, 20% of the kernel time."))
    assert [message.split(":")[0] for _, message in found] == ["20% does not follow from 46.11 and 303.3 ms"]
