"""A bound claimed for every row costs its clause, not the table's rows: a
1 MB page can hold a table of thousands of rows and as many claims about it
(attack 24: 4,000 'All engines finish under N ms.' under a 4,000-row table
took 12.8 s, 8,000 of each four times as long)."""

from __future__ import annotations

from studygen.lint import lint_text

from .own_calls import own_calls


def _page(rows: int, claims: int) -> str:
    """A table of ``rows`` engines (1.00 to 4.99 ms, then one at 7.50 ms) and ``claims`` bounds under it."""
    lines = ["| Engine | Latency (ms) |", "|---|---|"]
    lines += [f"| e{i} | {1 + (i * 37 % 400) / 100:.2f} |" for i in range(rows)]
    lines += ["| slow | 7.50 |", ""]
    lines += [" ".join(f"All engines finish under {5 + i % 50 / 10:.1f} ms." for i in range(claims))]
    return "\n".join(lines) + "\n"


def test_claims_over_a_long_table_scale_with_the_page():
    small, large = own_calls(_page(1000, 1000)), own_calls(_page(2000, 2000))
    assert large < 2.3 * small, (small, large)


def test_the_finding_names_the_rows_beyond_the_bound_in_table_order():
    # the message the loop over every row gave (same on the old code): what the index must keep
    page = ("| Engine | Latency (ms) |\n|---|---|\n| a | 6.10 |\n| b | 4.00 |\n| c | 5.40 |\n| d | 9.00 |\n"
            "| e | 5.20 |\n| Total | 30.0 |\n\nAll engines finish under 5 ms. All engines finish above 5 ms.\n")
    messages = sorted(f.message for f in lint_text(page, "p.md") if f.code == "SG101")
    # 'under 5 ms' (up to 5.5): a 6.10 and d 9.00 break it, c 5.40 and e 5.20 round to 5; the Total row is no engine
    # 'above 5 ms' (from 4.5): b 4.00 breaks it
    assert messages == [
        "'above 5 ms' is claimed for every row but 'b' 4.00 ms in 'Latency (ms)' of the table at line 1",
        "'under 5 ms' is claimed for every row but 'a' 6.10 ms, 'd' 9.00 ms in 'Latency (ms)' of the table at line 1"]


def _differences_page(rows: int) -> str:
    """A table of ``rows`` gains from -4.9% to 4.9% and as many 'differences stay below N%' claims."""
    lines = ["| Engine | Latency (ms) | Gain (%) |", "|---|---|---|"]
    lines += [f"| e{i} | {1 + i % 300 / 100:.2f} | {(i * 37 % 99 - 49) / 10:.1f} |" for i in range(rows)]
    lines += ["", " ".join(f"The differences stay below {1 + i % 5}%." for i in range(rows))]
    return "\n".join(lines) + "\n"


def test_difference_bounds_over_a_long_table_scale_with_the_page():
    # old code: a difference bound read every row per claim (2,000 rows and claims: 6.4 s)
    small, large = own_calls(_differences_page(1000)), own_calls(_differences_page(2000))
    assert large < 2.3 * small, (small, large)


def test_a_difference_bound_names_rows_on_both_sides_in_table_order():
    page = ("| Engine | Latency (ms) | Gain (%) |\n|---|---|---|\n| a | 4.0 | 1.2 |\n| b | 3.0 | -4.6 |\n"
            "| c | 3.5 | 2.9 |\n| d | 2.0 | 5.0 |\n| e | 2.5 | -3.6 |\n| f | 2.2 | 3.6 |\n\n"
            "The differences stay below 3%.\n")
    # beyond 3.5 either way: b -4.6, d 5.0, e -3.6, f 3.6 (c 2.9 and a 1.2 keep it)
    assert [f.message for f in lint_text(page, "p.md") if f.code == "SG101"] == [
        "differences under 3% are claimed but 'b' -4.6%, 'd' 5.0%, 'e' -3.6% and 1 more in 'Gain (%)' of the table "
        "at line 1"]
