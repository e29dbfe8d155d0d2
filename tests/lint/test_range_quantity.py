"""SG101 holds a range whose clause names a quantity only to columns of
that quantity (studygen.lint.range_quantity; unseen document 12: "60-80%
less memory" was held to a read-throughput 'Advantage' column). Documents
of our own; figures and lines worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text, parse_document
from studygen.lint.range_quantity import clause_kind, column_kind, family, holds_quantity


def _sg101(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


# a percentage column of read throughput (its neighbours are rates in a noun lint has no unit for), then a
# sentence on line 13 under a subsection of the same section
READS = """## Store comparison

### Reads

| Workload | Alpha | Beta | Advantage |
|---|---|---|---|
| Sequential | 900,000 ops/sec | 600,000 ops/sec | +50% |
| Random | 400,000 ops/sec | 300,000 ops/sec | +33% |
| Mixed | 300,000 ops/sec | 270,000 ops/sec | +11% |

### Footprint

"""
LEFT_OUT = ("range 60-80% leaves out 3 rows: 'Sequential / 900,000 ops/sec / 600,000 ops/sec' (+50%), "
            "'Random / 400,000 ops/sec / 300,000 ops/sec' (+33%), 'Mixed / 300,000 ops/sec / 270,000 ops/sec' (+11%) "
            "of 'Advantage' in the table at line 5")


@pytest.mark.parametrize("sentence", [
    "Advantage: Alpha uses 60-80% less memory for the same data.",
    "Advantage: the memory footprint of Alpha is 60-80% smaller.",
    "Advantage: Alpha's files on disk are 60-80% smaller.",
])
def test_a_range_of_another_quantity_is_not_held_to_a_throughput_column(sentence):
    assert _sg101(READS + sentence + "\n") == []


@pytest.mark.parametrize("sentence", [
    "Advantage: Alpha reads 60-80% faster.",                        # no quantity word: read as before
    "Advantage: Alpha gives 60-80% higher read throughput.",        # the column's own quantity
    "Advantage: Alpha cuts read latency by 60-80%.",                # time and throughput are one family
    # what the range varies over is no quantity it measures (unseen set 3, document 01: "depending on model size")
    "Advantage: Alpha reads 60-80% faster depending on dataset size.",
    "Advantage: Alpha reads 60-80% faster across all dataset sizes.",
    "Advantage: Alpha reads 60-80% faster for every file size.",
])
def test_a_range_of_the_columns_quantity_stays_held_to_it(sentence):
    assert _sg101(READS + sentence + "\n") == [(13, LEFT_OUT)]


def test_a_column_whose_kind_nothing_tells_stays_held():
    # the neighbours are bare counts: nothing says what 'Advantage' measures, so a memory range is held as before
    bare = READS.replace(" ops/sec", "")
    assert _sg101(bare + "Advantage: Alpha uses 60-80% less memory for the same data.\n") == [
        (13, "range 60-80% leaves out 3 rows: 'Sequential' (+50%), 'Random' (+33%), 'Mixed' (+11%) of 'Advantage' "
             "in the table at line 5")]


def test_a_memory_range_is_held_to_a_memory_column():
    memory = READS.replace("| Advantage |", "| Memory saving |")
    assert _sg101(memory + "Alpha uses 60-80% less memory for the same data.\n") == [
        (13, LEFT_OUT.replace("'Advantage'", "'Memory saving'"))]


def test_a_fitting_column_of_another_quantity_still_clears_the_range():
    # a memory range that the throughput column happens to cover: lint stays quiet rather than guess
    assert _sg101(READS + "Advantage: Alpha uses 11-50% less memory.\n") == []


def test_kinds_of_clauses_and_columns():
    document = parse_document(READS + "Alpha uses 60-80% less memory, and reads are at least 10% faster.\n", "x.md")
    (sentence,) = [s for b in document.prose for s in b.sentences if s.ranges]
    (advantage,) = document.tables[0].series
    assert column_kind(advantage) == "throughput"  # by the ops/sec cells beside it
    assert clause_kind(sentence, sentence.ranges[0]) == "size"
    assert not holds_quantity(advantage, "size")
    assert holds_quantity(advantage, "time") and holds_quantity(advantage, None)
    assert (family("time"), family("throughput"), family("error"), family("size"), family(None)) == (
        "speed", "speed", "quality", "size", None)


def _series_kinds(markdown: str) -> list[tuple[str, str | None, str | None]]:
    """(header, unit, column_kind) of each series of the document's first table."""
    return [(s.header, s.unit, column_kind(s)) for s in parse_document(markdown, "x.md").tables[0].series]


def test_a_column_is_typed_by_its_unit_else_by_its_neighbours():
    # a speedup column of bare figures and a percentage column take the kind of the millisecond columns beside them
    table = """## Runs

| Model | fp32 | fp16 | Speedup | Saving |
|---|---|---|---|---|
| a | 4.0 ms | 2.0 ms | 2.0 | 50% |
| b | 8.0 ms | 6.0 ms | 1.3 | 25% |
"""
    assert _series_kinds(table) == [("fp32", "ms", "time"), ("fp16", "ms", "time"), ("Speedup", None, "time"),
                                    ("Saving", "%", "time")]


def test_a_unitless_column_takes_the_kind_of_the_unit_its_caption_gives():
    # its neighbours name two kinds (time by the caption's µs, size by GB), so only the caption tells
    table = """## Runs

Times in µs.

| Model | fp32 | Footprint (GB) | Speedup |
|---|---|---|---|
| a | 4.0 | 2.0 | 2.0 |
| b | 8.0 | 6.0 | 1.3 |
"""
    assert _series_kinds(table)[2] == ("Speedup", None, "time")
    # a header that names its quantity outranks the caption's unit
    named = table.replace("Times in µs.", "Sizes in GB.").replace("| fp32 |", "| Plan |").replace(
        "| Speedup |", "| Latency speedup |")
    assert _series_kinds(named)[2] == ("Latency speedup", None, "time")


def test_the_clause_of_a_range_in_a_later_sentence_of_its_paragraph():
    # the sentence starts 18 characters into its block: the range's offsets are the block's, not the sentence's;
    # its clause ends at the comma, before the latency the next one names
    document = parse_document("## Runs\n\nAlpha is a store. It uses 60-80% less memory, and its latency is 10% lower.\n",
                              "x.md")
    (sentence,) = [s for b in document.prose for s in b.sentences if s.ranges]
    assert sentence.start == 18
    assert clause_kind(sentence, sentence.ranges[0]) == "size"
