"""SG107 over quality columns: accuracy is better higher, perplexity, WER and
loss better lower (the ``error`` kind of studygen.lint.variant_pairs). A
column with no unit and no quantity word of its own takes the kind the
heading over its table names; "more accurate", "higher quality" and "better
quality" are better on whichever quality kind the table holds. Documents and
figures of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.ratio_direction import BETTER, WORSE, wanted_sign
from studygen.lint.variant_pairs import ERROR, QUALITY, kind_of_words

# perplexity, lower is better: bf16 is the lower on alpha and beta; gamma given per test
PERPLEXITY = """\
## Perplexity on our held-out set

| Model | bf16 | w4a16 |
|---|---:|---:|
| alpha | 7.91 | 8.05 |
| beta | 6.32 | 6.44 |
| gamma | 5.48 | {gamma} |

"""
# accuracy (%), higher is better: bf16 is the higher on alpha and beta; gamma given per test
ACCURACY = """\
## Accuracy

| Model | bf16 | w4a16 |
|---|---:|---:|
| alpha | 71.2 | 70.4 |
| beta | 64.0 | 63.1 |
| gamma | 58.3 | {gamma} |

"""


def _sg107(document: str) -> list[str]:
    return [f.message for f in lint_text(document, "t.md") if f.code == "SG107"]


@pytest.mark.parametrize("sentence", [
    "bf16 is more accurate than w4a16 on every model.",
    "bf16 has higher quality than w4a16 on every model.",
    "bf16 gives better quality than w4a16 on every model.",
    "bf16 has lower perplexity than w4a16 on every model.",
])
def test_perplexity_is_better_lower(sentence):
    # gamma 5.47 below bf16's 5.48: w4a16 is the more accurate there
    claim = sentence.rstrip(".")
    assert _sg107(PERPLEXITY.format(gamma="5.47") + sentence + "\n") == [
        f"'{claim}' is contradicted by the table at line 3 ('bf16' against 'w4a16', 3 rows named): "
        "row 'gamma' has 5.48 against 5.47"]
    # gamma 5.60 above it: every row bears the claim out
    assert _sg107(PERPLEXITY.format(gamma="5.60") + sentence + "\n") == []


@pytest.mark.parametrize("sentence", [
    "w4a16 is less accurate than bf16 on every model.",
    "w4a16 has worse quality than bf16 on every model.",
])
def test_a_worse_quality_claim_reads_the_same_rows_the_other_way(sentence):
    claim = sentence.rstrip(".")
    assert _sg107(PERPLEXITY.format(gamma="5.47") + sentence + "\n") == [
        f"'{claim}' is contradicted by the table at line 3 ('w4a16' against 'bf16', 3 rows named): "
        "row 'gamma' has 5.47 against 5.48"]
    assert _sg107(PERPLEXITY.format(gamma="5.60") + sentence + "\n") == []


@pytest.mark.parametrize("sentence", [
    "bf16 is more accurate than w4a16 on every model.",
    "bf16 has higher accuracy than w4a16 on every model.",
])
def test_accuracy_is_better_higher(sentence):
    claim = sentence.rstrip(".")
    assert _sg107(ACCURACY.format(gamma="58.9") + sentence + "\n") == [
        f"'{claim}' is contradicted by the table at line 3 ('bf16' against 'w4a16', 3 rows named): "
        "row 'gamma' has 58.3 against 58.9"]
    assert _sg107(ACCURACY.format(gamma="57.6") + sentence + "\n") == []


def test_a_claim_about_a_kind_the_table_does_not_hold_is_not_read():
    # perplexity is no accuracy: "higher accuracy" would be wrong on alpha and beta, but the table holds none
    assert _sg107(PERPLEXITY.format(gamma="5.60") + "bf16 has higher accuracy than w4a16 on every model.\n") == []
    assert _sg107(PERPLEXITY.format(gamma="5.60") + "bf16 is faster than w4a16 on every model.\n") == []


def test_a_column_of_its_own_unit_keeps_its_kind_under_a_quality_heading():
    # times in ms under a perplexity heading: a time, so "more accurate" names no column of the table
    document = PERPLEXITY.format(gamma="5.47").replace("| bf16 | w4a16 |", "| bf16 (ms) | w4a16 (ms) |")
    assert _sg107(document + "w4a16 is more accurate than bf16 on every model.\n") == []


def test_loss_and_error_rate_columns():
    loss = ("| Step | bf16 loss | fp8 loss |\n|---|---:|---:|\n| 1000 | 2.41 | 2.43 |\n| 2000 | 2.17 | 2.16 |\n\n"
            "fp8 reaches a lower loss than bf16 at every step.\n")
    assert _sg107(loss) == [
        "'fp8 reaches a lower loss than bf16 at every step' is contradicted by the table at line 1 "
        "('fp8 loss' against 'bf16 loss', 2 rows named): row '1000' has 2.43 against 2.41"]
    wer = ("## Word error rate\n\n| Clip set | greedy | beam |\n|---|---:|---:|\n| clean | 4.1 | 3.8 |\n"
           "| noisy | 9.6 | 9.9 |\n\nbeam is more accurate than greedy on every clip set.\n")
    assert _sg107(wer) == [
        "'beam is more accurate than greedy on every clip set' is contradicted by the table at line 3 "
        "('beam' against 'greedy', 2 rows named): row 'noisy' has 9.9 against 9.6"]
    # a standard error is no quality: the heading gives the columns no kind
    assert _sg107(wer.replace("## Word error rate", "## Standard error")) == []


def test_kind_words():
    assert kind_of_words(("word", "error", "rate")) == ERROR
    assert kind_of_words(("perplexity",)) == ERROR and kind_of_words(("PPL",)) == ERROR
    assert kind_of_words(("losses",)) == ERROR
    assert kind_of_words(("standard", "error")) is None and kind_of_words(("error", "bars")) is None
    assert kind_of_words(("accuracy",)) == QUALITY
    assert kind_of_words(("accuracy", "loss")) is None  # two kinds: neither
    # "better" is a smaller perplexity and a larger accuracy (a ratio's direction, SG103)
    assert wanted_sign(BETTER, ERROR) == -1 and wanted_sign(WORSE, ERROR) == 1
    assert wanted_sign(BETTER, QUALITY) == 1
