"""Row selection and how one row prints, on the shipped records and on toy ones."""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from dataclasses import replace

from studygen.render.rows import RowSet, TemplateRow, matches
from studygen.render.view import StudyView
from studygen.study.timing import timing_signature

from ..checks.studies import collected_provenance, latency, load, record, spec
from .views import DETR, H200, places, printed, view_of


@pytest.fixture(scope="module")
def detr():
    return view_of(DETR)


def test_filters_select_by_field_any_of_a_list_and_tensorrt_by_release(detr):
    fp16 = detr.figures(kind="latency", variant="fp16")
    assert places(fp16.rows) == [("b200-trt11.1", "/results/0/value_ms"), ("b200-trt11.1", "/results/1/value_ms"),
                                 ("b200-trt11.4", "/results/0/value_ms"), ("b200-trt11.4", "/results/1/value_ms"),
                                 ("b300-trt11.4", "/results/0/value_ms"), ("b300-trt11.4", "/results/1/value_ms")]
    assert len(detr.figures(kind="latency", variant="fp16", tensorrt="11.4")) == 4  # 11.4.0.106, by major.minor
    assert len(detr.figures(kind="latency", variant="fp16", tensorrt="11.4.0.106")) == 4  # or the full version
    assert len(detr.figures(kind="latency", variant="fp16", tensorrt=["11.1", "11.4.0.106"])) == 6
    assert len(detr.figures(kind="latency", variant="fp16", tensorrt="11")) == 0
    assert len(detr.figures(kind="latency", variant=["fp16", "fp32"], shape="800x1067")) == 5  # 3 fp16, 2 fp32
    assert len(detr.figures(kind="latency", variant="fp16", shape=None)) == 6  # None: no condition


@pytest.mark.parametrize("family", [DETR, H200])
def test_rows_read_off_the_views_indexes_are_those_a_scan_of_every_row_finds(family):
    # figures(kind=...) and same_measurement_rows read the study's rows once per view: same rows, same record order
    view = view_of(family)
    rows = view._study.rows
    for kind in sorted({row.kind for row in rows}) + ["no_such_kind"]:
        assert view.figures(kind=kind).rows == [r for r in rows if r.kind == kind]
        assert view.figures(kind=kind, variant="fp16").rows == [r for r in rows if r.kind == kind and r.variant == "fp16"]
    assert view.figures(kind=["latency", "kernel_time"]).rows == [r for r in rows if r.kind in ("latency", "kernel_time")]
    for row in rows:
        assert view.same_measurement_rows(row) == [r for r in rows if r.key == row.key and (
            r.kind != "latency" or timing_signature(r) == timing_signature(row))]
    assert any(len(view.same_measurement_rows(row)) > 1 for row in rows)  # both studies measure some keys in two jobs


def test_a_selection_is_made_once_per_view(monkeypatch):
    """The same filters (in any order) select from the view's memo, each call a list of its own.
    Failed before: every call scanned the rows of its kind again (64 scans for 28 selections to
    render deformable_detr_h200_torch)."""
    from studygen.render import rows as rows_module

    view = view_of(DETR)
    scanned = []
    real = rows_module.matches
    monkeypatch.setattr(rows_module, "matches", lambda row, filters: scanned.append(row) or real(row, filters))
    first = view.figures(kind="latency", variant=["fp16"], shape="800x1067")
    scans = len(scanned)
    again = view.figures(shape="800x1067", kind="latency", variant=["fp16"])
    assert len(scanned) == scans > 0 and again.rows == first.rows and again.rows is not first.rows
    assert len(first) == 3 and again.filters == {"shape": "800x1067", "kind": "latency", "variant": ["fp16"]}
    assert len(view.figures(kind="latency", variant=("fp16",), shape="800x1067")) == 3 and len(scanned) > scans


def test_filters_equal_in_value_but_not_in_type_select_apart(tmp_path):
    # a version filter is read as text: 11.0 selects TensorRT 11.0.x, 11 does not, though 11 == 11.0
    view = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)],
                                                    collected_provenance(tensorrt="11.0.0.1"))]))
    assert (len(view.figures(tensorrt=11.0)), len(view.figures(tensorrt=11)), len(view.figures(tensorrt=11.0))) == (1, 0, 1)
    assert (len(view.figures(tensorrt=["11.0"])), len(view.figures(tensorrt={"11.0"})), len(view.figures(tensorrt=11))) == (1, 1, 0)


def test_matches_compares_each_filter(tmp_path):
    (row,) = load(tmp_path, records=[record("job", [latency("fp16", 5.0)])]).rows
    (no_trt,) = load(tmp_path / "b", records=[record("job", [latency("fp16", 5.0)],
                                                       collected_provenance(tensorrt=None))]).rows
    assert matches(row, {"variant": "fp16", "batch": 1})
    assert not matches(row, {"variant": "fp16", "batch": 2})
    assert matches(row, {"tensorrt": ("11.1", "11.4")}) and not matches(row, {"tensorrt": {"11.1"}})
    assert matches(row, {"tensorrt": "11.4"}) and not matches(no_trt, {"tensorrt": "11.4"})
    assert matches(row, {"shape": ["800x800"]}) and not matches(row, {"shape": ["800x1067"]})
    assert matches(row, {"record": "measurements/toy/job.json", "key": row.key.text()})


def test_an_unknown_filter_is_a_template_error(detr):
    with pytest.raises(TemplateError) as raised:
        detr.figures(kind="latency", varaint="fp16", timing="gpu_compute")
    assert raised.value.message == (
        "unknown filter timing, varaint; filters are the row fields approximate, backend, batch, cv, dataset, family, "
        "gpu, group, job_id, kind, metric, mode, precision, range_over, recipe, reference_variant, repeats, revision, "
        "samples, shape, software, statistic, tensorrt, timing_method, transcribed, unit, unstable, variant, weights")


def test_one_is_exactly_one(detr):
    row = detr.one(kind="plan_size", variant="fp16", job_id="b300-trt11.4")
    assert (row.value, row.unit, row.job_id) == (84.9, "MiB", "b300-trt11.4")  # b300-trt11.4.json /results/4/value_mib
    with pytest.raises(TemplateError) as raised:
        detr.one(kind="plan_size", variant="fp16")
    # the three plan sizes (b200-trt11.1, b200-trt11.4, b300-trt11.4 /results/4) differ in job, GPU and versions
    assert raised.value.message == (
        "expected one figure for {'kind': 'plan_size', 'variant': 'fp16'}, found 3: "
        "job b200-trt11.1 /results/4/value_mib gpu=NVIDIA B200 software=tensorrt=11.1.0.106,cuda=13 tensorrt=11.1.0.106; "
        "job b200-trt11.4 /results/4/value_mib gpu=NVIDIA B200 software=tensorrt=11.4.0.106,cuda=13 tensorrt=11.4.0.106; "
        "job b300-trt11.4 /results/4/value_mib gpu=NVIDIA B300 software=tensorrt=11.4.0.106,cuda=13 tensorrt=11.4.0.106; "
        "they differ in job_id, gpu, software, tensorrt: add one of these filters")
    with pytest.raises(TemplateError, match="found 0"):
        detr.one(kind="plan_size", variant="nvfp4")


def test_a_row_prints_its_figure_with_unit(detr):
    plan = detr.one(kind="plan_size", variant="fp16", job_id="b300-trt11.4")
    text, recorded = printed(str, plan)
    assert text == "84.9 MiB"
    assert [e.kind for e in recorded] == ["figure", "figure"] and recorded[-1].text == "84.9 MiB"
    assert places(recorded[-1].rows) == [("b300-trt11.4", "/results/4/value_mib")]
    assert str(detr.one(kind="latency", variant="fp32", job_id="b300-trt11.4-fp32-engine")) == "13.62 ms"
    assert str(detr.one(kind="coco_ap", variant="fp16", job_id="b300-trt11.4")) == "0.4641"  # AP: no unit
    share = detr.one(metric="kernel_share")  # summary /results/5/groups/0/share_percent_range = [1, 3]
    assert share.is_range and (share.low, share.high) == (1, 3)
    assert (share.number(), str(share)) == ("1 to 3", "1 to 3%")
    gemm = detr.one(metric="kernel_time", group="GEMM/MatMul", variant="fp16", job_id="b200-trt11.1")
    assert not gemm.is_range and gemm.low == gemm.high == 0.409


def test_row_fields_read_as_attributes(detr):
    row = detr.one(kind="plan_size", variant="fp16", job_id="b300-trt11.4")
    assert (row.gpu, row.tensorrt, row.pointer) == ("NVIDIA B300", "11.4.0.106", "/results/4/value_mib")
    with pytest.raises(AttributeError, match="no_such_field"):
        row.no_such_field


def test_other_units_print_after_a_space(tmp_path):
    rows = [latency("fp16", 5.0, approximate=True), latency("fp8", 4.0)]
    study = StudyView(load(tmp_path, records=[record("job", rows)]))
    about = study.one(variant="fp16")
    assert (about.number(), str(about)) == ("about 5.0", "about 5.0 ms")
    row = study.one(variant="fp8")._row
    assert str(TemplateRow(replace(row, unit="img/s"))) == "4.0 img/s"  # a unit without a suffix of its own
    unitless = TemplateRow(replace(row, unit=None))
    assert (unitless.unit, str(unitless)) == ("", "4.0")


def test_a_row_set_does_not_print_as_it_is(detr):
    rows = detr.figures(kind="latency")
    with pytest.raises(TemplateError) as raised:
        str(rows)
    assert raised.value.message == ("a set of figures cannot be printed as it is: use study.span, study.table or "
                                    "study.list_table, or loop over it")
    assert len(RowSet([], {})) == 0 and list(RowSet([], {})) == []


def test_labels_precisions_and_record_strings(detr):
    h200 = view_of(H200)
    assert detr.label("fp8-recipe72") == "FP8 (72 linears)" and detr.label("unlisted") == "unlisted"
    assert detr.jobs() == ["b200-trt11.1", "b200-trt11.4-fp32-engine", "b200-trt11.4-per-part", "b200-trt11.4",
                           "b300-trt11.4-fp32-engine", "b300-trt11.4", "pytorch-fp32-reference", "trt-cross-job-summary"]
    # deformable_detr's study file: ratio 2, percent 0, ap_delta_points 2; ms and others by default 3 and 2
    assert [detr.decimals(n) for n in ("ratio", "percent", "ap_delta_points", "ms", "other")] == [2, 0, 2, 3, 2]
    assert detr.percent(0.1234) == "12.3%"  # cv_percent: 1 by default
    assert h200.percent(0.05) == "5.0%"
    assert detr.gpu("NVIDIA B200") == "B200" and detr.gpu(None) == "not stated"
    assert detr.version("11.4.0.106") == "11.4" and detr.version(None) == "not stated"
    assert detr.shape("800x1067") == "800 x 1067" and detr.shape(None) == "shape not stated"
    assert detr.escape("a_b *c* `d`") == "a\\_b \\*c\\* \\`d\\`"
    assert detr.cell("a|b\nc <d>") == "a\\|b c &lt;d&gt;"
    assert (detr.title, detr.family, detr.model["id"]) == (
        "Deformable DETR: FP8 on TensorRT, not shipped", "deformable_detr", "SenseTime/deformable-detr")
    assert detr.decision["shipped"] is False and detr.spec["template"] == "deformable_detr.md.j2"


def test_percent_without_a_precision_section(tmp_path):
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])]))
    assert "precision" not in study.spec
    assert study.percent(0.05) == "5.0%" and study.decimals("ratio") == 2


def test_study_precision_overrides_derived_decimals(tmp_path):
    rows = [latency("fp16", 5.0), latency("fp8", 4.0)]
    study = StudyView(load(tmp_path, records=[record("job", rows)],
                           study=spec(precision={"ratio": 3, "percent": 1, "cv_percent": 2})))
    fp16, fp8 = study.one(variant="fp16"), study.one(variant="fp8")
    assert study.ratio(fp16, fp8) == "1.250x"
    assert study.reduction_percent(fp16, fp8) == "20.0%"
    assert study.percent(0.1234) == "12.34%"
    assert study.delta_points(fp8, fp16) == "+100.00"  # (5.0 - 4.0) in points, ap_delta_points 2 by default
