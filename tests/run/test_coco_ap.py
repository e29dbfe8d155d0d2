"""COCO AP through collect run (CPU): detections on a small COCO-format image set, AP by pycocotools,
and the sharded path whose merged AP must equal the unsharded one."""

from __future__ import annotations

import json

import pytest

from studygen.records.load import load_dataset, load_record

from .conftest import TINY_STUDY, make_tiny_project, run_studygen

IMAGES = [("astronaut", 11), ("coffee", 12), ("chelsea", 13)]


def coco_project(tmp_path, study_text: str = TINY_STUDY):
    """``study_text`` (the tiny study) with three skimage photographs saved as PNG and one hand-made box each."""
    import numpy as np
    from PIL import Image

    from studygen.collect.run.images import load_photo

    study = study_text.replace("  agreement_set: held\n", "  agreement_set: held\n  coco_images: coco/images\n"
                               "  coco_annotations: coco/annotations.json\n  coco_dataset: tiny-coco\n"
                               "  coco_shape: \"64x96\"\n")
    root = make_tiny_project(tmp_path / "project", study)
    folder = root / "coco" / "images"
    folder.mkdir(parents=True)
    images, annotations = [], []
    for name, image_id in IMAGES:
        pixels = load_photo(name).pixels
        Image.fromarray(np.asarray(pixels)).save(folder / f"{name}.png")
        height, width = pixels.shape[:2]
        images.append({"id": image_id, "file_name": f"{name}.png", "height": height, "width": width})
        annotations.append({"id": image_id * 10, "image_id": image_id, "category_id": image_id % 5,
                            "bbox": [width / 4, height / 4, width / 2, height / 2], "area": width * height / 4,
                            "iscrowd": 0})
    document = {"images": images, "annotations": annotations,
                "categories": [{"id": i, "name": f"class{i}"} for i in range(5)]}
    (root / "coco" / "annotations.json").write_text(json.dumps(document), encoding="utf-8")
    return root


def pycocotools_ap(annotations_path, detections):
    """AP computed here, straight with pycocotools, independently of studygen's COCO code."""
    import contextlib
    import io

    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(str(annotations_path))
        dt = gt.loadRes([dict(d) for d in detections])
        evaluator = COCOeval(gt, dt, "bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return evaluator.stats


@pytest.fixture(scope="module")
def coco_root(tmp_path_factory):
    return coco_project(tmp_path_factory.mktemp("coco"))


def unsharded_record(root):
    """The unsharded AP run of fp32 (run once per module)."""
    path = root / "measurements" / "tiny" / "ap.json"
    if not path.exists():
        code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "ap",
                                    "--root", root, "--variants", "fp32", "--modes", "eager", "--shapes", "64x96",
                                    "--quiet")
        assert code == 0, output
    return load_record(path)


def test_ap_is_pycocotools_on_the_written_detections(coco_root):
    root = coco_root
    record = unsharded_record(root)
    ap = {r["statistic"]: r for r in record.results if r["kind"] == "coco_ap"}
    assert list(ap) == ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]
    detections_file = root / ap["AP"]["detections"]
    detections = json.loads(detections_file.read_text())
    # 10 queries x 5 classes = 50 candidates per image, all kept (top 100), every class id is a category
    assert len(detections) == 3 * 50 and "note" not in ap["AP"]
    assert {d["image_id"] for d in detections} == {11, 12, 13}
    stats = pycocotools_ap(root / "coco" / "annotations.json", detections)
    assert ap["AP"]["value"] == pytest.approx(float(stats[0]), abs=1e-12)
    assert ap["AR100"]["value"] == pytest.approx(float(stats[8]), abs=1e-12)
    assert ap["AP"]["dataset"] == "tiny-coco" and ap["AP"]["evaluator"].startswith("pycocotools")
    dataset = load_dataset(root / "measurements" / "tiny" / "datasets" / "tiny-coco.json")
    assert dataset.data["count"] == 3 and dataset.data["image_ids"] == [11, 12, 13]


def run_two_shards(root, job):
    """Shards 1/2 and 2/2 of fp32's detections for ``job``."""
    for shard in ("1/2", "2/2"):
        code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", job, "--root",
                                    root, "--variants", "fp32", "--modes", "eager", "--shapes", "64x96", "--shard",
                                    shard, "--quiet")
        assert code == 0, output


def test_sharded_detections_merge_into_the_same_ap(coco_root):
    root = coco_root
    run_two_shards(root, "apsplit")
    first = json.loads((root / "measurements" / "tiny" / "detections" / "apsplit" / "fp32.shard1of2.json").read_text())
    second = json.loads((root / "measurements" / "tiny" / "detections" / "apsplit" / "fp32.shard2of2.json").read_text())
    # three sorted ids in two contiguous slices: [11] and [12, 13]
    assert {d["image_id"] for d in first} == {11} and {d["image_id"] for d in second} == {12, 13}
    shard_record = load_record(root / "measurements" / "tiny" / "apsplit-shard1of2.json")
    [pending] = [r for r in shard_record.results if r["kind"] == "not_measured" and r["metric"] == "coco_ap"]
    assert "--merge-ap 2" in pending["reason"]
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "apsplit",
                                "--root", root, "--variants", "fp32", "--merge-ap", "2", "--quiet")
    assert code == 0, output
    merged_record = load_record(root / "measurements" / "tiny" / "apsplit-ap.json")
    assert shard_record.provenance["placement"]["shard"] == [1, 2]
    assert "placement" not in merged_record.provenance  # AP over all shards: no one shard's device
    assert merged_record.provenance["notes"][-1] == "COCO AP merged from the detections of 2 shards of job apsplit"
    merged = {r["statistic"]: r["value"] for r in merged_record.results}
    whole = {r["statistic"]: r["value"] for r in unsharded_record(root).results if r["kind"] == "coco_ap"}
    assert merged == whole  # same model, same images: AP over the merged shards equals AP over all images
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "apsplit",
                                "--root", root, "--variants", "fp32", "--merge-ap", "3", "--quiet")
    assert code == 2 and "no record of shard 1/3" in output


def test_half_a_coco_setting_is_refused(tmp_path):
    study = TINY_STUDY.replace("  calibration_set: cal\n", "  calibration_set: cal\n  coco_images: coco/images\n")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "x", "--root", root,
                                "--quiet")
    assert code == 2 and "families/tiny/study.yaml:/run/coco_annotations:" in output


def test_ground_truth_collect_coco_refuses_is_refused_before_any_model_is_built(tmp_path):
    # an annotation id 0: collect coco refuses it (COCOeval would count the perfect detection of that box as a
    # false positive); collect run reads the same ground truth through the same reader, up front
    root = coco_project(tmp_path)
    annotations = root / "coco" / "annotations.json"
    document = json.loads(annotations.read_text())
    document["annotations"][0]["id"] = 0
    annotations.write_text(json.dumps(document), encoding="utf-8")
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "bad", "--root",
                                root, "--variants", "fp32", "--modes", "eager", "--shapes", "64x96", "--quiet")
    assert code == 2
    assert output.startswith("studygen: coco/annotations.json:/annotations/0: 1 of 3 annotations have an id that is "
                             "not a positive integer"), output
    assert output.count("\n") == 1 and "Traceback" not in output
    assert not (root / "measurements" / "tiny" / "bad.json").exists()
    assert not (root / "measurements" / "tiny" / "datasets" / "tiny-coco.json").exists()


def test_merged_detections_get_the_refusals_of_collect_coco(coco_root):
    # shard detections replaced by the ground-truth boxes written as x1, y1, x2, y2: as x, y, w, h each covers
    # 4/9 of its box (IoU 0.44 < 0.5), as x1, y1, x2, y2 all 3 match, so the box-convention rule refuses them
    root = coco_root
    run_two_shards(root, "apxyxy")
    document = json.loads((root / "coco" / "annotations.json").read_text())
    boxes = [{"image_id": a["image_id"], "category_id": a["category_id"], "score": 0.9 - 0.1 * k,
              "bbox": [a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]]}
             for k, a in enumerate(document["annotations"])]
    folder = root / "measurements" / "tiny" / "detections" / "apxyxy"
    (folder / "fp32.shard1of2.json").write_text(json.dumps(boxes[:1]), encoding="utf-8")
    (folder / "fp32.shard2of2.json").write_text(json.dumps(boxes[1:]), encoding="utf-8")
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "apxyxy",
                                "--root", root, "--variants", "fp32", "--merge-ap", "2", "--quiet")
    assert code == 2, output
    assert ("refused before evaluating, rule box-convention: 3 of 3 detections of the 3 highest-scoring match a "
            "ground-truth box of their category (IoU >= 0.5) when read as x1, y1, x2, y2, 0 when read as x, y, w, h"
            ) in output, output
    assert output.count("\n") == 1 and not (root / "measurements" / "tiny" / "apxyxy-ap.json").exists()


def test_run_ap_results_carry_the_notes_of_collect_coco(tmp_path):
    # two images, one box each; both detections exact and tied at 0.5: AP 1, plus collect coco's warning (all
    # scores equal) and its tie note, after the stage's own note (its trailing "; " dropped)
    from studygen.collect.coco import load_ground_truth
    from studygen.collect.run.ap_stage import evaluate_ap
    from studygen.collect.run.coco_ap import CocoSetup

    document = {"images": [{"id": 1, "width": 100, "height": 80}, {"id": 2, "width": 100, "height": 80}],
                "categories": [{"id": 1}],
                "annotations": [{"id": k, "image_id": k, "category_id": 1, "bbox": [10, 10, 30, 20], "area": 600,
                                 "iscrowd": 0} for k in (1, 2)]}
    (tmp_path / "gt.json").write_text(json.dumps(document), encoding="utf-8")
    gt = load_ground_truth(tmp_path / "gt.json", "gt.json")
    found = [{"image_id": k, "category_id": 1, "bbox": [10, 10, 30, 20], "score": 0.5} for k in (1, 2)]
    setup = CocoSetup(images=tmp_path, annotations=tmp_path / "gt.json", dataset_id="two", shape="64x96",
                      ground_truth=gt)
    results = evaluate_ap(gt, found, "fp32", setup, "det/fp32.json", "3 detections named no category; ")
    assert results[0]["statistic"] == "AP" and results[0]["value"] == pytest.approx(1.0)
    assert results[0]["note"].startswith(
        "3 detections named no category; det/fp32.json: every detection has the score 0.5: AP ranks detections by "
        "score, so where true and false positives compete only the order of the files ranks them, not the model; "
        "2 of 2 scored detections share their score with another of their category")
    assert all(r["note"] == results[0]["note"] for r in results)
