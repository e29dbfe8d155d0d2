"""SG101 and a range over variant columns that split a table's rows, the
clause naming no variant (studygen.lint.variant_ranges).

A trial README printed one timing column per precision ("fp32 (ms)", "fp16
allowed (ms)"), each row filled in one of them and dashed in the other, and
summarised them as "the GPU compute medians span A to B ms" with B short of
the largest row. No single column held both endpoints and the clause named
none, so nothing was read. The numbers below are our own: the three rows
hold 0.4821 (fp32), 0.4790 and 0.4862 (fp16).
"""

from __future__ import annotations

from studygen.lint import lint_text

SPLIT = """# Attention kernel study

## Results

| Kernel | fp32 (ms) | fp16 allowed (ms) |
|---|---|---|
| naive | 0.4821 | - |
| fused | - | 0.4790 |
| tiled | - | 0.4862 |

{sentence}
"""

# every row holds both precisions: the columns are two quantities, not one split in two
BOTH = """# Attention kernel study

## Results

| Kernel | fp32 (ms) | fp16 allowed (ms) |
|---|---|---|
| naive | 0.4821 | 0.4805 |
| fused | 0.4800 | 0.4790 |
| tiled | 0.4815 | 0.4862 |

{sentence}
"""


def _sg101(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


def test_unnamed_range_over_split_columns_is_read_against_all_of_them():
    found = _sg101(SPLIT.format(sentence="The GPU compute medians span 0.4790 to 0.4821 ms."))
    assert found == [(11, "range 0.4790 to 0.4821 ms leaves out row 'tiled' (0.4862 ms) of 'fp32 (ms)' and "
                          "'fp16 allowed (ms)' in the table at line 5")]


def test_unnamed_range_covering_every_row_is_quiet():
    assert _sg101(SPLIT.format(sentence="The GPU compute medians span 0.4790 to 0.4862 ms.")) == []


def test_range_one_column_fits_wholly_is_that_columns():
    # fp16 holds 0.4790 and 0.4862, both endpoints: the union's fp32 row at 0.5012 is not claimed
    text = SPLIT.format(sentence="The GPU compute medians span 0.4790 to 0.4862 ms.").replace("0.4821", "0.5012")
    assert _sg101(text) == []


def test_columns_filled_on_the_same_rows_are_not_joined_even_mostly_inside():
    # joined, five of the six figures would lie inside and both endpoints be found
    assert _sg101(BOTH.format(sentence="The GPU compute medians span 0.4790 to 0.4821 ms.")) == []


def test_range_in_another_section_is_joined_when_tied_and_both_ends_are_figures_of_it():
    # a latency word ties the far columns to the sentence, and 0.4790 and 0.4821 are both their figures
    # (studygen.lint.variant_ranges.far_unions; tests/lint/test_summary_ranges.py)
    text = (SPLIT.format(sentence="").replace("fp32 (ms)", "fp32 latency (ms)").replace("fp16 allowed (ms)", "fp16 latency (ms)")
            + "\n## Discussion\n\nThe latency medians span 0.4790 to 0.4821 ms.\n")
    assert _sg101(text) == [(15, "range 0.4790 to 0.4821 ms leaves out row 'tiled' (0.4862 ms) of 'fp32 latency (ms)' and "
                                 "'fp16 latency (ms)' in the table at line 5")]


def test_range_in_another_section_sharing_no_quantity_word_is_not_joined():
    text = SPLIT.format(sentence="") + "\n## Discussion\n\nThe kernels span 0.4790 to 0.4821 ms.\n"
    assert _sg101(text) == []


def test_range_naming_a_variant_keeps_reading_that_column():
    found = _sg101(SPLIT.format(sentence="The fp32 medians span 0.4790 to 0.4821 ms."))
    assert found == []  # fp32 has one row: nothing to summarise, and fp16 is not joined to it


def test_a_section_of_many_split_tables_joins_only_the_nearest():
    # every range of a section asks for its split tables: they are found once and the nearest MAX_READ read
    from studygen.lint.parse import parse_document
    from studygen.lint.series_index import MAX_READ
    from studygen.lint.variant_ranges import _unnamed_unions

    table = "| Kernel | fp32 (ms) | fp16 (ms) |\n|---|---|---|\n| a | 1.10 | - |\n| b | - | 0.90 |\n\nThe medians span 0.90 to 1.10 ms.\n\n"
    document = parse_document("# Runs\n\n" + table * (MAX_READ + 40), "x.md")
    block = document.prose[-1]
    sentence = block.sentences[0]
    unions = list(_unnamed_unions(block, sentence, "ms"))
    assert len(unions) == MAX_READ
    assert {u.table.order for u in unions} == {t.order for t in document.tables[-MAX_READ:]}
    assert len(document.__dict__["_row_split_tables"][(block.section, "ms")]) == MAX_READ + 40
