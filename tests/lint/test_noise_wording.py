"""SG105 ("within noise" with no spread stated) on small documents of our own:
the finding's line, its wording for a paragraph and for a table, and the
clause an expectation is read from (studygen.lint.sg105_noise_wording)."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text


def _sg105(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG105"]


def test_a_table_cell_verdict_names_the_table():
    (finding,) = [f for f in lint_text("# T\n\n| kernel | note |\n|---|---|\n| gemm | within noise |\n| conv | 2 ms slower |\n", "x.md")
                  if f.code == "SG105"]
    assert (finding.line, finding.message) == (5, "'within noise' with no spread, repeat count or test stated in the same table")
    assert finding.hint == ("state the spread (± std, min to max or a confidence interval), how many repeats it is over, "
                            "or the test used; or state the difference without calling it noise")


def test_a_paragraph_with_its_spread_does_not_excuse_the_next_one():
    # the first paragraph states ± 0.1 ms over 20 repeats; the second, whose verdict sits on its second line (6), does not
    text = ("# T\n\nFP8 GEMMs take 5.1 ms (± 0.1 ms over 20 repeats), within noise of fp16.\n\n"
            "The attention kernels\nchanged within noise too.\n")
    assert _sg105(text) == [(6, "'within noise' with no spread, repeat count or test stated in the same paragraph")]


def test_an_expectation_in_an_earlier_sentence_does_not_cover_the_result():
    # "We expect ..." is a plan; the clause of the verdict is "It was within noise", a result
    assert _sg105("# T\n\nWe expect FP8 to be faster. It was within noise of fp16.\n") == [
        (3, "'was within noise' with no spread, repeat count or test stated in the same paragraph")]
    assert _sg105("# T\n\nFP8 should be within noise of fp16.\n") == []


def test_the_table_right_before_a_verdict_may_hold_its_evidence():
    table = "| variant | median ms | std ms |\n|---|---|---|\n| fp16 | 5.10 | 0.04 |\n| fp8 | 5.08 | 0.05 |\n"
    verdict = "The two medians differ by 0.02 ms, within noise.\n"
    assert _sg105(table + "\n" + verdict) == []  # the table above states a standard deviation
    assert _sg105(verdict + "\n" + table) == []  # so does the table below
    # a table of medians only states no spread
    assert len(_sg105(table.replace("std ms", "mean ms") + "\n" + verdict)) == 1


def test_a_verdict_whose_words_a_hard_wrapped_line_breaks_is_still_read():
    # "real", "material" and "statistical" are stems only before whitespace; a wrapped paragraph puts a
    # line break there, a tab-indented one a tab
    table = "# B\n\n| precision | latency (ms) |\n| --- | --- |\n| fp16 | 4.1 |\n| bf16 | 4.0 |\n\n"
    for gap in (" ", "\n", "\t"):
        for words in ("no real", "no material", "no statistical"):
            text = f"{table}bf16 and fp16 show {words}{gap}difference here.\n"
            assert _sg105(text) == [(8, f"'{words} difference' with no spread, repeat count or test stated in the "
                                       "same paragraph")], (words, gap)
    assert _sg105(table + "bf16 and fp16 show no real difference (± 0.2 ms over 9 runs).\n") == []


def test_a_verdict_spelt_with_letters_ignorecase_folds_is_read():
    # re.IGNORECASE reads a long s as s and the Kelvin sign as k: the stem prefilters must read them alike
    table = "# B\n\n| precision | latency (ms) |\n| --- | --- |\n| fp16 | 4.1 |\n| bf16 | 4.0 |\n\n"
    for sentence in ("The gap is within run-to-run noiſe.", "The gap is within the JITTER.", "The gap is within noiſe."):
        (finding,) = _sg105(f"{table}{sentence}\n")
        assert finding[0] == 8, sentence


def test_no_significant_before_a_noun_of_no_difference_is_no_verdict():
    # a public benchmark's "No significant omissions in the output text" is about the text, not a test
    table = "# T\n\n| Precision | Speed (tok/s) |\n|---|---|\n| fp16 | 22.1 |\n| int8 | 30.4 |\n\n"
    found = lambda line: [f.code for f in lint_text(table + line + "\n", "x.md")]  # noqa: E731
    assert found("- No significant omissions in the output text.") == []
    assert found("- No significant difference between runs.") == ["SG105"]
    assert found("- The gap is not significant.") == ["SG105"]


def test_a_verdict_in_a_clause_opening_as_a_condition_is_no_result():
    # a metric's guide says what a reading would mean ("If the percentiles are symmetric then the quantization is
    # just adding noise"): no difference is measured there; the same verdict stated as a result stays reported
    table = "# T\n\n| Precision | Speed (tok/s) |\n|---|---|\n| fp16 | 22.1 |\n| int8 | 30.4 |\n\n"
    for condition in ("If the two rows are symmetric then the change is just noise.",
                      "The rows were read twice. Unless the gap grows, it is within noise.",
                      "Assuming the clocks are pinned, the gap is within noise."):
        assert _sg105(table + condition + "\n") == [], condition
    assert _sg105(table + "The two rows are symmetric, so the change is just noise.\n") == [
        (8, "'is just noise' with no spread, repeat count or test stated in the same paragraph")]


# ---- a verdict in quotation marks is a mention of the words (session 21: docs/lint.md's own SG105 line) --------

@pytest.mark.parametrize("text", [
    'SG105 flags "within noise" or "not significant" with no spread nearby.\n',
    "Reviewers ask for the spread behind \u201cwithin noise\u201d claims.\n",
    "A phrase such as 'no measurable difference' needs its repeats.\n",
])
def test_a_quoted_verdict_is_a_mention_not_a_claim(text):
    assert _sg105(text) == []


@pytest.mark.parametrize("text", [
    # apostrophes inside words are no quotation marks
    "The fp16 run's median matches the paper's figure within noise.\n",
    # a quotation mark too far from the verdict quotes something else
    'We call it "the tuned setup" here; after three more sentences of text the gap is within noise.\n',
    "The gap is within noise.\n",
])
def test_an_unquoted_verdict_is_still_read(text):
    assert len(_sg105(text)) == 1
