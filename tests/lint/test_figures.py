"""Prose figures, units and ranges (studygen.lint.figures)."""

from __future__ import annotations

import pytest

from studygen.lint.figures import figures_of, find_ranges, statistics_in, tokenize
from studygen.lint.rounding import covers, printed_interval


def _ranges(text):
    return [(r.lo.text, r.hi.text, r.unit, r.kind, r.difference) for r in find_ranges(text, tokenize(text))]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("GEMMs take 0.19 to 0.21 ms", [("0.19", "0.21", "ms", "range", False)]),
        ("FP8 is 1.15x-1.2x faster", [("1.15", "1.2", "x", "range", True)]),
        ("the plan is 8% to 9% smaller", [("8", "9", "%", "range", True)]),
        ("GridSample takes between 2.1 and 9.7 ms", [("2.1", "9.7", "ms", "range", False)]),
        ("FP8 saves 0.04 to 0.11 ms of GEMM time", [("0.04", "0.11", "ms", "range", True)]),
        ("AP drops from 0.4644 to 0.4625", [("0.4644", "0.4625", "AP", "change", False)]),
        ("the ratio goes from 0.97 to 1.01", [("0.97", "1.01", None, "change", False)]),
        ("latency ranges from 5.8 to 14.8 ms", [("5.8", "14.8", "ms", "range", False)]),
        ("8-9% smaller", [("8", "9", "%", "range", True)]),
        ("throughput 410 to 455 images/s", [("410", "455", "images/s", "range", False)]),
        ("plans of 75.8 to 84.9 MiB", [("75.8", "84.9", "MiB", "range", False)]),
        ("decode at 1,200 to 1,350 tokens/s", [("1,200", "1,350", "tokens/s", "range", False)]),
        ("AP 0.4619 to 0.4644", [("0.4619", "0.4644", "AP", "range", False)]),
        ("5 ms to 2 s", []),  # units disagree: not a range
    ],
)
def test_ranges(text, expected):
    assert _ranges(text) == expected


def test_single_figures_with_units():
    figures = figures_of("stays at 1.01x of fp16, 83.0 MiB, 2 GB, 8%, 40 s, 12 us, 0.4644 AP, 5.3 ± 0.2 ms")
    assert [(f.text, f.unit) for f in figures] == [
        ("1.01", "x"), ("83.0", "MiB"), ("2", "GB"), ("8", "%"), ("40", "s"), ("12", "us"), ("0.4644", "AP"), ("5.3", "ms"),
    ]


def test_shapes_versions_and_names_hold_no_figure():
    tokens = tokenize("B200 at 800 x 1067 on TensorRT 11.4.0.106, batch 1x3x800x800, fp16 and H100")
    assert [t.kind for t in tokens] == ["shape", "version", "shape"]


@pytest.mark.parametrize("text, kinds, figures", [
    ("Measured at 640 x 640.", ["shape"], []),  # the sentence's full stop ends the shape, it does not undo it
    ("inputs 1x3x640x640. Then 2 ms", ["shape", "num"], [("2", "ms")]),
    ("at 640x640.5 ms", [], []),  # a decimal after the last side: no shape, and no figure either
    ("a 3 x. speedup", ["num"], [("3", "x")]),
])
def test_a_shape_ends_at_a_full_stop(text, kinds, figures):
    assert [t.kind for t in tokenize(text)] == kinds
    assert [(f.text, f.unit) for f in figures_of(text)] == figures


def test_decimals_and_rounding():
    lo, hi = figures_of("0.19 0.21")
    assert (lo.decimals, hi.decimals) == (2, 2)
    assert covers(lo, hi, 0.185) and covers(lo, hi, 0.2149) and not covers(lo, hi, 0.409)
    assert printed_interval(lo) == (0.185, 0.195)


def test_statistic_words():
    names = [s[0] for s in statistics_in("min / median / mean / p90 / 99th percentile / max")]
    assert names == ["min", "p50", "mean", "p90", "p99", "max"]


def test_every_ap_name_read_before_a_figure_is_a_unit():
    # "mAP50" before a figure stopped lint with a KeyError: the prefix reading named a unit UNITS lacked
    assert [(f.text, f.unit) for f in figures_of("v1 mAP50 0.659, v2 mAP75 reaches 0.52, v3 mAP 0.41")] == [
        ("0.659", "AP50"), ("0.52", "AP75"), ("0.41", "AP")]
    assert [(f.text, f.unit) for f in figures_of("0.66 mAP50")] == [("0.66", "AP50")]
