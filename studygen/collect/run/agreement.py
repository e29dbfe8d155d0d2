"""Agreement of a variant with the fp32 reference on the same inputs.

* **logit correlation**: Pearson's r over every class logit of every query of
  every image (float64), counting only positions finite in both outputs.
* **non-finite count**: NaN or Inf values in the variant's logits and boxes.
* **top-1 agreement** (classifiers only: one logit vector per image): the
  fraction of images whose highest logit is at the same class in the variant
  as in the reference, over the images whose reference logits are all
  finite; a variant image holding a non-finite logit has no top class and
  counts as disagreeing. A tie takes the lowest class index (``argmax``).
* **precision / recall of matched detections** (detectors only: a model whose
  output has no ``pred_boxes``, an image classifier, is compared by its
  logits alone): detections per image are the
  queries whose best class probability (sigmoid, as Deformable DETR's focal
  loss defines its scores) reaches ``score_threshold``, the ``top_k`` highest
  when set; boxes (cx, cy, w, h normalised) become pixel corners of the input
  shape. Greedy matching in descending variant score: a variant detection
  matches the unmatched reference detection of the same label with the highest
  IoU, when that IoU reaches ``iou_threshold``. Precision = matches / variant
  detections, recall = matches / reference detections; undefined (None) when
  the denominator is zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Outputs:
    """One image's model outputs as float64 numpy arrays: ``logits`` (Q, C) for
    a detector, (C,) for a classifier, None when the output has none;
    ``boxes`` (Q, 4) cx, cy, w, h in [0, 1], None when the model gives none."""

    logits: object
    boxes: object = None


def outputs_from_model(model_output) -> Outputs:
    """Batch-1 transformers output → :class:`Outputs` (float64, CPU): its
    ``logits`` and, for a detector, its ``pred_boxes``; a field the output
    lacks (or holds as None) is None."""
    def first(name: str):
        value = getattr(model_output, name, None)
        return None if value is None else value[0].detach().double().cpu().numpy()

    return Outputs(logits=first("logits"), boxes=first("pred_boxes"))


def have_boxes(outputs: list[Outputs]) -> bool:
    """Every output holds boxes (a detector's): precision and recall of
    matched detections can be read off them."""
    return bool(outputs) and all(o.boxes is not None for o in outputs)


def have_logits(outputs: list[Outputs]) -> bool:
    """Every output holds logits, so they can be compared."""
    return bool(outputs) and all(o.logits is not None for o in outputs)


def logit_correlation(reference: list[Outputs], variant: list[Outputs]) -> float | None:
    """Pearson's r of all logits (finite in both); None when fewer than two such values or zero variance."""
    import numpy as np

    ref = np.concatenate([o.logits.ravel() for o in reference])
    var = np.concatenate([o.logits.ravel() for o in variant])
    keep = np.isfinite(ref) & np.isfinite(var)
    ref, var = ref[keep], var[keep]
    if ref.size < 2:
        return None
    ref_c, var_c = ref - ref.mean(), var - var.mean()
    denominator = math.sqrt(float((ref_c ** 2).sum()) * float((var_c ** 2).sum()))
    if denominator == 0:
        return None
    return float((ref_c * var_c).sum()) / denominator


def top1_agreement(reference: list[Outputs], variant: list[Outputs]) -> float | None:
    """Fraction (0 to 1) of images whose variant logits (C,) have their
    largest value at the class the reference's have it, over the images
    whose reference logits are all finite (a reference without a top class
    compares nothing); a variant image with a NaN or Inf logit disagrees.
    None for a detector's outputs (logits per query, (Q, C)) or when no
    reference image is finite. Ties: the lowest class index (``numpy.argmax``)."""
    import numpy as np

    if not all(o.logits.ndim == 1 for o in (*reference, *variant)):
        return None
    compared = agreeing = 0
    for ref, var in zip(reference, variant, strict=True):
        if not np.isfinite(ref.logits).all():
            continue
        compared += 1
        agreeing += bool(np.isfinite(var.logits).all() and int(np.argmax(var.logits)) == int(np.argmax(ref.logits)))
    return agreeing / compared if compared else None


def nonfinite_count(outputs: list[Outputs]) -> int:
    """NaN and Inf values over all logits and boxes (those the outputs hold)."""
    import numpy as np

    return int(sum((~np.isfinite(array)).sum() for o in outputs for array in (o.logits, o.boxes) if array is not None))


def detections(output: Outputs, *, height: int, width: int, score_threshold: float, top_k: int | None = None) -> list[tuple]:
    """``[(score, label, (x0, y0, x1, y1)), ...]`` in descending score; boxes in pixels."""
    import numpy as np

    with np.errstate(over="ignore"):
        probs = 1.0 / (1.0 + np.exp(-output.logits))
    labels = probs.argmax(axis=1)
    scores = probs[np.arange(probs.shape[0]), labels]
    found = []
    for query in np.argsort(-scores, kind="stable"):
        score = float(scores[query])
        if not math.isfinite(score) or score < score_threshold:
            continue
        cx, cy, w, h = (float(v) for v in output.boxes[query])
        found.append((score, int(labels[query]),
                      ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)))
        if top_k is not None and len(found) >= top_k:
            break
    return found


def iou(a: tuple, b: tuple) -> float:
    """Intersection over union of two (x0, y0, x1, y1) boxes; 0 for empty or non-finite boxes."""
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    if not (ix > 0 and iy > 0):
        return 0.0
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def match_counts(reference: list[tuple], variant: list[tuple], iou_threshold: float) -> int:
    """Greedy matches (descending variant score, same label, best IoU >= threshold)."""
    used = [False] * len(reference)
    matches = 0
    for _, label, box in variant:
        best, best_iou = None, iou_threshold
        for index, (_, ref_label, ref_box) in enumerate(reference):
            if used[index] or ref_label != label:
                continue
            overlap = iou(box, ref_box)
            if overlap >= best_iou:
                best, best_iou = index, overlap
        if best is not None:
            used[best] = True
            matches += 1
    return matches


def precision_recall(reference: list[Outputs], variant: list[Outputs], *, height: int, width: int,
                     score_threshold: float, iou_threshold: float, top_k: int | None = None) -> dict:
    """``{"precision", "recall", "matches", "variant_detections", "reference_detections"}`` over all images."""
    matches = n_var = n_ref = 0
    for ref_out, var_out in zip(reference, variant, strict=True):
        ref_det = detections(ref_out, height=height, width=width, score_threshold=score_threshold, top_k=top_k)
        var_det = detections(var_out, height=height, width=width, score_threshold=score_threshold, top_k=top_k)
        matches += match_counts(ref_det, var_det, iou_threshold)
        n_var += len(var_det)
        n_ref += len(ref_det)
    return {
        "precision": matches / n_var if n_var else None,
        "recall": matches / n_ref if n_ref else None,
        "matches": matches, "variant_detections": n_var, "reference_detections": n_ref,
    }
