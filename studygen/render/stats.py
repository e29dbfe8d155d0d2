"""Statistics behind verdicts: repeat-to-repeat noise of timings and per-image
bootstrap intervals of COCO AP differences. numpy only (seeded, so a render
prints the same interval every time).

Noise (SG204): a verdict such as "within run-to-run noise" is computed from
the per-repeat medians of two timings (``distribution.repeat_medians_ms`` in
a latency result), at least :data:`MIN_REPEATS` a side, by a percentile
bootstrap of the difference of medians: resample each side's repeat medians
with replacement, take ``median(b*) - median(a*)``, and read the 2.5 and 97.5
percentiles (Efron and Tibshirani, *An Introduction to the Bootstrap*, 1993,
ch. 13). The difference is "within run-to-run noise" when that interval holds 0.
The two-sided p of that test (:func:`percentile_p_value`) is the smallest
1 - confidence whose interval excludes 0; SG203 holds several such tests of
one pair of records to Holm's step-down correction (:func:`holm_adjusted`),
and reads no p below the least an exact permutation test of the same counts
can give (:func:`permutation_floor`): 0.1 at 3 against 3, so at 3 profiled
forwards a side no bootstrap difference reaches the 5 % level.

AP (SG203): per-image results (see :func:`per_image_from_cocoeval`) let the
COCO AP of a resampled image list be recomputed exactly as pycocotools'
``COCOeval.accumulate`` + ``summarize`` would (AP at IoU 0.50:0.95, area all,
100 detections); a paired bootstrap over images gives an interval of the AP
difference of two variants evaluated on the same images.
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

MIN_REPEATS = 3
DEFAULT_SEED = 0
DEFAULT_RESAMPLES = 10000
DEFAULT_AP_RESAMPLES = 1000
CONFIDENCE = 0.95
PER_IMAGE_FORMAT = "studygen-per-image-ap"

NOISE_VERDICT = "within run-to-run noise"
BEYOND_NOISE = "beyond run-to-run noise"


class MedianDifference(NamedTuple):
    """Bootstrap comparison of two timings' repeat medians (ms).

    ``difference_ms`` is ``median(b) - median(a)``; ``low_ms``/``high_ms`` the
    percentile interval at ``confidence``; ``spread_a``/``spread_b`` the
    (min, max) of each side's repeat medians; ``p_value`` the two-sided p of
    the same resamples (:func:`percentile_p_value`): the interval excludes 0
    exactly when ``p_value < 1 - confidence``.
    """

    difference_ms: float
    low_ms: float
    high_ms: float
    repeats_a: int
    repeats_b: int
    spread_a: tuple[float, float]
    spread_b: tuple[float, float]
    resamples: int
    seed: int
    confidence: float
    p_value: float

    @property
    def within_noise(self) -> bool:
        """True when the interval holds 0: no difference beyond repeat-to-repeat noise."""
        return self.low_ms <= 0.0 <= self.high_ms

    @property
    def verdict(self) -> str:
        return NOISE_VERDICT if self.within_noise else BEYOND_NOISE


def median_difference(a_ms, b_ms, *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                      confidence: float = CONFIDENCE, band: float = 0.0) -> MedianDifference:
    """Percentile bootstrap of ``median(b) - median(a)`` over repeat medians (ms).

    ``a_ms``, ``b_ms``: per-repeat medians, at least :data:`MIN_REPEATS` each.
    ``band`` (ms, default 0): ``p_value`` is that of the interval missing
    ``[-band, +band]`` rather than 0 (:func:`percentile_p_value`).
    Raises ValueError with fewer repeats or non-finite values.
    """
    import numpy as np

    a = np.asarray(a_ms, dtype=float)
    b = np.asarray(b_ms, dtype=float)
    if a.size < MIN_REPEATS or b.size < MIN_REPEATS:
        raise ValueError(f"a noise verdict needs at least {MIN_REPEATS} repeats a side (got {a.size} and {b.size})")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("repeat medians must be finite")
    rng = np.random.default_rng(seed)
    a_star = np.median(a[rng.integers(0, a.size, size=(resamples, a.size))], axis=1)
    b_star = np.median(b[rng.integers(0, b.size, size=(resamples, b.size))], axis=1)
    tail = 100 * (1 - confidence) / 2
    differences = b_star - a_star
    low, high = np.percentile(differences, [tail, 100 - tail])
    return MedianDifference(
        difference_ms=float(np.median(b) - np.median(a)), low_ms=float(low), high_ms=float(high),
        repeats_a=int(a.size), repeats_b=int(b.size),
        spread_a=(float(a.min()), float(a.max())), spread_b=(float(b.min()), float(b.max())),
        resamples=resamples, seed=seed, confidence=confidence, p_value=percentile_p_value(differences, band))


def percentile_p_value(differences, band: float = 0.0) -> float:
    """Two-sided p of the percentile bootstrap test of 0: the smallest
    ``alpha`` whose ``1 - alpha`` percentile interval of ``differences`` (the
    resampled statistics, read as :func:`median_difference` reads them:
    numpy's linear interpolation at position ``q * (n - 1)`` of the sorted
    values) excludes 0, so that the interval at ``alpha`` excludes 0 exactly
    when ``alpha`` exceeds it. 0.0 when every resample lies on one side of 0,
    1.0 at most. This is the test a confidence interval defines: reject 0 when
    the interval leaves it out (the duality of confidence sets and tests:
    Lehmann and Romano, *Testing Statistical Hypotheses*, 3rd ed., 2005; the
    percentile bootstrap as read here is not a test built under the null, so
    this p is as good as the interval it is read from, no better, and with a
    few samples a side it claims more than they hold: :func:`permutation_floor`).
    ``band`` >= 0: the same for the interval missing all of ``[-band, +band]``
    (lying above ``band`` or below ``-band``); 0 is the test of 0.

    The interval's low end lies above ``band`` once its position ``alpha / 2 * (n - 1)``
    passes the position where the interpolated quantile curve crosses ``band``; its
    high end below ``-band`` once ``(1 - alpha / 2) * (n - 1)`` is short of where the
    curve crosses ``-band``.
    """
    import numpy as np

    ordered = np.sort(np.asarray(differences, dtype=float))
    last = ordered.size - 1
    if last < 1:
        return 0.0 if last == 0 and abs(ordered[0]) > band else 1.0
    return float(min(_low_end_above(ordered, band), _high_end_below(ordered, -band)))


def _low_end_above(ordered, threshold: float) -> float:
    """The smallest alpha whose interval (see :func:`percentile_p_value`) of the sorted
    ``ordered`` (two values or more) has its low end above ``threshold``; 1.0 when none has."""
    import numpy as np

    last = ordered.size - 1
    at_most = int(np.searchsorted(ordered, threshold, side="right"))  # values <= threshold
    if at_most == 0:
        return 0.0
    if at_most > last:
        return 1.0
    below, above = ordered[at_most - 1], ordered[at_most]
    crossing = at_most - 1 + (threshold - below) / (above - below)
    return min(1.0, 2 * crossing / last)


def _high_end_below(ordered, threshold: float) -> float:
    """The smallest alpha whose interval of the sorted ``ordered`` (two values or more)
    has its high end below ``threshold``; 1.0 when none has."""
    import numpy as np

    last = ordered.size - 1
    under = int(np.searchsorted(ordered, threshold, side="left"))  # values < threshold
    if under == last + 1:
        return 0.0
    if under == 0:
        return 1.0
    below, above = ordered[under - 1], ordered[under]
    crossing = under - 1 + (threshold - below) / (above - below)
    return min(1.0, 2 * (last - crossing) / last)


def permutation_floor(count_a: int, count_b: int) -> float:
    """The least two-sided p an exact permutation test of ``count_a`` values
    against ``count_b`` can give: ``2 / C(count_a + count_b, count_a)``, at
    most 1. SG203 reads no bootstrap p below it.

    Where the two sets of values are exchangeable (no difference between
    them), each of the ``C(count_a + count_b, count_a)`` ways to split the
    pooled values into sets of ``count_a`` and ``count_b`` is equally likely;
    the exact p of an observed split counts the splits at least as extreme as
    it, itself among them, so its one-sided p is at least ``1 / C`` and the
    two-sided p (twice the smaller one-sided p) at least ``2 / C`` (the exact
    permutation test: Ernst, "Permutation methods: a basis for exact
    inference", Statistical Science 19(4), 2004). 3 against 3: 2 of 20 splits,
    0.1; 4 against 4: 2 / 70, 0.029; 5 against 5: 2 / 252, 0.0079. One value
    against ``n`` (a figure without a spread of its own against a job's ``n``
    samples): ``2 / (n + 1)``, the chance that one of ``n + 1`` exchangeable
    values is the largest or the smallest. A percentile bootstrap of so few
    values finds every resample on one side and reads p 0; it has no more to
    go on than the permutation test, which assumes only exchangeability.
    Raises ValueError for a count below 1."""
    if count_a < 1 or count_b < 1:
        raise ValueError(f"a permutation test needs a value a side (got {count_a} and {count_b})")
    return min(1.0, 2 / comb(count_a + count_b, count_a))


def holm_adjusted(p_values) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (a family of tests, in any
    order), returned in the same order: sorted ascending, the ``i``-th
    (0-based) of ``m`` is multiplied by ``m - i``, each kept at least as large
    as the one before it, and capped at 1. A test rejected at family-wise
    level ``alpha`` is one whose adjusted p is below ``alpha``; the chance of
    rejecting any true hypothesis of the family stays at most ``alpha``
    whatever their dependence (Holm, "A simple sequentially rejective
    multiple test procedure", Scandinavian Journal of Statistics 6(2), 1979).
    Ties are ordered by position, which does not change the result."""
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


# ---- COCO AP from per-image results -------------------------------------------

def per_image_from_cocoeval(coco_eval) -> dict:
    """Per-image results of a pycocotools ``COCOeval`` after ``evaluate()``
    (bbox, default parameters), as a JSON-ready dict::

        {"format": "studygen-per-image-ap", "version": 1,
         "iou_thresholds": [0.5, ..., 0.95], "max_dets": 100,
         "images": [{"image_id": 139, "categories": [
             {"category_id": 1, "num_gt": 3, "scores": [0.9, ...],
              "matched": [[1, 0, ...] per IoU threshold],
              "ignored": [[0, 0, ...] per IoU threshold]}]}]}

    Only area "all" at the largest ``maxDets`` is kept (what COCO's AP uses);
    ``num_gt`` counts ground truth that is not ignored (not crowd);
    ``matched``/``ignored`` are 0/1 per IoU threshold and detection, in score
    order, from ``evalImgs`` (``dtMatches`` > 0, ``dtIgnore``).
    """
    params = coco_eval.params
    area_all = list(params.areaRng[0])
    max_det = params.maxDets[-1]
    plain = lambda v: v.item() if hasattr(v, "item") else v  # noqa: E731 - numpy scalars (evaluate() makes imgIds np.unique)
    images: dict[int, list[dict]] = {plain(image_id): [] for image_id in params.imgIds}
    for entry in coco_eval.evalImgs:
        if entry is None or list(entry["aRng"]) != area_all or entry["maxDet"] != max_det:
            continue
        gt_ignore = [int(v) for v in entry["gtIgnore"]]
        images[plain(entry["image_id"])].append({
            "category_id": int(entry["category_id"]),
            "num_gt": sum(1 for v in gt_ignore if not v),
            "scores": [float(s) for s in entry["dtScores"]],
            "matched": [[int(m > 0) for m in row] for row in entry["dtMatches"]],
            "ignored": [[int(bool(v)) for v in row] for row in entry["dtIgnore"]],
        })
    return {
        "format": PER_IMAGE_FORMAT, "version": 1,
        "iou_thresholds": [float(t) for t in params.iouThrs], "max_dets": int(max_det),
        "images": [{"image_id": image_id, "categories": images[image_id]} for image_id in sorted(images)],
    }


class PerImageAP:
    """Per-image results packed per category, for fast AP of resampled image lists.

    ``data``: the dict of :func:`per_image_from_cocoeval`. Raises ValueError
    when it is not that format.
    """

    def __init__(self, data: dict):
        import numpy as np

        if not isinstance(data, dict) or data.get("format") != PER_IMAGE_FORMAT or data.get("version") != 1:
            raise ValueError(f"not a {PER_IMAGE_FORMAT} version 1 document")
        self.iou_count = len(data["iou_thresholds"])
        self.max_dets = int(data["max_dets"])
        self.image_ids = [image["image_id"] for image in data["images"]]
        n_images = len(self.image_ids)
        per_category: dict[int, dict[int, dict]] = {}
        for index, image in enumerate(data["images"]):
            for cat in image["categories"]:
                per_category.setdefault(cat["category_id"], {})[index] = cat
        self.categories = []
        for category_id in sorted(per_category):
            by_image = per_category[category_id]
            starts = np.zeros(n_images, dtype=np.int64)
            lengths = np.zeros(n_images, dtype=np.int64)
            num_gt = np.zeros(n_images, dtype=np.int64)
            scores, matched, ignored = [], [], []
            offset = 0
            for index in range(n_images):
                cat = by_image.get(index)
                starts[index] = offset
                if cat is None:
                    continue
                count = min(len(cat["scores"]), self.max_dets)
                lengths[index] = count
                num_gt[index] = cat["num_gt"]
                offset += count
                scores.extend(cat["scores"][:count])
                listed = len(cat["scores"])
                matched.append(np.asarray(cat["matched"], dtype=bool).reshape(self.iou_count, listed)[:, :count])
                ignored.append(np.asarray(cat["ignored"], dtype=bool).reshape(self.iou_count, listed)[:, :count])
            # every category listed here is listed by some image, so matched and ignored hold an array each
            self.categories.append((starts, lengths, num_gt, np.asarray(scores, dtype=float),
                                    np.concatenate(matched, axis=1), np.concatenate(ignored, axis=1)))

    def ap(self, counts=None) -> float:
        """COCO AP (IoU 0.50:0.95, area all, ``max_dets``) of the image list
        where image ``i`` appears ``counts[i]`` times (default: once each),
        in image-id order. -1.0 when no category has ground truth (as
        pycocotools prints)."""
        import numpy as np

        n_images = len(self.image_ids)
        counts = np.ones(n_images, dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)
        sequence = np.repeat(np.arange(n_images), counts)
        recall_thresholds = np.linspace(0.0, 1.0, 101)
        per_category = []
        for starts, lengths, num_gt, scores, matched, ignored in self.categories:
            npig = int(num_gt[sequence].sum())
            if npig == 0:
                continue  # pycocotools leaves the category at -1: not averaged
            seq_lengths = lengths[sequence]
            total = int(seq_lengths.sum())
            index = np.repeat(starts[sequence] - np.cumsum(seq_lengths) + seq_lengths, seq_lengths) + np.arange(total)
            order = np.argsort(-scores[index], kind="mergesort")
            dtm = matched[:, index][:, order]
            dtig = ignored[:, index][:, order]
            tp_sum = np.cumsum(dtm & ~dtig, axis=1).astype(float)
            fp_sum = np.cumsum(~dtm & ~dtig, axis=1).astype(float)
            q = np.zeros((self.iou_count, recall_thresholds.size))
            for t in range(self.iou_count):
                tp, fp = tp_sum[t], fp_sum[t]
                if tp.size == 0:
                    continue
                recall = tp / npig
                precision = tp / (fp + tp + np.spacing(1))
                precision = np.maximum.accumulate(precision[::-1])[::-1]  # interpolated: best precision to the right
                at = np.searchsorted(recall, recall_thresholds, side="left")
                q[t] = np.where(at < tp.size, precision[np.minimum(at, tp.size - 1)], 0.0)
            per_category.append(q.mean())
        return float(np.mean(per_category)) if per_category else -1.0


class APDifference(NamedTuple):
    """Paired per-image bootstrap of ``AP(b) - AP(a)`` (AP units, not points)."""

    difference: float
    low: float
    high: float
    images: int
    resamples: int
    seed: int
    confidence: float


def ap_difference(a: PerImageAP, b: PerImageAP, *, resamples: int = DEFAULT_AP_RESAMPLES, seed: int = DEFAULT_SEED,
                  confidence: float = CONFIDENCE) -> APDifference:
    """Paired percentile bootstrap over images of ``AP(b) - AP(a)``: each
    resample draws ``n`` images with replacement and recomputes both APs on
    that same image list. Raises ValueError when the two hold different images."""
    import numpy as np

    if a.image_ids != b.image_ids:
        raise ValueError(f"per-image results cover different images ({len(a.image_ids)} and {len(b.image_ids)} images)")
    n_images = len(a.image_ids)
    rng = np.random.default_rng(seed)
    diffs = np.empty(resamples)
    for i in range(resamples):
        counts = np.bincount(rng.integers(0, n_images, size=n_images), minlength=n_images)
        diffs[i] = b.ap(counts) - a.ap(counts)
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(diffs, [tail, 100 - tail])
    return APDifference(b.ap() - a.ap(), float(low), float(high), n_images, resamples, seed, confidence)
