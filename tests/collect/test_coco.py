"""``studygen collect coco``: AP by pycocotools on small ground-truth and
detection files built here; expected values reasoned out by hand."""

from __future__ import annotations

import json
import random

import pytest

from studygen.collect import coco
from studygen.digests import image_ids_sha256
from studygen.errors import InputError

STATS = ("AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl")


def box(image_id, x, y, w, h, category=1, index=[0]):
    index[0] += 1
    return {"id": index[0], "image_id": image_id, "category_id": category, "bbox": [x, y, w, h], "area": w * h,
            "iscrowd": 0}


def write(path, document):
    path.write_text(json.dumps(document))
    return path


def ground_truth(workdir, annotations, images=(1, 2), categories=(1, 3), size=(640, 480)):
    return write(workdir / "gt.json", {
        "images": [{"id": i, "width": size[0], "height": size[1], "file_name": f"{i:012d}.jpg"} for i in images],
        "categories": [{"id": c, "name": f"c{c}"} for c in categories],
        "annotations": annotations})


def detections_of(annotations, score=0.9):
    return [{"image_id": a["image_id"], "category_id": a["category_id"], "bbox": list(a["bbox"]), "score": score}
            for a in annotations]


def coco_values(done):
    return {r["statistic"]: r["value"] for r in done.kind("coco_ap")}


def test_perfect_detections_give_ap_1(collect, workdir):
    # one small (20x20 = 400 < 32²), one medium (50x50), one large (100x100) box, one per image so that
    # AR1 (one detection per image) can reach 1: every statistic is 1 (up to pycocotools' float sums)
    annotations = [box(1, 10, 10, 20, 20), box(2, 200, 200, 50, 50), box(3, 300, 100, 100, 100, category=3)]
    gt = ground_truth(workdir, annotations, images=(1, 2, 3))
    dt = write(workdir / "dt.json", detections_of(annotations))
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val-tiny", "--variant", "fp16")
    assert done.exit_code == 0, done.err
    values = coco_values(done)
    assert values == pytest.approx(dict.fromkeys(STATS, 1.0), abs=1e-12)
    first = done.kind("coco_ap")[0]
    assert first["dataset"] == "val-tiny" and first["evaluator"].startswith("pycocotools ")
    assert [r["statistic"] for r in done.kind("coco_ap")] == list(STATS)
    assert done.record["provenance"]["software"]["pycocotools"] == coco.backend_version("pycocotools")


def test_shifted_box_gives_the_ap_of_its_iou(collect, workdir):
    # GT 100x100 at (300, 300); detection shifted 20 px right: IoU = 80*100 / (2*10000 - 8000) = 2/3.
    # TP at the IoU thresholds 0.50, 0.55, 0.60, 0.65 (4 of 10) → AP = 0.4, AP50 = 1, AP75 = 0;
    # area 10000 > 96² → large; no small or medium ground truth → -1; recall 1 at 4 thresholds → AR 0.4.
    gt_box = box(1, 300, 300, 100, 100)
    gt = ground_truth(workdir, [gt_box])
    dt = write(workdir / "dt.json", [{"image_id": 1, "category_id": 1, "bbox": [320, 300, 100, 100], "score": 0.8}])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val-tiny")
    assert done.exit_code == 0, done.err
    values = coco_values(done)
    assert values["AP"] == pytest.approx(0.4, abs=1e-12)
    assert values["AP50"] == pytest.approx(1.0, abs=1e-12) and values["AP75"] == 0.0
    assert (values["APs"], values["APm"]) == (-1.0, -1.0)
    assert values["APl"] == pytest.approx(0.4, abs=1e-12)
    assert values["AR1"] == values["AR100"] == pytest.approx(0.4, abs=1e-12)


def test_one_exact_one_shifted_box(collect, workdir):
    # Two GT boxes; the exact detection scores higher. Thresholds ≤ 0.65: both TP → precision 1 to recall 1.
    # Thresholds ≥ 0.70: TP then FP → precision 1 up to recall 0.5, nothing beyond: 51 of the 101 recall
    # points (0.00 … 0.50) have precision 1. AP = (4 · 1 + 6 · 51/101) / 10.
    annotations = [box(1, 0, 0, 100, 100), box(1, 300, 300, 100, 100)]
    gt = ground_truth(workdir, annotations)
    dt = write(workdir / "dt.json", [{"image_id": 1, "category_id": 1, "bbox": [0, 0, 100, 100], "score": 0.9},
                                     {"image_id": 1, "category_id": 1, "bbox": [320, 300, 100, 100], "score": 0.8}])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val-tiny")
    assert done.exit_code == 0, done.err
    values = coco_values(done)
    assert values["AP"] == pytest.approx((4 + 6 * 51 / 101) / 10, abs=1e-7)
    assert values["AP75"] == pytest.approx(51 / 101, abs=1e-7)
    assert values["AR1"] == 0.5  # one detection per image: recall 0.5 at every threshold
    assert values["AR10"] == pytest.approx(0.7, abs=1e-12)  # (4 · 1 + 6 · 0.5) / 10


@pytest.mark.parametrize("backend", ["pycocotools", "faster-coco-eval"])
def test_empty_detections_give_ap_0(collect, workdir, backend):
    gt = ground_truth(workdir, [box(1, 300, 300, 100, 100)])
    dt = write(workdir / "dt.json", [])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val-tiny", "--backend", backend)
    assert done.exit_code == 0, done.err
    values = coco_values(done)
    assert values["AP"] == 0.0 and values["AR100"] == 0.0 and values["APl"] == 0.0
    assert values["APs"] == -1.0  # no small ground truth
    assert any("holds no detection" in n for n in done.record["provenance"]["notes"])


def random_case(seed=7):
    """20 images, 3 categories, jittered and missing boxes, false positives."""
    rng = random.Random(seed)
    annotations, detections = [], []
    for image in range(1, 21):
        for _ in range(rng.randint(1, 5)):
            w, h = rng.uniform(8, 200), rng.uniform(8, 200)
            x, y = rng.uniform(0, 640 - w), rng.uniform(0, 480 - h)
            category = rng.choice((1, 2, 5))
            annotations.append(box(image, round(x, 2), round(y, 2), round(w, 2), round(h, 2), category=category))
            if rng.random() < 0.85:
                jitter = [rng.gauss(0, 6) for _ in range(4)]
                detections.append({"image_id": image, "category_id": category,
                                   "bbox": [round(x + jitter[0], 2), round(y + jitter[1], 2),
                                            round(max(1.0, w + jitter[2]), 2), round(max(1.0, h + jitter[3]), 2)],
                                   "score": round(rng.random(), 4)})
        for _ in range(rng.randint(0, 2)):
            detections.append({"image_id": image, "category_id": rng.choice((1, 2, 5)),
                               "bbox": [round(rng.uniform(0, 500), 2), round(rng.uniform(0, 350), 2), 40.0, 30.0],
                               "score": round(rng.random() * 0.5, 4)})
    return annotations, detections


def test_faster_coco_eval_agrees_with_pycocotools(workdir):
    annotations, detections = random_case()
    gt_path = ground_truth(workdir, annotations, images=range(1, 21), categories=(1, 2, 5))
    gt = coco.load_ground_truth(gt_path)
    reference = coco.evaluate(gt, detections, "pycocotools")
    faster = coco.evaluate(gt, detections, "faster-coco-eval")
    assert 0.3 < reference["AP"] < 0.95  # a case with real misses and false positives
    for name in STATS:
        assert abs(reference[name] - faster[name]) <= 1e-4, name


def test_evaluate_leaves_inputs_untouched(workdir):
    annotations, detections = random_case(3)
    gt = coco.load_ground_truth(ground_truth(workdir, annotations, images=range(1, 21), categories=(1, 2, 5)))
    before = json.dumps(detections)
    coco.evaluate(gt, detections, "pycocotools")
    coco.evaluate(gt, detections, "faster-coco-eval")
    assert json.dumps(detections) == before


def test_pycocotools_output_is_silenced(collect, workdir):
    annotations = [box(1, 10, 10, 50, 50)]
    gt = ground_truth(workdir, annotations)
    dt = write(workdir / "dt.json", detections_of(annotations))
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 0
    # pycocotools prints "index created!" and the "Average Precision (AP) @[ …" table with print()
    assert "Average Precision" not in done.out + done.err
    assert "index created" not in done.out + done.err
    assert done.out.splitlines()[0].startswith("wrote measurements/demo/job1.json: 12 result(s) added")


# --- refusals -------------------------------------------------------------------

def refused(done, rule, count, total, index):
    assert done.exit_code == 2, done.out
    assert f"refused before evaluating, rule {rule}: {count} of {total} detections" in done.err
    assert f"e.g. detection {index}: " in done.err
    assert done.err.count("\n") == 1
    assert not done.path.exists()
    assert not (done.measurements / "demo" / "datasets").exists()


def test_refuse_image_ids_not_in_annotations(collect, workdir):
    gt = ground_truth(workdir, [box(1, 10, 10, 50, 50)])
    dt = write(workdir / "dt.json", [{"image_id": 1, "category_id": 1, "bbox": [10, 10, 50, 50], "score": 0.9},
                                     {"image_id": 99, "category_id": 1, "bbox": [10, 10, 50, 50], "score": 0.9}])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    refused(done, "image-ids", 1, 2, 1)
    assert '"image_id": 99' in done.err and "dt.json:/1:" in done.err


def test_refuse_contiguous_category_labels(collect, workdir):
    gt = ground_truth(workdir, [box(1, 10, 10, 50, 50)], categories=(1, 3))
    dt = write(workdir / "dt.json", [{"image_id": 1, "category_id": c, "bbox": [10, 10, 50, 50], "score": 0.9}
                                     for c in (0, 1, 2)])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    refused(done, "category-ids", 2, 3, 0)
    assert "contiguous 0-based labels instead of the annotations' category ids?" in done.err


def test_refuse_negative_width_or_height(collect, workdir):
    gt = ground_truth(workdir, [box(1, 10, 10, 50, 50)])
    dt = write(workdir / "dt.json", [{"image_id": 1, "category_id": 1, "bbox": [10, 10, 50, 50], "score": 0.9},
                                     {"image_id": 1, "category_id": 1, "bbox": [60, 60, 50, -5], "score": 0.5}])
    refused(collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d"), "negative-size", 1, 2, 1)


def test_refuse_normalized_boxes(collect, workdir):
    # YOLO's normalised centre boxes: read as cx, cy, w, h times 640 x 480, the first is (6.4, 4.8, 51.2, 48), IoU 0.70
    # with the ground-truth box; the second sits on image 2, which has no ground truth
    gt = ground_truth(workdir, [box(1, 10, 10, 50, 50)])
    dt = write(workdir / "dt.json", [{"image_id": 1, "category_id": 1, "bbox": [0.05, 0.06, 0.08, 0.1], "score": 0.9},
                                     {"image_id": 2, "category_id": 1, "bbox": [0.5, 0.5, 0.2, 0.3], "score": 0.4}])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    refused(done, "box-convention", 1, 2, 0)
    assert "when read as centre x, centre y, w, h normalised to the image size (YOLO), 0 when read as x, y, w, h" in done.err


def test_refuse_xyxy_passed_as_xywh(collect, workdir):
    # three boxes written as x1, y1, x2, y2: each matches its ground truth exactly that way, none as x, y, w, h
    # (read as x, y, w, h the first is 210 x 140 px over a 60 x 40 box: IoU 0.08)
    annotations = [box(1, 150, 100, 60, 40), box(1, 300, 200, 100, 80), box(2, 120, 90, 50, 50)]
    gt = ground_truth(workdir, annotations)
    xyxy = [[x, y, x + w, y + h] for x, y, w, h in (a["bbox"] for a in annotations)]
    dt = write(workdir / "dt.json", [{"image_id": a["image_id"], "category_id": 1, "bbox": b, "score": 0.9}
                                     for a, b in zip(annotations, xyxy)])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    refused(done, "box-convention", 3, 3, 0)
    assert "when read as x1, y1, x2, y2, 0 when read as x, y, w, h" in done.err
    assert done.err.rstrip().endswith("(convert to x, y, w, h: w = x2 - x1, h = y2 - y1)")


def test_boxes_slightly_past_the_border_are_accepted(collect, workdir):
    # 1 of 10 boxes (10 %, not more) reaches past the border by more than 5 %; others within: accepted
    annotations = [box(1, 10 + 40 * i, 10, 30, 30) for i in range(10)]
    gt = ground_truth(workdir, annotations)
    detections = detections_of(annotations)
    detections[0]["bbox"] = [600, 10, 80, 30]  # x + w = 680 > 640 · 1.05 = 672
    dt = write(workdir / "dt.json", detections)
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 0, done.err


# --- dataset definitions ----------------------------------------------------------

def test_dataset_definition_written_then_verified(collect, workdir):
    annotations = [box(139, 10, 10, 50, 50), box(285, 30, 30, 40, 40)]
    gt = ground_truth(workdir, annotations, images=(139, 285, 632))
    dt = write(workdir / "dt.json", [])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val2017-3", "--split", "val2017",
                   "--dataset-source", "COCO 2017 validation images", job="fp16")
    assert done.exit_code == 0, done.err
    definition = json.loads((done.measurements / "demo" / "datasets" / "val2017-3.json").read_text())
    assert definition["count"] == 3 and definition["image_ids"] == [139, 285, 632]
    assert definition["image_ids_sha256"] == image_ids_sha256([632, 139, 285])
    import hashlib

    assert definition["image_ids_sha256"] == hashlib.sha256(b"139\n285\n632\n").hexdigest()
    assert definition["split"] == "val2017" and definition["source"] == "COCO 2017 validation images"
    again = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val2017-3", job="fp8")
    assert again.exit_code == 0, again.err
    assert "verified measurements/demo/datasets/val2017-3.json: 3 images match" in again.out
    other = ground_truth(workdir, annotations, images=(139, 285, 633))
    mismatch = collect("coco", "--annotations", other, "--detections", dt, "--dataset", "val2017-3", job="int8")
    assert mismatch.exit_code == 2
    assert "val2017-3.json:/image_ids_sha256: dataset val2017-3 image_ids_sha256" in mismatch.err
    assert not mismatch.path.exists()
    fewer = ground_truth(workdir, annotations, images=(139, 285))
    count = collect("coco", "--annotations", fewer, "--detections", dt, "--dataset", "val2017-3", job="int8")
    assert count.exit_code == 2 and "dataset val2017-3 has 3 images but" in count.err and "lists 2" in count.err


def test_same_statistic_twice_is_a_conflict(collect, workdir):
    annotations = [box(1, 10, 10, 50, 50)]
    gt = ground_truth(workdir, annotations)
    dt = write(workdir / "dt.json", detections_of(annotations))
    assert collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d").exit_code == 0
    same = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert same.exit_code == 0 and "nothing new, the record is unchanged" in same.out  # the same inputs again
    other = write(workdir / "dt.json", detections_of([box(1, 14, 12, 50, 50)]))  # IoU 0.79: AP 0.6, not 1
    again = collect("coco", "--annotations", gt, "--detections", other, "--dataset", "d")
    assert again.exit_code == 2
    assert "coco_ap coco AP, variant unnamed, dataset d from dt.json (AP) is already recorded at" in again.err


@pytest.mark.parametrize("content, message", [
    ('{"images": []', "gt.json:1: malformed JSON"),
    ('{"images": [], "annotations": [], "categories": []}', "gt.json:/images: the annotations list no image"),
    ('{"annotations": [], "categories": []}', 'gt.json:/images: no "images" list'),
])
def test_bad_ground_truth(collect, workdir, content, message):
    gt = workdir / "gt.json"
    gt.write_text(content)
    dt = write(workdir / "dt.json", [])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 2 and message in done.err
    assert not done.path.exists()


@pytest.mark.parametrize("annotation, message", [
    ({"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 1, 2, 2], "iscrowd": 0},
     "gt.json:/annotations/0/area: annotation without a numeric area"),
    ({"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 1, 2, 2], "area": 4},
     "gt.json:/annotations/0/iscrowd: annotation without iscrowd 0 or 1"),
    ({"id": 1, "image_id": 7, "category_id": 1, "bbox": [1, 1, 2, 2], "area": 4, "iscrowd": 0},
     "gt.json:/annotations/0/image_id: image_id 7 is not among the images"),
])
def test_ground_truth_annotation_fields(collect, workdir, annotation, message):
    gt = write(workdir / "gt.json", {"images": [{"id": 1, "width": 10, "height": 10}], "categories": [{"id": 1}],
                                     "annotations": [annotation]})
    dt = write(workdir / "dt.json", [])
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 2 and message in done.err, done.err


@pytest.mark.parametrize("content, message", [
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3], "score": 0.5}]', "dt.json:/0/bbox: bbox must be 4 numbers"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4]}]', "dt.json:/0: detection without score"),
    ('{"annotations": []}', "dt.json: expected a JSON array of detections"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5}', "dt.json:1: malformed JSON"),
])
def test_bad_detections(collect, workdir, content, message):
    gt = ground_truth(workdir, [box(1, 10, 10, 50, 50)])
    dt = workdir / "dt.json"
    dt.write_text(content)
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 2 and message in done.err, done.err
    assert not done.path.exists()


def test_results_carry_every_label_given(workdir):
    gt = coco.load_ground_truth(ground_truth(workdir, [box(1, 10, 10, 50, 40)]), "gt.json")
    stats = dict.fromkeys(STATS, 0.5)
    [first, *rest] = coco.build_results(stats, variant="fp8", dataset="val", backend="pycocotools", shape="800x1333",
                                        batch=2, inference_backend="tensorrt", mode="engine", origin="dt.json",
                                        note="a note")
    evaluator = f"pycocotools {coco.backend_version('pycocotools')} COCOeval bbox"
    assert first.result == {"kind": "coco_ap", "variant": "fp8", "shape": "800x1333", "batch": 2, "backend": "tensorrt",
                            "mode": "engine", "dataset": "val", "statistic": "AP", "value": 0.5,
                            "evaluator": evaluator, "note": "a note"}
    assert first.origin == "dt.json (AP)" and [r.result["statistic"] for r in rest] == list(STATS[1:])
    bare = coco.build_results(stats, variant="fp32", dataset="val", backend="pycocotools", shape=None, batch=None,
                              inference_backend=None, mode=None, origin="dt.json")[0].result
    assert bare == {"kind": "coco_ap", "variant": "fp32", "dataset": "val", "statistic": "AP", "value": 0.5,
                    "evaluator": evaluator}
    assert gt.image_ids == [1, 2]


def test_result_dicts_are_refused_under_the_name_given(workdir):
    # collect run checks its model's detections as a list of dicts, named by the file they were written to
    gt = coco.load_ground_truth(ground_truth(workdir, [box(1, 10, 10, 50, 40)]), "gt.json")
    bad = [{"image_id": 1, "category_id": 1, "bbox": [10, 10, 50, 40], "score": 0.9},
           {"image_id": 1, "category_id": 1, "bbox": [10, 10, 50], "score": 0.8}]
    for call, name in ((lambda: coco.checked_inputs(gt, bad, "run/fp32.json"), "run/fp32.json"),
                       (lambda: coco.check_detections(gt, bad, "run/fp32.json"), "run/fp32.json"),
                       (lambda: coco.evaluate(gt, bad), "detections")):
        with pytest.raises(InputError) as caught:
            call()
        assert str(caught.value).startswith(f"{name}:/1/bbox: bbox must be 4 numbers"), str(caught.value)


def test_checked_inputs_keep_the_ground_truth_warnings(workdir):
    annotations = [box(1, 10, 10, 50, 40), box(2, 30, 30, 20, 20)]
    annotations[1]["score"] = 0.5  # one of two: a warning, not a refusal
    gt = coco.load_ground_truth(ground_truth(workdir, annotations), "gt.json")
    inputs = coco.checked_inputs(gt, detections_of(annotations), "dt.json")
    assert inputs.warnings == ["gt.json: 1 of 2 annotations carry a score (first at /annotations/1); COCOeval ignores "
                               "it in ground truth"]
    stats, notes, warnings = coco.evaluate_inputs(inputs)
    assert stats["AP"] == pytest.approx(1.0)
    assert warnings == ["dt.json: every detection has the score 0.9: AP ranks detections by score, so where true and "
                        "false positives compete only the order of the files ranks them, not the model"]
    # the tie note, and what the ties move: both detections are exact, so every order gives AP 1 and nothing moves
    assert len(notes) == 2 and notes[0].startswith("2 of 2 scored detections share their score with another of their "
                                                   "category")
    assert notes[1] == ("the tied scores change no statistic: every AP statistic is the same in the worst and the best "
                        "order of the tied detections (each image's matches as COCOeval made them)")
