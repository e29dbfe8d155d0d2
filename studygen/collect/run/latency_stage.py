"""The timing stage of a run: one (mode, shape) group of cells, timed interleaved, then profiled.

For each pending cell of the group the variant is made ready
(:func:`prepare_call`: the eager model, or compiled and run once on every
input); the ready variants are timed round-robin
(:func:`~studygen.collect.run.timing.time_interleaved`), then each is
profiled in a separate run (:func:`~studygen.collect.run.profiling.profile_forwards`).
Each cell gives a ``latency`` result (FP8 only with the FP8 GEMM evidence of
its profile, else a ``not_measured`` saying why) and a ``kernel_time``
result, written together when the cell is done.

A forward that raises (a ViT built for 224x224 refuses 256x256: "Input image
size (256*256) doesn't match model") is a fact about that cell, not an error
of the run: the cell gets a ``not_measured`` latency naming the exception's
type and first line, is kept among the run's failures (the command names it
on stderr and exits 1), and the group's other cells are timed again from the
start without it, so that every sample of a group was interleaved with the
same variants. Only what the forward itself raises counts (:func:`guarded`);
an exception of the timing or profiling code around it still stops the run.
CUDA out of memory is recorded too, its reason saying so and how many
variants were on the device: it is what this GPU gives at that shape, and it
may fit measured alone (``--variants``). A CUDA error other than out of
memory (an illegal address, a device-side assert) leaves the device unusable
for every later cell, so it stops the run: one line naming the cell and the
error (:class:`DeviceLost`), the record keeping what was finished.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from dataclasses import dataclass, replace
from typing import Callable

from ...errors import EXIT_FINDINGS, StudygenError
from ...records.kinds import Kind
from .compiled import (compile_settings, compiled_forward, cuda_graph_report, cudagraph_skips, forward_call,
                       uses_cuda_graphs)
from .context import CellFailure, RunContext, Variant
from .profiling import Profile, fp8_evidence, kernel_time_result, profile_forwards, tf32_kernel_note
from .spec import Cell
from .timing import Summary, Timer, host_per_forward, pinned_to_cores, summarize, time_interleaved


@dataclass(frozen=True)
class CompileInfo:
    """One compilation of a cell: ``seconds`` from ``torch.compile`` to the end of
    the first forward on every input; ``cuda_graphs`` the CUDA graph report
    (:func:`~studygen.collect.run.compiled.cuda_graph_report`, None when the mode uses none)."""

    seconds: float
    cuda_graphs: dict | None = None


@dataclass
class ReadyCall:
    """A variant of one cell ready to time: ``call(i)`` runs forward i; ``compiled`` for compile mode."""

    variant: Variant
    call: Callable[[int], object]
    compiled: CompileInfo | None = None


class ForwardFailed(Exception):
    """The forward of ``variant`` raised; ``reason`` says what, in the words a
    ``not_measured`` result keeps (:func:`forward_failure_reason`)."""

    def __init__(self, variant: str, reason: str):
        super().__init__(f"{variant}: {reason}")
        self.variant = variant
        self.reason = reason


MAX_SHOWN = 300  # characters of an exception's first line kept in a reason


def forward_failure_reason(exc: Exception, variants_on_device: int) -> str:
    """``the forward raised ValueError: <first line>`` (cut to :data:`MAX_SHOWN`
    characters); for CUDA out of memory, led by ``out of GPU memory`` and
    saying how many variants were on the device."""
    lines = str(exc).strip().splitlines()
    said = f"{type(exc).__name__}: {lines[0][:MAX_SHOWN]}" if lines else type(exc).__name__
    if type(exc).__name__ == "OutOfMemoryError":  # torch.OutOfMemoryError, without importing torch here
        return (f"out of GPU memory with {variants_on_device} variant{'s' if variants_on_device != 1 else ''} "
                f"on the device: the forward raised {said}")
    return f"the forward raised {said}"


def device_lost(exc: Exception) -> bool:
    """A CUDA error other than out of memory: the CUDA context is unusable afterwards."""
    return "CUDA error" in str(exc) and type(exc).__name__ != "OutOfMemoryError"


def eager_failure(cell: Cell, model, pixel_values, variants_on_device: int) -> str | None:
    """Why ``model`` itself refuses ``pixel_values`` (batch x 3 x H x W) of ``cell``, or None when it runs them.

    A compiled forward raises what the model raises (a ViT built for 224x224
    given 256x256 raises its ValueError while Dynamo traces it), which is no
    failure of torch.compile. So after a failed compilation the uncompiled
    model runs the same input once: if that raises too, the reason is the
    eager one (:func:`forward_failure_reason`, the words the cell's eager mode
    records); if it runs, the compiler is to blame. A :func:`device_lost`
    error raises :class:`DeviceLost`: the device is unusable for any later cell.
    """
    try:
        model(pixel_values=pixel_values)
    except Exception as exc:  # noqa: BLE001 - what the model raised is recorded as the cell's outcome
        lost, reason = device_lost(exc), forward_failure_reason(exc, variants_on_device)
    else:
        return None
    if lost:
        raise device_lost_error(cell, reason)
    return reason


class DeviceLost(StudygenError):
    """A CUDA error other than out of memory raised by one cell's forward: the
    device is unusable for every later cell, so the run stops, in one line
    naming the cell and the error; the record keeps what was finished (exit 1)."""

    exit_code = EXIT_FINDINGS


def device_lost_error(cell: Cell, reason: str) -> DeviceLost:
    """The :class:`DeviceLost` of ``cell`` whose forward failed for ``reason``."""
    return DeviceLost(f"{cell.variant} at {cell.shape} ({cell.mode}): {reason}; the CUDA device is unusable after "
                      "such an error, so the run stopped here and the record keeps only what was finished before "
                      "(collect run --resume, in a new process, measures the rest)")


def guarded(cell: Cell, call: Callable[[int], object], variants_on_device: int) -> Callable[[int], object]:
    """``call`` (the forward of ``cell``) whose exceptions become :class:`ForwardFailed`,
    or :class:`DeviceLost` for a :func:`device_lost` one.

    The exception is turned into words before it is raised again, outside the
    ``except``: its traceback holds the forward's frames and their tensors,
    which must not stay allocated while the other cells are timed.
    """
    def forward(i):
        try:
            return call(i)
        except Exception as exc:  # noqa: BLE001 - what the model raised is recorded as the cell's outcome
            lost = device_lost(exc)
            reason = forward_failure_reason(exc, variants_on_device)
        if lost:
            raise device_lost_error(cell, reason)
        raise ForwardFailed(cell.variant, reason)

    return forward


def record_failure(run: RunContext, cell: Cell, reason: str) -> None:
    """Add the ``not_measured`` latency of a cell whose measurement raised and keep it among ``run.failures``."""
    result = {"kind": Kind.NOT_MEASURED, "variant": cell.variant, "shape": cell.shape, "batch": run.settings["batch"],
              "mode": cell.mode, "backend": "pytorch", "metric": Kind.LATENCY, "reason": reason}
    run.sink.add(result)
    run.failures.append(CellFailure(cell, reason))
    run.progress.log(f"{cell.variant} {cell.mode} {cell.shape}: not measured: {reason}")


def time_group(run: RunContext, mode: str, shape: str, names: list[str]) -> dict[str, list[list[float]]]:
    """Time and profile the cells (``mode``, ``shape``, each of ``names``) the record lacks;
    returns their samples (:func:`measure_ready`)."""
    return measure_ready(run, mode, shape, prepare_group(run, mode, shape, names))


def prepare_group(run: RunContext, mode: str, shape: str, names: list[str]) -> dict[str, "ReadyCall"]:
    """The pending cells of the group made ready to time (:func:`prepare_call`), by variant name."""
    ready: dict[str, ReadyCall] = {}
    for name in names:
        cell = Cell(mode, shape, name)
        if run.latency_pending(cell):
            prepared = prepare_call(run, cell)
            if prepared is not None:
                ready[name] = prepared
    return ready


def measure_ready(run: RunContext, mode: str, shape: str, ready: dict[str, "ReadyCall"]) -> dict[str, list[list[float]]]:
    """Time the ``ready`` calls interleaved, the measuring process pinned to half of
    its cores on CUDA unless ``run.pin_timing`` is false
    (:func:`~studygen.collect.run.timing.pinned_to_cores`), then profile each;
    each cell's results go to ``run.sink``, a ``not_measured`` latency for a cell
    whose forward raised (:func:`guarded`, :func:`record_failure`).
    Returns ``{variant: [[ms, ...] per repeat]}``, the samples timed (none of a failed cell)."""
    if not ready:
        return {}
    settings = run.settings
    ready = {name: replace(prepared, call=guarded(Cell(mode, shape, name), prepared.call, len(run.variants)))
             for name, prepared in ready.items()}
    with pinned_to_cores(run.cuda and settings["pin_timing"]) as cores:
        timed = _time_without_failures(run, mode, shape, ready)
        if timed is None:
            return {}
        times, timer, host, ready = timed
        task = run.progress.task(f"profile {mode} {shape}", len(ready))
        failures: list[str] = []
        for name, prepared in ready.items():
            summary = summarize(times[name], warmup=settings["warmup_iterations"], unstable_cv=settings["unstable_cv"])
            summary.distribution.update(host_per_forward(host[name]))
            try:
                profile = profile_forwards(prepared.call, iterations=settings["profile_iterations"], warmup=2,
                                           cuda=run.cuda)
            except ForwardFailed as failed:  # timed, then raised on a profiled forward: no figure of its own run
                record_failure(run, Cell(mode, shape, name), failed.reason)
                times.pop(name)
                failures.append(name)
                continue
            run.progress.advance(task)
            results = cell_results(run, Cell(mode, shape, name), prepared, summary, timer, profile, pinned_cores=cores)
            run.sink.add(*results)
            note_tf32(run, Cell(mode, shape, name), results)
            kernel = results[-1]
            run.progress.log(f"{name} {mode} {shape}: median {summary.median_ms:.3f} ms (CV "
                             f"{summary.distribution['cv'] * 100:.2f} %, repeat medians "
                             f"{summary.distribution['repeat_medians_ms']}, host "
                             f"{summary.distribution['host_issue_ms_per_forward']:.3f} ms issue / "
                             f"{summary.distribution['host_ms_per_forward']:.3f} ms wall per forward), "
                             f"profiled kernels {kernel['profiled_total_ms']:.3f} ms")
        if failures:  # a failed profile never advances its bar
            run.progress.end(task, f"{', '.join(failures)} failed")
    return times


def prepare_call(run: RunContext, cell: Cell) -> ReadyCall | None:
    """The cell's variant ready to time on the agreement set's photographs at
    the cell's shape; None (with a ``not_measured`` result recorded) when FP8
    is not on its real path or compilation fails."""
    variant = run.variants[cell.variant]
    if variant.precision == "fp8" and not variant.real_path.complete:
        run.sink.add(not_measured(cell, Kind.LATENCY, "FP8 latency is taken only on ModelOpt's real FP8 path: "
                                  + variant.real_path.reason))
        return None
    height, width = cell.height_width
    inputs = run.inputs_at(height, width, variant.dtype)
    if cell.mode != "compile":
        return ReadyCall(variant, forward_call(variant.model, inputs, cuda_graphs=False))
    return _compile(run, cell, variant, inputs)


def _compile(run: RunContext, cell: Cell, variant: Variant, inputs: list) -> ReadyCall | None:
    """Compile, then run every input once before timing (compile time in the record)."""
    import torch

    settings = run.settings
    began = time.perf_counter()
    skips_before = cudagraph_skips()
    try:
        forward = compiled_forward(variant, settings)
        for pixel_values in inputs:
            forward(pixel_values=pixel_values)
        if run.cuda:
            torch.cuda.synchronize()
    except Exception as exc:  # noqa: BLE001 - recorded as why this cell was not measured
        # words and frames taken here, so the frames' tensors are freed before the model runs again
        compile_reason = f"torch.compile failed: {type(exc).__name__}: {str(exc)[:MAX_SHOWN]}"
        frames, unusable = traceback.format_exc(), device_lost(exc)
    else:
        compile_reason = None
    if compile_reason is not None:
        refused = None if unusable else eager_failure(cell, variant.compile_model or variant.model, inputs[0],
                                                      len(run.variants))
        reason = refused or compile_reason
        run.progress.log(f"{cell.variant} {cell.shape} compile: not measured: {reason}")
        if not refused and not run.options.quiet:  # Inductor's own failure: its frames say where
            sys.stderr.write(frames)
        run.sink.add(not_measured(cell, Kind.LATENCY, reason))
        run.failures.append(CellFailure(cell, reason))
        return None
    info = CompileInfo(time.perf_counter() - began, cuda_graph_report(skips_before, settings))
    run.progress.log(f"{cell.variant} {cell.shape}: compiled in {info.seconds:.1f} s"
                     + (f"; CUDA graphs: {info.cuda_graphs}" if info.cuda_graphs else ""))
    return ReadyCall(variant, forward_call(forward, inputs, cuda_graphs=uses_cuda_graphs(settings)), info)


def _time_without_failures(run: RunContext, mode: str, shape: str, ready: dict[str, ReadyCall]) -> tuple | None:
    """:func:`_time_calls` of ``ready``; a variant whose forward raises is recorded
    (:func:`record_failure`) and the others are timed again from the start
    without it. ``(times, timer, host, ready left)``, or None when none is left."""
    while ready:
        try:
            return (*_time_calls(run, mode, shape, ready), ready)
        except ForwardFailed as failed:
            record_failure(run, Cell(mode, shape, failed.variant), failed.reason)
            ready = {name: prepared for name, prepared in ready.items() if name != failed.variant}
    return None


def _time_calls(run: RunContext, mode: str, shape: str, ready: dict[str, ReadyCall]) -> tuple[dict, Timer, dict]:
    """``({variant: [[ms, ...] per repeat]}, timer, {variant: [(issue, wall) ms per forward per repeat]})``:
    the ready calls timed interleaved."""
    settings = run.settings
    repeats, iterations, warmup = settings["repeats"], settings["iterations"], settings["warmup_iterations"]
    task = run.progress.task(f"time {mode} {shape}", repeats * len(ready))
    timer = Timer(run.cuda, settings["host_sync"])
    host: dict = {}
    try:
        times = time_interleaved({name: prepared.call for name, prepared in ready.items()}, repeats=repeats,
                                 iterations=iterations, warmup=warmup, timer=timer,
                                 on_step=lambda repeat, name: run.progress.advance(task), host=host)
    except ForwardFailed as failed:  # the others are timed again on a new bar: this one stops here
        run.progress.end(task, f"{failed.variant} failed")
        raise
    return times, timer, host


def cell_results(run: RunContext, cell: Cell, prepared: ReadyCall, summary: Summary, timer: Timer,
                 profile: Profile, pinned_cores: list[int] | None = None) -> list[dict]:
    """``[latency or not_measured, kernel_time]`` of one timed and profiled cell."""
    settings = run.settings
    latency = latency_result(cell, settings, summary, timer, run.agreement.dataset_id, prepared.compiled,
                             pinned_cores=pinned_cores)
    if cell.mode == "compile" and prepared.variant.compile_note:
        latency["note"] = prepared.variant.compile_note
    if prepared.variant.precision == "fp8":
        latency = fp8_checked(cell, latency, profile, settings)
    kernel = {"kind": Kind.KERNEL_TIME, "variant": cell.variant, "shape": cell.shape, "batch": settings["batch"],
              "backend": "pytorch", "mode": cell.mode, **kernel_time_result(profile, run.plan.kernel_rules)}
    return [latency, kernel]


def note_tf32(run: RunContext, cell: Cell, results: list[dict]) -> None:
    """Add to the record's provenance notes, and log, what
    :func:`~studygen.collect.run.profiling.tf32_kernel_note` says of the
    ``kernel_time`` result among ``results`` (a cell's)."""
    precision = run.plan.precision(cell.variant)  # the study's: a compile-only run's parent builds no variant
    for result in results:
        if result["kind"] != Kind.KERNEL_TIME:
            continue
        where = f"{cell.shape}, batch {result.get('batch', run.settings['batch'])}, {cell.mode}"
        note = tf32_kernel_note(result, cell.variant, precision, where)
        if note:
            run.sink.add_notes([note])
            run.progress.log(note)


def fp8_checked(cell: Cell, latency: dict, profile: Profile, settings: dict) -> dict:
    """``latency`` with the profile's ``fp8_evidence``, or a ``not_measured``
    result when the profile shows no FP8 GEMM kernel or any fake-quantization kernel."""
    evidence = fp8_evidence(profile, settings["fp8_gemm_kernel_pattern"], settings["fake_quant_kernel_pattern"])
    if not evidence["kernels"] or evidence["fake_quant_kernels"]:
        why = ("no FP8 GEMM kernel in the profile" if not evidence["kernels"]
               else f"{evidence['fake_quant_kernels']} fake-quantization kernel launches per forward in the profile")
        return not_measured(cell, Kind.LATENCY, f"FP8 latency refused: {why}; the timed path was not real FP8")
    latency["fp8_evidence"] = evidence
    return latency


def not_measured(cell: Cell, metric: str, reason: str) -> dict:
    """A ``not_measured`` result for ``metric`` of ``cell``, saying why."""
    return {"kind": Kind.NOT_MEASURED, "variant": cell.variant, "shape": cell.shape, "mode": cell.mode,
            "backend": "pytorch", "metric": metric, "reason": reason}


def latency_result(cell: Cell, settings: dict, summary: Summary, timer: Timer, dataset_id: str,
                   compiled: CompileInfo | None = None, pinned_cores: list[int] | None = None) -> dict:
    """The ``latency`` result of ``cell`` from its timing ``summary`` (ms), the
    ``timer`` that took it (on the CPU, with torch's intra-op thread count), the
    image set it ran on and, compiled, its compilation; ``pinned_cores`` the
    cores the launching thread was pinned to (None: not pinned)."""
    # CUDA graphs only where inductor replayed them for every graph of the forward
    cuda_graphs = compiled.cuda_graphs if compiled else None
    replayed_graphs = bool(cuda_graphs) and cuda_graphs["skipped_graphs"] == 0
    result = {
        "kind": Kind.LATENCY, "variant": cell.variant, "shape": cell.shape, "batch": settings["batch"],
        "backend": "pytorch", "mode": cell.mode, "timing": "gpu_compute" if timer.cuda else "end_to_end",
        "statistic": "median", "value_ms": summary.median_ms, "statistics_ms": summary.statistics_ms,
        "distribution": summary.distribution,
        "method": {"timer": timer.name, "cuda_graph": replayed_graphs, "data_transfers": False,
                   "separate_profile_run": True, "interleaved": True,
                   **({"host_sync": timer.host_sync} if timer.cuda else {}),
                   **({"intra_op_threads": timer.intra_op_threads} if timer.intra_op_threads is not None else {}),
                   **({"pinned_cores": pinned_cores} if pinned_cores is not None else {})},
        "dataset": dataset_id,
        "unstable": summary.unstable,
    }
    if summary.unstable_reason:
        result["unstable_reason"] = summary.unstable_reason
    if compiled is not None:
        result["compile_s"] = round(compiled.seconds, 3)
        result["compile"] = {"backend": settings["compile_backend"], "mode": settings["compile_mode"], "dynamic": False,
                             **({"cudagraph_skipped_graphs": cuda_graphs["skipped_graphs"]} if cuda_graphs else {}),
                             **compile_settings(settings, dict(os.environ))}
    return result
