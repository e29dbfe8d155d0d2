"""Ratios about one GPU of a page that prints one table per GPU under its own
heading, all with the same columns (SG103, studygen/lint/heading_scope.py).

"For the H100, paged is 1.27x faster than eager in TPOT" written below the
A100 table was read against the A100 table (the nearest in its section) and
flagged, though the H100's figures give it; the same claim with a wrong
figure in a summary section was cleared by the other GPU's pair. A sentence
that names another table's heading now reads that table. A document of our
own, with figures of our own: three GPUs, each a different ratio."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLES = """\
### L40S

| Mode | TTFT (ms) | TPOT (ms) | Throughput (tokens/s) |
|---|---|---|---|
| eager | 210 | 18.0 | 1800 |
| paged | 168 | 15.0 | 2160 |

### H200

| Mode | TTFT (ms) | TPOT (ms) | Throughput (tokens/s) |
|---|---|---|---|
| eager | 120 | 10.0 | 3000 |
| paged | 90 | 7.0 | 4200 |

### A10G

| Mode | TTFT (ms) | TPOT (ms) | Throughput (tokens/s) |
|---|---|---|---|
| eager | 400 | 30.0 | 900 |
| paged | 380 | 27.0 | 990 |
"""
HEAD = "# Serving modes per GPU\n\nBatch 16, 512-token prompts.\n\n"
# the claim right below the A10G table, in the section of all three tables (line 26)
BELOW = HEAD + TABLES + "\n{claim}\n"
# the claim in a section of no table above the tables (line 7)
SUMMARY = HEAD + "## Summary\n\n{claim}\n\n## Results\n\n" + TABLES
LINES = {BELOW: 26, SUMMARY: 7}
# the tables' lines on each page
L40S, H200, A10G = {BELOW: 7, SUMMARY: 13}, {BELOW: 14, SUMMARY: 20}, {BELOW: 21, SUMMARY: 27}


def _sg103(page: str, claim: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(page.format(claim=claim), "page.md") if f.code == "SG103"]


# each GPU's own figures: L40S TPOT 18.0 / 15.0 = 1.2x, TTFT (210 - 168) / 210 = 20% or 210 / 168 = 1.25x;
# H200 TPOT 10.0 / 7.0 = 1.43x, throughput 4200 / 3000 = 1.4x, TTFT (120 - 90) / 120 = 25% or 120 / 90 = 1.33x;
# A10G throughput 990 / 900 = 1.1x, TPOT (30.0 - 27.0) / 30.0 = 10%
RIGHT = [
    "On the L40S, paged is 1.2x faster than eager in TPOT.",
    "For the L40S, paged cuts TTFT by 20% compared to eager.",
    "On the H200, paged is 1.43x faster than eager in TPOT.",
    "On the H200, paged has 1.4x higher throughput than eager.",
    "For the H200, paged cuts TTFT by 25% compared to eager.",
    "Paged is 1.33x faster than eager in TTFT on the H200.",
    "On the L40S, paged has 1.25x lower TTFT than eager.",
    "At batch 16 on the L40S, paged is 1.2x faster than eager.",
    # the sentence's own heading, and the nearest table, as before
    "On the A10G, paged is 1.1x faster than eager in throughput.",
    "On the A10G the paged TPOT is 10% lower than eager.",
]


@pytest.mark.parametrize("page", [BELOW, SUMMARY], ids=["below", "summary"])
@pytest.mark.parametrize("claim", RIGHT)
def test_a_right_ratio_about_another_heading_stays_quiet(page, claim):
    assert _sg103(page, claim) == []


def _rows(figure: str, header: str, line: int, recomputed: str) -> str:
    return (f"{figure} between row 'paged' and row 'eager' does not follow from '{header}' of the table at line "
            f"{line}: {recomputed}")


# each claim takes another GPU's figure: once cleared by that GPU's pair, or flagged against the A10G table
WRONG = [
    ("On the L40S, paged is 1.43x faster than eager in TPOT.", lambda p: _rows(
        "1.43x", "TPOT (ms)", L40S[p], "15.0 / 18.0 = 0.83x (0.828x to 0.838x within the printed digits) or "
        "18.0 / 15.0 = 1.20x (1.193x to 1.207x within the printed digits)")),
    ("On the H200, paged is 1.2x faster than eager in TPOT.", lambda p: _rows(
        "1.2x", "TPOT (ms)", H200[p], "7.0 / 10.0 = 0.7x (0.69x to 0.71x within the printed digits) or "
        "10.0 / 7.0 = 1.43x (1.41x to 1.45x within the printed digits)")),
    ("For the H200, paged cuts TTFT by 20% compared to eager.", lambda p: _rows(
        "20%", "TTFT (ms)", H200[p], "(90 - 120) / 90 = -33% (-34.6% to -32.0% within the printed digits) or "
        "(120 - 90) / 120 = 25% (24.3% to 25.7% within the printed digits)")),
    ("On the L40S, paged has 1.33x lower TTFT than eager.", lambda p: _rows(
        "1.33x", "TTFT (ms)", L40S[p], "168 / 210 = 0.80x (0.796x to 0.804x within the printed digits) or "
        "210 / 168 = 1.25x (1.243x to 1.257x within the printed digits)")),
    # no column named: the pairs across the tables read, the L40S's alone (its throughput 2160 / 1800 the nearest)
    ("At batch 16 on the L40S, paged is 1.4x faster than eager.", lambda p: (
        "1.4x between 'paged' and 'eager' does not follow from the figures that pair them: row 'paged' in "
        f"'Throughput (tokens/s)' (line {L40S[p] + 3}) and row 'eager' in 'Throughput (tokens/s)' (line "
        f"{L40S[p] + 2}) give 2160 / 1800 = 1.2x")),
]


@pytest.mark.parametrize("page", [BELOW, SUMMARY], ids=["below", "summary"])
@pytest.mark.parametrize("claim, message", WRONG)
def test_a_wrong_ratio_is_read_against_the_heading_it_names(page, claim, message):
    assert _sg103(page, claim) == [(LINES[page], message(page))]


def test_the_nearest_clause_naming_a_heading_names_it():
    # the second figure's clause names no heading: the clause before it does, not the sentence's opening
    claim = ("On the H200, paged is 1.4x faster than eager in throughput, and on the A10G, paged is 1.1x faster "
             "than eager in throughput.")
    assert _sg103(SUMMARY, claim) == []
    wrong = ("On the H200, paged is 1.1x faster than eager in throughput, and on the A10G, paged is 1.4x faster "
             "than eager in throughput.")
    assert _sg103(SUMMARY, wrong) == [
        (7, _rows("1.1x", "Throughput (tokens/s)", H200[SUMMARY], "4200 / 3000 = 1.4x or 3000 / 4200 = 0.7x")),
        (7, _rows("1.4x", "Throughput (tokens/s)", A10G[SUMMARY], "990 / 900 = 1.1x or 900 / 990 = 0.9x"))]


def test_a_sentence_naming_two_headings_reads_as_before():
    # both headings named, neither chosen: the pairs of all the tables read, as before (the H200's 1.43x and the
    # L40S's 1.2x each clear it), where reading one heading's table would flag the other's figure
    for figure in ("1.43x", "1.2x"):
        assert _sg103(SUMMARY, f"On the H200 and the L40S, paged is {figure} faster than eager in TPOT.") == []


SWEEP = """# Serving modes per GPU and batch

## Batch 1

### H200

| Mode | TPOT (ms) |
|---|---|
| eager | 6.0 |
| paged | 5.0 |

### L40S

| Mode | TPOT (ms) |
|---|---|
| eager | 12.0 |
| paged | 11.0 |

## Batch 16

### H200

| Mode | TPOT (ms) |
|---|---|
| eager | 10.0 |
| paged | 7.0 |

{claim}
"""


def test_a_heading_over_the_sentence_leaves_it_its_own_table():
    # under 'Batch 16 / H200', "the H200" is its own heading: its table (10.0 / 7.0 = 1.43x), not batch 1's too
    assert _sg103(SWEEP, "On the H200, paged is 1.43x faster than eager in TPOT.") == []
    assert _sg103(SWEEP, "On the H200, paged is 1.2x faster than eager in TPOT.") == [(28, _rows(
        "1.2x", "TPOT (ms)", 23, "7.0 / 10.0 = 0.7x (0.69x to 0.71x within the printed digits) or "
        "10.0 / 7.0 = 1.43x (1.41x to 1.45x within the printed digits)"))]
    # the L40S heading stands over batch 1's table only: 12.0 / 11.0 = 1.09x
    assert _sg103(SWEEP, "On the L40S, paged is 1.09x faster than eager in TPOT.") == []
    assert [line for line, _ in _sg103(SWEEP, "On the L40S, paged is 1.43x faster than eager in TPOT.")] == [28]


def test_a_heading_name_leaves_vendor_quantity_and_filler_words_out():
    from studygen.lint.heading_scope import heading_name

    assert heading_name("NVIDIA H100") == ("h100",)
    assert heading_name("Results on the RTX 4090") == ("rtx", "4090")
    assert heading_name("Latency (ms)") == ()
    assert heading_name("Results") == ()


# SG107's comparison of two named rows reads the heading the sentence names too: on the T4 paged is faster, on
# the L4 slower; each claim is written below the L4 table
TWO_GPUS = """\
# Paging

### T4

| Mode | TPOT (ms) |
|---|---|
| eager | 31.0 |
| paged | 26.5 |

### L4

| Mode | TPOT (ms) |
|---|---|
| eager | 19.0 |
| paged | 21.5 |

{claim}
"""


@pytest.mark.parametrize(("claim", "table_line", "rows"), [
    ("On the T4, paged is faster than eager in TPOT.", None, None),
    ("For the L4, eager is faster than paged in TPOT.", None, None),
    ("For the L4, paged is faster than eager in TPOT.", 12, "row 'paged' has 21.5 against 19.0"),
    ("On the T4, eager is faster than paged in TPOT.", 5, "row 'eager' has 31.0 against 26.5"),
])
def test_a_comparison_of_two_rows_reads_the_table_of_the_heading_it_names(claim, table_line, rows):
    found = [(f.line, f.message) for f in lint_text(TWO_GPUS.format(claim=claim), "page.md") if f.code == "SG107"]
    if table_line is None:
        assert found == []
    else:
        assert found == [(17, f"'{claim[:-1]}' is contradicted by the table at line {table_line} ('TPOT (ms)' of row "
                              f"'{rows.split(chr(39))[1]}' against row '{'eager' if 'paged' in rows else 'paged'}'): "
                              f"{rows}")]
