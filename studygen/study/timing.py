"""How a latency was timed: a row's timing signature, and the signature in words.

Two latencies are comparable only when they were timed the same way: the
same backend and mode (eager vs ``torch.compile``), the same timing (GPU
compute time, host latency, …) and the same effective method flags (CUDA
graphs, data transfers, spin-wait, and for ``collect run`` whether the host
waited for each forward, and on the CPU the intra-op threads torch ran on). A flag the record leaves unset takes the default
of the TensorRT version that measured it: TensorRT 11 turned CUDA graphs,
spin-wait and no data transfers on by default, TensorRT 10 and older had
them off. Outside TensorRT an unset flag stays unknown.

SG212 (:mod:`studygen.checks.sg212_incomparable`) flags an output whose
latencies carry more than one signature; the generic template prints one
latency table per signature (:meth:`studygen.render.tables.TableHelpers.latency_groups`),
so that no table it writes mixes them.

One measurement (:func:`measurement_of`) is a measurement key and, for a
latency, its timing signature: figures of two jobs timed differently are two
measurements, never a disagreement nor a job-to-job spread. SG203 and
render's job-to-job spreads (a table cell's ``2 jobs: a to b``, the list of
measurements in several jobs) group rows by it alike
(:func:`rows_by_measurement`, :func:`reported_by_several_jobs`).
"""

from __future__ import annotations

from ..records.timers import is_cuda_event_timer, is_host_clock_timer
from ..records.keys import MeasurementKey, blanking, measured_without_gpu
from ..records.kinds import Kind
from ..records.profile_spread import ITERATION_SPAN, kernel_span
from .rows import Row

_without_variant = blanking("variant", "recipe")
_without_timing = blanking("metric", "statistic")

# (flag, TensorRT 11+ default, TensorRT <= 10 default)
TRT_DEFAULTS = (("cuda_graph", True, False), ("data_transfers", False, True), ("spin_wait", True, False))


def _trt_major(row: Row) -> int | None:
    version = row.tensorrt
    try:
        return int(str(version).split(".")[0]) if version else None
    except ValueError:
        return None


def timing_signature(row: Row) -> tuple:
    """``(backend, mode, timing, cuda_graph, data_transfers, spin_wait, host_sync,
    intra_op_threads)`` of a latency row, TensorRT defaults applied to unset
    flags (None: unknown; a thread count only ``collect run --cpu`` states, so
    a record without one keeps the signature it had).
    Made once a row (kept in :attr:`Row.signature`): SG203, SG207, SG212 and
    the charts each group every latency row by it."""
    if row.signature is None:
        object.__setattr__(row, "signature", _signature_of(row))  # a memo on the frozen row, set once
    return row.signature


def latency_signature(row: Row) -> tuple | None:
    """The timing signature (:func:`timing_signature`) of a latency row; None
    for a row of any other kind (a plan size, an AP, a kernel time), whose
    measurement key alone says what it measured."""
    return timing_signature(row) if row.kind == Kind.LATENCY else None


def row_kernel_span(row: Row) -> str | None:
    """What the figure of a kernel-time row spans
    (:func:`~studygen.records.profile_spread.kernel_span` of its result: a
    mean per profiled iteration, a total over a whole trace, CPU operators'
    self time per forward); None for a row of any other kind."""
    return kernel_span(row.record, row.result) if row.kind == Kind.KERNEL_TIME else None


def how_measured(row: Row) -> tuple | None:
    """What besides its key tells a row's measurement apart: a latency's
    timing signature (:func:`latency_signature`); for a kernel time whose
    figures are no mean per profiled iteration, ``("kernel span", span)``
    (:func:`row_kernel_span`; a mean per iteration, what every other profile
    gives, keeps None); else None."""
    if row.kind == Kind.LATENCY:
        return timing_signature(row)
    span = row_kernel_span(row)
    return ("kernel span", span) if span is not None and span != ITERATION_SPAN else None


def measurement_of(row: Row) -> tuple[MeasurementKey, tuple | None]:
    """What makes figures of several jobs one measurement: the measurement
    key and how it was measured (:func:`how_measured`). Latencies timed
    differently (CUDA graphs on in one job, off in the other) are not one
    measurement whatever their key (SG212), nor are a kernel time totalled
    over a whole trace and one averaged per profiled step: neither their gap
    nor their spread says anything about the other's figure."""
    return row.key, how_measured(row)


def variant_free_measurement(row: Row) -> tuple[MeasurementKey, tuple | None]:
    """:func:`measurement_of` without variant and recipe: what two variants'
    rows share when they measured one configuration the same way (SG203's
    variant pairs of one job, render's pooled compiled cells). fp16 timed with
    CUDA graphs and fp32 without are no such pair: their gap mixes precision
    and timing (SG212)."""
    return _without_variant(row.key), how_measured(row)


def rows_by_measurement(rows) -> dict[tuple, list[Row]]:
    """:func:`measurement_of` → the rows of ``rows`` (an iterable of rows) that
    have it, in their order; the dict in the order each measurement is first met."""
    grouped: dict[tuple, list[Row]] = {}
    for row in rows:
        grouped.setdefault(measurement_of(row), []).append(row)
    return grouped


def reported_by_several_jobs(rows) -> dict[tuple, list[Row]]:
    """:func:`measurement_of` → the rows with a value (a range over unlisted
    rows and a not-measured result have none) of each measurement two or more
    jobs report, in row order; the measurements in the order first met."""
    grouped = rows_by_measurement(r for r in rows if r.value is not None)
    # a measurement of one row (most of them) is one job's: no set of job ids to build
    return {key: group for key, group in grouped.items() if len(group) > 1 and len({r.job_id for r in group}) > 1}


def _signature_of(row: Row) -> tuple:
    method = row.result.get("method") or {}
    major = _trt_major(row) if row.backend == "tensorrt" else None
    # the record first: nearly every one names a GPU, and then the timer's name need not be read
    without_gpu = measured_without_gpu(row.record.provenance) and is_host_clock_timer(method.get("timer"))
    flags = []
    for name, trt11, trt10 in TRT_DEFAULTS:
        value = method.get(name)
        if value is None and major is not None:
            value = trt11 if major >= 11 else trt10
        # collect run --cpu writes cuda_graph and data_transfers false: settings that run had no GPU to apply
        flags.append(NO_GPU if without_gpu and name in GPU_ONLY_FLAGS else value)
    # collect run: whether the host waited for each forward (idle-GPU latency) or queued them back to back, and on
    # the CPU how many intra-op threads ran each forward (one thread and eight time different work)
    return (row.backend, row.mode, row.metric, *flags, method.get("host_sync"), method.get(THREADS))


# Timings of the host's part of a run rather than the configuration's GPU work: enqueue time is CPU time spent
# launching a batch (host CPU and driver; one graph launch instead of a launch per layer under CUDA graphs), and
# the input and output copies time the PCIe link and host memory between a machine's CPU and its GPU (for a small
# model a few microseconds of latency). A platform is a GPU model and software versions; it does not name the host,
# so a gap in these across platforms is a gap between machines, which SG207 does not report.
HOST_TIMINGS = frozenset({"enqueue", "h2d", "d2h"})

# The timings of one run that time its GPU work, the most specific first: GPU compute time alone, then host latency
# (the input copy, GPU compute and output copy), then the end-to-end time (also the host's wait between queries),
# then a figure whose source does not say (a transcription). A claim about a variant's compute (SG208's precision
# inversions, the README's side findings) judges each run by the first of these it gives (:func:`compute_rows`):
# trtexec prints five timings of one run, and the other four restate its compute time with host work added
# (host latency, end-to-end) or time the host alone (:data:`HOST_TIMINGS`).
COMPUTE_TIMINGS = ("gpu_compute", "host_latency", "end_to_end", "unspecified")


def run_of(row: Row) -> tuple:
    """What the timings of one run share: the job, the measurement key
    without timing and statistic, and the way it was timed apart from the
    timing (backend, mode, CUDA graphs, data transfers, spin-wait, host
    waits). trtexec's GPU compute time and host latency of one engine at one
    shape and batch are one run; the same engine timed with CUDA graphs in
    another invocation of the job is another.

    Made once a row (kept in :attr:`Row.run`): the checks' compute timings,
    render's shown timings and SG215's FP8 runs each ask it of every latency
    row, and a key made anew was a third of picking each run's timing."""
    if row.run is None:
        signature = timing_signature(row)
        # a memo on the frozen row, set once
        object.__setattr__(row, "run", (row.job_id, _without_timing(row.key), signature[:2] + signature[3:]))
    return row.run


def compute_rows(rows) -> list[Row]:
    """The latency rows of ``rows`` (an iterable of rows; other kinds are left
    out) that time their run's GPU work (:func:`run_of`): of each run, the
    rows of the first timing of :data:`COMPUTE_TIMINGS` it gives, every
    statistic of it, in row order. A run giving only host timings (enqueue,
    copies) gives none; a timing outside the table is judged as unspecified."""
    return _first_timing_of_each_run([row for row in rows if row.kind == Kind.LATENCY and row.metric not in HOST_TIMINGS],
                                     COMPUTE_TIMINGS)


# The order a README picks each run's timing in (:func:`shown_rows`): the timings of its work, then those of the
# host alone, so that a run which gives only an enqueue or copy time still shows it rather than vanish.
SHOWN_TIMINGS = (*COMPUTE_TIMINGS, "enqueue", "h2d", "d2h")


def shown_rows(rows) -> list[Row]:
    """The latency rows of ``rows`` (an iterable of rows; other kinds are left
    out) that a README's latency tables, chart and side findings show, in row
    order: of each run (:func:`run_of`), the rows with a figure (a value, or
    a range over unlisted rows) of the first timing of :data:`SHOWN_TIMINGS`
    it gives, every statistic of it. trtexec's six timings of one engine
    show its GPU compute time; a ``collect run --cpu`` run, which gives only
    its end-to-end time, shows that beside a GPU run's CUDA-event time, each
    in the table of its own signature (one timing a study, as before, hid
    every run that lacked it). Of the rows with a value these are
    :func:`compute_rows`' (where a run gives any), so a side finding SG208
    makes rests on figures the tables print."""
    latency = [row for row in rows if row.kind == Kind.LATENCY and (row.value is not None or row.is_range)]
    return _first_timing_of_each_run(latency, SHOWN_TIMINGS)


def _first_timing_of_each_run(latency: list[Row], order: tuple[str, ...]) -> list[Row]:
    """The rows of ``latency`` (latency rows) of each run's (:func:`run_of`)
    first timing in ``order`` (which holds ``unspecified``), in row order; a
    timing outside ``order`` ranks as ``unspecified``: a figure whose timing
    no table names says no more than one whose source does not say."""
    rank = {timing: place for place, timing in enumerate(order)}
    last = rank["unspecified"]
    # run -> [its best rank so far], one list a run shared by its rows: a run key (job, measurement key, method)
    # is hashed once a row, where a dict of ranks hashed it three times (get, set, and the pick below)
    best: dict[tuple, list[int]] = {}
    ranked = []  # (row, its rank, its run's best)
    for row in latency:
        run = row.run if row.run is not None else run_of(row)
        place = rank.get(row.metric, last)
        run_best = best.get(run)
        if run_best is None:
            run_best = best[run] = [place]
        elif place < run_best[0]:
            run_best[0] = place
        ranked.append((row, place, run_best))
    return [row for row, place, run_best in ranked if place == run_best[0]]


def timing_words(row: Row) -> str:
    """A latency row's timing and statistic in words (``median GPU compute
    time``, ``p99 host latency``, ``median CUDA-event time per forward``,
    ``timing not stated``): what tells apart the figures trtexec prints for
    one run, named as the record says it was timed (:func:`timing_name`)."""
    statistic = row.statistic if row.statistic and row.statistic != "unspecified" else ""
    return f"{statistic} {timing_name(row)}".strip()


def timing_name(row: Row) -> str:
    """What a latency row times, in words, as its record says it was taken:
    :data:`TIMING_WORDS` of its ``timing``, except that a ``gpu_compute``
    figure whose ``method.timer`` is CUDA events (:func:`is_cuda_event_timer`)
    is :data:`CUDA_EVENT_TIMING`: the time between events recorded on the
    stream around each forward holds every gap where the GPU waited for the
    host to launch work, which trtexec's GPU compute time (the engine's work
    alone) does not. A latency that states its intra-op threads (``collect
    run --cpu``) names them after it (``end-to-end time with 1 intra-op
    thread``, :func:`thread_words`)."""
    method = row.result.get("method") or {}
    if row.metric == "gpu_compute" and is_cuda_event_timer(method.get("timer")):
        return CUDA_EVENT_TIMING + thread_words(method.get(THREADS))
    words = TIMING_WORDS.get(row.metric, row.metric) if row.metric else TIMING_WORDS["unspecified"]
    return words + thread_words(method.get(THREADS))


def thread_words(threads) -> str:
    """`` with 4 intra-op threads`` (`` with 1 intra-op thread``), or '' for None.
    A count is printed as a whole number: JSON Schema's integer takes ``2.0``,
    which printed "2.0 intra-op threads" (an attack)."""
    if threads is None:
        return ""
    count = int(threads)
    return f" with {count} intra-op thread{'' if count == 1 else 's'}"


def timing_names(rows) -> list[str]:
    """The distinct :func:`timing_name` of ``rows`` (latency rows), in row order."""
    return list(dict.fromkeys(timing_name(row) for row in rows))


def timing_label(rows) -> str:
    """The timing of ``rows`` (latency rows) in words (:func:`timing_names`):
    one name, or the distinct names in row order joined by `` and ``; ''
    for no rows."""
    return " and ".join(timing_names(rows))


def batch_words(row: Row) -> str:
    """``batch 8``, or ``batch not stated`` for a row without one."""
    return f"batch {row.batch}" if row.batch is not None else "batch not stated"


# The words a reader knows them by; a value outside these tables prints as the record holds it.
BACKEND_WORDS = {"tensorrt": "TensorRT", "pytorch": "PyTorch", "onnxruntime": "ONNX Runtime", "other": "another backend"}
MODE_WORDS = {"engine": "engine", "eager": "eager", "compile": "torch.compile"}
TIMING_WORDS = {"gpu_compute": "GPU compute time", "host_latency": "host latency", "end_to_end": "end-to-end time",
                "enqueue": "enqueue time", "h2d": "host-to-device copy time", "d2h": "device-to-host copy time",
                "unspecified": "timing not stated"}
# A GPU-compute figure timed by CUDA events around each forward (collect run): what it is called (timing_name).
CUDA_EVENT_TIMING = "CUDA-event time per forward"


# The method flags of a timing signature in words, in its order (TRT_DEFAULTS'), from this place in it on.
FLAG_WORDS = {"cuda_graph": "CUDA graphs", "data_transfers": "data transfers", "spin_wait": "spin-wait"}
TRT_ONLY_FLAGS = ("spin_wait",)  # settings only TensorRT has: unset for another backend, describe() leaves them out
# Settings of work on a GPU: a run timed by the host clock on a machine without one (collect run --cpu) has them
# as NO_GPU in its signature, and describe() leaves them out ("CUDA graphs off" would say a GPU ran without them).
GPU_ONLY_FLAGS = ("cuda_graph", "data_transfers")
NO_GPU = "no GPU"
FIRST_FLAG = 3  # (backend, mode, timing, cuda_graph, data_transfers, spin_wait, host_sync, intra_op_threads)
THREADS = "intra_op_threads"  # the method field collect run --cpu states its thread count in


def flag_state(value) -> str:
    """A method flag of a signature in words: ``on``, ``off`` or ``unknown`` (None: unset, no default known)."""
    return "unknown" if value is None else "on" if value else "off"


def describe(signature: tuple, timing_text: str | None = None) -> str:
    """A signature (:func:`timing_signature`) in words, e.g. ``TensorRT engine,
    GPU compute time, CUDA graphs off, data transfers on, spin-wait off``;
    ``timing_text`` (:func:`timing_label` of its rows, which know their
    timer) names the timing instead of the signature's timing field (with
    the intra-op threads, where stated, after it: :func:`timing_name`). A
    flag of :data:`TRT_ONLY_FLAGS` left unset by a stated backend other
    than TensorRT is not named (``PyTorch eager, ..., CUDA graphs off,
    data transfers off``): "spin-wait unknown" would ask about a setting
    that backend does not have. Nor is a flag of :data:`GPU_ONLY_FLAGS`
    that a run without a GPU could not apply (:data:`NO_GPU`: ``PyTorch
    eager, end-to-end time``)."""
    backend, mode, timing, *flags, host_sync, threads = signature
    waits = {"per_forward": ", host waits for each forward", "per_repeat": ", forwards queued back to back"}
    backend_words = BACKEND_WORDS.get(backend, backend) if backend else "backend not stated"
    mode_words = f" {MODE_WORDS.get(mode, mode)}" if mode else ""
    timing_words = timing_text or ((TIMING_WORDS.get(timing, timing) if timing else "timing not stated")
                                   + thread_words(threads))
    # spin-wait is a trtexec flag: a stated backend other than TensorRT that leaves it unset has no such setting
    stated = [(name, words, value) for (name, words), value in zip(FLAG_WORDS.items(), flags, strict=True)
              if value != NO_GPU and not (name in TRT_ONLY_FLAGS and value is None and backend and backend != "tensorrt")]
    return ", ".join([f"{backend_words}{mode_words}", timing_words,
                      *(f"{words} {flag_state(value)}" for _, words, value in stated)]) + waits.get(host_sync, "")
