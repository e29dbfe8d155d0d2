"""COCOeval (bbox) over validated columns: the reference order, the spread
over tie orders, maxDets, bounded memory.

The 12 statistics are those of pycocotools' ``COCOeval.summarize`` (or
faster-coco-eval's, which agrees within 1e-4), computed by the library
itself, for the files as given. What this module adds, and why:

- **The reference order.** COCOeval sorts detections by score with a stable
  sort, so tied scores are ranked by the order the library meets them in:
  within an image as the results file lists them, across images by image
  id (``params.imgIds`` is the sorted ids; each image's results are
  concatenated in that order before ranking). The inputs are handed over
  in exactly that order (images by id, which are all integers or all
  strings: the ground-truth checks refuse a mix; ground truth and
  detections of an image in file order), so the figures are pycocotools'
  for the files as given (issue 22: a canonical order of our own gave AP50
  0.698 on the cocoapi demo pair where pycocotools and faster-coco-eval
  give 0.697).
- **The spread over tie orders.** That order is arbitrary among tied
  scores, and a shuffled results file or renumbered images give another
  AP. Where ties exist, the AP statistics are also computed (by the
  library's own ``accumulate`` and ``summarize``) with the tied detections
  of each category ranked true positives first (the best order) and false
  positives first (the worst), at each IoU threshold, each image's matches
  as COCOeval made them for the files as given: :func:`tie_order_range`.
  Any order of the tied detections that keeps those matches gives an AP
  inside that range; two tied detections of one image competing for one
  ground-truth box may also trade the match, which the range does not
  vary. The record keeps the range beside each AP figure, never instead of
  it.
- **maxDets.** COCOeval scores at most 100 detections per image *and
  category* (the top 100 by score); the others are counted for the record's
  notes and dropped before evaluating (they could not change a figure).
- **Memory.** COCOeval's objects cost about 1 kB a detection. Each category
  is evaluated on its own (COCOeval's figures are per category and averaged
  afterwards), its images in chunks of at most :data:`CHUNK_OBJECTS` boxes;
  pycocotools' per-image results are kept in compact form and accumulated by
  pycocotools' own ``accumulate``. The combined precision and recall arrays are
  those of one evaluation over everything, summarised by the library's
  ``summarize``.
"""

from __future__ import annotations

import contextlib
import copy
import io
import logging
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version

from ..errors import InputError, UsageError
from . import coco_ties
from .coco_detections import Detections
from .coco_truth import GroundTruth, pair_keys
from .lazy import lazy_import

np = lazy_import("numpy")  # imported on first use, so that importing this module stays light

STAT_NAMES = ("AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl")
BACKENDS = ("pycocotools", "faster-coco-eval")
MAX_DETS = 100  # COCOeval Params.maxDets[-1]: detections scored per image and category
# Boxes (ground truth and detections) evaluated per pycocotools call: about 0.2 GB of its objects.
CHUNK_OBJECTS = 200_000


@dataclass
class Prepared:
    """Inputs in the reference order, ready for COCOeval.

    ``rank``: rank of each image index by image id (0-based; COCOeval id is
    rank + 1); ``gt_order`` / ``dt_order``: annotation and detection indices
    in that order (category, image rank, then, for detections, score with
    ties in file order), detections beyond maxDets left out; ``notes``:
    lines for the record (ties, maxDets); ``warnings``: lines for stderr as
    well (one score for every detection); ``unscored``: how many detections
    lie beyond maxDets; ``tied``: how many scored detections share their
    score with another of their category.
    """

    rank: np.ndarray
    gt_order: np.ndarray
    dt_order: np.ndarray
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unscored: int = 0
    tied: int = 0


def _id_ranks(image_list: list) -> np.ndarray:
    """Rank of each image index by its id, as pycocotools sorts ``getImgIds()``
    (the ids are all integers or all strings: coco_truth refuses a mix)."""
    by_id = sorted(range(len(image_list)), key=image_list.__getitem__)
    rank = np.empty(len(image_list), dtype=np.int64)
    rank[by_id] = np.arange(len(image_list))
    return rank


def prepare(gt: GroundTruth, detections: Detections) -> Prepared:
    """The reference order and maxDets for ``gt`` and ``detections`` (see the module docstring)."""
    rank = _id_ranks(gt.image_list)
    ann = gt.annotations
    gt_order = np.lexsort((np.arange(len(ann.category)), rank[ann.image], ann.category))
    dt_order = np.lexsort((np.arange(len(detections)), -detections.score, rank[detections.image],
                           detections.category))
    prepared = Prepared(rank=rank, gt_order=gt_order, dt_order=dt_order)
    if len(detections):
        _apply_max_dets(prepared, gt, detections)
        _note_ties(prepared, detections)
    _note_crowded_truth(prepared, gt)
    return prepared


def _note_crowded_truth(prepared: Prepared, gt: GroundTruth) -> None:
    """Images with more ground-truth boxes of one category than maxDets: recall there is capped."""
    ann = gt.annotations
    (keys,) = pair_keys(len(gt.image_list), (ann.category, ann.image))
    crowded = int(np.count_nonzero(np.unique(keys, return_counts=True)[1] > MAX_DETS))
    if crowded:
        pairs = "image and category pair has" if crowded == 1 else "image and category pairs have"
        prepared.notes.append(f"{crowded} {pairs} more than {MAX_DETS} ground-truth boxes: with "
                              f"{MAX_DETS} detections scored per pair, recall there cannot reach 1 (maxDets)")


def _group_positions(keys: np.ndarray) -> np.ndarray:
    """Position of each element within its run of equal ``keys`` (keys sorted)."""
    starts = np.r_[0, np.flatnonzero(keys[1:] != keys[:-1]) + 1]
    lengths = np.diff(np.r_[starts, len(keys)])
    return np.arange(len(keys)) - np.repeat(starts, lengths)


def _apply_max_dets(prepared: Prepared, gt: GroundTruth, detections: Detections) -> None:
    order = prepared.dt_order
    (pair,) = pair_keys(len(gt.image_list), (detections.category[order], prepared.rank[detections.image[order]]))
    within = _group_positions(pair)
    scored = within < MAX_DETS
    prepared.unscored = int(np.count_nonzero(~scored))
    prepared.dt_order = order[scored]
    per_image = np.bincount(detections.image)
    crowded = int(np.count_nonzero(per_image > MAX_DETS))
    if prepared.unscored:
        prepared.notes.append(f"{prepared.unscored} of {len(detections)} detections were not scored: COCOeval keeps the "
                              f"{MAX_DETS} highest-scoring detections of each image and category (maxDets)")
    if crowded:
        images = "image has" if crowded == 1 else "images have"
        prepared.notes.append(f"{crowded} {images} more than {MAX_DETS} detections in all; COCOeval caps each "
                              f"category separately, where the COCO evaluation server keeps {MAX_DETS} per image")


def _note_ties(prepared: Prepared, detections: Detections) -> None:
    order = prepared.dt_order
    if not len(order):
        return
    keyed = np.lexsort((detections.score[order], detections.category[order]))
    category = detections.category[order][keyed]
    score = detections.score[order][keyed]
    same = (category[1:] == category[:-1]) & (score[1:] == score[:-1])
    tied = np.zeros(len(order), dtype=bool)
    tied[1:] |= same
    tied[:-1] |= same
    prepared.tied = count = int(np.count_nonzero(tied))
    if not count:
        return
    prepared.notes.append(f"{count} of {len(order)} scored detections share their score with another of their category; "
                          "COCOeval ranks tied detections in the file's order within an image and by image id across "
                          "images, and the figures are its figures for the files as given")
    if detections.score.min() == detections.score.max():
        prepared.warnings.append(f"{detections.display}: every detection has the score {float(detections.score[0])!r}: "
                                 "AP ranks detections by score, so where true and false positives compete only the "
                                 "order of the files ranks them, not the model")


def backend_version(backend: str) -> str:
    """Installed version of the evaluator package; UsageError when it is missing."""
    try:
        return version(backend)
    except PackageNotFoundError:
        raise UsageError(f"{backend} is not installed (pip install {backend})") from None


@contextlib.contextmanager
def _quiet():
    """pycocotools prints with print(), faster-coco-eval logs: both silenced."""
    logger = logging.getLogger("faster_coco_eval")
    level = logger.level
    logger.setLevel(logging.ERROR)
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            yield
    finally:
        logger.setLevel(level)


@dataclass
class Evaluation:
    """The 12 statistics by name (:data:`STAT_NAMES`), and for the AP
    statistics the range their values take over the orders of tied scores
    (``tie_range``: name → (worst, best)), empty when no score is tied or
    the backend keeps its per-image results out of reach (faster-coco-eval)."""

    stats: dict[str, float]
    tie_range: dict[str, tuple[float, float]] = field(default_factory=dict)


def evaluate(gt: GroundTruth, detections: Detections, backend: str = "pycocotools",
             prepared: Prepared | None = None, chunk_objects: int = CHUNK_OBJECTS) -> dict[str, float]:
    """The 12 COCOeval bbox statistics by name (:data:`STAT_NAMES`), in
    [0, 1] or -1 for a size range without ground truth (pycocotools), for
    the inputs in the reference order (see the module docstring).

    ``backend``: ``pycocotools`` (reference) or ``faster-coco-eval``;
    ``prepared``: from :func:`prepare` (computed when not given);
    ``chunk_objects``: boxes per pycocotools call. Raises UsageError for an
    unknown or missing backend, InputError when no ground truth can be scored.
    """
    return evaluation(gt, detections, backend, prepared, chunk_objects).stats


def evaluation(gt: GroundTruth, detections: Detections, backend: str = "pycocotools",
               prepared: Prepared | None = None, chunk_objects: int = CHUNK_OBJECTS) -> Evaluation:
    """:func:`evaluate`'s statistics, and with pycocotools, where scores are
    tied, the range of the AP statistics over tie orders
    (:mod:`studygen.collect.coco_ties`). Raises as :func:`evaluate`."""
    if backend not in BACKENDS:
        raise UsageError(f"unknown COCO backend {backend!r} (use {' or '.join(BACKENDS)})")
    backend_version(backend)
    prepared = prepared or prepare(gt, detections)
    inputs = _CategoryInputs(gt, detections, prepared)
    ranked = backend == "pycocotools" and prepared.tied > 0
    with _quiet():
        stats, tie_range = _run(inputs, _pycocotools_category if backend == "pycocotools" else _faster_category,
                                chunk_objects, ranked)
    named = dict(zip(STAT_NAMES, (float(s) for s in stats)))  # faster-coco-eval's stats go on past the 12
    if named["AP"] < 0:  # -1: COCOeval's "absent"; the ground-truth checks leave no way here, so say it plainly
        raise InputError("COCOeval found no ground truth to score (AP -1, its mark for absent): nothing is recorded",
                         path=gt.display)
    return Evaluation(named, tie_range)


class _CategoryInputs:
    """Per category: the images' ids in the reference order and the COCO dicts of a slice of them."""

    def __init__(self, gt: GroundTruth, detections: Detections, prepared: Prepared):
        self.gt, self.detections, self.prepared = gt, detections, prepared
        ann = gt.annotations
        self.gt_order = prepared.gt_order
        self.dt_order = prepared.dt_order
        self.gt_category = ann.category[self.gt_order]
        self.dt_category = detections.category[self.dt_order]
        self.gt_rank = prepared.rank[ann.image[self.gt_order]]
        self.dt_rank = prepared.rank[detections.image[self.dt_order]]
        # Only categories with ground truth are evaluated: COCOeval leaves every other one at -1, which
        # summarize leaves out of each mean, so the statistics are those of all listed categories. The work
        # follows the boxes, not the "categories" list (a million listed categories took past 300 s).
        self.categories = [int(c) for c in np.unique(self.gt_category)]

    def spans(self, category: int) -> tuple[slice, slice]:
        """Slices of the ground-truth and detection orders holding ``category``."""
        g = slice(int(np.searchsorted(self.gt_category, category, side="left")),
                  int(np.searchsorted(self.gt_category, category, side="right")))
        d = slice(int(np.searchsorted(self.dt_category, category, side="left")),
                  int(np.searchsorted(self.dt_category, category, side="right")))
        return g, d

    def image_ranks(self, g: slice, d: slice) -> np.ndarray:
        return np.unique(np.concatenate([self.gt_rank[g], self.dt_rank[d]]))

    def dataset(self, category: int, ranks: np.ndarray, g: slice, d: slice) -> tuple[dict, dict]:
        """COCO ground-truth and results datasets of ``category`` on the images ``ranks``
        (sorted), restricted to the spans ``g`` and ``d``."""
        ann, det = self.gt.annotations, self.detections
        low, high = int(ranks[0]), int(ranks[-1])
        gt_pick = self.gt_order[g][(self.gt_rank[g] >= low) & (self.gt_rank[g] <= high)]
        dt_pick = self.dt_order[d][(self.dt_rank[d] >= low) & (self.dt_rank[d] <= high)]
        images = [{"id": int(r) + 1} for r in ranks]
        categories = [{"id": category}]
        gt_ids = self.prepared.rank[ann.image[gt_pick]] + 1
        gts = [{"id": int(k) + 1, "image_id": int(i), "category_id": category, "bbox": b, "area": a, "iscrowd": int(c)}
               for k, i, b, a, c in zip(gt_pick.tolist(), gt_ids.tolist(), ann.box[gt_pick].tolist(),
                                        ann.area[gt_pick].tolist(), ann.crowd[gt_pick].tolist())]
        dt_ids = self.prepared.rank[det.image[dt_pick]] + 1
        boxes = det.box[dt_pick].tolist()
        dts = [{"id": n + 1, "image_id": int(i), "category_id": category, "bbox": b, "score": s,
                "area": b[2] * b[3], "iscrowd": 0}
               for n, (i, b, s) in enumerate(zip(dt_ids.tolist(), boxes, det.score[dt_pick].tolist()))]
        return ({"images": images, "categories": categories, "annotations": gts},
                {"images": images, "categories": categories, "annotations": dts})


def _chunks(inputs: _CategoryInputs, ranks: np.ndarray, g: slice, d: slice, limit: int) -> list[np.ndarray]:
    """Split the sorted image ranks so that each piece holds at most ``limit`` boxes (one image at least)."""
    counts = np.zeros(len(ranks), dtype=np.int64)
    np.add.at(counts, np.searchsorted(ranks, inputs.gt_rank[g]), 1)
    np.add.at(counts, np.searchsorted(ranks, inputs.dt_rank[d]), 1)
    pieces, start, running = [], 0, 0
    for index, count in enumerate(counts.tolist()):
        if running and running + count > limit:
            pieces.append(ranks[start:index])
            start, running = index, 0
        running += count
    pieces.append(ranks[start:])
    return pieces


def _compact(entry):
    """An evalImgs entry reduced to what ``accumulate`` reads: dtScores as an
    array, dtMatches as truth values (it only asks whether a detection
    matched), dtIgnore and gtIgnore as they are."""
    if entry is None:
        return None
    return {"dtScores": np.asarray(entry["dtScores"]), "dtMatches": entry["dtMatches"] != 0,
            "dtIgnore": entry["dtIgnore"], "gtIgnore": entry["gtIgnore"]}


def _pycocotools_objects(gt_dataset: dict, dt_dataset: dict):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    coco_gt, coco_dt = COCO(), COCO()
    coco_gt.dataset, coco_dt.dataset = gt_dataset, dt_dataset
    coco_gt.createIndex()
    coco_dt.createIndex()
    return COCOeval(coco_gt, coco_dt, "bbox")


def _pycocotools_category(inputs: _CategoryInputs, category: int, ranks: np.ndarray, g: slice, d: slice,
                          chunk_objects: int):
    """One category by pycocotools, its images in chunks: the per-image results of every chunk, compacted,
    accumulated by ``COCOeval.accumulate`` as if evaluated at once."""
    per_area: list[list] | None = None
    for piece in _chunks(inputs, ranks, g, d, chunk_objects):
        evaluator = _pycocotools_objects(*inputs.dataset(category, piece, g, d))
        evaluator.params.imgIds = (piece + 1).tolist()
        evaluator.params.catIds = [category]
        evaluator.evaluate()
        areas, images = len(evaluator.params.areaRng), len(piece)
        compact = [_compact(e) for e in evaluator.evalImgs]
        per_area = per_area or [[] for _ in range(areas)]
        for a in range(areas):  # evalImgs is ordered category, area range, image
            per_area[a].extend(compact[a * images:(a + 1) * images])
    evaluator.evalImgs = [entry for area in per_area for entry in area]
    evaluator.params.imgIds = (ranks + 1).tolist()
    evaluator._paramsEval = copy.deepcopy(evaluator.params)
    evaluator.accumulate()
    return evaluator


def _faster_category(inputs: _CategoryInputs, category: int, ranks: np.ndarray, g: slice, d: slice, _chunk_objects):
    """One category by faster-coco-eval, all its images at once (its per-image results live in C++)."""
    from faster_coco_eval import COCO, COCOeval_faster

    gt_dataset, dt_dataset = inputs.dataset(category, ranks, g, d)
    evaluator = COCOeval_faster(COCO(gt_dataset), COCO(dt_dataset), iouType="bbox")
    evaluator.params.imgIds = (ranks + 1).tolist()
    evaluator.params.catIds = [category]
    evaluator.evaluate()
    evaluator.accumulate()
    return evaluator


def _run(inputs: _CategoryInputs, one_category, chunk_objects: int, ranked: bool = False):
    """Each category with ground truth through ``one_category``; the
    statistics of them all, and with ``ranked`` (pycocotools, tied scores)
    the AP statistics' range over tie orders (else an empty dict)."""
    precision, recall, evaluator = [], [], None
    orders: dict[bool, list] = {True: [], False: []}  # matched first (best), last (worst)
    for category in inputs.categories:
        g, d = inputs.spans(category)
        ranks = inputs.image_ranks(g, d)
        evaluator = one_category(inputs, category, ranks, g, d, chunk_objects)
        precision.append(np.asarray(evaluator.eval["precision"]))
        recall.append(np.asarray(evaluator.eval["recall"]))
        if ranked:
            for matched_first, kept in orders.items():
                kept.append(coco_ties.ordered_precision(evaluator, len(ranks), matched_first))
    stats = copy.copy(_summarize(evaluator, precision, recall, inputs))
    if not ranked:
        return stats, {}
    best, worst = (coco_ties.ordered_statistics(evaluator, orders[first]) for first in (True, False))
    return stats, {name: (worst[name], best[name]) for name in coco_ties.AP_STATISTICS}


def _summarize(evaluator, precision: list, recall: list, inputs: _CategoryInputs):
    """The library's ``summarize`` over the precision and recall of every
    category with ground truth (the only ones that count, see _CategoryInputs)."""
    full_p = np.concatenate(precision, axis=2)
    full_r = np.concatenate(recall, axis=1)
    evaluator.params.catIds = list(inputs.categories)
    evaluator.eval = {**evaluator.eval, "precision": full_p, "recall": full_r}
    evaluator.summarize()
    return evaluator.stats
