"""SG101 details on small tables of our own (studygen.lint.sg101_range_coverage):
the line of a claim that wraps, a reference row named after "of", and a
sibling figure that states a left-out row only when it prints its digits.
Figures and lines worked out by hand."""

from __future__ import annotations

from studygen.lint import lint_text


def _sg101(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


def test_a_claim_in_a_wrapped_sentence_is_reported_on_the_line_of_its_figure():
    speed = "# Runs\n\n| job | speed |\n|---|---|\n| a | 1.90x faster |\n| b | 2.44x faster |\n| c | 2.00x faster |\n\n"
    # the sentence starts on line 9; "2.5x" stands on line 10
    assert _sg101(speed + "Across the runs of\nthe last week the new loader trains 2.5x faster\nthan before.\n") == [
        (10, "'2.5x faster' exceeds every row of 'speed' in the table at line 3 (3 rows, largest 2.44x)")]


_RATIOS = "# Ratios\n\n| recipe | ratio to fp16 |\n|---|---|\n| fp16 | 1.00x |\n| int8 | 0.40x |\n| fp8 | 0.55x |\n\n"


def test_a_row_at_the_identity_named_after_of_is_the_reference_not_a_left_out_row():
    assert _sg101(_RATIOS + "The quantized engines run at 0.40-0.55x of fp16.\n") == []
    assert _sg101(_RATIOS + "The quantized engines run at 0.40-0.55x versus fp16.\n") == []
    # "fp16" as the first word of a longer name is no mention of the row
    assert _sg101(_RATIOS + "The quantized engines run at 0.40-0.55x of fp16x2 packing.\n") == [
        (9, "range 0.40-0.55x leaves out row 'fp16' (1.00x) of 'ratio to fp16' in the table at line 3")]
    assert _sg101(_RATIOS + "The quantized engines run at 0.40-0.55x of the plan.\n") == [
        (9, "range 0.40-0.55x leaves out row 'fp16' (1.00x) of 'ratio to fp16' in the table at line 3")]


def test_a_sibling_figure_states_a_left_out_row_only_within_its_printed_digits():
    latency = "# Latency\n\n| kernel | time ms |\n|---|---|\n| gemm a | 2.1 |\n| gemm b | 2.3 |\n| copy | 5.0 |\n\n"
    assert _sg101(latency + "The kernels take 2.1 to 2.3 ms, against 5.0 ms for the copy.\n") == []
    # 4.5 ms stands for 4.45 to 4.55: it does not state the copy's 5.0 ms
    assert _sg101(latency + "The kernels take 2.1 to 2.3 ms, against 4.5 ms elsewhere.\n") == [
        (9, "range 2.1 to 2.3 ms leaves out row 'copy' (5.0 ms) of 'time ms' in the table at line 3")]


def test_a_unitless_range_takes_the_nearest_heading_unit_unless_a_noun_follows():
    from studygen.lint import lint_text

    table = "| shape | ms |\n|---|---|\n| a | 5.0 |\n| b | 7.5 |\n"
    text = "# Study\n\n## Latency (ms)\n\n### B200\n\nIt runs in {range} every shape.\n\n" + table
    (finding,) = [f for f in lint_text(text.format(range="5.0 to 6.0 on"), "x.md") if f.code == "SG101"]
    assert finding.message.startswith("range 5.0 to 6.0 (ms, from the heading 'Latency (ms)') leaves out row 'b' (7.5 ms)")
    # "5 to 6 shapes" counts shapes: no unit, not read
    assert [f for f in lint_text(text.format(range="5 to 6 shapes,"), "x.md") if f.code == "SG101"] == []


def test_ranges_are_two_figures_joined_by_a_short_gap():
    from studygen.lint.figures import find_ranges, tokenize

    def ranges(text):
        return [r.text for r in find_ranges(text, tokenize(text))]

    assert ranges("from 5.1 to 5.9 ms") == ["5.1 to 5.9 ms"]
    assert ranges("between 2.1 and 9.7 ms") == ["between 2.1 and 9.7 ms"]
    # sixteen characters of gap at most: a long stretch between two figures joins nothing
    assert ranges("5.1" + " " * 20 + "to 5.9 ms") == []
    assert ranges("5.1" + " " * 12 + "to 5.9 ms") == ["5.1" + " " * 12 + "to 5.9 ms"]


# A summary above the results: the columns are named by variant, the heading over them names the quantity.
_BY_VARIANT = ("# Study\n\n{claim}\n\n## Latency (ms, median GPU compute time)\n\n| GPU | fp32 (ms) | fp16 (ms) |\n"
               "|---|---:|---:|\n| H100 | 0.03613 | 0.03882 |\n| GTX 1070 | 0.1536 | 0.1547 |\n")


def test_a_summary_range_is_read_against_the_column_its_variant_and_the_heading_name():
    left_out = "range 0.05 to 0.1536 ms leaves out row 'H100' (0.03613 ms) of 'fp32 (ms)' in the table at line 7"
    assert _sg101(_BY_VARIANT.format(claim="The fp32 median GPU compute time ranges from 0.05 to 0.1536 ms.")) == [
        (3, left_out)]
    assert _sg101(_BY_VARIANT.format(claim="Latency ranges from 0.05 to 0.1536 ms for fp32.")) == [(3, left_out)]
    # the range covers the column, names another quantity, or names the rows it covers: nothing to report
    assert _sg101(_BY_VARIANT.format(claim="fp32 latency ranges from 0.036 to 0.1536 ms.")) == []
    assert _sg101(_BY_VARIANT.format(claim="fp32 throughput ranges from 0.05 to 0.1536 ms.")) == []
    assert _sg101(_BY_VARIANT.format(claim="On the GTX 1070, fp32 latency ranges from 0.05 to 0.1536 ms.")) == []
    # a heading that names no quantity of the sentence ties nothing: the variant alone is no tie across sections
    assert _sg101(_BY_VARIANT.format(claim="fp32 latency ranges from 0.05 to 0.1536 ms.").replace(
        "Latency (ms, median GPU compute time)", "Numbers")) == []


def test_a_heading_ties_a_summary_range_by_a_quantity_word_not_a_mode():
    # "compiled" shares only the mode with "Latency with torch.compile": the range may be of another quantity
    # (a profiled kernel total, the H200 study's summary found it so)
    text = _BY_VARIANT.replace("Latency (ms, median GPU compute time)", "Runs with torch.compile (ms)")
    assert _sg101(text.format(claim="Under torch.compile the fp32 kernel total takes 0.05 to 0.1536 ms.")) == []
    assert _sg101(text.format(claim="Under torch.compile the fp32 run takes 0.05 to 0.1536 ms.")) == []
    text = _BY_VARIANT.replace("Latency (ms, median GPU compute time)", "Latency with torch.compile (ms)")
    assert _sg101(text.format(claim="Compiled, the fp32 latency takes 0.05 to 0.1536 ms.")) == [
        (3, "range 0.05 to 0.1536 ms leaves out row 'H100' (0.03613 ms) of 'fp32 (ms)' in the table at line 7")]


_SUMMARY_ABOVE = ("# Study\n\n## Summary\n\n{claim}\n\n## Results\n\n### Runs\n\n| GPU | fp32 (ms) | fp16 (ms) |\n"
                  "|---|---:|---:|\n| GTX 1070 | 0.1536 | 0.1547 |\n| H100 | 0.03613 | — |\n| H100 PCIe | 0.03882 | — |\n\n"
                  "### Plans\n\n| GPU | fp32 (MiB) | fp16 (MiB) |\n|---|---:|---:|\n| GTX 1070 | 0.05 | 0.04 |\n"
                  "| H100 | 0.06 | — |\n")


def test_a_summary_range_naming_a_variant_alone_is_read_against_that_variant_s_column_of_its_unit():
    # no quantity word anywhere ("Runs"): the variant and the unit tie it (a new user's summary)
    left_out = "range 0.03613 to 0.0500 ms leaves out row 'GTX 1070' (0.1536 ms) of 'fp32 (ms)' in the table at line 11"
    assert _sg101(_SUMMARY_ABOVE.format(claim="fp32 takes 0.03613 to 0.0500 ms.")) == [(5, left_out)]
    assert _sg101(_SUMMARY_ABOVE.format(claim="The fp32 figures range from 0.03613 to 0.0500 ms.")) == [(5, left_out)]
    assert _sg101(_SUMMARY_ABOVE.format(claim="fp32 takes 0.03613 to 0.1536 ms.")) == []
    assert _sg101(_SUMMARY_ABOVE.format(claim="fp32 takes 0.04 to 0.06 MiB.")) == []  # its MiB column, covered
    # another variant's name ties nothing to the fp32 column
    assert _sg101(_SUMMARY_ABOVE.format(claim="bf16 takes 0.03613 to 0.0500 ms.")) == []
