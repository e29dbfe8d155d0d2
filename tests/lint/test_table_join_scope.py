"""What studygen/lint/table_joins.py reads around a table (its headings,
its lead-in line, its label cells) and which tables a claim is paired
across (its own section, its top heading, the nearest TABLE_LIMIT).
Documents and figures of our own; each test pins a rule a mutation run
of the module left unchecked."""

from __future__ import annotations

from studygen.lint import lint_text, parse_document
from studygen.lint.table_joins import TABLE_LIMIT, Sides, cells_of, names_of, sides


def _sg107(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.md") if f.code == "SG107"]


_ONE_ROW = "\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 1.0 |\n\n"
_TWELVE = "One two three four five six seven eight nine ten eleven twelve"
SCOPES = parse_document(
    "### Orin fp16 engine batch 8" + _ONE_ROW
    + "### Latency\n\nfp16 engine\nbatch 1:" + _ONE_ROW  # a two-line paragraph is read whole
    + _TWELVE + _ONE_ROW + _TWELVE + "?" + _ONE_ROW + _TWELVE + "!" + _ONE_ROW
    + "Timed on one GPU with graphs on, transfers off, and the clocks locked at base:" + _ONE_ROW, "t.md")


def _words(*phrases: str) -> set[tuple[str, ...]]:
    return {tuple(phrase.split()) for phrase in phrases}


def test_a_heading_names_each_phrase_of_up_to_three_words_and_itself_whole():
    scope = cells_of(SCOPES, "time")[0].scope
    assert scope.heading_name == ("orin", "fp16", "engine", "batch", "8")
    assert set(scope.names.values()) == {"heading"}
    assert set(scope.names) == _words(
        "orin", "fp16", "engine", "batch", "8", "orin fp16", "fp16 engine", "engine batch", "batch 8",
        "orin fp16 engine", "fp16 engine batch", "engine batch 8", "orin fp16 engine batch 8")


def test_a_lead_in_line_is_the_whole_paragraph_above_and_its_phrases_name_things():
    scope = cells_of(SCOPES, "time")[1].scope
    # "Latency" alone names nothing: a quantity word
    assert scope.headings == (("latency",),) and scope.heading_name == ()
    assert scope.lead_in == ("fp16", "engine", "batch", "1")
    assert set(scope.names.values()) == {"lead-in"}
    assert set(scope.names) == _words(
        "fp16", "engine", "batch", "1", "fp16 engine", "engine batch", "batch 1", "fp16 engine batch",
        "engine batch 1", "fp16 engine batch 1")


def test_a_caption_of_exactly_the_word_limit_leads_in_unless_it_ends_a_sentence():
    twelve, question, exclaim, long_colon = (cell.scope for cell in cells_of(SCOPES, "time")[2:])
    assert twelve.lead_in == tuple(_TWELVE.lower().split())
    assert ("one", "two", "three") in twelve.names and ("twelve",) in twelve.names
    assert question.lead_in is None and exclaim.lead_in is None
    # past the word limit a line ending with ":" still leads in, but names only as a whole
    assert long_colon.lead_in is not None and len(long_colon.lead_in) == 15
    assert set(long_colon.names) == _words("timed one gpu graph transfer off clock locked base")


def test_cells_keep_label_headers_vendor_words_and_two_numbers_apart():
    document = parse_document(
        "| GPU model | Speedup (x) | Clock (MHz) | TRT fp16 latency p50 (ms) | TRT int8 (ms) |\n"
        "|---|---:|---:|---:|---:|\n| NVIDIA A100 | 1.5 | 300 | — | 2.0 |\n| NVIDIA | 1.2 | 250 | 3.0 | 2.5 |\n"
        "| T4 2 | 1.1 | 70 | 9.0 | 6.0 |\n", "t.md")
    cells = cells_of(document, "time")
    names = names_of(document, "time")
    assert names.common == frozenset({"tensorrt"})
    assert [(c.figure.text, c.labels, c.own_names(names.common)) for c in cells] == [
        # the ratio and power columns before the times are skipped, not the end of the table; an empty
        # first time cell leaves the column's later rows
        ("3.0", (("gpu model", "nvidia"),), [("gpu model", ("nvidia",)), ("column", ("fp16",))]),
        ("9.0", (("gpu model", "t4 2"),), [("gpu model", ("t4", "2")), ("column", ("fp16",))]),
        # a vendor word opening a label is left out, a label of the vendor word alone keeps it
        ("2.0", (("gpu model", "a100"),), [("gpu model", ("a100",)), ("column", ("int8",))]),
        ("2.5", (("gpu model", "nvidia"),), [("gpu model", ("nvidia",)), ("column", ("int8",))]),
        ("6.0", (("gpu model", "t4 2"),), [("gpu model", ("t4", "2")), ("column", ("int8",))]),
    ]
    assert cells_of(document, "time") is cells  # kept in document.memo


def test_each_figure_of_a_cell_of_several_is_a_column_of_its_own_naming_the_same_thing():
    document = parse_document("| GPU | fp16 (ms) |\n|---|---:|\n| Orin 32 64 | 1.0 / 2.0 |\n", "t.md")
    cells = cells_of(document, "time")
    assert [(c.figure.text, c.labels, c.column) for c in cells] == [
        ("1.0", (("gpu", "orin32 64"),), ("fp16", "#0")), ("2.0", (("gpu", "orin32 64"),), ("fp16", "#1"))]
    assert [c.own_names(frozenset()) for c in cells] == [[("gpu", ("orin", "32", "64")), ("column", ("fp16",))]] * 2


def test_one_column_of_a_kind_shares_no_common_words():
    document = parse_document("| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 1.0 |\n", "t.md")
    assert names_of(document, "time").common == frozenset()
    assert names_of(document, "time").slots[("fp16",)] == {"column"}


def test_an_empty_first_label_continues_the_nearest_one_above_only_beside_another_label():
    document = parse_document(
        "| Precision | Shape | fp16 (ms) |\n|---|---|---:|\n|  | 320 | 1.0 |\n| fp16 | 640 | 2.0 |\n"
        "|  | 800 | 3.0 |\n|  | 960 | 4.0 |\n| int8 | 1024 | 5.0 |\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 1.0 |\n|  | 2.0 |\n", "t.md")
    assert [c.labels for c in cells_of(document, "time")] == [
        (("precision", ""), ("shape", "320")), (("precision", "fp16"), ("shape", "640")),
        (("precision", "fp16"), ("shape", "800")), (("precision", "fp16"), ("shape", "960")),
        (("precision", "int8"), ("shape", "1024")),
        (("gpu", "a10"),), (("gpu", ""),)]


NAMED = parse_document(
    "| GPU | fp16 (ms) |\n|---|---:|\n| Orin Nano | 12.6 |\n| Nano | 17.3 |\n| A10 | 9.1 |\n\n"
    "| GPU | int8 (ms) |\n|---|---:|\n| A10 | 8.05 |\n\nText.\n", "t.md")


def test_a_name_inside_a_longer_one_is_no_second_subject_and_adjacent_names_both_count():
    assert sides(NAMED, "time", "The Orin Nano is ", " the A10.") == [Sides(("orin", "nano"), ("a10",), False)]
    assert sides(NAMED, "time", "int8 A10 is ", " fp16.") == [Sides(("int8",), ("fp16",), False)]


def test_a_cell_under_a_heading_naming_both_sides_holds_neither():
    text = ("# Run\n\n## fp16 int8\n\n| GPU | Latency (ms) |\n|---|---:|\n| A10 | 9.0 |\n\n"
            "## fp16\n\n| GPU | Latency (ms) |\n|---|---:|\n| A10 | 5.0 |\n\n"
            "## int8\n\n| GPU | Latency (ms) |\n|---|---:|\n| A10 | 4.0 |\n\n## Summary\n\nint8 is always faster than fp16.\n")
    assert _sg107(text) == []
    # read as int8's, the shared table's 9.0 would make int8's A10 unclear
    assert _sg107(text.replace("4.0", "6.0")) == [23]


def test_a_table_with_a_lead_in_pairs_with_one_without():
    text = ("# Run\n\n## int8\n\nint8 engine, batch 1:\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.0 |\n\n"
            "## fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.0 |\n\n## Summary\n\nint8 is always faster than fp16.\n")
    assert _sg107(text) == []
    assert _sg107(text.replace("4.0", "6.0")) == [19]


def test_one_figure_that_would_pair_with_two_of_the_other_side_leaves_the_claim_unread():
    # the two int8 tables differ in their lead-in lines, and the fp16 table, with none, agrees with both
    text = ("# Run\n\n## int8\n\nint8 engine, batch 1:\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.0 |\n\n"
            "int8 engine, batch 8:\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 9.0 |\n\n"
            "## fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.0 |\n\n## Summary\n\nint8 is always faster than fp16.\n")
    assert _sg107(text) == []


def test_two_figures_of_one_side_told_apart_by_nothing_leave_the_claim_unread_though_nothing_pairs():
    text = ("# Run\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.0 |\n\n| GPU | int8 (ms) |\n|---|---:|\n"
            "| A10 | 4.5 |\n\n## fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| L4 | 5.0 |\n\n"
            "## Summary\n\nint8 is always faster than fp16.\n")
    assert _sg107(text) == []


def _two_models(claim_section: str) -> str:
    return ("# Encoder\n\n## fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.00 |\n\n"
            "## int8\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 6.00 |\n\n"
            "# Decoder\n\n## fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.00 |\n\n"
            "## int8\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.00 |\n\n" + claim_section)


def test_a_claim_reads_the_tables_under_its_top_heading_before_the_whole_document():
    # the Decoder's tables back it; the Encoder's, farther up, would contradict it
    assert _sg107(_two_models("## Summary\n\nint8 is faster than fp16 on every GPU.\n")) == []
    # a claim under no heading of those tables reads them all
    assert _sg107("int8 is faster than fp16 on every GPU.\n\n" + _two_models("")) == [1]


def test_a_claim_reads_its_own_section_before_the_rest_of_its_top_heading():
    text = ("# Model\n\n## Batch 8\n\nfp16 engine:\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.0 |\n\n"
            "int8 engine:\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 6.0 |\n\n"
            "## Batch 1\n\nfp16 engine:\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.0 |\n\n"
            "int8 engine:\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.0 |\n\nint8 is faster than fp16 on every GPU.\n")
    assert _sg107(text) == []
    # from a section of no tables of its own, the claim reads both batches, and batch 8 contradicts it
    assert len(_sg107(text.replace("int8 is faster", "## Summary\n\nint8 is faster"))) == 1


def test_a_claim_reads_the_nearest_tables_of_each_side_first():
    # TABLE_LIMIT int8 tables of another GPU above the claim, and the one pair it means right after it: the
    # nearest tables are read first, so that one is in whatever the limit (the limit's value itself is not
    # pinned here: the pair is found with a limit of 2 as with none)
    above = "".join(f"## Run {i}\n\n| GPU | int8 (ms) |\n|---|---:|\n| T4 | {i + 1}.0 |\n\n" for i in range(TABLE_LIMIT))
    after = ("## Summary\n\nint8 is faster than fp16 on every GPU.\n\n| GPU | fp16 (ms) |\n|---|---:|\n"
             "| A10 | 5.0 |\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.0 |\n")
    assert _sg107("# Runs\n\n" + above + after) == []
