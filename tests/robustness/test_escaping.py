"""Record strings placed in README tables are escaped: a pipe, a newline,
HTML or a backtick in a note, a dataset's selection rule, a GPU name or a
version string cannot add a cell, end a row, inject HTML or open a code span."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from tests.robustness.mdtables import tables
from tests.robustness.tiny import make_tiny_project, run_record

NASTY = "a | b <script>alert(1)</script> `rm -rf` \\ end\nsecond line"
NASTY_SHOWN = "a | b <script>alert(1)</script> `rm -rf` \\ end second line"  # newline folded to a space
GPU = "NVIDIA H100 | <i>SXM</i> `x`\r\n80GB"
GPU_SHOWN = "H100 | <i>SXM</i> `x` 80GB"  # the NVIDIA prefix is dropped in tables
TENSORRT = "10.8|`x`"


@pytest.fixture
def readme(tmp_path, run_cli) -> str:
    record = run_record(note=NASTY)
    record["provenance"]["gpu"] = GPU
    record["provenance"]["software"]["tensorrt"] = TENSORRT
    root = make_tiny_project(tmp_path / "project", records=[record], selection=NASTY)
    result = run_cli("render", "--root", root)
    assert result.exit_code == 0, result.err
    return (root / "families" / "tiny" / "README.md").read_text(encoding="utf-8")


def _by_heading(readme: str) -> dict[str, list]:
    found: dict[str, list] = {}
    for table in tables(readme):
        found.setdefault(table.heading, []).append(table)
    return found


def test_every_table_row_has_its_header_cell_count(readme):
    found = tables(readme)
    assert [t.heading for t in found] == ["Latency", "Latency", "Image sets", "Provenance"]
    for table in found:
        width = len(table.headers)
        assert table.source_cell_counts == [width] * (1 + len(table.rows)), (table.heading, table.source_cell_counts)
        assert all(len(row) == width for row in table.rows)


def test_note_in_list_table_reads_back_verbatim(readme):
    (_, notes) = _by_heading(readme)["Latency"]
    assert notes.headers == ["Job", "Variant", "note", "Latency (ms)"]
    cells = notes.column("note")
    assert [c.text for c in cells] == [NASTY_SHOWN, NASTY_SHOWN]
    assert all(c.token_types == {"text"} for c in cells)  # no HTML, no code span
    assert [c.text for c in notes.column("Latency (ms)")] == ["2.5", "2.75"]


def test_dataset_selection_reads_back_verbatim(readme):
    (datasets,) = _by_heading(readme)["Image sets"]
    (row,) = datasets.rows
    selection = datasets.column("Selection")[0]
    assert selection.text == NASTY_SHOWN and selection.token_types == {"text"}
    assert [c.text for c in row] == ["tiny-val-8", "evaluation", "8", "example images", NASTY_SHOWN, "not published"]


def test_gpu_and_version_in_index_columns_read_back_verbatim(readme):
    (grid, _) = _by_heading(readme)["Latency"]
    assert grid.headers == ["GPU", "TensorRT", "Shape HxW", "fp16", "FP8", "fp16 / FP8"]
    (row,) = grid.rows
    assert [c.text for c in row] == [GPU_SHOWN, TENSORRT, "640 x 640", "2.5", "2.75", "0.91x"]
    assert all(c.token_types == {"text"} for c in row)
    (provenance,) = _by_heading(readme)["Provenance"]
    assert provenance.column("GPU")[0].text == GPU_SHOWN
    assert provenance.column("Software")[0].text == f"cuda 12.8, tensorrt {TENSORRT}"


def test_no_html_reaches_the_rendered_page(readme):
    html = MarkdownIt("commonmark").enable("table").render(readme)
    assert "<script>" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_dollar_signs_in_a_gpu_name_render(tmp_path, run_cli):
    record = run_record()
    record["provenance"]["gpu"] = "NVIDIA $\\frac{x$ H100"
    root = make_tiny_project(tmp_path / "project", records=[record])
    result = run_cli("render", "--root", root)
    assert result.exit_code == 0, result.err
