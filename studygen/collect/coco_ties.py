"""How far the order of tied scores moves COCO AP: the AP statistics with
the tied detections ranked in the best and in the worst order.

COCOeval ranks the detections of a category by score with a stable sort
(``accumulate``: ``np.argsort(-dtScores, kind='mergesort')`` over the
images' results concatenated in ``params.imgIds`` order), so among equal
scores the order of the files decides, which says nothing about the model.
Here, for one category already evaluated by pycocotools (its per-image
results in compact form, :mod:`.coco_eval`), each IoU threshold's
detections are ranked by score and, among equal scores, true positives
first (:func:`ordered_precision` with ``matched_first``) or false
positives first; pycocotools' own ``accumulate`` turns each ranking into
its precision array, and its ``summarize`` the arrays of every category
into the statistics (:func:`ordered_statistics`).

The matches stay those COCOeval made for the files as given (which
detection matched which ground-truth box, at each threshold): any order of
the tied detections that keeps them gives AP statistics inside the range
(moving a true positive ahead of a false positive at the same score never
lowers the interpolated precision). Only the AP statistics (AP, AP50, AP75,
APs, APm, APl) are ranked this way: the recall statistics do not depend on
the ranking across images.

To hand one ranking to ``accumulate``, which slices each image's results
to ``maxDets`` before concatenating them, the ranked detections are split
into pseudo-images of at most 100 detections each, in order: the stable
sort keeps that order among equal scores.
"""

from __future__ import annotations

import copy
import math

from .lazy import lazy_import

np = lazy_import("numpy")

AP_STATISTICS = ("AP", "AP50", "AP75", "APs", "APm", "APl")
PER_IMAGE = 100  # COCOeval's largest maxDets: what accumulate keeps of one image's results


class _Area:
    """The detections of one category and area range, all images' compact
    results joined once: scores (D), matches and ignore flags (T, D) and the
    ground truth's ignore flags. A category is evaluated only where it has
    ground truth, so each area range holds at least one image's results."""

    def __init__(self, entries: list[dict]):
        import numpy  # bound here: the lazy module's lookup per call costs more than the work in these loops

        self.scores = numpy.concatenate([numpy.asarray(e["dtScores"], dtype=float) for e in entries])
        self.matched = numpy.concatenate([numpy.asarray(e["dtMatches"], dtype=bool) for e in entries], axis=1)
        self.ignored = numpy.concatenate([numpy.asarray(e["dtIgnore"], dtype=bool) for e in entries], axis=1)
        self.truth_ignored = numpy.concatenate([numpy.asarray(e["gtIgnore"]) for e in entries])

    def ranked(self, threshold: int, matched_first: bool) -> list[dict]:
        """The detections at IoU threshold index ``threshold``, ranked by score
        and then true positives first (or last), as pseudo-image entries of at
        most :data:`PER_IMAGE` detections; the ground truth's ignore flags go
        with the first."""
        import numpy

        matched, ignored = self.matched[threshold], self.ignored[threshold]
        counted = matched & ~ignored  # what accumulate counts as a true positive
        order = numpy.lexsort((~counted if matched_first else counted, -self.scores))
        pieces = max(1, math.ceil(len(order) / PER_IMAGE))
        out = []
        for piece in range(pieces):
            part = order[piece * PER_IMAGE:(piece + 1) * PER_IMAGE]
            out.append({"dtScores": self.scores[part], "dtMatches": matched[part][None, :],
                        "dtIgnore": ignored[part][None, :],
                        "gtIgnore": self.truth_ignored if piece == 0 else self.truth_ignored[:0]})
        return out


def ordered_precision(evaluator, images: int, matched_first: bool):
    """Precision array (T, R, 1, A, M) of the one category ``evaluator``
    holds (pycocotools' COCOeval whose ``evalImgs`` are that category's
    compact per-image results, area range by area range, ``images`` each),
    its tied detections ranked best first (``matched_first``) or worst
    first. The evaluator's params and results are left as they were."""
    import numpy

    params, kept, results = evaluator.params, evaluator.evalImgs, evaluator.eval
    areas = [_Area([e for e in kept[a * images:(a + 1) * images] if e is not None])
             for a in range(len(params.areaRng))]
    per_threshold = []
    try:
        for t, threshold in enumerate(params.iouThrs):
            ranked = [area.ranked(t, matched_first) for area in areas]
            width = max(1, max(len(pieces) for pieces in ranked))
            one = copy.copy(params)  # shallow: only the thresholds and image ids change, never the lists inside
            one.iouThrs = numpy.array([threshold])
            one.imgIds = list(range(1, width + 1))
            evaluator.params, evaluator._paramsEval = one, copy.copy(one)
            evaluator.evalImgs = [entry for pieces in ranked for entry in pieces + [None] * (width - len(pieces))]
            evaluator.accumulate()
            per_threshold.append(evaluator.eval["precision"])
    finally:
        evaluator.params, evaluator.evalImgs, evaluator.eval = params, kept, results
    return numpy.concatenate(per_threshold, axis=0)


def ordered_statistics(evaluator, precision: list) -> dict[str, float]:
    """The AP statistics (:data:`AP_STATISTICS`) that pycocotools'
    ``summarize`` gives for per-category precision arrays (one for each
    category with ground truth, the only ones evaluated), on ``evaluator``,
    whose params name those categories."""
    full = np.concatenate(precision, axis=2)
    params = evaluator.params
    recall = -np.ones((len(params.iouThrs), len(precision), len(params.areaRng), len(params.maxDets)))
    evaluator.eval = {**evaluator.eval, "precision": full, "recall": recall}
    evaluator.summarize()
    return dict(zip(AP_STATISTICS, (float(s) for s in evaluator.stats[:len(AP_STATISTICS)])))
