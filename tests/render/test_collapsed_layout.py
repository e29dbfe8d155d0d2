"""A chart whose labels and legend leave its plot no room (a trial: render printed matplotlib's
"studygen/render/drawing.py:51: UserWarning: constrained_layout not applied because axes sizes collapsed
to zero..."). The trial's kernel-time chart had one bar, labelled with its job, a long variant label and
the shape, and five kernel groups, one named "normalization and elementwise": a one-bar chart is 4 in wide,
which holds the rotated bar label or the legend but not both. The drawing stays as it was (every committed
chart's stamp digests the drawing code); the warning becomes one line of studygen's own from render."""

from __future__ import annotations

import warnings

from studygen.render.charts import LAYOUT_COLLAPSED_NOTE, Chart, kernel_chart
from studygen.render.drawing import draw_kernel_times

from ..checks.studies import kernel_time, record
from .test_generic_issue22 import generic

GROUPS = {"Conv": 0.3, "GEMM/MatMul": 0.012, "Quantize/Dequantize": 0.012, "normalization and elementwise": 0.015,
          "other": 0.013}
LONG_LABEL = "rtx2000-int8-A\nint8 (entropy calibration) 224 x 224 engine"


def _drawn(chart: Chart) -> tuple[bytes, list]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svg = chart.drawing()
    return svg, [str(w.message) for w in caught]


def test_a_collapsed_layout_is_a_note_on_the_chart_and_the_drawing_is_unchanged(tmp_path):
    bars = [(LONG_LABEL, GROUPS)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plain = draw_kernel_times(bars, list(GROUPS))
    assert [str(w.message)[:48] for w in caught] == ["constrained_layout not applied because axes size"]
    chart = Chart("kernel_time", tmp_path / "kernel_time.svg", "alt", draw=lambda: draw_kernel_times(bars, list(GROUPS)))
    svg, escaped = _drawn(chart)
    assert escaped == [] and chart.notes == [LAYOUT_COLLAPSED_NOTE]
    assert svg == plain
    # a short bar label leaves the legend room: no note
    fits = Chart("kernel_time", tmp_path / "k.svg", "alt", draw=lambda: draw_kernel_times([("job-a", GROUPS)], list(GROUPS)))
    assert _drawn(fits)[1] == [] and fits.notes == []


def test_another_warning_of_the_drawing_still_reaches_the_user(tmp_path):
    def draw() -> bytes:
        warnings.warn("a warning of some other kind", UserWarning)
        return b"<svg/>"
    chart = Chart("latency", tmp_path / "latency.svg", "alt", draw=draw)
    assert _drawn(chart) == (b"<svg/>", ["a warning of some other kind"]) and chart.notes == []


def test_render_says_it_once_in_its_own_words(tmp_path, run_cli):
    variants = [{"name": "int8", "precision": "int8", "label": "int8 (entropy calibration)"}]
    study = generic(tmp_path, [record("rtx2000-int8-A", [kernel_time("int8", GROUPS, "224x224")])], variants=variants)
    assert kernel_chart(study).draw.args[0][0][0] == LONG_LABEL
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        done = run_cli("render", "--root", tmp_path)
    assert done.exit_code == 0, done.err
    assert caught == []
    assert done.err == f"studygen: families/toy/figures/kernel_time.svg: {LAYOUT_COLLAPSED_NOTE}\n"
    assert "wrote families/toy/figures/kernel_time.svg" in done.out
    again = run_cli("render", "--root", tmp_path)  # current: not drawn, nothing to say
    assert (again.out, again.err) == ("", "up to date\n")
