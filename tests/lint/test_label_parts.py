"""Words of row labels that tell rows apart (studygen.lint.columns
label_parts, read by SG101 and SG106 to restrict a clause to rows): which
words of a label column count, worked out by hand from each table below."""

from __future__ import annotations

from studygen.lint.parse import parse_document


def _parts(rows: list[str], headers: str = "| Model | Latency ms | Memory GB |") -> dict[str, set[int]]:
    """label_parts of the first column of a table with ``rows`` as labels."""
    lines = [headers, "| --- | ---: | ---: |"]
    lines += [f"| {label} | {10 + i}.5 | {2 + i}.0 |" for i, label in enumerate(rows)]
    table = parse_document("# T\n\n" + "\n".join(lines) + "\n", "t.md").tables[0]
    return table.label_parts.get(0, {})


def test_shape_labels_keep_their_multiplication_sign_as_one_word():
    # "224×224" reads as the word 224x224; "resnet" is in every label and tells no row apart
    assert _parts(["resnet 224×224", "resnet 512×512"]) == {"224x224": {0}, "512x512": {1}}


def test_a_full_stop_ends_a_word_and_is_not_part_of_it():
    parts = _parts(["gpt-j v1.", "gpt-j v2."])
    assert parts["v1"] == {0} and parts["v2"] == {1} and "v1." not in parts


def test_stop_words_and_single_letters_tell_no_row_apart_and_the_words_after_them_still_count():
    parts = _parts(["the decode step with cache", "the prefill step", "model b"])
    assert parts["decode"] == {0} and parts["prefill"] == {1}
    assert not {"the", "with", "b"} & parts.keys()


def test_a_word_that_is_a_whole_label_is_no_part_of_the_others():
    parts = _parts(["decode", "decode_long", "prefill_long"])
    assert "decode" not in parts and parts["prefill"] == {2} and parts["long"] == {1, 2}


def test_words_the_tables_headers_hold_name_no_row():
    # "tile" and "size" head the columns: the note in one label is about what the columns hold (case
    # sg101_pos_header_words_in_labels); "attention" is the label's own word (whole labels are values, no parts)
    parts = _parts(["gemm", "attention (tile size=128)", "softmax"], "| Kernel | Old tile size KB | New tile size KB |")
    assert parts == {"attention": {1}}


def test_an_empty_label_cell_is_skipped_and_the_labels_after_it_still_count():
    parts = _parts(["decode_long", "-", "prefill_long", "prefill_short"])
    assert parts["decode"] == {0} and parts["prefill"] == {2, 3} and parts["short"] == {3}
