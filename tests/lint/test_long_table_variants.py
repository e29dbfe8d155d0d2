"""SG107 over a long table: the variants are values of a label column that is
not the first ("| Batch | Scheduler | ... |"), the first column a sweep level
repeated once per variant (4, 4, 16, 16, 64, 64). Two readers stood in the
way: the first column was typed as a series (a key needed distinct levels),
so no rows paired; and a clause naming one level ("at 16 clients") left one
row of each variant, which no key told apart, so it paired nothing. Case
(unseen benchmark documents, session 24): a conclusion that one serving
engine beats another at its lowest concurrency level passed with 0
findings while that level's rows printed the reverse. Documents of our
own; the figures are invented and checked by hand."""

from __future__ import annotations

from studygen.lint import lint_text

LONG = """\
# Scheduler sweep

| Clients | Scheduler | Step time (ms) |
|---|---|---|
| 4 | greedy | 12.40 |
| 4 | packed | 13.05 |
| 16 | greedy | 31.70 |
| 16 | packed | 27.95 |
| 64 | greedy | 118.2 |
| 64 | packed | 96.40 |

{claim}
"""


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_a_claim_on_one_named_level_is_judged_on_its_rows():
    # 4 clients: packed 13.05 ms against greedy 12.40 ms, so packed is not faster there
    ((line, message),) = _sg107(LONG.format(claim="At 4 clients the packed scheduler is faster than greedy."))
    assert line == 12
    assert message == ("'At 4 clients the packed scheduler is faster than greedy' is contradicted by the table at "
                       "line 3 ('Step time (ms)' of row 'packed' against row 'greedy'): row '4 / packed' has "
                       "13.05 against 12.40")


def test_a_ranking_verb_on_a_named_level_is_judged_too():
    ((_, message),) = _sg107(LONG.format(claim="The packed scheduler outperforms greedy at 4 clients."))
    assert message.endswith("row '4 / packed' has 13.05 against 12.40")


def test_a_claim_the_named_level_bears_out_is_not_reported():
    # 16 clients: 27.95 against 31.70 ms; 64 clients: 96.40 against 118.2 ms
    assert _sg107(LONG.format(claim="At 16 clients the packed scheduler is faster than greedy.")) == []
    assert _sg107(LONG.format(claim="The packed scheduler outperforms greedy at 64 clients.")) == []


def test_a_universal_claim_reads_the_repeated_first_column_as_its_key():
    ((_, message),) = _sg107(LONG.format(claim="The packed scheduler is faster than greedy for every client count."))
    assert message.endswith("row '4 / packed' has 13.05 against 12.40")


def test_a_claim_naming_no_level_stays_unread():
    # no universal word and no row named: may mean typically
    assert _sg107(LONG.format(claim="The packed scheduler is faster than greedy.")) == []


def test_a_first_column_of_uneven_repeats_stays_a_series():
    # 4, 4, 16, 64, 64: levels held by different numbers of rows are no sweep of one row per variant
    text = """\
# Uneven

| Clients | Scheduler | Step time (ms) |
|---|---|---|
| 4 | greedy | 12.40 |
| 4 | packed | 13.05 |
| 16 | packed | 27.95 |
| 64 | greedy | 118.2 |
| 64 | packed | 96.40 |

The packed scheduler is faster than greedy for every client count.
"""
    from studygen.lint.parse import parse_document
    (table,) = parse_document(text, "t.md").tables
    assert table.label_columns == [1]
