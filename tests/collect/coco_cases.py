"""The inputs of issue 13's COCO classes, one builder each: ``(ground truth,
detections)`` documents with figures of our own. tests/collect/test_coco_issue13.py
runs them through ``studygen collect coco``; the figures a correct tool must
give are worked out in each docstring."""

from __future__ import annotations

import copy

from tests.collect.coco_build import annotation, document, numbered, perfect, scattered_boxes

IMAGES = (1, 2, 3, 4, 5, 6)


def three_boxes():
    # three images, one box each: small (20 x 20), medium (50 x 50), large (120 x 100)
    return [annotation(1, 1, 100, 100, 20, 20), annotation(2, 2, 200, 150, 50, 50), annotation(3, 3, 300, 200, 120, 100)]


def id_zero():
    """Annotation ids 0, 1, 2 and perfect detections. Correct: refuse (COCOeval would score the box with id 0
    as a false positive)."""
    anns = three_boxes()
    for number, ann in enumerate(anns):
        ann["id"] = number
    return document(anns), perfect(anns)


def repeated_ids():
    """Ids 1, 2, 2 on three images, perfect detections. Correct: refuse (loadAnns would evaluate the box with
    the first id 2 as the second one, on the wrong image)."""
    anns = three_boxes()
    anns[2]["id"] = 2
    return document(anns), perfect(anns)


def image_twice():
    """Image 2 listed twice. Correct: refuse."""
    anns = three_boxes()
    return document(anns, images=(1, 2, 2, 3)), perfect(anns)


def zero_size_box():
    """One of four boxes 0 px wide, perfect detections of the other three. Correct: refuse (the box can never
    be found: recall would stop at 3/4)."""
    anns = three_boxes() + [annotation(4, 1, 400, 50, 0, 30, area=0)]
    return document(anns), perfect(anns[:3])


def no_annotation():
    """Images and categories but no annotation. Correct: refuse (AP undefined)."""
    return document([]), [{"image_id": 1, "category_id": 1, "bbox": [10, 10, 20, 20], "score": 0.5}]


def scored_ground_truth():
    """A detections dump wrapped as ground truth: every annotation has a score. Correct: refuse."""
    anns = [dict(a, score=0.8) for a in three_boxes()]
    return document(anns), perfect(anns)


def normalised_areas():
    """Areas divided by the image size (640 x 480): every box "small" though two are medium and large.
    Correct: refuse (APs, APm, APl wrong)."""
    anns = three_boxes()
    for ann in anns:
        ann["area"] = round(ann["area"] / (640 * 480), 6)
    return document(anns), perfect(anns)


def string_image_ids():
    """COCO file names as image ids, perfect detections. Correct: AP 1 with either backend."""
    anns = three_boxes()
    names = {1: "000000000139.jpg", 2: "000000000285.jpg", 3: "000000000632.jpg"}
    doc = document(anns)
    for image in doc["images"]:
        image["id"] = names[image["id"]]
    for ann in doc["annotations"]:
        ann["image_id"] = names[ann["image_id"]]
    return doc, perfect(doc["annotations"], [0.9, 0.8, 0.7])


def scattered(per_image=4, images=IMAGES, categories=(1,)):
    anns = numbered(scattered_boxes(images, per_image))
    for k, ann in enumerate(anns):
        ann["category_id"] = categories[k % len(categories)]
    return document(anns, images=images, categories=categories)


def xyxy_boxes():
    """24 boxes in the upper left of 640 x 480 images (x1 <= 200, y1 <= 170), written as x1, y1, x2, y2: read as
    x, y, w, h none reaches past the border, so no border rule can see them. Correct: refuse, naming that
    convention."""
    boxes = []
    for image in IMAGES:
        for k in range(4):
            x, y = 100 + 90 * (k % 2) + image, 80 + 80 * (k // 2) + 2 * image
            boxes.append((image, x, y, 40 + 7 * image + 3 * k, 30 + 5 * image + 2 * k))
    doc = document(numbered(boxes), images=IMAGES, categories=(1,))
    dets = perfect(doc["annotations"], [round(0.9 - 0.01 * k, 2) for k in range(24)])
    for d in dets:
        x, y, w, h = d["bbox"]
        d["bbox"] = [x, y, x + w, y + h]
    return doc, dets


def normalised_boxes():
    """24 boxes plus two at the border, written as x1, y1, x2, y2 normalised to 640 x 480; the border boxes
    reach just outside the image (x1 = -0.004, y2 = 1.003), as a model's boxes do. Correct: refuse, naming that
    convention (26 of 26 match it)."""
    doc = scattered()
    doc["annotations"] += [annotation(25, 1, 0, 20, 60, 50), annotation(26, 2, 500, 430, 100, 50)]
    dets = perfect(doc["annotations"], [round(0.99 - 0.01 * k, 2) for k in range(26)])
    for d in dets:
        x, y, w, h = d["bbox"]
        d["bbox"] = [round(x / 640, 5), round(y / 480, 5), round((x + w) / 640, 5), round((y + h) / 480, 5)]
    dets[24]["bbox"][0] = -0.004
    dets[25]["bbox"][3] = 1.003
    return doc, dets


def past_the_border():
    """Ground truth and detections both reaching 60 px past the right border (x + w = 700 on 640 px images),
    detections exact. Correct: AP 1 (nothing refused)."""
    anns = numbered([(i, 540, 30 + 100 * k, 160, 60) for i in (1, 2, 3) for k in range(4)])
    return document(anns), perfect(anns, [round(0.95 - 0.01 * k, 2) for k in range(len(anns))])


def shifted_categories():
    """Categories 1, 2, 3 in turn over 24 boxes, detections with 1→2, 2→3, 3→1 (every id exists). Correct:
    refuse."""
    doc = scattered(categories=(1, 2, 3))
    dets = perfect(doc["annotations"])
    for d in dets:
        d["category_id"] = {1: 2, 2: 3, 3: 1}[d["category_id"]]
    return doc, dets


def image_off_by_one():
    """Detections of image k named k - 1 (image 1's dropped): every id exists. Correct: refuse."""
    doc = scattered()
    return doc, [dict(d, image_id=d["image_id"] - 1) for d in perfect(doc["annotations"]) if d["image_id"] > 1]


def partial_images():
    """Perfect detections on images 1-4 of 6 (4 boxes each). Correct: AP over all 24 boxes: precision 1 up to
    recall 16/24; recall points 0, 0.01, …, 0.66 (67 of 101) → AP = 67/101 = 0.663366, with a warning naming
    4 of 6 images."""
    doc = scattered()
    scores = [round(0.9 - 0.01 * k, 2) for k in range(24)]
    return doc, [d for d in perfect(doc["annotations"], scores) if d["image_id"] <= 4]


def tied_scores():
    """Ties across images: image 1 holds a box found exactly, image 2 a box missed; both detections score 0.5.
    Ranked TP then FP: AP 51/101; FP then TP: 0.5 · 51/101. pycocotools ranks the tie by image id. Correct
    (issue 22): pycocotools' figure for the files as given, the range 0.5 · 51/101 to 51/101 beside it, and a
    note."""
    doc = document(numbered([(1, 100, 100, 100, 100), (2, 300, 200, 100, 100)]), images=(1, 2), categories=(1,))
    return doc, [{"image_id": 1, "category_id": 1, "bbox": [100, 100, 100, 100], "score": 0.5},
                 {"image_id": 2, "category_id": 1, "bbox": [10, 10, 30, 30], "score": 0.5}]


def swapped_ids(case):
    """``case`` with image ids 1 and 2 swapped (in the images, annotations and detections)."""
    doc, dets = copy.deepcopy(case)
    swap = {1: 2, 2: 1}
    for image in doc["images"]:
        image["id"] = swap.get(image["id"], image["id"])
    for ann in doc["annotations"]:
        ann["image_id"] = swap.get(ann["image_id"], ann["image_id"])
    return doc, [dict(d, image_id=swap.get(d["image_id"], d["image_id"])) for d in dets]


def beyond_max_dets():
    """One 80 x 80 box; 130 detections of its category on its image, the exact box ranked 40th by score.
    Correct: AP 1/40 = 0.025 (precision 1/40 at recall 1), and a note that 30 detections were not scored."""
    doc = document(numbered([(1, 200, 200, 80, 80)]), images=(1,), categories=(1,))
    dets = [{"image_id": 1, "category_id": 1, "bbox": [200, 200, 80, 80] if k == 40 else [4 * (k % 100), 430, 9, 9],
             "score": round(1 - k / 1000, 3)} for k in range(1, 131)]
    return doc, dets


CASES = {name: globals()[name] for name in (
    "id_zero", "repeated_ids", "image_twice", "zero_size_box", "no_annotation", "scored_ground_truth",
    "normalised_areas", "string_image_ids", "xyxy_boxes", "normalised_boxes", "past_the_border", "shifted_categories",
    "image_off_by_one", "partial_images", "tied_scores", "beyond_max_dets")}
