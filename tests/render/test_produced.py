"""Where each helper output lands in the README: anchors issued while the
template runs, formatted with the text, stripped after formatting, their
places noted (studygen/render/produced.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studygen.checks.readme_text import normalize, normalized_with_offsets
from studygen.markdown_format import format_markdown
from studygen.render.engine import render_study
from studygen.render.produced import (ANCHOR, BITS, OPEN, Anchors, Produced, anchoring, anchors_around, cells_of, emit,
                                      recording)
from studygen.render.escaping import escape_prose
from studygen.study import load_study

from ..conftest import REPO
from .views import DETR, H200

TABLE = "| Shape HxW   | fp16 (ms)   |\n|-------------|-------------|\n| 800 x 800   | 5.850       |\n| 800 x 1067  | 14.747      |"


def test_outside_a_template_run_a_helper_returns_its_text_as_it_is():
    assert emit(kind="ratio", text="1.01x") == "1.01x"
    with recording() as log:
        assert emit(kind="ratio", text="1.01x") == "1.01x"
    assert [(item.kind, item.text, item.places) for item in log] == [("ratio", "1.01x", [])]


def test_text_without_an_anchor_character_is_not_searched_for_anchors(monkeypatch):
    """Most helper outputs hold no anchor: their recorded text is the text as it is, with no search.
    Failed before: every output was searched with the anchor expression."""
    from studygen.render import produced

    anchors = Anchors()
    anchored = anchors.wrap(Produced("ratio", "1.01x"), "1.01x")
    searched = []
    real = produced.ANCHOR

    class Counted:
        def sub(self, replace, text):
            searched.append(text)
            return real.sub(replace, text)

    monkeypatch.setattr(produced, "ANCHOR", Counted())
    assert anchors.plain("0.97x to 1.02x \u2062\u2063") == "0.97x to 1.02x \u2062\u2063" and searched == []
    assert anchors.plain(f"0.97x to {anchored}") == "0.97x to 1.01x" and len(searched) == 1


def test_an_output_is_anchored_and_its_place_noted_after_formatting():
    with recording() as log, anchoring() as anchors:
        ratio = emit(kind="ratio", text="1.01x")
        span = emit(kind="range", text=f"0.97x to {ratio}")  # an output built from another: both placed
        text = f"# Results\n\nfp16 over FP8:   {span}.\n\n- again {ratio}\n"
    assert ANCHOR.search(text) and log[1].text == "0.97x to 1.01x"  # the text noted has no anchors
    readme = anchors.strip(format_markdown(text))
    assert readme == "# Results\n\nfp16 over FP8: 0.97x to 1.01x.\n\n- again 1.01x\n"
    ratio_item, span_item = log
    (start, end), = span_item.places
    assert readme[start:end] == "0.97x to 1.01x" and readme[:start].count("\n") == 2
    assert [readme[a:b] for a, b in ratio_item.places] == ["1.01x", "1.01x"]  # printed twice: in the range, alone
    assert ratio_item.places[0][0] > start and readme[:ratio_item.places[1][0]].endswith("- again ")


def test_a_table_is_anchored_inside_its_cells_and_formats_as_without_anchors():
    with recording() as log, anchoring() as anchors:
        with cells_of(["Shape HxW", "fp16 (ms)"]):
            cell = emit(kind="figure", text="5.850")
        table = emit(kind="table", text=TABLE.replace("5.850      ", cell + " " * 6), headers=["Shape HxW", "fp16 (ms)"])
    assert cell == "5.850"  # a cell carries no anchor: its table places it
    readme = anchors.strip(format_markdown(f"Intro.\n\n{table}\n"))
    assert readme == format_markdown(f"Intro.\n\n{TABLE}\n")
    (start, end), = log[1].places
    assert log[0].places == [] and readme[start:end].startswith("Shape HxW") and readme[start:end].endswith("14.747")
    assert readme[:start] == "Intro.\n\n| " and readme[end:] == "    |\n"  # the cell's padding after its text


def test_a_table_without_body_rows_formats_as_without_anchors():
    # The H200 template's agreement table when no job measured agreement: a header and its delimiter
    # row only. An anchor in the delimiter row would make it no table to mdformat, so that the README
    # would change when formatted again (SG104, found by tests/robustness/test_h200_jobs_property.py).
    header_only = "| Metric   | fp8 (ratio)   |\n|----------|---------------|"
    with recording() as log, anchoring() as anchors:
        table = emit(kind="table", text=header_only, headers=["Metric", "fp8 (ratio)"])
    readme = anchors.strip(format_markdown(f"Intro.\n\n{table}\n"))
    assert readme == format_markdown(f"Intro.\n\n{header_only}\n")
    assert readme.endswith("| Metric | fp8 (ratio) |\n| ------ | ----------- |\n")
    (start, end), = log[0].places
    assert readme[start:end] == "Metric | fp8 (ratio)"  # placed by its header, the only cells it has


def test_a_whole_table_is_no_cell_even_while_cells_are_built():
    table = "| a |\n| - |\n| 1 |"
    with recording() as log, anchoring() as anchors:
        with cells_of(["outer"]):
            anchored = emit(kind="table", text=table, headers=["a"])
    assert log[0].within == () and anchored.startswith(f"| {OPEN}")  # a table of its own, placed by its anchors
    assert anchors.strip(anchored) == table and log[0].places == [(2, 15)]  # from "a" to the last cell's "1"


def test_invisible_characters_of_a_record_are_no_anchor():
    forged = "\u2060" + "\u2062" * 32  # the shape of an anchor, an id this render never issued
    with recording() as log, anchoring() as anchors:
        label = emit(kind="figure", text="4.2")
        text = f"{forged}hand-written 4.2{forged.replace(chr(0x2060), chr(0x2061))} and {label}\n"
    readme = anchors.strip(text)
    assert readme.startswith(forged + "hand-written 4.2") and readme.endswith(" and 4.2\n")
    assert log[0].places == [(len(readme) - 4, len(readme) - 1)]


def test_a_template_that_cuts_an_output_short_leaves_it_unplaced_and_no_remains():
    with recording() as log, anchoring() as anchors:
        cut_end = emit(kind="range", text="0.19 to 0.21 ms")[:-20]  # the closing anchor cut in two
        cut_start = emit(kind="ratio", text="1.01x")[20:]  # the opening one
        kept = "\u2060 and " + "\u2062" * 33 + " of a record"  # a word joiner, and more bits than an id has
    assert anchors.strip(f"{cut_end} / {cut_start} / {kept}\n") == f"0.19 to 0.21 ms / 1.01x / {kept}\n"
    assert log[0].places == [] and log[1].places == []


def test_only_a_pipe_table_is_anchored_inside_its_cells():
    anchors = Anchors()
    for text in ("| a |\n| - |\n| 1", "a |\n| - |\n| 1 |", "| a |\n| - |\nnot a row"):
        assert anchors.wrap(Produced("table", text, headers=("a",)), text) == text  # left unplaced, never broken
    assert anchors.wrap(Produced("table", "| a |", headers=("a",)), "| a |").startswith(f"| {OPEN}")


def test_an_output_inside_another_is_looked_inside_of_both_anchors():
    with anchoring() as anchors:
        nested = emit(kind="gap", text=emit(kind="gap", text="***"))  # two opening anchors, two closing ones
    assert len(nested) == 4 * 33 + 3 and anchors_around(nested) == (66, 69)
    assert anchors.strip(escape_prose(nested)) == "\\*\\*\\*"  # the whole line is a thematic break: escaped as mdformat writes it
    assert anchors_around("a" * 40) == (0, 40) and anchors_around("") == (0, 0)


def test_plain_removes_only_the_anchors_this_run_issued():
    forged = OPEN + BITS[0] * 32
    with anchoring() as anchors:
        text = emit(kind="figure", text="4.2")
    assert anchors.plain(f"{forged}{text}") == f"{forged}4.2"


def test_escaping_a_start_looks_inside_the_anchors():
    with anchoring() as anchors:
        item = emit(kind="gap", text="1. the first gap")
        block = emit(kind="gap", text="  # heading-like")
    assert anchors.strip(escape_prose(item)) == "1\\. the first gap"
    assert anchors.strip(escape_prose(block)) == "\\# heading-like"
    assert escape_prose("1. plain") == "1\\. plain"
    with anchoring() as anchors:
        rule = emit(kind="gap", text="***")  # a whole line that would be a thematic break
    assert anchors.strip(escape_prose(rule)) == "\\*\\*\\*"


@pytest.mark.parametrize("family", [DETR, H200])
def test_every_placed_output_of_a_shipped_readme_reads_as_its_text(family):
    study = load_study(REPO / "families" / family, REPO)
    with recording() as log:
        readme = render_study(study).readme
    placed = [item for item in log if item.places]
    assert len(placed) > 30
    for item in placed:
        for start, end in item.places:
            shown = readme[start:end]
            if item.headers:  # a table: from its first header cell to its last cell
                assert readme[start - 2:start] == "| " and readme[end:].lstrip(" ").startswith("|\n"), item.headers
                assert normalize(shown).startswith(normalize(item.headers[0]))
                continue
            assert normalize(shown) == normalize(item.text), item
    # every output the shipped templates print is placed; a cell is placed by its table
    assert [item for item in log if not item.places and not item.within] == []


@given(st.text(alphabet=" \t\\-*_#.|ab1é\u2060", max_size=40))
def test_offsets_map_a_line_onto_its_normalized_text(line):
    text, offsets = normalized_with_offsets(line)
    assert text == normalize(line)
    assert len(offsets) == len(line) + 1 and offsets == sorted(offsets) and offsets[-1] == len(text)


def test_offsets_of_escapes_and_blank_runs():
    text, offsets = normalized_with_offsets("  a \\- b   c")
    assert text == "a - b c"
    assert [offsets[i] for i in (2, 4, 5, 7, 11)] == [0, 2, 2, 4, 6]


def test_anchors_issue_distinct_random_ids():
    anchors = Anchors()
    wrapped = [anchors.wrap(Produced("figure", "1"), "1") for _ in range(200)]
    ids = {text[1:33] for text in wrapped}
    assert len(ids) == 200 and len(anchors.items) == 200


def test_a_text_holding_only_a_closing_anchor_is_still_searched():
    """A slice of a helper's output may keep its closing anchor alone: the early return asks for both
    anchor starts, so that anchor is still taken out (a mutant asking for OPEN alone left it in)."""
    anchors = Anchors()
    anchored = anchors.wrap(Produced("ratio", "1.01x"), "1.01x")
    assert anchors.plain("x" + anchored[-33:]) == "x"


def test_every_anchor_character_is_one_the_table_layout_strips_from_a_cell():
    """markdown_tables (a layer below render) lists the zero-width characters render's anchors are made of,
    to measure an anchored cell by its length; changed anchors would make every such cell go to wcwidth."""
    from studygen import markdown_tables
    from studygen.render import produced

    assert set(produced.OPEN + produced.CLOSE + produced.BITS) <= set(markdown_tables.ZERO_WIDTH_EDGES)
    anchored = Anchors().wrap(Produced("ratio", "1.01x"), "1.01x")
    assert markdown_tables.cell_width(anchored) == (len("1.01x"), True)
