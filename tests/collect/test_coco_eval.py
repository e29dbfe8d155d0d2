"""COCOeval over columns (issue 13, COCO items 4-7; issue 22): the figures
are pycocotools' run the plain way on the files as given, ties included
(issue 22 replaced a canonical order of our own, which moved AP50 by 0.001
on the cocoapi demo pair); the order of tied scores is a range reported
beside them; maxDets is counted; faster-coco-eval gets the same inputs
(string ids included) and agrees within 1e-4; evaluating in chunks changes
nothing."""

from __future__ import annotations

import contextlib
import copy
import io
import random

import numpy as np
import pytest

from studygen.collect import coco_detections, coco_eval, coco_truth
from tests.collect.coco_build import STATS, annotation, document, numbered, perfect, write


def load(tmp_path, doc, dets):
    gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    return gt, coco_detections.read_detections(write(tmp_path / "dt.json", dets), gt, "dt.json")


def plain_pycocotools(doc, dets) -> dict:
    """pycocotools as its demo runs it: COCO, loadRes, COCOeval over everything at once."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        coco_gt = COCO()
        coco_gt.dataset = copy.deepcopy(doc)
        coco_gt.createIndex()
        evaluator = COCOeval(coco_gt, coco_gt.loadRes(copy.deepcopy(dets)), "bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return dict(zip(STATS, (float(v) for v in evaluator.stats)))


def random_case(seed, images=25, categories=(1, 2, 5, 9), score_digits=6):
    """Jittered, missed and false-positive boxes; scores with ``score_digits`` decimals (1: many ties)."""
    rng = random.Random(seed)
    annotations, dets = [], []
    for image in range(1, images + 1):
        for _ in range(rng.randint(1, 6)):
            w, h = rng.uniform(6, 220), rng.uniform(6, 200)
            x, y = rng.uniform(0, 640 - w), rng.uniform(0, 480 - h)
            category = rng.choice(categories)
            annotations.append(annotation(len(annotations) + 1, image, round(x, 2), round(y, 2), round(w, 2),
                                          round(h, 2), category, iscrowd=int(rng.random() < 0.05)))
            if rng.random() < 0.8:
                jitter = [rng.gauss(0, 5) for _ in range(4)]
                dets.append({"image_id": image, "category_id": category,
                             "bbox": [round(x + jitter[0], 2), round(y + jitter[1], 2), round(max(1, w + jitter[2]), 2),
                                      round(max(1, h + jitter[3]), 2)], "score": round(rng.random(), score_digits)})
        for _ in range(rng.randint(0, 3)):
            dets.append({"image_id": image, "category_id": rng.choice(categories),
                         "bbox": [round(rng.uniform(0, 560), 2), round(rng.uniform(0, 400), 2), 50.0, 40.0],
                         "score": round(rng.random() * 0.6, score_digits)})
    return document(annotations, images=range(1, images + 1), categories=categories), dets


def unique_scores(dets):
    return len({(d["category_id"], d["score"]) for d in dets}) == len(dets)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_without_ties_the_figures_are_plain_pycocotools(tmp_path, seed):
    doc, dets = random_case(seed)
    assert unique_scores(dets)
    reference = plain_pycocotools(doc, dets)
    assert 0.2 < reference["AP"] < 0.9 and reference["APs"] > -1  # misses, false positives, small boxes
    gt, table = load(tmp_path, doc, dets)
    assert coco_eval.evaluate(gt, table) == reference  # exactly: the same library, the same floats
    assert coco_eval.evaluate(gt, table, chunk_objects=7) == reference


@pytest.mark.parametrize("seed", [1, 4])
def test_faster_coco_eval_agrees_within_1e_4(tmp_path, seed):
    doc, dets = random_case(seed, score_digits=2)  # ties included
    gt, table = load(tmp_path, doc, dets)
    reference = coco_eval.evaluate(gt, table, "pycocotools")
    faster = coco_eval.evaluate(gt, table, "faster-coco-eval")
    assert all(abs(reference[name] - faster[name]) <= 1e-4 for name in STATS), (reference, faster)


def renumbered(doc, dets, mapping):
    doc = copy.deepcopy(doc)
    for image in doc["images"]:
        image["id"] = mapping[image["id"]]
    for ann in doc["annotations"]:
        ann["image_id"] = mapping[ann["image_id"]]
    return doc, [dict(d, image_id=mapping[d["image_id"]]) for d in dets]


def test_every_order_and_numbering_gives_plain_pycocotools_inside_its_tie_range(tmp_path):
    # scores with one decimal: hundreds of ties, so plain pycocotools moves with the order (checked below)
    doc, dets = random_case(5, images=30, score_digits=1)
    assert not unique_scores(dets)
    rng = random.Random(0)
    plain = set()
    for trial in range(5):
        ids = list(range(1, 31))
        shuffled = ids[:]
        rng.shuffle(shuffled)
        mapping = dict(zip(ids, shuffled if trial % 2 else [f"img-{v:03d}" for v in shuffled]))
        other_doc, other_dets = renumbered(doc, dets, mapping) if trial else (doc, dets)
        if trial:
            rng.shuffle(other_dets)
            rng.shuffle(other_doc["images"])
            rng.shuffle(other_doc["annotations"])
        gt, table = load(tmp_path, other_doc, other_dets)
        evaluation = coco_eval.evaluation(gt, table)
        reference = plain_pycocotools(other_doc, other_dets)
        assert evaluation.stats == pytest.approx(reference, abs=1e-12)
        assert coco_eval.evaluate(gt, table, "faster-coco-eval")["AP"] == pytest.approx(reference["AP"], abs=1e-4)
        for name, (low, high) in evaluation.tie_range.items():
            assert low <= reference[name] + 1e-12 and reference[name] <= high + 1e-12, name
        plain.add(round(reference["AP"], 12))
    assert len(plain) > 1  # the case is one where the order matters to plain pycocotools


def two_ties_case(tp_first_in_file: bool = True):
    # two images of one 100 x 100 box each; two detections with the score 0.5: the exact box on image 1 (a true
    # positive) and a box far off on image 2 (a false positive)
    doc = document(numbered([(1, 100, 100, 100, 100), (2, 300, 200, 100, 100)]), images=(1, 2), categories=(1,))
    tp = {"image_id": 1, "category_id": 1, "bbox": [100, 100, 100, 100], "score": 0.5}
    fp = {"image_id": 2, "category_id": 1, "bbox": [10, 10, 30, 30], "score": 0.5}
    return doc, [tp, fp] if tp_first_in_file else [fp, tp]


def test_ties_across_images_follow_the_image_ids(tmp_path):
    # ranked TP then FP: precision 1 up to recall 0.5 → AP = 51/101 = 0.50495 (recall points 0 … 0.5);
    # ranked FP then TP: precision 0.5 → AP = 0.5 · 51/101 = 0.25248. COCOeval ranks the tie by image id, so
    # swapping the two images' ids flips its AP between the two; the file order does not matter to it.
    swap = {1: 2, 2: 1}
    for tp_first in (True, False):
        for mapping, expected in (({1: 1, 2: 2}, 51 / 101), (swap, 0.5 * 51 / 101), ({1: "b", 2: "a"}, 0.5 * 51 / 101)):
            case = renumbered(*two_ties_case(tp_first), mapping)
            gt, table = load(tmp_path, *case)
            evaluation = coco_eval.evaluation(gt, table)
            assert evaluation.stats["AP"] == pytest.approx(expected, abs=1e-12)
            assert plain_pycocotools(*case)["AP"] == pytest.approx(expected, abs=1e-12)
            # whatever the order: the worst and the best the tie allows
            assert evaluation.tie_range["AP"] == pytest.approx((0.5 * 51 / 101, 51 / 101), abs=1e-12)


def test_ties_in_one_image_follow_the_file_order(tmp_path):
    # one image, two boxes; two detections with the score 0.7: the exact box at x = 300 (TP) and a false positive
    # at x = 20. COCOeval keeps the file's order among them: TP first gives 51/101, FP first 0.5 · 51/101.
    doc = document(numbered([(1, 300, 200, 100, 100), (1, 100, 50, 60, 60)]), images=(1,), categories=(1,))
    tp = {"image_id": 1, "category_id": 1, "bbox": [300, 200, 100, 100], "score": 0.7}
    fp = {"image_id": 1, "category_id": 1, "bbox": [20, 400, 30, 30], "score": 0.7}
    for order, expected in (([tp, fp], 51 / 101), ([fp, tp], 0.5 * 51 / 101)):
        assert plain_pycocotools(doc, order)["AP"] == pytest.approx(expected, abs=1e-12)
        gt, table = load(tmp_path, doc, order)
        evaluation = coco_eval.evaluation(gt, table)
        assert evaluation.stats["AP"] == pytest.approx(expected, abs=1e-12)
        assert evaluation.tie_range["AP"] == pytest.approx((0.5 * 51 / 101, 51 / 101), abs=1e-12)


def test_ties_are_noted(tmp_path):
    gt, table = load(tmp_path, *two_ties_case())
    prepared = coco_eval.prepare(gt, table)
    assert prepared.notes[0] == ("2 of 2 scored detections share their score with another of their category; COCOeval "
                                 "ranks tied detections in the file's order within an image and by image id across "
                                 "images, and the figures are its figures for the files as given")
    assert prepared.warnings == ["dt.json: every detection has the score 0.5: AP ranks detections by score, so where true "
                                 "and false positives compete only the order of the files ranks them, not the model"]


def test_no_ties_no_note(tmp_path):
    doc = document(numbered([(1, 100, 100, 100, 100), (2, 300, 200, 100, 100)]), images=(1, 2), categories=(1,))
    gt, table = load(tmp_path, doc, perfect(doc["annotations"], [0.9, 0.8]))
    assert coco_eval.prepare(gt, table).notes == [] and coco_eval.prepare(gt, table).warnings == []
    # the same score in two categories is no tie: COCOeval ranks each category on its own
    doc2 = document([annotation(1, 1, 100, 100, 100, 100, 1), annotation(2, 1, 300, 200, 100, 100, 2)], images=(1,))
    gt, table = load(tmp_path, doc2, perfect(doc2["annotations"], [0.9, 0.9]))
    assert coco_eval.prepare(gt, table).notes == []


def many_detections(tp_rank: int, count: int = 150):
    """One 80 x 80 box; ``count`` detections of its category on its image with falling scores, the exact box at
    position ``tp_rank`` (1-based) and far-off 10 x 10 boxes elsewhere."""
    doc = document(numbered([(1, 200, 200, 80, 80)]), images=(1,), categories=(1,))
    dets = []
    for k in range(1, count + 1):
        box = [200, 200, 80, 80] if k == tp_rank else [5 * (k % 60), 420 + (k % 5), 10, 10]
        dets.append({"image_id": 1, "category_id": 1, "bbox": box, "score": round(1 - k / 1000, 3)})
    return doc, dets


@pytest.mark.parametrize("tp_rank, ap", [(100, 0.01), (101, 0.0)])
def test_max_dets_keeps_the_top_100(tmp_path, tp_rank, ap):
    # the true positive at rank 100: precision 1/100 at recall 1 → AP 0.01; at rank 101 it is not scored: AP 0
    doc, dets = many_detections(tp_rank)
    assert plain_pycocotools(doc, dets)["AP"] == pytest.approx(ap, abs=1e-12)
    gt, table = load(tmp_path, doc, list(reversed(dets)))
    prepared = coco_eval.prepare(gt, table)
    assert prepared.unscored == 50 and len(prepared.dt_order) == 100
    assert prepared.notes[0] == ("50 of 150 detections were not scored: COCOeval keeps the 100 highest-scoring "
                                 "detections of each image and category (maxDets)")
    assert prepared.notes[1] == ("1 image has more than 100 detections in all; COCOeval caps each category "
                                 "separately, where the COCO evaluation server keeps 100 per image")
    assert coco_eval.evaluate(gt, table, prepared=prepared)["AP"] == pytest.approx(ap, abs=1e-12)
    assert coco_eval.evaluate(gt, table, "faster-coco-eval")["AP"] == pytest.approx(ap, abs=1e-4)


def test_max_dets_is_per_category(tmp_path):
    # 60 detections in each of two categories on one image: 120 in the image, none beyond 100 in its category
    doc = document([annotation(1, 1, 200, 200, 80, 80, 1), annotation(2, 1, 400, 100, 60, 60, 2)], images=(1,))
    dets = [{"image_id": 1, "category_id": c, "bbox": [3 * k, 430, 10, 10], "score": round(0.5 - k / 1000, 3)}
            for c in (1, 2) for k in range(60)]
    gt, table = load(tmp_path, doc, dets)
    prepared = coco_eval.prepare(gt, table)
    assert prepared.unscored == 0
    assert prepared.notes == ["1 image has more than 100 detections in all; COCOeval caps each category separately, "
                              "where the COCO evaluation server keeps 100 per image"]


def test_string_image_ids_reach_both_backends(tmp_path):
    # before: pycocotools took string ids, faster-coco-eval failed on them (an internal error)
    doc, dets = random_case(6, images=12, score_digits=3)
    mapping = {i: f"{i:012d}.jpg" for i in range(1, 13)}
    text_doc, text_dets = renumbered(doc, dets, mapping)
    reference = plain_pycocotools(text_doc, text_dets)
    gt, table = load(tmp_path, text_doc, text_dets)
    ours = coco_eval.evaluate(gt, table)
    faster = coco_eval.evaluate(gt, table, "faster-coco-eval")
    assert all(abs(ours[n] - faster[n]) <= 1e-4 for n in STATS)
    if unique_scores(dets):
        assert ours == reference


def test_chunks_hold_at_most_the_budget():
    # 7 images with 3 boxes each and one with 10: pieces of at most 8 boxes, the big image alone
    counts = [3, 3, 3, 10, 3, 3, 3, 3]
    ranks = np.arange(len(counts))

    class Inputs:
        gt_rank = np.repeat(ranks, counts)
        dt_rank = np.array([], dtype=np.int64)

    pieces = coco_eval._chunks(Inputs, ranks, slice(0, sum(counts)), slice(0, 0), 8)
    assert [p.tolist() for p in pieces] == [[0, 1], [2], [3], [4, 5], [6, 7]]


def test_chunked_evaluation_is_the_same(tmp_path):
    doc, dets = random_case(8, images=40, score_digits=2)
    gt, table = load(tmp_path, doc, dets)
    whole = coco_eval.evaluate(gt, table, chunk_objects=10**9)
    assert coco_eval.evaluate(gt, table, chunk_objects=1) == whole
    assert coco_eval.evaluate(gt, table, chunk_objects=25) == whole


def test_categories_without_ground_truth_stay_out(tmp_path):
    # category 2 has detections and no ground truth: COCOeval leaves it at -1, outside the mean; category 3 has
    # neither. Perfect detections of category 1 give AP 1.
    doc = document(numbered([(1, 100, 100, 100, 100), (2, 300, 200, 100, 100)]), images=(1, 2), categories=(1, 2, 3))
    dets = perfect(doc["annotations"]) + [{"image_id": 1, "category_id": 2, "bbox": [5, 5, 50, 50], "score": 0.3}]
    gt, table = load(tmp_path, doc, dets)
    stats = coco_eval.evaluate(gt, table)
    assert stats == plain_pycocotools(doc, dets)
    assert stats["AP"] == pytest.approx(1.0, abs=1e-12) and stats["APs"] == -1.0


@pytest.mark.parametrize("backend", coco_eval.BACKENDS)
def test_listed_categories_without_boxes_cost_nothing_and_change_nothing(tmp_path, backend):
    # Issue 24, item 8: 4 images and a million listed categories ran past 300 s, every category searched
    # and given a -1 array of COCOeval's (10 x 101 x 4 x 3 floats, 97 kB) before summarize averaged none
    # of them. Only categories with ground truth are evaluated now: with 2,000 listed the work and the
    # memory are those of the 3 with boxes (a peak of 388 MB before, in -1 arrays), the figures unchanged.
    import tracemalloc

    boxes = numbered([(1, 100, 100, 100, 100), (2, 300, 200, 80, 60), (3, 40, 50, 30, 200)], category=7)
    boxes += [annotation(4, 1, 400, 300, 90, 90, 1999), annotation(5, 4, 10, 10, 60, 60, 2)]
    dets = perfect(boxes, score=[0.9, 0.8, 0.7, 0.6, 0.5]) + [
        {"image_id": 2, "category_id": 1500, "bbox": [5, 5, 50, 50], "score": 0.4},  # a category without boxes
        {"image_id": 4, "category_id": 2, "bbox": [200, 200, 60, 60], "score": 0.95}]  # a false positive
    few = document(boxes, images=(1, 2, 3, 4), categories=(2, 7, 1500, 1999))
    many = document(boxes, images=(1, 2, 3, 4), categories=range(1, 2001))
    expected = coco_eval.evaluate(*load(tmp_path, few, dets), backend)
    gt, table = load(tmp_path, many, dets)
    tracemalloc.start()
    try:
        stats = coco_eval.evaluate(gt, table, backend)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert stats == expected
    if backend == "pycocotools":
        assert stats == plain_pycocotools(many, dets)
    assert stats["AP"] == pytest.approx(np.mean([1.0, 1.0, 0.5]), abs=0.02)  # categories 7 and 1999 found, 2 half
    assert peak < 20 * 2**20, peak


def test_empty_detections_evaluate_to_0(tmp_path):
    doc = document(numbered([(1, 100, 100, 100, 100)]), images=(1,), categories=(1,))
    gt, table = load(tmp_path, doc, [])
    for backend in coco_eval.BACKENDS:
        stats = coco_eval.evaluate(gt, table, backend)
        assert stats["AP"] == 0.0 and stats["AR100"] == 0.0 and stats["APs"] == -1.0


def test_unknown_backend_is_a_usage_error(tmp_path):
    from studygen.errors import UsageError

    doc = document(numbered([(1, 100, 100, 100, 100)]), images=(1,), categories=(1,))
    gt, table = load(tmp_path, doc, [])
    with pytest.raises(UsageError, match="unknown COCO backend 'detectron2'"):
        coco_eval.evaluate(gt, table, "detectron2")


def test_image_ranks_follow_the_ids(tmp_path):
    doc, dets = random_case(9, images=6)
    mapping = {1: 60, 2: 50, 3: 40, 4: 30, 5: 20, 6: 10}
    gt, table = load(tmp_path, *renumbered(doc, dets, mapping))
    # the images listed as ids 60, 50, …, 10: ranked 5, 4, …, 0, as pycocotools sorts params.imgIds
    assert coco_eval.prepare(gt, table).rank.tolist() == [5, 4, 3, 2, 1, 0]
    strings, _ = renumbered(doc, dets, dict(zip(range(1, 7), ["f", "b", "e", "a", "d", "c"])))
    gt, _ = load(tmp_path, strings, [])
    none = coco_detections.read_detections(write(tmp_path / "none.json", []), gt, "none.json")
    assert coco_eval.prepare(gt, none).rank.tolist() == [5, 1, 4, 0, 3, 2]  # strings sort as strings


def test_ap_minus_1_is_never_returned(tmp_path):
    # one box of 200000 x 100000 px (area 2e10): beyond COCOeval's largest range (1e5² = 1e10) it is ignored
    # everywhere, AP comes out -1, COCOeval's mark for absent: refused instead of recorded
    from studygen.errors import InputError

    doc = document(numbered([(1, 0, 0, 200000, 100000)]), images=(1,), categories=(1,))
    gt, table = load(tmp_path, doc, perfect(doc["annotations"]))
    assert plain_pycocotools(doc, perfect(doc["annotations"]))["AP"] == -1.0
    with pytest.raises(InputError, match=r"^gt.json: COCOeval found no ground truth to score \(AP -1"):
        coco_eval.evaluate(gt, table)


def test_more_ground_truth_than_max_dets_is_noted(tmp_path):
    # 101 boxes of one category in one image, all found exactly: only 100 can be scored, recall 100/101 at most
    boxes = [(1, 5 * (k % 20) + 1, 5 * (k // 20) + 1, 4, 4) for k in range(101)]
    doc = document(numbered(boxes), images=(1,), categories=(1,))
    gt, table = load(tmp_path, doc, perfect(doc["annotations"], [round(1 - k / 1000, 3) for k in range(101)]))
    prepared = coco_eval.prepare(gt, table)
    assert prepared.notes[-1] == ("1 image and category pair has more than 100 ground-truth boxes: with 100 "
                                  "detections scored per pair, recall there cannot reach 1 (maxDets)")
    assert coco_eval.evaluate(gt, table, prepared=prepared)["AR100"] == pytest.approx(100 / 101, abs=1e-12)


def test_a_second_detection_of_one_box_is_a_false_positive(tmp_path):
    # two boxes; detections: box 1 exactly (0.9), box 1 again (0.8), box 2 exactly (0.7): TP, FP, TP →
    # precision 1 up to recall 0.5 (51 points), 2/3 from 0.51 to 1 (50 points): AP = (51 + 50 · 2/3) / 101
    doc = document(numbered([(1, 100, 100, 100, 100), (1, 300, 200, 80, 80)]), images=(1,), categories=(1,))
    dets = [{"image_id": 1, "category_id": 1, "bbox": [100, 100, 100, 100], "score": 0.9},
            {"image_id": 1, "category_id": 1, "bbox": [100, 100, 100, 100], "score": 0.8},
            {"image_id": 1, "category_id": 1, "bbox": [300, 200, 80, 80], "score": 0.7}]
    gt, table = load(tmp_path, doc, dets)
    expected = (51 + 50 * 2 / 3) / 101
    assert plain_pycocotools(doc, dets)["AP"] == pytest.approx(expected, abs=1e-12)
    for backend in coco_eval.BACKENDS:
        assert coco_eval.evaluate(gt, table, backend)["AP"] == pytest.approx(expected, abs=1e-12)


def test_chunks_count_detections_and_split_only_past_the_budget():
    # boxes per image (ground truth + detections): 4, 4, 2 + 3, 8 with a budget of 8: [0, 1] fills it exactly
    ranks = np.arange(4)

    class Inputs:
        gt_rank = np.array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3])
        dt_rank = np.array([2, 2, 2])

    pieces = coco_eval._chunks(Inputs, ranks, slice(0, 18), slice(0, 3), 8)
    assert [p.tolist() for p in pieces] == [[0, 1], [2], [3]]


def test_tie_counts(tmp_path):
    # category 1 scores 0.5, 0.5, 0.7, 0.9, 0.9, 0.3; category 2 one 0.5: 4 tied (two pairs), no single score
    doc = document(numbered([(1, 100, 100, 100, 100)]), images=(1,), categories=(1, 2))
    scores = [0.5, 0.5, 0.7, 0.9, 0.9, 0.3]
    dets = [{"image_id": 1, "category_id": 1, "bbox": [10 * k, 400, 10, 10], "score": s} for k, s in enumerate(scores)]
    dets.append({"image_id": 1, "category_id": 2, "bbox": [300, 10, 10, 10], "score": 0.5})
    gt, table = load(tmp_path, doc, dets)
    prepared = coco_eval.prepare(gt, table)
    assert prepared.notes[0].startswith("4 of 7 scored detections share their score with another of their category")
    assert prepared.tied == 4
    assert prepared.warnings == []


def test_exactly_max_dets_in_an_image_is_no_note_and_plural_images(tmp_path):
    doc = document(numbered([(1, 100, 100, 100, 100), (2, 100, 100, 100, 100)]), images=(1, 2, 3), categories=(1,))
    hundred = [{"image_id": 1, "category_id": 1, "bbox": [4 * k, 400, 5, 5], "score": round(0.9 - k / 1000, 3)}
               for k in range(100)]
    gt, table = load(tmp_path, doc, hundred)
    assert coco_eval.prepare(gt, table).notes == []
    more = [dict(d, image_id=i) for i in (2, 3) for d in hundred] + [dict(hundred[0], image_id=2, score=0.01),
                                                                      dict(hundred[0], image_id=3, score=0.02)]
    gt, table = load(tmp_path, doc, more)
    assert coco_eval.prepare(gt, table).notes[:2] == [
        "2 of 202 detections were not scored: COCOeval keeps the 100 highest-scoring detections of each image and "
        "category (maxDets)",
        "2 images have more than 100 detections in all; COCOeval caps each category separately, where the COCO "
        "evaluation server keeps 100 per image"]


def test_unknown_backend_message(tmp_path):
    from studygen.errors import UsageError

    doc = document(numbered([(1, 100, 100, 100, 100)]), images=(1,), categories=(1,))
    gt, table = load(tmp_path, doc, [])
    with pytest.raises(UsageError) as caught:
        coco_eval.evaluate(gt, table, "mmdet")
    assert str(caught.value) == "unknown COCO backend 'mmdet' (use pycocotools or faster-coco-eval)"


def test_two_crowded_pairs_are_counted_in_the_plural(tmp_path):
    # 101 boxes of category 1 on image 1 and 101 of category 2 on image 2: two pairs past maxDets
    boxes = [(image, 5 * (k % 20) + 1, 5 * (k // 20) + 1, 4, 4) for image in (1, 2) for k in range(101)]
    doc = document(numbered(boxes), images=(1, 2), categories=(1, 2))
    for a in doc["annotations"]:
        a["category_id"] = a["image_id"]
    gt, table = load(tmp_path, doc, perfect(doc["annotations"], [round(1 - k / 1000, 3) for k in range(202)]))
    assert coco_eval.prepare(gt, table).notes[-1] == (
        "2 image and category pairs have more than 100 ground-truth boxes: with 100 detections scored per pair, recall "
        "there cannot reach 1 (maxDets)")
