"""The COCO AP stage of a run, and ``--merge-ap`` over the shards of a job.

Without COCO images in the study, each variant gets a ``not_measured``
result saying why; so does each variant of a model that outputs no boxes
(an image classifier). With them, each pending variant detects on this shard's
images (:func:`~studygen.collect.run.coco_ap.detect`) and its detections file
is written; unsharded, AP is evaluated at once by the ingest path
(:mod:`studygen.collect.coco`, pycocotools: 12 statistics); sharded, the
record says AP waits for ``collect run --merge-ap N``, which evaluates it
once over every shard's detections into ``<job>-ap.json``.
"""

from __future__ import annotations

from ...errors import UsageError
from ...fsutil import shown_path
from ...records.kinds import Kind
from ..coco import build_results, checked_inputs, evaluate_inputs
from .coco_ap import CocoSetup, NoBoxesError, detect, detections_path, merge_shards, shard_ids, sorted_image_ids, write_detections
from .context import RecordStore, ResultSink, RunContext, RunInputs, RunOptions
from .spec import parse_shape


def coco_not_configured(run: RunContext) -> None:
    """A ``not_measured`` coco_ap result per variant of this shard that the record lacks."""
    reason = ("the study gives no COCO image folder with annotations (run.coco_images, run.coco_annotations)"
              + ("; the weights are random, so AP would not mean anything"
                 if run.plan.model.get("weights") == "random-init" else ""))
    for name in run.plan.variants_in_shard():
        if not run.sink.has(Kind.COCO_AP, name, metric=Kind.COCO_AP):
            run.sink.add({"kind": Kind.NOT_MEASURED, "variant": name, "metric": Kind.COCO_AP, "reason": reason})


def measure_ap(run: RunContext, pending: list[str]) -> None:
    """Detections for each pending variant on this shard's images; unsharded, COCO AP at once;
    sharded, a detections file per variant for ``--merge-ap``."""
    if not pending:
        return
    ap = run.ap
    setup = ap.setup
    gt = setup.ground_truth
    run.store.ensure_ap_dataset(setup.dataset_id, gt)
    ids = shard_ids(sorted_image_ids(gt), ap.shard)
    height, width = parse_shape(setup.shape)
    task = run.progress.task(f"detections {setup.shape}", len(pending))
    for name in pending:
        variant = run.variants[name]
        try:
            found, dropped = detect(variant.model, gt, ids, setup.images, height=height, width=width,
                                    device=run.device, dtype=variant.dtype)
        except NoBoxesError as exc:
            run.sink.add({"kind": Kind.NOT_MEASURED, "variant": name, "metric": Kind.COCO_AP, "shape": setup.shape,
                          "mode": "eager", "reason": f"{exc}: COCO AP needs a detector's boxes"})
            run.progress.advance(task)
            continue
        path = detections_path(ap.measurements, ap.job, name, ap.shard)
        write_detections(path, found)
        run.progress.advance(task)
        shown = shown_path(path, ap.root)
        if ap.shard != (1, 1):
            run.sink.add({"kind": Kind.NOT_MEASURED, "variant": name, "metric": Kind.COCO_AP, "shape": setup.shape,
                          "mode": "eager", "reason": f"shard {ap.shard[0]}/{ap.shard[1]}: detections on {len(ids)} "
                          f"images written to {shown}; AP is evaluated once over all shards (collect run --merge-ap "
                          f"{ap.shard[1]})"})
            continue
        note = ((f"{dropped} detections named no category of the annotations and were dropped; " if dropped else "")
                + ("FP8 by ModelOpt fake quantization (mtq.quantize)" if variant.precision == "fp8" else ""))
        results = evaluate_ap(gt, found, name, setup, shown, note)
        run.sink.add(*results)
        run.progress.log(f"{name}: AP {results[0]['value']:.4f} on {len(ids)} images")


def evaluate_ap(gt, found: list[dict], name: str, setup: CocoSetup, shown: str, note: str | None) -> list[dict]:
    """The 12 ``coco_ap`` results of variant ``name`` for detections ``found``
    (written to ``shown``), each naming its detections file and ``note``
    joined with the warnings and notes of collect coco's checks and
    evaluation (ties, maxDets). Raises InputError for detections collect
    coco refuses."""
    inputs = checked_inputs(gt, found, shown)  # the refusals of collect coco
    stats, notes, warnings = evaluate_inputs(inputs)
    note = "; ".join(filter(None, [(note or "").rstrip("; "), *inputs.warnings, *warnings, *notes]))
    results = [n.result for n in build_results(stats, variant=name, dataset=setup.dataset_id, backend="pycocotools",
                                               shape=setup.shape, batch=1, inference_backend="pytorch", mode="eager",
                                               origin=shown)]
    for result in results:
        result["detections"] = shown
        if note:
            result["note"] = note
    return results


def merge_ap(inputs: RunInputs, options: RunOptions, store: RecordStore) -> ResultSink:
    """``--merge-ap N``: evaluate COCO AP once over the detections of all N shards of the job,
    into ``<job>-ap.json`` (provenance from the shard records, which must agree).
    Raises UsageError when the study gives no COCO setup or a shard is missing."""
    coco = inputs.coco
    if coco is None:
        raise UsageError("--merge-ap: the study gives no COCO images and annotations (run.coco_images, run.coco_annotations)")
    count = options.merge_ap
    provenance = store.merged_shard_provenance(options.job, count)
    gt = coco.ground_truth
    sink = store.open(f"{options.job}-ap", provenance)
    for name in options.variants or list(inputs.plan.variants):
        if sink.has(Kind.COCO_AP, name, coco.shape, "eager", "AP"):
            continue
        merged, paths = merge_shards(inputs.measurements, options.job, name, count)
        shown = ", ".join(shown_path(p, options.root) for p in paths)
        sink.add(*evaluate_ap(gt, merged, name, coco, shown, None))
    return sink
