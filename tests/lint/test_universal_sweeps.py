"""SG107 over a table keyed by a sweep of two points: "A is faster than B at
every concurrency" names the table's first column by its header, so its numbers
label the rows (a key column needs three sorted rows otherwise: any two numbers
are in order). Case: a serving benchmark's two-row concurrency table, whose
"Concurrency" column was read as a third throughput column, left the claim
unread while the same table labelled by GPU was reported. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.restriction import names_scope, scope_phrases


def _sg107(text: str) -> list[str]:
    return [f.message for f in lint_text(text, "t.md") if f.code == "SG107"]


# A wins at 512 tokens, loses at 4096 (throughput, higher is better)
SEQUENCE = """\
# Decode throughput (tokens/s)

| Sequence length | A | B |
|---|---:|---:|
| 512 | 1810 | 1640 |
| 4096 | 905 | 960 |

"""
# A's latency is lower at batch 1 and higher at batch 16 (lower is better)
BATCH_MS = """\
| Batch size | A (ms) | B (ms) |
|---|---:|---:|
| 16 | 41.5 | 39.0 |
| 1 | 6.2 | 7.4 |

"""


@pytest.mark.parametrize("sentence, row, figures", [
    ("A is faster than B at every sequence length.", "4096", "905 against 960"),
    ("A has higher throughput than B for all sequence lengths.", "4096", "905 against 960"),
])
def test_a_sweep_the_claim_ranges_over_keys_its_rows(sentence, row, figures):
    (message,) = _sg107(SEQUENCE + sentence + "\n")
    assert f"row '{row}'" in message and figures in message and "paired by 'Sequence length'" in message


def test_the_unit_the_labels_count_names_the_column_too():
    table = SEQUENCE.replace("| Sequence length |", "| Context (tokens) |")
    (message,) = _sg107(table + "A is faster than B at every token count.\n")
    assert "row '4096'" in message and "905 against 960" in message


def test_a_claim_the_sweep_bears_out_is_quiet():
    held = SEQUENCE.replace("| 905 | 960 |", "| 995 | 960 |")
    assert _sg107(held + "A is faster than B at every sequence length.\n") == []


def test_a_scope_naming_another_column_leaves_the_two_rows_figures():
    # "batch size" is not the table's header: the first column stays figures and the claim is not read
    text = SEQUENCE + "A is faster than B at every batch size.\n"
    assert _sg107(text) == []
    (table,) = parse_document(text, "t.md").tables
    assert table.label_columns == [] and [s.header for s in table.series] == ["Sequence length", "A", "B"]


def test_the_scope_reads_the_first_column_as_labels():
    (table,) = parse_document(SEQUENCE + "A is faster than B at every sequence length.\n", "t.md").tables
    assert table.label_columns == [0] and table.label_values[0] == {"512": [0], "4096": [1]}


def test_a_label_header_keys_a_two_row_table_as_before():
    (message,) = _sg107(BATCH_MS + "A is faster than B at every batch size.\n")
    assert "row '16'" in message and "41.5 against 39.0" in message


@pytest.mark.parametrize("text, header, named", [
    ("at every user count", "Users", True),
    ("for each sequence length", "Sequence length", True),
    ("across all concurrency levels", "Concurrency", True),
    ("at every user count", "Load (users)", True),
    ("at every batch size", "Sequence length", False),
    ("at every sequence", "Sequence length", False),  # the header's words must all be named
    ("the users", "Users", False),  # no universal word
])
def test_names_scope(text, header, named):
    assert names_scope(header, scope_phrases(text)) is named
