"""One statistic per table cell: the generic template's COCO AP section prints
a table per COCOeval statistic (``study.quality_filters``), a table asked to
put figures of different statistics (or metrics, groups, image sets) in one
cell refuses naming the cell, and a cell of several figures says whose they
are. Figures are made up for the tests; expected values are read off the
records written here."""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.engine import render_markdown
from studygen.study import load_study

from ..checks.studies import FAMILY, coco_ap, latency, record, write_project
from .test_generic_issue22 import generic
from .test_generic_template import tables_of
from studygen.render.view import StudyView


def ap_records():
    a = record("a", [coco_ap("fp16", 0.4612345), coco_ap("fp16", 0.6, statistic="AP50"),
                     coco_ap("fp16", 0.2, statistic="APs"), coco_ap("fp8", 0.455),
                     coco_ap("fp8", 0.59, statistic="AP50")])
    b = record("b", [coco_ap("fp16", 0.462), coco_ap("fp8", 0.456)])
    return [a, b]


def test_the_generic_ap_section_prints_one_statistic_per_table(tmp_path):
    text = render_markdown(generic(tmp_path, ap_records()))
    tables = tables_of(text)[1:]  # after the image sets
    # AP: both jobs in each cell, named; 0.4612345 collected: 4 significant digits; the AP points per job
    # are 100 * (0.455 - 0.4612345) = -0.62 (a) and 100 * (0.456 - 0.462) = -0.60 (b)
    assert tables[0] == [["GPU", "Batch", "fp16 (AP)", "FP8 (AP)", "FP8 minus fp16 (AP points)"],
                         ["H200", "1", "0.4612 to 0.462 (2 jobs: a, b)", "0.455 to 0.456 (2 jobs: a, b)",
                          "-0.62 to -0.60"]]
    assert tables[1] == [["GPU", "Batch", "fp16 (AP50)", "FP8 (AP50)", "FP8 minus fp16 (AP points)"],
                         ["H200", "1", "0.6", "0.59", "-1.00"]]
    # a statistic only fp16 has: no FP8 column
    assert tables[2] == [["GPU", "Batch", "fp16 (APs)"], ["H200", "1", "0.2"]]
    # each table says what its columns hold before it
    assert "AP50: precision at IoU 0.50, objects of every area, up to 100 detections per image:" in text
    assert "APs: precision averaged over IoU 0.50 to 0.95, small objects (under 32 x 32 pixels), up to 100 " \
           "detections per image:" in text


def test_quality_filters_name_each_statistic_in_pycocotools_order(tmp_path):
    view = StudyView(generic(tmp_path, ap_records()))
    groups = view.quality_filters()
    assert [group["filters"] for group in groups] == [{"kind": "coco_ap", "statistic": name}
                                                      for name in ("AP", "AP50", "APs")]
    assert [group["header"] for group in groups] == ["{label} (AP)", "{label} (AP50)", "{label} (APs)"]
    assert groups[0]["holds"] == ("AP: precision averaged over IoU 0.50 to 0.95, objects of every area, "
                                  "up to 100 detections per image")
    assert view.quality_filters(statistic="AP50")[0]["variants"] == ("fp16", "fp8")
    assert view.quality_filters(statistic="APs")[0]["variants"] == ("fp16",)


def custom(tmp_path, records, body):
    template = "{{ generated_note }}\n\n" + body + "\n"
    study_dir = write_project(tmp_path, records=records, template=template)
    return render_markdown(load_study(study_dir, tmp_path))


def test_a_table_that_would_mix_statistics_in_a_cell_names_the_cell(tmp_path):
    with pytest.raises(TemplateError) as caught:
        custom(tmp_path, ap_records(), '{{ study.table(kind="coco_ap", variants=("fp16",), index=("gpu",)) }}')
    message = caught.value.message
    assert ("the cell of row GPU H200 and column fp16 would hold figures of different statistic (AP, AP50, APs)"
            in message)
    assert caught.value.path == f"templates/{FAMILY}.md.j2"


def test_a_cell_of_several_figures_of_one_job_says_so(tmp_path):
    records = [record("a", [latency("fp16", 5.0), latency("fp16", 8.0, "800x1067")])]
    text = custom(tmp_path, records, '{{ study.table(kind="latency", variants=("fp16",), index=("gpu",)) }}')
    assert tables_of(text)[0] == [["GPU", "fp16"], ["H200", "5.0 to 8.0 (2 figures of 1 job: a)"]]


def test_a_cell_of_several_jobs_names_them_and_headlines_none(tmp_path):
    # by file name, a-per-part comes first: its figure was the cell's headline, as if it were the table's
    records = [record("a", [coco_ap("fp16", 0.4644)]), record("a-per-part", [coco_ap("fp16", 0.4639)]),
               record("c", [coco_ap("fp8", 0.4625)]), record("d", [coco_ap("fp8", 0.4625)])]
    text = custom(tmp_path, records, '{{ study.table(kind="coco_ap", variants=("fp16", "fp8"), index=("gpu",)) }}')
    assert tables_of(text)[0] == [["GPU", "fp16", "FP8"],
                                  ["H200", "0.4639 to 0.4644 (2 jobs: a-per-part, a)", "0.4625 (2 jobs, each: c, d)"]]


def test_statistic_words_and_difference_headers_follow_cocoeval():
    from studygen.render.quality import difference_header, statistic_words

    assert statistic_words("AR1") == ("AR1: recall averaged over IoU 0.50 to 0.95, objects of every area, "
                                      "up to 1 detection per image")
    assert statistic_words("APl") == ("APl: precision averaged over IoU 0.50 to 0.95, large objects (over 96 x 96 "
                                      "pixels), up to 100 detections per image")
    assert statistic_words("AP75") == "AP75: precision at IoU 0.75, objects of every area, up to 100 detections per image"
    assert statistic_words("mAP") == "mAP" and statistic_words(None) == "statistic not stated"
    assert difference_header("ARm") == "{b} minus {a} (AR points)"
    assert difference_header("APm") == difference_header("mAP") == "{b} minus {a} (AP points)"


def test_the_quality_table_knows_every_statistic_collect_coco_records_in_its_order():
    # render's list of COCO statistics must not drift from the one the collector writes (collect/coco_eval.py)
    from studygen.collect.coco_eval import STAT_NAMES
    from studygen.render.quality import COCO_STATISTICS

    assert tuple(entry[0] for entry in COCO_STATISTICS) == STAT_NAMES
