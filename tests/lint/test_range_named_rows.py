"""SG101: a range in another section than its table is read against the
rows its clause names (a variant, a GPU) whatever verb carries it, when
both its endpoints lie among those rows ("int8 takes 2.31 to 2.58 ms"
under a discussion heading, over a table whose header shares no word with
the sentence). Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = (
    "## Measurements\n\n| Precision | GPU | p50 wall time (ms) | Engine size (MB) |\n|---|---|---:|---:|\n"
    "| bf16 | L4 | 2.44 | 310 |\n| int8 | L4 | 2.31 | 171 |\n| int8 | L40S | 2.58 | 168 |\n"
    "| int8 | H20 | 0.917 | 175 |\n\n## What we saw\n\n"
)


def _sg101(paragraph: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE + paragraph + "\n", "t.md") if f.code == "SG101"]


LEFT_OUT = "range 2.31 to 2.58 ms leaves out row 'int8 / H20' (0.917 ms) of 'p50 wall time (ms)' in the table at line 3"


@pytest.mark.parametrize("paragraph", [
    "int8 takes 2.31 to 2.58 ms.",
    "int8 runs in 2.31 to 2.58 ms.",
    "The int8 engine finishes in 2.31 to 2.58 ms per request.",
    "With int8 we measured 2.31 to 2.58 ms.",
])
def test_a_range_over_named_rows_of_another_section_is_read_whatever_the_verb(paragraph):
    assert _sg101(paragraph) == [(12, LEFT_OUT)]


@pytest.mark.parametrize("paragraph", [
    "int8 takes 2.31 to 2.58 ms on the L4 and the L40S.",   # the clause names the two rows it covers
    "int8 takes 2.31 to 2.70 ms on the L4 and the L40S.",
    "int8 takes 2.31 to 2.49 ms.",                            # one endpoint only among the int8 rows
    "int8 takes 0.917 to 2.40 ms.",                           # one endpoint, though two of three rows inside
    "int8 takes 0.917 to 2.44 ms.",                           # 2.44 is bf16's: one endpoint among the int8 rows
    "A request takes 2.31 to 2.58 ms.",                       # no row named, no header word shared
    "int8 engines weigh 168 to 175 MB.",                      # another column, which the range covers
    "int8 takes 2.31 to 2.58 s.",                             # another unit: no column of it
])
def test_near_misses_stay_silent(paragraph):
    assert _sg101(paragraph) == []
