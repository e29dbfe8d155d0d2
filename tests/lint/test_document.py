"""Typed tables and prose from one markdown-it-py parse (studygen.lint.parse into studygen.lint.document)."""

from __future__ import annotations

from studygen.lint.parse import inline_text, markdown_parser, parse_document

SEED_TABLE = """Batch 1, x is fp16 time over FP8 time:

| GPU | TensorRT | fp16 ms 800x800 / 800x1067 | FP8 ms | x | plan MiB fp16 to FP8 | AP fp16 / FP8 | note |
|:----|--------:|:---:|---|---|---|---|---|
| B200 | 11.4 | 5.889 / 14.747 | 5.850 / 15.230 | 1.01 / 0.97 | 83.0 to 75.8 | 0.4644 / 0.4625 | `--fp16 \\| --best` |
| B300 | 11.4 | 5.816 / 14.487 | 5.764 / 14.861 | 1.01 / 0.97 | 84.9 to 78.0 | 0.4641 / 0.4619 | |
| B200 | 11.1 | 5.889 / 14.766 | 5.841 / 15.223 | 1.01 / 0.97 | 82.8 to 76.3 | 0.4636 / 0.4620 | |
"""


def _series(table):
    return {s.header: s for s in table.series}


def test_seed_results_table_is_typed():
    document = parse_document(SEED_TABLE, "x.md")
    (table,) = document.tables
    assert table.line == 3
    assert [row.line for row in table.rows] == [5, 6, 7]
    assert table.label_columns == [0, 1]
    assert [row.label for row in table.rows] == ["B200 / 11.4", "B300 / 11.4", "B200 / 11.1"]
    series = _series(table)
    # a multi-figure column becomes one series per figure, with the header split
    assert [v.text for v in series["fp16 ms 800x1067"].values] == ["14.747", "14.487", "14.766"]
    assert series["fp16 ms 800x1067"].unit == "ms" and series["fp16 ms 800x1067"].varying == "800x1067"
    # a sibling's split names the parts of a header that does not split ("FP8 ms", "x")
    assert [v.text for v in series["FP8 ms 800x800"].values] == ["5.850", "5.764", "5.841"]
    assert series["x 800x1067"].unit == "x"
    # "83.0 to 75.8" under "plan MiB fp16 to FP8": two series in MiB
    assert [v.value for v in series["plan MiB FP8"].values] == [75.8, 78.0, 76.3]
    assert series["plan MiB fp16"].unit == "MiB"
    assert series["AP FP8"].unit == "AP" and series["AP FP8"].values[0].text == "0.4625"
    # the note column (inline code with an escaped pipe) is neither a label nor a figure
    assert table.rows[0].cells[7] == "--fp16 | --best"
    assert all(s.column != 7 for s in table.series)


def test_statistics_units_from_cells_and_context():
    text = """### Latency (ms)

| GPU | median | p99 | min / max | share |
|---|---|---|---|---|
| B200 | 5.889 | 6.02 | 5.84 / 6.4 | 12% |
| B300 | 5.816 | 5.97 | 5.80 / 6.1 | 9% |
"""
    (table,) = parse_document(text, "x.md").tables
    series = _series(table)
    assert series["median"].stat == "p50" and series["median"].unit == "ms"
    assert series["p99"].stat == "p99"
    assert series["min"].stat == "min" and series["max"].stat == "max"
    assert series["share"].unit == "%"


def test_prose_blocks_keep_lines_and_sentences():
    text = "# Title\n\nFirst sentence, 0.19 to 0.21 ms.\nSecond line: `code` and [a link](https://x.org/2119) 8% to 9%.\n\n- item with 1.01x\n"
    document = parse_document(text, "x.md")
    paragraph = document.prose[0]
    assert paragraph.line == 3
    sentences = paragraph.sentences
    assert [s.line_at(s.start) for s in sentences] == [3, 4]
    assert [r.text for r in sentences[1].ranges] == ["8% to 9%"]
    assert "https" not in paragraph.text  # link targets are not prose
    assert document.prose[1].in_list


def test_restriction_views():
    text = """On TensorRT 11.4 at 800 x 800 the GEMMs take 0.19 to 0.21 ms, except on B300.

| GPU | TensorRT | shape | GEMM ms |
|---|---|---|---|
| B200 | 11.4 | 800 x 800 | 0.19 |
| B300 | 11.4 | 800 x 800 | 0.25 |
| B200 | 11.1 | 800 x 800 | 0.21 |
| B200 | 11.4 | 800 x 1067 | 0.21 |
"""
    document = parse_document(text, "x.md")
    sentence = document.prose[0].sentences[0]
    view = sentence.clause_view(sentence.ranges[0].start)
    assert document.tables[0].restrict(view) == [0, 1]
    # the exclusion sits in the sentence as a whole
    assert document.tables[0].restrict(sentence.view) == [0]


def _library_tables(text):
    """(headers, [(line, cells)]) of every table as markdown-it-py's own GFM
    table rule reads it, cell texts from the library's inline parse."""
    tables = []
    cells, rows, headers, line, inside = [], [], [], 0, False
    for token in markdown_parser().parse(text):
        if token.type == "table_open":
            headers, rows, inside = [], [], True
        elif token.type == "tr_open":
            cells, line = [], token.map[0] + 1
        elif token.type == "inline" and inside:
            cells.append(inline_text(token.content).strip())
        elif token.type == "tr_close":
            if headers:
                rows.append((line, cells))
            else:
                headers = cells
        elif token.type == "table_close":
            tables.append((headers, rows))
            inside = False
    return tables


def test_compact_table_reader_agrees_with_the_library_rule():
    """The compact body reader (one token for a table body) gives the cells
    and lines markdown-it-py's own table rule gives: inline markup, escaped
    pipes, padded and cut rows, a body ended by a blank line, a heading or a
    blockquote, a table in a list item and in a blockquote."""
    text = (
        SEED_TABLE
        + "\n| GPU | ms |\n|---|---|\n| **H200** | 2.5 | extra |\n| H100 |\n| `a \\| b` | [x](https://e.org) ![i](p.png) |\n# next\n"
        + "\n| only | header |\n|---|---|\n"
        + "\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n> quoted\n"
        + "\n- item\n\n  | a | b |\n  |---|---|\n  | 3 | 4 |\n"
        + "\n> | q | r |\n> |---|---|\n> | 5 | 6 |\n"
    )
    ours = [(t.headers, [(r.line, r.cells) for r in t.rows]) for t in parse_document(text, "x.md").tables]
    assert ours == _library_tables(text)
    assert len(ours) == 6
    assert ours[1][1] == [(11, ["H200", "2.5"]), (12, ["H100", ""]), (13, ["a | b", "x"])]
    assert ours[2] == (["only", "header"], [])


def test_column_typing_rules():
    """Which columns label rows and which hold figures, with what unit."""
    text = """| tokens | rank | Kernel interval union | model size | with draft | speedup | e2e_latency_ms | result | change |
|---:|---:|---:|---|---:|---|---:|---|---|
| 512 | 0 | 0.726 | 7B | 281 | 104.2 (0.97x) | 612 | 2x faster | 70% less memory than the eager run |
| 2048 | 1 | 0.678 | 13B | 270 | 315.1 (1.11x) | 655 | 2.2x faster | 75% less |
| 4096 | 0 | 4.827 | 34B | 268 | 620.3 (1.11x) | 731 | 1.9x faster | 60% less |
| 8192 | 1 | 3.815 | 70B | 1.55x | 1330.1 (1.05x) | 700 | 1.8x faster | 50% less |
"""
    (table,) = parse_document(text, "x.md").tables
    # a first column of sorted distinct integers keys the sweep; a few integers repeated label rows
    assert table.label_columns == [0, 1, 3]
    assert table.numeric_labels == {0: "tokens", 1: "rank"}
    series = _series(table)
    # a label word ("kernel") followed by a quantity: figures
    assert series["Kernel interval union"].values[2].value == 4.827
    # one x cell among throughputs does not make the column a ratio column
    assert series["with draft"].unit is None
    assert [v and v.value for v in series["with draft"].values] == [281, 270, 268, None]
    # a figure in parentheses is a figure of the cell, named by its unit
    assert series["speedup"].unit is None and series["speedup, x"].unit == "x"
    assert [v.value for v in series["speedup, x"].values] == [0.97, 1.11, 1.11, 1.05]
    # snake_case headers end in their unit
    assert series["e2e_latency_ms"].unit == "ms"
    # a figure and the direction it goes: "2x faster", "70% less" (a longer note is not a figure)
    assert [v.value for v in series["result"].values] == [2, 2.2, 1.9, 1.8] and series["result"].unit == "x"
    assert [v and v.value for v in series["change"].values] == [None, 75, 60, 50]
    # label words that tell rows apart, for prose that names rows by them
    words = parse_document("| configuration | ms |\n|---|---:|\n| deepep_decode | 1 |\n| none_prefill | 2 |\n| none_decode | 3 |\n", "x").tables[0]
    assert words.label_parts[0]["decode"] == {0, 2} and words.label_parts[0]["none"] == {1, 2}


def test_cell_figures_keep_their_text_digits_and_offsets():
    from studygen.lint.columns import _cell_figures

    (figure,), numeric = _cell_figures("5.889")
    assert numeric and figure == (5.889, "5.889", 3, None, 0, 5, False)
    (figure,), _ = _cell_figures("42")
    assert (figure.text, figure.decimals) == ("42", 0)
    (first, second), numeric = _cell_figures("0.409 → 0.073")
    assert numeric and (first.start, first.end, second.start, second.end) == (0, 5, 8, 13)
    assert (second.text, second.decimals) == ("0.073", 3)
    # one figure and the direction it goes (at most four words) is numeric; more words, or two figures, are a note
    assert _cell_figures("2x faster")[1] and _cell_figures("70% less than stock kernels")[1]
    assert not _cell_figures("70% less than the stock kernels")[1]
    assert not _cell_figures("2x faster or 3x slower")[1]
    assert not _cell_figures("3 runs on B200")[1]


def test_numeric_labels_remember_the_header_word_before_them():
    document = parse_document("| batch | ms |\n|---|---|\n| 1 | 5.1 |\n| 8 | 9.0 |\n| 16 | 14.2 |\n"
                              "\n| | ms |\n|---|---|\n| 1 | 5.1 |\n| 8 | 9.0 |\n| 16 | 14.2 |\n", "x.md")
    assert document.tables[0].numeric_labels == {0: "batch"}
    assert document.tables[1].numeric_labels == {0: ""}


def test_label_parts_split_shapes_written_with_a_times_sign():
    document = parse_document("| shape | ms |\n|---|---|\n| 800×800 fp16 | 5.1 |\n| 800×1067 fp16 | 9.0 |\n| 800×800 fp8 | 4.9 |\n", "x.md")
    parts = document.tables[0].label_parts[0]
    assert parts["fp8"] == {2} and parts["800x1067"] == {1}


def test_a_cell_of_several_figures_gives_the_series_unit_its_own_figure():
    document = parse_document("| run | latency ms |\n|---|---|\n| a | 5.889 ms (1.01x) |\n| b | 5.850 ms (1.00x) |\n", "x.md")
    latency = next(s for s in document.tables[0].series if s.unit == "ms")
    assert [v.text for v in latency.values] == ["5.889", "5.850"]


def test_half_numeric_cells_make_a_label_column_and_half_the_cells_give_a_unit():
    # "tag": 2 numeric cells of 4 is a label column; "time": 1 cell of 4 prints ms (no unit),
    # "wall": 2 of 4 print ms (the column's unit)
    document = parse_document("| run | tag | time | wall |\n|---|---|---|---|\n| a | 12 | 5.1 ms | 5.1 ms |\n"
                              "| b | fast | 5.2 | 5.2 ms |\n| c | 7 | 5.3 | 5.3 |\n| d | slow | 5.4 | 5.4 |\n", "x.md")
    table = document.tables[0]
    assert table.label_columns == [0, 1]
    assert [(s.header, s.unit) for s in table.series] == [("time", None), ("wall", "ms")]


def test_a_cell_of_several_figures_gives_its_column_the_one_of_the_column_unit_only():
    from studygen.lint.columns import _split_header

    # a unitless column: the cell "6.1 (+3%)" holds two figures and no unit says which is the column's
    (table,) = parse_document("| run | latency |\n|---|---|\n| a | 5.9 |\n| b | 6.1 (+3%) |\n| c | 6.0 |\n", "x.md").tables
    assert [v.text if v else None for v in table.series[0].values] == ["5.9", None, "6.0"]
    # a header whose last part is shared: "prefill / decode ms p50" -> prefill ms p50, decode ms p50
    assert _split_header("prefill / decode ms p50", 2) == [("prefill ms p50", "prefill"), ("decode ms p50", "decode")]
