"""A prose string that opens with a Unicode space (U+00A0, U+2003, U+3000, any
other of category Zs) or a tab before a block start (``# x``, ``- x``,
``> x``, ``1. x``, ``---``, a fence, ``[x]: y``) renders a line mdformat leaves
as it is. markdown-it trims such blanks off a paragraph or a list item
(``mdTrim``) and mdformat strips each paragraph line (``str.strip``), so the
blank went and mdformat then escaped the block start it uncovered: ``check``
failed a fresh render with SG104 (attack: ``decision.summary: "\\u00a0# x"``
rendered ``\\xa0# x``, which mdformat rewrites to ``\\# x``)."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
import yaml

from studygen.lint import lint_text
from studygen.markdown_format import format_markdown
from studygen.render.escaping import escape_markup, escape_prose
from studygen.render.produced import WRITTEN, anchoring, emit
from tests.robustness.tiny import make_tiny_project, study_spec

# Every space separator Python knows, and the tab: markdown-it's mdTrim set
# (U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000) is this one
SPACE_SEPARATORS = tuple(chr(code) for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code)) == "Zs")
BLANKS = SPACE_SEPARATORS + ("\t",)
BLOCK_STARTS = ("# x", "###### x", "#", "- x", "+ x", "* x", "-", "1. x", "12) x", "> q", "---", "***", "- - -",
                "* * *", "_ _ _", "___", "*\t* *", "- - - -", "* * * *", "===", "= = =", "```py", "~~~", "[x]: http://e")
# Where a template may print a string at a line start: a paragraph, a list item, a paragraph's second line
PLACES = ("{}\n", "- {}\n", "Then:\n{}\n")


def test_the_blanks_are_the_ones_markdown_it_trims():
    from markdown_it.common.utils import MD_TRIM_CHARS

    assert {"\u00a0", "\u2003", "\u2009", "\u3000"} <= set(SPACE_SEPARATORS)
    assert set(BLANKS) == set(MD_TRIM_CHARS) - set("\n\v\f\r\u2028\u2029")


def _readme_line(text: str, place: str) -> str:
    """What render writes for a study-file string printed at ``place``: the
    string anchored as a field printed as written (anchors hide the line's
    start from mdformat), escaped, formatted, the anchors stripped."""
    with anchoring() as anchors:
        anchored = emit(kind=WRITTEN, text=text)
    return anchors.strip(format_markdown(place.format(escape_prose(anchored))))


@pytest.mark.parametrize("blank", BLANKS, ids=lambda blank: f"U+{ord(blank):04X}")
def test_a_block_start_behind_a_blank_is_escaped_as_at_the_start(blank):
    for block_start in BLOCK_STARTS:
        for text in (blank + block_start, blank + " " + blank + block_start):
            assert escape_prose(text) == escape_prose(block_start), text
            for place in PLACES:
                line = _readme_line(text, place)
                assert format_markdown(line) == line, (text, line)
                assert line == _readme_line(block_start, place), (text, line)
        assert escape_markup(blank + block_start) == escape_markup(block_start)


def test_the_readme_line_of_a_blank_led_heading_marker():
    assert _readme_line("\u00a0# x", "{}\n") == "\\# x\n"
    assert _readme_line("\u3000- x", "- {}\n") == "- \\- x\n"
    assert _readme_line("\u2003> q", "- {}\n") == "- \\> q\n"
    assert _readme_line("\u2009---", "Then:\n{}\n") == "Then:\n\\---\n"


@pytest.mark.parametrize("text", ["\u200b# x", "\ufeff# x", "\u2060- x", "a\u00a0# x", "x\u3000y"])
def test_a_character_markdown_it_does_not_trim_stays(text):
    # a zero-width space or joiner is no blank to markdown-it: the "#" behind it opens no heading
    assert escape_prose(text) == text
    assert format_markdown(f"{text}\n") == f"{text}\n"


def test_a_control_character_that_python_calls_space_is_shown_not_dropped():
    # U+000B and U+001C are str.isspace but escaped as text before the blanks are dropped: a reader sees them
    assert escape_prose("\x0b# x") == "\\u000b# x" and escape_prose("\x1c- x") == "\\u001c- x"


def test_a_fresh_render_of_blank_led_prose_has_no_sg104(tmp_path, run_cli):
    template = ("{{ generated_note }}\n\n# Tiny\n\n{{ study.decision.summary }}\n\nWhen to revisit:\n\n"
                "{% for item in study.decision.revisit_when %}\n- {{ item }}\n{% endfor %}\n")
    root = make_tiny_project(tmp_path / "project", template=template)
    spec = study_spec()
    spec["decision"]["summary"] = "\u00a0# nbsp heading in summary"
    spec["decision"]["revisit_when"] = [f"{blank}{block_start} {ord(blank):04x}" if block_start[-1].isalpha()
                                        else blank + block_start for blank in BLANKS for block_start in BLOCK_STARTS]
    (root / "families" / "tiny" / "study.yaml").write_text(yaml.safe_dump(spec, sort_keys=False),
                                                           encoding="utf-8")
    done = run_cli("render", "--root", root)
    assert done.exit_code == 0, done.err
    readme = (root / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
    assert "\n\\# nbsp heading in summary\n" in readme
    assert "\n- \\> q 3000\n" in readme and "\n- 1\\. x 2003\n" in readme and "\n- \\---\n" in readme
    assert [f.message for f in lint_text(readme, "README.md") if f.code == "SG104"] == []
    assert format_markdown(readme) == readme
    done = run_cli("check", "--root", root, "tiny")
    assert "SG104" not in done.out + done.err


# A rule's escape is mdformat's own ("*" and "_" escaped unless a blank is on both sides, "-" once)
RULES = {"* * *": "\\* * \\*", "- - -": "\\- - -", "_ _ _": "\\_ _ \\_", "***": "\\*\\*\\*",
         "* * * *": "\\* * * \\*"}


@pytest.mark.parametrize("rule", RULES)
def test_a_thematic_break_is_escaped_as_mdformat_writes_it(rule):
    assert escape_prose(rule) == RULES[rule]
    for blank in ("", "\u00a0", " \t"):
        for place in PLACES:
            assert _readme_line(blank + rule, place) == place.format(RULES[rule])


@pytest.mark.parametrize("blank", BLANKS + (" ", "  ", "\t\u00a0 "), ids=ascii)
def test_a_trailing_blank_is_dropped_at_a_line_end_only(blank):
    # mdformat drops the blanks that end a paragraph line or a list item, and writes those inside a line with
    # tabs as spaces and a run of spaces as one: the anchor after the string hid the line end from it
    for text in ("x", "# x", "* * *", "_ _ _", "- x", "---", "1. x"):
        for place in PLACES + ("{}\nnext\n", "- {}\n- next\n"):
            line = _readme_line(text + blank, place)
            assert format_markdown(line) == line and line == _readme_line(text, place), (text, place, line)
        line = _readme_line(text + blank, "{} tail\n")
        assert format_markdown(line) == line, (text, line)
    assert _readme_line("x" + blank, "{} tail\n") == re.sub(" {2,}", " ", f"x{blank} tail\n".replace("\t", " "))
    # after a "*" or "_" the blank goes wherever the string lands (mdformat would keep the marker unescaped)
    assert _readme_line("a *" + blank, "{} tail\n") == "a \\* tail\n"
    assert escape_prose("a _" + blank) == "a _"


def test_the_readme_lines_of_trailing_blanks():
    assert _readme_line("x\u00a0", "{}\n") == "x\n"
    assert _readme_line("x\u3000", "- {}\n") == "- x\n"
    assert _readme_line("x\u00a0", "{} GB\n") == "x\u00a0 GB\n"
    assert _readme_line("x  ", "{}\nnext\n") == "x\nnext\n"  # no hard line break


@pytest.mark.parametrize("header", [["\u00a0fast ms", "slow\u3000"], ["\t\u2003x", "y \u00a0 "]])
@pytest.mark.parametrize("body", [[], [["a", "b"]]])
def test_a_blank_at_the_edge_of_an_anchored_table_cell_goes(header, body):
    # a table is anchored inside its first and last cell: an anchor between the cell's pipe and a blank kept the
    # blank, which mdformat then dropped from the README (a header-only table closes in its last header cell)
    from studygen.render.github_table import github_table

    with anchoring() as anchors:
        table = emit(github_table(body, header), (), header, kind="table")
        readme = anchors.strip(format_markdown(table + "\n"))
    assert readme.split("\n")[0] == format_markdown(github_table(body, [h.strip() for h in header])).split("\n")[0]
    assert format_markdown(readme) == readme
