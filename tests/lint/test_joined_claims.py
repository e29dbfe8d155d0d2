"""Comparisons between two variants whose figures stand in separate tables
(studygen/lint/table_joins.py; SG107 and SG103's joined_ratios).

A new user's README, made with the generic template, printed each variant's
latencies in a table of its own (one table per way of timing). "int8 is
faster than fp16 on every GPU" passed although no GPU or shape had both
measured, and "int8 is 2.05x faster on the laptop GPU" passed though its
2.05x divided the laptop's time by another GPU's. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text, parse_document
from studygen.lint.table_joins import Sides, cells_of, sides

from .test_lint_scaling import _calls

# the generic template's shape: a heading, a "Timed as" line per way of timing, one variant per table
GENERIC = """\
# Detector

## Summary and decision

{claim}

## Results

### Latency (ms, median GPU compute time)

Timed as TensorRT engine, GPU compute time, CUDA graphs off, data transfers on:

| GPU | TensorRT | Shape HxW | Batch | fp16 (ms) |
| --- | --- | --- | --- | --- |
| RTX 4090 | 10.3.0 | 640 x 640 | 1 | 1.884 |

Timed as TensorRT engine, GPU compute time, CUDA graphs on, data transfers off:

| GPU | TensorRT | Shape HxW | Batch | int8 (ms) |
| --- | --- | --- | --- | --- |
| RTX 4060 Laptop | 10.3.0 | 640 x 640 | 1 | 3.862 |
| RTX 4090 | 10.3.0 | 320 x 320 | 1 | 0.731 |
"""


def _found(text: str, code: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == code]


def test_the_generic_readme_claim_over_variants_in_separate_tables_compares_nothing():
    ((line, message),) = _found(GENERIC.format(claim="int8 is faster than fp16 on every GPU."), "SG107")
    assert line == 5
    assert message == (
        "'int8 is faster than fp16 on every GPU' compares nothing: no figure of 'int8 (ms)' (2 in the table at "
        "line 19) stands beside one of 'fp16 (ms)' (1 in the table at line 13) with nothing else different; the "
        "nearest two, row 'RTX 4060 Laptop / 10.3.0 / 640 x 640 / 1' in 'int8 (ms)' (line 21) and row "
        "'RTX 4090 / 10.3.0 / 640 x 640 / 1' in 'fp16 (ms)' (line 15), differ in GPU ('RTX 4060 Laptop' against "
        "'RTX 4090') and the lines above their tables ('…time, CUDA graphs on, data transfers off' against "
        "'…time, CUDA graphs off, data transfers on')")


def test_the_same_claim_over_one_table_of_both_columns_keeps_its_one_table_finding():
    text = ("| GPU | fp16 (ms) | int8 (ms) |\n|---|---:|---:|\n| RTX 4090 | 1.884 | — |\n"
            "| RTX 4060 Laptop | — | 3.862 |\n\nint8 is faster than fp16 on every GPU.\n")
    ((_, message),) = _found(text, "SG107")
    assert "no row of the table at line 1 holds both 'int8 (ms)' and 'fp16 (ms)'" in message


def test_a_ratio_of_two_gpus_is_named_as_such():
    ((line, message),) = _found(GENERIC.format(claim="int8 is 2.05x slower on the laptop GPU."), "SG103")
    assert line == 5
    assert message == (
        "2.05x between 'int8 (ms)' and 'fp16 (ms)' compares figures that differ in GPU ('RTX 4060 Laptop' against "
        "'RTX 4090') and the lines above their tables ('…time, CUDA graphs on, data transfers off' against '…time, "
        "CUDA graphs off, data transfers on'): 3.862 at row 'RTX 4060 Laptop / 10.3.0 / 640 x 640 / 1' in 'int8 (ms)' "
        "(line 21) against 1.884 at row 'RTX 4090 / 10.3.0 / 640 x 640 / 1' in 'fp16 (ms)' (line 15) give it, and no "
        "figure of either stands beside one of the other with nothing else different")
    # "faster" where the laptop's int8 is the slower: the same figures, the other way round than it says
    ((_, faster),) = _found(GENERIC.format(claim="int8 is 2.05x faster on the laptop GPU."), "SG103")
    assert "give it, the other way round than 'faster' says" in faster


PER_VARIANT = """\
# Encoder

## fp16

| GPU | fp16 (ms) |
|---|---:|
| A10 | 12.6 |
| L4 | 17.3 |

## int8

| GPU | int8 (ms) |
|---|---:|
| A10 | 8.05 |
| L4 | {l4} |

## Summary

{claim}
"""


@pytest.mark.parametrize("l4, claim, code, fragment", [
    # 10.9 against 17.3 bears "faster" out; 17.5 goes the other way, 17.3 ties as printed
    ("10.9", "int8 is faster than fp16 on every GPU.", "SG107", None),
    ("17.5", "int8 is faster than fp16 on every GPU.", "SG107",
     "row 'L4' in 'int8 (ms)' (line 15) has 17.5 against 17.3 at line 8"),
    ("17.3", "int8 is faster than fp16 on every GPU.", "SG107", "has 17.3 against 17.3 at line 8 (a tie as printed)"),
    ("17.3", "int8 is at least as fast as fp16 on every GPU.", "SG107", None),
    ("10.9", "int8 beats fp16 on every GPU.", "SG107", None),
    # fp16 is the faster on the L4 only: the A10 pair goes against "outperforms"
    ("17.5", "fp16 outperforms int8 on every GPU.", "SG107", "row 'A10' in 'fp16 (ms)' (line 7) has 12.6 against 8.05"),
    # 12.6 / 8.05 = 1.565 and 17.3 / 10.9 = 1.587: named, or the reference left to be the one other variant
    ("10.9", "int8 is 1.57x faster than fp16 on the A10.", "SG103", None),
    ("10.9", "int8 is 1.59x faster on the L4.", "SG103", None),
    ("10.9", "int8 is 1.49x faster on the L4.", "SG103", "17.3 / 10.9 = 1.59x"),
    ("10.9", "int8 cuts the latency by 37% on the L4.", "SG103", None),  # (17.3 - 10.9) / 17.3 = 37%
    ("10.9", "int8 cuts the latency by 47% on the L4.", "SG103", "(17.3 - 10.9) / 17.3 = 37%"),
])
def test_one_table_per_variant(l4, claim, code, fragment):
    found = _found(PER_VARIANT.format(l4=l4, claim=claim), code)
    if fragment is None:
        assert found == []
    else:
        ((line, message),) = found
        assert line == 19 and fragment in message


def test_a_ratio_the_paired_rows_give_only_the_other_way_round_does_not_follow():
    # int8 is the faster; "slower" of it is the other way round on the one pair, and no other figure gives it
    found = _found(PER_VARIANT.format(l4="10.9", claim="int8 is 1.59x slower than fp16 on the L4."), "SG103")
    assert found == [(19, "1.59x between 'int8 (ms)' and 'fp16 (ms)' does not follow from the figures that pair "
                          "them: row 'L4' in 'int8 (ms)' (line 15) and row 'L4' in 'fp16 (ms)' (line 8) give "
                          "17.3 / 10.9 = 1.587x (1.575x to 1.599x within the printed digits), the other way round "
                          "than 'slower' says")]


LAYOUTS = {
    # the variant named by the heading over each table
    "headings": "### fp16\n\n| Board | Latency (ms) |\n|---|---:|\n| Orin | 21.4 |\n| Thor | 9.70 |\n\n"
                "### int8\n\n| Board | Latency (ms) |\n|---|---:|\n| Orin | 12.7 |\n| Thor | {thor} |\n\n",
    # by the line above each table; the batch tells the two int8 tables apart
    "lead-ins": "fp16 engine, batch 1:\n\n| Board | Latency (ms) |\n|---|---:|\n| Orin | 21.4 |\n| Thor | 9.70 |\n\n"
                "int8 engine, batch 1:\n\n| Board | Latency (ms) |\n|---|---:|\n| Orin | 12.7 |\n| Thor | {thor} |\n\n"
                "int8 engine, batch 8:\n\n| Board | Latency (ms) |\n|---|---:|\n| Orin | 88.0 |\n| Thor | 41.2 |\n\n",
    # variants as rows, boards as columns
    "transposed": "| Variant | Orin (ms) | Thor (ms) |\n|---|---:|---:|\n| fp16 | 21.4 | 9.70 |\n"
                  "| int8 | 12.7 | {thor} |\n\n",
    # one table per model, variants as its rows
    "per model": "### small\n\n| Precision | Latency (ms) |\n|---|---:|\n| fp16 | 9.70 |\n| int8 | {thor} |\n\n"
                 "### large\n\n| Precision | Latency (ms) |\n|---|---:|\n| fp16 | 21.4 |\n| int8 | 12.7 |\n\n",
    # a metric per row
    "metric rows": "| Metric | fp16 | int8 |\n|---|---:|---:|\n| Latency (ms) | 9.70 | {thor} |\n"
                   "| Plan size (MiB) | 51.0 | 27.5 |\n\n",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_layout_is_judged_and_a_supported_claim_stays_quiet(layout):
    claim = "# Pose model\n\n" + LAYOUTS[layout] + "int8 is always faster than fp16.\n"
    assert _found(claim.format(thor="6.15"), "SG107") == []
    ((_, message),) = _found(claim.format(thor="9.95"), "SG107")
    assert "is contradicted by" in message and "has 9.95 against 9.70" in message


def test_tables_of_two_gpus_compare_nothing_and_say_the_headings_differ():
    text = ("# Segmenter\n\n### A100\n\n| Shape | fp16 (ms) |\n|---|---:|\n| 512 x 512 | 6.42 |\n\n"
            "### H100\n\n| Shape | int8 (ms) |\n|---|---:|\n| 512 x 512 | 2.95 |\n\n"
            "int8 is faster than fp16 at every shape.\n\nint8 is 2.18x faster than fp16 at 512 x 512.\n")
    ((line, universal),) = _found(text, "SG107")
    assert line == 15 and universal.endswith(
        "the nearest two, row '512 x 512' in 'int8 (ms)' (line 13) and row '512 x 512' in 'fp16 (ms)' (line 7), differ "
        "in the headings above their tables ('Segmenter / H100' against 'Segmenter / A100')")
    ((line, ratio),) = _found(text, "SG103")
    assert line == 17 and ratio.startswith(
        "2.18x between 'int8 (ms)' and 'fp16 (ms)' compares figures that differ in the headings above their tables "
        "('Segmenter / H100' against 'Segmenter / A100'): 2.95 at row '512 x 512' in 'int8 (ms)' (line 13) against "
        "6.42 at row '512 x 512' in 'fp16 (ms)' (line 7) give it")


def test_a_ratio_only_two_gpus_of_one_variant_give_says_both_figures_are_that_variant():
    # no fp16 figure gives 2.00x with the laptop's int8; the desktop's int8 does
    text = ("# Check\n\n### fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| RTX 4090 | 1.50 |\n\n"
            "### int8\n\n| GPU | int8 (ms) |\n|---|---:|\n| RTX 4060 Laptop | 2.40 |\n| RTX 4090 | 1.20 |\n\n"
            "int8 is 2.00x slower on the laptop GPU.\n")
    ((_, message),) = _found(text, "SG103")
    assert "2.40 at row 'RTX 4060 Laptop' in 'int8 (ms)' (line 13) against 1.20 at row 'RTX 4090' in 'int8 (ms)' " \
           "(line 14) (both 'int8 (ms)') give it" in message


def test_a_ratio_the_other_variant_gives_is_named_before_one_its_own_variant_gives():
    # 2.40 / 1.20 with the RTX 3090's int8 (another GPU) and with the RTX 4090's fp16 (another GPU, timed
    # another way): the fp16 figure is the one named, though it differs in more
    text = ("# Check\n\nTimed with CUDA graphs off:\n\n| GPU | fp16 (ms) |\n|---|---:|\n| RTX 4090 | 1.20 |\n\n"
            "Timed with CUDA graphs on:\n\n| GPU | int8 (ms) |\n|---|---:|\n| RTX 4060 Laptop | 2.40 |\n"
            "| RTX 3090 | 1.20 |\n\nint8 is 2.00x slower on the laptop GPU.\n")
    ((_, message),) = _found(text, "SG103")
    assert "against 1.20 at row 'RTX 4090' in 'fp16 (ms)' (line 7) give it" in message and "both" not in message


def test_what_keeps_two_figures_apart_leaves_out_the_labels_naming_the_two_sides():
    # variants as row labels of one table per model, the models on two GPUs: the GPUs keep them apart, not
    # the Precision labels, which are the two things compared
    text = ("# Models\n\n### A100\n\n| Precision | Latency (ms) |\n|---|---:|\n| fp16 | 9.70 |\n\n"
            "### H100\n\n| Precision | Latency (ms) |\n|---|---:|\n| int8 | 4.10 |\n\nint8 is always faster than fp16.\n")
    ((_, message),) = _found(text, "SG107")
    assert message.endswith("differ in the headings above their tables ('Models / H100' against 'Models / A100')")


def test_a_sentence_right_above_a_table_is_no_lead_in():
    document = parse_document("Results, batch 1:\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 2.5 |\n\n"
                              "int8 is faster here.\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 2.0 |\n\n"
                              "int8 run\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 2.0 |\n", "t.md")
    assert [cell.scope.lead_in for cell in cells_of(document, "time")] == [
        ("result", "batch", "1"), None, ("int8", "run")]


def test_labels_in_other_spellings_pair_and_a_vendor_word_may_open_them():
    text = ("# Run\n\n### fp16\n\n| GPU | Shape | fp16 (ms) |\n|---|---|---:|\n| GeForce RTX 4090 | 640x640 | 1.88 |\n\n"
            "### int8\n\n| GPU | Shape | int8 (ms) |\n|---|---|---:|\n| RTX4090 | 640 x 640 | 1.90 |\n\n"
            "int8 is faster than fp16 on every GPU.\n")
    ((_, message),) = _found(text, "SG107")
    assert "row 'RTX4090 / 640 x 640' in 'int8 (ms)' (line 13) has 1.90 against 1.88 at line 7" in message


def test_the_claims_own_section_is_read_before_the_rest_of_the_document():
    other = ("# Other model\n\n### fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.00 |\n\n"
             "### int8\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 6.00 |\n\n")
    own = ("# This model\n\n### fp16\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 5.00 |\n\n"
           "### int8\n\n| GPU | int8 (ms) |\n|---|---:|\n| A10 | 4.00 |\n\nint8 is faster than fp16 on every GPU.\n")
    assert _found(other + own, "SG107") == []
    # without tables of its own, a claim is read against every table, and the other model's contradict it
    assert len(_found(other + "# Summary\n\nint8 is faster than fp16 on every GPU.\n", "SG107")) == 1


SIDES = parse_document(
    "| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 12.6 |\n| L4 | 17.3 |\n\n"
    "| GPU | int8 (ms) |\n|---|---:|\n| A10 | 8.05 |\n| L4 | 10.9 |\n\n| GPU | fp32 (ms) |\n|---|---:|\n| T4 | 40.1 |\n\n"
    "| GPU | bf16 (tokens/s) |\n|---|---:|\n| A10 | 990 |\n\n| GPU | fp8 (tokens/s) |\n|---|---:|\n| A10 | 1400 |\n\n"
    "Text.\n", "t.md")


@pytest.mark.parametrize("kind, subject, reference, expected", [
    ("time", "int8 is ", " fp16 on every GPU.", [Sides(("int8",), ("fp16",), False)]),
    ("time", "int8 is ", " the fp16 engine.", [Sides(("int8",), ("fp16",), False)]),
    ("time", "int8 is ", " eager PyTorch.", []),  # a reference no table names
    ("time", "int8 is ", " on the A10, fp16.", []),  # the reference must follow the comparison word
    ("time", "int8 is ", " fp16 and fp32.", []),  # a second reference of the same kind
    ("time", "The L4 is ", " the A10 with fp16.", [Sides(("l4",), ("a10",), False)]),  # GPUs as the two sides
    ("time", "The L4 is ", " the NVIDIA A10.", [Sides(("l4",), ("a10",), False)]),  # a vendor word before a label
    ("time", "int8 is 2x faster", None, []),  # three time columns: which is the reference is unclear
    # two throughput columns: the reference left out is the other one
    ("throughput", "fp8 is 1.4x faster", None, [Sides(("fp8",), ("bf16",), True)]),
    ("throughput", "bf16 is ", " fp8.", [Sides(("bf16",), ("fp8",), False)]),
])
def test_sides(kind, subject, reference, expected):
    assert sides(SIDES, kind, subject, reference) == expected


def test_cells_keep_their_coordinates():
    document = parse_document(
        "## int8\n\nTimed with graphs:\n\n| GPU | Shape | int8 (ms) | int8 (MiB) |\n|---|---|---:|---:|\n"
        "| GeForce RTX 4090 | 640 x 640 | 1.90 | 27 |\n|  | 320 x 320 | 0.71 | 27 |\n", "t.md")
    times = cells_of(document, "time")
    assert [(c.figure.text, c.labels, c.column) for c in times] == [
        ("1.90", (("gpu", "rtx4090"), ("shape", "640x640")), ("int8",)),
        # an empty first label cell beside another continues the one above
        ("0.71", (("gpu", "rtx4090"), ("shape", "320x320")), ("int8",)),
    ]
    assert times[0].scope.lead_in == ("timed", "with", "graph")
    assert [c.figure.text for c in cells_of(document, "size")] == ["27", "27"]


def test_two_tables_of_one_variant_told_apart_by_nothing_leave_the_claim_unread():
    text = ("# Vocoder\n\n| GPU | int4 (ms) |\n|---|---:|\n| A10 | 2.20 |\n\n| GPU | int4 (ms) |\n|---|---:|\n"
            "| A10 | 2.90 |\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 2.60 |\n\nint4 is always faster than fp16.\n")
    assert _found(text, "SG107") == []


def _per_variant_tables(count: int) -> str:
    block = ("## fp16 {i}\n\n| GPU | fp16 (ms) |\n|---|---:|\n| A10 | 12.6 |\n\n## int8 {i}\n\n| GPU | int8 (ms) |\n"
             "|---|---:|\n| A10 | 8.05 |\n\nint8 is 1.57x faster on the A10.\n\n")
    return "# Runs\n\n" + "".join(block.format(i=i) for i in range(count))


def test_ratios_over_many_per_variant_tables_stay_linear():
    # each ratio reads the tables of each side nearest it (TABLE_LIMIT), not every table of the document
    # (SG107's one-table candidates, read before its joins, still read every table naming the variants)
    from studygen.lint.table_joins import TABLE_LIMIT

    small, _ = _calls(_per_variant_tables(2 * TABLE_LIMIT))
    large, _ = _calls(_per_variant_tables(4 * TABLE_LIMIT))
    assert large / small < 2.2


# one table per variant, rows per GPU and TensorRT version: no GTX 1070 row of fp16 shares fp32's TensorRT
VERSIONS = """\
# Detector

## fp32

| GPU | TensorRT | Batch | Latency (ms) |
|---|---|---|---|
| GeForce GTX 1070 | 8.2.3 | 1 | 0.1536 |
| H100 PCIe | 8.6.1 | 4 | 0.03613 |
{extra}
## fp16

| GPU | TensorRT | Batch | Latency (ms) |
|---|---|---|---|
| GeForce GTX 1070 | 8.4.1 | 1 | 0.1547 |
| H100 PCIe | 8.6.1 | 4 | 0.02104 |

## Notes

{claim}
"""
NAMED = "fp16 on TensorRT 8.4.1 is {figure} slower than fp32 on TensorRT 8.2.3, both on the GTX 1070."


@pytest.mark.parametrize("extra", ["", "| GeForce GTX 1070 | 8.4.1 | 1 | 0.1490 |\n"])
def test_a_ratio_naming_what_else_differs_compares_those_figures(extra):
    # 0.1547 against 0.1536 is 0.7%: the TensorRT versions the sentence names make them its pair, before the
    # 8.4.1 fp32 row that differs in nothing (and would give 3.7%)
    assert _found(VERSIONS.format(extra=extra, claim=NAMED.format(figure="0.7%")), "SG103") == []
    ((line, message),) = _found(VERSIONS.format(extra=extra, claim=NAMED.format(figure="5%")), "SG103")
    assert line == 19 + bool(extra)
    assert message == (
        f"5% between 'fp16' and 'fp32' does not follow from the figures that pair them: row 'GeForce GTX 1070 / "
        f"8.4.1 / 1' in 'Latency (ms)' (line {14 + bool(extra)}) and row 'GeForce GTX 1070 / 8.2.3 / 1' in "
        f"'Latency (ms)' (line 7) give (0.1547 - 0.1536) / 0.1547 = 0.71% (0.6% to 0.8% within the printed digits)")


def test_versions_named_the_other_way_round_pair_nothing():
    claim = NAMED.replace("8.4.1", "#").replace("8.2.3", "8.4.1").replace("#", "8.2.3").format(figure="0.7%")
    ((_, message),) = _found(VERSIONS.format(extra="", claim=claim), "SG103")
    assert message.startswith("0.7% between 'fp16' and 'fp32' compares figures that differ in TensorRT "
                              "('8.4.1' against '8.2.3'): 0.1547 at row")


@pytest.mark.parametrize("claim", [
    "In fp32 the H100 PCIe is 5.0x faster than the GTX 1070 (0.03613 against 0.1536 ms).",
    "The H100 PCIe in fp32 is 5.0x faster than the GTX 1070 (0.03613 against 0.1536 ms).",
    # the parenthesis right after the clause holds its operands however many words come before it
    "The H100 PCIe is 5.0x faster than the GTX 1070 in fp32 (0.03613 against 0.1536 ms).",
    "The H100 PCIe is 5.0x faster than the GeForce GTX 1070 when both run fp32 (0.03613 against 0.1536 ms).",
])
def test_a_ratio_before_its_operands_is_read_wherever_its_qualifier_stands(claim):
    ((line, message),) = _found(VERSIONS.format(extra="", claim=claim), "SG103")
    assert (line, message) == (19, "5.0x does not follow from 0.03613 and 0.1536 ms: 0.03613 / 0.1536 = 0.2x "
                                    "or 0.1536 / 0.03613 = 4.3x")


@pytest.mark.parametrize("claim", [
    "The H100 PCIe is 4.25x faster than the GTX 1070 in fp32.",
    "The H100 PCIe is 4.25x faster than the GeForce GTX 1070 in fp32.",
    "fp32 is 4.25x faster on the H100 PCIe than on the GeForce GTX 1070.",
    "On the H100 PCIe fp32 is 4.25x faster than on the GTX 1070.",
])
def test_a_ratio_between_two_gpus_says_what_else_differs_in_any_wording(claim):
    ((_, message),) = _found(VERSIONS.format(extra="", claim=claim), "SG103")
    assert message.startswith(
        "4.25x between 'H100 PCIe' and 'GeForce GTX 1070' compares figures that differ in TensorRT ('8.6.1' against "
        "'8.2.3') and Batch ('4' against '1'): 0.03613 at row 'H100 PCIe / 8.6.1 / 4' in 'Latency (ms)' (line 8) "
        "against 0.1536 at row 'GeForce GTX 1070 / 8.2.3 / 1' in 'Latency (ms)' (line 7) give it")


def test_a_ratio_of_no_side_by_side_figures_says_what_the_nearest_two_give():
    # a new user's 5.0x over figures that give 3.5x (across a TensorRT version) was told only that they differ
    text = ("# MNIST\n\n| GPU | TensorRT | Batch | fp32 (ms) | fp16 (ms) |\n|---|---|---|---:|---:|\n"
            "| GTX 1070 | 8.2.3 | 4 | 0.1536 | — |\n| GTX 1070 | 8.4.1 | 4 | — | 0.1547 |\n"
            "| RTX 3090 | 8.6.0 | 4 | — | 0.04395 |\n\nThe RTX 3090 is 5.0x faster than the GTX 1070 in fp16.\n")
    ((line, message),) = _found(text, "SG103")
    assert line == 9 and message.endswith(
        "differ in TensorRT ('8.6.0' against '8.4.1'); those two give 0.1547 / 0.04395 = 3.5x")


def test_a_finding_about_another_sentence_of_the_line_hides_no_ratio():
    # a study file's paragraph is one README line: the wrong change after the ratio hid the ratio's finding
    text = ("# MNIST\n\n| GPU | TensorRT | Batch | fp32 (ms) | fp16 (ms) |\n|---|---|---|---:|---:|\n"
            "| GTX 1070 | 8.2.3 | 4 | 0.1536 | — |\n| GTX 1070 | 8.4.1 | 4 | — | 0.1547 |\n"
            "| RTX 3090 | 8.6.0 | 4 | — | 0.04395 |\n\nThe RTX 3090 is 5.0x faster than the GTX 1070 in fp16. "
            "On the GTX 1070 the latency drops from 0.1536 to 0.1547 ms.\n")
    found = _found(text, "SG103")
    assert [line for line, _ in found] == [9, 9]
    assert found[0][1].startswith("'drops from' goes the wrong way") and found[1][1].startswith("5.0x between")
