"""SG107 best-of claims, their wording (studygen/lint/best_wording.py): a superlative is read only where the
clause says it of the quoted row over the column's rows, and the rows are read once per lint however many
claims ask (studygen/lint/best_rows.py). Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# fp16 is neither the fastest (int8) nor the slowest (fp32) of three precisions
PRECISIONS = """\
| variant | latency (ms) | throughput (img/s) | memory (GB) |
|---|---:|---:|---:|
| fp32 | 10.0 | 100 | 6.2 |
| fp16 | 5.5 | 182 | 3.4 |
| int8 | 3.1 | 322 | 2.1 |

"""
FP16_NOT_FASTEST = "names row 'fp16' the smallest 'latency (ms)' of 3 rows of the table at line 1, but row 'int8' has 3.1"
FP16_NOT_HIGHEST = ("names row 'fp16' the largest 'throughput (img/s)' of 3 rows of the table at line 1, "
                    "but row 'int8' has 322")


def _sg107(sentence: str, table: str = PRECISIONS) -> list[str]:
    return [f.message for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG107"]


@pytest.mark.parametrize("sentence", [
    # negated or hedged
    "fp16 is far from the fastest at 5.5 ms.",
    "fp16 is hardly the fastest at 5.5 ms.",
    "fp16 is barely the fastest at 5.5 ms.",
    "fp16 is nowhere near the fastest at 5.5 ms.",
    # the superlative names another row than the subject
    "At 5.5 ms, fp16 trails the fastest variant.",
    "fp16 lags the fastest variant at 5.5 ms.",
    "fp16 (5.5 ms) is slower than the fastest variant.",
    "fp16 (5.5 ms) runs behind the fastest option.",
    "fp16 runs at 5.5 ms, twice the best.",
    "fp16 takes 5.5 ms, half of the slowest.",
    "Compared with the fastest variant, fp16 takes 5.5 ms.",
    "fp16 is slower than int8, which leads at 3.1 ms.",
    "fp16 serves 182 img/s, less than the peak.",
    # the superlative ranks another quantity
    "fp16 is the best trade-off at 5.5 ms.",
    "fp16 is the best compromise at 5.5 ms.",
    "fp16 gives the best accuracy per millisecond at 5.5 ms.",
    "With the best accuracy, fp32 takes 10.0 ms.",
    "The best accuracy comes from fp32 at 10.0 ms.",
    "The highest-precision variant runs at 100 img/s.",
    "The lowest-precision variant, int8, runs at 322 img/s.",
    "The largest model, fp16, takes 5.5 ms.",
    "The largest checkpoint, fp16, takes 5.5 ms.",
    "Our largest customer runs fp16 at 5.5 ms.",
    "The biggest drop in accuracy comes from fp16, which serves 182 img/s.",
    "fp16 has the best at 5.5 ms.",
    "The fastest variant uses 3.4 GB.",  # "fastest" ranks no memory
    # a restricted set
    "Among fp16 and fp32, fp16 is the fastest at 5.5 ms.",
    "Between fp16 and fp32, fp16 is the fastest at 5.5 ms.",
    "Of the float variants, the fastest is fp16 at 5.5 ms.",
    "Of these two, the fastest is fp16 at 5.5 ms.",
    "Other than int8, the fastest is fp16 at 5.5 ms.",
    "Excluding int8, fp16 is the fastest at 5.5 ms.",
    "fp16 is the fastest float variant at 5.5 ms.",
    "fp16 is the fastest non-integer variant at 5.5 ms.",
    "fp16 is the fastest variant that keeps accuracy, at 5.5 ms.",
    "fp16 is the fastest option which keeps full accuracy, at 5.5 ms.",
    "fp16 is the fastest variant with FP16 accumulation, at 5.5 ms.",
    "fp16 is the fastest variant for accuracy-critical work at 5.5 ms.",
    "The largest model of the three, fp32, takes 10.0 ms.",
])
def test_a_superlative_not_said_of_the_quoted_row_over_the_column_is_not_read(sentence):
    assert _sg107(sentence) == []


@pytest.mark.parametrize("sentence", [
    "The smallest GPU, the T4, takes 12.0 ms.",
    "Our largest customer runs the A100 at 2.0 ms.",
    "The lowest GPU time is the T4's 12.0 ms.",  # a "GPU time" column: "lowest GPU time" is its own quantity ...
])
def test_a_superlative_of_the_rows_themselves_is_no_rank_of_the_figure(sentence):
    table = "| GPU | {} (ms) |\n|---|---:|\n| T4 | 12.0 |\n| A100 | 2.0 |\n| H100 | 1.2 |\n\n"
    if "GPU time" in sentence:
        (message,) = _sg107(sentence, table.format("GPU time"))
        assert "names row 'T4' the smallest 'GPU time (ms)' of 3 rows" in message
        # ... but "the smallest GPU" over it ends on no quantity
        assert _sg107("The smallest GPU, the T4, takes 12.0 ms.", table.format("GPU time")) == []
    else:
        assert _sg107(sentence, table.format("latency")) == []


@pytest.mark.parametrize("sentence", [
    "fp16 is the fastest at 5.5 ms.",
    "fp16 is by far the fastest at 5.5 ms.",
    "fp16 remains the quickest variant at 5.5 ms.",  # a row's noun
    "fp16 was the fastest option, at 5.5 ms.",
    "The fastest configuration is fp16 at 5.5 ms.",
    "The fastest variant takes 5.5 ms.",
    "The fastest is fp16 at 5.5 ms.",
    "fp16, the fastest variant, runs at 5.5 ms.",  # after a comma
    "Overall, the lowest latency is fp16's 5.5 ms.",
    "The lowest time is fp16's 5.5 ms.",  # a word of the column's kind
    "The lowest value is fp16's 5.5 ms.",  # the figure itself
    "Of all variants, fp16 has the lowest latency at 5.5 ms.",  # "of all" restricts nothing
    "fp16 achieves the lowest latency of 5.5 ms.",
])
def test_a_superlative_said_of_the_quoted_row_is_read(sentence):
    assert [message.split("' ", 1)[1] for message in _sg107(sentence)] == [FP16_NOT_FASTEST]


@pytest.mark.parametrize("sentence", [
    "fp16 leads at 182 img/s.",
    "fp16 has the highest throughput at 182 img/s.",
    "The best throughput is fp16's 182 img/s.",
    "The highest throughput belongs to fp16, 182 img/s.",
])
def test_a_verb_and_a_verb_of_having_are_read(sentence):
    (message,) = _sg107(sentence)
    assert message.endswith(FP16_NOT_HIGHEST)


# throughput of two kernels over two thread counts: striped peaks at 128 threads
THREADS = ("| kernel | threads | throughput (img/s) |\n|---|---:|---:|\n| striped | 64 | 410 |\n| | 128 | 433 |\n"
           "| blocked | 64 | 470 |\n| | 128 | 502 |\n\n")


@pytest.mark.parametrize("sentence", [
    "Striped peaks at 410 img/s.",
    "Striped's peak is 410 img/s.",
    "Striped reaches its peak throughput of 410 img/s.",
    "Striped hits a peak at 410 img/s.",
    "Striped reaches a maximum throughput of 410 img/s.",
    "Striped's best result is 410 img/s.",
])
def test_a_peak_or_a_possessive_ranges_over_the_subjects_rows(sentence):
    assert [message.split("' names ")[1] for message in _sg107(sentence, THREADS)] == [
        "row 'striped / 64' the largest 'throughput (img/s)' of 2 rows of the table at line 1, "
        "but row 'striped / 128' has 433"]


@pytest.mark.parametrize("sentence", [
    "Striped takes the lead at 410 img/s.",  # a noun after a determiner
    "Blocked, unlike striped, peaks at 410 img/s.",  # another row before the verb
    "Striped has the best at 410 img/s.",  # a verb of having ranks a quantity, never nothing
    "Striped has a peak memory of 410 img/s.",
])
def test_a_verb_after_a_determiner_or_another_subject_is_not_read(sentence):
    assert _sg107(sentence, THREADS) == []


def test_a_preposition_after_the_phrase_must_come_before_a_figure():
    assert _sg107("fp16 is the fastest variant of 5.5 ms.") != []
    assert _sg107("fp16 is the fastest variant with 5.5 ms.") != []
    assert _sg107("fp16 is the fastest variant in our tests at 5.5 ms.") == []
    assert _sg107("fp16 is the fastest variant with fused kernels at 5.5 ms.") == []


def test_a_restricted_set_in_another_clause_of_the_sentence_leaves_the_sentence_unread():
    assert _sg107("fp16 is the fastest at 5.5 ms; among the float variants, that is.") == []
    assert len(_sg107("fp16 is the fastest at 5.5 ms. Among the float variants, fp32 is the other.")) == 1


@pytest.mark.parametrize(("table", "sentence", "found"), [
    (PRECISIONS, "fp16 is **the fastest** at 5.5 ms.", "row 'int8' has 3.1"),  # emphasis is no word
    (PRECISIONS, "fp16 is the slowest variant at 5.5 ms.", "row 'fp32' has 10.0"),  # a row's noun for "slowest"
    # a label column's header is the rows' noun; a header's snake_case parts are its words
    ("| tokenizer | encode_time (ms) |\n|---|---:|\n| py | 48.0 |\n| rust | 9.6 |\n| simd | 4.2 |\n\n",
     "The fastest tokenizer is rust at 9.6 ms.", "row 'simd' has 4.2"),
    ("| tokenizer | encode_time (ms) |\n|---|---:|\n| py | 48.0 |\n| rust | 9.6 |\n| simd | 4.2 |\n\n",
     "The lowest encode time is rust's 9.6 ms.", "row 'simd' has 4.2"),
])
def test_the_words_a_superlative_may_qualify(table, sentence, found):
    (message,) = _sg107(sentence, table)
    assert message.endswith(f"but {found}")


def test_an_idiom_of_a_superlative_is_no_claim():
    assert _sg107("fp16 runs at its fastest at 5.5 ms.") == []


@pytest.mark.parametrize("sentence", [
    "fp16 is the best choice at 5.5 ms.",  # a recommendation: "best" or "worst" before a row's noun ranks no figure
    "fp16 is the best candidate at 5.5 ms.",
    "fp16 is the worst option at 5.5 ms.",
    "fp16 leads the float variants at 5.5 ms.",  # "leads" with an object leads that set only
    "fp16 leads fp32 at 5.5 ms.",
])
def test_a_recommendation_or_a_lead_over_named_rows_is_not_read(sentence):
    assert _sg107(sentence) == []


@pytest.mark.parametrize(("sentence", "found"), [
    ("fp16 is the best at 5.5 ms.", "row 'int8' has 3.1"),  # "best" qualifying nothing, or the column's quantity
    ("fp16 has the best latency at 5.5 ms.", "row 'int8' has 3.1"),
    ("fp16 is the fastest variant at 5.5 ms.", "row 'int8' has 3.1"),  # "fastest" still ranks a row's noun
    ("fp16 leads at 182 img/s.", "row 'int8' has 322"),
    ("fp16 leads, at 182 img/s.", "row 'int8' has 322"),
    ("fp16 leads with 182 img/s.", "row 'int8' has 322"),
])
def test_best_of_the_quantity_and_an_intransitive_lead_are_read(sentence, found):
    (message,) = _sg107(sentence)
    assert message.endswith(f"but {found}")
