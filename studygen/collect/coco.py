"""COCO bbox evaluation of a detections file against ground-truth annotations.

The 12 statistics are COCOeval's ``stats`` in pycocotools' order (AP, AP50,
AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl; -1 where no ground
truth falls in that size range), computed by pycocotools (or, optionally,
faster-coco-eval, which agrees within 1e-4). Detections use the COCO results
format: ``[{"image_id", "category_id", "bbox": [x, y, w, h], "score"}, …]``
in pixels, x/y the top-left corner.

The work is done in four modules, used here in this order:
:mod:`~studygen.collect.coco_truth` reads and validates the ground truth,
:mod:`~studygen.collect.coco_detections` reads the detections into columns
(both one element at a time, so inputs up to 500 MB fit in memory),
:mod:`~studygen.collect.coco_boxes` refuses detections that another box
convention, category mapping or image mapping fits far better, and
:mod:`~studygen.collect.coco_eval` evaluates them in the order pycocotools itself
uses for the files as given, with the range tied scores allow.
Every refusal names its rule, a count and one offending element. Empty
detections give AP 0 where ground truth exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..digests import image_ids_sha256
from ..fsutil import shown_path
from ..records.kinds import Kind
from ..records.result import NewResult
from . import coco_boxes, coco_eval
from .coco_detections import Detections, check_detection, detections_from, load_detections, read_detections
from .coco_eval import BACKENDS, STAT_NAMES, backend_version
from .coco_truth import GroundTruth, load_ground_truth

__all__ = ["BACKENDS", "STAT_NAMES", "CocoEvaluation", "CocoInputs", "Detections", "GroundTruth", "backend_version",
           "build_results", "check_detections", "checked_inputs", "dataset_definition", "evaluate", "evaluate_checked",
           "evaluate_inputs", "load_detections",
           "load_ground_truth", "no_detections_warning", "read_detections", "read_inputs", "tie_range_note"]


@dataclass
class CocoInputs:
    """Ground truth and detections that passed every check, with the
    warnings met on the way (one line each, for stderr and the record's notes)."""

    gt: GroundTruth
    detections: Detections
    warnings: list[str] = field(default_factory=list)


def read_inputs(annotations_path: Path, detections_path: Path) -> CocoInputs:
    """Read and check both files: the ground truth (:mod:`coco_truth`), the
    detections against it (:mod:`coco_detections`), then the readings probe
    (:mod:`coco_boxes`). Raises InputError for the first refusal."""
    gt = load_ground_truth(annotations_path)
    return checked_inputs(gt, read_detections(detections_path, gt, shown_path(detections_path)))


def checked_inputs(gt: GroundTruth, detections, display: str = "detections") -> CocoInputs:
    """Detections (a :class:`Detections` table, or a list of result dicts such
    as ``collect run``'s model output, named ``display`` in messages) checked
    against ground truth already read, as :func:`read_inputs` checks a file:
    the id and size rules, then the readings probe. The warnings are the
    ground truth's and the probe's. Raises InputError for the first refusal."""
    table = _as_table(gt, detections, display)
    return CocoInputs(gt, table, gt.warnings + coco_boxes.check_readings(gt, table))


@dataclass
class CocoEvaluation:
    """An evaluation of checked inputs: the 12 statistics by name, the AP
    statistics' range over tie orders (name → (worst, best); empty without
    ties, or with faster-coco-eval), notes for the record (ties, maxDets,
    the range in words) and warnings for stderr (all scores equal)."""

    stats: dict[str, float]
    tie_range: dict[str, tuple[float, float]]
    notes: list[str]
    warnings: list[str]


def evaluate_checked(inputs: CocoInputs, backend: str = "pycocotools") -> CocoEvaluation:
    """Evaluate inputs that passed every check (:mod:`coco_eval`, the
    reference order of the files as given), with the range over tie orders."""
    prepared = coco_eval.prepare(inputs.gt, inputs.detections)
    evaluation = coco_eval.evaluation(inputs.gt, inputs.detections, backend, prepared)
    notes = list(prepared.notes)
    if evaluation.tie_range:
        notes.append(tie_range_note(evaluation.tie_range))
    elif prepared.tied:
        notes.append(f"the range of the AP statistics over the orders of tied scores is computed with pycocotools "
                     f"only, not {backend}: evaluate with pycocotools to see it")
    return CocoEvaluation(evaluation.stats, evaluation.tie_range, notes, prepared.warnings)


def tie_range_note(tie_range: dict[str, tuple[float, float]]) -> str:
    """The record's note on ``tie_range`` (AP statistic → (worst, best) over
    the orders of tied scores, -1 for a size range without ground truth):
    the statistics whose ends differ, each shown to 4 decimals or to as many
    more (up to 12) as it takes for its ends to read apart, or, when the ties
    move none, a sentence saying so. The test is the one
    :func:`build_results` records ``tie_order_range`` by (ends unequal), so
    note and results agree."""
    spans = [_span(name, low, high) for name, (low, high) in tie_range.items() if low >= 0 and low != high]
    if not spans:
        return ("the tied scores change no statistic: every AP statistic is the same in the worst and the best "
                "order of the tied detections (each image's matches as COCOeval made them)")
    return ("over the orders of the tied scores (each image's matches as COCOeval made them), the AP statistics "
            "they move range as follows, the recorded figures being those of the files' own order: "
            + ", ".join(spans))


def _span(name: str, low: float, high: float) -> str:
    """``'AP 0.5644 to 0.7525'``: 4 decimals, more where 4 would print equal ends (a move below 0.00005)."""
    digits = 4
    while digits < 12 and f"{low:.{digits}f}" == f"{high:.{digits}f}":
        digits += 1
    return f"{name} {low:.{digits}f} to {high:.{digits}f}"


def evaluate_inputs(inputs: CocoInputs, backend: str = "pycocotools") -> tuple[dict[str, float], list[str], list[str]]:
    """``(statistics, notes, warnings)`` of :func:`evaluate_checked`: the 12
    statistics by name, the notes on ties (and their range), maxDets for the
    record, and warnings for stderr (all scores equal)."""
    evaluation = evaluate_checked(inputs, backend)
    return evaluation.stats, evaluation.notes, evaluation.warnings


def _as_table(gt: GroundTruth, detections, display: str) -> Detections:
    """Columns of ``detections``: already a table, or a list of result dicts (a model's output)."""
    if isinstance(detections, Detections):
        return detections
    indexed = list(enumerate(detections))
    for index, detection in indexed:
        check_detection(index, detection, display)
    return detections_from(indexed, gt, display)


def check_detections(gt: GroundTruth, detections, display: str) -> list[str]:
    """Refuse detections (a :class:`Detections` table or a list of result
    dicts) that would give a wrong AP without an error: the id and size
    rules of :mod:`coco_detections`, then the readings probe of
    :mod:`coco_boxes`. Returns warnings with figures; raises InputError
    naming the rule, the count and the first offending detection."""
    return coco_boxes.check_readings(gt, _as_table(gt, detections, display))


def evaluate(gt: GroundTruth, detections, backend: str = "pycocotools") -> dict[str, float]:
    """The 12 COCOeval bbox statistics by name (:data:`STAT_NAMES`) of
    ``detections`` (a table or a list of result dicts), in the reference
    order (:mod:`coco_eval`). Raises UsageError for an unknown or missing backend."""
    return coco_eval.evaluate(gt, _as_table(gt, detections, "detections"), backend)


def no_detections_warning(display: str) -> str:
    """The warning for an empty detections list (``[]``), naming the file: the
    evaluation is recorded (a model that detects nothing has AP 0, a
    measurement), but a reader should know the zeros come from no input."""
    return f"{display}: no detections: AP and AP50 are 0 by construction"


def build_results(stats: dict[str, float], *, variant: str, dataset: str, backend: str, shape: str | None,
                  batch: int | None, inference_backend: str | None, mode: str | None, origin: str,
                  note: str | None = None, tie_range: dict | None = None, source: tuple[str, str] | None = None
                  ) -> list[NewResult]:
    """One ``coco_ap`` result per statistic, each with ``note`` when given
    (e.g. :func:`no_detections_warning` for an empty detections file),
    for an AP statistic whose value the order of tied scores moves,
    ``tie_order_range`` ``{min, max}`` (from :func:`evaluate_checked`), and
    with ``source`` (the detections file's name and the sha256 of its
    content) its ``source_locator`` and ``source_sha256``: what
    ``collect coco --replace`` matches the results it replaces by
    (:func:`studygen.records.sources.replace_sources`). ``collect run``'s
    detections are no file: it gives no ``source``."""
    evaluator = f"{backend} {backend_version(backend)} COCOeval bbox"
    out = []
    for name in STAT_NAMES:
        result = {"kind": Kind.COCO_AP, "variant": variant}
        if shape:
            result["shape"] = shape
        if batch is not None:
            result["batch"] = batch
        if inference_backend:
            result["backend"] = inference_backend
        if mode:
            result["mode"] = mode
        result.update(dataset=dataset, statistic=name, value=stats[name], evaluator=evaluator)
        low, high = (tie_range or {}).get(name, (stats[name], stats[name]))
        if low != high:
            result["tie_order_range"] = {"min": low, "max": high}
        if note:
            result["note"] = note
        if source is not None:
            result["source_locator"], result["source_sha256"] = source
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

