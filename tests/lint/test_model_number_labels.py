"""Row labels that carry a model number ("GTX 1070", "A100 80GB", "Radeon RX
7900"): the number is part of the name the clause gives, not a figure of
the claim, and a label is named with a hyphen, a space or nothing between
its words and with or without a vendor word ("GeForce", "Jetson"). Before,
such a clause held three figures and was skipped as stating its own
operands (studygen/lint/prose_rows.py, studygen/lint/row_axis.py).
Tables and figures are our own; ratios worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.row_axis import label_spans, named_rows

# latency ms: 3.00 / 2.40 = 1.25; 6.00 / 4.80 = 1.25; (19.2 - 2.40) / 19.2 = 87.5%
GPUS = """\
# GPUs

| GPU | fp16 latency (ms) |
|---|---:|
| RTX 4090 | 2.40 |
| A100 80GB | 3.00 |
| L40S | 4.80 |
| Jetson AGX Orin 64GB | 19.2 |
| Radeon RX 7900 | 6.00 |

"""
SENTENCE_LINE = 11


def _sg103(sentence: str, table: str = GPUS):
    return [(f.line, f.message) for f in lint_text(table + sentence + "\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence", [
    "The RTX 4090 is 1.25x faster than the A100 80GB.",
    "The L40S is 1.25x faster than the Radeon RX 7900.",
    "The RTX 4090 has 87.5% lower latency than the AGX Orin 64GB.",
    "The GeForce RTX-4090 is 1.25x faster than the NVIDIA A100-80GB.",
    "The RTX 4090 at batch 8 is 2x faster than the A100 80GB.",  # "8" is no label's: a figure, the clause is skipped
])
def test_a_true_or_unread_claim_between_numbered_rows_is_no_finding(sentence):
    assert _sg103(sentence) == []


def test_a_ratio_the_wrong_way_between_numbered_rows_is_reported():
    assert _sg103("The A100 80GB is 1.25x faster than the RTX 4090.") == [
        (SENTENCE_LINE, "1.25x between row 'A100 80GB' and row 'RTX 4090' goes the wrong way: 'faster' says row "
                        "'A100 80GB' is the better one, but 'fp16 latency (ms)' of the table at line 3 has 3.00 "
                        "against 2.40 for row 'RTX 4090'")]


def test_a_wrong_ratio_between_a_number_and_a_letter_label_is_reported():
    # 6.00 / 4.80 = 1.25, not 2.5
    assert _sg103("The L40S is 2.5x faster than the Radeon RX 7900.") == [
        (SENTENCE_LINE, "2.5x between row 'L40S' and row 'Radeon RX 7900' does not follow from 'fp16 latency (ms)' "
                        "of the table at line 3: 4.80 / 6.00 = 0.8x or 6.00 / 4.80 = 1.3x")]


def test_a_wrong_percentage_names_the_row_without_its_vendor_word():
    # (19.2 - 2.40) / 19.2 = 87.5%; "64GB" is the label's, not a size the clause states
    findings = _sg103("The RTX 4090 has 95% lower latency than the AGX Orin 64GB.")
    assert [line for line, _ in findings] == [SENTENCE_LINE]
    assert findings[0][1].startswith("95% between row 'RTX 4090' and row 'Jetson AGX Orin 64GB' does not follow")
    assert "(19.2 - 2.40) / 19.2 = 87.5% (87.4% to 87.6% within the printed digits)" in findings[0][1]


@pytest.mark.parametrize("subject, reference", [
    ("GeForce RTX-4090", "NVIDIA A100-80GB"),
    ("rtx4090", "a100 80gb"),
    ("RTX 4090", "Tesla A100 80GB"),
])
def test_spellings_of_a_label_all_name_its_row(subject, reference):
    assert [line for line, _ in _sg103(f"The {subject} is 2x faster than the {reference}.")] == [SENTENCE_LINE]


# The user's case: a two-row table whose labels carry model numbers; 0.1547 / 0.04395 = 3.52x, 1 - 0.04395 / 0.1547 = 71.6%
PAIR = "| GPU | fp16 GPU compute (ms) |\n| --- | --- |\n| {old} | 0.1547 |\n| RTX 3090 | 0.04395 |\n\n"


@pytest.mark.parametrize("old", ["GTX 1070", "GTX-1070", "GeForce GTX 1070"])
def test_each_spelling_of_an_older_card_gives_the_three_findings(old):
    table = PAIR.format(old=old)
    text = (table + "The GTX 1070 is 3.5x faster than the RTX 3090.\n\n"
            "fp16 has 90% lower latency on the RTX 3090 than the GTX 1070.\n\n"
            "The RTX 3090 is 4.5x faster than GTX 1070.\n\n"
            "The RTX 3090 is 3.5x faster than the GTX 1070, with 72% lower latency.\n")
    findings = [(f.line, f.message.split(":")[0]) for f in lint_text(text, "x.md") if f.code == "SG103"]
    assert findings == [
        (6, f"3.5x between row '{old}' and row 'RTX 3090' goes the wrong way"),
        (8, f"90% between row 'RTX 3090' and row '{old}' does not follow from 'fp16 GPU compute (ms)' of the table at line 1"),
        (10, f"4.5x between row 'RTX 3090' and row '{old}' does not follow from 'fp16 GPU compute (ms)' of the table at line 1"),
    ]


def test_label_spans_cover_the_model_number_and_vendor_word():
    table = parse_document(GPUS, "t.md").tables[0]
    clause = "the GeForce RTX-4090 beats the AGX Orin 64GB at 8 ms"
    assert [clause[a:b] for a, b in label_spans(table, clause)] == ["GeForce RTX-4090", "AGX Orin 64GB"]
    assert named_rows(table, clause) == (0, 3, 1)


def test_a_label_of_two_numbers_keeps_them_parted():
    table = parse_document("| Shape | ms |\n|---|---:|\n| tile 64 32 | 1.0 |\n| tile 128 | 2.0 |\n", "t.md").tables[0]
    assert label_spans(table, "tile 6432 and tile-64 32") == [(14, 24)]


def test_two_vendor_words_before_a_label_are_both_part_of_its_name():
    table = parse_document(GPUS, "t.md").tables[0]
    clause = "the NVIDIA GeForce RTX 4090 and the L40S"
    assert [clause[a:b] for a, b in label_spans(table, clause)] == ["NVIDIA GeForce RTX 4090", "L40S"]


def test_a_label_that_is_only_a_vendor_word_is_still_named():
    # 9.0 / 3.0 = 3x
    table = "| Board | Latency (ms) |\n|---|---:|\n| Jetson | 9.0 |\n| Tesla | 3.0 |\n\n"
    assert _sg103("The Tesla is 3x faster than the Jetson.", table) == []
    assert [line for line, _ in _sg103("The Tesla is 5x faster than the Jetson.", table)] == [6]


def test_a_label_opening_with_its_model_number_holds_that_number():
    # 8.00 / 5.00 = 1.6x; "7900" opens the label's span
    table = "| GPU | Latency (ms) |\n|---|---:|\n| 7900 XTX | 5.00 |\n| RTX 4090 | 8.00 |\n\n"
    assert _sg103("The 7900 XTX is 1.6x faster than the RTX 4090.", table) == []
    assert [line for line, _ in _sg103("The 7900 XTX is 2.6x faster than the RTX 4090.", table)] == [6]


def test_the_label_numbers_of_the_table_above_count_with_a_table_below_in_the_section():
    # the table below names none of the rows: the figures in the labels are still the table above's
    below = "\n\n| Recipe | Plan (MiB) |\n|---|---:|\n| fp16 | 80 |\n| int8 | 50 |\n"
    findings = lint_text(GPUS + "The A100 80GB is 2x faster than the RTX 4090." + below, "x.md")
    assert [(f.code, f.line) for f in findings if f.code == "SG103"] == [("SG103", SENTENCE_LINE)]
