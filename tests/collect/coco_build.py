"""Small COCO ground-truth and detection files for the COCO tests, with
figures chosen here (no COCO data): images of 640 x 480 unless told, boxes in
pixels as x, y, w, h, areas w * h unless told."""

from __future__ import annotations

import json
import random
from pathlib import Path

STATS = ("AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl")


def annotation(number, image_id, x, y, w, h, category=1, **extra):
    """One annotation with id ``number``; ``extra`` overrides or adds fields."""
    out = {"id": number, "image_id": image_id, "category_id": category, "bbox": [x, y, w, h], "area": w * h,
           "iscrowd": 0}
    out.update(extra)
    return out


def numbered(boxes, category=1):
    """Annotations with ids 1..N from ``(image_id, x, y, w, h)`` tuples."""
    return [annotation(i, image, x, y, w, h, category) for i, (image, x, y, w, h) in enumerate(boxes, start=1)]


def document(annotations, images=(1, 2, 3), categories=(1, 2, 3), size=(640, 480)):
    return {"images": [{"id": i, "width": size[0], "height": size[1], "file_name": f"img{i}.jpg"} for i in images],
            "categories": [{"id": c, "name": f"class{c}"} for c in categories], "annotations": annotations}


def write(path: Path, value) -> Path:
    path.write_text(json.dumps(value))
    return path


def perfect(annotations, score=0.9):
    """Detections equal to the ground-truth boxes (scores ``score``, or one per box if a list)."""
    scores = score if isinstance(score, list) else [score] * len(annotations)
    return [{"image_id": a["image_id"], "category_id": a["category_id"], "bbox": list(a["bbox"]), "score": s}
            for a, s in zip(annotations, scores)]


def scattered_boxes(images, per_image, seed=0):
    """``per_image`` (at most 4) boxes (image_id, x, y, w, h) in each image, one per 130 x 100 px cell of the
    cell row ``image_id % 3`` of a 4 x 3 grid from (100, 80); columns and sizes drawn per image (seeded).
    Boxes of one image never overlap, nor those of images whose ids follow each other; x >= 100 and y >= 80,
    so that a box read in another convention cannot match itself by accident (IoU < 0.31)."""
    boxes = []
    for image in images:
        rng = random.Random(f"{seed}-{image}")
        row = sum(map(ord, image)) % 3 if isinstance(image, str) else image % 3
        for column in sorted(rng.sample(range(4), per_image)):
            x = 100 + column * 130 + rng.randint(0, 10)
            y = 80 + row * 100 + rng.randint(0, 10)
            boxes.append((image, x, y, rng.randint(40, 120), rng.randint(40, 90)))
    return boxes


def values(done) -> dict:
    """``{statistic: value}`` of a collect coco run."""
    return {r["statistic"]: r["value"] for r in done.kind("coco_ap")}


def notes(done) -> list[str]:
    return done.record["provenance"].get("notes", [])
