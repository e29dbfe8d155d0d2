"""``collect run``: measure a study's variants on this machine, result by result.

Order of work (each step hands its results to the record sink when it ends):

1. the model (fp32, CPU) from the run plan, then one copy per variant on the
   device: fp32, fp16, bf16 by casting; FP8 by casting to fp16 and quantizing
   the recipe's modules with ModelOpt (calibration on the calibration set at
   the agreement shape) → ``quantization`` result (:mod:`.variants`);
2. agreement with the reference (eager, agreement shape, agreement set) →
   ``agreement`` results (FP8: fake quantization, before compression;
   :mod:`.agreement_stage`);
3. COCO AP only when the study gives images and annotations; else a
   ``not_measured`` result per variant saying why (:mod:`.ap_stage`);
4. FP8 compression to real FP8 weights and the real-path audit;
5. per (mode, shape): the variants timed interleaved, then each profiled →
   ``latency`` (FP8 only with its FP8 GEMM evidence) and ``kernel_time``
   (:mod:`.latency_stage`); compiled groups ``run.compilations`` times, each
   compilation in its own process with an empty Inductor cache, timed one at a
   time (:mod:`.compilations`).

On ``--resume`` only the variants that still have something to measure are
built. A variant that cannot be measured gets a ``not_measured`` result with
the reason (a compile failure, an incomplete FP8 path); the run goes on. A
cell whose forward or compilation raised is also kept in the sink's failures
(:meth:`~studygen.collect.run.context.ResultSink.note_failures`): the command
names each on stderr and exits 1.
"""

from __future__ import annotations

import time

from .agreement_stage import measure_agreement
from .ap_stage import coco_not_configured, measure_ap
from .compilations import compile_group
from ...errors import RecordError
from ...records.jobs import job_id_for
from .compile_rule import CompilationRule
from .context import (ImageSet, RecordStore, ResultSink, RunContext, RunInputs, RunOptions, free_memory,
                      refuse_oversized_inputs, select_device)
from .latency_stage import time_group
from .launcher import Placement, placement_record
from .model import build_model, image_input_problem
from .progress import Progress
from .provenance import collect_provenance
from .variants import build_variant, compress


def run_study(inputs: RunInputs, options: RunOptions, store: RecordStore, *, started: float | None = None) -> ResultSink:
    """Measure ``inputs.plan`` (this shard's cells) and return the record's sink.

    ``store`` opens the record once the provenance is known; ``started`` is
    the invocation's ``time.perf_counter()`` at its start (the record's
    ``run_wall_s``; default: now). Raises UsageError (no CUDA device without
    ``--cpu``), RecordError / InputError for bad inputs (before the record is
    opened) and whatever ``store.open`` raises (an existing record without
    ``--resume``). A cell whose forward raised is no error
    (:mod:`.latency_stage`): the sink's failures name it.
    """
    started = time.perf_counter() if started is None else started
    device = select_device(options.cpu, inputs.study_path, options.local_rank)
    progress = Progress(quiet=options.quiet)
    sink = None
    try:
        run = _start(inputs, options, store, device, progress)
        sink = run.sink
        import torch

        with torch.no_grad():
            measure(run)
        sink.note_failures(run.failures)
    finally:
        if sink is not None:
            sink.set_wall_time(time.perf_counter() - started)
        progress.stop()
    return sink


def _start(inputs: RunInputs, options: RunOptions, store: RecordStore, device, progress: Progress) -> RunContext:
    """Load the image sets and the model, gather the provenance and open the record."""
    plan = inputs.plan
    if not plan.cells:
        progress.log(f"shard {plan.shard[0]}/{plan.shard[1]} holds no cells of the grid; nothing to measure")
    calibration, agreement = ImageSet.load_if_named(inputs.calibration_set), ImageSet.load(inputs.agreement_set)
    refuse_oversized_inputs(plan.settings, [cell.shape for cell in plan.cells], len(agreement.photos),
                            *free_memory(device), inputs.study_path)
    base_model, checkpoint = build_model(plan.model, root=options.root, study_path=inputs.study_path)
    problem = image_input_problem(base_model, plan.model["hf_class"])
    if problem:
        raise RecordError(problem, path=inputs.study_path, pointer="/model/hf_class")
    provenance = collect_provenance(root=options.root, checkpoint=checkpoint, commit=options.commit, dirty=options.dirty,
                                    command=options.command, dataset_revision=agreement.revision,
                                    on_gpu=device.type == "cuda")
    provenance["placement"] = placement_record(Placement(plan.shard, options.launcher, options.local_rank), device)
    sink = store.open(job_id_for(options.job, plan.shard), provenance)
    progress.log(f"record {sink.display}: {len(plan.cells)} cells on {provenance['gpu'] or 'CPU'}")
    return RunContext(inputs=inputs, options=options, device=device, progress=progress, sink=sink, store=store,
                      base_model=base_model, calibration=calibration, agreement=agreement)


def measure(run: RunContext) -> None:
    """Steps 1 to 5 of the module docstring, for what the record still lacks."""
    plan = run.plan
    pending_cells = [cell for cell in plan.cells if run.latency_pending(cell)]
    if CompilationRule.from_settings(plan.settings).in_workers:  # compiled cells are built and measured in workers
        here = [cell for cell in pending_cells if cell.mode != "compile"]
    else:
        here = pending_cells
    pending_agreement = [name for name in plan.agreement_variants() if run.agreement_pending(name)]
    pending_ap = run.ap.pending(run.sink)
    wanted = {cell.variant for cell in here} | set(pending_agreement) | set(pending_ap)
    if pending_agreement:
        wanted.add(plan.reference_variant)
    needed = [name for name in plan.variants if name in wanted]
    task = run.progress.task("build variants", len(needed))
    for name in needed:
        run.variants[name] = build_variant(run, name)
        run.progress.advance(task)

    measure_agreement(run)
    if run.ap.setup is None:
        coco_not_configured(run)
    else:
        measure_ap(run, pending_ap)

    timed = {cell.variant for cell in here}
    for variant in run.variants.values():
        if variant.precision == "fp8" and variant.name in timed:
            compress(run, variant)

    for mode, shape, names in plan.groups():
        if mode == "compile":
            compile_group(run, shape, names)
        else:
            time_group(run, mode, shape, names)
