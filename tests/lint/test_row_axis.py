"""Comparisons whose variants are rows (studygen/lint/row_axis.py): number
labels named with their column's word ("batch 8", "bs=8", "8 GPUs"), a
ratio between two such rows (SG103) and a comparison of two rows without a
figure (SG107). Documents of our own; figures worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.row_axis import named_rows

# throughput 567 / 192 = 2.953 (2.95x); latency 14.1 / 5.20 = 2.71
BATCHES = """\
| Batch | Latency (ms) | Throughput (images/s) |
|---|---:|---:|
| 1 | 5.20 | 192 |
| 8 | 14.1 | 567 |
| 32 | 49.8 | 643 |

"""
BOARDS = """\
| Board | Latency (ms) |
|---|---:|
| Orin | 7.40 |
| Thor | 4.90 |
| Nano | 4.90 |

"""


def _table(text: str):
    return parse_document(text, "t.md").tables[0]


@pytest.mark.parametrize("clause, rows", [
    ("batch 8 gives 3x the throughput of batch 1", (1, 0, None)),
    ("bs=8 is faster than bs=1", (1, 0, 1)),
    ("batch size 32 trails batch size 8", (2, 1, 1)),
    ("at batch 8 the throughput is higher than at batch 1.", (1, 0, None)),  # "than at": no reference read
    ("8 is faster than 1", None),           # bare numbers name no rows
    ("batch 8 is faster than batch 1.5", None),  # no row 1.5
    ("batch 8, batch 1 and batch 32", None),     # three rows
])
def test_number_labels_are_named_with_their_columns_word(clause, rows):
    assert named_rows(_table(BATCHES), clause) == rows


def test_a_ratio_between_two_number_rows_is_checked():
    messages = [f.message for f in lint_text(BATCHES + "Batch 8 gives 2.0x more throughput than batch 1.\n", "t.md")
                if f.code == "SG103"]
    assert len(messages) == 1 and "567 / 192 = 2.95x (2.94x to 2.96x within the printed digits)" in messages[0]
    assert not [f for f in lint_text(BATCHES + "Batch 8 gives 2.95x more throughput than batch 1.\n", "t.md")
                if f.code == "SG103"]


@pytest.mark.parametrize("sentence, contradicted", [
    ("The Orin row beats the Thor row.", "row 'Orin' has 7.40 against 4.90"),
    ("Orin is faster than Thor.", "row 'Orin' has 7.40 against 4.90"),
    ("Thor is faster than Nano.", "row 'Thor' has 4.90 against 4.90 (a tie as printed)"),
    ("Thor is faster than Orin.", None),
    ("Thor is at least as fast as Nano.", None),
    ("Orin can be faster than Thor.", None),    # hedged: no claim about these rows
    ("Orin is not faster than Thor.", None),
])
def test_a_comparison_of_two_rows_without_a_figure(sentence, contradicted):
    messages = [f.message for f in lint_text(BOARDS + sentence + "\n", "t.md") if f.code == "SG107"]
    if contradicted is None:
        assert messages == []
    else:
        (message,) = messages
        assert contradicted in message and "'Latency (ms)' of row" in message


def test_a_comparison_of_number_rows_without_a_figure():
    (message,) = [f.message for f in lint_text(BATCHES + "Batch 1 has higher throughput than batch 8.\n", "t.md")
                  if f.code == "SG107"]
    assert "'Throughput (images/s)' of row '1' against row '8'" in message and "has 192 against 567" in message


def test_the_reference_named_first_is_still_the_reference():
    # "Against Thor, Orin leads": Thor (after "against") is the reference; Orin 7.40 ms against 4.90 goes the other way
    (message,) = [f.message for f in lint_text(BOARDS + "Against Thor, Orin leads.\n", "t.md") if f.code == "SG107"]
    assert "'Latency (ms)' of row 'Orin' against row 'Thor'" in message and "row 'Orin' has 7.40 against 4.90" in message


def test_two_nearby_tables_giving_the_rows_leave_the_comparison_unread():
    below = BOARDS.replace("7.40", "3.10")  # a second table right below, where Orin is the faster one
    also_slower = BOARDS.replace("7.40", "8.00")  # one where Orin is slower too: which table is meant is unclear
    text = BOARDS + "The Orin row beats the Thor row.\n\n" + also_slower
    assert not [f for f in lint_text(text, "t.md") if f.code == "SG107"]
    # with the table below alone, the comparison is read against it and holds (3.10 against 4.90)
    assert not [f for f in lint_text("The Orin row beats the Thor row.\n\n" + below, "t.md") if f.code == "SG107"]
    # and against the table above alone it is contradicted
    assert [f for f in lint_text(BOARDS + "The Orin row beats the Thor row.\n", "t.md") if f.code == "SG107"]


def test_a_label_inside_a_longer_named_label_is_the_longer_one():
    table = _table("| Engine | Latency (ms) |\n|---|---:|\n| TensorRT | 2.0 |\n| TensorRT INT8 | 1.0 |\n| ONNX | 4.0 |\n")
    assert named_rows(table, "tensorrt int8 is 4.0x faster than onnx") == (1, 2, 1)


def test_only_the_nearest_table_below_is_read():
    # the claim reads the table right below it (Orin slower: reported); the one after that is not a candidate
    text = "## Boards\n\nThe Orin row beats the Thor row.\n\n" + BOARDS + BOARDS.replace("7.40", "7.90")
    (message,) = [f.message for f in lint_text(text, "t.md") if f.code == "SG107"]
    assert "the table at line 5" in message


def test_a_table_above_without_the_rows_gives_way_to_the_one_below():
    above = "| Board | Latency (ms) |\n|---|---:|\n| Xavier | 9.10 |\n| Nano | 4.90 |\n\n"
    (message,) = [f.message for f in lint_text(above + "The Orin row beats the Thor row.\n\n" + BOARDS, "t.md")
                  if f.code == "SG107"]
    assert "the table at line 8" in message and "row 'Orin' has 7.40 against 4.90" in message


def test_faster_on_a_throughput_column_wants_the_larger_figure():
    table = "| Board | Throughput (images/s) |\n|---|---:|\n| Orin | 410 |\n| Thor | 620 |\n\n"
    assert not [f for f in lint_text(table + "Thor is faster than Orin.\n", "t.md") if f.code == "SG107"]
    (message,) = [f.message for f in lint_text(table + "Orin is faster than Thor.\n", "t.md") if f.code == "SG107"]
    assert "row 'Orin' has 410 against 620" in message


# one board in every row, then a batch sweep (a new user's trial: the README's Jetson table "| Jetson AGX Xavier |
# 64 | 72.63 |" named its rows by the GPU alone, so "batch 128" named none); 211.0 / 70.20 = 3.01
ONE_BOARD = """\
| GPU | Batch | Latency (ms) |
|---|---:|---:|
| Quill Q9 | 1 | 2.950 |
| Quill Q9 | 64 | 70.20 |
| Quill Q9 | 128 | 211.0 |

"""


@pytest.mark.parametrize("sentence", [
    "Batch 128 is 2x slower than batch 64.",
    "On the Quill Q9, batch 128 takes 2x the time of batch 64.",
    "Batch 128 is twice as slow as batch 64.",
])
def test_a_label_column_of_one_value_leaves_the_rows_to_the_next(sentence):
    (message,) = [f.message for f in lint_text(ONE_BOARD + sentence + "\n", "t.md") if f.code == "SG103"]
    assert "row 'Quill Q9 / 128' and row 'Quill Q9 / 64'" in message and "211.0 / 70.20 = 3.0x" in message


@pytest.mark.parametrize("sentence", [
    "Batch 128 is 3x slower than batch 64.",  # true
    "Batch 128 is 2x slower than batch 1.5.",  # no such row
    "Batch 128 is 2x slower.",  # one row named
])
def test_near_misses_over_a_label_column_of_one_value_stay_quiet(sentence):
    assert [f for f in lint_text(ONE_BOARD + sentence + "\n", "t.md") if f.code == "SG103"] == []


def test_two_boards_keep_the_first_column_naming_the_rows():
    two = ONE_BOARD.replace("| Quill Q9 | 1 |", "| Quill Q7 | 1 |")
    assert named_rows(_table(two), "batch 128 is 2x slower than batch 64") is None
    assert named_rows(_table(ONE_BOARD), "batch 128 is 2x slower than batch 64") == (2, 1, 1)
