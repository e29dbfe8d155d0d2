"""How findings word what they found: the widened range of SG101's hint, the names of rows."""

from __future__ import annotations

from studygen.lint import lint_text

ACCURACY = """# Detector accuracy

| Variant | AP50 |
|---|---|
| fp32 | 0.8971 |
| fp16 | 0.8966 |
| int8 | 0.8285 |

The variants score {range}.
"""


def _sg101(text: str):
    return [f for f in lint_text(text, "x.md") if f.code == "SG101"]


def test_the_widened_range_of_an_ap_column_names_its_metric_once_before_both_ends():
    # fails before: "widen the range to 0.8285 to AP50 0.8971" (the metric's name between the two ends)
    for written in ("0.8900 to 0.8971 AP50", "AP50 0.8900 to 0.8971"):
        (finding,) = _sg101(ACCURACY.format(range=written))
        assert "leaves out row 'int8' (AP50 0.8285)" in finding.message
        assert finding.hint.startswith("widen the range to AP50 0.8285 to 0.8971 to cover every row")


def test_the_widened_range_of_other_units_keeps_the_unit_after_the_high_end():
    text = ACCURACY.replace("AP50 |", "Latency (ms) |").format(range="0.8900 to 0.8971 ms")
    (finding,) = _sg101(text)
    assert finding.hint.startswith("widen the range to 0.8285 to 0.8971 ms to cover every row")


DEVICES = """# Decode latency per device

| GPU | Decode (ms) |
|---|---|
| NVIDIA GeForce RTX 4060 Laptop GPU | 14.62 |
| NVIDIA RTX 6000 Ada Generation | 6.115 |
| Jetson AGX Orin Developer Kit 64GB | 31.08 |

Decoding takes {range}.
"""


def test_rows_are_named_by_long_device_names_under_a_label_header():
    # fails before: "leaves out row 'line 6' (6.115 ms)": one GPU name of six words (five spaces) made the
    # column read as notes, so the table had no label column and its rows were named by their lines
    (finding,) = _sg101(DEVICES.format(range="14.62 to 31.08 ms"))
    assert "leaves out row 'NVIDIA RTX 6000 Ada Generation' (6.115 ms)" in finding.message
    # a clause naming the device by its label restricts the range to its row
    assert _sg101(DEVICES.format(range="6.0 to 6.2 ms on the RTX 6000 Ada Generation")) == []


def test_long_cells_under_a_notes_header_stay_notes():
    # "Notes" heads no label column: its rows are still named by their lines
    notes = DEVICES.replace("| GPU |", "| Notes |")
    (finding,) = _sg101(notes.format(range="14.62 to 31.08 ms"))
    assert "leaves out row 'line 6' (6.115 ms)" in finding.message


def test_long_descriptions_under_a_kernel_header_are_no_labels_but_long_device_names_are():
    # a table of kernels described in six words or more: read as labels, their common words ("every", "other",
    # "of") made clauses all over the document name rows, and the universal-comparison reading walked every table
    # for each (lint of the shipped H200 README 26 -> 34 ms, the same findings); a GPU's full name stays a label
    from studygen.lint.parse import parse_document

    kernels = ("| Kernel | Time (ms) |\n| --- | --- |\n| pointwise kernel 2 of 8 fused addmm | 1.28 |\n"
               "| every other kernel of the group | 0.01 |\n")
    devices = ("| GPU | Time (ms) |\n| --- | --- |\n| NVIDIA GeForce RTX 4060 Laptop GPU | 1.28 |\n"
               "| NVIDIA H100 80GB HBM3 | 0.51 |\n")
    (kernel_table,) = parse_document(kernels, "k.md").tables
    (device_table,) = parse_document(devices, "d.md").tables
    assert (kernel_table.label_columns, device_table.label_columns) == ([], [0])
