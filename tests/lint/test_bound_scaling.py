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
