"""SG101 and ranges that span repeated measurements or stand far from the table they match
(studygen.lint.repeat_ranges, studygen.lint.sg101_range_coverage).

The long H200 property run (seed 2026, example 492 of 500) rendered "each of the 6 compilations of FP8
recipe (72 linears) was slower than each of the 3 compilations of fp16, by 0.212 to 2.927 ms" in the
summary, and lint read it against the per-row differences of the kernel-time table 240 lines further
on. Below, the same shape on a small document of our own; differences worked out by hand:
FP8 minus fp16 per 800 x 1067 row: GridSample 9.112 - 10.678 = -1.566, GEMM 1.392 - 1.180 = 0.212,
normalization 0.878 - 0.623 = 0.255, Conv 0.469 - 0.432 = 0.037, total 12.950 - 12.904 = 0.046.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.figures import find_ranges, tokenize
from studygen.lint.repeat_ranges import repeats_spanned, rows_are
from studygen.lint.parse import parse_document

KERNELS = """## Kernel time per group (ms per forward)

| Shape HxW | Mode | Kernel group | fp32 (ms) | fp16 (ms) | FP8 recipe (72 linears) (ms) |
|---|---|---|---|---|---|
| 800 x 800 | eager | GridSample | 3.041 | 2.908 | 2.924 |
| 800 x 1067 | compile | GridSample | not measured | 10.678 | 9.112 |
| 800 x 1067 | compile | GEMM/MatMul | not measured | 1.180 | 1.392 |
| 800 x 1067 | compile | normalization | not measured | 0.623 | 0.878 |
| 800 x 1067 | compile | Conv | not measured | 0.432 | 0.469 |
| 800 x 1067 | compile | total | not measured | 12.904 | 12.950 |
"""


def _far(sentence: str) -> str:
    """``sentence`` in a summary section, the kernel table two sections on (the table's line is 13)."""
    return "# Study\n\n## Summary\n\n- " + sentence + "\n\n## Method\n\nText.\n\n" + KERNELS


def _sg101(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


def test_a_range_over_every_pair_of_compilations_is_not_read_against_a_table_of_kernel_groups():
    # fails before: "range 0.212 to 2.927 ms leaves out 3 rows ... of a difference of 'fp16 (ms)' and 'FP8 ...'"
    assert _sg101(_far("At 800 x 1067, compiled, each of the 6 compilations of FP8 recipe (72 linears) was slower than "
                       "each of the 3 compilations of fp16, by 0.212 to 2.927 ms; the medians are 13.334 and 11.340 ms.")) == []


def test_a_range_far_from_a_table_it_meets_at_one_end_over_a_minority_of_the_named_rows_is_no_summary_of_it():
    # fails before: the clause names the 800 x 1067 compiled rows; 2 of their 5 differences lie in the range, one end is found
    assert _sg101(_far("At 800 x 1067, compiled, FP8 recipe (72 linears) was slower than fp16, by 0.212 to 2.927 ms.")) == []


def test_a_far_range_that_meets_both_ends_of_the_named_rows_is_still_read():
    # 0.212 and 0.255 are both rows' differences: GridSample (-1.566), Conv (0.037) and total (0.046) are left out
    (finding,) = _sg101(_far("At 800 x 1067, compiled, the FP8 recipe (72 linears) adds 0.212 to 0.255 ms of kernel "
                             "time per group over fp16."))
    assert finding[0] == 5
    assert finding[1].startswith("range 0.212 to 0.255 ms leaves out 3 rows: '800 x 1067 / compile / GridSample")
    assert "(9.112 - 10.678 = -1.566 ms)" in finding[1] and "(12.950 - 12.904 = 0.046 ms)" in finding[1]


def test_a_far_range_that_covers_most_of_the_named_rows_is_still_read():
    # 0.037, 0.046, 0.212 and 0.255 are in 0.03 to 0.3 ms; only GridSample's -1.566 is left out: 4 of 5, one end (0.3) not found
    (finding,) = _sg101(_far("At 800 x 1067, compiled, FP8 recipe (72 linears) was slower than fp16, by 0.03 to 0.3 ms."))
    assert "leaves out row '800 x 1067 / compile / GridSample / not measured' (9.112 - 10.678 = -1.566 ms)" in finding[1]


COMPILATIONS = """# Compiled latency

Each of the six compilations took 8.2 to 8.9 ms.

| Compilation | Median ms |
|---|---|
| 1 | 8.21 |
| 2 | 8.46 |
| 3 | 8.88 |
| 4 | 9.34 |
| 5 | 8.52 |
| 6 | 8.30 |
"""


def test_a_range_over_repeats_is_read_against_a_table_whose_rows_are_those_repeats():
    assert _sg101(COMPILATIONS) == [
        (3, "range 8.2 to 8.9 ms leaves out row '4' (9.34 ms) of 'Median ms' in the table at line 5")]
    # a table of runs is not a table of compilations: the range is no summary of it
    assert _sg101(COMPILATIONS.replace("| Compilation |", "| Run |")) == []


def test_a_figure_pooled_over_repeats_leaves_the_range_a_summary_of_rows():
    table = "| GPU | Median ms |\n|---|---|\n| A100 | 8.21 |\n| H100 | 9.34 |\n| H200 | 8.46 |\n"
    pooled = "# Latency\n\nThe medians over every compilation range from 8.2 to 8.5 ms.\n\n" + table
    assert _sg101(pooled) == [(3, "range 8.2 to 8.5 ms leaves out row 'H100' (9.34 ms) of 'Median ms' in the table at line 5")]
    spans = "# Latency\n\nEvery compilation took 8.2 to 8.5 ms.\n\n" + table
    assert _sg101(spans) == []


@pytest.mark.parametrize("text, noun", [
    ("each of the 6 compilations of FP8 was slower than each of the 3 of fp16, by 0.212 to 2.927 ms", "compilation"),
    ("the ratio is 0.81x to 1.00x over every pair of compilations", "compilation"),
    ("across all three seeds AP moves by 0.1 to 0.3", "seed"),
    ("pairs of runs differ by 0.2 to 0.4 ms", "run"),
    ("it varies 2.1 to 2.4 ms from one build to the next", "build"),
    ("run-to-run it moves 2.1 to 2.4 ms", "run"),
    ("both jobs measure 5.1 to 5.3 ms", "job"),
    ("the medians over every compilation range from 8.2 to 8.5 ms", None),
    ("averaged across all runs, fp16 takes 8.2 to 8.5 ms", None),
    ("each GPU takes 8.2 to 8.5 ms", None),
    ("the run takes 8.2 to 8.5 ms", None),
    # another statement of the sentence (after a semicolon) does not scope the range
    ("fp16 takes 8.2 to 8.5 ms; each of the 3 runs was timed alone", None),
    # nor does another comma clause (the seed: a kernel-time summary "..., which is within run-to-run noise"),
    # unless the range's clause is only a joining word and the range, or the sentence opens with the repeats
    ("The GEMMs take 0.19 to 0.21 ms of a profiled run of 7.4 ms, which is within run-to-run noise", None),
    ("fp16 takes 8.2 to 8.5 ms, and each of the 3 runs was timed alone", None),
    ("each of the 3 runs of int8 beat each of the 2 runs of fp16, by 0.2 to 0.4 ms", "run"),
    ("Over every pair of compilations, fp16 takes 8.2 to 8.5 ms", "compilation"),
    ("In eager mode, each of the 3 runs was slower, and fp16 takes 8.2 to 8.5 ms", None),
])
def test_the_repeats_a_range_spans(text, noun):
    (rng,) = [r for r in find_ranges(text, tokenize(text)) if r.kind == "range"]
    assert repeats_spanned(text, rng.start, rng.end) == noun


def test_rows_are_named_by_a_label_header_or_a_label_word():
    document = parse_document("| Job | run | ms |\n|---|---|---|\n| a | first | 1.0 |\n| b | second | 2.0 |\n", "x.md")
    (table,) = document.tables
    assert rows_are(table, "job") and rows_are(table, "run")
    assert not rows_are(table, "compilation")
    labelled = parse_document("| Setting | ms |\n|---|---|\n| compilation 1 | 1.0 |\n| compilation 2 | 2.0 |\n", "x.md")
    assert rows_are(labelled.tables[0], "compilation") and not rows_are(labelled.tables[0], "seed")


@pytest.mark.parametrize("text", [
    # the repeats stand in another statement, before or after the range's (semicolons and colons part them)
    "x; each of the 3 runs was timed alone; fp16 takes 8.2 to 8.5 ms",
    "x: each of the 3 runs was timed alone: fp16 takes 8.2 to 8.5 ms",
    "fp16 takes 8.2 to 8.5 ms; x each of the 3 runs; y",
    "fp16 takes 8.2 to 8.5 ms: x each of the 3 runs: y",
])
def test_a_statement_ends_at_the_nearest_semicolon_or_colon(text):
    (rng,) = find_ranges(text, tokenize(text))
    assert repeats_spanned(text, rng.start, rng.end) is None
    # the same words in the range's own clause
    joined = text.replace(";", " and").replace(":", " and")
    (rng,) = find_ranges(joined, tokenize(joined))
    assert repeats_spanned(joined, rng.start, rng.end) == "run"


def test_a_statement_reaches_at_most_1000_characters_either_side_of_its_range():
    from studygen.lint.repeat_ranges import STATEMENT_REACH

    assert STATEMENT_REACH == 1000
    opening = "each of the 3 runs "
    for pad, noun in ((999, "run"), (1000, None)):  # "each" starts 1000 characters before the range, then 1001
        text = opening + "x" * (pad - len(opening)) + " 8.2 to 8.5 ms"
        (rng,) = find_ranges(text, tokenize(text))
        assert rng.start == pad + 1
        assert repeats_spanned(text, rng.start, rng.end) == noun
    text = "8.2 to 8.5 ms " + "x " * 600 + "each of the 3 runs"
    assert repeats_spanned(text, 0, 13) is None
    assert repeats_spanned("8.2 to 8.5 ms " + "x " * 400 + "each of the 3 runs", 0, 13) == "run"


def test_a_pooled_repeat_noun_does_not_hide_a_spanning_one_after_it():
    text = "the medians over every compilation differ, and each of the 3 runs takes 8.2 to 8.5 ms"
    (rng,) = find_ranges(text, tokenize(text))
    assert repeats_spanned(text, rng.start, rng.end) == "run"


def test_a_noun_inside_a_longer_word_is_no_repeat_row():
    document = parse_document("| Setting | ms |\n|---|---|\n| prerun | 1.0 |\n| runner | 2.0 |\n", "x.md")
    assert not rows_are(document.tables[0], "run")
    assert rows_are(parse_document("| Setting | ms |\n|---|---|\n| runs a | 1.0 |\n| b | 2.0 |\n", "x.md").tables[0], "run")


@pytest.mark.parametrize("stop", [";", ":"])
def test_the_statement_window_is_searched_only_inside_its_reach(stop):
    # a stop more than 1000 characters back is out of reach: the repeat words after it stay out too
    far = stop + " each of the 3 runs " + "x" * 1100 + " 8.2 to 8.5 ms"
    (rng,) = find_ranges(far, tokenize(far))
    assert repeats_spanned(far, rng.start, rng.end) is None
    # a stop after the range ends the statement there, one before it starts it there
    for text, noun in ((f"each of the 3 runs took 8.2 to 8.5 ms{stop} y", "run"),
                       (f"x{stop} 8.2 to 8.5 ms over each of the 3 runs", "run")):
        (rng,) = find_ranges(text, tokenize(text))
        assert repeats_spanned(text, rng.start, rng.end) == noun
    # a stop more than 1000 characters after the range is out of reach as well
    late = "8.2 to 8.5 ms " + "x " * 600 + "each of the 3 runs" + stop + " z"
    assert repeats_spanned(late, 0, 13) is None


BATCHES = "# Latency\n\n{sentence}\n\n| Batch | int8 ms |\n|---|---|\n| 1 | 0.40 |\n| 4 | 0.45 |\n| 16 | 0.90 |\n| 64 | 2.10 |\n"


@pytest.mark.parametrize("sentence, codes", [
    # review: a clause spanning the table's own axis as well as repeats still summarises the table's rows
    ("int8 takes 0.40 to 0.45 ms at every batch size and in every run.", ["SG101"]),
    ("Across every batch in each of the 5 runs, int8 takes 0.40 to 0.45 ms.", ["SG101"]),
    # repeats alone: a range over runs is no summary of a table of batches
    ("In each of the 5 runs, int8 takes 0.40 to 0.45 ms.", []),
])
def test_a_range_over_repeats_and_the_tables_axis_is_read_against_it(sentence, codes):
    assert [f.code for f in lint_text(BATCHES.format(sentence=sentence), "x.md")] == codes
