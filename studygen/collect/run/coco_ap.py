"""COCO AP in ``collect run``: detections on a COCO-format image set, evaluated
by the ingest path (:mod:`studygen.collect.coco`, pycocotools).

Only when the study's ``run`` block names ``coco_images`` (a folder, relative
to the project root), ``coco_annotations`` (a COCO annotations file) and
``coco_dataset`` (the dataset id the AP figures refer to); otherwise the record
says AP was not measured and why.

Detections (:func:`detect`): each image is resized to ``coco_shape`` (default:
the agreement shape) as in :func:`~studygen.collect.run.images.to_pixel_values`;
the scores are the sigmoid of the class logits, the ``top_k`` (100) highest
over all queries and classes are kept (Deformable DETR's post-processing), and
the normalised (cx, cy, w, h) boxes are scaled to the original image size as
COCO ``[x, y, w, h]``. A class index is the COCO category id, as in the
Deformable DETR COCO checkpoints (91 labels); detections whose index names no
category of the annotations (the checkpoints' unused ids) are dropped and
counted.

Sharding: AP is not additive, so with ``--shard K/N`` each shard detects on its
K-th slice of the sorted image ids and writes
``measurements/<family>/detections/<job>/<variant>.shardKofN.json``; ``collect
run --merge-ap N`` then checks that all N slices are there, concatenates them
and evaluates COCO once over all images (record ``<job>-ap.json``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError, RecordError, UsageError
from ...fsutil import atomic_write_text, shown_path
from ..coco import load_detections, load_ground_truth
from .images import Photo, to_pixel_values

TOP_K = 100


@dataclass
class CocoSetup:
    """Where the images and annotations are, the dataset id, the input shape
    (HxW) and the ground truth, read and checked when the setup is made."""

    images: Path
    annotations: Path
    dataset_id: str
    shape: str
    ground_truth: object = None


def coco_setup(run: dict, *, root: Path, study_path: str, default_shape: str) -> CocoSetup | None:
    """The study's COCO settings, or None when it gives no images and annotations.
    Raises RecordError (pointer into the study file) for half a setting or a missing path, and
    InputError for ground truth that ``collect coco`` refuses (read here, before any model is built)."""
    images, annotations = run.get("coco_images"), run.get("coco_annotations")
    if not images and not annotations:
        return None
    if not (images and annotations):
        missing = "coco_images" if not images else "coco_annotations"
        raise RecordError(f"run.{missing} is needed too: AP needs an image folder and its annotations",
                          path=study_path, pointer=f"/run/{missing}")
    if not run.get("coco_dataset"):
        raise RecordError("run.coco_dataset names the dataset id the AP figures refer to", path=study_path,
                          pointer="/run/coco_dataset")
    folder = root / images
    if not folder.is_dir():
        raise RecordError(f"no image folder {images}", path=study_path, pointer="/run/coco_images")
    return CocoSetup(images=folder, annotations=root / annotations, dataset_id=run["coco_dataset"],
                     shape=str(run.get("coco_shape") or default_shape),
                     ground_truth=load_ground_truth(root / annotations, shown_path(root / annotations, root)))


def sorted_image_ids(ground_truth) -> list:
    """Image ids in a fixed order: integers numerically, then strings."""
    return sorted(ground_truth.image_ids, key=lambda v: (isinstance(v, str), v))


def shard_ids(ids: list, shard: tuple[int, int]) -> list:
    """The K-th of N contiguous slices of ``ids`` (sizes differ by at most one)."""
    index, count = shard
    return ids[(index - 1) * len(ids) // count:index * len(ids) // count]


class NoBoxesError(Exception):
    """The model's output holds no ``pred_boxes`` (not a detector): it has no COCO detections."""


def detect(model, ground_truth, image_ids: list, folder: Path, *, height: int, width: int, device, dtype,
           top_k: int = TOP_K) -> tuple[list[dict], int]:
    """``(detections, dropped)``: COCO results for ``image_ids`` and how many
    detections named no category of the annotations. Raises NoBoxesError
    when the model's output has no ``pred_boxes`` (an image classifier)."""
    import numpy as np
    import torch
    from PIL import Image

    files = {image["id"]: image.get("file_name") for image in ground_truth.document["images"]}
    categories = ground_truth.category_ids
    out, dropped = [], 0
    for image_id in image_ids:
        name = files.get(image_id)
        if not name or not (folder / name).is_file():
            raise InputError(f"image {image_id!r}: no file {name!r} in {folder}", path=ground_truth.display)
        with Image.open(folder / name) as opened:
            pixels = np.asarray(opened.convert("RGB"))
        original_h, original_w = pixels.shape[:2]
        pixel_values = to_pixel_values(Photo(name=name, pixels=pixels, sha256=""), height, width)
        output = model(pixel_values=pixel_values.to(device=device, dtype=dtype))
        if getattr(output, "pred_boxes", None) is None:
            raise NoBoxesError(f"the model's output ({type(output).__name__}) holds no pred_boxes")
        logits = output.logits[0].float()
        boxes = output.pred_boxes[0].float()
        scores = logits.sigmoid().flatten()
        k = min(top_k, scores.numel())
        top_scores, top_index = torch.topk(scores, k)
        classes = logits.shape[1]
        for score, flat in zip(top_scores.tolist(), top_index.tolist()):
            label, query = flat % classes, flat // classes
            if label not in categories:
                dropped += 1
                continue
            cx, cy, w, h = boxes[query].tolist()
            out.append({"image_id": image_id, "category_id": label, "score": float(score),
                        "bbox": [(cx - w / 2) * original_w, (cy - h / 2) * original_h, w * original_w, h * original_h]})
    return out, dropped


def detections_path(measurements: Path, job: str, variant: str, shard: tuple[int, int]) -> Path:
    """``detections/<job>/<variant>.json`` (unsharded) or ``<variant>.shardKofN.json``."""
    suffix = "" if shard == (1, 1) else f".shard{shard[0]}of{shard[1]}"
    return measurements / "detections" / job / f"{variant}{suffix}.json"


def write_detections(path: Path, detections: list[dict]) -> None:
    """The COCO results list, one detection a line, written atomically."""
    text = "[\n" + ",\n".join(json.dumps(d, separators=(",", ":")) for d in detections) + ("\n" if detections else "") + "]\n"
    atomic_write_text(path, text)


def merge_shards(measurements: Path, job: str, variant: str, count: int) -> tuple[list[dict], list[Path]]:
    """All ``count`` shards of ``variant``'s detections, concatenated. Raises
    UsageError naming the first missing shard file."""
    merged, paths = [], []
    for index in range(1, count + 1):
        path = detections_path(measurements, job, variant, (index, count))
        if not path.is_file():
            raise UsageError(f"cannot merge AP of {variant}: shard {index}/{count} has no detections file {path}")
        merged.extend(load_detections(path))
        paths.append(path)
    return merged, paths
