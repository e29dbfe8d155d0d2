"""COCO bbox evaluation of a detections file against ground-truth annotations.

The 12 statistics are COCOeval's ``stats`` in pycocotools' order (AP, AP50,
AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl; -1 where no ground
truth falls in that size range), computed by pycocotools (or, optionally,
faster-coco-eval, which agrees within 1e-4). Detections use the COCO results
format: ``[{"image_id", "category_id", "bbox": [x, y, w, h], "score"}, …]``
in pixels, x/y the top-left corner.

Before evaluating, inputs that would silently give a wrong AP are refused
(:func:`check_detections`), each refusal naming its rule, a count and one
offending detection. Empty detections give AP 0 where ground truth exists
(pycocotools' ``loadRes`` crashes on an empty list; here the evaluation runs
on an empty results set instead).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import logging
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..fsutil import shown_path
from ..errors import InputError, UsageError
from ..digests import image_ids_sha256
from .inputs import is_number, load_json_values
from .result import NewResult

STAT_NAMES = ("AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl")
BACKENDS = ("pycocotools", "faster-coco-eval")
# Refusal thresholds (ingest issue): images "hundreds of pixels wide" for the
# normalized-box rule; >10 % of boxes past the border by >5 % of the image.
MIN_PIXEL_SIZE = 100
XYXY_BOX_SHARE = 0.10
XYXY_OVERSHOOT = 0.05


@dataclass
class GroundTruth:
    """A COCO annotations file: the document, image sizes, category ids."""

    display: str
    document: dict
    images: dict[int | str, tuple[float | None, float | None]]
    category_ids: set

    @property
    def image_ids(self) -> list:
        return list(self.images)


def _load_single(path: Path, display: str):
    values = load_json_values(path, display)
    if len(values) != 1:
        raise InputError(f"holds {len(values)} JSON values; expected one", path=display)
    return values[0][0]


def load_ground_truth(path: Path, display: str | None = None) -> GroundTruth:
    """Read a COCO annotations file (``images``, ``annotations``,
    ``categories``). Raises InputError with a JSON pointer for a missing list,
    an image without an id, an annotation without a 4-number bbox or an area."""
    display = display or shown_path(path)
    document = _load_single(path, display)
    if not isinstance(document, dict):
        raise InputError("expected a COCO annotations object with images, annotations, categories", path=display)
    for name in ("images", "annotations", "categories"):
        if not isinstance(document.get(name), list):
            raise InputError(f"no \"{name}\" list: not a COCO annotations file", path=display, where=f"/{name}")
    images = {}
    for index, image in enumerate(document["images"]):
        if not isinstance(image, dict) or not isinstance(image.get("id"), (int, str)) or isinstance(image.get("id"), bool):
            raise InputError("image without an integer or string id", path=display, where=f"/images/{index}")
        width, height = image.get("width"), image.get("height")
        images[image["id"]] = (width if is_number(width) else None, height if is_number(height) else None)
    if not images:
        raise InputError("the annotations list no image", path=display, where="/images")
    category_ids = set()
    for index, category in enumerate(document["categories"]):
        if not isinstance(category, dict) or "id" not in category:
            raise InputError("category without an id", path=display, where=f"/categories/{index}")
        category_ids.add(category["id"])
    for index, annotation in enumerate(document["annotations"]):
        where = f"/annotations/{index}"
        if not isinstance(annotation, dict):
            raise InputError("annotation is not an object", path=display, where=where)
        bbox = annotation.get("bbox")
        if not (isinstance(bbox, list) and len(bbox) == 4 and all(is_number(v) for v in bbox)):
            raise InputError("bbox must be 4 numbers [x, y, w, h]", path=display, where=f"{where}/bbox")
        if not is_number(annotation.get("area")):
            raise InputError("annotation without a numeric area (COCOeval's size ranges need it)", path=display,
                             where=f"{where}/area")
        if annotation.get("iscrowd") not in (0, 1):  # True/False compare equal to 1/0
            raise InputError("annotation without iscrowd 0 or 1 (COCOeval needs it)", path=display,
                             where=f"{where}/iscrowd")
        if annotation.get("image_id") not in images:
            raise InputError(f"image_id {annotation.get('image_id')!r} is not among the images", path=display,
                             where=f"{where}/image_id")
        if "id" not in annotation:
            raise InputError("annotation without an id", path=display, where=where)
    return GroundTruth(display=display, document=document, images=images, category_ids=category_ids)


def load_detections(path: Path, display: str | None = None) -> list[dict]:
    """Read a COCO results file: a JSON array of ``{image_id, category_id,
    bbox: [x, y, w, h], score}``. Raises InputError with a JSON pointer."""
    display = display or shown_path(path)
    document = _load_single(path, display)
    if not isinstance(document, list):
        raise InputError("expected a JSON array of detections {image_id, category_id, bbox, score} (COCO results format)",
                         path=display)
    for index, detection in enumerate(document):
        where = f"/{index}"
        if not isinstance(detection, dict):
            raise InputError("detection is not an object", path=display, where=where)
        for name in ("image_id", "category_id", "bbox", "score"):
            if name not in detection:
                raise InputError(f"detection without {name}", path=display, where=where)
        bbox = detection["bbox"]
        if not (isinstance(bbox, list) and len(bbox) == 4 and all(is_number(v) for v in bbox)):
            raise InputError("bbox must be 4 numbers [x, y, w, h]", path=display, where=f"{where}/bbox")
        if not is_number(detection["score"]):
            raise InputError("score must be a number", path=display, where=f"{where}/score")
    return document


def _refuse(rule: str, what: str, count: int, total: int, index: int, detection: dict, display: str, hint: str = "") -> InputError:
    example = json.dumps(detection, separators=(", ", ": "))
    message = f"refused before evaluating, rule {rule}: {count} of {total} detections {what}; e.g. detection {index}: {example}"
    if hint:
        message += f" ({hint})"
    return InputError(message, path=display, where=f"/{index}")


def check_detections(gt: GroundTruth, detections: list[dict], display: str) -> None:
    """Refuse detections that would give a wrong AP without an error.

    Rules, in order: ``image-ids`` (image ids not in the annotations),
    ``category-ids`` (ids not among the annotations' categories, e.g.
    contiguous 0-79 labels instead of COCO ids), ``negative-size`` (w or h
    < 0), ``normalized-boxes`` (every box within [0, 1] while the images are
    at least 100 px: normalized cx, cy, w, h), ``xyxy-as-xywh`` (more than 10 %
    of boxes reach past the image border by more than 5 % of its width or
    height: x2, y2 passed as w, h). Raises InputError naming the rule, the
    count and the first offending detection.
    """
    total = len(detections)
    if not total:
        return
    bad = [i for i, d in enumerate(detections) if d["image_id"] not in gt.images]
    if bad:
        raise _refuse("image-ids", f"name image ids not in the annotations {gt.display}", len(bad), total, bad[0],
                      detections[bad[0]], display)
    bad = [i for i, d in enumerate(detections) if d["category_id"] not in gt.category_ids]
    if bad:
        used = {d["category_id"] for d in detections}
        hint = ""
        if all(isinstance(c, int) and 0 <= c < max(len(gt.category_ids), 80) for c in used):
            hint = "contiguous 0-based labels instead of the annotations' category ids? map them to the category ids"
        raise _refuse("category-ids", f"use category ids not among the annotations' categories", len(bad), total,
                      bad[0], detections[bad[0]], display, hint)
    bad = [i for i, d in enumerate(detections) if d["bbox"][2] < 0 or d["bbox"][3] < 0]
    if bad:
        raise _refuse("negative-size", "have a negative width or height (xywh boxes need w, h >= 0)", len(bad), total,
                      bad[0], detections[bad[0]], display)
    sizes = [gt.images[d["image_id"]] for d in detections]
    sized = all(w is not None and h is not None for w, h in sizes)
    if sized and all(max(w, h) >= MIN_PIXEL_SIZE for w, h in sizes):
        if all(0 <= v <= 1 for d in detections for v in d["bbox"]):
            raise _refuse("normalized-boxes", "have every coordinate within [0, 1] while the images are hundreds of "
                          "pixels wide", total, total, 0, detections[0], display,
                          "normalized cx, cy, w, h? convert to pixel x, y, w, h")
    if sized:
        bad = []
        for index, detection in enumerate(detections):
            x, y, w, h = detection["bbox"]
            width, height = gt.images[detection["image_id"]]
            if x + w - width > XYXY_OVERSHOOT * width or y + h - height > XYXY_OVERSHOOT * height:
                bad.append(index)
        if len(bad) > XYXY_BOX_SHARE * total:
            raise _refuse("xyxy-as-xywh", f"reach past the image border by more than {XYXY_OVERSHOOT:.0%} of its size "
                          f"(more than {XYXY_BOX_SHARE:.0%} of boxes)", len(bad), total, bad[0], detections[bad[0]],
                          display, "x1, y1, x2, y2 boxes passed as x, y, w, h? convert to width and height")


def backend_version(backend: str) -> str:
    """Installed version of the evaluator package. Raises UsageError when it is not installed."""
    try:
        return version(backend)
    except PackageNotFoundError:
        raise UsageError(f"{backend} is not installed (pip install {backend})") from None


def evaluate(gt: GroundTruth, detections: list[dict], backend: str = "pycocotools") -> dict[str, float]:
    """The 12 COCOeval bbox statistics by name (see :data:`STAT_NAMES`).

    ``backend``: ``pycocotools`` (reference) or ``faster-coco-eval``. Their
    printed summaries are silenced. Inputs are copied (``loadRes`` edits
    them). Raises UsageError for an unknown or missing backend.
    """
    if backend not in BACKENDS:
        raise UsageError(f"unknown COCO backend {backend!r} (use {' or '.join(BACKENDS)})")
    backend_version(backend)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), _quiet_logging():
        if backend == "pycocotools":
            stats = _evaluate_pycocotools(gt, detections)
        else:
            stats = _evaluate_faster(gt, detections)
    return dict(zip(STAT_NAMES, (float(s) for s in stats)))


@contextlib.contextmanager
def _quiet_logging():
    logger = logging.getLogger("faster_coco_eval")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _shallow_copies(detections: list[dict]) -> list[dict]:
    """``loadRes`` adds keys (id, area, segmentation, iscrowd) to each
    detection and leaves its bbox list as it is: shallow copies keep the
    caller's detections intact at a fraction of a deep copy's memory."""
    return [dict(detection) for detection in detections]


def _evaluate_pycocotools(gt: GroundTruth, detections: list[dict]):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    coco_gt = COCO()
    coco_gt.dataset = copy.deepcopy(gt.document)
    coco_gt.createIndex()
    if detections:
        coco_dt = coco_gt.loadRes(_shallow_copies(detections))
    else:
        # loadRes([]) raises IndexError; an empty results set evaluates fine.
        coco_dt = COCO()
        coco_dt.dataset = {"images": copy.deepcopy(gt.document["images"]),
                           "categories": copy.deepcopy(gt.document["categories"]), "annotations": []}
        coco_dt.createIndex()
    evaluator = COCOeval(coco_gt, coco_dt, "bbox")
    evaluator.evaluate()
    evaluator.accumulate()
    evaluator.summarize()
    return evaluator.stats


def _evaluate_faster(gt: GroundTruth, detections: list[dict]):
    from faster_coco_eval import COCO, COCOeval_faster

    coco_gt = COCO(copy.deepcopy(gt.document))
    coco_dt = coco_gt.loadRes(_shallow_copies(detections))
    evaluator = COCOeval_faster(coco_gt, coco_dt, iouType="bbox")
    evaluator.evaluate()
    evaluator.accumulate()
    evaluator.summarize()
    return evaluator.stats[:12]


def no_detections_warning(display: str) -> str:
    """The warning for an empty detections list (``[]``), naming the file: the
    evaluation is recorded (a model that detects nothing has AP 0, a
    measurement), but a reader should know the zeros come from no input."""
    return f"{display}: no detections: AP and AP50 are 0 by construction"


def build_results(stats: dict[str, float], *, variant: str, dataset: str, backend: str, shape: str | None,
                  batch: int | None, inference_backend: str | None, mode: str | None, origin: str,
                  note: str | None = None) -> list[NewResult]:
    """One ``coco_ap`` result per statistic, each with ``note`` when given
    (e.g. :func:`no_detections_warning` for an empty detections file)."""
    evaluator = f"{backend} {backend_version(backend)} COCOeval bbox"
    out = []
    for name in STAT_NAMES:
        result = {"kind": "coco_ap", "variant": variant}
        if shape:
            result["shape"] = shape
        if batch is not None:
            result["batch"] = batch
        if inference_backend:
            result["backend"] = inference_backend
        if mode:
            result["mode"] = mode
        result.update(dataset=dataset, statistic=name, value=stats[name], evaluator=evaluator)
        if note:
            result["note"] = note
        out.append(NewResult(result, f"{origin} ({name})"))
    return out


def dataset_definition(dataset_id: str, gt: GroundTruth, *, split: str, source: str | None, role: str) -> dict:
    """A dataset definition (schemas/dataset.schema.json) for the images of
    the annotations: count, the sorted ids and their sha256. Built here,
    checked and written (or an existing one verified) by
    :mod:`studygen.records.datasets`."""
    ids = sorted(gt.image_ids, key=lambda v: (isinstance(v, str), v))
    return {
        "schema_version": 1,
        "dataset_id": dataset_id,
        "source": source or f"COCO-format annotations {Path(gt.display).name}",
        "split": split,
        "selection": f"every image listed in {Path(gt.display).name}",
        "count": len(ids),
        "role": role,
        "image_ids": ids,
        "image_ids_sha256": image_ids_sha256(ids),
    }
