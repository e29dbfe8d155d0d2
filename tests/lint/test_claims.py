"""SG101 single-figure claims ("3x faster", "60% less memory"): which columns
state the same thing, the printed-digit edge, and which column a finding names."""

from __future__ import annotations

from studygen.lint import lint_text
from studygen.lint.claims import cell_direction, claims_of
from studygen.lint.parse import parse_document


def _sg101(text: str) -> list:
    return [f for f in lint_text(text, "x.md") if f.code == "SG101"]


SPEED = """# Runs

| job | speed |
|---|---|
| a | 1.90x faster |
| b | {b} faster |
| c | 2.00x faster |

{claim}
"""


def test_a_claim_just_past_the_last_digit_of_the_top_row_is_reported():
    # 2.5x stands for 2.45 to 2.55; a row of 2.44x (up to 2.445) does not reach it, 2.45x does
    (finding,) = _sg101(SPEED.format(b="2.44x", claim="The new loader trains 2.5x faster."))
    assert finding.line == 9
    assert finding.message == "'2.5x faster' exceeds every row of 'speed' in the table at line 3 (3 rows, largest 2.44x)"
    assert _sg101(SPEED.format(b="2.45x", claim="The new loader trains 2.5x faster.")) == []


def test_cells_of_one_direction_must_be_most_of_the_column():
    # one "faster" cell among three plain figures does not make it the claim's column
    text = "| job | ratio |\n|---|---|\n| a | 1.2x faster |\n| b | 1.3x |\n| c | 1.1x |\n\nIt trains 4x faster.\n"
    assert _sg101(text) == []
    text = text.replace("| 1.3x |", "| 1.3x faster |")
    (finding,) = _sg101(text)
    assert "'4x faster' exceeds every row of 'ratio'" in finding.message


def test_a_header_naming_the_claimed_quantity_states_it_without_direction_words():
    text = "| job | memory saved |\n|---|---|\n| a | 41% |\n| b | 47% |\n\nPacking needs 60% less memory.\n"
    (finding,) = _sg101(text)
    assert "'60% less' exceeds every row of 'memory saved'" in finding.message and "largest 47%" in finding.message
    # another quantity than the header's: not this column
    assert _sg101(text.replace("less memory", "less disk")) == []


def test_the_finding_names_every_column_that_states_the_claim():
    text = ("| job | A100 speed | H100 speed |\n|---|---|---|\n| a | 1.5x faster | 1.7x faster |\n"
            "| b | 1.6x faster | 1.8x faster |\n\nIt trains 3x faster.\n")
    (finding,) = _sg101(text)
    # both columns state it: the finding names both and the largest of either
    assert finding.message == ("'3x faster' exceeds every row of every column that states it: 'A100 speed' and "
                               "'H100 speed' in the table at line 1 (4 rows, largest 1.8x)")


def test_the_nearer_table_is_named_first():
    far = "| job | speed |\n|---|---|\n| a | 1.1x faster |\n| b | 1.2x faster |\n\n"
    near = "| job | pace |\n|---|---|\n| a | 1.5x faster |\n| b | 1.6x faster |\n\n"
    (finding,) = _sg101("# Far\n\n" + far + "## Near\n\n" + near + "It trains 3x faster.\n")
    # every table that states it is in the scope, the nearer one first
    assert finding.message == ("'3x faster' exceeds every row of every column that states it: 'pace' in the table at "
                               "line 10 under 'Near'; 'speed' in the table at line 3 under 'Far' (4 rows, largest 1.6x)")


def test_claims_of_a_sentence():
    document = parse_document("It is 2x faster, up to 5x faster, ~3x faster, 10% lower cost and 4x.\n", "x.md")
    (sentence,) = document.prose[0].sentences
    # "up to 5x" claims the largest row; "~3x" is an estimate (read with a margin); "4x" goes nowhere
    assert [(c.figure.text, c.direction, c.quantity, c.bound, c.approximate) for c in claims_of(sentence)] == [
        ("2", "faster", "", "", ""), ("5", "faster", "", "up to", ""), ("3", "faster", "", "", "~"),
        ("10", "lower", "cost", "", "")]
    figure = parse_document("| a |\n|---|\n| 3x slower |\n", "y.md").tables[0].series[0].values[0]
    assert cell_direction("3x slower", figure) == "slower"
    assert cell_direction("3x", figure) == ""


SPEEDUPS = "| job | speedup |\n|---|---|\n| a | {a} |\n| b | {b} |\n\n"


def test_up_to_claims_the_largest_row_and_floors_and_estimates_are_not_checked():
    table = SPEEDUPS.format(a="1.80", b="2.12")
    # up to 3x: 2.5 to 3.5, above 2.12; up to 2.1x: 2.05 to 2.15, reached by 2.12
    (finding,) = _sg101(table + "It trains up to 3x faster.\n")
    assert finding.message == "'up to 3x faster' exceeds every row of 'speedup' in the table at line 1 (2 rows, largest 2.12x)"
    assert _sg101(table + "It trains up to 2.1x faster.\n") == []
    assert _sg101(table + "It trains as much as 3x faster.\n")[0].message.startswith("'as much as 3x faster' exceeds")
    # an estimate is read within 1.6 times of its digits: 2.5 / 1.6 = 1.56 is below 2.12 (studygen.lint.approximate)
    for hedged in ("over 3x", "at least 3x", "more than 3x", "~3x", "about 3x", "nearly 3x", "at most 3x", "on average 3x"):
        assert _sg101(table + f"It trains {hedged} faster.\n") == [], hedged


def test_a_speedup_header_backs_a_speed_claim_a_ratio_header_alone_does_not():
    assert _sg101(SPEEDUPS.format(a="1.80", b="2.12") + "It trains 3x faster.\n")
    ratio = "| job | ratio |\n|---|---|\n| a | 1.80 |\n| b | 2.12 |\n\nIt trains 3x faster.\n"
    assert _sg101(ratio) == []


def test_backing_columns_are_found_once_per_kind_of_claim_and_bounded_to_the_nearest():
    from studygen.lint.claims import MAX_BACKING, backing, claims_of

    tables = "".join(f"## Part {i}\n\n| job | speedup |\n|---|---|\n| a | 1.{i % 10}0 |\n| b | 1.{i % 10}5 |\n\n"
                     for i in range(MAX_BACKING + 10))
    document = parse_document(tables + "It trains 3x faster.\n", "x.md")
    (claim,) = claims_of(document.prose[-1].sentences[0])
    nearest = backing(document, claim, document.prose[-1].order)
    assert len(nearest) == MAX_BACKING
    assert nearest[0].table is document.tables[-1] and document.tables[0] not in [s.table for s in nearest]
    stating, orders = document.memo[("backing", "x", "faster", "")]
    assert len(stating) == MAX_BACKING + 10 and orders == [s.table.order for s in stating]


def test_a_claim_scoped_to_two_rows_by_its_clause_is_read_against_those_two():
    # the clause names 8B and 13B (55%, 58%): 65% exceeds both; the sentence also names 70B (66%), which would reach it
    text = ("| model | memory saved |\n|---|---|\n| 8B | 55% |\n| 13B | 58% |\n| 70B | 66% |\n\n"
            "On the 8B and 13B models it needs 65% less memory, and 70B needs the most.\n")
    (finding,) = _sg101(text)
    assert "(2 rows, largest 58%)" in finding.message


def test_half_of_the_column_in_the_claims_direction_is_not_most_of_it():
    # two "faster" cells of four (and of five) are no majority: the column is not the claim's
    head = "| job | ratio |\n|---|---|\n| a | 1.2x faster |\n| b | 1.3x faster |\n| c | 1.1x |\n| d | 1.4x |\n"
    assert _sg101(head + "\nIt trains 4x faster.\n") == []
    assert _sg101(head + "| e | 1.5x |\n\nIt trains 4x faster.\n") == []
    # three of five are: 4x exceeds every row (largest 1.5x)
    (finding,) = _sg101(head.replace("| 1.4x |", "| 1.4x faster |") + "| e | 1.5x |\n\nIt trains 4x faster.\n")
    assert "(5 rows, largest 1.5x)" in finding.message


def test_a_bound_printed_at_the_start_of_a_cell_is_a_lower_bound():
    from studygen.lint.claims import states_lower_bound

    (table,) = parse_document("| job | reached |\n|---|---|\n| a | >75% |\n| b | ≥80% |\n| c | 75% |\n"
                              "| d | 70%+ |\n", "x.md").tables
    (series,) = table.series
    cells = [(table.rows[i].cells[series.column], v) for i, v in enumerate(series.values)]
    assert [states_lower_bound(cell, v) for cell, v in cells] == [True, True, False, True]


def test_three_columns_of_one_table_are_named_in_a_list():
    text = ("| job | A100 speed | H100 speed | L4 speed |\n|---|---|---|---|\n| a | 1.5x faster | 1.7x faster | 1.2x faster |\n"
            "| b | 1.6x faster | 1.8x faster | 1.3x faster |\n\nIt trains 3x faster.\n")
    (finding,) = _sg101(text)
    assert "every column that states it: 'A100 speed', 'H100 speed' and 'L4 speed' in the table at line 1" in finding.message
    assert "(6 rows, largest 1.8x)" in finding.message


def test_a_claim_late_in_its_sentence_is_read_against_the_rows_its_own_clause_names():
    # the sentence opens on 70B (66%, which reaches 65%); the claim's clause names 8B and 13B (55%, 58%)
    text = ("| model | memory saved |\n|---|---|\n| 8B | 55% |\n| 13B | 58% |\n| 70B | 66% |\n\n"
            "70B saves the most, and on the 8B and 13B models it needs 65% less memory.\n")
    (finding,) = _sg101(text)
    assert finding.line == 7 and "(2 rows, largest 58%)" in finding.message


def test_a_range_claims_for_most_rows_only_in_its_own_clause():
    # a generated H200 README: "the 3 compilations of fp16 (7.951 to 8.572 ms) overlap: neither was faster in every
    # compilation" read the next clause's "every" as the range's, and lint held the range against every row of
    # another section's fp16 column (SG101 'leaves out row 800 x 1067'); a claim in the range's clause still counts
    from studygen.lint.claims import claims_most_rows

    def claims(text):
        sentence = parse_document(text + "\n", "c.md").prose[0].sentences[0]
        (rng,) = [r for r in sentence.ranges if r.kind == "range"]
        return claims_most_rows(sentence, rng)

    assert not claims("At 800 x 800, fp16 (7.951 to 8.572 ms) and FP8 overlap: neither was faster in every run.")
    assert not claims("fp16 takes 7.951 to 8.572 ms; FP8 was slower in every run.")
    assert claims("fp16 takes 7.951 to 8.572 ms across every run.")
    assert claims("fp16 takes 7.951 to 8.572 ms in most cases, and FP8 more.")
