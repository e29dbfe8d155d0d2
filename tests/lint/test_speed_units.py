"""Which units "faster" reads, from the one unit-to-kind table of
studygen.lint.variant_pairs: SG103's percent change ordered by its sense
(a duration falls when a run gets faster) and prose_rows' speed column (a
duration or a rate). The two sets differ on purpose: one set for both loses
a finding each way (the two documents below)."""

from __future__ import annotations

from studygen.lint import lint_text, prose_rows, text, variant_pairs
from studygen.lint import sg103_derived_figures as sg103
from studygen.lint.figures import RATE_UNITS

# "faster" on a rate: the figures rise, so 100 to 103 tokens/s are the change's before and after (3%, not 5%)
RATE_CHANGE = """# Decode speed

| engine | tokens/s |
|---|---|
| fp16 | 100 |
| fp8 | 103 |

FP8 decodes 5% faster (100 to 103 tokens/s).
"""
# "faster" in a clause naming another column ("engine size"): the ratio is read from the table's rate column
RATE_COLUMN = """# Decode speed

| engine | decode (tokens/s) |
|---|---|
| fp16 | 100.0 |
| fp8 | 150.0 |

The fp8 engine is 1.8x faster than fp16 and halves the engine size.
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_both_readers_take_their_units_from_the_one_unit_table():
    assert sg103.DURATION_UNITS is variant_pairs.DURATION_UNITS
    assert prose_rows.SPEED_UNITS is variant_pairs.SPEED_UNITS
    assert not hasattr(sg103, "_TIME_UNITS") and not hasattr(prose_rows, "_TIME_UNITS")
    assert variant_pairs.DURATION_UNITS == {"ms", "s", "us", "ns"}
    assert variant_pairs.SPEED_UNITS == {"ms", "s", "us", "ns"} | RATE_UNITS


def test_a_percent_faster_on_a_rate_reads_its_figures_rising():
    # "faster" on a rate is read as the time saved or the speed gained, each from the larger figure down
    assert _sg103(RATE_CHANGE) == [(8, "5% does not follow from 100 and 103 tokens/s: (103 - 100) / 103 = 2.9% "
                                       "(2.0% to 3.9% within the printed digits) or (103 - 100) / 100 = 3.0% "
                                       "(2.0% to 4.0% within the printed digits)")]
    assert _sg103(RATE_CHANGE.replace("5%", "3%")) == []


def test_a_speed_clause_names_a_rate_column():
    assert _sg103(RATE_COLUMN) == [(8, "1.8x between row 'fp8' and row 'fp16' does not follow from 'decode (tokens/s)' "
                                       "of the table at line 3: 150.0 / 100.0 = 1.5x or 100.0 / 150.0 = 0.7x")]
    assert _sg103(RATE_COLUMN.replace("1.8x", "1.5x")) == []


def test_a_speed_clauses_column_words_come_from_the_one_word_table():
    """The header words a speed clause may name are variant_pairs' words of a time or a rate, not a list kept
    beside them; "ms" among them is a unit word, which a series' keywords never hold, so it changes nothing.
    Failed before: prose_rows kept its own seven words."""
    assert prose_rows.SPEED_WORDS is variant_pairs.SPEED_WORDS
    assert variant_pairs.SPEED_WORDS == {"latency", "time", "runtime", "duration", "ms", "throughput", "fps", "qps"}
    assert "ms" not in text.keywords("latency ms") and "memory" not in variant_pairs.SPEED_WORDS
