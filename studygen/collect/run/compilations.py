"""Independent compilations of a compiled group: ``run.compilations`` (default 3, or ``auto``).

Why: Inductor may pick other kernels each time it compiles the same model (one
study's four compilations of FP8 at 800x800 measured 8.48 to 9.09 ms while
each run's repeats agreed to 0.1 %), so a compiled cell timed after one
compilation claims a precision it does not have. Each compiled cell is
therefore compiled N times, each time in its own process with an empty
Inductor and Triton cache.

Method, for one (compile, shape) group, in waves (a fixed count N: one wave
of N; ``auto``: :mod:`.compile_rule` says how many and when to stop):

1. the wave's worker processes start at once (``spawn``), each building the
   group's variants (FP8: quantized, calibrated, compressed and transplanted
   as in the measuring process) and compiling them, in parallel on the CPU cores;
2. when all have compiled, the workers time one at a time: the parent tells
   worker k to go, it times its variants interleaved (the process pinned to
   half of the cores) and profiles them, sends its results and exits while the
   others wait idle; then worker k + 1;
3. the rule looks at every compilation so far and starts another wave or stops;
4. the parent merges each cell's outcomes (:func:`merge_cell`) into one
   ``latency`` and one ``kernel_time`` result that keep every compilation,
   the latency with the rule and why the compilations stopped.

With a time limit (``collect run --time-limit``) no wave starts that the last
one says would end past it, and a worker still compiling or waiting to be
timed when it passes is stopped and left out (the rule's record says "time
limit"). With N = 1 the group compiles in the measuring process, with an empty
cache too. A compilation that fails, or whose FP8 path is refused, makes the
cell a ``not_measured`` result naming the compilation; a worker that dies does
the same for all its cells, and the run goes on (each such cell among the
run's failures: the command names it and exits 1).
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import statistics
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from ...records.kinds import Kind, group_times_ms
from .compile_rule import FAILED, FIXED_COUNT, TIME_LIMIT, CompilationRule
from .context import CellFailure, ImageSet, RunContext, RunInputs, RunOptions, select_device
from .latency_stage import measure_ready, note_tf32, prepare_group
from .model import build_model
from .progress import LineProgress
from .spec import Cell
from .timing import summarize
from .variants import build_variant, compress, prepare_fp8_compile

CACHE_VARIABLES = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")


@dataclass
class Outcome:
    """One compilation's results for one cell: ``latency`` (a latency or
    not_measured result), its ``kernel`` result (None when the cell was not
    timed), the ``times`` timed (``[[ms, ...] per repeat]``, None when not timed)
    and whether the cell's compilation or forward raised (``failed``)."""

    latency: dict
    kernel: dict | None = None
    times: list[list[float]] | None = None
    failed: bool = False  # the compilation or a forward raised (a refused FP8 path is no failure)


@dataclass
class MemorySink:
    """A result sink that keeps results in memory (a worker's, or one compilation
    in the measuring process). ``has`` answers from ``delegate`` (the record) when
    given; a worker has none and is told which cells to measure, and never
    records the FP8 ``quantization`` result again."""

    display: str = "(compilation)"
    delegate: object = None
    added: list[dict] = field(default_factory=list)

    def has(self, kind: str, variant: str, shape: str | None = None, mode: str | None = None,
            metric: str | None = None, batch: int | None = None) -> bool:
        if self.delegate is not None:
            return self.delegate.has(kind, variant, shape, mode, metric, batch)
        return kind == Kind.QUANTIZATION

    def add(self, *results: dict) -> None:
        self.added.extend(results)

    def set_wall_time(self, seconds: float) -> None:
        pass

    def add_notes(self, notes: list[str]) -> None:
        pass  # compile_group notes the merged result of every compilation in the record itself


@dataclass(frozen=True)
class WorkerJob:
    """What worker ``compilation`` (named ``label`` in its log lines) measures: the ``names`` at ``shape``, compiled."""

    inputs: RunInputs
    options: RunOptions
    compilation: int
    label: str
    shape: str
    names: tuple[str, ...]
    cache_dir: str


@dataclass
class Wave:
    """What one wave of worker compilations gave: each finished compilation's
    outcomes by variant (``outcomes``, in the order they were timed), the
    wall time until all had compiled (``compile_s``), each timing's wall time
    (``timing_s``), and whether the run's time limit cut it short (``cut``)."""

    outcomes: list[dict[str, Outcome]] = field(default_factory=list)
    compile_s: float = 0.0
    timing_s: list[float] = field(default_factory=list)
    cut: bool = False

    def seconds_for(self, count: int) -> float:
        """Estimated wall time of a wave of ``count`` like this one: its compile time and ``count`` timings."""
        timing = statistics.mean(self.timing_s) if self.timing_s else 0.0
        return self.compile_s + count * timing


def compile_group(run: RunContext, shape: str, names: list[str]) -> None:
    """Measure the compiled cells at ``shape`` of ``names`` that the record lacks,
    as many times as the study's compilation rule says (:mod:`.compile_rule`),
    and add the merged results, each latency with the rule and how it ended.
    A cell that no compilation finished before the run's time limit gets no result
    (a ``--resume`` measures it)."""
    pending = [name for name in names if run.latency_pending(Cell("compile", shape, name))]
    if not pending:
        return
    rule = CompilationRule.from_settings(run.settings)
    if rule.in_workers:
        per_compilation, stopped = _in_waves(run, shape, pending, rule)
    else:
        per_compilation, stopped = [_in_process(run, shape, pending)], FIXED_COUNT
    if not per_compilation:
        run.progress.log(f"compile {shape}: no compilation finished before the time limit; "
                         f"{', '.join(pending)} left unmeasured")
        return
    for name in pending:
        results = merge_cell([outcomes[name] for outcomes in per_compilation], run.settings)
        if results[0]["kind"] == Kind.LATENCY:
            medians = [entry["median_ms"] for entry in results[0]["compilations"]]
            results[0]["compilation_rule"] = rule.record(medians, stopped)
        run.sink.add(*results)
        note_tf32(run, Cell("compile", shape, name), results)
        if results[0]["kind"] == Kind.NOT_MEASURED and any(outcomes[name].failed for outcomes in per_compilation):
            run.failures.append(CellFailure(Cell("compile", shape, name), results[0]["reason"]))


def _in_process(run: RunContext, shape: str, names: list[str]) -> dict[str, Outcome]:
    """One compilation in the measuring process, with an empty compile cache."""
    for name in names:
        variant = run.variants.get(name)
        if variant is not None and variant.precision == "fp8" and variant.real_fp8_ready:
            prepare_fp8_compile(run, variant)
    memory = MemorySink(display=run.sink.display, delegate=run.sink)
    one = replace(run, sink=memory, failures=[])  # the cell's failure is the merged result's (compile_group)
    with empty_compile_caches(tempfile.mkdtemp(prefix="studygen-compile-")) as folder:
        times = measure_ready(one, "compile", shape, prepare_group(one, "compile", shape, names))
    shutil.rmtree(folder, ignore_errors=True)
    return outcomes_of(memory.added, times, shape, names, {f.cell.variant for f in one.failures})


@contextmanager
def empty_compile_caches(folder: str):
    """Point Inductor's and Triton's on-disk caches at subfolders of the empty
    ``folder`` for the block (environment variables, read when a cache is first
    used), then restore them. Yields ``folder``."""
    before = {name: os.environ.get(name) for name in CACHE_VARIABLES}
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(folder, "inductor")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(folder, "triton")
    try:
        yield folder
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def outcomes_of(results: list[dict], times: dict, shape: str, names: list[str],
                failed: set[str] | frozenset[str] = frozenset()) -> dict[str, Outcome]:
    """Each cell's :class:`Outcome` from one compilation's results and samples;
    ``failed`` the variants whose compilation or forward raised."""
    outcomes = {}
    for name in names:
        mine = [r for r in results if r["variant"] == name and r.get("shape") == shape and r.get("mode") == "compile"]
        latency = next(r for r in mine if r["kind"] in (Kind.LATENCY, Kind.NOT_MEASURED))
        kernel = next((r for r in mine if r["kind"] == Kind.KERNEL_TIME), None)
        outcomes[name] = Outcome(latency, kernel, times.get(name), failed=name in failed)
    return outcomes


def _in_waves(run: RunContext, shape: str, names: list[str], rule: CompilationRule) -> tuple[list[dict], str]:
    """Compilations in waves of worker processes until the rule stops them
    (or a compilation fails, or the run's time limit would be passed): returns
    each finished compilation's outcomes and why they stopped."""
    per_compilation: list[dict[str, Outcome]] = []
    count, last = rule.first_wave, None
    deadline = run.options.deadline
    while True:
        if deadline is not None and last is not None and time.monotonic() + last.seconds_for(count) > deadline:
            return per_compilation, TIME_LIMIT
        label = f"of {rule.count}" if rule.count is not None else "(auto)"
        last = _wave(run, shape, names, range(len(per_compilation) + 1, len(per_compilation) + 1 + count), label)
        per_compilation += last.outcomes
        if any(o.latency["kind"] != Kind.LATENCY for outcomes in last.outcomes for o in outcomes.values()):
            return per_compilation, FAILED
        if last.cut:
            return per_compilation, TIME_LIMIT
        medians = {name: [outcomes[name].latency["value_ms"] for outcomes in per_compilation] for name in names}
        count, stopped = rule.next_wave(medians)
        run.progress.log(f"compile {shape}: {len(per_compilation)} compilations; "
                         + (f"{count} more" if count else f"stopped: {stopped}"))
        if not count:
            return per_compilation, stopped


def _wave(run: RunContext, shape: str, names: list[str], numbers: range, label: str) -> Wave:
    """Compilations ``numbers`` in worker processes: compiled in parallel, timed one at a time.
    A worker still compiling, or not yet timed, when the run's time limit comes is stopped
    and left out (``cut``)."""
    context = multiprocessing.get_context("spawn")
    inputs = replace(run.inputs, coco=None)
    deadline = run.options.deadline
    workers, wave = [], Wave()
    try:
        for compilation in numbers:
            folder = tempfile.mkdtemp(prefix=f"studygen-compile-{compilation}-")
            job = WorkerJob(inputs, run.options, compilation, f"compilation {compilation} {label}", shape,
                            tuple(names), folder)
            ours, theirs = context.Pipe()
            with empty_compile_caches(folder):  # a spawned process starts with the environment of this moment
                process = context.Process(target=worker_main, args=(theirs, job), name=f"compilation-{compilation}")
                process.start()
            theirs.close()
            workers.append((job, process, ours))
        run.progress.log(f"compile {shape}: compilations {numbers.start}-{numbers.stop - 1} {label} of "
                         f"{', '.join(names)} started in parallel")
        began = time.monotonic()
        compiled = [_receive(process, conn, deadline) for _, process, conn in workers]
        wave.compile_s = time.monotonic() - began
        for (job, process, conn), message in zip(workers, compiled):
            if message[0] == "compiled":
                if _past(deadline, statistics.mean(wave.timing_s) if wave.timing_s else 0.0):
                    wave.cut = True
                    continue
                if message[1]:  # none compiled (each failure logged by the worker): the worker only reports it
                    run.progress.log(f"{job.label} at {shape}: timing "
                                     f"({', '.join(f'{n} compiled in {s:.1f} s' for n, s in message[1].items())})")
                began = time.monotonic()
                conn.send("go")
                message = _receive(process, conn, deadline)
                wave.timing_s.append(time.monotonic() - began)
            if message[0] == "time limit":
                wave.cut = True
                continue
            process.join(timeout=60)
            wave.outcomes.append(_worker_outcomes(job, message, shape, names))
        return wave
    finally:
        for job, process, conn in workers:
            if process.is_alive():
                process.terminate()
                process.join(timeout=10)
            conn.close()
            shutil.rmtree(job.cache_dir, ignore_errors=True)


def _past(deadline: float | None, seconds: float = 0.0) -> bool:
    """Whether ``seconds`` from now is past the run's ``deadline`` (time.monotonic(); None: no limit)."""
    return deadline is not None and time.monotonic() + seconds > deadline


def _receive(process, conn, deadline: float | None = None) -> tuple:
    """The worker's next message; ``("error", why)`` when it exits without one,
    ``("time limit",)`` when the run's deadline passes first."""
    while True:
        if conn.poll(0.5):
            try:
                return conn.recv()
            except EOFError:
                break
        if not process.is_alive():
            if conn.poll(0):
                continue
            break
        if _past(deadline):
            return ("time limit",)
    process.join(timeout=10)
    return ("error", f"the worker process exited with code {process.exitcode} before it reported")


def _worker_outcomes(job: WorkerJob, message: tuple, shape: str, names: list[str]) -> dict[str, Outcome]:
    """Each cell's outcome from a worker's last message (its results, or why it failed)."""
    if message[0] == "results":
        return outcomes_of(message[1], message[2], shape, names, set(message[3]))
    why = message[1] if message[0] == "error" else f"unexpected message {message[0]!r}"
    return {name: Outcome({"kind": Kind.NOT_MEASURED, "variant": name, "shape": shape, "mode": "compile",
                           "backend": "pytorch", "metric": Kind.LATENCY, "reason": f"the compilation failed: {why}"},
                          failed=True)
            for name in names}


def worker_main(conn, job: WorkerJob) -> None:
    """A worker process: build, compile, report ``("compiled", {variant: s})``,
    wait for ``"go"``, time and profile, report ``("results", results, times,
    [variant whose compilation or forward raised, ...])``.
    Any failure is reported as ``("error", why)``."""
    try:
        _work(conn, job)
    except BaseException as exc:  # noqa: BLE001 - the parent records why this compilation gave nothing
        lines = str(exc).strip().splitlines()
        conn.send(("error", f"{type(exc).__name__}: {lines[0][:300] if lines else ''}".rstrip(": ")))
    finally:
        conn.close()


def _work(conn, job: WorkerJob) -> None:
    import torch

    inputs, options = job.inputs, job.options
    progress = LineProgress(job.label, quiet=options.quiet)
    device = select_device(options.cpu, inputs.study_path, options.local_rank)
    calibration, agreement = ImageSet.load_if_named(inputs.calibration_set), ImageSet.load(inputs.agreement_set)
    base_model, _ = build_model(inputs.plan.model, root=options.root, study_path=inputs.study_path)
    sink = MemorySink()
    run = RunContext(inputs=inputs, options=options, device=device, progress=progress, sink=sink, store=None,
                     base_model=base_model, calibration=calibration, agreement=agreement)
    names = list(job.names)
    with torch.no_grad():
        for name in names:
            variant = run.variants[name] = build_variant(run, name)
            if variant.precision == "fp8":
                compress(run, variant)
                if variant.real_fp8_ready:
                    prepare_fp8_compile(run, variant)
        ready = prepare_group(run, "compile", job.shape, names)
        conn.send(("compiled", {name: prepared.compiled.seconds for name, prepared in ready.items()}))
        if conn.recv() != "go":
            return
        times = measure_ready(run, "compile", job.shape, ready)
    conn.send(("results", sink.added, times, [failure.cell.variant for failure in run.failures]))


def merge_cell(outcomes: list[Outcome], settings: dict) -> list[dict]:
    """One cell's results from its compilations' outcomes (in compilation order).

    Every compilation timed: ``[latency, kernel_time]`` where the latency's
    ``value_ms`` is the median of the compilations' medians, its
    ``distribution`` and ``statistics_ms`` pool every compilation's samples,
    ``unstable`` holds when any compilation was unstable, and ``compilations``
    keeps each one's median, repeat medians, CV, compile time and host time; the
    rest (method, compile settings, FP8 evidence, note) is the median
    compilation's (by median; the lower middle one for even N). The kernel_time
    result is the median compilation's, with each compilation's groups under
    ``compilations``. Any compilation refused or failed: its ``not_measured``
    result (the reason naming the compilation), with the merged kernel_time
    when every compilation was profiled.
    """
    count = len(outcomes)
    kernels = [outcome.kernel for outcome in outcomes]
    refused = [(k, outcome) for k, outcome in enumerate(outcomes, 1) if outcome.latency["kind"] != Kind.LATENCY]
    if refused:
        k, outcome = refused[0]
        result = dict(outcome.latency)
        result["reason"] = f"compilation {k} of {count}: {result['reason']}"
        medians = [o.latency.get("value_ms", 0.0) for o in outcomes]
        return [result] + ([merge_kernels(kernels, _median_index(medians))] if all(kernels) else [])
    medians = [outcome.latency["value_ms"] for outcome in outcomes]
    middle = _median_index(medians)
    result = dict(outcomes[middle].latency)
    pooled = summarize([repeat for outcome in outcomes for repeat in outcome.times],
                       warmup=settings["warmup_iterations"], unstable_cv=settings["unstable_cv"])
    distribution = dict(pooled.distribution)
    for key in ("host_issue_ms_per_forward", "host_ms_per_forward"):
        values = [o.latency["distribution"][key] for o in outcomes if key in o.latency.get("distribution", {})]
        if len(values) == count:
            distribution[key] = round(statistics.median(values), 6)
    result.update(value_ms=round(statistics.median(medians), 6), statistics_ms=pooled.statistics_ms,
                  distribution=distribution)
    reasons = [f"compilation {k}: {o.latency['unstable_reason']}" for k, o in enumerate(outcomes, 1)
               if o.latency.get("unstable") and o.latency.get("unstable_reason")]
    result["unstable"] = any(o.latency.get("unstable") for o in outcomes)
    result.pop("unstable_reason", None)
    if reasons:
        result["unstable_reason"] = "; ".join(reasons)
    result["compilations"] = [_compilation_entry(k, o.latency) for k, o in enumerate(outcomes, 1)]
    return [result, merge_kernels(kernels, middle)] if all(kernels) else [result]


def _compilation_entry(k: int, latency: dict) -> dict:
    distribution = latency.get("distribution") or {}
    entry = {"compilation": k, "median_ms": latency["value_ms"],
             "repeat_medians_ms": list(distribution.get("repeat_medians_ms") or [])}
    if "cv" in distribution:
        entry["cv"] = distribution["cv"]
    if "compile_s" in latency:
        entry["compile_s"] = latency["compile_s"]
    entry["unstable"] = bool(latency.get("unstable"))
    if "host_ms_per_forward" in distribution:
        entry["host_ms_per_forward"] = distribution["host_ms_per_forward"]
    skipped = (latency.get("compile") or {}).get("cudagraph_skipped_graphs")
    if skipped is not None:
        entry["cudagraph_skipped_graphs"] = skipped
    return entry


def merge_kernels(kernels: list[dict], middle: int) -> dict:
    """The kernel_time result of compilation ``middle`` (0-based) with every
    compilation's group times (ms per forward) under ``compilations``, each
    with its profiled forwards (``per_iteration``) and, for the groups that
    differ between compilations (:func:`differing_groups`, listed in
    ``differing_groups``), its largest kernels with their launch
    configurations (``kernels``: group -> list)."""
    result = dict(kernels[middle])
    differing = differing_groups(kernels)
    entries = []
    for k, kernel in enumerate(kernels, 1):
        entry = {"compilation": k, "profiled_total_ms": kernel["profiled_total_ms"],
                 "groups": {group["group"]: group["time_ms"] for group in kernel["groups"]}}
        if kernel.get("per_iteration"):
            entry["per_iteration"] = kernel["per_iteration"]
        listed = {group["group"]: group["kernels"] for group in kernel["groups"]
                  if group["group"] in differing and group.get("kernels")}
        if listed:
            entry["kernels"] = listed
        entries.append(entry)
    result["compilations"] = entries
    if differing:
        result["differing_groups"] = differing
    return result


# The least share of a forward's kernel time (the compilations' median profiled total) by which a group's time
# must range over the compilations for its kernels to be kept. Under CUDA graphs one compilation's forwards agree
# to microseconds, so nearly every group ranged wider than that between compilations and each compilation listed
# the kernels of nearly every group (issue 26: 5 of 5 and 6 of 6 groups at 800 x 800 on one H200, among them
# "other", 0.002 ms apart in a forward of 8.4 ms). A group that moves by less than half a percent of the forward
# accounts for no visible part of a difference between compilations (those this was written for spread 0.5 to
# 14 % of the latency).
MIN_DIFFERING_SHARE = 0.005


def differing_groups(kernels: list[dict]) -> list[str]:
    """The groups whose time (ms per forward) differs between the compilations'
    profiles by more than it varies inside one and by more than
    :data:`MIN_DIFFERING_SHARE` of the median profiled total: the range over
    compilations exceeds both the largest range over one compilation's
    profiled forwards (0 when a profile kept no forwards) and that share; or a
    compilation lacks the group. In the order the groups first appear."""
    names: list[str] = []
    for kernel in kernels:
        names += [group["group"] for group in kernel["groups"] if group["group"] not in names]
    floor = MIN_DIFFERING_SHARE * statistics.median(kernel["profiled_total_ms"] for kernel in kernels) if kernels else 0.0
    out = []
    for name in names:
        times = [next((g["time_ms"] for g in kernel["groups"] if g["group"] == name), None) for kernel in kernels]
        if None in times:
            out.append(name)
            continue
        inside = max((_forward_range(kernel, name) for kernel in kernels), default=0.0)
        if max(times) - min(times) > max(inside, floor):
            out.append(name)
    return out


def _forward_range(kernel: dict, group: str) -> float:
    """Max minus min of ``group``'s time over one profile's forwards
    (:func:`~studygen.records.kinds.group_times_ms`: a forward without it counts 0 ms)."""
    values = group_times_ms(kernel.get("per_iteration") or [], group)
    return max(values) - min(values) if values else 0.0


def _median_index(values: list[float]) -> int:
    """Index of the median of ``values`` (the lower middle one for an even count)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    return order[(len(values) - 1) // 2]
