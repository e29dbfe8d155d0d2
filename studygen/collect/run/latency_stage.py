"""The timing stage of a run: one (mode, shape) group of cells, timed interleaved, then profiled.

For each pending cell of the group the variant is made ready
(:func:`prepare_call`: the eager model, or compiled and run once on every
input); the ready variants are timed round-robin
(:func:`~studygen.collect.run.timing.time_interleaved`), then each is
profiled in a separate run (:func:`~studygen.collect.run.profiling.profile_forwards`).
Each cell gives a ``latency`` result (FP8 only with the FP8 GEMM evidence of
its profile, else a ``not_measured`` saying why) and a ``kernel_time``
result, written together when the cell is done.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Callable

from ...records.kinds import Kind
from .compiled import (compile_settings, compiled_forward, cuda_graph_report, cudagraph_skips, forward_call,
                       uses_cuda_graphs)
from .context import RunContext, Variant
from .profiling import Profile, fp8_evidence, kernel_time_result, profile_forwards
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
    each cell's results go to ``run.sink``.
    Returns ``{variant: [[ms, ...] per repeat]}``, the samples timed."""
    if not ready:
        return {}
    settings = run.settings
    with pinned_to_cores(run.cuda and settings["pin_timing"]) as cores:
        times, timer, host = _time_calls(run, mode, shape, ready)
        task = run.progress.task(f"profile {mode} {shape}", len(ready))
        for name, prepared in ready.items():
            summary = summarize(times[name], warmup=settings["warmup_iterations"], unstable_cv=settings["unstable_cv"])
            summary.distribution.update(host_per_forward(host[name]))
            profile = profile_forwards(prepared.call, iterations=settings["profile_iterations"], warmup=2, cuda=run.cuda)
            run.progress.advance(task)
            results = cell_results(run, Cell(mode, shape, name), prepared, summary, timer, profile, pinned_cores=cores)
            run.sink.add(*results)
            kernel = results[-1]
            run.progress.log(f"{name} {mode} {shape}: median {summary.median_ms:.3f} ms (CV "
                             f"{summary.distribution['cv'] * 100:.2f} %, repeat medians "
                             f"{summary.distribution['repeat_medians_ms']}, host "
                             f"{summary.distribution['host_issue_ms_per_forward']:.3f} ms issue / "
                             f"{summary.distribution['host_ms_per_forward']:.3f} ms wall per forward), "
                             f"profiled kernels {kernel['profiled_total_ms']:.3f} ms")
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
        run.progress.log(f"{cell.variant} {cell.shape} compile failed: {type(exc).__name__}: {exc}")
        traceback.print_exc(file=sys.stderr)
        run.sink.add(not_measured(cell, Kind.LATENCY, f"torch.compile failed: {type(exc).__name__}: {str(exc)[:300]}"))
        return None
    info = CompileInfo(time.perf_counter() - began, cuda_graph_report(skips_before, settings))
    run.progress.log(f"{cell.variant} {cell.shape}: compiled in {info.seconds:.1f} s"
                     + (f"; CUDA graphs: {info.cuda_graphs}" if info.cuda_graphs else ""))
    return ReadyCall(variant, forward_call(forward, inputs, cuda_graphs=uses_cuda_graphs(settings)), info)


def _time_calls(run: RunContext, mode: str, shape: str, ready: dict[str, ReadyCall]) -> tuple[dict, Timer, dict]:
    """``({variant: [[ms, ...] per repeat]}, timer, {variant: [(issue, wall) ms per forward per repeat]})``:
    the ready calls timed interleaved."""
    settings = run.settings
    repeats, iterations, warmup = settings["repeats"], settings["iterations"], settings["warmup_iterations"]
    task = run.progress.task(f"time {mode} {shape}", repeats * len(ready))
    timer = Timer(run.cuda, settings["host_sync"])
    host: dict = {}
    times = time_interleaved({name: prepared.call for name, prepared in ready.items()}, repeats=repeats,
                             iterations=iterations, warmup=warmup, timer=timer,
                             on_step=lambda repeat, name: run.progress.advance(task), host=host)
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
    ``timer`` that took it, the image set it ran on and, compiled, its compilation;
    ``pinned_cores`` the cores the launching thread was pinned to (None: not pinned)."""
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
