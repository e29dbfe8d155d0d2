"""Ranges the view prints, against figures read by hand from the shipped records.

Each expected text was worked out from the record files named in the comments
(``file pointer = value``), not by running the helper: a range must take its
bottom and top from every selected row (a row that is itself a range counts
with both ends), and print the restriction its filters imply.
"""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.rows import RowSet

from .views import DETR, H200, places, printed, view_of

SUMMARY = "measurements/deformable_detr/trt-cross-job-summary.json"


@pytest.fixture(scope="module")
def detr():
    return view_of(DETR)


@pytest.fixture(scope="module")
def h200():
    return view_of(H200)


def test_a_range_row_counts_with_both_ends(detr):
    # b200-trt11.1.json /results/8/groups/0/time_ms = 0.409 (a row);
    # trt-cross-job-summary.json /results/4/groups/0/time_ms_range = [0.19, 0.21] (rows not listed)
    text, (entry,) = printed(detr.span, detr.figures(metric="kernel_time", group="GEMM/MatMul", variant="fp16"))
    assert text == "0.19 to 0.409 ms"
    assert entry.kind == "range" and entry.text == text
    assert places(entry.rows) == [("b200-trt11.1", "/results/8/groups/0/time_ms"),
                                  ("trt-cross-job-summary", "/results/4/groups/0/time_ms_range")]
    # a lone range row: /results/4/profiled_total_ms_range = [7.4, 16.2]; /results/5/.../share_percent_range = [1, 3]
    assert detr.span(detr.figures(metric="kernel_time", group="total")) == "7.4 to 16.2 ms"
    assert detr.span(detr.figures(metric="kernel_share")) == "1 to 3%"


def test_the_top_is_the_highest_top_not_the_highest_bottom(detr):
    # fp16 kernel times: 0.409 (b200-trt11.1), and in the summary GEMM [0.19, 0.21], GridSample [2.1, 9.7]
    # and 9.7 at 800x1067, normalization [4.3, 5.5], total [7.4, 16.2]: the single 9.7 has the highest
    # bottom, the total range the highest top
    assert detr.span(detr.figures(metric="kernel_time", variant="fp16")) == "0.19 to 16.2 ms"


def test_the_bottom_is_the_lowest_bottom_not_the_lowest_top(detr):
    # summary: GridSample [2.1, 9.7] and 9.7, normalization [4.3, 5.5]: normalization has the lowest top,
    # GridSample's range the lowest bottom
    rows = detr.figures(metric="kernel_time", variant="fp16", group=["GridSample", "normalization and elementwise"],
                        job_id="trt-cross-job-summary")
    assert len(rows) == 3
    assert detr.span(rows) == "2.1 to 9.7 ms (in job trt-cross-job-summary only)"


def test_every_row_counts_first_and_last_included(h200):
    # fp16 compiled profiled totals: each row's figure is its median compilation's (h200-compile-800x800.json
    # /results/3/profiled_total_ms = 8.372647, h200-compile-800x1067.json /results/3 = 12.697537), and the range
    # covers each compilation's (/results/3/compilations/*/profiled_total_ms: 8.29936 the lowest, at 800x800;
    # 12.764659 the highest, at 800x1067); the study file prints kernel times with 3 decimals (kernel_ms: 3)
    text, (entry,) = printed(h200.span, h200.figures(metric="kernel_time", group="total", mode="compile", variant="fp16"))
    assert text == "8.299 to 12.765 ms (mode compile only)"
    assert sorted(places(entry.rows)) == [("h200-compile-800x1067", "/results/3/profiled_total_ms"),
                                          ("h200-compile-800x800", "/results/3/profiled_total_ms")]
    # GridSample over the compilations (/results/3/compilations/*/groups/GridSample): 6.356912 (800x800)
    # to 10.416097 (800x1067)
    assert h200.span(h200.figures(metric="kernel_time", group="GridSample", mode="compile", variant="fp16")) == \
        "6.357 to 10.416 ms (mode compile only)"


def test_restriction_names_every_narrowing_filter(detr, h200):
    # fp16 latency on TensorRT 11.4: b200-trt11.4.json /results/0 = 5.889, /results/1 = 14.747;
    # b300-trt11.4.json /results/0 = 5.816, /results/1 = 14.487 (b200-trt11.1's 5.889 and 14.766 left out)
    assert detr.span(detr.figures(kind="latency", variant="fp16", tensorrt="11.4")) == \
        "5.816 to 14.747 ms (on TensorRT 11.4 only)"
    # fp16 eager: h200-eager.json /results/19/value_ms = 39.037216 (800x800), /results/27 = 29.96568 (800x1067)
    assert h200.span(h200.figures(kind="latency", variant="fp16", mode="eager")) == \
        "29.966 to 39.037 ms (mode eager only)"
    # fp16 compiled at 800x800: one row (h200-compile-800x800.json /results/2/value_ms = 8.304952), ranging over
    # its compilations' medians (/results/2/compilations/*/median_ms: 8.220528 to 8.873408)
    assert h200.span(h200.figures(kind="latency", variant="fp16", mode="compile", shape="800x800")) == \
        "8.221 to 8.873 ms (mode compile, at 800 x 800 only)"
    # every latency row: b300-trt11.4 fp8 800x800 = 5.764 is the lowest, b200-trt11.4 fp8 800x1067 = 15.230 the
    # highest (printed with the digits the record carries); kind and variant select, they restrict nothing
    assert detr.span(detr.figures(kind="latency")) == "5.764 to 15.230 ms"
    assert detr.span(detr.figures(kind="latency", gpu="NVIDIA B300", shape=["800x800", "800x1067"])) == \
        "5.764 to 14.861 ms (on B300, at 800 x 800 and 800 x 1067 only)"


def test_restriction_words():
    # versions as the template's filter gives them ("11.1" selects every 11.1 release, and says so)
    assert RowSet([], {"tensorrt": ["11.4.0.106", "11.1"]}).restriction() == "on TensorRT 11.4.0.106 and 11.1 only"
    assert RowSet([], {"gpu": "NVIDIA B200"}).restriction() == "on B200 only"
    assert RowSet([], {"job_id": ["a", "b", "c"]}).restriction() == "in jobs a, b and c only"
    assert RowSet([], {"job_id": ["a"]}).restriction() == "in job a only"
    assert RowSet([], {"mode": "eager", "batch": 1}).restriction() == "mode eager, batch 1 only"
    quantities = {"kind": "latency", "metric": "kernel_time", "statistic": "AP", "group": "GEMM/MatMul",
                  "variant": "fp16", "unit": "ms", "reference_variant": "fp16", "shape": None}
    assert RowSet([], quantities).restriction() == ""


def test_one_value_prints_once_and_unit_can_be_overridden(h200):
    # quantized_modules = 72 in the eager job's record (h200-eager.json /results/0/quantized_modules, unit
    # "modules"); the compile job's worker processes do not record the quantization again
    rows = h200.figures(kind="quantization", variant="fp8")
    assert len(rows) == 1
    assert h200.span(rows, unit="") == "72"
    # h200-compile-800x800.json /results/2: its compilations' medians 8.220528 to 8.873408 (one row, a range)
    assert h200.span(h200.figures(kind="latency", variant="fp16", job_id="h200-compile-800x800", shape="800x800"),
                     unit="s") == "8.221 to 8.873 s (in job h200-compile-800x800, at 800 x 800 only)"
    # one value prints once: the eager job's fp16 at 800x800 (h200-eager.json /results/19/value_ms = 39.037216)
    assert h200.span(h200.figures(kind="latency", variant="fp16", mode="eager", shape="800x800"), unit="s") == \
        "39.037 s (mode eager, at 800 x 800 only)"


def test_a_range_over_no_rows_is_a_template_error(detr):
    with pytest.raises(TemplateError, match=r"range over no rows: \{'kind': 'latency', 'variant': 'nvfp4'\}"):
        detr.span(detr.figures(kind="latency", variant="nvfp4"))
    with pytest.raises(TemplateError, match="range over no values"):
        detr.ratio_span("fp16", "nvfp4", kind="latency")


def test_ratio_span_takes_every_pair(h200, detr):
    # fp16 / fp8 compiled latency per (job, shape): h200-compile-800x800.json 8.304952 / 9.253368 = 0.8975
    # (the lowest), h200-compile-800x1067.json 12.607392 / 12.521816 = 1.0068
    text, (entry,) = printed(h200.ratio_span, "fp16", "fp8", kind="latency", mode="compile")
    assert text == "0.90x to 1.01x (mode compile only)"
    assert len(entry.rows) == 4 and {r.variant for r in entry.rows} == {"fp16", "fp8"}
    # 800x800 in the three TensorRT jobs: 5.889 / 5.841, 5.889 / 5.85, 5.816 / 5.764 all print 1.01
    assert detr.ratio_span("fp16", "fp8-recipe72", kind="latency", shape="800x800") == "1.01x (at 800 x 800 only)"


def test_reduction_and_delta_spans(detr):
    # plan size (fp16 - fp8) / fp16: b200-trt11.1 (82.8 - 76.3) / 82.8 = 7.9 %, b200-trt11.4 (83.0 - 75.8) / 83.0
    # = 8.7 %, b300-trt11.4 (84.9 - 78.0) / 84.9 = 8.1 %; precision percent: 0
    assert detr.reduction_span("fp16", "fp8-recipe72", kind="plan_size") == "8% to 9%"
    # AP fp8 - fp16 in points, same job: b200-trt11.1 0.4620 - 0.4636 = -0.16 (first), b200-trt11.4
    # 0.4625 - 0.4644 = -0.19, b300-trt11.4 0.4619 - 0.4641 = -0.22 (last)
    jobs = ["b200-trt11.4", "b300-trt11.4", "b200-trt11.1"]
    assert detr.delta_points_span("fp16", "fp8-recipe72", kind="coco_ap", job_id=jobs) == \
        "-0.22 to -0.16 points (in jobs b200-trt11.4, b300-trt11.4 and b200-trt11.1 only)"


def test_saving_span_takes_pairs_and_both_ends_of_stated_differences(detr, h200):
    # b200-trt11.1 800x1067 GEMM: 0.409 - 0.073 = 0.336 ms; summary /results/6/delta_ms_range (fp8 - fp16)
    # = [-0.11, -0.04], so savings 0.11 and 0.04; 3 decimals for derived ms
    text, (entry,) = printed(detr.saving_span, "GEMM/MatMul", "fp16", "fp8-recipe72")
    assert text == "0.040 to 0.336 ms"
    assert places(entry.rows) == [("b200-trt11.1", "/results/8/groups/0/time_ms"),
                                  ("b200-trt11.1", "/results/9/groups/0/time_ms"),
                                  ("trt-cross-job-summary", "/results/6/delta_ms_range")]
    # H200 compiled GEMM fp16 - fp8 (each job's /results/3/groups/2 and /results/5/groups/3, the median
    # compilations' profiles): 800x800 0.843932 - 0.897762 = -0.0538 (FP8's GEMMs took longer in that profile),
    # 800x1067 1.179584 - 0.976413 = 0.2032
    assert h200.saving_span("GEMM/MatMul", "fp16", "fp8", mode="compile") == "-0.054 to 0.203 ms (mode compile only)"


def test_spread_over_jobs(detr):
    # fp16 AP on B200 / TensorRT 11.4: b200-trt11.4.json /results/6/value = 0.4644,
    # b200-trt11.4-per-part.json /results/0/value = 0.4639 (same measurement key)
    ap = detr.one(kind="coco_ap", variant="fp16", job_id="b200-trt11.4")
    assert detr.spread(ap) == "2 jobs: 0.4639 to 0.4644"
    text, (*_, entry) = printed(detr.with_spread, ap)
    assert text == "0.4644 (2 jobs: 0.4639 to 0.4644)"
    assert sorted(places(entry.rows)) == [("b200-trt11.4", "/results/6/value"), ("b200-trt11.4-per-part", "/results/0/value")]
    # a measurement only one job reports has no spread
    alone = detr.one(kind="coco_ap", variant="fp16", job_id="b300-trt11.4")
    assert detr.spread(alone) == "" and detr.with_spread(alone) == "0.4641"


def test_computed_figures_record_their_kind_and_rows(tmp_path):
    from studygen.render.view import StudyView

    from ..checks.studies import latency, load, record

    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0), latency("fp8", 4.0)])]))
    fp16, fp8 = study.one(variant="fp16"), study.one(variant="fp8")
    for helper, expected in ((study.ratio, "1.25x"), (study.reduction_percent, "20%"), (study.delta_points, "-100.00")):
        text, (entry,) = printed(helper, fp16, fp8)
        assert (text, entry.kind, entry.text) == (expected, "ratio", expected)
        assert places(entry.rows) == [("job", "/results/0/value_ms"), ("job", "/results/1/value_ms")]


def test_derived_spans_use_their_precision_and_restriction(tmp_path):
    from studygen.render.view import StudyView

    from ..checks.studies import coco_ap, latency, load, record, spec

    # AP 0.40 and 0.50 in job a (FP8 at another shape: pairs of one job match by job alone): 10.0 points;
    # latency 10.0 and 5.0 at 800x800: 50 % less, 10.0 and 8.0 at 800x1067: 20 % less
    rows = [coco_ap("fp16", 0.40), coco_ap("fp8", 0.50, shape="800x1067"),
            latency("fp16", 10.0), latency("fp8", 5.0), latency("fp16", 10.0, "800x1067"), latency("fp8", 8.0, "800x1067")]
    study = StudyView(load(tmp_path, records=[record("a", rows)],
                           study=spec(precision={"ap_delta_points": 1, "percent": 1, "ratio": 3})))
    text, (entry,) = printed(study.delta_points_span, "fp16", "fp8", kind="coco_ap")
    assert text == "10.0 points"
    assert places(entry.rows) == [("a", "/results/0/value"), ("a", "/results/1/value")]
    text, (entry,) = printed(study.reduction_span, "fp16", "fp8", kind="latency", shape="800x800")
    assert text == "50.0% (at 800 x 800 only)"
    assert places(entry.rows) == [("a", "/results/2/value_ms"), ("a", "/results/3/value_ms")]
    assert study.reduction_span("fp16", "fp8", kind="latency") == "20.0% to 50.0%"
    assert study.ratio_span("fp16", "fp8", kind="latency", job_id="a") == "1.250x to 2.000x (in job a only)"
    ap16, ap8 = study.one(kind="coco_ap", variant="fp16"), study.one(kind="coco_ap", variant="fp8")
    assert study.delta_points(ap16, ap8) == "+10.0"
    assert study.derived_span([1.5, 2.25], "ratio") == "1.500 to 2.250"  # no suffix, no restriction by default


def test_saving_span_takes_kernel_times_and_only_the_matching_stated_differences(tmp_path):
    from studygen.render.view import StudyView

    from ..checks.studies import load, record

    def profile(variant, ms, shape):
        return {"kind": "kernel_time", "variant": variant, "shape": shape, "batch": 1, "backend": "tensorrt",
                "mode": "engine", "groups": [{"group": "GEMM/MatMul", "time_ms": ms}]}

    def share(variant, shape):
        # a share of engine time for the same group, job and shape: a row of the group that is no kernel time
        return {"kind": "kernel_time", "variant": variant, "shape": shape, "batch": 1, "backend": "tensorrt",
                "mode": "engine", "groups": [{"group": "GEMM/MatMul", "share_percent_range": {"min": 1, "max": 3,
                                                                                             "over": "toy rows"}}]}

    def stated(variant, reference, ms, shape):
        return {"kind": "kernel_time_delta", "variant": variant, "reference_variant": reference, "group": "GEMM/MatMul",
                "delta_ms": ms, "shape": shape, "backend": "tensorrt", "mode": "engine", "batch": 1}

    rows = [profile("fp16", 0.40, "800x800"), profile("fp8", 0.30, "800x800"),
            stated("fp8", "fp16", -0.05, "800x800"),  # counts: FP8 against fp16 at the shape asked for
            stated("fp8", "fp16", -0.50, "800x1067"),  # another shape
            stated("fp8", "fp32", -0.90, "800x800"),  # against another variant
            stated("fp32", "fp16", 0.70, "800x800"),  # another variant against fp16
            share("fp16", "800x800"), share("fp8", "800x800")]
    study = StudyView(load(tmp_path, records=[record("a", rows)]))
    text, (entry,) = printed(study.saving_span, "GEMM/MatMul", "fp16", "fp8", shape="800x800")
    assert text == "0.050 to 0.100 ms (at 800 x 800 only)"  # 0.40 - 0.30 and -(-0.05)
    assert places(entry.rows) == [("a", "/results/0/groups/0/time_ms"), ("a", "/results/1/groups/0/time_ms"),
                                  ("a", "/results/2/delta_ms")]


def test_a_job_to_job_spread_takes_only_figures_timed_alike(tmp_path):
    # job a timed without CUDA graphs (fp32 12.0, fp16 10.0 ms), jobs b and c with them (fp32 120.0, fp16 100.0
    # and 101.0 ms): one measurement key, two measurements (SG203, SG212). Before, the graphs-off cells printed
    # "12.0 (2 jobs: 12.0 to 120.0)" and "10.0 (3 jobs: 10.0 to 101.0)" while the list of measurements in
    # several jobs, below them, had fp16 in jobs b and c only
    from studygen.render.engine import render_markdown
    from studygen.render.view import StudyView

    from ..checks.studies import latency, record
    from .test_generic_issue22 import generic

    off, on = {"timer": "trtexec", "cuda_graph": False}, {"timer": "trtexec", "cuda_graph": True}
    study = generic(tmp_path, [record("a", [latency("fp16", 10.0, method=off), latency("fp32", 12.0, method=off)]),
                               record("b", [latency("fp16", 100.0, method=on), latency("fp32", 120.0, method=on)]),
                               record("c", [latency("fp16", 101.0, method=on)])])
    lines = render_markdown(study).split("## Provenance")[0].splitlines()
    cells = [[cell.strip() for cell in line.split("|")[1:-1]] for line in lines if "| H200 |" in line]
    assert cells == [["H200", "800 x 800", "1", "12.0", "10.0", "1.20x"],
                     ["H200", "800 x 800", "1", "120.0", "100.0 to 101.0 (2 jobs: b, c)", "1.20x (2 jobs: 1.19x to 1.20x)"],
                     ["fp16 median GPU compute time 800 x 800", "H200", "11.4.0.106", "b: 100.0; c: 101.0", "1.0"]]
    view = StudyView(study)
    fp16_a, fp16_b = view.one(variant="fp16", job_id="a"), view.one(variant="fp16", job_id="b")
    assert view.spread(fp16_a) == "" and view.with_spread(fp16_a) == "10.0"
    assert view.spread(fp16_b) == "2 jobs: 100.0 to 101.0"
    assert [r.job_id for r in view.same_measurement_rows(fp16_b._row)] == ["b", "c"]
