"""COCO AP with tied scores (issue 22: a canonical order of our own gave AP50
0.698 on the cocoapi demo pair where pycocotools and faster-coco-eval give
0.697). The recorded figure is pycocotools' for the files as given; the
spread the order of tied scores allows is reported beside it, as the AP of
the worst and the best order.

The inputs are ours, built so that the order of tied scores moves AP: every
detection scores 0.5 or 0.25, some hit a ground-truth box, some miss. The
references are pycocotools and faster-coco-eval run here on the same files,
and, for the spread, pycocotools on every relabelling of the image ids
(with one detection per image, relabelling the images reaches every order
of the tied detections, since COCOeval ranks ties across images by id).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json

import pytest

from studygen.collect import coco, coco_eval

HIT, MISS = [10, 10, 40, 40], [60, 60, 30, 30]  # IoU 1 with the ground-truth box, and 0


def _truth(image_ids, with_box) -> dict:
    annotations = [{"id": n + 1, "image_id": i, "category_id": 1, "bbox": HIT, "area": 1600, "iscrowd": 0}
                   for n, i in enumerate(i for i in image_ids if i in with_box)]
    return {"images": [{"id": i, "width": 100, "height": 100} for i in image_ids],
            "annotations": annotations, "categories": [{"id": 1, "name": "thing"}]}


def _pycocotools(truth: dict, detections: list) -> list[float]:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        ground = COCO()
        ground.dataset = json.loads(json.dumps(truth))
        ground.createIndex()
        evaluator = COCOeval(ground, ground.loadRes(json.loads(json.dumps(detections))), "bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return [float(s) for s in evaluator.stats]


def _faster(truth: dict, detections: list) -> list[float]:
    from faster_coco_eval import COCO, COCOeval_faster

    with contextlib.redirect_stdout(io.StringIO()):
        ground = COCO(json.loads(json.dumps(truth)))
        evaluator = COCOeval_faster(ground, ground.loadRes(json.loads(json.dumps(detections))), iouType="bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return [float(s) for s in evaluator.stats[:12]]


def _files(folder, truth: dict, detections: list):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gt.json").write_text(json.dumps(truth))
    (folder / "dt.json").write_text(json.dumps(detections))
    return folder / "gt.json", folder / "dt.json"


def _ours(tmp_path, truth: dict, detections: list, backend: str = "pycocotools") -> coco.CocoEvaluation:
    return coco.evaluate_checked(coco.read_inputs(*_files(tmp_path, truth, detections)), backend)


# five images, one detection each, all scoring 0.5: three hits (images 2, 4, 5 have a box), two misses (1, 3);
# image 6 has a box and no detection (recall stops at 3 of 4)
ONE_PER_IMAGE_TRUTH = _truth([4, 1, 6, 2, 5, 3], with_box={2, 4, 5, 6})
ONE_PER_IMAGE = [{"image_id": i, "category_id": 1, "bbox": HIT if i in (2, 4, 5) else MISS, "score": 0.5}
                 for i in (3, 5, 1, 4, 2)]


def test_the_figures_are_the_reference_implementations_for_the_files_as_given(tmp_path):
    ours = _ours(tmp_path, ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE)
    reference = _pycocotools(ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE)
    assert [ours.stats[name] for name in coco_eval.STAT_NAMES] == pytest.approx(reference, abs=1e-12)
    assert [ours.stats[name] for name in coco_eval.STAT_NAMES] == pytest.approx(
        _faster(ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE), abs=1e-12)
    faster = _ours(tmp_path / "f", ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE, "faster-coco-eval")
    assert faster.stats["AP"] == pytest.approx(reference[0], abs=1e-12)


def test_the_tie_range_is_the_worst_and_best_order_of_the_tied_detections(tmp_path):
    ours = _ours(tmp_path, ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE)
    # every relabelling of the five detected images: every order of the five tied detections
    ids = [3, 5, 1, 4, 2]
    seen = []
    for relabelled in itertools.permutations(ids):
        mapping = dict(zip(ids, relabelled))
        truth = json.loads(json.dumps(ONE_PER_IMAGE_TRUTH))
        for image in truth["images"]:
            image["id"] = mapping.get(image["id"], image["id"])
        for annotation in truth["annotations"]:
            annotation["image_id"] = mapping.get(annotation["image_id"], annotation["image_id"])
        detections = [dict(d, image_id=mapping[d["image_id"]]) for d in ONE_PER_IMAGE]
        seen.append(_pycocotools(truth, detections))
    for index, name in enumerate(coco_eval.STAT_NAMES[:3]):
        values = [stats[index] for stats in seen]
        assert ours.tie_range[name] == pytest.approx((min(values), max(values)), abs=1e-12), name
        assert min(values) < max(values)  # the order moves each of them
        assert ours.tie_range[name][0] <= ours.stats[name] <= ours.tie_range[name][1]


def test_ties_inside_one_image_stay_in_the_range_and_the_file_order_decides(tmp_path):
    # each image: a miss and a hit tied at 0.5, in that order in the file; image 1 also has a sure hit
    truth = _truth([3, 1, 7, 5], with_box={1, 3, 5, 7})
    detections = [{"image_id": i, "category_id": 1, "bbox": box, "score": 0.5}
                  for i in (7, 3, 5, 1) for box in (MISS, HIT)]
    detections.append({"image_id": 1, "category_id": 1, "bbox": [12, 12, 40, 40], "score": 0.9})
    reference = _pycocotools(truth, detections)
    # through coco.evaluate, which an ordering of our own made 0.5901 here, where pycocotools gives 0.5446
    inputs = coco.read_inputs(*_files(tmp_path / "plain", truth, detections))
    assert coco.evaluate(inputs.gt, inputs.detections)["AP"] == pytest.approx(reference[0], abs=1e-12)
    assert reference[0] == pytest.approx(0.5445544554, abs=1e-9)
    ours = _ours(tmp_path, truth, detections)
    assert ours.stats["AP"] == pytest.approx(reference[0], abs=1e-12)
    # hits listed before misses in the file: another AP, also inside the range
    swapped = sorted(detections, key=lambda d: d["bbox"] == MISS)
    other = _pycocotools(truth, swapped)[0]
    assert other != pytest.approx(reference[0], abs=1e-6)
    low, high = ours.tie_range["AP"]
    assert low <= min(reference[0], other) and max(reference[0], other) <= high


def test_without_ties_there_is_no_range(tmp_path):
    detections = [dict(d, score=0.1 * (n + 1)) for n, d in enumerate(ONE_PER_IMAGE)]
    ours = _ours(tmp_path, ONE_PER_IMAGE_TRUTH, detections)
    assert ours.tie_range == {}
    assert ours.stats["AP"] == pytest.approx(_pycocotools(ONE_PER_IMAGE_TRUTH, detections)[0], abs=1e-12)
    assert not any("tied" in note or "order" in note for note in ours.notes)


def test_collect_coco_records_the_figure_and_its_tie_range(collect, workdir):
    (workdir / "gt.json").write_text(json.dumps(ONE_PER_IMAGE_TRUTH))
    (workdir / "dt.json").write_text(json.dumps(ONE_PER_IMAGE))
    done = collect("coco", "--annotations", workdir / "gt.json", "--detections", workdir / "dt.json", "--dataset",
                   "toy-6", "--variant", "fp16")
    assert done.exit_code == 0, done.err
    reference = _pycocotools(ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE)
    by_name = {r["statistic"]: r for r in done.results}
    assert by_name["AP"]["value"] == pytest.approx(reference[0], abs=1e-12)
    ours = _ours(workdir / "again", ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE)
    assert by_name["AP50"]["tie_order_range"] == {"min": ours.tie_range["AP50"][0], "max": ours.tie_range["AP50"][1]}
    assert "tie_order_range" not in by_name["AR100"]  # recall at 100 does not depend on the ranking
    notes = done.record["provenance"]["notes"]
    assert any(note.startswith("5 of 5 scored detections share their score") for note in notes), notes
    assert any("over the orders of the tied scores" in note and "AP50 " in note for note in notes), notes


def test_more_tied_detections_than_one_image_holds(tmp_path):
    # 120 images of one box each, one detection per image, all scoring 0.5: 60 exact (true positives) and 60
    # misses on the images that have no box. Best order: 60 hits first, precision 1 to recall 1: AP 1. Worst:
    # 60 misses first, precision 60/120 at every recall: AP 0.5. pycocotools reaches both by image ids.
    ids = list(range(1, 121))
    truth = _truth(ids, with_box=set(range(1, 61)))
    detections = [{"image_id": i, "category_id": 1, "bbox": HIT if i <= 60 else MISS, "score": 0.5} for i in ids]
    ours = _ours(tmp_path, truth, detections)
    assert ours.stats["AP"] == pytest.approx(_pycocotools(truth, detections)[0], abs=1e-12) == pytest.approx(1.0)
    flipped = {i: 121 - i for i in ids}  # the misses now come first by id
    worst_truth = _truth([flipped[i] for i in ids], with_box={flipped[i] for i in range(1, 61)})
    worst = _pycocotools(worst_truth, [dict(d, image_id=flipped[d["image_id"]]) for d in detections])
    assert worst[0] == pytest.approx(0.5, abs=1e-12)
    assert ours.tie_range["AP"] == pytest.approx((0.5, 1.0), abs=1e-12)


def test_a_category_without_ground_truth_stays_out_of_the_range(tmp_path):
    # category 2 is listed and detected (tied at 0.5) but has no box: COCOeval leaves it at -1, out of the mean
    truth = _truth([4, 1, 6, 2, 5, 3], with_box={2, 4, 5, 6})
    truth["categories"].append({"id": 2, "name": "other"})
    detections = ONE_PER_IMAGE + [{"image_id": 1, "category_id": 2, "bbox": HIT, "score": 0.5}]
    ours = _ours(tmp_path, truth, detections)
    alone = _ours(tmp_path / "alone", ONE_PER_IMAGE_TRUTH, ONE_PER_IMAGE)
    assert ours.stats["AP"] == pytest.approx(_pycocotools(truth, detections)[0], abs=1e-12)
    assert ours.tie_range["AP"] == pytest.approx(alone.tie_range["AP"], abs=1e-12)


# Images 1 and 2 hold a small box (20x20, area 400), images 3 and 4 a large one (the whole 100x100 image); every
# detection scores 0.5. The small-box images are a hit and a miss, so their order moves AP over all sizes and APs;
# the large-box images are two hits, which any order ranks alike, so APl stays 1 (no box is medium: APm is -1).
SMALL, SMALL_MISS, LARGE = [10, 10, 20, 20], [60, 60, 20, 20], [0, 0, 100, 100]
SIZED_TRUTH = {"images": [{"id": i, "width": 100, "height": 100} for i in (1, 2, 3, 4)],
               "annotations": [{"id": i, "image_id": i, "category_id": 1, "bbox": box, "area": box[2] * box[3],
                                "iscrowd": 0} for i, box in ((1, SMALL), (2, SMALL), (3, LARGE), (4, LARGE))],
               "categories": [{"id": 1, "name": "thing"}]}
SIZED = [{"image_id": i, "category_id": 1, "bbox": box, "score": 0.5}
         for i, box in ((1, SMALL), (2, SMALL_MISS), (3, LARGE), (4, LARGE))]


def _tie_note(notes: list[str]) -> str:
    [note] = [n for n in notes if "tied scores" in n and "share their score" not in n]
    return note


def test_the_tie_note_names_only_the_statistics_the_ties_move(tmp_path):
    # a trial's note read 'AP 0.4718 to 0.4718, AP50 0.8820 to 0.8820, ...': every AP statistic, moved or not
    ours = _ours(tmp_path, SIZED_TRUTH, SIZED)
    assert ours.tie_range["APl"] == (1.0, 1.0)
    assert ours.tie_range["APs"] == pytest.approx((0.2524752475, 0.5049504950), abs=1e-9)
    note = _tie_note(ours.notes)
    assert note.endswith("AP 0.5644 to 0.7525, AP50 0.5644 to 0.7525, AP75 0.5644 to 0.7525, APs 0.2525 to 0.5050")
    assert "APl" not in note and "APm" not in note


def test_ties_that_move_no_statistic_are_said_to_change_none(tmp_path):
    # the same images without the miss: three tied hits, whose order no AP statistic depends on
    hits = [d for d in SIZED if d["bbox"] != SMALL_MISS]
    ours = _ours(tmp_path, SIZED_TRUTH, hits)
    assert ours.tie_range and all(low == high for low, high in ours.tie_range.values())
    note = _tie_note(ours.notes)
    assert note.startswith("the tied scores change no statistic")
    assert " to " not in note


def test_a_move_below_the_fourth_decimal_is_printed_with_the_digits_that_show_it():
    note = coco.tie_range_note({"AP": (0.47181, 0.47183), "AP50": (0.8820, 0.8820), "APs": (-1.0, -1.0)})
    assert note.endswith("range as follows, the recorded figures being those of the files' own order: "
                         "AP 0.47181 to 0.47183")
