"""A toy COCO evaluation made with pycocotools, for per-image bootstrap tests.

Ground truth and detections are generated from a seed (made-up boxes, two
categories); ``shift`` moves every detection by that many pixels, so a larger
shift gives a lower AP. Nothing here is a measurement.
"""

from __future__ import annotations

import contextlib
import io


def toy_coco(seed: int = 1, n_images: int = 30, shift: float = 0.0):
    """``(ground_truth_dict, detections_list)`` for ``n_images`` 640 x 480 images."""
    import numpy as np

    rng = np.random.default_rng(seed)
    images, annotations, detections = [], [], []
    ann_id = 1
    for image_id in range(1, n_images + 1):
        images.append({"id": image_id, "width": 640, "height": 480})
        for _ in range(int(rng.integers(1, 4))):
            x, y = rng.uniform(0, 400), rng.uniform(0, 300)
            w, h = rng.uniform(30, 200), rng.uniform(30, 150)
            category = int(rng.integers(1, 3))
            annotations.append({"id": ann_id, "image_id": image_id, "category_id": category, "bbox": [x, y, w, h],
                                "area": w * h, "iscrowd": 0})
            ann_id += 1
            jitter = rng.normal(0, 4, 4)
            detections.append({"image_id": image_id, "category_id": category,
                               "bbox": [x + jitter[0] + shift, y + jitter[1] + shift, max(1.0, w + jitter[2]), max(1.0, h + jitter[3])],
                               "score": float(rng.uniform(0.5, 1.0))})
        detections.append({"image_id": image_id, "category_id": int(rng.integers(1, 3)),
                           "bbox": [float(rng.uniform(0, 500)), float(rng.uniform(0, 400)), 40.0, 40.0],
                           "score": float(rng.uniform(0.0, 0.5))})
    ground_truth = {"images": images, "annotations": annotations,
                    "categories": [{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]}
    return ground_truth, detections


def evaluate(ground_truth: dict, detections: list):
    """pycocotools COCOeval (bbox) after evaluate, accumulate and summarize."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = ground_truth
        gt.createIndex()
        dt = gt.loadRes(detections)
        coco_eval = COCOeval(gt, dt, "bbox")
        coco_eval.evaluate()
        coco_eval.accumulate()
        coco_eval.summarize()
    return coco_eval
