"""Grid and list tables of the view, on toy records whose cells follow by hand."""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.view import StudyView

from ..checks.studies import collected_provenance, latency, load, record
from .views import DETR, places, printed, view_of


def cells(markdown: str) -> list[list[str]]:
    """A GFM table's rows as stripped cell texts (header first, separator left out)."""
    lines = markdown.splitlines()
    assert set(lines[1]) <= {"|", "-", ":", " "}, lines[1]
    return [[c.strip() for c in line.strip()[1:-1].split("|")] for line in lines[:1] + lines[2:]]


@pytest.fixture
def toy(tmp_path) -> StudyView:
    # job a: fp16 and FP8 at 800x800, fp16 alone at 800x1067; job b: fp16 and FP8 at 800x800 on another GPU
    a = record("a", [latency("fp16", 5.0), latency("fp8", 4.0), latency("fp16", 8.0, "800x1067")])
    b = record("b", [latency("fp16", 5.5), latency("fp8", 4.4)], collected_provenance(gpu="NVIDIA B200"))
    return StudyView(load(tmp_path, records=[a, b]))


def test_grid_with_derived_columns_missing_cells_and_jobs_order(toy):
    text, recorded = printed(toy.table, index=("job_id", "gpu", "shape"), variants=("fp16", "fp8"), jobs=["b", "a"],
                             kind="latency", derived=[("ratio", "fp16", "fp8", "fp16 / FP8"),
                                                      ("reduction_percent", "fp16", "fp8", "FP8 faster by")])
    assert cells(text) == [
        ["Job", "GPU", "Shape HxW", "fp16", "FP8", "fp16 / FP8", "FP8 faster by"],
        ["b", "B200", "800 x 800", "5.5", "4.4", "1.25x", "20%"],  # 5.5 / 4.4; (5.5 - 4.4) / 5.5
        ["a", "H200", "800 x 800", "5.0", "4.0", "1.25x", "20%"],
        ["a", "H200", "800 x 1067", "8.0", "not measured", "n/a", "n/a"],
    ]
    table = recorded[-1]
    assert table.kind == "table" and table.headers[0] == "Job" and table.within == ()
    assert len(table.rows) == 5
    # every cell a helper printed is marked as a cell of this table
    inside = [e for e in recorded[:-1]]
    assert inside and all(e.within == table.headers for e in inside)
    assert {e.kind for e in inside} == {"figure", "ratio"}


def test_grid_rows_come_in_record_order_without_jobs(toy):
    text = toy.table(index=("shape",), variants=("fp8", "fp16"), kind="latency", jobs=["a"],
                     value_header="{label} (ms)", derived=[("delta_points", "fp16", "fp8", "points")])
    assert cells(text) == [["Shape HxW", "FP8 (ms)", "fp16 (ms)", "points"],
                           ["800 x 800", "4.0", "5.0", "-100.00"],
                           ["800 x 1067", "not measured", "8.0", "n/a"]]


def test_a_cell_two_jobs_fill_shows_the_range_and_names_the_jobs(toy):
    # 800x800 fp16: job a 5.0 (H200), job b 5.5 (B200); FP8 4.0 and 4.4; both pairs 1.25x
    text, recorded = printed(toy.table, index=("shape",), variants=("fp16", "fp8"), kind="latency",
                             derived=[("ratio", "fp16", "fp8", "fp16 / FP8")])
    assert cells(text) == [["Shape HxW", "fp16", "FP8", "fp16 / FP8"],
                           ["800 x 800", "5.0 to 5.5 (2 jobs: a, b)", "4.0 to 4.4 (2 jobs: a, b)", "1.25x"],
                           ["800 x 1067", "8.0", "not measured", "n/a"]]
    spread = next(e for e in recorded if e.text == "5.0 to 5.5 (2 jobs: a, b)")
    assert [(r.job_id, r.value) for r in spread.rows] == [("a", 5.0), ("b", 5.5)]


def test_derived_cells_of_several_jobs_range_over_same_job_pairs(tmp_path):
    # job a: 5.0 / 4.0 = 1.25x, -100 points; job b: 6.0 / 4.0 = 1.50x, -200 points
    a = record("a", [latency("fp16", 5.0), latency("fp8", 4.0)])
    b = record("b", [latency("fp16", 6.0), latency("fp8", 4.0)])
    study = StudyView(load(tmp_path, records=[a, b]))
    text, recorded = printed(study.table, index=("shape",), variants=("fp16", "fp8"), kind="latency",
                             derived=[("ratio", "fp16", "fp8", "r"), ("delta_points", "fp16", "fp8", "d")])
    assert cells(text)[1] == ["800 x 800", "5.0 to 6.0 (2 jobs: a, b)", "4.0 (2 jobs, each: a, b)",
                              "1.25x to 1.50x", "-200.00 to -100.00"]
    ratio = next(e for e in recorded if e.text == "1.25x to 1.50x")
    assert ratio.kind == "ratio" and [r.job_id for r in ratio.rows] == ["a", "a", "b", "b"]
    assert [(x.job_id, y.job_id) for x, y in ratio.compared] == [("a", "a"), ("b", "b")]


def test_a_figure_outside_the_same_job_pairs_widens_the_derived_cell_to_every_job(tmp_path):
    # jobs a and b as above (1.25x and 1.50x); job c measured fp16 alone, 7.0: its figure is in no pair, so the
    # paired range is followed by the range over every fp16 figure against every FP8 figure:
    # 5.0 / 4.0 = 1.25x to 7.0 / 4.0 = 1.75x; FP8 minus fp16 -100 to -300 points
    a = record("a", [latency("fp16", 5.0), latency("fp8", 4.0)])
    b = record("b", [latency("fp16", 6.0), latency("fp8", 4.0)])
    c = record("c", [latency("fp16", 7.0)])
    study = StudyView(load(tmp_path, records=[a, b, c]))
    text, recorded = printed(study.table, index=("shape",), variants=("fp16", "fp8"), kind="latency",
                             derived=[("ratio", "fp16", "fp8", "r"), ("reduction_percent", "fp16", "fp8", "p"),
                                      ("delta_points", "fp16", "fp8", "d")])
    # (5.0 - 4.0) / 5.0 = 20%, (6.0 - 4.0) / 6.0 = 33%, (7.0 - 4.0) / 7.0 = 43%
    assert cells(text)[1] == ["800 x 800", "5.0 to 7.0 (3 jobs: a, b, c)", "4.0 (2 jobs, each: a, b)",
                              "1.25x to 1.50x (3 jobs: 1.25x to 1.75x)", "20% to 33% (3 jobs: 20% to 43%)",
                              "-200.00 to -100.00 (3 jobs: -300.00 to -100.00)"]
    ratio = next(e for e in recorded if e.text == "1.25x to 1.50x (3 jobs: 1.25x to 1.75x)")
    assert ratio.kind == "ratio"
    assert sorted((r.job_id, r.value) for r in ratio.rows) == [("a", 4.0), ("a", 5.0), ("b", 4.0), ("b", 6.0),
                                                               ("c", 7.0)]
    assert [(x.job_id, y.job_id) for x, y in ratio.compared] == [("a", "a"), ("b", "b")]
    # the paired part is no output of its own: it is printed only inside the range over every job
    assert not any(e.text == "1.25x to 1.50x" for e in recorded)


def test_one_pair_and_a_job_of_one_variant(tmp_path):
    # job a: fp16 5.0, FP8 4.0 (1.25x); job b: FP8 alone, 5.0 (5.0 / 5.0 = 1.00x); a range that prints alike
    a = record("a", [latency("fp16", 5.0), latency("fp8", 4.0)])
    b = record("b", [latency("fp8", 5.0)])
    c = record("c", [latency("fp16", 5.0), latency("fp8", 4.0001)])
    study = StudyView(load(tmp_path, records=[a, b]))
    text, recorded = printed(study.table, index=("shape",), variants=("fp16", "fp8"), kind="latency",
                             derived=[("ratio", "fp16", "fp8", "r")])
    assert cells(text)[1][-1] == "1.25x (2 jobs: 1.00x to 1.25x)"
    assert [e.text for e in recorded if e.kind == "ratio"] == ["1.25x (2 jobs: 1.00x to 1.25x)"]
    alike = StudyView(load(tmp_path / "alike", records=[a, c, record("d", [latency("fp8", 4.0002)])]))
    # 5.0 / 4.0, 5.0 / 4.0001 and 5.0 / 4.0002 all print 1.25x
    assert cells(alike.table(index=("shape",), variants=("fp16", "fp8"), kind="latency",
                             derived=[("ratio", "fp16", "fp8", "r")]))[1][-1] == "1.25x (3 jobs, each 1.25x)"


def test_unknown_derived_column_names_the_valid_ones(toy):
    with pytest.raises(TemplateError) as raised:
        toy.table(index=("job_id", "shape"), variants=("fp16", "fp8"), kind="latency",
                  derived=[("span", "fp16", "fp8", "x")])
    assert raised.value.message == ("table: unknown derived column 'span'; derived columns are ratio, "
                                    "reduction_percent, delta_points")


def test_list_table_has_every_row_with_spread_and_ranges(toy):
    detr = view_of(DETR)
    text, recorded = printed(detr.list_table, detr.figures(kind="kernel_time", metric="kernel_time", group="GEMM/MatMul"),
                             columns=("job_id", "shape", "variant", "value"), value_header="ms")
    # b200-trt11.1.json /results/8 and /results/9 groups/0 = 0.409 and 0.073; the summary's fp16 range [0.19, 0.21]
    assert cells(text) == [["Job", "Shape HxW", "Variant", "ms"],
                           ["b200-trt11.1", "800 x 1067", "fp16", "0.409"],
                           ["b200-trt11.1", "800 x 1067", "FP8 (72 linears)", "0.073"],
                           ["trt-cross-job-summary", "shape not stated", "fp16",
                            "0.19 to 0.21 (range over rows not listed)"]]
    assert places(recorded[-1].rows) == [("b200-trt11.1", "/results/8/groups/0/time_ms"),
                                         ("b200-trt11.1", "/results/9/groups/0/time_ms"),
                                         ("trt-cross-job-summary", "/results/4/groups/0/time_ms_range")]
    # a value reported by two jobs carries the spread (fp16 AP on B200 / TensorRT 11.4: 0.4644 and 0.4639)
    ap = detr.list_table(detr.figures(kind="coco_ap", variant="fp16", tensorrt="11.4", gpu="NVIDIA B200"),
                         columns=("job_id", "gpu", "tensorrt", "value"))
    assert cells(ap)[1:] == [["b200-trt11.4-per-part", "B200", "11.4.0.106", "0.4639 (2 jobs: 0.4639 to 0.4644)"],
                             ["b200-trt11.4", "B200", "11.4.0.106", "0.4644 (2 jobs: 0.4639 to 0.4644)"]]
    default = cells(toy.list_table(toy.figures(job_id="b")))
    assert default == [["Job", "GPU", "TensorRT", "Shape HxW", "Variant", "Kernel group", "Value"],
                       ["b", "B200", "11.4.0.106", "800 x 800", "fp16", "", "5.5"],
                       ["b", "B200", "11.4.0.106", "800 x 800", "FP8", "", "4.4"]]


def test_record_strings_are_escaped_in_cells(tmp_path):
    row = record("job", [latency("fp16", 5.0)], collected_provenance(gpu="NVIDIA <B200>|x`y"))
    study = StudyView(load(tmp_path, records=[row]))
    text = study.table(index=("gpu",), variants=("fp16",), kind="latency")
    assert text.splitlines()[2] == "| &lt;B200&gt;\\|x\\`y | 5.0    |"


def test_metric_names_in_words():
    from studygen.render.tables import index_label, metric_words

    assert metric_words("logit_correlation") == "logit correlation (Pearson r)"
    assert metric_words("top1_agreement") == "top-1 agreement (fraction)"  # a fraction, as precision and recall
    assert metric_words("top_k_hit_rate") == "top k hit rate"  # no entry: underscores as spaces
    assert index_label("metric", "nonfinite_count") == "non-finite outputs (count)"


def test_a_derived_range_of_ap_gains_keeps_the_plus_signs(tmp_path):
    # AP points b - a: job a 100 * (0.47 - 0.46) = +1.00, job b 100 * (0.48 - 0.46) = +2.00
    from ..checks.studies import coco_ap

    a = record("a", [coco_ap("fp16", 0.46), coco_ap("fp8", 0.47)])
    b = record("b", [coco_ap("fp16", 0.46), coco_ap("fp8", 0.48)])
    study = StudyView(load(tmp_path, records=[a, b]))
    text = study.table(index=("gpu",), variants=("fp16", "fp8"), kind="coco_ap",
                       derived=[("delta_points", "fp16", "fp8", "d")])
    assert cells(text)[1][-1] == "+1.00 to +2.00"


def test_derived_cell_without_a_same_job_pair_is_the_range_over_every_pair(tmp_path):
    # fp16 from jobs a (5.0) and c (6.0), FP8 from job b (4.0) only: no job has both. The cell led with a / b
    # (5.0 / 4.0, the first row of each) as if it were the figure: "1.25x (3 jobs: 1.25x to 1.50x)"
    records = [record("a", [latency("fp16", 5.0)]), record("c", [latency("fp16", 6.0)]), record("b", [latency("fp8", 4.0)])]
    view = StudyView(load(tmp_path, records=records))
    text = view.table(index=("shape",), variants=("fp16", "fp8"), derived=(("ratio", "fp16", "fp8", "fp16 / FP8"),),
                      kind="latency")
    # every fp16 figure against the FP8 one: 5.0 / 4.0 to 6.0 / 4.0 = 1.50x, two pairs over jobs a, c and b
    assert cells(text) == [["Shape HxW", "fp16", "FP8", "fp16 / FP8"],
                           ["800 x 800", "5.0 to 6.0 (2 jobs: a, c)", "4.0",
                            "1.25x to 1.50x (2 pairs across 3 jobs; no job measured both)"]]
    # an index field without a header of its own is its own header
    assert cells(view.table(index=("statistic",), variants=("fp16",), kind="latency"))[0] == ["statistic", "fp16"]
