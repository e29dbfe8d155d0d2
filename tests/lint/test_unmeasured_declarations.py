"""SG106 declarations on small documents of our own: a list whose last item
ends in a capital X, a table cell "not tried", the items of one
not-measured list naming each other, the line each kind of declaration
gives, rows of two label cells, a sentence that declares as a list, one
finding per line and configuration, names of two letters, the quoted clause
of a long sentence and the hint (studygen.lint.sg106_unmeasured). Lines and
messages worked out by hand."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from studygen.lint import lint_text
from studygen.lint import sg106_unmeasured as sg106
from studygen.lint.sg106_unmeasured import _outcome_quote


def _sg106(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG106"]


def test_a_listed_item_keeps_its_last_letter():
    # "ONNX." loses only the full stop: the item is ONNX, whose outcome line 5 then states
    assert _sg106("# T\n\nNot measured: INT4 and ONNX.\n\nONNX is 2x slower than TensorRT.\n") == [
        (5, "'ONNX' is declared not measured (line 3) but line 5 states an outcome for it: 'ONNX is 2x slower than TensorRT.'")]


def test_a_not_tried_cell_declares_its_row_at_the_row_line():
    # "not tried" is the only declaration word of the document; the row is line 6. With two rows the
    # ms column is half words, so it is a label column: the declaring cell must not join the label
    table = "# T\n\n| recipe | ms |\n|---|---|\n| fp16 | 5.0 |\n| deformable plugin | not tried |\n\n"
    assert _sg106(table + "The deformable plugin we tried is 2x faster.\n") == [
        (8, "'deformable plugin' is declared not measured (line 6) but line 8 states an outcome for it: "
            "'The deformable plugin we tried is 2x faster.'")]


def test_a_sentence_naming_a_not_tried_row_without_the_word_tried_is_matched():
    # the row's words are its labels less the declaring cell: "tried" is not needed in the sentence
    table = "# T\n\n| engine | p50 ms |\n|---|---|\n| fp16 | 7.5 |\n| sparse int8 | not measured |\n\n"
    assert _sg106(table + "Sparse INT8 is 30% slower on the L40S.\n") == [
        (8, "'sparse int8' is declared not measured (line 6) but line 8 states an outcome for it: "
            "'Sparse INT8 is 30% slower on the L40S.'")]
    # a row whose only label cell is the declaring one names nothing: no declaration, no finding
    alone = "# T\n\n| state |\n|---|\n| not measured |\n\nIt is 30% slower on the L40S.\n"
    assert _sg106(alone) == []


def test_items_of_one_not_measured_list_may_compare_each_other():
    listed = "- FP4\n- INT4, which is slower than FP4 on H100\n"
    assert _sg106("# T\n\n## Not measured\n\n" + listed) == []
    # the same sentence as a result, under a heading that declares nothing, states an outcome for both
    assert [line for line, _ in _sg106("# T\n\n## Not measured\n\n- FP4\n- INT4\n\n## Results\n\n- INT4 is slower than FP4 on H100\n")] == [10, 10]


def test_the_outcome_quote_starts_at_the_clause_of_the_outcome():
    # up to 100 characters the whole sentence is quoted, marks and all
    whole = "FP8 on B200, batch 8: 1.4x faster than the fp16 engine, over two hundred timed runs at 800x1067 pxs."
    assert len(whole) == 100 and _outcome_quote(whole, whole.index("1.4x")) == whole
    # longer: from the last ", " before the outcome (the one after "fp16" lies past it)
    comma = "On the B200 nodes of the second cluster, FP8 is 1.4x faster than fp16, measured over 200 runs of batch 8 at 800x1067."
    assert _outcome_quote(comma, comma.index("1.4x")) == "…FP8 is 1.4x faster than fp16, measured over 200 runs of batch 8 at 800x1067."
    dash = "On the B200 nodes of the second cluster of our lab — FP8 is 1.4x faster than fp16 over 200 runs of batch 8 at 800x1067."
    assert _outcome_quote(dash, dash.index("1.4x")) == "…FP8 is 1.4x faster than fp16 over 200 runs of batch 8 at 800x1067."


def test_a_list_under_a_not_run_heading_declares_each_item_at_its_own_line():
    assert _sg106("# T\n\n## Not run\n\n- NVFP4\n- INT4\n\n## Results\n\nNVFP4 is 2x faster on B200.\n") == [
        (10, "'NVFP4' is declared not measured (line 5) but line 10 states an outcome for it: 'NVFP4 is 2x faster on B200.'")]


def test_a_declaration_inside_a_paragraph_gives_the_line_it_stands_on():
    text = "# T\n\nThe B200 runs took a week.\nNVFP4 was not tried\nfor lack of kernels.\n\nNVFP4 is 2x faster on B200.\n"
    assert _sg106(text) == [
        (7, "'NVFP4' is declared not measured (line 4) but line 7 states an outcome for it: 'NVFP4 is 2x faster on B200.'")]
    # the same with a parenthesis: "NVFP4 (not tried)" on the middle line of three
    text = "# T\n\nOf the formats we had,\nNVFP4 (not tried) needs\nkernels of its own.\n\nNVFP4 is 2x faster on B200.\n"
    assert _sg106(text) == [
        (7, "'NVFP4' is declared not measured (line 4) but line 7 states an outcome for it: 'NVFP4 is 2x faster on B200.'")]


def test_a_list_item_states_an_outcome_for_a_declared_table_row():
    table = "# T\n\n| engine | p50 ms |\n|---|---|\n| fp16 | 7.5 |\n| sparse int8 | not measured |\n\n"
    assert _sg106(table + "- Sparse INT8 is 30% slower on the L40S.\n") == [
        (8, "'sparse int8' is declared not measured (line 6) but line 8 states an outcome for it: "
            "'Sparse INT8 is 30% slower on the L40S.'")]


def test_a_declared_row_of_two_label_cells_is_named_by_both():
    table = "# T\n\n| engine | gpu | p50 ms |\n|---|---|---|\n| fp16 | b200 | 7.5 |\n| sparse | b200 | not measured |\n\n"
    assert _sg106(table + "Sparse on B200 is 30% slower.\n") == [
        (8, "'sparse / b200' is declared not measured (line 6) but line 8 states an outcome for it: 'Sparse on B200 is 30% slower.'")]


def test_a_sentence_that_declares_a_deferred_list_states_no_outcome():
    assert _sg106("# T\n\nNVFP4 was not tried.\n\nDeferred: NVFP4 calibration, since NVFP4 is 2x slower to build.\n") == []


def test_one_finding_per_line_and_configuration():
    # two sentences of one line both state an outcome for NVFP4: the line is reported once
    assert _sg106("# T\n\nNVFP4 was not tried.\n\nNVFP4 is 2x faster. NVFP4 also saves 3 ms.\n") == [
        (5, "'NVFP4' is declared not measured (line 3) but line 5 states an outcome for it: 'NVFP4 is 2x faster.'")]


def test_a_configuration_of_two_letters_is_a_configuration():
    assert _sg106("# T\n\nEP was not tried.\n\nEP is 2x faster on B200.\n") == [
        (5, "'EP' is declared not measured (line 3) but line 5 states an outcome for it: 'EP is 2x faster on B200.'")]


def test_a_long_sentence_is_quoted_from_the_clause_of_its_outcome_with_the_hint():
    text = ("# T\n\nNVFP4 was not tried.\n\nOn the second cluster with the new drivers and the patched kernels of last week, "
            "NVFP4 is 2x faster than FP8, over 200 runs.\n")
    (finding,) = [f for f in lint_text(text, "x.md") if f.code == "SG106"]
    # the clause starts after the last ", " before "2x" (not the one before "over")
    assert finding.message == ("'NVFP4' is declared not measured (line 3) but line 5 states an outcome for it: "
                               "'…NVFP4 is 2x faster than FP8, over 200 runs.'")
    assert finding.hint == ("word it as an expectation with its reason (for example 'not measured; expected to …, because …'), "
                            "or measure it and remove it from the not-measured list")


def test_a_long_sentence_without_clause_marks_is_clipped_to_one_hundred_characters():
    text = ("The second cluster with the new drivers and the patched kernels of last week runs NVFP4 "
            "about twice as fast as FP8 over runs")
    assert len(text) == 124
    quoted = _outcome_quote(text, text.index("fast"))
    assert quoted == text[:99] + "…" and len(quoted) == 100


def test_every_heading_that_declares_a_list_also_states_conditions_under_it():
    # the headings a not-measured list may stand under ("Unmeasured", "Not benchmarked" ...) are read alike:
    # what their sections say of a declared configuration is no measured result
    declared = "# T\n\nINT4 was not tried.\n\n## {}\n\nINT4 is 2x faster on B200 in the vendor sheet.\n"
    for heading in ("Not measured", "Unmeasured", "Not benchmarked", "Not run", "Not yet tried", "Untested", "Not covered"):
        assert _sg106(declared.format(heading)) == [], heading
    assert _sg106(declared.format("Results")) == [
        (7, "'INT4' is declared not measured (line 3) but line 7 states an outcome for it: "
            "'INT4 is 2x faster on B200 in the vendor sheet.'")]


def test_an_unmeasured_cell_is_the_only_declaration_word_a_document_needs():
    table = "# T\n\n| engine | p50 ms |\n|---|---|\n| fp16 | 7.5 |\n| sparse int8 | unmeasured |\n\n"
    assert _sg106(table + "Sparse INT8 is 30% slower on the L40S.\n") == [
        (8, "'sparse int8' is declared not measured (line 6) but line 8 states an outcome for it: "
            "'Sparse INT8 is 30% slower on the L40S.'")]


def test_a_table_row_of_a_declared_configuration_lists_each_of_its_figures():
    text = ("# T\n\nSparse INT8 was not tried.\n\n| engine | p50 ms | p99 ms |\n|---|---|---|\n| fp16 | 7.5 | 8.1 |\n"
            "| sparse int8 | 9.5 | 9.9 |\n| int8 | 6.5 | 7.0 |\n")
    assert _sg106(text) == [
        (8, "'Sparse INT8' is declared not measured (line 3) but row 'sparse int8' (line 8) gives it figures: "
            "'p50 ms' 9.5, 'p99 ms' 9.9")]


_DECLARATION_PIECES = st.sampled_from(["FP8", "the int8 engine", " ", "\n", ", ", ".", "was", "were", "has", "is",
                                       "not", "never", "NOT", "been", "yet", "measured", "tried", "run", "(", ")",
                                       "un", "tested", "benchmarked", "\t", "x"])


@given(pieces=st.lists(_DECLARATION_PIECES, max_size=14), separator=st.sampled_from(["", " "]))
def test_a_text_without_a_declaration_core_has_no_declaration_of_that_form(pieces, separator):
    # _declarations scans a block with the costly subject and parenthesis patterns only where their core is
    text = separator.join(pieces)
    for full, core in ((sg106._DECLARED_SUBJECT_RE, sg106._DECLARED_SUBJECT_CORE_RE),
                       (sg106._DECLARED_PAREN_RE, sg106._DECLARED_PAREN_CORE_RE)):
        assert core.search(text) or not full.search(text), (full.pattern, text)


def test_each_declaration_form_is_found_with_its_core():
    assert _sg106("# T\n\nFP8 has not yet been measured.\n\nFP8 is 2x faster.\n") == [
        (5, "'FP8' is declared not measured (line 3) but line 5 states an outcome for it: 'FP8 is 2x faster.'")]
    assert _sg106("# T\n\nNVFP4 (untried) is left for later work.\n\nNVFP4 is 2x faster.\n") == [
        (5, "'NVFP4' is declared not measured (line 3) but line 5 states an outcome for it: 'NVFP4 is 2x faster.'")]


def test_a_not_measured_clause_without_its_own_subject_declares_nothing():
    """A sentence declares a configuration not measured only where the
    clause has a subject of its own: the core words alone ("was not
    measured" after a comma or bracket) are not enough. Kills _declares
    mutant 5 (the core search alone taken as a declaration)."""
    from studygen.lint.sg106_unmeasured import _declares

    assert _declares("INT4 was not measured on H200.")
    assert _declares("INT4 (not measured) is listed for later.")
    assert not _declares("NVFP4 is 2x faster on B200, was not measured on H200.")
    assert not _declares("NVFP4 is 2x faster; was not measured.")
