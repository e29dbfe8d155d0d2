"""A parenthesised band of another column's values ("Strong (70-85% hit rate): 4 traces (2.10-2.40x)")
restricts a range to the rows whose value in that column lies inside the band. Seen in a public
speculative-decoding summary: a band of acceptance rates was not read, and the speedup range was
reported for leaving out rows outside the band. Figures are the table's own cells; the band's ends
widen by half their last digit (70 stands for 69.5 to 70.5)."""

from __future__ import annotations

from studygen.lint import lint_text

TRACES = """# Draft model hit rates

| Trace | Hit rate (%) | Speedup |
|---|---|---|
| t1 | 62.0 | 1.85x |
| t2 | 71.5 | 2.10x |
| t3 | 74.0 | 2.22x |
| t4 | 80.2 | 2.31x |
| t5 | 84.9 | 2.40x |
| t6 | 91.3 | 2.77x |

{sentence}
"""


def _sg101(sentence: str):
    return [(f.line, f.message) for f in lint_text(TRACES.format(sentence=sentence), "x.md") if f.code == "SG101"]


def test_a_band_of_another_column_restricts_the_rows():
    # fails before: "range 2.10-2.40x leaves out 2 rows: 't1' (1.85x), 't6' (2.77x)"
    assert _sg101("Strong (70-85% hit rate): four traces (2.10-2.40x speedup).") == []
    assert _sg101("The traces with a high hit rate (70-85% hit rate) run 2.10-2.40x faster.") == []


def test_rows_inside_the_band_are_still_checked():
    # t5 (84.9%) lies inside the band and above 2.35x
    ((line, message),) = _sg101("Strong (70-85% hit rate): four traces (2.10-2.35x speedup).")
    assert line == 12
    assert message.startswith("range 2.10-2.35x leaves out row 't5' (2.40x)")
    # 84.9 lies above a band ending at 84 (84.5 at most): t5 is outside it, the range no longer needs it
    assert _sg101("Strong (70-84% hit rate): three traces (2.10-2.31x speedup).") == []


def test_a_band_of_the_range_s_own_column_is_the_claim_itself():
    # "(2.10-2.40x speedup)" names the speedup column: it is the range, not a band over another column
    ((_, message),) = _sg101("Most traces are fast (2.10-2.40x speedup).")
    assert message.startswith("range 2.10-2.40x leaves out 2 rows: 't1' (1.85x), 't6' (2.77x)")


def test_a_band_naming_no_column_restricts_nothing():
    # "(70-85% of traces)" names no column's header: no band
    ((_, message),) = _sg101("Strong (70-85% coverage): four traces (2.10-2.40x speedup).")
    assert "'t1' (1.85x)" in message
