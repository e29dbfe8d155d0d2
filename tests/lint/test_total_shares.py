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


# The cases below hold the reading to each condition of the module docstring in turn.

@pytest.mark.parametrize("sentence, share", [
    ("GEMM is 0.4% of the kernel time.", "0.4"),  # a share under one percent is still a share
    ("At 224x224 GEMM is 25% of the kernel time.", "25"),  # a shape names the run, it is no figure of the clause
    ("Before fusion, GEMM is 25% of the kernel time.", "25"),  # a break before the clause ends it there
    ("After warm-up, attention leads, and GEMM is 25% of the kernel time.", "25"),  # the nearest break
    ("GEMM is 25% of the kernel time, by the profile below.", "25"),  # words after the figure are not its clause
    ("On 4 GPUs, GEMM is 25% of the kernel time.", "25"),  # the 4 belongs to the clause before the comma
    ("Fusing attention saves 10% of the kernel time, and GEMM is 25% of the kernel time.", "25"),
    ("GEMM is roughly 10% of the kernel time, and layernorm is 25% of the kernel time.", "25"),
])
def test_share_read_in_its_own_clause(sentence, share):
    found = _sg103(PROFILE.format(sentence=sentence))
    assert [(line, message.split(" does not")[0]) for line, message in found] == [(13, f"{share}%")]


@pytest.mark.parametrize("sentence", [
    "GEMM is 0% of the kernel time.",
    "GEMM is 100% of the kernel time.",
    "GEMM is 100.5% of the kernel time.",
    "GEMM is 46.11 ms of the kernel time (15 %).",  # not a percentage
    "GEMM is 10-25% of the kernel time.",  # a range's ends are SG101's
    "With 2 streams GEMM is 25% of the kernel time.",  # another figure before the row's name
    "The total is 25% of the kernel time.",  # the total row is no part of itself
])
def test_figure_not_read_as_a_share(sentence):
    assert _sg103(PROFILE.format(sentence=sentence)) == []


def test_share_wrapped_onto_the_next_line_is_reported_on_that_line():
    text = PROFILE.format(sentence="Of the four kernels in this decoder profile,\nGEMM is 25% of the kernel time.")
    assert [line for line, _ in _sg103(text)] == [14]


def test_paragraphs_without_a_share_or_a_total_table_do_not_stop_the_reading():
    text = ("# Decoder profile\n\nThe profile below was taken once.\n\n## Setup\n\nWarm-up took 5% of the runs.\n\n"
            + PROFILE.split("\n", 2)[2].format(sentence="GEMM is 25% of the kernel time."))
    assert [line for line, _ in _sg103(text)] == [19]


def test_table_of_two_kernels_and_their_total_is_read():
    text = ("| Kernel | Time (ms) |\n|---|---:|\n| GEMM | 30.0 |\n| attention | 70.0 |\n| total | 100.0 |\n\n"
            "GEMM is 40% of the time.\n")
    assert _sg103(text) == [(7, "40% does not follow from the 'GEMM' row (30.0 ms) over the 'total' row (100.0 ms) of "
                                "'Time (ms)' in the table at line 1: 30.0 / 100.0 = 30%")]


@pytest.mark.parametrize("table", [
    "| Kernel | Time (ms) |\n|---|---:|\n| GEMM | 30.0 |\n| total | 30.0 |\n",  # one row and its total
    "| Batch | Time (ms) |\n|---|---:|\n| 1 | 30.0 |\n| 2 | 70.0 |\n| 4 | 100.0 |\n",  # no label column
    # two total rows (groups): the first matches its column's sum, and is still not read
    "| Kernel | Time (ms) |\n|---|---:|\n| GEMM | 10.00 |\n| attention | 20.00 |\n| total | 40.00 |\n"
    "| total | 10.00 |\n",
])
def test_table_without_one_total_row_is_not_read(table):
    assert _sg103(table + "\nGEMM is 40% of the time.\n") == []


@pytest.mark.parametrize("old, new", [
    ("| 960 |", "| - |"),  # a call count missing: the calls column does not sum
    ("| 2160 |", "| - |"),  # no total of calls
])
def test_a_column_with_a_dash_is_no_summed_column(old, new):
    # with the calls column out, "the total" is the kernel time's
    text = PROFILE.format(sentence="GEMM is 20% of the total.").replace(old, new)
    assert [message.split(":")[0] for _, message in _sg103(text)] == [
        "20% does not follow from the 'GEMM' row (46.11 ms) over the 'total' row (303.3 ms) of 'Kernel time (ms)' "
        "in the table at line 5"]


def test_a_share_column_is_no_summed_column():
    # the shares sum to 100 on the total row; a column of percentages is not what a share is of
    text = PROFILE.format(sentence="GEMM is 20% of the total.").replace("| 2160 |", "| 2500 |")
    for row, share in (("Calls |", "Calls | Share (%) |"), ("---:|\n", "---:|---:|\n"), ("480 |\n| att", "480 | 15.2 |\n| att"),
                       ("240 |", "240 | 40.1 |"), ("480 |\n| other", "480 | 11.7 |\n| other"), ("960 |", "960 | 33.0 |"),
                       ("2500 |", "2500 | 100.0 |")):
        text = text.replace(row, share, 1)
    assert [line for line, _ in _sg103(text)] == [13]


@pytest.mark.parametrize("label, sentence", [
    ("layer 12", "Layer 12 is 40% of the time."),  # the 12 is the row's name
    ("8-bit GEMM", "8-bit GEMM is 40% of the time."),  # a name opening with its number
])
def test_number_inside_the_named_label_is_part_of_its_name(label, sentence):
    text = (f"| Kernel | Time (ms) |\n|---|---:|\n| {label} | 30.0 |\n| attention | 70.0 |\n| total | 100.0 |\n\n"
            f"{sentence}\n")
    assert [message.split(":")[0] for _, message in _sg103(text)] == [
        f"40% does not follow from the '{label}' row (30.0 ms) over the 'total' row (100.0 ms) of 'Time (ms)' in the "
        "table at line 1"]


def test_clause_reaches_back_a_thousand_characters_and_no_further():
    # the 7 stands 1,001 characters before the share: outside its clause, so the share is read
    from studygen.lint.text import CLAUSE_REACH

    filler = (" padding" * CLAUSE_REACH)[:CLAUSE_REACH + 1 - len("7 GEMM is ")]
    sentence = "Run 7" + filler + " GEMM is 25% of the kernel time."
    assert sentence.index("25%") - sentence.index("7") == CLAUSE_REACH + 1
    assert [line for line, _ in _sg103(PROFILE.format(sentence=sentence))] == [13]
