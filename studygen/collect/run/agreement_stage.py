"""The agreement stage of a run: each variant against the reference, eager, at the agreement shape.

Every pending variant and the reference run the agreement set's photographs;
the figures (:mod:`studygen.collect.run.agreement`) become ``agreement``
results: logit correlation, non-finite count, and for a detector (outputs
with ``pred_boxes``) precision and recall of matched detections; a model
without boxes (an image classifier) is compared by its logits alone, and its
results say so, with its top-1 agreement where its logits are one class
vector per image. A figure that is undefined (no finite logits with variance, no
detections) is a ``not_measured`` result saying why. FP8 is measured with
ModelOpt's fake quantization, before compression, and its results say so.

A forward that raises at the agreement shape (a ViT built for 32x32 given
48x48, the study's first shape) is no internal error: each variant it leaves
without figures gets a ``not_measured`` logit correlation naming the
exception, and the run goes on to time the grid (the latency stage records the
same cell's own failure; a cell outside the grid is named among the run's
failures, so the command exits 1). A CUDA error that loses the device stops
the run as in the latency stage.
"""

from __future__ import annotations

from ...records.kinds import Kind
from . import agreement as agree
from .context import CellFailure, RunContext, Variant
from .latency_stage import device_lost, device_lost_error, forward_failure_reason
from .spec import Cell

FAKE_FP8_NOTE = "FP8 by ModelOpt fake quantization (mtq.quantize): values rounded to FP8, computed in fp16"
NO_BOXES_NOTE = "the model outputs no boxes (pred_boxes), only class logits: no detection precision or recall"


def measure_agreement(run: RunContext) -> None:
    """Agreement results of every variant this shard owns and the record lacks (nothing when none)."""
    plan = run.plan
    names = [n for n in plan.agreement_variants() if n in run.variants and run.agreement_pending(n)]
    if not names:
        return
    photos = run.agreement.photos
    task = run.progress.task(f"agreement {plan.agreement_shape}", (len(names) + 1) * len(photos))

    def outputs_of(variant: Variant) -> list:
        height, width = run.agreement_hw
        outputs = []
        for photo in photos:
            pixel_values = run.pixel_values(photo, height, width, variant.dtype)
            outputs.append(agree.outputs_from_model(variant.model(pixel_values=pixel_values)))
            run.progress.advance(task)
        return outputs

    reference, failed = _outputs_or_reason(run, plan.reference_variant, outputs_of)
    for name in names:
        if failed is None:
            outputs, reason = _outputs_or_reason(run, name, outputs_of)
        else:
            outputs, reason = None, f"the reference variant {plan.reference_variant} failed: {failed}"
        if outputs is None:
            _record_failure(run, name, reason)
            continue
        results, summary = agreement_results(run, run.variants[name], reference, outputs)
        run.sink.add(*results)
        run.progress.log(summary)


def _outputs_or_reason(run: RunContext, name: str, outputs_of) -> tuple[list | None, str | None]:
    """``(outputs, None)`` of variant ``name`` over the agreement set, or ``(None, reason)``
    when its forward raised (:func:`~.latency_stage.forward_failure_reason`'s words);
    raises DeviceLost for a CUDA error that leaves the device unusable."""
    cell = Cell("eager", run.plan.agreement_shape, name)
    try:
        return outputs_of(run.variants[name]), None
    except Exception as exc:  # noqa: BLE001 - what the model raised is recorded as the agreement's outcome
        lost, reason = device_lost(exc), forward_failure_reason(exc, len(run.variants))
    if lost:
        raise device_lost_error(cell, reason)
    return None, reason


def _record_failure(run: RunContext, name: str, reason: str) -> None:
    """The ``not_measured`` logit correlation of variant ``name`` for ``reason``; the
    cell joins the run's failures unless the grid times it (its latency failure names it)."""
    plan = run.plan
    cell = Cell("eager", plan.agreement_shape, name)
    run.sink.add({"kind": Kind.NOT_MEASURED, "variant": name, "metric": "logit_correlation",
                  "reason": f"at the agreement shape {plan.agreement_shape}, {reason}", "shape": plan.agreement_shape,
                  "mode": "eager"})
    if cell not in plan.cells:
        run.failures.append(CellFailure(cell, f"agreement: {reason}"))
    run.progress.log(f"{name}: agreement not measured: {reason}")


def agreement_results(run: RunContext, variant: Variant, reference: list, outputs: list) -> tuple[list[dict], str]:
    """The agreement results of ``variant`` (outputs per photo) against
    ``reference``, and a one-line summary for the log: logit correlation and
    non-finite count, then precision and recall of matched detections when
    both outputs hold boxes (a detector; a classifier's results say it has
    none), else the top-1 agreement when each output is one class vector.
    Outputs without logits give one ``not_measured`` saying so."""
    plan = run.plan
    base = {"kind": Kind.AGREEMENT, "variant": variant.name, "reference_variant": plan.reference_variant,
            "shape": plan.agreement_shape, "batch": 1, "backend": "pytorch", "mode": "eager",
            "dataset": run.agreement.dataset_id, "images": len(outputs)}
    if not (agree.have_logits(reference) and agree.have_logits(outputs)):
        reason = "the model's output holds no logits to compare with the reference's"
        return [value_or_not_measured(base, "logit_correlation", None, reason, None)], f"{variant.name}: {reason}"
    detector = agree.have_boxes(reference) and agree.have_boxes(outputs)
    note = "; ".join(filter(None, [FAKE_FP8_NOTE if variant.precision == "fp8" else None,
                                   None if detector else NO_BOXES_NOTE])) or None
    correlation = agree.logit_correlation(reference, outputs)
    results = [value_or_not_measured(base, "logit_correlation", correlation,
                                     "no finite logits with non-zero variance in both outputs", note),
               {**base, "metric": "nonfinite_count", "value": agree.nonfinite_count(outputs),
                **({"note": note} if note else {})}]
    summary = f"{variant.name}: logit correlation {correlation}, non-finite {results[1]['value']}"
    if detector:
        matched = matched_detection_results(run, base, reference, outputs, note)
        results += matched
        summary += ", " + ", ".join(f"{r['metric']} {r.get('value')}" for r in matched)
    elif all(o.logits.ndim == 1 for o in (*reference, *outputs)):  # a classifier's: one class vector per image
        top1 = agree.top1_agreement(reference, outputs)
        results.append(value_or_not_measured(base, "top1_agreement", top1,
                                             "no image whose reference logits are all finite", note))
        summary += f", top-1 agreement {top1}"
    return results, summary


def matched_detection_results(run: RunContext, base: dict, reference: list, outputs: list,
                              note: str | None) -> list[dict]:
    """The precision and recall results of matched detections
    (:func:`~studygen.collect.run.agreement.precision_recall`, the study's
    thresholds), each a ``not_measured`` when its denominator is zero."""
    thresholds = run.plan.agreement
    height, width = run.agreement_hw
    matched = agree.precision_recall(reference, outputs, height=height, width=width,
                                     score_threshold=thresholds["score_threshold"],
                                     iou_threshold=thresholds["iou_threshold"], top_k=thresholds.get("top_k"))
    extra = {"score_threshold": thresholds["score_threshold"], "iou_threshold": thresholds["iou_threshold"]}
    results = []
    for metric, denominator in (("precision", "variant_detections"), ("recall", "reference_detections")):
        counted = denominator.replace("_", " ")
        detail = f"{matched['matches']} matches of {matched[denominator]} {counted}"
        results.append(value_or_not_measured(
            {**base, **extra}, metric, matched[metric], f"no {counted} at score >= {thresholds['score_threshold']}",
            "; ".join(filter(None, [note, detail]))))
    return results


def value_or_not_measured(base: dict, metric: str, value, reason: str, note: str | None) -> dict:
    """``base`` with ``metric`` and ``value`` (rounded to 9 decimals) and the
    ``note``; a ``not_measured`` result with ``reason`` when ``value`` is None."""
    if value is None:
        return {"kind": Kind.NOT_MEASURED, "variant": base["variant"], "metric": metric, "reason": reason,
                "shape": base["shape"], "mode": base["mode"]}
    out = {**base, "metric": metric, "value": round(float(value), 9)}
    if note:
        out["note"] = note
    return out
