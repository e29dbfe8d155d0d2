"""COCOeval's -1 ("no ground truth in this area range") is a marker, not an
AP: it never enters a figure, a range, a spread or a difference, and the
README says the statistic is undefined. Before, a table cell read
``0.5 (1 jobs: -1.0 to 1.0)``: the marker as the low end, and "1 jobs".

Toy records: job a has AP 0.5, APs -1 (no small objects), APl 1.0; job b
AP 0.48 and APs -1; job c (variant fp8) AP 0.52 and APs 0.3.
"""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.view import StudyView

from ..checks.studies import coco_ap, load, record
from .views import printed

WHY = "undefined: no ground truth in its area range (COCOeval's -1)"


@pytest.fixture
def view(tmp_path) -> StudyView:
    a = record("a", [coco_ap("fp16", 0.5), coco_ap("fp16", -1, statistic="APs"),
                     coco_ap("fp16", 1.0, statistic="APl")])
    b = record("b", [coco_ap("fp16", 0.48), coco_ap("fp16", -1.0, statistic="APs")])
    c = record("c", [coco_ap("fp8", 0.52), coco_ap("fp8", 0.3, statistic="APs")])
    return StudyView(load(tmp_path, records=[a, b, c]))


def cells(markdown: str) -> list[list[str]]:
    lines = markdown.splitlines()
    return [[c.strip() for c in line.strip()[1:-1].split("|")] for line in lines[:1] + lines[2:]]


def test_the_marker_is_a_row_without_a_figure(view):
    (small_a, small_b) = view.figures(kind="coco_ap", statistic="APs", variant="fp16")
    assert small_a.value is None and small_b.value is None and small_a.low is None
    assert small_a._row.undefined == WHY and small_a.pointer == "/results/1/value"
    (ap_a, _) = view.figures(kind="coco_ap", statistic="AP", variant="fp16")
    assert ap_a.value == 0.5 and ap_a._row.undefined is None


def test_a_cell_over_statistics_is_refused(view):
    # job a's AP 0.5, APs -1 and APl 1.0 in one cell read "0.5 (1 job: 0.5 to 1.0; 1 undefined)": three
    # statistics as if one figure's spread
    with pytest.raises(TemplateError, match=r"the cell of row Image set val-8 and column fp16 would hold figures of "
                                            r"different statistic \(AP, APs, APl\)"):
        view.table(index=("dataset",), variants=("fp16",), kind="coco_ap", jobs=["a"])


def test_a_cell_of_one_statistic_leaves_the_marker_out_and_counts_it(tmp_path):
    # APs: -1 in job a (no small objects there), 0.25 and 0.3 in jobs b and c: the range is over b and c
    records = [record(job, [coco_ap("fp16", value, statistic="APs")]) for job, value in
               (("a", -1), ("b", 0.25), ("c", 0.3))]
    view = StudyView(load(tmp_path, records=records))
    text = view.table(index=("dataset",), variants=("fp16",), kind="coco_ap")
    assert cells(text) == [["Image set", "fp16"], ["val-8", "0.25 to 0.3 (2 jobs: b, c; 1 undefined)"]]


def test_a_cell_over_two_jobs_says_jobs(view):
    text = view.table(index=("dataset",), variants=("fp16",), kind="coco_ap", statistic="AP")
    assert cells(text) == [["Image set", "fp16"], ["val-8", "0.48 to 0.5 (2 jobs: a, b)"]]


def test_a_statistic_undefined_in_every_job_reads_undefined(view):
    text = view.table(index=("statistic",), variants=("fp16",), kind="coco_ap")
    assert cells(text) == [["statistic", "fp16"], ["AP", "0.48 to 0.5 (2 jobs: a, b)"], ["APs", WHY],
                           ["APl", "1.0"]]


def test_a_row_a_spread_and_a_range_never_print_the_marker(view):
    small = view.figures(kind="coco_ap", statistic="APs", variant="fp16")
    assert [str(row) for row in small] == [WHY, WHY]
    assert view.with_spread(small[0]) == WHY  # the other job's -1 is no spread either
    assert view.span(small) == WHY
    assert view.span(view.figures(kind="coco_ap", variant="fp16", job_id="a")) == "0.5 to 1.0 (1 undefined) (in job a only)"


def test_a_difference_with_an_undefined_ap_is_undefined(view):
    ap_c = view.one(kind="coco_ap", variant="fp8", statistic="AP")
    small_a = view.figures(kind="coco_ap", statistic="APs", variant="fp16")[0]
    text, recorded = printed(view.delta_points, small_a, ap_c)
    assert text == WHY and recorded[-1].kind == "ratio"
    assert view.ratio(ap_c, small_a) == WHY and view.reduction_percent(small_a, ap_c) == WHY
    assert view.ap_difference("fp16", "fp8", statistic="APs", job_id=["a", "c"]) == f"FP8 minus fp16: undefined (fp16 {WHY}, FP8 0.3)"
    # a defined pair still gives its points: 0.52 - 0.5 = +2.00
    assert view.ap_difference("fp16", "fp8", job_id=["a", "c"]).startswith("FP8 minus fp16: +2.00 points")


@pytest.mark.parametrize(("fp16", "fp8", "expected"), [
    # job a's fp16 is the marker, job b's 0.2; FP8 only in job a: no same-job pair, so the one pair of
    # figures is job b's fp16 0.2 with job a's FP8 0.3, +10.00 points (as for two jobs without the marker)
    ({"a": -1, "b": 0.2}, {"a": 0.3}, "+10.00"),
    # fp16 has no figure at all: nothing to subtract from, the cell says why
    ({"a": -1}, {"a": 0.3, "b": 0.2}, WHY),
])
def test_a_derived_cell_next_to_the_marker_pairs_only_figures(tmp_path, fp16, fp8, expected):
    # before: TypeError (the marker's None in the difference), then ValueError (min() of no pairs)
    jobs = sorted({*fp16, *fp8})
    records = [record(job, [coco_ap(variant, figures[job]) for variant, figures in (("fp16", fp16), ("fp8", fp8))
                            if job in figures]) for job in jobs]
    view = StudyView(load(tmp_path, records=records))
    text = view.table(index=("dataset",), variants=("fp16", "fp8"), kind="coco_ap", statistic="AP",
                      derived=[("delta_points", "fp16", "fp8", "FP8 - fp16 (points)")])
    assert cells(text)[1][-1] == expected
