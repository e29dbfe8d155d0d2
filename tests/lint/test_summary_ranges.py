"""SG101 and a range in a summary above the table it summarises
(studygen.lint.variant_ranges.far_unions, series_index.only_variant_column).

A new user's trial README put its summary above a latency table whose
precisions split the rows (one column filled per row), and four summary
ranges that left out the slowest row passed: the quantity named by the
table's heading ("the GPU compute medians", "the latency"), a possessive
claim over every variant, and a variant that heads one column ("fp16 runs
in ..."). Numbers and wording below are our own: rows of 0.2214 and 0.2250 ms
in the bf16 column and 0.2231 ms in the fp32 one.
"""

from __future__ import annotations

from studygen.lint import lint_text

DOC = """# Conv block study

One block, timed on one card.

## Summary

{sentence}

## Results

### Latency (ms, median kernel time)

| GPU | Driver | Shape | fp32 (ms) | bf16 (ms) |
|---|---|---|---|---|
| A10 | r535 | 64 x 64 | — | 0.2214 |
| A10 | r550 | 64 x 64 | 0.2231 | — |
| A10 | r560 | 64 x 64 | — | 0.2250 |
{extra}"""

BOTH = "'fp32 (ms)' and 'bf16 (ms)'"


def _sg101(sentence: str, extra: str = "") -> list[tuple[int, str]]:
    text = DOC.format(sentence=sentence, extra=extra)
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


def _left_out(range_text: str, row: str, value: str, columns: str = BOTH) -> list[tuple[int, str]]:
    return [(7, f"range {range_text} ms leaves out row '{row}' ({value} ms) of {columns} in the table at line 13")]


def test_heading_quantity_with_its_statistic_ties_the_far_table():
    found = _sg101("The three kernel medians lie between 0.2214 and 0.2231 ms.")
    assert found == _left_out("between 0.2214 and 0.2231", "A10 / r560 / 64 x 64", "0.2250")


def test_heading_kind_word_ties_the_far_table():
    found = _sg101("The latency ranges from 0.2214 to 0.2231 ms.")
    assert found == _left_out("0.2214 to 0.2231", "A10 / r560 / 64 x 64", "0.2250")


def test_a_variant_heading_one_column_names_it_in_a_far_section():
    found = _sg101("bf16 runs in 0.2214 to 0.2220 ms.")
    assert found == _left_out("0.2214 to 0.2220", "A10 / r560 / 64 x 64", "0.2250", "'bf16 (ms)'")


def test_every_variants_possessive_claims_the_range_across_them():
    found = _sg101("Not shipped: every variant's median kernel time lies between 0.2214 and 0.2231 ms.")
    assert found == _left_out("between 0.2214 and 0.2231", "A10 / r560 / 64 x 64", "0.2250")


def test_both_variants_possessive_claims_it_too():
    found = _sg101("Both variants' kernel medians lie between 0.2214 and 0.2231 ms.")
    assert found == _left_out("between 0.2214 and 0.2231", "A10 / r560 / 64 x 64", "0.2250")


def test_summary_ranges_covering_every_row_are_quiet():
    assert _sg101("The three kernel medians lie between 0.2214 and 0.2250 ms.") == []
    assert _sg101("The latency ranges from 0.2214 to 0.2250 ms.") == []
    assert _sg101("bf16 runs in 0.2214 to 0.2250 ms.") == []


def test_one_shared_word_that_names_no_quantity_ties_nothing():
    # "kernel" alone is a word of the heading, but no quantity kind or statistic beside it
    assert _sg101("Kernel launches take 0.2214 to 0.2231 ms.") == []


def test_a_range_naming_one_gpu_reads_only_its_rows():
    # the A10's rows run from bf16's 0.2214 to fp32's 0.2262: no single column holds both ends
    rows = "| A10 | r570 | 64 x 64 | 0.2262 | — |\n| L4 | r535 | 64 x 64 | — | 0.3105 |\n| L4 | r550 | 64 x 64 | 0.3120 | — |\n"
    assert _sg101("On the A10, the latency ranges from 0.2214 to 0.2262 ms.", rows) == []
    found = _sg101("The latency ranges from 0.2214 to 0.2262 ms.", rows)
    assert [message for _, message in found] == [
        "range 0.2214 to 0.2262 ms leaves out 2 rows: 'L4 / r535 / 64 x 64' (0.3105 ms), 'L4 / r550 / 64 x 64' (0.3120 ms) "
        f"of {BOTH} in the table at line 13"]


def test_a_range_naming_one_shape_reads_only_its_rows():
    rows = "| A10 | r570 | 64 x 64 | 0.2262 | — |\n| A10 | r535 | 128 x 128 | — | 0.8010 |\n| A10 | r550 | 128 x 128 | 0.8122 | — |\n"
    assert _sg101("At 64 x 64, the latency ranges from 0.2214 to 0.2262 ms.", rows) == []
    found = _sg101("The latency ranges from 0.2214 to 0.2262 ms.", rows)
    assert [message.split(" of ")[0] for _, message in found] == [
        "range 0.2214 to 0.2262 ms leaves out 2 rows: 'A10 / r535 / 128 x 128' (0.8010 ms), 'A10 / r550 / 128 x 128' (0.8122 ms)"]


def test_a_far_table_printing_one_end_of_the_range_is_not_joined():
    # 0.2240 is no figure of the table: one end met by chance ties no far table to the sentence
    assert _sg101("The latency ranges from 0.2214 to 0.2240 ms.") == []


def test_only_variant_column_wants_exactly_one_column_of_the_variant():
    from studygen.lint.parse import parse_document
    from studygen.lint.series_index import only_variant_column

    document = parse_document(DOC.format(sentence="", extra=""), "x.md")
    bf16 = next(s for s in document.series_by_unit["ms"] if s.header == "bf16 (ms)")
    assert only_variant_column(document, "ms", frozenset({"bf16", "run"})) is bf16
    assert only_variant_column(document, "ms", frozenset({"run"})) is None
    assert only_variant_column(document, "ms", frozenset({"bf16", "fp32"})) is None  # two columns named


def test_a_variant_heading_columns_of_two_tables_names_neither_far_one():
    # a second bf16 column elsewhere: "bf16" alone no longer says which table the range is about
    second = "\n## Appendix\n\n| GPU | bf16 (ms) |\n|---|---|\n| A10 | 0.4100 |\n| A10 | 0.4300 |\n"
    assert _sg101("bf16 runs in 0.2214 to 0.2220 ms.", second) == []
    document_text = DOC.format(sentence="", extra=second)
    from studygen.lint.parse import parse_document
    from studygen.lint.series_index import only_variant_column

    assert only_variant_column(parse_document(document_text, "x.md"), "ms", frozenset({"bf16"})) is None


def test_a_named_variant_is_read_against_its_own_column_not_the_union():
    # 0.2231 is fp32's: the clause is about bf16, whose 0.2250 it leaves out
    found = _sg101("bf16 latency ranges from 0.2214 to 0.2231 ms.")
    assert found == _left_out("0.2214 to 0.2231", "A10 / r560 / 64 x 64", "0.2250", "'bf16 (ms)'")


def test_a_variant_named_beside_another_quantity_or_under_no_quantity_names_no_far_column():
    # "kernel total" may be another quantity in ms; a heading naming no quantity says nothing of the column's
    assert _sg101("The bf16 kernel total takes 0.2214 to 0.2220 ms.") == []
    text = DOC.format(sentence="bf16 runs in 0.2214 to 0.2220 ms.", extra="").replace(
        "Latency (ms, median kernel time)", "Runs on the A10 (ms)")
    assert [f for f in lint_text(text, "x.md") if f.code == "SG101"] == []


def test_a_possessive_over_every_variant_joins_columns_filled_on_the_same_rows():
    # no split of the rows here, so only the possessive joins the two columns: 0.2301 lies outside
    text = ("# Study\n\n## Summary\n\nEvery variant's kernel time lies between 0.2214 and 0.2262 ms.\n\n## Results\n\n"
            "| GPU | fp32 (ms) | bf16 (ms) |\n|---|---|---|\n| A10 | 0.2262 | 0.2214 |\n| L4 | 0.2301 | 0.2240 |\n")
    found = [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]
    assert found == [(5, "range between 0.2214 and 0.2262 ms leaves out row 'L4' (0.2301 ms) of 'fp32 (ms)' and 'bf16 (ms)' "
                         "in the table at line 9")]
