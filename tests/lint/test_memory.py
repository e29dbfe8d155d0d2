"""Lint's memory as a budget per table cell (issue 16, item 7: lint of a
30 MB table under 1 GB), and the model pieces that keep it there."""

from __future__ import annotations

import gc
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from studygen.lint import lint_text
from studygen.lint.document import SourceLines
from studygen.lint.parse import SHARED_CELLS_LIMIT, _shared_cells, parse_document

# Bytes of traced peak per table cell that one more row of a typical study
# table (repeated GPU and shape labels, distinct figures, a ratio column)
# may add to a lint run. Measured 117 B/cell (Python 3.11); before the cells
# were shared and the source lines kept as offsets it was 228 B/cell, and a
# model that kept markdown-it's own table tokens (three per cell) would add
# over 1 KB a cell.
PEAK_BYTES_PER_CELL = 160
_ROWS = 3000
_COLUMNS = 5
_ROOT = Path(__file__).resolve().parents[2]


def _study_table(rows: int, seed: int) -> str:
    rng = random.Random(seed)
    lines = ["# Latency", "", "| GPU | shape | fp16 ms | FP8 ms | speedup |", "|---|---|---:|---:|---:|"]
    gpus = ("B200", "H200", "H100", "L40S")
    shapes = ("800 x 800", "800 x 1067", "1024 x 1024")
    for index in range(rows):
        fp16 = rng.uniform(2, 40)
        fp8 = fp16 * rng.uniform(0.5, 1.1)
        lines.append(f"| {gpus[index % 4]} | {shapes[index // 4 % 3]} | {fp16:.3f} | {fp8:.3f} | {fp16 / fp8:.2f}x |")
    return "\n".join(lines) + "\n"


def _traced_peak(text: str) -> int:
    """Traced peak (bytes) of one lint run above what was live before it."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    lint_text(text, "table.md")
    peak = tracemalloc.get_traced_memory()[1] - before
    gc.collect()  # the model's cycles (row <-> table) go now, not in the next run
    return peak


def peak_bytes_per_cell() -> float:
    """The traced peak of linting 2N rows minus that of N rows, per cell of
    the N rows added: what a row costs, free of fixed costs (imports, caches
    filled by a run before tracing starts)."""
    lint_text(_study_table(2 * _ROWS, seed=1), "warm.md")  # fills the per-cell caches to their bound
    tracemalloc.start()
    try:
        small = _traced_peak(_study_table(_ROWS, seed=2))
        large = _traced_peak(_study_table(2 * _ROWS, seed=3))
    finally:
        tracemalloc.stop()
    assert large > small  # the measurement measured something
    return (large - small) / (_ROWS * _COLUMNS)


# mutmut (benchmarks/mutation.py) routes every call through a trampoline that
# allocates: the peak then measures the tool, not lint.
@pytest.mark.skipif("MUTANT_UNDER_TEST" in os.environ, reason="calls run through mutmut's trampolines")
def test_lint_peak_per_table_cell_within_budget():
    """:func:`peak_bytes_per_cell` in a fresh interpreter: what earlier tests
    left (cache contents, the collector's counts) moves an in-process peak
    by tens of bytes a cell."""
    code = "from tests.lint.test_memory import peak_bytes_per_cell; print(peak_bytes_per_cell())"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], cwd=_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    per_cell = float(done.stdout.strip().splitlines()[-1])
    assert per_cell <= PEAK_BYTES_PER_CELL, f"{per_cell:.0f} B per cell over the {PEAK_BYTES_PER_CELL} B budget"


def test_equal_cells_of_a_table_are_one_object():
    document = parse_document("| GPU | ms |\n|---|---|\n| B200 | 1.5 |\n| B200 | 1.5 |\n| H200 | 2 |\n", "t.md")
    first, second, third = document.tables[0].rows
    assert first.cells == second.cells == ["B200", "1.5"]
    assert first.cells[0] is second.cells[0] and first.cells[1] is second.cells[1]
    assert third.cells == ["H200", "2"]
    assert [row.line for row in document.tables[0].rows] == [3, 4, 5]


def test_shared_cells_trims_pads_and_stops_adding_at_its_limit():
    shared: dict[str, str] = {}
    assert _shared_cells([" a ", "\tb", "c", "extra"], 3, shared) == ["a", "b", "c"]
    assert _shared_cells(["a"], 3, shared) == ["a", "", ""]
    assert set(shared) == {"a", "b", "c"}
    full = {str(i): str(i) for i in range(SHARED_CELLS_LIMIT)}
    held, same_text = full["1234"], str(1234)
    assert same_text is not held
    cells = _shared_cells(["new", same_text], 2, full)
    assert cells == ["new", "1234"] and cells[1] is held
    assert "new" not in full and len(full) == SHARED_CELLS_LIMIT


def test_source_lines_read_as_the_split_list():
    for text in ("", "a", "a\n", "\n\n", "one\ntwo\n\nfour", "é\n∑x\n"):
        lines = SourceLines(text)
        split = text.split("\n")
        assert len(lines) == len(split)
        assert [lines[i] for i in range(len(split))] == split
        assert lines[-1] == split[-1] and lines[:-1] == split[:-1] and list(lines) == split
        assert list(lines.starts) == [sum(len(line) + 1 for line in split[:i]) for i in range(len(split))]
    lines = SourceLines("a\nb")
    for index in (2, -3):
        try:
            lines[index]
        except IndexError:
            continue
        raise AssertionError(f"index {index} read a line")


def test_line_of_offset_from_the_line_starts():
    document = parse_document("# T\n\nfirst line\nsecond\n", "t.md")
    text = document.text
    assert [document.line_of_offset(text.index(word)) for word in ("T", "first", "second")] == [1, 3, 4]
    assert document.line_of_offset(len(text)) == 5


def test_label_rows_grouped_by_text_keep_order_rows_and_parts():
    """Label values and label parts, read once per distinct text: values in
    the order of their first row, the rows of texts that normalise alike
    merged in row order, an empty cell skipped (not an end), numeric labels
    ("11.4") told apart (values as read cell by cell before the grouping)."""
    text = ("| GPU | TensorRT | ms |\n|---|---|---|\n| B200 | 11.4 | 1.5 |\n|  | 11.1 | 1.6 |\n"
            "| b200 | 11.4 | 1.7 |\n| **B200** | 11.1 | 1.8 |\n| H200 | 11.4 | 1.9 |\n")
    table = parse_document(text, "t.md").tables[0]
    assert table.label_columns == [0, 1]
    assert table.label_values == {0: {"b200": [0, 2, 3], "h200": [4]}, 1: {"11.4": [0, 2, 4], "11.1": [1, 3]}}
    assert list(table.label_values[0]) == ["b200", "h200"]
    assert table.numeric_labels == {1: "tensorrt"}
    text = ("| job | ms |\n|---|---|\n| deepep_decode | 1 |\n| none_prefill | 2 |\n|  | 3 |\n"
            "| DeepEP_decode | 4 |\n| none_decode | 5 |\n")
    table = parse_document(text, "t.md").tables[0]
    assert table.label_values == {0: {"deepepdecode": [0, 3], "noneprefill": [1], "nonedecode": [4]}}
    assert table.label_parts == {0: {"deepep": {0, 3}, "decode": {0, 3, 4}, "none": {1, 4}, "prefill": {1}}}
    assert list(table.label_parts[0]) == ["deepep", "decode", "none", "prefill"]
    assert table.all_rows == [0, 1, 2, 3, 4] and all(a is row.index for a, row in zip(table.all_rows, table.rows))
    # stop words ("the") and unit words ("ms") tell no rows apart
    text = "| run | ms |\n|---|---|\n| the_decode_ms | 1 |\n| the_prefill | 2 |\n| a_decode_ms | 3 |\n"
    assert parse_document(text, "t.md").tables[0].label_parts == {0: {"decode": {0, 2}, "prefill": {1}}}


def test_header_cells_resolve_reference_links():
    table = parse_document("[r]: https://e.org\n\n| [fp16][r] ms | b |\n|---|---|\n| 1 | 2 |\n", "t.md").tables[0]
    assert table.headers == ["fp16 ms", "b"]


def test_autocompleted_cell_limit_ends_the_body_where_the_library_ends_it():
    """Short rows pad with empty cells; past MAX_AUTOCOMPLETED_CELLS (65536)
    padded cells the table ends, as markdown-it-py's own rule ends it (rows
    with and without their closing pipe count alike; the library's parse of
    this text gives 65 body rows too, too slow to rerun here)."""
    width = 1000
    header = "|" + "|".join(f"c{i}" for i in range(width)) + "|\n|" + "---|" * width + "\n"
    body = "".join("| x |\n" if i % 2 else "| y\n" for i in range(80))
    text = header + body
    rows = parse_document(text, "t.md").tables[0].rows
    assert len(rows) == 65  # 65 x 999 padded cells fit in 65536, 66 do not
    # 256 rows of 256 padded cells are 65536, the limit itself (the library keeps
    # them too); had the closing pipe counted as a cell, 257 rows of 255 would fit
    width = 257
    header = "|" + "|".join(f"c{i}" for i in range(width)) + "|\n|" + "---|" * width + "\n"
    assert len(parse_document(header + "| x |\n" * 300, "t.md").tables[0].rows) == 256
    assert rows[0].cells[:2] == ["y", ""] and rows[1].cells[:2] == ["x", ""]
