"""SG205 rule 3 in the study file's prose: a sentence quoting quality figures
that no one image set gives together (new-user trial: fp16 AP on a 2-image
set, fp32 AP on a 4-image set, and a decision summary "AP 0.8020 against
0.7690 for fp32 on the validation images" passed check). Figures made up."""

from __future__ import annotations

from studygen.checks import CheckContext, sg205_datasets

from .studies import DEFAULT_DATASETS, coco_ap, codes, dataset, load, record, spec

DATASETS = {"calib-4": DEFAULT_DATASETS["calib-4"], "mnist-val": dataset("mnist-val", "evaluation", 2, ids=[11, 12]),
            "mnist-val-4": dataset("mnist-val-4", "evaluation", 4, ids=[11, 12, 13, 14])}
MIXED = [record("a", [coco_ap("fp16", 0.8020, dataset="mnist-val")]),
         record("b", [coco_ap("fp32", 0.7690, dataset="mnist-val-4"), coco_ap("fp16", 0.7941, dataset="mnist-val-4")])]


def _prose_findings(tmp_path, summary: str, records=MIXED, **study):
    decision = {"shipped": True, "summary": summary}
    loaded = load(tmp_path, records=records, datasets=DATASETS, study=spec(decision=decision, **study))
    return [f for f in codes(sg205_datasets.check(CheckContext(loaded)), "SG205") if f.file == "families/toy/study.yaml"]


def test_a_summary_comparing_figures_of_two_image_sets_is_an_error(tmp_path):
    findings = _prose_findings(tmp_path, "fp16 ships: AP 0.8020 against 0.7690 for fp32 on the validation images.")
    assert [(f.pointer, f.line) for f in findings] == [("/decision/summary", 26)]  # the line safe_dump writes it on
    assert findings[0].key == "/decision/summary 0.8020 0.7690"  # what a waiver matches, figures and all
    assert findings[0].message == (
        "/decision/summary compares quality figures from different image sets: 0.8020: fp16 on mnist-val (2 images, "
        "job a); 0.7690: fp32 on mnist-val-4 (4 images, job b): "
        '"fp16 ships: AP 0.8020 against 0.7690 for fp32 on the validation images"')


def test_figures_in_points_are_read_too(tmp_path):
    findings = _prose_findings(tmp_path, "fp16 loses nothing: 80.2 AP points against 76.9 for fp32.")
    assert [f.pointer for f in findings] == ["/decision/summary"]
    assert "80.2: fp16 on mnist-val (2 images, job a); 76.9: fp32 on mnist-val-4 (4 images, job b)" in findings[0].message


def test_figures_one_set_gives_together_or_each_set_named_pass(tmp_path):
    # 0.7941 and 0.7690 are both on mnist-val-4; 0.8020 is named with its set
    assert _prose_findings(tmp_path / "a", "On the 4 images fp16 gives AP 0.7941 against 0.7690 for fp32.") == []
    assert _prose_findings(tmp_path / "b", "AP 0.8020 on mnist-val against 0.7690 on mnist-val-4.") == []
    # a figure no row gives says nothing of its set; one figure alone compares nothing
    assert _prose_findings(tmp_path / "c", "AP 0.8020 for fp16, where the paper reports AP 0.4321.") == []
    # an explanation of the mix is no comparison to report
    explanations = [{"code": "SG205", "match": "different", "text": "AP 0.8020 on 2 images against 0.7690 on 4."}]
    assert _prose_findings(tmp_path / "d", "fp16 ships.", explanations=explanations) == []


def test_one_image_set_in_the_records_reads_no_prose(tmp_path):
    records = [record("b", [coco_ap("fp32", 0.7690, dataset="mnist-val-4"), coco_ap("fp16", 0.8020, dataset="mnist-val-4")])]
    assert _prose_findings(tmp_path, "AP 0.8020 against 0.7690 for fp32.", records=records) == []
