"""Edges of the prose and parsing helpers that the checks' tests reach only
by chance: figure scopes around joined labels and parentheses, snake_case
parts of one letter, lone carriage returns, fences inside an admonition, an
HTML block between a paragraph and its table, and a freshly built parser
(studygen.lint.text, studygen.lint.parse). Expected values worked out by hand
from the rules in the docstrings."""

from __future__ import annotations

from studygen.lint import parse
from studygen.lint.parse import lint_parser, normalize_newlines, parse_document, site_source
from studygen.lint.text import figure_scope, keywords


def _scope(text: str, figure: str) -> str:
    start = text.index(figure)
    scope_start, scope_end = figure_scope(text, start, start + len(figure))
    return text[scope_start:scope_end]


def test_an_and_between_two_numbers_at_the_start_joins_them():
    # "8" is the first word (offset 0): its digit joins it to "FP8", so the scope goes back to the start
    assert _scope("8 and FP8 kernels take 9.1 ms", "9.1 ms") == "8 and FP8 kernels take 9.1 ms"
    assert _scope("eager and FP8 kernels take 9.1 ms", "9.1 ms") == "FP8 kernels take 9.1 ms"  # no digit before


def test_a_joined_and_is_skipped_and_later_commas_still_end_the_scope():
    # "INT8 and FP8" is one subject; the commas after it still cut the scope back
    assert _scope("INT8 and FP8 kernels, at batch 4, take 3 ms", "3 ms") == "take 3 ms"


def test_a_figure_outside_parentheses_is_not_cut_at_a_later_closing_one():
    text = "FP8 takes 3.1 ms on B200 (eager) with H100 runs"
    assert _scope(text, "3.1 ms") == text


def test_a_figure_inside_a_parenthesis_ends_at_its_own_closing_one():
    # an earlier, closed parenthesis "(eager)" does not count as the one the figure sits in
    assert _scope("B200 (eager) and H100 (compiled, 3.1 ms) lead", "3.1 ms") == "3.1 ms)"


def test_snake_case_parts_of_one_letter_are_no_keywords():
    assert keywords("q_k_attn") == {"q_k_attn", "attn"}
    assert keywords("e2e_latency_p") == {"e2e_latency_p", "e2e", "latency"}


def test_a_lone_carriage_return_is_one_newline():
    assert normalize_newlines("a\rb\r\nc") == "a\nb\nc"
    assert normalize_newlines("no returns") == "no returns"


def test_a_container_marker_inside_a_fence_of_an_admonition_opens_nothing():
    source = "!!! note\n    ```\n    !!! tip\n        deep\n    ```\n    after\n"
    # the fence's lines lose the note's four spaces only; "!!! tip" is code, so "deep" keeps four
    assert site_source(source).split("\n") == ["!!! note", "```", "!!! tip", "    deep", "```", "after", ""]


def test_an_html_block_between_paragraph_and_table_keeps_the_paragraph_out_of_the_context():
    table = "| a | ms |\n|---|---|\n| x | 1.0 |\n"
    glued = parse_document("# Speed\n\nMeasured on B200 with TensorRT 11.\n" + table, "x.md")
    assert glued.tables[0].context == "Speed\nMeasured on B200 with TensorRT 11."
    parted = parse_document("# Speed\n\nMeasured on B200 with TensorRT 11.\n<!-- generated -->\n" + table, "x.md")
    assert parted.tables[0].context == "Speed"


def test_a_freshly_built_parser_reads_tables_with_the_compact_body_rule(monkeypatch):
    # the parser is built once per process; build it again to exercise its construction
    monkeypatch.setattr(parse, "_LINT_PARSER", None)
    parser = lint_parser()
    kinds = [token.type for token in parser.parse("| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~\n")]
    assert kinds[:2] == ["table_open", "thead_open"] and "paragraph_open" in kinds
    assert "compact_table" in [rule.__name__ for rule in parser.block.ruler.getRules("")]
    assert lint_parser() is parser
