"""Independent compilations of a compiled group: ``run.compilations`` (default 3).

Why: Inductor may pick other kernels each time it compiles the same model (one
study's four compilations of FP8 at 800x800 measured 8.48 to 9.09 ms while
each run's repeats agreed to 0.1 %), so a compiled cell timed after one
compilation claims a precision it does not have. Each compiled cell is
therefore compiled N times, each time in its own process with an empty
Inductor and Triton cache.

Method, for one (compile, shape) group with N > 1:

1. N worker processes start at once (``spawn``), each building the group's
   variants (FP8: quantized, calibrated, compressed and transplanted as in the
   measuring process) and compiling them, in parallel on the CPU cores;
2. when all have compiled, the workers time one at a time: the parent tells
   worker k to go, it times its variants interleaved (the process pinned to
   half of the cores) and profiles them, sends its results and exits while the
   others wait idle; then worker k + 1;
3. the parent merges each cell's N outcomes (:func:`merge_cell`) into one
   ``latency`` and one ``kernel_time`` result that keep every compilation.

With N = 1 the group compiles in the measuring process, with an empty cache
too. A compilation that fails, or whose FP8 path is refused, makes the cell a
``not_measured`` result naming the compilation; a worker that dies does the
same for all its cells, and the run goes on.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import statistics
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from ...records.kinds import Kind
from .context import ImageSet, RunContext, RunInputs, RunOptions, select_device
from .latency_stage import measure_ready, prepare_group
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
    timed) and the ``times`` timed (``[[ms, ...] per repeat]``, None when not timed)."""

    latency: dict
    kernel: dict | None = None
    times: list[list[float]] | None = None


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
            metric: str | None = None) -> bool:
        if self.delegate is not None:
            return self.delegate.has(kind, variant, shape, mode, metric)
        return kind == Kind.QUANTIZATION

    def add(self, *results: dict) -> None:
        self.added.extend(results)

    def set_wall_time(self, seconds: float) -> None:
        pass


@dataclass(frozen=True)
class WorkerJob:
    """What worker ``compilation`` of ``count`` measures: the ``names`` at ``shape``, compiled."""

    inputs: RunInputs
    options: RunOptions
    compilation: int
    count: int
    shape: str
    names: tuple[str, ...]
    cache_dir: str


def compile_group(run: RunContext, shape: str, names: list[str]) -> None:
    """Measure the compiled cells at ``shape`` of ``names`` that the record lacks,
    ``run.settings["compilations"]`` times each, and add the merged results."""
    pending = [name for name in names if run.latency_pending(Cell("compile", shape, name))]
    if not pending:
        return
    count = run.settings["compilations"]
    if count == 1:
        per_compilation = [_in_process(run, shape, pending)]
    else:
        per_compilation = _in_workers(run, shape, pending, count)
    for name in pending:
        run.sink.add(*merge_cell([outcomes[name] for outcomes in per_compilation], run.settings))


def _in_process(run: RunContext, shape: str, names: list[str]) -> dict[str, Outcome]:
    """One compilation in the measuring process, with an empty compile cache."""
    for name in names:
        variant = run.variants.get(name)
        if variant is not None and variant.precision == "fp8" and variant.real_fp8_ready:
            prepare_fp8_compile(run, variant)
    memory = MemorySink(display=run.sink.display, delegate=run.sink)
    one = replace(run, sink=memory)
    with empty_compile_caches(tempfile.mkdtemp(prefix="studygen-compile-")) as folder:
        times = measure_ready(one, "compile", shape, prepare_group(one, "compile", shape, names))
    shutil.rmtree(folder, ignore_errors=True)
    return outcomes_of(memory.added, times, shape, names)


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


def outcomes_of(results: list[dict], times: dict, shape: str, names: list[str]) -> dict[str, Outcome]:
    """Each cell's :class:`Outcome` from one compilation's results and samples."""
    outcomes = {}
    for name in names:
        mine = [r for r in results if r["variant"] == name and r.get("shape") == shape and r.get("mode") == "compile"]
        latency = next(r for r in mine if r["kind"] in (Kind.LATENCY, Kind.NOT_MEASURED))
        kernel = next((r for r in mine if r["kind"] == Kind.KERNEL_TIME), None)
        outcomes[name] = Outcome(latency, kernel, times.get(name))
    return outcomes


def _in_workers(run: RunContext, shape: str, names: list[str], count: int) -> list[dict[str, Outcome]]:
    """``count`` compilations in worker processes: compiled in parallel, timed one at a time."""
    context = multiprocessing.get_context("spawn")
    inputs = replace(run.inputs, coco=None)
    workers = []
    try:
        for compilation in range(1, count + 1):
            folder = tempfile.mkdtemp(prefix=f"studygen-compile-{compilation}-")
            job = WorkerJob(inputs, run.options, compilation, count, shape, tuple(names), folder)
            ours, theirs = context.Pipe()
            with empty_compile_caches(folder):  # a spawned process starts with the environment of this moment
                process = context.Process(target=worker_main, args=(theirs, job), name=f"compilation-{compilation}")
                process.start()
            theirs.close()
            workers.append((job, process, ours))
        run.progress.log(f"compile {shape}: {count} compilations of {', '.join(names)} started in parallel")
        compiled = [_receive(process, conn) for _, process, conn in workers]
        per_compilation = []
        for (job, process, conn), message in zip(workers, compiled):
            if message[0] == "compiled":
                run.progress.log(f"compilation {job.compilation}/{count} at {shape}: timing "
                                 f"({', '.join(f'{n} compiled in {s:.1f} s' for n, s in message[1].items())})")
                conn.send("go")
                message = _receive(process, conn)
            process.join(timeout=60)
            per_compilation.append(_worker_outcomes(job, message, shape, names))
        return per_compilation
    finally:
        for job, process, conn in workers:
            if process.is_alive():
                process.terminate()
                process.join(timeout=10)
            conn.close()
            shutil.rmtree(job.cache_dir, ignore_errors=True)


def _receive(process, conn) -> tuple:
    """The worker's next message; ``("error", why)`` when it exits without one."""
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
    process.join(timeout=10)
    return ("error", f"the worker process exited with code {process.exitcode} before it reported")


def _worker_outcomes(job: WorkerJob, message: tuple, shape: str, names: list[str]) -> dict[str, Outcome]:
    """Each cell's outcome from a worker's last message (its results, or why it failed)."""
    if message[0] == "results":
        return outcomes_of(message[1], message[2], shape, names)
    why = message[1] if message[0] == "error" else f"unexpected message {message[0]!r}"
    return {name: Outcome({"kind": Kind.NOT_MEASURED, "variant": name, "shape": shape, "mode": "compile",
                           "backend": "pytorch", "metric": Kind.LATENCY, "reason": f"the compilation failed: {why}"})
            for name in names}


def worker_main(conn, job: WorkerJob) -> None:
    """A worker process: build, compile, report ``("compiled", {variant: s})``,
    wait for ``"go"``, time and profile, report ``("results", results, times)``.
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
    progress = LineProgress(f"compilation {job.compilation}/{job.count}", quiet=options.quiet)
    device = select_device(options.cpu, inputs.study_path, options.local_rank)
    calibration, agreement = ImageSet.load(inputs.calibration_set), ImageSet.load(inputs.agreement_set)
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
    conn.send(("results", sink.added, times))


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
    compilation's group times (ms per forward) under ``compilations``."""
    result = dict(kernels[middle])
    result["compilations"] = [{"compilation": k, "profiled_total_ms": kernel["profiled_total_ms"],
                               "groups": {group["group"]: group["time_ms"] for group in kernel["groups"]}}
                              for k, kernel in enumerate(kernels, 1)]
    return result


def _median_index(values: list[float]) -> int:
    """Index of the median of ``values`` (the lower middle one for an even count)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    return order[(len(values) - 1) // 2]
