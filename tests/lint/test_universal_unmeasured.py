"""SG107 on a universal comparison that no row measures: "int8 is faster
than fp16 on every board" over a table where each board ran only one of the
two. No row holds both figures, so nothing contradicts the claim, and before
this it passed as if every row bore it out. It is an unmeasured claim and is
reported as such; a table with one comparison (or a second table that has
them) is judged as before. Documents of our own."""

from __future__ import annotations

from studygen.lint import lint_text

# the Xavier and the Nano ran int8 only, the Orin fp16 only: not one board compares them
SPLIT_COLUMNS = """\
# Boards

| Board | fp16 (ms) | int8 (ms) |
|---|---:|---:|
| Xavier | — | 11.9 |
| Orin | 8.10 | — |
| Nano | — | 23.4 |

int8 is faster than fp16 on every board.
"""

# the same, with the precision written in a label column
SPLIT_ROWS = """\
# Boards

| Board | Precision | Latency (ms) |
|---|---|---:|
| Xavier | int8 | 11.9 |
| Orin | fp16 | 8.10 |
| Nano | int8 | 23.4 |

int8 is faster than fp16 on every board.
"""


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_columns_that_share_no_row_are_an_unmeasured_claim():
    ((line, message),) = _sg107(SPLIT_COLUMNS)
    assert line == 9
    assert message == ("'int8 is faster than fp16 on every board' compares nothing: no row of the table at line 3 "
                       "holds both 'int8 (ms)' and 'fp16 (ms)' (2 row(s) with 'int8 (ms)' only, "
                       "1 with 'fp16 (ms)' only)")


def test_variant_rows_that_pair_on_no_board_are_an_unmeasured_claim():
    ((line, message),) = _sg107(SPLIT_ROWS)
    assert line == 9
    assert message == ("'int8 is faster than fp16 on every board' compares nothing: the table at line 3 pairs no "
                       "'int8' row with a 'fp16' row of the same 'Board' in 'Latency (ms)'")


def test_one_row_holding_both_is_judged_as_before():
    held = SPLIT_COLUMNS.replace("| Xavier | — | 11.9 |", "| Xavier | 14.2 | 11.9 |")
    assert _sg107(held) == []
    # and a row going the other way contradicts it, not "compares nothing"
    ((_, message),) = _sg107(held.replace("| Xavier | 14.2 |", "| Xavier | 10.2 |"))
    assert "is contradicted by the table at line 3" in message and "row 'Xavier' has 11.9 against 10.2" in message


def test_variant_rows_of_one_board_are_no_unmeasured_claim():
    # the Orin ran both: one comparison, too few for the row reading (two pairs), so nothing is said
    paired = SPLIT_ROWS.replace("| Nano | int8 | 23.4 |", "| Orin | int8 | 7.40 |")
    assert _sg107(paired) == []


def test_a_table_without_comparisons_beside_one_that_contradicts():
    # the empty table cannot back the claim: the other one's contradiction stands alone
    other = ("# Other boards\n\n| Board | fp16 (ms) | int8 (ms) |\n|---|---:|---:|\n| Thor | 4.10 | 4.60 |\n\n")
    claim = "int8 is faster than fp16 on every board.\n"
    text = other + SPLIT_COLUMNS.replace(claim, "") + "# Summary\n\n" + claim
    ((line, message),) = _sg107(text)
    assert line == 17
    assert message == ("'int8 is faster than fp16 on every board' is contradicted by the table at line 3 "
                       "('int8 (ms)' against 'fp16 (ms)', 1 row named): row 'Thor' has 4.60 against 4.10")
    # in the empty table's own section the claim is judged against that table alone: it compares nothing
    ((_, message),) = _sg107(other + SPLIT_COLUMNS)
    assert "compares nothing: no row of the table at line 9" in message


def test_a_comparison_of_two_rows_without_both_figures_is_not_read():
    # no universal word: a claim about one pair of rows, one of them without its figure, says nothing to judge
    text = "# Boards\n\n| Board | fp16 (ms) |\n|---|---:|\n| A100 | 4.10 |\n| H100 | — |\n\n" \
           "The A100 row is faster than the H100 row.\n"
    assert _sg107(text) == []
    assert len(_sg107(text.replace("| — |", "| 3.90 |"))) == 1  # with both figures it is judged, and contradicted


def test_a_denied_or_hedged_claim_is_not_read():
    for said in ("int8 is not faster than fp16 on every board.", "int8 can be faster than fp16."):
        assert _sg107(SPLIT_COLUMNS.replace("int8 is faster than fp16 on every board.", said)) == []


def test_variant_rows_the_claim_names_holding_one_variant_only_compare_nothing():
    # "on the Orin" keeps the Orin rows (board names as row labels), and the Orin ran int8 only
    text = ("# Boards\n\n| Board | Precision | Latency (ms) |\n|---|---|---:|\n| Xavier | int8 | 11.9 |\n"
            "| Xavier | fp16 | 14.2 |\n| Orin | int8 | 7.40 |\n| Nano | int8 | 23.4 |\n| Nano | fp16 | 25.0 |\n\n"
            "On the Orin, int8 is faster than fp16 in every run.\n")
    found = _sg107(text)
    assert [message for _, message in found] == [
        "'On the Orin, int8 is faster than fp16 in every run' compares nothing: the table at line 3 pairs no "
        "'int8' row with a 'fp16' row of the same 'Board' in 'Latency (ms)'"]


def test_variant_rows_paired_once_are_too_few_to_read():
    # int8 ran on the Xavier and the Orin (AGX modules), fp16 on a Xavier NX only: the boards pair the Xavier
    # rows once, and one pair is no table to judge "every board" by, though its int8 is the slower
    text = ("# Boards\n\n| Board | Module | Precision | Latency (ms) |\n|---|---|---|---:|\n"
            "| Xavier | AGX | int8 | 15.9 |\n| Orin | AGX | int8 | 7.40 |\n| Xavier | NX | fp16 | 14.2 |\n\n"
            "int8 is faster than fp16 on every board.\n")
    assert _sg107(text) == []


def test_one_subject_row_sharing_its_board_with_a_reference_row_is_a_comparison():
    # int8 ran on the Orin only, fp16 on the Orin and the Xavier: the Orin compares them, so nothing is unmeasured
    text = ("# Boards\n\n| Board | Precision | Latency (ms) |\n|---|---|---:|\n| Orin | int8 | 7.40 |\n"
            "| Orin | fp16 | 8.10 |\n| Xavier | fp16 | 14.2 |\n\nint8 is faster than fp16 on every board.\n")
    assert _sg107(text) == []
