"""SG105: a noise verdict right after (or before) a table whose heading, or
the heading of a section holding it, states how its figures were taken
("5-run means", "mean of 3 runs") has its repeat count nearby; a sibling
section's heading does not. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = "| Kernel | Time (ms) |\n|---|---:|\n| fused | 3.31 |\n| split | 3.29 |\n"


def _sg105(document: str) -> list[int]:
    return [f.line for f in lint_text(document, "h.md") if f.code == "SG105"]


@pytest.mark.parametrize("heading, reported", [
    ("## Decode time (5-run means)", False),             # the heading over the table gives the repeat count
    ("## Decode time, mean of 3 runs", False),
    ("## Decode time (± 0.02 ms over repeats)", False),  # a spread
    ("## Decode time", True),                            # nothing in the heading: the verdict stands alone
])
def test_the_heading_over_the_table_may_hold_the_evidence(heading, reported):
    document = f"{heading}\n\n{TABLE}\nA second pass agrees with these figures within noise.\n"
    assert bool(_sg105(document)) is reported


def test_only_the_tables_own_heading_counts():
    # "(5-run means)" heads an earlier section; the table beside the verdict has a heading of its own
    document = (f"## Prefill (5-run means)\n\n{TABLE}\n## Decode time\n\n{TABLE}\n"
                "A second pass agrees with these figures within noise.\n")
    assert _sg105(document) == [15]


def test_a_heading_over_the_tables_section_counts():
    # the count heads the whole results section; the table sits in its subsection
    document = f"# Results (5-run means)\n\n## Decode time\n\n{TABLE}\nA second pass agrees with these figures within noise.\n"
    assert _sg105(document) == []
