"""Percent changes between two named variants (SG103, prose_changes) and
universal comparisons (SG107), on small documents of our own; every
expected figure is worked out by hand in the comment beside it."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.prose_changes import changes_of
from studygen.lint.variant_pairs import kind_of_series, kinds_named

# (y - x) / y of ms: H100 (10.0 - 6.0) / 10.0 = 40.0%, T4 (20.0 - 15.0) / 20.0 = 25.0%;
# speed gained y / x - 1: H100 66.7%, T4 33.3%
TIMES = """\
| GPU | fp16 (ms) | int8 (ms) |
|---|---:|---:|
| H100 | 10.0 | 6.0 |
| T4 | 20.0 | 15.0 |

"""


def _sg103(sentence: str) -> list[str]:
    return [f.message for f in lint_text(TIMES + sentence + "\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, reported", [
    ("int8 cuts the fp16 latency by 40% on the H100.", False),
    ("int8 cuts the fp16 latency by 41% on the H100.", False),  # 39.2% to 40.8% within the digits
    ("int8 cuts the fp16 latency by 42% on the H100.", True),
    ("int8 cuts the fp16 latency by 38% on the H100.", True),
    ("int8 takes 30% less time than fp16.", False),              # inside the span 25.0 to 40.0
    ("int8 takes 45% less time than fp16.", True),               # above the span
    ("int8 takes 20% less time than fp16.", True),               # below the span
    ("int8 takes up to 40% less time than fp16.", False),        # the largest row
    ("int8 takes up to 30% less time than fp16.", True),         # up to is the largest row, not any
    ("int8 takes 33% less time than fp16 on average.", False),   # mean of 40.0 and 25.0 is 32.5
    ("int8 takes on average 35% less time than fp16.", True),
    ("int8 takes about 50% less time than fp16.", True),         # "about 50" is 45 to 55, the span 25.0 to 40.0
    ("int8 takes about 40% less time than fp16.", False),        # 35 to 45 meets the span
    ("int8 takes about 40% less time than fp16 on the T4.", True),  # 25.0% is outside 35 to 45
    ("int8 takes about 26% less time than fp16 on the T4.", True),  # 25.5 to 26.5: a figure with no zero stays exact
    ("int8 is 67% faster than fp16 on the H100.", False),        # speed gained 66.7%
    ("int8 is 40% faster than fp16 on the H100.", False),        # time saved 40.0%
    ("int8 is 50% faster than fp16 on the H100.", True),         # neither reading
    ("int8 is at least 45% faster than fp16 on the T4.", True),  # the T4 reaches 25.0% or 33.3%
    ("int8 is at least 30% faster than fp16 on the T4.", False),
    ("int8 is at most 20% faster than fp16 on the T4.", True),
    ("int8 is at most 30% faster than fp16 on the T4.", False),
    ("fp16 takes 50% more time than int8 on the T4.", True),     # (20.0 - 15.0) / 15.0 = 33.3%
    ("fp16 takes 33% more time than int8 on the T4.", False),
    ("int8 is not 90% faster than fp16.", False),
])
def test_each_hedge_and_reading_holds_the_claim_to_its_rows(sentence, reported):
    assert bool(_sg103(sentence)) is reported, sentence


def test_the_finding_shows_the_formula_and_each_row():
    (message,) = _sg103("int8 takes 60% less time than fp16.")
    assert "'60% less'" in message
    assert "('fp16 (ms)' - 'int8 (ms)') / 'fp16 (ms)' gives H100 40.0%, T4 25.0% (2 rows)" in message


def test_faster_names_both_readings_when_neither_fits():
    (message,) = _sg103("int8 is 50% faster than fp16 on the H100.")
    assert "H100 40.0% (1 row)" in message and "read as ('fp16 (ms)' - 'int8 (ms)') / 'int8 (ms)': 66.7%" in message


def test_changes_of_reads_sense_hedge_and_object():
    document = parse_document("int8 cuts the fp16 latency by up to 40%; it is about 60% faster. A 30% reduction "
                              "in memory, 20% more throughput on average.\n", "x.md")
    sentences = [s for b in document.prose for s in b.sentences]
    found = [(c.figure.text, c.sense, c.hedge, c.object_text.strip(), c.written, c.comparative)
             for s in sentences for c in changes_of(s)]
    assert found == [
        ("40", "decrease", "max", "the fp16 latency", "cuts the fp16 latency by up to 40%", ""),
        ("60", "faster", "about", "", "60% faster", "faster"),
        ("30", "decrease", "", "", "30% reduction", ""),
        ("20", "increase", "mean", "", "20% more", "more"),
    ]


def test_kinds_from_words_then_comparatives():
    assert kinds_named("int8 plans are 44% smaller", "smaller") == ("size",)
    assert kinds_named("int8 is 44% faster", "faster") == ("time", "throughput")
    assert kinds_named("int8 has 44% lower latency", "lower") == ("time",)
    assert kinds_named("int8 has 44% lower latency and memory", "lower") == ()
    assert kinds_named("44% smaller latency", "smaller") == ()  # a size word about a time: unclear
    assert kinds_named("44% lower", "lower") == ()


def test_kind_of_a_column_by_unit_then_header():
    document = parse_document("| GPU | a (ms) | b (MiB) | c (tokens/s) | d latency | e (%) |\n|---|---|---|---|---|---|\n"
                              "| H100 | 1.0 | 2.0 | 3.0 | 4.0 | 5% |\n| T4 | 1.5 | 2.5 | 3.5 | 4.5 | 6% |\n", "x.md")
    kinds = [kind_of_series(s) for s in document.tables[0].series]
    assert kinds == ["time", "size", "throughput", "time", None]


def _sg107(text: str) -> list[str]:
    return [f.message for f in lint_text(text, "x.md") if f.code == "SG107"]


def test_a_universal_claim_is_contradicted_only_beyond_the_printed_digits():
    table = "| GPU | fp16 (ms) | int8 (ms) |\n|---|---:|---:|\n| H100 | 10.0 | 6.0 |\n| T4 | 20.0 | {t4} |\n\n"
    claim = "int8 is faster than fp16 on every GPU.\n"
    assert "row 'T4' has 20.0 against 20.0 (a tie as printed)" in _sg107(table.format(t4="20.0") + claim)[0]
    assert not _sg107(table.format(t4="19.9") + claim)
    (message,) = _sg107(table.format(t4="20.1") + claim)
    assert "row 'T4' has 20.1 against 20.0" in message and "2 rows named" in message
    assert _sg107(table.format(t4="20.1") + "int8 is always slower than fp16.\n")[0].count("has ") == 1  # H100


def test_higher_and_better_follow_the_kind():
    table = "| GPU | fp16 (images/s) | int8 (images/s) |\n|---|---:|---:|\n| H100 | 500 | 800 |\n| T4 | 90 | 85 |\n\n"
    assert "row 'T4' has 85 against 90" in _sg107(table + "int8 gives higher throughput than fp16 on all GPUs.\n")[0]
    assert "row 'T4'" in _sg107(table + "int8 is faster than fp16 on every GPU.\n")[0]
    assert "row 'H100' has 500 against 800" in _sg107(table + "fp16 is better than int8 in throughput on all GPUs.\n")[0]
    assert not _sg107(table + "int8 is faster than fp16 on every GPU except the T4.\n")
    assert not _sg107(table + "int8 is faster than fp16 on most GPUs.\n")
