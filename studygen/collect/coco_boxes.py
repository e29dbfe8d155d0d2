"""Do the detections mean what COCOeval will read? One probe, several readings.

COCOeval reads ``bbox`` as x, y, w, h in pixels and trusts the image and
category ids. Detections written in another box convention, or with
category or image ids shifted, evaluate without an error to an AP near 0
(public reports: xyxy boxes, YOLO's normalised centre boxes, contiguous
class indices, ids off by one). Rather than guess from box borders, the probe
takes the :data:`PROBE_SIZE` highest-scoring detections and counts how many
overlap a ground-truth box (IoU ≥ 0.5) under each reading:

- box conventions: x, y, w, h; x1, y1, x2, y2; centre x, centre y, w, h;
  and each of those normalised to the image size (``width``/``height`` of
  the image, or the extent of all ground-truth boxes when the file gives no
  size), so coordinates slightly below 0 or above 1 count as what they are;
- the category of the ground truth under each box: for every ground-truth
  box the probed detections overlap, the category of the highest-scoring one
  (a model fires several classes on one box, so only its top answer counts);
  refused when another category wins far more often, at least
  :data:`MIN_BOXES` boxes are found and one mapping of categories explains
  most mismatches (shifted or permuted ids, not a model that guesses); a
  warning with the figures when another category merely wins, from
  :data:`MIN_WARNING_BOXES` found boxes on;
- the ground truth of the neighbouring image, in the annotations' list order
  and in id order (image ids off by one).

A reading is refused for when it matches far better than the one COCOeval
will use (at least :data:`FAR_BETTER_SHARE` of the probed detections more, and
at least twice as many); the refusal names the reading that fits. Boxes that
pass the image border are never refused for it: only matches count, so
detections that pass the border where the ground truth does are read as
x, y, w, h like any others. Two cases need no matches: every coordinate in
[-0.05, 1.05] while the ground-truth boxes are in pixels (normalised boxes of
a model that finds little), and no detection in a category annotated in its
image.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .coco_detections import Detections, refusal
from .coco_truth import GroundTruth, pair_keys
from .lazy import lazy_import

np = lazy_import("numpy")  # imported on first use, so that importing this module stays light

PROBE_SIZE = 20_000
MATCH_IOU = 0.5
FAR_BETTER_SHARE = 0.2  # of the probed detections
FAR_BETTER_RATIO = 2.0
# The category-mapping refusal wants this many ground-truth boxes found, and one mapping of detection
# categories onto ground-truth categories behind this share of the mismatches (a shifted table, not guesses).
MIN_BOXES = 20
MIN_WARNING_BOXES = 10  # fewer found boxes say nothing of a mapping (a weak or random model on a smoke-test set)
CONSISTENT_SHARE = 0.8
NORMALISED_SLACK = 0.05  # normalised coordinates a little outside [0, 1] (boxes cut by the border)
PIXEL_EXTENT = 2.0  # ground-truth boxes reaching past this are in pixels

CONVENTIONS = ("x, y, w, h", "x1, y1, x2, y2", "centre x, centre y, w, h",
               "x, y, w, h normalised to the image size", "x1, y1, x2, y2 normalised to the image size",
               "centre x, centre y, w, h normalised to the image size (YOLO)")
FIXES = {
    "x1, y1, x2, y2": "convert to x, y, w, h: w = x2 - x1, h = y2 - y1",
    "centre x, centre y, w, h": "convert to x, y, w, h: x = cx - w/2, y = cy - h/2",
    "x, y, w, h normalised to the image size": "multiply x and w by the image width, y and h by its height",
    "x1, y1, x2, y2 normalised to the image size": "scale to pixels by the image size, then w = x2 - x1, h = y2 - y1",
    "centre x, centre y, w, h normalised to the image size (YOLO)":
        "scale to pixels by the image size, then x = cx - w/2, y = cy - h/2",
}


@dataclass
class Probe:
    """Counts over the probed detections (``indices``, file order positions).

    ``matches``: convention → detections matching a box of their category
    in their image; ``first``: convention → first such detection (file
    index); ``boxes_found``: ground-truth boxes that some probed detection
    overlaps (IoU ≥ 0.5, as x, y, w, h, any category), ``boxes_own`` /
    ``boxes_other``: those whose highest-scoring such detection is of their
    category / of another; ``category_pairs``: (detection category,
    ground-truth category) → count of the latter; ``neighbours``:
    description → detections matching a box of their category in that
    neighbouring image.
    """

    indices: np.ndarray
    matches: dict[str, int] = field(default_factory=dict)
    first: dict[str, int] = field(default_factory=dict)
    boxes_found: int = 0
    boxes_own: int = 0
    boxes_other: int = 0
    other_first: int | None = None
    category_pairs: dict[tuple[int, int], int] = field(default_factory=dict)
    neighbours: dict[str, int] = field(default_factory=dict)
    neighbour_first: dict[str, int] = field(default_factory=dict)

    @property
    def probed(self) -> int:
        return len(self.indices)


def probe_sample(detections: Detections, size: int = PROBE_SIZE) -> np.ndarray:
    """File indices of the ``size`` highest-scoring detections, ties broken by
    box and category (never by file position), in file order."""
    score = detections.score
    candidates = np.arange(len(score))
    if len(score) > size:  # only the top of the scores needs the full sort
        threshold = np.partition(score, len(score) - size)[len(score) - size]
        candidates = np.flatnonzero(score >= threshold)
    box, category = detections.box[candidates], detections.category[candidates]
    order = np.lexsort((category, box[:, 3], box[:, 2], box[:, 1], box[:, 0], -score[candidates]))
    return np.sort(candidates[order[:size]])


def _image_sizes(gt: GroundTruth) -> np.ndarray:
    """(images, 2) width and height; the extent of all ground-truth boxes where the file gives none."""
    sizes = gt.sizes()
    box = gt.annotations.box
    extent = np.array([np.max(box[:, 0] + box[:, 2]), np.max(box[:, 1] + box[:, 3])]) if len(box) else np.ones(2)
    extent = np.where(extent > 0, extent, 1.0)
    return np.where(np.isnan(sizes), extent, sizes)


def readings(box: np.ndarray, size: np.ndarray) -> dict[str, np.ndarray]:
    """``box`` (N, 4) under each convention of :data:`CONVENTIONS`, as pixel
    x, y, w, h; ``size`` (N, 2) the image width and height of each box."""
    a, b, c, d = box.T
    out = {}
    for scale, suffix in ((np.ones_like(size), ""), (size, " normalised to the image size")):
        sa, sb, sc, sd = a * scale[:, 0], b * scale[:, 1], c * scale[:, 0], d * scale[:, 1]
        out["x, y, w, h" + suffix] = np.stack([sa, sb, sc, sd], axis=1)
        out["x1, y1, x2, y2" + suffix] = np.stack([sa, sb, sc - sa, sd - sb], axis=1)
        name = "centre x, centre y, w, h" + suffix + (" (YOLO)" if suffix else "")
        out[name] = np.stack([sa - sc / 2, sb - sd / 2, sc, sd], axis=1)
    return out


def iou(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Row-wise IoU of two (N, 4) x, y, w, h arrays; 0 where either box has
    no area or a negative side (COCOeval's bbox IoU for non-crowd boxes)."""
    w1, h1 = np.maximum(first[:, 2], 0), np.maximum(first[:, 3], 0)
    w2, h2 = np.maximum(second[:, 2], 0), np.maximum(second[:, 3], 0)
    iw = np.minimum(first[:, 0] + w1, second[:, 0] + w2) - np.maximum(first[:, 0], second[:, 0])
    ih = np.minimum(first[:, 1] + h1, second[:, 1] + h2) - np.maximum(first[:, 1], second[:, 1])
    inter = np.clip(iw, 0, None) * np.clip(ih, 0, None)
    union = w1 * h1 + w2 * h2 - inter
    return np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)


class _Pairs:
    """Every (probed detection, ground-truth box) pair of a given image mapping."""

    def __init__(self, gt: GroundTruth):
        ann = gt.annotations
        self.order = np.argsort(ann.image, kind="stable")
        self.sorted_images = ann.image[self.order]
        self.box = ann.box
        self.category = ann.category

    def of(self, images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in ``images``, annotation index) for each ground-truth box of each image."""
        start = np.searchsorted(self.sorted_images, images, side="left")
        end = np.searchsorted(self.sorted_images, images, side="right")
        counts = end - start
        rows = np.repeat(np.arange(len(images)), counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        return rows, self.order[np.repeat(start, counts) + offsets]


def _matched(rows: np.ndarray, hit: np.ndarray, count: int) -> np.ndarray:
    """Booleans per probed detection: some pair of it is a hit."""
    out = np.zeros(count, dtype=bool)
    out[rows[hit]] = True
    return out


def run_probe(gt: GroundTruth, detections: Detections, size: int = PROBE_SIZE) -> Probe:
    """Count the probed detections' matches under every reading (see the module docstring)."""
    indices = probe_sample(detections, size)
    result = Probe(indices=indices, matches=dict.fromkeys(CONVENTIONS, 0))
    if not len(indices):
        return result
    pairs = _Pairs(gt)
    images = detections.image[indices]
    category = detections.category[indices]
    rows, ann = pairs.of(images)
    same = category[rows] == pairs.category[ann]
    sizes = _image_sizes(gt)[images]
    for name, boxes in readings(detections.box[indices], sizes).items():
        overlap = iou(boxes[rows], pairs.box[ann]) >= MATCH_IOU
        hit = _matched(rows, overlap & same, len(indices))
        result.matches[name] = int(np.count_nonzero(hit))
        if hit.any():
            result.first[name] = int(indices[np.argmax(hit)])
        if name == CONVENTIONS[0]:
            _top_detection_categories(result, rows[overlap], ann[overlap], category, detections.score[indices],
                                      pairs, indices)
    _neighbours(result, gt, detections, pairs)
    return result


def _top_detection_categories(result: Probe, rows, ann, category, score, pairs: _Pairs, indices) -> None:
    """Per ground-truth box overlapped by probed detections, the category of the highest-scoring one.

    A model fires several classes on one box (a DETR's top-k over queries and classes, a detector's low-score
    tail), so counting detections would see "other categories" everywhere; the top detection on a box is the
    model's answer for it, right for a working model, shifted for a wrong mapping."""
    if not len(rows):
        return
    order = np.lexsort((rows, -score[rows], ann))  # per box, the highest score first, then file order
    ann, rows = ann[order], rows[order]
    first = np.r_[True, ann[1:] != ann[:-1]]
    top_rows, top_ann = rows[first], ann[first]
    detected, truth = category[top_rows], pairs.category[top_ann]
    own = detected == truth
    result.boxes_found = int(len(top_ann))
    result.boxes_own = int(np.count_nonzero(own))
    result.boxes_other = int(np.count_nonzero(~own))
    if result.boxes_other:
        result.other_first = int(indices[np.min(top_rows[~own])])
        for d, g in zip(detected[~own].tolist(), truth[~own].tolist()):
            result.category_pairs[(d, g)] = result.category_pairs.get((d, g), 0) + 1


def _neighbours(result: Probe, gt: GroundTruth, detections: Detections, pairs: _Pairs) -> None:
    """Matches against the ground truth of the image before or after each detection's own."""
    count = len(gt.image_list)
    listed = np.arange(count)
    by_id = np.array(sorted(range(count), key=gt.image_list.__getitem__))  # the ids are of one type
    position_by_id = np.empty(count, dtype=np.int64)
    position_by_id[by_id] = np.arange(count)
    indices = result.indices
    images = detections.image[indices]
    category = detections.category[indices]
    box = detections.box[indices]
    orders = {"the annotations’ image list": (listed, listed)}
    if not np.array_equal(by_id, listed):
        orders["id order"] = (by_id, position_by_id)
    for order_name, (order, position) in orders.items():
        for step, side in ((1, "after"), (-1, "before")):
            where = position[images] + step
            valid = (where >= 0) & (where < count)
            neighbour = order[np.clip(where, 0, count - 1)]  # pairs outside the list are dropped by ``valid``
            rows, ann = pairs.of(neighbour)
            keep = valid[rows] & (category[rows] == pairs.category[ann])
            hit = _matched(rows[keep], iou(box[rows[keep]], pairs.box[ann[keep]]) >= MATCH_IOU, len(indices))
            name = f"the image {side} theirs in {order_name}"
            result.neighbours[name] = int(np.count_nonzero(hit))
            if hit.any():
                result.neighbour_first[name] = int(indices[np.argmax(hit)])


def far_better(count: int, baseline: int, probed: int) -> bool:
    """Whether ``count`` matches beat ``baseline`` by the refusal margin."""
    return count - baseline >= FAR_BETTER_SHARE * probed and count >= FAR_BETTER_RATIO * baseline and count > 0


def check_readings(gt: GroundTruth, detections: Detections, size: int = PROBE_SIZE) -> list[str]:
    """Refuse detections that another reading fits far better (rules
    ``box-convention``, ``category-mapping``, ``image-mapping``); returns
    warnings with figures (partial image coverage, weak category mismatch)."""
    if not len(detections):
        return []
    display = detections.display
    probe = run_probe(gt, detections, size)
    own = probe.matches[CONVENTIONS[0]]
    _check_convention(gt, detections, probe, own, display)
    warnings = _check_categories(gt, detections, probe, display)
    _check_neighbours(gt, detections, probe, own, display)
    warnings += _coverage(gt, detections, display)
    return warnings


def _check_convention(gt, detections, probe: Probe, own: int, display: str) -> None:
    best = max(CONVENTIONS[1:], key=lambda name: (probe.matches[name], -CONVENTIONS.index(name)))
    count = probe.matches[best]
    if far_better(count, own, probe.probed):
        index = probe.first[best]
        raise refusal("box-convention", f"of the {probe.probed} highest-scoring match a ground-truth box of their "
                      f"category (IoU >= {MATCH_IOU}) when read as {best}, {own} when read as x, y, w, h as COCOeval "
                      "reads them", count, probe.probed, index, detections.example(index, gt), display, FIXES[best])
    box = detections.box
    gt_box = gt.annotations.box
    in_unit = np.all((box >= -NORMALISED_SLACK) & (box <= 1 + NORMALISED_SLACK))
    gt_in_pixels = len(gt_box) and np.max(gt_box[:, :2] + gt_box[:, 2:]) > PIXEL_EXTENT
    if in_unit and gt_in_pixels:
        named = best if count else "normalised to the image size"
        raise refusal("box-convention", f"have every coordinate within [{-NORMALISED_SLACK}, {1 + NORMALISED_SLACK}] "
                      "while the ground-truth boxes are in pixels: normalised boxes", len(detections), len(detections),
                      0, detections.example(0, gt), display,
                      f"read as {named}? {FIXES.get(named, 'scale them to pixels by the image size')}")


def _check_categories(gt, detections, probe: Probe, display: str) -> list[str]:
    truth_keys, detection_keys = pair_keys(len(gt.image_list), (gt.annotations.category, gt.annotations.image),
                                           (detections.category, detections.image))
    inside = np.isin(detection_keys, truth_keys)
    on_annotated = np.isin(detections.image, gt.annotations.image)
    if on_annotated.any() and not inside.any():
        raise refusal("category-mapping", "name a category that has ground truth in their image", 0, len(detections), 0,
                      detections.example(0, gt), display,
                      "none does: are the category ids the annotations' ids, not a model's class indices?")
    other, own_boxes, found = probe.boxes_other, probe.boxes_own, probe.boxes_found
    if other <= own_boxes or found < MIN_WARNING_BOXES:
        return []
    pattern = _category_pattern(probe.category_pairs)
    what = (f"have as their highest-scoring overlapping detection (IoU >= {MATCH_IOU}) one of another category, "
            f"{own_boxes} one of their own; {pattern}")
    if found >= MIN_BOXES and far_better(other, own_boxes, found) and _consistent(probe.category_pairs, other):
        index = probe.other_first
        raise refusal("category-mapping", what, other, found, index, detections.example(index, gt), display,
                      "category ids shifted or mapped from a model's class indices? use the annotations' ids",
                      unit="ground-truth boxes that detections overlap")
    return [f"{display}: {other} of the {found} ground-truth boxes that detections overlap {what}; check the category "
            "mapping"]


def _consistent(pairs: dict[tuple[int, int], int], other: int) -> bool:
    """Whether one mapping (each detection category onto one ground-truth category) explains most of the
    mismatches, as a shifted or permuted id table does and a model guessing classes at random does not."""
    counts: dict[int, list[int]] = {}
    for (detected, _), count in pairs.items():
        counts.setdefault(detected, []).append(count)
    return sum(max(found) for found in counts.values()) >= CONSISTENT_SHARE * other


def _category_pattern(pairs: dict[tuple[int, int], int]) -> str:
    """The most common shift from a detection's category id to the ground truth's it sits on, with an example."""
    by_offset: dict[int, int] = {}
    for (detected, truth), count in pairs.items():
        by_offset[truth - detected] = by_offset.get(truth - detected, 0) + count
    offset, count = max(by_offset.items(), key=lambda item: (item[1], -abs(item[0]), -item[0]))
    example = max((item for item in pairs.items() if item[0][1] - item[0][0] == offset),
                  key=lambda item: (item[1], -item[0][0]))[0]
    return (f"{count} of them on ground truth whose category id is theirs {offset:+d}, "
            f"e.g. category {example[0]} on category {example[1]}")


def _check_neighbours(gt, detections, probe: Probe, own: int, display: str) -> None:
    if not probe.neighbours:
        return
    name, count = max(probe.neighbours.items(), key=lambda item: item[1])
    if far_better(count, own, probe.probed):
        index = probe.neighbour_first[name]
        raise refusal("image-mapping", f"of the {probe.probed} highest-scoring match a ground-truth box of their "
                      f"category (IoU >= {MATCH_IOU}) in {name}, {own} in their own image", count, probe.probed, index,
                      detections.example(index, gt), display, "image ids off by one? name each image by its own id")


def _coverage(gt: GroundTruth, detections: Detections, display: str) -> list[str]:
    annotated = np.unique(gt.annotations.image)
    named = np.count_nonzero(np.isin(annotated, np.unique(detections.image)))
    if named >= len(annotated):
        return []
    return [f"{display} names {named} of the {len(annotated)} annotated images; AP is over all {len(annotated)} "
            f"(the ground truth of the other {len(annotated) - named} counts as missed)"]
