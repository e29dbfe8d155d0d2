"""SG104 through the API that `studygen check` calls."""

from __future__ import annotations

from studygen.lint import lint_text, mdformat_idempotency_finding, structure_findings
from studygen.lint.sg104_structure import raw_cell_count, raw_cells

TABLE = """# T

| a | b |
|---|---|
| 1 | 2 |
| 3 | 4 | 5 |
| 6 |
"""


def test_structure_findings_reads_raw_rows():
    findings = structure_findings(TABLE, "README.md")
    assert [(f.code, f.line) for f in findings] == [("SG104", 6), ("SG104", 7)]
    assert "3 cells" in findings[0].message and "has 2" in findings[0].message
    assert "1 cells" in findings[1].message


def test_structure_findings_is_only_sg104():
    text = TABLE + "\nThe GEMMs take 5 to 6 ms, which is within noise.\n\n| x | ms |\n|---|---|\n| a | 1 |\n| b | 9 |\n"
    assert {f.code for f in lint_text(text, "r.md")} > {"SG104"}
    assert {f.code for f in structure_findings(text, "r.md")} == {"SG104"}


def test_raw_cell_count():
    assert raw_cell_count("| a | b \\| c |") == 2
    assert raw_cell_count("a | b") == 2
    assert raw_cell_count("> | a | b | c |") == 3
    assert raw_cell_count("| `x|y` | z |") == 3  # GFM: a pipe in code still splits unless escaped


def test_mdformat_idempotency():
    clean = "# Title\n\n| a   | b   |\n| --- | --- |\n| 1   | 2   |\n"
    assert mdformat_idempotency_finding(clean, "README.md") is None
    messy = "# Title\n\n* item\n\n|a|b|\n|-|-|\n|1|2|\n"
    finding = mdformat_idempotency_finding(messy, "README.md")
    assert finding is not None and finding.code == "SG104" and finding.line == 3
    assert "'* item'" in finding.message and "'- item'" in finding.message


def test_crlf_line_endings_are_named_as_such():
    clean = "# Title\n\n| a   | b   |\n| --- | --- |\n| 1   | 2   |\n"
    finding = mdformat_idempotency_finding(clean.replace("\n", "\r\n"), "README.md")
    assert (finding.code, finding.line) == ("SG104", 1)
    assert finding.message.startswith("line 1 ends in a carriage return (CRLF or CR line endings)")
    # LF up to line 3, then CRLF: the first CR is named
    mixed = "# Title\n\n| a   | b   |\r\n| --- | --- |\r\n| 1   | 2   |\r\n"
    assert mdformat_idempotency_finding(mixed, "README.md").line == 3
    # CRLF plus a real formatting change: the general message, since LF alone would not make it clean
    messy = "# Title\r\n\r\n* item\r\n"
    assert mdformat_idempotency_finding(messy, "README.md").message.startswith("mdformat (gfm, wrap keep) rewrites")
    assert mdformat_idempotency_finding(messy, "README.md").line == 3
    assert mdformat_idempotency_finding(messy, "README.md").message.endswith(
        "'* item' becomes '- item'; the file also has CR line endings, which the renderer does not write")


def test_row_and_delimiter_messages_say_what_the_table_does():
    short_row = structure_findings(TABLE, "README.md")[1]
    # "| 6 |": 1 cell against the 2 of the header at line 3
    assert short_row.message == ("table row has 1 cells but its header (line 3) has 2: fewer cells than columns, "
                                 "which the table silently pads with empty cells")
    assert short_row.hint == "give every row of this table exactly 2 cells; escape a pipe inside a cell as \\|"
    (broken,) = structure_findings("# T\n\n| a | b |\n|---|\n| 1 | 2 |\n", "README.md")
    assert (broken.line, broken.message) == (
        3, "table header has 2 cells but its delimiter row (line 4) has 1: no table is rendered, only a paragraph of pipes")
    assert broken.hint == "give the delimiter row one '---' cell per header cell"


def test_mdformat_messages_in_full():
    crlf = mdformat_idempotency_finding("# Title\r\n", "README.md")
    assert crlf.message == ("line 1 ends in a carriage return (CRLF or CR line endings); "
                            "the renderer writes LF line endings, and the text is otherwise as it writes it")
    # a trailing blank line: the lines agree as far as mdformat's output goes (2 lines of 3), so line 3 is named
    trailing = mdformat_idempotency_finding("# Title\n\n", "README.md")
    assert (trailing.line, trailing.message) == (3, "mdformat (gfm, wrap keep) rewrites this document from line 3: '' becomes ''")
    assert trailing.hint == ("re-render the file, or run mdformat with the renderer's options on it, "
                             "so that the committed text is what the renderer writes")


def test_a_row_of_too_many_cells_is_said_to_be_cut():
    assert [(f.line, f.message) for f in lint_text("# T\n\n| gpu | ms |\n|---|---|\n| b200 | 1.0 | 7 |\n", "x.md")
            if f.code == "SG104"] == [
        (5, "table row has 3 cells but its header (line 3) has 2: more cells than columns, which the table silently drops")]


def test_a_short_row_ending_in_an_empty_cell_shifts_nothing():
    # "| b200 | 1.0 | |" gives three cells, the last empty, under four columns: padding moves no text
    assert [f for f in lint_text("# T\n\n| gpu | fp16 | int8 | note |\n|---|---|---|---|\n| b200 | 1.0 | |\n", "x.md")
            if f.code == "SG104"] == []


def test_a_broken_delimiter_row_after_a_plain_paragraph_is_found():
    text = "# T\n\nA plain paragraph\nof two lines.\n\n| a | b |\n|---|\n"
    assert [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG104"] == [
        (6, "table header has 2 cells but its delimiter row (line 7) has 1: no table is rendered, only a paragraph of pipes")]


def test_lone_carriage_returns_are_line_ends_when_mdformat_rewrites_a_line():
    finding = mdformat_idempotency_finding("# T\r\ra\r\r*  b\r", "x.md")
    assert (finding.line, finding.message) == (
        5, "mdformat (gfm, wrap keep) rewrites this document from line 5: '*  b' becomes '- b'; "
           "the file also has CR line endings, which the renderer does not write")


def test_raw_cells_without_outer_pipes_and_inside_a_quote():
    assert raw_cells("a | b") == ["a", "b"]
    assert raw_cells("| a | | c |") == ["a", "", "c"]
    assert raw_cells("> | a | b |") == ["a", "b"]
    assert raw_cells(">> a | b") == ["a", "b"]
