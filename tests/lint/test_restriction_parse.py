"""Restriction views, empty cells, sections, list depth and table context,
read through the public parse (studygen.lint.parse.parse_document) and the
view class (studygen.lint.restriction.TextView).

Expected rows, tokens and sections were read off the small documents below
by hand."""

from __future__ import annotations

from studygen.lint.document import is_empty_cell
from studygen.lint.parse import inline_text, parse_document
from studygen.lint.restriction import TextView, restricted_rows

SWEEP = """Decode time by prompt length.

| tokens | decode ms |
|---:|---:|
| 512 | 1.5 |
| 1024 | 2.1 |
| 4096 | 5.5 |
| 8192 | 9.7 |
"""


def test_a_sweep_point_or_span_named_without_its_header_word_restricts_the_rows():
    (table,) = parse_document(SWEEP, "x.md").tables
    assert table.numeric_labels == {0: "tokens"}
    # "at 8192": the 8192 row only; "at 1024-8192": both ends included
    assert restricted_rows(table, TextView("at 8192 the decode takes 9.7 ms", frozenset())) == [3]
    assert restricted_rows(table, TextView("at 1024-8192 the decode takes 2.1 to 9.7 ms", frozenset())) == [1, 2, 3]
    # a span whose ends the table does not hold is another sweep
    assert restricted_rows(table, TextView("at 1024-16384 the decode takes 2.1 to 9.7 ms", frozenset())) is None


def test_exclusion_words_mark_the_next_five_tokens():
    assert TextView("The GEMMs take 0.2 ms apart from B300", frozenset()).excluded == {"b300"}
    assert TextView("The GEMMs take 0.2 ms other than on B300 and H200", frozenset()).excluded == {"on", "b300", "and", "h200"}
    assert TextView("From B300 apart, the GEMMs take 0.2 ms", frozenset()).excluded == set()  # "apart" must come first
    assert TextView("The GEMMs take 0.2 ms on B300", frozenset()).excluded == set()


def test_a_numeric_label_is_named_after_its_header_word_and_by_its_release():
    view = TextView("on TensorRT 11.4 and cuDNN 9.1 it is fast, except TensorRT 10.0", frozenset())
    assert view.numeric_mention("tensorrt", "11.4.0.106") == 1  # 11.4 names release 11.4.0.106
    assert view.numeric_mention("cudnn", "9.1.0") == 1
    assert view.numeric_mention("tensorrt", "10.0") == -1  # named after "except"
    assert view.numeric_mention("tensorrt", "11.1") == 0
    assert view.numeric_mention("batch", "1") == 0  # the header word is not in the text


def test_empty_cells_in_any_case():
    assert is_empty_cell("N/A") and is_empty_cell("TBD") and is_empty_cell("—") and is_empty_cell("")
    assert not is_empty_cell("n/a/b") and not is_empty_cell("0") and not is_empty_cell("none yet")


def test_sections_list_depth_and_table_context():
    text = ("# A\n\none\n\n## B\n\ntwo\n\n### C\n\nthree\n\n1. item\n\nafter\n\n- bullet\n\nlast\n\n"
            "Intro for the table.\n| a | ms |\n|---|---|\n| x | 1 |\n")
    document = parse_document(text, "x.md")
    # a heading of level 1 or 2 starts a section, a level-3 heading does not
    assert [(b.section, b.text, b.in_list) for b in document.blocks] == [
        (1, "A", False), (1, "one", False), (2, "B", False), (2, "two", False), (2, "C", False), (2, "three", False),
        (2, "item", True), (2, "after", False), (2, "bullet", True), (2, "last", False),
        (2, "Intro for the table.", False)]
    # the paragraph right above a table is part of its context, after the heading
    assert document.tables[0].context == "C\nIntro for the table."
    assert document.tables[0].section == 2


def test_a_paragraph_set_apart_from_the_table_is_not_its_context():
    document = parse_document("### Latency\n\nIntro in ms.\n\n```\ncode\n```\n| a | ms |\n|---|---|\n| x | 1 |\n", "x.md")
    assert document.tables[0].context == "Latency"


def test_inline_text_of_plain_multi_line_content_trims_each_line():
    assert inline_text("  first line \t\n\tsecond  ") == "first line\nsecond"
    assert inline_text("Xeon 8480 \nH100 X") == "Xeon 8480\nH100 X"  # only blanks are trimmed
    assert inline_text("a *b* `c`") == "a b c"


def test_a_row_without_a_label_is_named_by_its_line():
    (table,) = parse_document("| GPU | ms |\n|---|---|\n| B200 | 1.5 |\n| — | 2.5 |\n", "x.md").tables
    assert [row.name() for row in table.rows] == ["row 'B200'", "the row at line 4"]


SPEEDUPS = """{sentence}

| variant | tokens | speedup x |
|---|---:|---:|
| fp8 | 1024 | 1.10 |
| nvfp4 | 1024 | 0.80 |
| nvfp4 | 4096 | 0.83 |
| fp8 | 4096 | 1.20 |
"""


def _rows_of_the_range(sentence: str) -> list[int]:
    document = parse_document(SPEEDUPS.format(sentence=sentence), "x.md")
    view_of = document.prose[0].sentences[0]
    (figure,) = view_of.ranges
    assert figure.text == "0.80 to 0.83x"
    return document.tables[0].restrict(view_of.clause_view(figure.start, len(figure.text)))


def test_inside_a_parenthesis_the_parenthesis_scopes_the_figure():
    # the words around the figure ("0.80 to 0.83x)") name no label; the parenthesis names nvfp4 at 1024
    assert _rows_of_the_range("(nvfp4 loses at 1024, 0.80 to 0.83x) is the only loss.") == [1]
    assert _rows_of_the_range("Results (a) differ (nvfp4 loses at 1024, 0.80 to 0.83x).") == [1]
    assert _rows_of_the_range("(nvfp4 loses at 1024, 0.80 to 0.83x) is the only loss (fp8 wins).") == [1]
    # the parenthesis ends at its ")": what follows it does not scope the figure
    assert _rows_of_the_range("Mostly (nvfp4 loses at 1024, 0.80 to 0.83x); fp8 wins at 4096.") == [1]
    assert _rows_of_the_range("Mostly (nvfp4 loses at 1024, 0.80 to 0.83x) but fp8 wins at 4096.") == [1]


def test_long_inline_content_is_parsed_in_pieces_without_losing_characters():
    one_line = "*FP8* " + "word " * 5000 + "**end**"  # over INLINE_PIECE: cut after a space
    assert inline_text(one_line) == one_line.replace("*", "")
    lines = "*FP8* line\n" + ("word " * 100 + "\n") * 50 + "**end**"  # cut at line ends
    assert inline_text(lines) == "\n".join(line.rstrip(" ") for line in lines.replace("*", "").split("\n"))


def test_site_source_dedents_admonitions_but_not_inside_fences():
    from studygen.lint.parse import site_source

    text = "!!! note\n    ~~~\n    !!! tip\n        code\n    ~~~\n    after"
    # the "!!! tip" inside the tilde fence opens no container: "code" keeps four of its spaces
    assert site_source(text) == "!!! note\n~~~\n!!! tip\n    code\n~~~\nafter"


def test_reference_links_read_as_their_text():
    document = parse_document("See [the log][1] for 0.2 ms.\n\n[1]: https://example.org/log\n", "x.md")
    assert document.prose[0].text == "See the log for 0.2 ms."
