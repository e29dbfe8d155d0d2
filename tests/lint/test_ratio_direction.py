"""Which way a prose ratio says its operands go (studygen.lint.ratio_direction),
and the section views of stacked tables (studygen.lint.section_rows), on
figures and tables of our own; each expected value worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint.figures import tokenize
from studygen.lint.parse import parse_document
from studygen.lint.ratio_direction import (BETTER, LARGER, SMALLER, WORSE, goes_against, sign_unsettles_word, wanted_sign,
                                          written_direction)
from studygen.lint import lint_text
from studygen.lint.section_rows import section_views, sections
from studygen.lint.variant_pairs import QUALITY, SIZE, THROUGHPUT, TIME


def _figure(text: str, printed: str):
    """The figure ``printed`` as tokenized inside ``text``."""
    return next(t.figure for t in tokenize(text) if t.figure is not None and t.figure.text == printed)


@pytest.mark.parametrize("text, printed, expected", [
    ("int8 is 1.3x faster than fp16", "1.3", (BETTER, "faster")),
    ("a 2.5x speedup over eager", "2.5", (BETTER, "speedup")),
    ("w4 is 1.2x slower than w8", "1.2", (WORSE, "slower")),
    ("a 1.4x slowdown at batch 1", "1.4", (WORSE, "slowdown")),
    ("1.6x higher throughput than bf16", "1.6", (LARGER, "higher")),
    ("uses 3x less memory than fp32", "3", (SMALLER, "less")),
    ("30% fewer kernels than eager", "30", (SMALLER, "fewer")),
    ("raises throughput by 40% over bf16", "40", (LARGER, "raises throughput by")),
    ("cuts the fp16 time by 20%", "20", (SMALLER, "cuts the fp16 time by")),
    ("1.3x the latency of fp16", "1.3", None),
    ("a ratio of 1.3x between them", "1.3", None),
])
def test_written_direction_reads_the_word_after_the_figure_or_the_verb_before_it(text, printed, expected):
    assert written_direction(text, _figure(text, printed)) == expected


def test_a_verb_before_the_clause_start_or_far_back_is_not_read():
    text = "It cuts memory; the step takes 20% of the total"
    # the verb lies before the clause start given (after the ';')
    assert written_direction(text, _figure(text, "20"), start=text.index("the step")) is None
    far = "reduces " + "x " * 45 + "by 20%"  # the verb 90 characters back, beyond the 80 looked at
    assert written_direction(far, _figure(far, "20")) is None
    near = "reduces the step time by 20%"
    assert written_direction(near, _figure(near, "20"), start=0) == (SMALLER, "reduces the step time by")


@pytest.mark.parametrize("direction, kind, sign", [
    (LARGER, None, 1), (SMALLER, None, -1), (LARGER, TIME, 1), (SMALLER, THROUGHPUT, -1),
    (BETTER, TIME, -1), (BETTER, THROUGHPUT, 1), (BETTER, QUALITY, 1), (BETTER, SIZE, -1),
    (WORSE, TIME, 1), (WORSE, THROUGHPUT, -1),
    (BETTER, None, None), (WORSE, None, None), (None, TIME, None),
])
def test_wanted_sign_is_the_side_the_subject_must_be_on(direction, kind, sign):
    assert wanted_sign(direction, kind) == sign


@pytest.mark.parametrize("subject, reference, sign, against", [
    ("3.91", "4.91", 1, True),    # said larger, clearly smaller
    ("3.91", "4.91", -1, False),
    ("4.91", "3.91", -1, True),
    ("3.9", "4.0", 1, True),      # 3.85..3.95 against 3.95..4.05: touching ends, no value of it is larger
    ("10", "11", 1, True),        # 9.5..10.5 against 10.5..11.5: ends that touch exactly still count
    ("11", "10", -1, True),
    ("4.0", "3.9", -1, True),
    ("3.95", "3.9", -1, False),   # 3.945..3.955 against 3.85..3.95: overlap, not against
    ("3.9", "3.95", 1, False),
    ("3.9", "3.9", 1, False),     # printed alike
    ("3.9", "4.9", None, False),  # no direction stated
])
def test_goes_against_only_beyond_the_printed_digits(subject, reference, sign, against):
    s, r = _figure(subject, subject), _figure(reference, reference)
    assert goes_against(s, r, sign) is against


STACKED = """\
| model | batch | decode (tokens/s) | step (ms) |
|---|---:|---:|---:|
| **new GPU** |
| 8B | 1 | 310 | 3.2 |
| 8B | 16 | 2,400 | 6.7 |
| **old GPU** |
| 8B | 1 | 150 | 6.6 |
| 8B | 16 | 1,000 | 16.0 |
| **Speedup** |
| 8B | 1 | 2.1x | 2.1x |
| 8B | 16 | 2.4x | 2.4x |
"""


def test_sections_and_their_views_hold_the_rows_by_key():
    table = parse_document(STACKED, "x.md").tables[0]
    assert [(row.cells[0], [r.cells[1] for r in rows]) for row, rows in sections(table)] == [
        ("new GPU", ["1", "16"]), ("old GPU", ["1", "16"]), ("Speedup", ["1", "16"])]
    views = section_views(table)
    assert [view.headers for view in views] == [
        ["model", "batch", "new GPU decode (tokens/s)", "old GPU decode (tokens/s)", "Speedup"],
        ["model", "batch", "new GPU step (ms)", "old GPU step (ms)", "Speedup"]]
    # each view row stands on the line of its speedup row (lines 10 and 11) and holds the two GPUs' cells
    assert [(row.line, row.cells) for row in views[1].rows] == [
        (10, ["8B", "1", "3.2", "6.6", "2.1x"]), (11, ["8B", "16", "6.7", "16.0", "2.4x"])]


@pytest.mark.parametrize("markdown", [
    STACKED.replace("| **Speedup** |", "| **Third GPU** |"),  # no derived section
    STACKED.replace("| **old GPU** |\n", ""),                   # old rows join the new section: keys named twice
    STACKED.replace("| 8B | 16 | 1,000 |", "| 8B | 1 | 1,000 |"),  # a key naming two rows of one section
    "| model | x |\n|---|---:|\n| **A** |\n| a | 1 |\n",            # one section only
])
def test_no_view_where_sections_do_not_pair_up(markdown):
    table = parse_document(markdown, "x.md").tables[0]
    assert section_views(table) == []


def test_a_saving_section_is_derived_and_a_row_missing_from_a_gpu_section_is_skipped():
    markdown = STACKED.replace("| **Speedup** |", "| **Saving** |").replace(
        "| 8B | 1 | 2.1x | 2.1x |", "| 3B | 1 | 1.0 | 1.0 |\n| 8B | 1 | 2.1x | 2.1x |")
    views = section_views(parse_document(markdown, "x.md").tables[0])
    # the 3B row has no row in the GPU sections: left out, the two 8B rows still make each view
    assert [[row.cells[:2] for row in view.rows] for view in views] == [[["8B", "1"], ["8B", "16"]]] * 2


def test_keys_compare_with_their_spacing_and_case_folded():
    markdown = STACKED.replace("| **old GPU** |\n| 8B | 1 |", "| **old GPU** |\n| 8b  | 1 |")
    assert len(section_views(parse_document(markdown, "x.md").tables[0])[0].rows) == 2


ROW_VARIANTS = """| Model | Precision | Runtime | Latency (ms) |
|---|---|---|---:|
| nano | FP16 | rt 1.2 | 3.40 |
| nano | INT8 | rt 1.3 | 3.70 |
| small | FP16 | rt 1.2 | 5.40 |
| small | INT8 | rt 1.3 | 4.00 |
| 8 | FP16 | rt 1.2 | 9.90 |
| 8 | INT8 | rt 1.3 | 7.00 |

"""


@pytest.mark.parametrize("sentence, reported", [
    # a label column constant within each variant (Runtime) is no key: nano, small and 8 still pair up
    ("INT8 has a lower latency than FP16 for every model.", True),
    ("FP16 has a higher latency than INT8 for every model.", True),
    # no comparison word: which variant is the reference is not known
    ("INT8 and FP16 both have lower latency for every model.", False),
    # labels without a letter ("8") are no variants: the clause names one (nano), so no pair
    ("Model 8 has a lower latency than nano for every precision.", False),
])
def test_row_variants_pair_rows_by_the_labels_that_vary(sentence, reported):
    found = [f for f in lint_text(ROW_VARIANTS + sentence + "\n", "x.md") if f.code == "SG107"]
    assert bool(found) is reported
    if reported:
        assert "row 'nano / INT8 / rt 1.3' has 3.70 against 3.40" in found[0].message or \
            "row 'nano / FP16 / rt 1.2' has 3.40 against 3.70" in found[0].message


def test_a_section_row_with_no_rows_under_it_makes_no_sections():
    markdown = STACKED.replace("| **old GPU** |\n", "| **old GPU** |\n| **older GPU** |\n")
    assert sections(parse_document(markdown, "x.md").tables[0]) == []


def test_a_table_of_one_label_column_before_does_not_stop_the_search():
    before = "| Model | Latency (ms) |\n|---|---:|\n| nano | 3.1 |\n| small | 4.4 |\n\n"
    text = before + ROW_VARIANTS + "INT8 has a lower latency than FP16 for every model.\n"
    assert [f.line for f in lint_text(text, "x.md") if f.code == "SG107"] == [15]


@pytest.mark.parametrize("text, printed, unsettled", [
    ("beta is -60.0% faster than alpha", "-60.0", True),
    ("needs -25% less memory", "-25", True),
    ("beta is 60.0% faster than alpha", "60.0", False),
    ("a -1.4x ratio", "-1.4", False),  # a ratio's sign is no direction word's: only percentages
])
def test_a_minus_sign_on_a_percentage_unsettles_its_direction_word(text, printed, unsettled):
    assert sign_unsettles_word(_figure(text, printed)) is unsettled


# two tools' build times, one table and one table each: beta (30.00 s) takes 2.5 times alpha's (12.00 s), so
# beta's speed is 12 / 30 - 1 = -60% of alpha's and alpha's time is (12 - 30) / 30 = -60% below beta's
_ONE_TABLE = "# Build times\n\n| Tool | Time (s) |\n| --- | --- |\n| alpha | 12.00 |\n| beta | 30.00 |\n\n"
_TWO_TABLES = ("# Build times\n\n## Tools\n\n| Tool | Time (s) |\n| --- | --- |\n| alpha | 12.00 |\n\n"
               "| Tool | Time (s) |\n| --- | --- |\n| beta | 30.00 |\n\n")
_MEMORY = "# Memory\n\n| Tool | Peak memory (GB) |\n| --- | --- |\n| alpha | 30.0 |\n| beta | 12.0 |\n\n"


@pytest.mark.parametrize("tables, sentence", [
    (_ONE_TABLE, "beta is -60.0% faster than alpha."),
    (_ONE_TABLE, "- beta is -60.0% faster than alpha"),
    (_ONE_TABLE, "Beta comes out -60% quicker than alpha."),
    (_ONE_TABLE, "alpha is -60.0% slower than beta."),
    (_TWO_TABLES, "beta is -60.0% faster than alpha."),
    (_MEMORY, "beta needs -60% less memory than alpha."),  # the sign repeats "less"
])
def test_a_negative_percentage_is_read_by_its_size_whichever_way_its_word_goes(tables, sentence):
    assert [f for f in lint_text(tables + sentence + "\n", "x.md") if f.code == "SG103"] == []


@pytest.mark.parametrize("tables, sentence, line, message", [
    # the size is still read: 12 / 30 - 1 is -60%, not -20%
    (_ONE_TABLE, "beta is -20.0% faster than alpha.", 8, "-20.0% between row 'beta' and row 'alpha' does not follow"),
    (_TWO_TABLES, "beta is -20.0% faster than alpha.", 13, "-20.0% between 'beta' and 'alpha' does not follow"),
    # a percentage without a sign keeps its word's direction: beta's 30.00 s is not the faster time
    (_ONE_TABLE, "beta is 60.0% faster than alpha.", 8, "60.0% between row 'beta' and row 'alpha' goes the wrong way"),
])
def test_a_wrong_size_or_an_unsigned_wrong_way_is_still_a_finding(tables, sentence, line, message):
    found = [(f.line, f.message) for f in lint_text(tables + sentence + "\n", "x.md") if f.code == "SG103"]
    assert len(found) == 1 and found[0][0] == line and found[0][1].startswith(message)
