"""A new user's generic README: shapes in the order their logs' file names
sort as text (1280 x 1280 before 640 x 640), a re-collected batch 1 after
batch 8, and a side finding and a known gap that said "at 640 x 640" where
the study has batch 1 and 8 there. Each test failed on the code before the
fix. Figures are made up; each expected value is read off the records here."""

from __future__ import annotations

from studygen.render.engine import render_markdown
from studygen.render.rows import shape_order

from ..checks.studies import record
from ..checks.studies import latency as trt_latency
from .test_generic_issue22 import generic
from .test_generic_template import tables_of


def latency(variant, value, shape="640x640", batch=1, **extra):
    return trt_latency(variant, value, shape, batch=batch, **extra)


def latency_table(text):
    return next(table for table in tables_of(text) if "fp16 (ms)" in table[0])


def test_shapes_sort_by_height_then_width_as_numbers():
    shapes = ["1280x1280", "640x1280", "1280x640", "640x640", "96x2048", None, "dynamic", "640xauto"]
    assert sorted(shapes, key=shape_order) == ["96x2048", "640x640", "640x1280", "1280x640", "1280x1280", None,
                                               "640xauto", "dynamic"]


def test_table_rows_go_by_shape_and_batch_numbers_not_by_record_order(tmp_path):
    # 18.125 prints as 18.13 (4 significant digits); the record order of logs named l4_fp16_1280_b1.log, l4_fp16_640_b8.log, then a re-collected 640 b1 last
    results = [latency("fp16", 12.5, "1280x1280"), latency("fp32", 25.25, "1280x1280"),
               latency("fp16", 18.125, batch=8), latency("fp32", 36.5, batch=8),
               latency("fp16", 3.125), latency("fp32", 6.0)]
    text = render_markdown(generic(tmp_path, [record("l4", results)]))
    assert [row[1:5] for row in latency_table(text)[1:]] == [
        ["640 x 640", "1", "6.0", "3.125"], ["640 x 640", "8", "36.5", "18.13"],
        ["1280 x 1280", "1", "25.25", "12.5"]]


def test_jobs_keep_their_order_and_each_jobs_rows_go_by_shape(tmp_path):
    b = record("b-first", [latency("fp16", 9.5, "1280x1280"), latency("fp16", 2.5)])
    a = record("a-second", [latency("fp16", 8.75, "1280x1280"), latency("fp16", 2.25)], provenance=None)
    a["provenance"]["gpu"] = "NVIDIA L4"
    text = render_markdown(generic(tmp_path, [b, a]))
    rows = [row[:2] + row[-1:] for row in latency_table(text)[1:]]
    assert rows == [["L4", "640 x 640", "2.25"], ["L4", "1280 x 1280", "8.75"],
                    ["H200", "640 x 640", "2.5"], ["H200", "1280 x 1280", "9.5"]]


def test_a_side_finding_and_a_known_gap_name_the_batch_where_the_study_has_several(tmp_path):
    unstable = {"unstable": True, "unstable_reason": "trtexec flagged the GPU compute time as unstable (a100.log:40)"}
    results = [latency("fp16", 1.66), latency("int8", 1.71, **unstable),
               latency("fp16", 9.5, batch=8), latency("int8", 5.875, batch=8)]
    variants = [{"name": "fp16", "precision": "fp16"}, {"name": "int8", "precision": "int8"}]
    text = render_markdown(generic(tmp_path, [record("a100", results)], variants=variants))
    side = text.split("## Side findings")[1].split("##")[0].strip().splitlines()
    assert side == ["- int8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 640 x 640, batch 1: 1.71 ms "
                    "against 1.66 ms (job a100)."]
    gaps = [line for line in text.splitlines() if line.startswith("- Unstable timing")]
    assert gaps == ["- Unstable timing in job a100 (int8, 640 x 640, batch 1): trtexec flagged the GPU compute "
                    "time as unstable (a100.log:40)."]


def test_one_batch_in_the_study_is_not_named_in_prose(tmp_path):
    results = [latency("fp16", 1.66), latency("int8", 1.71)]
    variants = [{"name": "fp16", "precision": "fp16"}, {"name": "int8", "precision": "int8"}]
    text = render_markdown(generic(tmp_path, [record("a100", results)], variants=variants))
    assert "- int8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 640 x 640: 1.71 ms against 1.66 ms" in text


def test_the_same_measurement_table_names_the_batch_where_the_study_has_several(tmp_path):
    jobs = [record("l4-a", [latency("fp16", 3.125), latency("fp16", 18.25, batch=8)]),
            record("l4-b", [latency("fp16", 3.0)])]
    text = render_markdown(generic(tmp_path, jobs))
    repeated = next(table for table in tables_of(text) if table[0][0] == "Measurement")
    assert [row[0] for row in repeated[1:]] == ["fp16 median GPU compute time 640 x 640 batch 1"]


def test_a_batch_first_recorded_later_still_comes_first_and_tables_without_jobs_sort_too(tmp_path):
    # batch 8 recorded before batch 1 (a re-collected batch 1 goes last); plan sizes of 1280 x 1280 first
    results = [latency("fp16", 18.25, batch=8), latency("fp16", 3.125),
               {"kind": "plan_size", "variant": "fp16", "shape": "1280x1280", "batch": 1, "backend": "tensorrt",
                "mode": "engine", "value_mib": 48.5},
               {"kind": "plan_size", "variant": "fp16", "shape": "640x640", "batch": 1, "backend": "tensorrt",
                "mode": "engine", "value_mib": 48.25}]
    text = render_markdown(generic(tmp_path, [record("l4", results)]))
    assert [row[1:3] + row[-1:] for row in latency_table(text)[1:]] == [["640 x 640", "1", "3.125"],
                                                                        ["640 x 640", "8", "18.25"]]
    plan = next(table for table in tables_of(text) if "fp16 (MiB)" in table[0])
    shape_column = plan[0].index("Shape HxW")
    assert [row[shape_column] for row in plan[1:]] == ["640 x 640", "1280 x 1280"]
