"""``collect run``: measure a study's variants on this machine and write its record.

Order of work (each step writes its results into the record when it ends):

1. the model (fp32, CPU) from the study file, then one copy per variant on the
   device: fp32, fp16, bf16 by casting; FP8 by casting to fp16 and quantizing
   the recipe's modules with ModelOpt (calibration on the calibration set at
   the agreement shape) → ``quantization`` result;
2. agreement with the reference (eager, agreement shape, agreement set) →
   ``agreement`` results (FP8: fake quantization, before compression);
3. COCO AP only when the study gives images and annotations; else a
   ``not_measured`` result per variant saying why;
4. FP8 compression to real FP8 weights and the real-path audit;
5. per (mode, shape): the variants timed interleaved, then each profiled →
   ``latency`` (FP8 only with its FP8 GEMM evidence) and ``kernel_time``.

A variant that cannot be measured gets a ``not_measured`` result with the
reason (a compile failure, an incomplete FP8 path); the run goes on.
"""

from __future__ import annotations

import copy
import shlex
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import RecordError, UsageError
from ...fsutil import shown_path
from ...study import at_yaml_line, load_study
from . import agreement as agree
from .images import load_image_set, to_pixel_values
from .spec import RunPlan, build_plan, parse_shape
from .timing import Timer, summarize, time_interleaved

DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp8": "float16"}


@dataclass
class RunOptions:
    """Command-line options of ``collect run`` (see :mod:`studygen.commands.collect_run`)."""

    root: Path
    study_dir: Path
    job: str
    variants: list[str] | None = None
    shapes: list[str] | None = None
    modes: list[str] | None = None
    shard: tuple[int, int] = (1, 1)
    resume: bool = False
    measurements: Path | None = None
    commit: str | None = None
    dirty: bool | None = None
    command: str = ""
    quiet: bool = False
    merge_ap: int | None = None
    cpu: bool = False  # measure on the CPU (test configs); else a CUDA device is required


@dataclass
class Variant:
    """A variant on the device: its eager ``model``, input ``dtype``, FP8 state."""

    name: str
    precision: str
    model: object
    dtype: object
    real_path: object = None  # quant.RealPathReport for FP8 after compression
    quant: object = None
    compiled: dict = field(default_factory=dict)
    compile_model: object = None  # FP8: the plain model with ModelOpt's FP8 GEMMs transplanted (compile mode)
    compile_note: str | None = None


def job_id_for(job: str, shard: tuple[int, int]) -> str:
    """``job`` for an unsharded run, ``job-shardKofN`` for shard K of N."""
    return job if shard == (1, 1) else f"{job}-shard{shard[0]}of{shard[1]}"


def run_study(options: RunOptions):
    """Run the study; returns the :class:`~studygen.collect.run.record.RunRecord` written.

    Raises UsageError / RecordError / InputError for bad options or inputs
    (before anything is written) and ConflictError when the record exists
    without ``--resume``.
    """
    started = time.perf_counter()
    study = load_study(options.study_dir, options.root)
    study_path = shown_path(study.study_path, options.root)
    try:
        return _run_loaded(options, study, study_path, started)
    except RecordError as exc:
        if exc.path != study_path:
            raise
        raise at_yaml_line(exc, study.spec_text) from None  # the study file's line, as check prints it


def _run_loaded(options: RunOptions, study, study_path: str, started: float):
    plan = build_plan(study.spec, study_path=study_path, variants=options.variants, shapes=options.shapes,
                      modes=options.modes, shard=options.shard)
    from .coco_ap import coco_setup

    coco = coco_setup(study.spec.get("run") or {}, root=options.root, study_path=study_path,
                      default_shape=plan.agreement_shape)
    if options.merge_ap:
        return _merge_ap(options, study, plan, coco, study_path)
    device = _device(options.cpu, study_path)
    progress = Progress(quiet=options.quiet)
    if not plan.cells:
        progress.log(f"shard {plan.shard[0]}/{plan.shard[1]} holds no cells of the grid; nothing to measure")
    calibration, agreement_set = _image_sets(study, plan, study_path)

    import torch

    from .model import build_model
    from .record import RunRecord, collect_provenance

    base_model, checkpoint = build_model(plan.model, root=options.root, study_path=study_path)
    provenance = collect_provenance(root=options.root, checkpoint=checkpoint, commit=options.commit, dirty=options.dirty,
                                    command=options.command, dataset_revision=agreement_set[2])
    measurements = options.measurements or study.measurements_dir
    job_id = job_id_for(options.job, plan.shard)
    path = measurements / f"{job_id}.json"
    record = RunRecord(path, shown_path(path, options.root), job_id=job_id, family=plan.family, provenance=provenance,
                       description=study.spec.get("title"), resume=options.resume)
    progress.log(f"record {record.display}: {len(plan.cells)} cells on {provenance['gpu'] or 'CPU'}")
    ap = ApContext(setup=coco, measurements=measurements, job=options.job, shard=plan.shard,
                   variants=options.variants or list(plan.variants), root=options.root)
    try:
        with torch.no_grad():
            _measure(plan, study.spec, study_path, record, base_model, calibration, agreement_set, device, progress, ap)
    finally:
        record.set_wall_time(time.perf_counter() - started)
        progress.stop()
    return record


def _image_sets(study, plan: RunPlan, study_path: str):
    """``(calibration, agreement)``: each ``(dataset_id, [Photo], revision)`` from the study's dataset definitions."""
    sets = []
    for key in ("calibration_set", "agreement_set"):
        dataset_id = plan.settings.get(key)
        if not dataset_id:
            raise RecordError(f"run.{key} is not set: name a dataset definition under "
                              f"{shown_path(study.measurements_dir, study.root)}/datasets/", path=study_path, where="/run")
        dataset = study.datasets.get(dataset_id)
        if dataset is None:
            problem = next((p for p in study.problems if p.path.endswith(f"/{dataset_id}.json")), None)
            if problem:
                raise RecordError(problem.message, path=problem.path, where=problem.pointer)
            raise RecordError(f"run.{key} names {dataset_id!r}, but no dataset definition "
                              f"{shown_path(study.measurements_dir, study.root)}/datasets/{dataset_id}.json exists",
                              path=study_path, where=f"/run/{key}")
        photos = load_image_set(dataset.data, dataset.display_path)
        sets.append((dataset_id, photos, dataset.data.get("revision")))
    return sets[0], sets[1]


@dataclass
class ApContext:
    """COCO AP settings of a run: the study's setup (None: no images), where detections go, this shard."""

    setup: object
    measurements: Path
    job: str
    shard: tuple[int, int]
    variants: list[str]
    root: Path

    def pending(self, record) -> list[str]:
        """Variants whose AP (or, for a shard, whose detections file) is still missing."""
        if self.setup is None:
            return []
        from .coco_ap import detections_path

        if self.shard == (1, 1):
            return [v for v in self.variants if not record.has("coco_ap", v, self.setup.shape, "eager", "AP")]
        return [v for v in self.variants
                if not detections_path(self.measurements, self.job, v, self.shard).is_file()]


def _measure(plan, spec, study_path, record, base_model, calibration, agreement_set, device, progress, ap):
    agreement_height, agreement_width = parse_shape(plan.agreement_shape)
    # on --resume, build only the variants that still have something to measure
    pending_cells = [c for c in plan.cells if not record.has("latency", c.variant, c.shape, c.mode, "median")]
    pending_agreement = [n for n in plan.agreement_variants()
                         if not record.has("agreement", n, plan.agreement_shape, "eager", "logit_correlation")]
    pending_ap = ap.pending(record)
    wanted = {c.variant for c in pending_cells} | set(pending_agreement) | set(pending_ap)
    if pending_agreement:
        wanted.add(plan.reference_variant)
    needed = [name for name in plan.variants if name in wanted]
    variants: dict[str, Variant] = {}
    task = progress.task("build variants", len(needed))
    for name in needed:
        variants[name] = _build_variant(plan, name, base_model, calibration, (agreement_height, agreement_width),
                                        device, record, progress)
        progress.advance(task)

    _agreement(plan, record, variants, agreement_set, device, progress)
    if ap.setup is None:
        _coco_not_configured(plan, spec, record)
    else:
        _coco_ap(ap, pending_ap, record, variants, device, progress)

    for variant in variants.values():
        if variant.precision == "fp8" and any(c.variant == variant.name for c in pending_cells):
            _compress(variant, agreement_set[1][0], agreement_height, agreement_width, device, progress)

    for mode, shape, names in plan.groups():
        if mode == "compile":
            for name in names:
                if (name in variants and variants[name].precision == "fp8" and variants[name].real_path is not None
                        and variants[name].real_path.complete
                        and not record.has("latency", name, shape, mode, "median")):
                    _prepare_fp8_compile(variants[name], base_model, agreement_set[1][0],
                                         agreement_height, agreement_width, device, progress)
        _time_group(plan, spec, study_path, record, variants, mode, shape, names, agreement_set, device, progress)


def _device(cpu: bool, study_path: str):
    """The torch device to measure on: the CPU when asked (``--cpu``), else
    CUDA. Raises UsageError when no CUDA device exists and ``--cpu`` is not
    given: a study times GPU compute, and CPU wall times are no substitute."""
    import torch

    if cpu:
        return torch.device("cpu")
    if not torch.cuda.is_available():
        raise UsageError(f"no CUDA device on this machine: {study_path} is timed on a GPU; "
                         "give --cpu to run it on the CPU (test configs only)")
    return torch.device("cuda")


def _calibrate(name: str, recipe_name: str, calibrate):
    """``calibrate()`` (ModelOpt quantization and calibration of variant
    ``name``) with any exception it raises turned into one StudygenError line
    naming the stage and the variant (ModelOpt reports a NaN amax, for one, as
    a bare AssertionError)."""
    from ...errors import StudygenError

    try:
        return calibrate()
    except StudygenError:
        raise
    except Exception as exc:  # noqa: BLE001 -- any failure inside ModelOpt ends the run in one line
        first_line = (str(exc).strip().splitlines() or [""])[0]
        reason = f"{type(exc).__name__}: {first_line}" if first_line else type(exc).__name__
        raise StudygenError(f"variant {name}: FP8 quantization with ModelOpt (recipe {recipe_name}, calibration) "
                            f"failed: {reason}") from None


def _build_variant(plan, name, base_model, calibration, agreement_hw, device, record, progress) -> Variant:
    import torch

    precision = plan.precision(name)
    dtype = getattr(torch, DTYPES[precision])
    model = copy.deepcopy(base_model).to(device=device, dtype=dtype).eval()
    variant = Variant(name=name, precision=precision, model=model, dtype=dtype)
    if precision == "fp8":
        from .quant import quantize_fp8

        recipe_name = plan.variants[name]["recipe"]
        batches = [to_pixel_values(photo, *agreement_hw).to(device=device, dtype=dtype) for photo in calibration[1]]
        began = time.perf_counter()
        variant.quant = _calibrate(name, recipe_name,
                                   lambda: quantize_fp8(model, recipe_name, plan.recipes[recipe_name], batches))
        quant = variant.quant
        progress.log(f"{name}: {len(quant.quantized)} of {quant.total_linears} Linears in FP8; "
                     f"{len(quant.disabled_outside_recipe)} quantizers outside the recipe disabled; "
                     f"calibrated on {len(batches)} images in {time.perf_counter() - began:.1f} s")
        if not record.has("quantization", name, plan.agreement_shape):
            result = {
                "kind": "quantization", "variant": name, "quantized_modules": len(quant.quantized),
                "total_modules": quant.total_linears, "module_type": "Linear", "module_names": quant.quantized,
                "enabled_quantizers": quant.enabled_quantizers, "inserted_quantizers": quant.inserted_quantizers,
                "disabled_outside_recipe": quant.disabled_outside_recipe, "recipe": recipe_name,
                "modelopt_config": quant.modelopt_config, "calibration_images": len(batches),
                "dataset": calibration[0], "shape": plan.agreement_shape,
            }
            if quant.recipe_without_quantizer:
                result["note"] = ("recipe modules left without an enabled weight quantizer: "
                                  + ", ".join(quant.recipe_without_quantizer))
            record.add(result)
    return variant


def _agreement(plan, record, variants, agreement_set, device, progress):
    names = [n for n in plan.agreement_variants() if n in variants
             and not record.has("agreement", n, plan.agreement_shape, "eager", "logit_correlation")]
    if not names:
        return
    height, width = parse_shape(plan.agreement_shape)
    photos = agreement_set[1]
    task = progress.task(f"agreement {plan.agreement_shape}", (len(names) + 1) * len(photos))

    def run(variant: Variant):
        outputs = []
        for photo in photos:
            pixel_values = to_pixel_values(photo, height, width).to(device=device, dtype=variant.dtype)
            outputs.append(agree.outputs_from_model(variant.model(pixel_values=pixel_values)))
            progress.advance(task)
        return outputs

    reference = run(variants[plan.reference_variant])
    thresholds = plan.agreement
    for name in names:
        outputs = run(variants[name])
        base = {"kind": "agreement", "variant": name, "reference_variant": plan.reference_variant,
                "shape": plan.agreement_shape, "batch": 1, "backend": "pytorch", "mode": "eager",
                "dataset": agreement_set[0], "images": len(photos)}
        note = ("FP8 by ModelOpt fake quantization (mtq.quantize): values rounded to FP8, computed in fp16"
                if variants[name].precision == "fp8" else None)
        results = []
        correlation = agree.logit_correlation(reference, outputs)
        results.append(_value_or_not_measured(base, "logit_correlation", correlation,
                                              "no finite logits with non-zero variance in both outputs", note))
        results.append({**base, "metric": "nonfinite_count", "value": agree.nonfinite_count(outputs),
                        **({"note": note} if note else {})})
        matched = agree.precision_recall(reference, outputs, height=height, width=width,
                                         score_threshold=thresholds["score_threshold"],
                                         iou_threshold=thresholds["iou_threshold"], top_k=thresholds.get("top_k"))
        for metric, denominator in (("precision", "variant_detections"), ("recall", "reference_detections")):
            detail = (f"{matched['matches']} matches of {matched[denominator]} {denominator.replace('_', ' ')}")
            extra = {"score_threshold": thresholds["score_threshold"], "iou_threshold": thresholds["iou_threshold"]}
            results.append(_value_or_not_measured(
                {**base, **extra}, metric, matched[metric],
                f"no {denominator.replace('_', ' ')} at score >= {thresholds['score_threshold']}",
                "; ".join(filter(None, [note, detail]))))
        record.add(*results)
        progress.log(f"{name}: logit correlation {correlation}, non-finite {results[1]['value']}, "
                     f"precision {matched['precision']}, recall {matched['recall']}")


def _value_or_not_measured(base: dict, metric: str, value, reason: str, note: str | None) -> dict:
    if value is None:
        out = {"kind": "not_measured", "variant": base["variant"], "metric": metric, "reason": reason,
               "shape": base["shape"], "mode": base["mode"]}
        return out
    out = {**base, "metric": metric, "value": round(float(value), 9)}
    if note:
        out["note"] = note
    return out


def _coco_ap(ap: ApContext, pending: list[str], record, variants, device, progress):
    """Detections for each pending variant on this shard's images; unsharded, COCO AP at once
    (12 statistics, pycocotools); sharded, a detections file per variant for ``--merge-ap``."""
    from ..coco import load_ground_truth
    from .coco_ap import detect, detections_path, shard_ids, sorted_image_ids, write_detections

    if not pending:
        return
    setup = ap.setup
    gt = load_ground_truth(setup.annotations, shown_path(setup.annotations, ap.root))
    _dataset_for_ap(ap, gt)
    ids = shard_ids(sorted_image_ids(gt), ap.shard)
    height, width = parse_shape(setup.shape)
    task = progress.task(f"detections {setup.shape}", len(pending))
    for name in pending:
        variant = variants[name]
        found, dropped = detect(variant.model, gt, ids, setup.images, height=height, width=width, device=device,
                                dtype=variant.dtype)
        path = detections_path(ap.measurements, ap.job, name, ap.shard)
        write_detections(path, found)
        progress.advance(task)
        shown = shown_path(path, ap.root)
        note = (f"{dropped} detections named no category of the annotations and were dropped; " if dropped else "") + \
            ("FP8 by ModelOpt fake quantization (mtq.quantize)" if variant.precision == "fp8" else "")
        if ap.shard != (1, 1):
            record.add({"kind": "not_measured", "variant": name, "metric": "coco_ap", "shape": setup.shape,
                        "mode": "eager", "reason": f"shard {ap.shard[0]}/{ap.shard[1]}: detections on {len(ids)} images "
                        f"written to {shown}; AP is evaluated once over all shards (collect run --merge-ap "
                        f"{ap.shard[1]})"})
            continue
        results = _evaluate_ap(gt, found, name, setup, shown, note)
        record.add(*results)
        progress.log(f"{name}: AP {results[0]['value']:.4f} on {len(ids)} images")


def _evaluate_ap(gt, found, name, setup, shown, note) -> list[dict]:
    from ..coco import build_results, check_detections, evaluate

    check_detections(gt, found, shown)
    stats = evaluate(gt, found)
    results = [n.result for n in build_results(stats, variant=name, dataset=setup.dataset_id, backend="pycocotools",
                                               shape=setup.shape, batch=1, inference_backend="pytorch", mode="eager",
                                               origin=shown)]
    for result in results:
        result["detections"] = shown
        if note:
            result["note"] = note
    return results


def _dataset_for_ap(ap: ApContext, gt) -> None:
    """Verify the AP dataset definition against the annotations, or write it when there is none."""
    from ...fsutil import dump_json
    from ...records.datasets import verify_dataset
    from ..coco import dataset_definition

    path = ap.measurements / "datasets" / f"{ap.setup.dataset_id}.json"
    if path.is_file():
        verify_dataset(path, shown_path(path, ap.root), gt.image_ids, gt.display)
        return
    from ...fsutil import atomic_write_text

    atomic_write_text(path, dump_json(dataset_definition(ap.setup.dataset_id, gt, split="as annotated",
                                                         source=None, role="evaluation")))


def _merge_ap(options: RunOptions, study, plan, coco, study_path):
    """``--merge-ap N``: evaluate COCO AP once over the detections of all N shards of the job,
    into ``<job>-ap.json`` (provenance from the shard records, which must agree)."""
    from ...records.load import load_record
    from ..coco import load_ground_truth
    from .coco_ap import merge_shards
    from .record import RunRecord

    if coco is None:
        raise UsageError("--merge-ap: the study gives no COCO images and annotations (run.coco_images, run.coco_annotations)")
    count = options.merge_ap
    measurements = options.measurements or study.measurements_dir
    shard_records = []
    for index in range(1, count + 1):
        path = measurements / f"{job_id_for(options.job, (index, count))}.json"
        if not path.is_file():
            raise UsageError(f"--merge-ap {count}: no record of shard {index}/{count} ({shown_path(path, options.root)})")
        shard_records.append(load_record(path, shown_path(path, options.root)))
    first = shard_records[0].provenance
    for other in shard_records[1:]:
        if other.provenance.get("gpu") != first.get("gpu") or other.provenance.get("software") != first.get("software"):
            raise UsageError(f"--merge-ap: shard records differ in GPU or software ({other.display_path}); "
                             "AP over them would mix measurements")
    gt = load_ground_truth(coco.annotations, shown_path(coco.annotations, options.root))
    job_id = f"{options.job}-ap"
    path = measurements / f"{job_id}.json"
    provenance = {**first, "notes": [*(first.get("notes") or []),
                                     f"COCO AP merged from the detections of {count} shards of job {options.job}"]}
    record = RunRecord(path, shown_path(path, options.root), job_id=job_id, family=plan.family, provenance=provenance,
                       description=study.spec.get("title"), resume=options.resume)
    for name in options.variants or list(plan.variants):
        if record.has("coco_ap", name, coco.shape, "eager", "AP"):
            continue
        merged, paths = merge_shards(measurements, options.job, name, count)
        shown = ", ".join(shown_path(p, options.root) for p in paths)
        record.add(*_evaluate_ap(gt, merged, name, coco, shown, None))
    return record


def _coco_not_configured(plan, spec, record):
    reason = ("the study gives no COCO image folder with annotations (run.coco_images, run.coco_annotations)"
              + ("; the weights are random, so AP would not mean anything"
                 if plan.model.get("weights") == "random-init" else ""))
    for name in plan.variants_in_shard():
        if not record.has("coco_ap", name, metric="coco_ap"):
            record.add({"kind": "not_measured", "variant": name, "metric": "coco_ap", "reason": reason})


def _compress(variant: Variant, photo, height, width, device, progress):
    from .quant import compress_fp8, real_path_report

    compress_fp8(variant.model)
    pixel_values = to_pixel_values(photo, height, width).to(device=device, dtype=variant.dtype)
    try:
        variant.model(pixel_values=pixel_values)  # the GEMM backend is matched on the first call
    except Exception as exc:  # noqa: BLE001 - recorded as the reason FP8 latency was not measured
        from .quant import RealPathReport

        variant.real_path = RealPathReport([], list(variant.quant.quantized), [],
                                           reason=f"the compressed model failed its first forward: {type(exc).__name__}: {exc}")
        return
    variant.real_path = real_path_report(variant.model, variant.quant.quantized)
    report = variant.real_path
    progress.log(f"{variant.name}: after mtq.compress {len(report.real_gemm_modules)} Linears on the real FP8 GEMM, "
                 f"{len(report.fallback_modules)} fell back, {len(report.fake_quantizers)} fake quantizers enabled")


def _prepare_fp8_compile(variant: Variant, base_model, photo, height, width, device, progress):
    """TorchDynamo (torch 2.11) cannot trace ModelOpt's dynamic modules (AttributeError in
    ``modelopt.torch.opt.dynamic._FoldedCallback``), so compiled FP8 runs a plain fp16 copy of the
    model whose recipe Linears call ModelOpt's FP8 GEMM with the weights and scales ``mtq.compress``
    produced (:func:`~studygen.collect.run.quant.transplant_fp8`). Its logits are compared with
    ModelOpt's own real path on one image before it is used."""
    from .quant import transplant_fp8

    if variant.compile_model is not None:
        return
    plain = copy.deepcopy(base_model).to(device=device, dtype=variant.dtype).eval()
    plain = transplant_fp8(plain, variant.model, variant.quant.quantized)
    pixel_values = to_pixel_values(photo, height, width).to(device=device, dtype=variant.dtype)
    reference = variant.model(pixel_values=pixel_values).logits.float()
    transplanted = plain(pixel_values=pixel_values).logits.float()
    difference = float((reference - transplanted).abs().max())
    variant.compile_model = plain
    variant.compile_note = (f"compiled FP8 runs a plain fp16 copy of the model whose {len(variant.quant.quantized)} recipe "
                            f"Linears call ModelOpt's FP8 GEMM (_fp8_gemm_impl: E4M3 cast, torch._scaled_mm) with the "
                            f"weights and scales mtq.compress produced, because TorchDynamo cannot trace ModelOpt's "
                            f"module wrappers; its logits differ from ModelOpt's eager real path by at most "
                            f"{difference:.3g} on one image at {height}x{width}")
    progress.log(f"{variant.name}: transplanted FP8 model, max |logit difference| vs ModelOpt real path {difference:.3g}")


def _inputs(photos, height, width, device, dtype):
    return [to_pixel_values(photo, height, width).to(device=device, dtype=dtype) for photo in photos]


def _time_group(plan, spec, study_path, record, variants, mode, shape, names, agreement_set, device, progress):
    import torch

    from .profiling import fp8_evidence, kernel_time_result, profile_forwards

    settings = plan.settings
    height, width = parse_shape(shape)
    cuda = device.type == "cuda"
    todo = [n for n in names if not record.has("latency", n, shape, mode, "median")]
    calls, compile_s, graphs = {}, {}, {}
    for name in todo:
        variant = variants[name]
        if variant.precision == "fp8" and not variant.real_path.complete:
            record.add(_not_measured(name, shape, mode, "latency",
                                     "FP8 latency is taken only on ModelOpt's real FP8 path: " + variant.real_path.reason))
            continue
        inputs = _inputs(agreement_set[1], height, width, device, variant.dtype)
        forward = variant.model
        if mode == "compile":
            began = time.perf_counter()
            skips_before = _cudagraph_skips()
            try:
                forward = _compiled(variant, settings)
                for pixel_values in inputs:  # compile, then see every input once before timing
                    forward(pixel_values=pixel_values)
                if cuda:
                    torch.cuda.synchronize()
            except Exception as exc:  # noqa: BLE001 - recorded as why this cell was not measured
                progress.log(f"{name} {shape} compile failed: {type(exc).__name__}: {exc}")
                traceback.print_exc(file=sys.stderr)
                record.add(_not_measured(name, shape, mode, "latency",
                                         f"torch.compile failed: {type(exc).__name__}: {str(exc)[:300]}"))
                continue
            compile_s[name] = time.perf_counter() - began
            graphs[name] = _cuda_graph_report(skips_before, settings)
            progress.log(f"{name} {shape}: compiled in {compile_s[name]:.1f} s"
                         + (f"; CUDA graphs: {graphs[name]}" if graphs[name] else ""))
        calls[name] = _forward_call(forward, inputs, cuda_graphs=mode == "compile" and _uses_cuda_graphs(settings))
    if not calls:
        return
    repeats, iterations, warmup = settings["repeats"], settings["iterations"], settings["warmup_iterations"]
    task = progress.task(f"time {mode} {shape}", repeats * len(calls))
    timer = Timer(cuda, settings["host_sync"])
    times = time_interleaved(calls, repeats=repeats, iterations=iterations, warmup=warmup, timer=timer,
                             on_step=lambda r, n: progress.advance(task))
    profile_task = progress.task(f"profile {mode} {shape}", len(calls))
    for name, call in calls.items():
        variant = variants[name]
        summary = summarize(times[name], warmup=warmup, unstable_cv=settings["unstable_cv"])
        profile = profile_forwards(call, iterations=settings["profile_iterations"], warmup=2, cuda=cuda)
        progress.advance(profile_task)
        latency = _latency_result(plan, name, shape, mode, summary, timer, agreement_set[0], compile_s.get(name),
                                  graphs.get(name))
        if mode == "compile" and variant.compile_note:
            latency["note"] = variant.compile_note
        results = []
        if variant.precision == "fp8":
            evidence = fp8_evidence(profile, settings["fp8_gemm_kernel_pattern"], settings["fake_quant_kernel_pattern"])
            if not evidence["kernels"] or evidence["fake_quant_kernels"]:
                why = ("no FP8 GEMM kernel in the profile" if not evidence["kernels"]
                       else f"{evidence['fake_quant_kernels']} fake-quantization kernel launches per forward in the profile")
                results.append(_not_measured(name, shape, mode, "latency",
                                             f"FP8 latency refused: {why}; the timed path was not real FP8"))
            else:
                latency["fp8_evidence"] = evidence
                results.append(latency)
        else:
            results.append(latency)
        kernel = {"kind": "kernel_time", "variant": name, "shape": shape, "batch": settings["batch"],
                  "backend": "pytorch", "mode": mode, **kernel_time_result(profile, spec, study_path)}
        results.append(kernel)
        record.add(*results)
        progress.log(f"{name} {mode} {shape}: median {summary.median_ms:.3f} ms (CV {summary.distribution['cv'] * 100:.2f} %"
                     f", repeat medians {summary.distribution['repeat_medians_ms']}), profiled kernels "
                     f"{kernel['profiled_total_ms']:.3f} ms")


def _compiled(variant: Variant, settings: dict):
    import torch

    for limit in ("cache_size_limit", "recompile_limit"):
        if hasattr(torch._dynamo.config, limit):
            setattr(torch._dynamo.config, limit, max(getattr(torch._dynamo.config, limit), 64))
    if hasattr(torch._dynamo.config, "accumulated_cache_size_limit"):
        torch._dynamo.config.accumulated_cache_size_limit = max(torch._dynamo.config.accumulated_cache_size_limit, 1024)
    key = (settings["compile_backend"], settings["compile_mode"])
    if key not in variant.compiled:
        kwargs = {"backend": settings["compile_backend"], "dynamic": False}
        if settings["compile_backend"] == "inductor":
            kwargs["mode"] = settings["compile_mode"]
        variant.compiled[key] = torch.compile(variant.compile_model or variant.model, **kwargs)
    return variant.compiled[key]


def _uses_cuda_graphs(settings: dict) -> bool:
    """Inductor's reduce-overhead and max-autotune modes replay CUDA graphs (cudagraph trees)."""
    return settings["compile_backend"] == "inductor" and settings["compile_mode"] in ("reduce-overhead", "max-autotune")


def _cudagraph_skips() -> int:
    """Inductor's count of compiled graphs it ran without CUDA graphs (``counters["inductor"]["cudagraph_skips"]``)."""
    from torch._dynamo.utils import counters

    return int(counters["inductor"]["cudagraph_skips"])


def _cuda_graph_report(skips_before: int, settings: dict) -> dict | None:
    """``{"skipped_graphs": n}`` for a compile mode that uses CUDA graphs, else None.

    Inductor skips CUDA graphs for a compiled graph it cannot capture (CPU tensors,
    mutated inputs...) and runs it launch by launch; n counts those graphs, so the
    record says whether the timed forward replayed graphs throughout.
    """
    if not _uses_cuda_graphs(settings):
        return None
    return {"skipped_graphs": _cudagraph_skips() - skips_before}


def _forward_call(forward, inputs: list, cuda_graphs: bool):
    """``call(i)``: one forward on ``inputs[i % len(inputs)]`` (pixel values, 1x3xHxW).

    With CUDA graphs each call starts a new cudagraph-tree step, so a replay may
    reuse the memory of the previous forward's outputs (which nothing holds).
    """
    if not cuda_graphs:
        return lambda i: forward(pixel_values=inputs[i % len(inputs)])
    import torch

    def call(i):
        torch.compiler.cudagraph_mark_step_begin()
        return forward(pixel_values=inputs[i % len(inputs)])

    return call


def _not_measured(variant: str, shape: str, mode: str, metric: str, reason: str) -> dict:
    return {"kind": "not_measured", "variant": variant, "shape": shape, "mode": mode, "backend": "pytorch",
            "metric": metric, "reason": reason}


def _latency_result(plan, name, shape, mode, summary, timer, dataset_id, compile_seconds, cuda_graphs=None) -> dict:
    settings = plan.settings
    # CUDA graphs only where inductor replayed them for every graph of the forward
    replayed_graphs = bool(cuda_graphs) and cuda_graphs["skipped_graphs"] == 0
    result = {
        "kind": "latency", "variant": name, "shape": shape, "batch": settings["batch"], "backend": "pytorch",
        "mode": mode, "timing": "gpu_compute" if timer.cuda else "end_to_end", "statistic": "median",
        "value_ms": summary.median_ms, "statistics_ms": summary.statistics_ms, "distribution": summary.distribution,
        "method": {"timer": timer.name, "cuda_graph": replayed_graphs, "data_transfers": False,
                   "separate_profile_run": True, "interleaved": True,
                   **({"host_sync": timer.host_sync} if timer.cuda else {})},
        "dataset": dataset_id,
        "unstable": summary.unstable,
    }
    if summary.unstable_reason:
        result["unstable_reason"] = summary.unstable_reason
    if compile_seconds is not None:
        result["compile_s"] = round(compile_seconds, 3)
        result["compile"] = {"backend": settings["compile_backend"], "mode": settings["compile_mode"], "dynamic": False,
                             **({"cudagraph_skipped_graphs": cuda_graphs["skipped_graphs"]} if cuda_graphs else {})}
    return result


class Progress:
    """A rich progress bar per stage on stderr, and log lines (shown even when stderr is not a terminal)."""

    def __init__(self, quiet: bool = False):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

        self.console = Console(stderr=True, quiet=quiet)
        self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=self.console, transient=False)
        self.bar.start()

    def task(self, description: str, total: int):
        return self.bar.add_task(description, total=total)

    def advance(self, task) -> None:
        self.bar.advance(task)

    def log(self, message: str) -> None:
        self.bar.console.log(message)

    def stop(self) -> None:
        self.bar.stop()


def command_line(params: dict) -> str:
    """The ``studygen collect run`` command line of ``params`` (click's parsed options), shell-quoted,
    for the record's ``collector.command``; options left at their defaults are left out."""
    words = ["studygen", "collect", "run"]
    for name, value in params.items():
        if name == "dirty" and value is not None:
            words.append("--dirty" if value else "--clean")
            continue
        if value in (None, False, ()) or name == "quiet":
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, tuple):
            words += [flag, ",".join(value)]
        else:
            words += [flag, str(value)]
    return " ".join(shlex.quote(w) for w in words)
