"""Row labels marked as cumulative steps ("+ Paged attention", the rows of
an ablation that each add to the one above) are named in prose without the
mark (studygen.lint.row_axis): "Tiled attention is 9% faster than paged
attention" named no two rows of such a table and was not read. Figures of
our own, worked by hand: 3.90 ms and 3.77 ms give 3.90 / 3.77 = 1.0345,
3.4% faster (3.3% less time); 9% is neither. A "+" inside a label
("fp16+int8") is part of its name."""

from __future__ import annotations

from studygen.lint import lint_text

_TABLE = """# Kernels

| Variant | Latency | Speedup |
| ------- | ------- | ------- |
| Baseline | 4.80ms | 1.00x |
| + Fused norm | 4.52ms | 1.06x |
| + Paged attention | 3.90ms | 1.23x |
| + Tiled attention | 3.77ms | 1.27x |

"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_a_step_marked_row_is_named_without_its_mark():
    assert _sg103(_TABLE + "Tiled attention is 9% faster than paged attention.\n") == [(
        10, "9% between row '+ Tiled attention' and row '+ Paged attention' does not follow from 'Latency' of the "
            "table at line 3: (3.77 - 3.90) / 3.77 = -3.4% (-3.7% to -3.2% within the printed digits) or "
            "(3.90 - 3.77) / 3.90 = 3.3% (3.1% to 3.6% within the printed digits)")]


def test_a_true_change_between_step_marked_rows_is_clean():
    assert _sg103(_TABLE + "Tiled attention is 3.4% faster than paged attention.\n") == []


def test_a_plus_inside_a_label_stays_part_of_its_name():
    table = """# Plans

| Variant | Latency |
| ------- | ------- |
| fp16 | 4.00ms |
| fp16+int8 | 3.00ms |
| int8 | 2.50ms |

"""
    # "int8" alone is the third row: the clause names fp16+int8 and int8, 3.00 / 2.50 = 1.20
    assert _sg103(table + "int8 is 50% faster than fp16+int8.\n") != []
    assert _sg103(table + "int8 is 20% faster than fp16+int8.\n") == []
