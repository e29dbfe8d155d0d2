"""Seeded synthetic COCO files for the COCO benchmark: ground truth shaped like
COCO 2017 (80 categories with COCO's ids 1-90, images of varied size, boxes
with polygon segmentations or without) and detections near the ground truth
(jittered boxes, misses, false positives, scores printed with 3 decimals so
that ties occur as they do in real dumps).

Files are written element by element, so generating a 500 MB file needs little
memory. Figures (counts, sizes) are chosen here; nothing is copied from COCO.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

# COCO's 80 category ids: 1-90 without the 10 ids its paper dropped.
COCO_CATEGORY_IDS = tuple(i for i in range(1, 91) if i not in (12, 26, 29, 30, 45, 66, 68, 69, 71, 83))
SIZES = ((640, 480), (640, 427), (480, 640), (500, 375), (612, 612))


def _polygon(rng: random.Random, x: float, y: float, w: float, h: float, points: int) -> list[float]:
    out = []
    for _ in range(points):
        out += [round(x + rng.random() * w, 2), round(y + rng.random() * h, 2)]
    return out


def _boxes_of(rng: random.Random, image_id: int, count: int) -> list[tuple]:
    """``count`` boxes (category, x, y, w, h) inside image ``image_id``."""
    width, height = SIZES[image_id % len(SIZES)]
    boxes = []
    for _ in range(count):
        w = rng.uniform(4, width / 2)
        h = rng.uniform(4, height / 2)
        x, y = rng.uniform(0, width - w), rng.uniform(0, height - h)
        boxes.append((rng.choice(COCO_CATEGORY_IDS), round(x, 2), round(y, 2), round(w, 2), round(h, 2)))
    return boxes


def _image_stream(seed: int, image_id: int) -> random.Random:
    """The ground-truth boxes of one image: the same stream for the annotations and their detections."""
    return random.Random(seed * 1_000_003 + image_id)


def write_ground_truth(path: Path, images: int, per_image: int, *, polygon_points: int = 0, seed: int = 1) -> int:
    """COCO annotations for ``images`` images with ``per_image`` boxes each
    (polygons of ``polygon_points`` points, or none). Returns the bytes written."""
    rng = random.Random(seed + 7)  # polygons only: boxes come from the per-image streams
    with path.open("w", encoding="utf-8") as out:
        out.write('{"info": {"description": "synthetic, seeded"}, "licenses": [], "images": [\n')
        out.write(",\n".join(json.dumps({"id": i, "file_name": f"{i:012d}.jpg", "width": SIZES[i % len(SIZES)][0],
                                         "height": SIZES[i % len(SIZES)][1]}) for i in range(1, images + 1)))
        out.write('\n], "categories": [\n')
        out.write(",\n".join(json.dumps({"id": c, "name": f"class{c}", "supercategory": "thing"})
                             for c in COCO_CATEGORY_IDS))
        out.write('\n], "annotations": [\n')
        annotation_id = 0
        for image_id in range(1, images + 1):
            for category, x, y, w, h in _boxes_of(_image_stream(seed, image_id), image_id, per_image):
                annotation_id += 1
                annotation = {"id": annotation_id, "image_id": image_id, "category_id": category,
                              "bbox": [x, y, w, h], "area": round(w * h * 0.7, 2), "iscrowd": 0}
                if polygon_points:
                    annotation["segmentation"] = [_polygon(rng, x, y, w, h, polygon_points)]
                out.write(("" if annotation_id == 1 else ",\n") + json.dumps(annotation, separators=(",", ":")))
        out.write("\n]}\n")
    return path.stat().st_size


def write_detections(path: Path, images: int, per_image: int, *, extra: int, seed: int = 1,
                     gt_seed: int = 1) -> int:
    """Detections for the ground truth of :func:`write_ground_truth` (same
    ``images``, ``per_image`` and ``gt_seed``): 90 % of boxes found with a few
    pixels of jitter, plus ``extra`` false positives per image. Returns bytes."""
    rng = random.Random(seed + 1000)
    first = True
    with path.open("w", encoding="utf-8") as out:
        out.write("[\n")
        for image_id in range(1, images + 1):
            boxes = _boxes_of(_image_stream(gt_seed, image_id), image_id, per_image)
            found = []
            for category, x, y, w, h in boxes:
                if rng.random() < 0.9:
                    found.append((category, x + rng.gauss(0, 3), y + rng.gauss(0, 3), max(1.0, w + rng.gauss(0, 4)),
                                  max(1.0, h + rng.gauss(0, 4)), 0.3 + 0.7 * rng.random()))
            for category, x, y, w, h in _boxes_of(rng, image_id, extra):
                found.append((category, x, y, w, h, 0.3 * rng.random()))
            for category, x, y, w, h, score in found:
                detection = {"image_id": image_id, "category_id": category,
                             "bbox": [round(x, 2), round(y, 2), round(w, 2), round(h, 2)], "score": round(score, 3)}
                out.write(("" if first else ",\n") + json.dumps(detection, separators=(",", ":")))
                first = False
        out.write("\n]\n")
    return path.stat().st_size
