"""FP8 evidence from trtexec exports: which GEMM and convolution layers of an
engine ran FP8 kernels, and their time per iteration, for ``fp8_evidence``
on the run's latency results (what check SG215 asks of an FP8 latency).

Read from ``--exportLayerInfo`` of an engine built with
``--profilingVerbosity=detailed`` (per layer ``LayerType``, ``TacticName``
and its inputs' types, see :mod:`.exports`) joined by layer name with the
run's per-layer times: an ``--exportProfile`` array, else the log's
``--dumpProfile`` table. ``averageMs`` (the table's average column) is the
mean per profiled iteration; ``timeMs`` is the sum over all of them, so it
is not used.

What counts (:func:`fp8_basis`): a layer whose work is a GEMM or a
convolution (its type, or its tactic, names one: ``CaskConvolution``,
``gemm``, ``MatrixMultiply``, ``…_xmma_fprop_…``) and whose kernel runs FP8
math: its tactic names an FP8 type (``e4m3``, ``e5m2``, ``fp8``, as in
``sm89_xmma_gemm_e4m3e4m3_e4m3f32_f32_…``), or its first (data) input is
FP8 (``Row major linear FP8 format``, ``FP8``). Not counted: a quantize,
dequantize or reformat layer (an FP8 tensor moved or made is no FP8 math),
and a GEMM whose output alone is FP8 (FP16 math with a quantizing epilogue).
Layer names are the model's, never read as evidence.

No evidence is read from a names-only layer info (no tactics, no types),
from a profile without a layer info, or for several runs (one layer info
describes one engine; each run of a concatenated log may have built its
own): a note says why. With no layer of the profile in the layer info the
two files are of different engines, and the collection is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from .common import ResultLabels, TrtexecInputs, profile_runs
from .exports import LayerInfo, LayerKernel

FP8_TYPE = re.compile(r"fp8|float8|e4m3|e5m2", re.IGNORECASE)
GEMM_WORK = re.compile(r"conv|gemm|gemv|mat(?:rix)?\s*mul|fully\s*connected|fprop", re.IGNORECASE)
# a Myelin (ForeignNode) layer runs kernels its entry does not name: it may hide GEMMs of any type
OPAQUE_WORK = re.compile(r"myelin", re.IGNORECASE)
MAX_KERNELS = 20  # the largest FP8 layers listed; the count and total time cover them all
MAX_NAMED = 5  # layer names a note quotes


def fp8_basis(kernel: LayerKernel) -> str | None:
    """``"tactic"`` or ``"input type"``: what shows that a GEMM or
    convolution layer ran FP8 math (its tactic names an FP8 type, else its
    first input is FP8); None for a layer doing other work or doing it in
    another type."""
    if not is_gemm(kernel):
        return None
    if kernel.tactic and FP8_TYPE.search(kernel.tactic):
        return "tactic"
    if kernel.input_types and FP8_TYPE.search(kernel.input_types[0]):
        return "input type"
    return None


def is_gemm(kernel: LayerKernel) -> bool:
    """True when the layer's type or its tactic names a GEMM or convolution."""
    return bool(GEMM_WORK.search(kernel.work) or (kernel.tactic and GEMM_WORK.search(kernel.tactic)))


@dataclass(frozen=True)
class TimedRun:
    """One run's per-layer times: ``rows`` (layer name, ms per iteration),
    ``iterations`` (None: not printed), and ``where`` they were read, for
    the evidence's ``source``."""

    rows: list[tuple[str, float]]
    iterations: int | None
    where: str
    display: str
    line: int


def layer_evidence(info: LayerInfo, info_name: str, timed: TimedRun) -> tuple[dict, list[str]]:
    """``(fp8_evidence, notes)`` of one run: ``kernels`` (the
    :data:`MAX_KERNELS` largest FP8 layers: ``name`` the tactic, else the
    layer's name, ``layer``, ``time_ms`` per iteration, ``fp8_by``),
    ``fp8_layers`` and ``fp8_time_ms`` over all of them, ``gemm_layers``
    (GEMM and convolution layers timed), ``opaque_layers`` (Myelin layers,
    when any), ``iterations`` and ``source``. Notes name the FP8 layers
    without a time and the profile's layers missing from the layer info.
    Raises InputError when no profiled layer is in the layer info."""
    joined = [(name, ms, info.kernels[name]) for name, ms in timed.rows if name in info.kernels]
    if not joined:
        raise InputError(f"none of its {len(timed.rows)} profiled layers is in the layer info {info_name}: the two "
                         "files describe different engines, so no FP8 kernel can be told; nothing recorded",
                         path=timed.display, line=timed.line)
    fp8 = [(name, ms, kernel, basis) for name, ms, kernel in joined if (basis := fp8_basis(kernel))]
    fp8.sort(key=lambda item: -item[1])
    kernels = [{"name": kernel.tactic or name, "layer": name, "time_ms": ms, "fp8_by": basis}
               for name, ms, kernel, basis in fp8[:MAX_KERNELS]]
    evidence = {"kernels": kernels, "fp8_layers": len(fp8), "fp8_time_ms": round(sum(ms for _, ms, _, _ in fp8), 6),
                "gemm_layers": sum(1 for _, _, kernel in joined if is_gemm(kernel))}
    opaque = sum(1 for _, _, kernel in joined if OPAQUE_WORK.search(kernel.work))
    if opaque:
        evidence["opaque_layers"] = opaque
    if timed.iterations is not None:
        evidence["iterations"] = timed.iterations
    evidence["source"] = f"--exportLayerInfo {info_name} joined with {timed.where}"
    return evidence, join_notes(info, info_name, timed)


def join_notes(info: LayerInfo, info_name: str, timed: TimedRun) -> list[str]:
    """Notes on what the join of layer info and times left out: FP8 layers
    with no time (not evidence: nothing shows they ran), and profiled
    layers the layer info lacks (their kernels are unknown)."""
    timed_names = {name for name, _ in timed.rows}
    untimed = [name for name, kernel in info.kernels.items() if name not in timed_names and fp8_basis(kernel)]
    unknown = [name for name, _ in timed.rows if name not in info.kernels]
    notes = []
    if untimed:
        notes.append(f"fp8_evidence: {len(untimed)} FP8 layer(s) of {info_name} have no time in {timed.where} and "
                     f"are left out ({named(untimed)})")
    if unknown:
        notes.append(f"fp8_evidence: {len(unknown)} profiled layer(s) of {timed.where} are not in {info_name}, so "
                     f"their kernels are unknown ({named(unknown)})")
    return notes


def named(names: list[str]) -> str:
    """The first :data:`MAX_NAMED` names, quoted, and how many more."""
    shown = ", ".join(repr(name) for name in names[:MAX_NAMED])
    return shown + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")


def timed_runs(inputs: TrtexecInputs) -> list[tuple[int | None, TimedRun]]:
    """``(run index or None without a log, its times)`` for each profiled
    run: the ``--profile`` arrays matched to the log's runs in order (an
    InputError where the counts differ), else the log's ``--dumpProfile``
    tables."""
    if inputs.profile is not None:
        name = Path(inputs.profile_display).name
        matched = profile_runs(inputs)
        return [(run.index if run else None,
                 TimedRun([(n, average) for n, average, _, _ in array.rows], array.iterations,
                          f"--exportProfile {name} array {array.index + 1}",
                          inputs.profile_display, array.line))
                for array, run in zip(inputs.profile, matched)]
    log = inputs.log
    return [(run.index, TimedRun([(n, average) for n, average, _, _ in run.profile.rows], run.profile.iterations,
                                 f"the --dumpProfile table at {log.basename}:{run.profile.line}", log.display,
                                 run.profile.line))
            for run in inputs.runs if run.profile is not None]


def fp8_evidence_by_run(inputs: TrtexecInputs, labels: ResultLabels) -> dict[int | None, dict]:
    """The ``fp8_evidence`` of each profiled run (keyed as
    :func:`timed_runs`), for a variant declared fp8, or, with no declared
    precision, where FP8 kernels were found. A variant declared fp8 gets an
    explicit empty list when the layer info shows no FP8 GEMM (profiled, no
    FP8 kernel ran), and a note in ``inputs.notes`` when nothing can be told.
    Raises InputError (see :func:`layer_evidence`, :func:`timed_runs`)."""
    if labels.precision not in ("fp8", None):
        return {}
    declared = labels.precision == "fp8"
    runs = timed_runs(inputs) if inputs.profile is not None or inputs.log is not None else []
    info = inputs.layer_info
    why_not = None
    if not runs:
        why_not = "no per-layer profile (--profile, or a --dumpProfile table in the log)"
    elif info is None:
        why_not = "no --layer-info: a profile names layers, not the kernels that ran them"
    elif not info.detailed:
        why_not = (f"{Path(inputs.layer_info_display).name} lists layer names only: build the engine with "
                   "--profilingVerbosity=detailed to export tactics and types")
    elif len(runs) > 1:
        why_not = (f"{len(runs)} profiled runs but one --layer-info, which describes one engine: collect each run "
                   "with its own layer info")
    if why_not:
        if declared and (inputs.runs or inputs.times):  # only where there is a latency to go without it
            # named by the input whose latencies go without it: a note a --replace of that input drops with them
            source = inputs.log.basename if inputs.log is not None else Path(inputs.times_display).name
            inputs.notes.append(f"{source}: no fp8_evidence recorded: {why_not}")
        return {}
    [(index, timed)] = runs
    if not declared and not any(name in info.kernels for name, _ in timed.rows):
        return {}  # files of two engines: refused only where the evidence is asked for (a variant declared fp8)
    evidence, notes = layer_evidence(info, Path(inputs.layer_info_display).name, timed)
    if not declared and not evidence["kernels"]:
        return {}
    inputs.notes.extend(notes)
    return {index: evidence}
