"""SG101: a ratio range between two precisions ("bf16 over FP8 latency is
1.12x to 1.31x") is read only against ratio columns of those precisions, not
against a ratio column whose header names other sides (``Latency / GPU
busy``: a ratio within one variant) though its figures print like the range's
ends (issue 26's property test, class D: "fp16 over FP8 latency is 1.01x to
1.20x" against the H200 README's ``Latency / kernel total``;
studygen.lint.column_pairs.may_hold_ratio).

Figures of the tables, worked out by hand: bf16 / FP8 per GPU 5.60 / 5.00 =
1.12, 5.24 / 4.00 = 1.31, 7.00 / 5.00 = 1.40; latency over GPU busy time per
run 5.60 / 5.00 = 1.12, 5.24 / 4.00 = 1.31, 7.00 / 5.00 = 1.40 (the first
table's figures again, so the two print alike); in the covered variant 6.55 /
5.00 = 1.31.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# Ratios of bf16 to FP8, one per GPU; the range 1.12x to 1.31x leaves out B200.
PRECISIONS = """| GPU | bf16 ms | FP8 ms | bf16 / FP8 |
| --- | --- | --- | --- |
| L40S | 5.60 | 5.00 | 1.12x |
| H100 | 5.24 | 4.00 | 1.31x |
| B200 | 7.00 | 5.00 | 1.40x |
"""
# Latency over GPU busy time, one per run and variant: a ratio inside one variant.
HOST_LEFT_OUT = """| Job | Variant | Latency ms | GPU busy ms | Latency / GPU busy |
| --- | --- | --- | --- | --- |
| run-a | bf16 | 5.60 | 5.00 | 1.12x |
| run-a | FP8 | 5.24 | 4.00 | 1.31x |
| run-b | bf16 | 7.00 | 5.00 | 1.40x |
"""
HOST_COVERED = HOST_LEFT_OUT.replace("| run-b | bf16 | 7.00 | 5.00 | 1.40x |", "| run-b | bf16 | 6.55 | 5.00 | 1.31x |")

PHRASINGS = [
    "bf16 over FP8 latency is 1.12x to 1.31x on both GPUs.",
    "FP8 latency is 1.12x to 1.31x better than bf16's.",
    "Against bf16, FP8 cuts latency by 1.12x to 1.31x.",
    "The latency ratio of bf16 to FP8 spans 1.12x-1.31x.",
    "FP8 is 1.12x to 1.31x faster than bf16 in latency.",
]


def _summary_then(sentence: str, *sections: str) -> str:
    """A summary section holding ``sentence``, then one section per table."""
    body = "".join(f"## Table {i}\n\n{table}\n" for i, table in enumerate(sections, 1))
    return f"# Results\n\n## Summary\n\n- {sentence}\n\n{body}"


@pytest.mark.parametrize("sentence", PHRASINGS)
def test_a_ratio_of_two_precisions_is_not_read_against_a_ratio_inside_one_variant(sentence):
    # The only column of x figures that holds both ends is latency over GPU busy time: it is no bf16-to-FP8 ratio.
    assert lint_text(_summary_then(sentence, HOST_LEFT_OUT), "x.md") == []


@pytest.mark.parametrize("sentence", PHRASINGS)
def test_a_range_leaving_out_a_precision_ratio_is_caught_though_another_ratio_column_fits(sentence):
    # Same section, both tables: the ratio column of the two precisions leaves out B200; the host column, whose
    # figures the range covers and whose header shares "latency" with every phrasing, must not clear it.
    text = f"# Results\n\n## Speed\n\n{PRECISIONS}\n{HOST_COVERED}\n{sentence}\n"
    (finding,) = lint_text(text, "x.md")
    assert finding.code == "SG101" and finding.line == 17
    assert "leaves out row 'B200' (1.40x) of 'bf16 / FP8' in the table at line 5" in finding.message


def test_a_sentence_naming_both_sides_of_the_ratio_is_read_against_that_column():
    # It names two precisions, and "latency over GPU busy" names each side of the column: the column is its own.
    sentence = "For bf16 and FP8 alike, latency over GPU busy time is 1.12x to 1.31x."
    (finding,) = lint_text(_summary_then(sentence, HOST_LEFT_OUT), "x.md")
    assert "leaves out row 'run-b / bf16' (1.40x) of 'Latency / GPU busy'" in finding.message


def test_a_ratio_of_other_precisions_is_not_the_sentences():
    # fp32 / fp16 shares no variant pair with "bf16 over FP8": its 1.40x is not left out by the range
    other = PRECISIONS.replace("bf16 ms | FP8 ms | bf16 / FP8", "fp32 ms | fp16 ms | fp32 / fp16")
    text = f"# Results\n\n## Speed\n\n{other}\nbf16 over FP8 latency is 1.12x to 1.31x.\n"
    assert lint_text(text, "x.md") == []
    # the same column under the sentence's own precisions, in either order, is read
    for header in ("bf16 / FP8", "FP8 / bf16", "bf16 over FP8"):
        own = PRECISIONS.replace("bf16 / FP8", header)
        (finding,) = lint_text(f"# Results\n\n## Speed\n\n{own}\nbf16 over FP8 latency is 1.12x to 1.31x.\n", "x.md")
        assert f"leaves out row 'B200' (1.40x) of '{header}'" in finding.message


@pytest.mark.parametrize("header", ["Speedup", "Speedup over bf16", "FP8 vs bf16"])
def test_a_header_naming_no_sides_or_one_precision_of_the_sentence_may_hold_its_ratio(header):
    # "Speedup" says nothing of what it divides; "Speedup over bf16" names one side, a precision of the sentence
    table = PRECISIONS.replace("bf16 / FP8", header)
    (finding,) = lint_text(f"# Results\n\n## Speed\n\n{table}\nFP8 is 1.12x to 1.31x faster than bf16.\n", "x.md")
    assert f"leaves out row 'B200' (1.40x) of '{header}'" in finding.message


@pytest.mark.parametrize("sentence", ["Latency is 1.12x to 1.31x the GPU busy time in every run.",
                                      "Over both runs, latency over GPU busy time is 1.12x to 1.31x."])
def test_a_sentence_naming_fewer_than_two_precisions_may_summarise_any_ratio_column(sentence):
    # no ratio of two variants is stated: the latency-over-busy column is what the range summarises, and it leaves out
    (finding,) = lint_text(_summary_then(sentence, HOST_LEFT_OUT), "x.md")
    assert "leaves out row 'run-b / bf16' (1.40x) of 'Latency / GPU busy'" in finding.message


# Throughput of bf16 and FP8 at batch 8 and FP8 over bf16: 560 / 500 = 1.12, 524 / 400 = 1.31, 700 / 500 = 1.40.
RATES = """| GPU | bf16 {unit} | FP8 {unit} | {header} |
| --- | --- | --- | --- |
| L40S | 500 | 560 | 1.12x |
| H100 | 400 | 524 | 1.31x |
| B200 | 500 | 700 | 1.40x |
"""


@pytest.mark.parametrize("unit, header, sentence", [
    ("img/s", "Speedup (x), img/s at batch 8", "FP8 over bf16 speedup is 1.12x to 1.31x."),
    ("tokens/s", "Throughput gain (x), tokens/s at batch 8", "FP8 over bf16 throughput gain is 1.12x to 1.31x."),
])
def test_the_slash_of_a_rate_unit_does_not_part_a_ratio_header_into_sides(unit, header, sentence):
    # "img/s at batch 8" is one side's unit, not 'Speedup (x), img' over 's at batch 8' (sides the sentence does
    # not name, which made the column read as another ratio than the sentence's): the range leaves out B200
    table = RATES.format(unit=unit, header=header)
    (finding,) = lint_text(f"# Results\n\n## Speed\n\n{table}\n{sentence}\n", "x.md")
    assert finding.code == "SG101" and finding.line == 11
    assert f"leaves out row 'B200' (1.40x) of '{header}' in the table at line 5" in finding.message
