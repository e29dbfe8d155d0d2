"""trtexec output → record results: console log, ``--exportTimes``,
``--exportProfile``, ``--exportLayerInfo`` and the engine plan file.

Formats (seen in ../shared/fixtures/trtexec and TensorRT's
``samples/common/sampleReporting.cpp``):

* **Console log.** Each run starts with ``&&&& RUNNING TensorRT.trtexec
  [TensorRT vNNNNNN] # <command>`` and ends with ``&&&& PASSED`` (or
  ``FAILED``). The version is ``TensorRT version: X`` or decoded from
  ``vNNNNNN`` (``v101601`` → 10.16.1, ``v8600`` → 8.6.0); TensorRT 7 logs
  carry neither, and the version is then recorded as unknown (null), never
  guessed from a file name. TensorRT 8+ prints ``=== Performance summary ===``
  with lines such as ``GPU Compute Time: min = X ms, max = …, mean = …,
  median = …, percentile(90%) = … ms``; TensorRT 7 prints blocks (``Host
  Latency`` / ``min: X ms (end to end Y ms)`` / ``percentile: X ms at 99%``).
  ``* GPU compute time is unstable, with coefficient of variance = X%.`` marks
  the GPU compute result unstable. ``--dumpProfile`` prints ``=== Profile (N
  iterations ) ===`` and a per-layer table ending in a ``Total`` row.
* **--exportTimes**: an array of per-iteration objects; TensorRT 8.2+ keys
  ``startEnqMs, endEnqMs, startH2dMs, endH2dMs, startComputeMs,
  endComputeMs, startD2hMs, endD2hMs, h2dMs, computeMs, d2hMs, latencyMs``;
  TensorRT 7 ``startInMs, endInMs, inMs, computeMs, outMs, latencyMs,
  endToEndMs``. Several arrays concatenated = several runs.
* **--exportProfile**: an array whose first element is ``{"count": N}``
  (profiled iterations), then ``{name, timeMs, averageMs, [medianMs],
  percentage}`` per layer; several arrays concatenated = several runs.
* **--exportLayerInfo**: ``{"Layers": [...], "Bindings": [...]}`` with
  layer names, or objects (``Name, LayerType, TacticName, Metadata``) when the
  engine was built with detailed profiling verbosity.

Runs are never pooled: each run (for example one per batch size) gives its
own results, keyed by its batch; the arrays of a times or profile file are
matched to the log's runs in order.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from ..fsutil import shown_path
from ..errors import InputError, UsageError
from .inputs import figure, is_number, load_json_values, read_input_text, significant
from .kernel_groups import KernelGroupRules, KernelItem, group_times, groups_for_record
from .result import NewResult

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
RUNNING = re.compile(r"^&&&& RUNNING (?P<program>\S+)(?P<tags>(?: \[[^\]]*\])*)\s*#\s*(?P<command>.*?)\s*$")
STATUS = re.compile(r"^&&&& (?P<status>PASSED|FAILED|WAIVED)\b")
VERSION_TAG = re.compile(r"\[TensorRT v(\d{4,6})\]")
PREFIX = re.compile(r"^\[[^\]]*\] \[(?P<severity>[A-Z])\] ?(?P<message>.*)$")
VERSION_LINE = re.compile(r"^TensorRT version: (\d+(?:\.\d+)*)\s*$")
DEVICE_LINE = re.compile(r"^Selected Device: (.+?)\s*$")
SETTING_LINE = re.compile(r"^(Data transfers|Spin-wait|CUDA Graph|Separate profiling): (Enabled|Disabled)\s*$")
BATCH_LINE = re.compile(r"^Batch: (\d+|Explicit)\s*$")
SHAPE_LINE = re.compile(r"^Input inference shapes? ?: (.+?)\s*$")
WARMUP_LINE = re.compile(rf"^Warmup completed (\d+) queries over ({NUM}) ms\s*$")
TRACE_LINE = re.compile(rf"^Timing trace has (\d+) queries over ({NUM}) s\s*$")
THROUGHPUT_LINE = re.compile(rf"^(?:Throughput|throughput): ({NUM}) qps\s*$")
ENGINE_SIZE_LINE = re.compile(rf"^Created engine with size: ({NUM}) MiB\s*$")
UNSTABLE_LINE = re.compile(rf"^\* GPU compute time is unstable, with coefficient of variance = ({NUM})%\.?\s*$")
SUMMARY_ITEM = re.compile(rf"^(min|max|mean|median|percentile\(({NUM})%\)) = ({NUM}) ms$")
SUMMARY_LINE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z0-9 -]*?): (?P<items>(?:min|max|mean|median|percentile\().*)$")
SUMMARY_END = re.compile(r"^Total GPU Compute Time: ")
OLD_BLOCK = {"Host Latency": "host_latency", "Enqueue Time": "enqueue", "GPU Compute": "gpu_compute"}
OLD_STAT = re.compile(rf"^(min|max|mean|median): ({NUM}) ms(?: \(end to end ({NUM}) ms\))?\s*$")
OLD_PERCENTILE = re.compile(rf"^percentile: ({NUM}) ms at ({NUM})%(?: \(end to end ({NUM}) ms at {NUM}%\))?\s*$")
OLD_END = re.compile(rf"^total compute time: ({NUM}) s\s*$")
PROFILE_HEADER = re.compile(r"^=== Profile \((\d+) iterations? \) ===\s*$")
PROFILE_COLUMNS = re.compile(r"^\s*Time\(ms\)\s+Avg\.\s*\(ms\)\s+(?:Median\(ms\)\s+)?Time\(%\)\s+Layer\s*$")

SUMMARY_LABELS = {
    "Latency": "host_latency",
    "Host Latency": "host_latency",
    "End-to-End Host Latency": "end_to_end",
    "Enqueue Time": "enqueue",
    "H2D Latency": "h2d",
    "GPU Compute Time": "gpu_compute",
    "D2H Latency": "d2h",
}
SETTING_NAMES = {"Data transfers": "data_transfers", "Spin-wait": "spin_wait", "CUDA Graph": "cuda_graph",
                 "Separate profiling": "separate_profile_run"}
# Flags that change what is measured (precision, shapes, batch, timing method).
MEASURED_FLAGS = re.compile(
    r"^--(?:fp16|bf16|int8|fp8|int4|fp4|best|noTF32|stronglyTyped|precisionConstraints|layerPrecisions|layerOutputTypes"
    r"|shapes|optShapes|minShapes|maxShapes|batch|maxBatch|useCudaGraph|noDataTransfers|useSpinWait|separateProfileRun"
    r"|infStreams|streams|threads|exposeDMA|useDLACore|allowGPUFallback|sparsity|builderOptimizationLevel|useManagedMemory"
    r"|noCudaGraph|dataTransfers|spinWait)(?:=.*)?$")
# The timing flags as (flag, method field, value when given); their defaults
# changed in TensorRT 11 (see ../shared/fixtures/SOURCES.md), so a missing
# flag means the pre-11 default only when the version is known to be < 11.
TIMING_FLAGS = (("--useCudaGraph", "cuda_graph", True), ("--noDataTransfers", "data_transfers", False),
                ("--useSpinWait", "spin_wait", True), ("--separateProfileRun", "separate_profile_run", True))
PRE11_DEFAULTS = {"cuda_graph": False, "data_transfers": True, "spin_wait": False, "separate_profile_run": False}
TIMES_KEYS_82 = {"startEnqMs", "endEnqMs", "startH2dMs", "endH2dMs", "startComputeMs", "endComputeMs",
                 "startD2hMs", "endD2hMs", "h2dMs", "computeMs", "d2hMs", "latencyMs"}
TIMES_KEYS_7 = {"startInMs", "endInMs", "inMs", "computeMs", "outMs", "latencyMs", "endToEndMs"}


def decode_version_tag(code: str) -> str:
    """``[TensorRT vNNNN]`` → ``X.Y.Z``: six digits are MMmmpp (``101601`` →
    10.16.1), four are Mmpp (``8600`` → 8.6.0, ``7103`` → 7.1.3), after
    NV_TENSORRT_VERSION in NvInferVersion.h."""
    number = int(code)
    if len(code) >= 6:
        return f"{number // 10000}.{(number // 100) % 100}.{number % 100}"
    return f"{number // 1000}.{(number // 100) % 10}.{number % 100}"


def major_version(version: str | None) -> int | None:
    """``"10.16.1"`` → 10; None when unknown."""
    if not version:
        return None
    return int(version.split(".")[0])


@dataclass
class Summary:
    """One timing of a run's performance summary: statistics in ms as the log
    prints them (``min``, ``max``, ``mean``, ``median``, ``p90`` …) and the line."""

    timing: str
    statistics_ms: dict[str, float]
    line: int


@dataclass
class ProfileTable:
    """``--dumpProfile`` table: ``iterations``; rows ``(layer, avg_ms,
    median_ms | None, total_ms)``; the Total row's per-iteration average."""

    iterations: int
    rows: list[tuple[str, float, float | None, float]]
    total_avg_ms: float
    line: int


@dataclass
class TrtexecRun:
    """One ``&&&& RUNNING`` block of a console log."""

    index: int
    line: int
    command: str | None = None
    tensorrt_version: str | None = None
    version_line: int | None = None
    device: str | None = None
    status: str | None = None
    batch: int | None = None
    explicit_batch: bool = False
    settings: dict[str, bool] = field(default_factory=dict)
    input_shapes: str | None = None
    warmup_queries: int | None = None
    timed_queries: int | None = None
    throughput_qps: float | None = None
    throughput_line: int | None = None
    summary: dict[str, Summary] = field(default_factory=dict)
    summary_line: int | None = None
    summary_complete: bool = False
    unstable_cv_percent: float | None = None
    unstable_line: int | None = None
    engine_size_mib: float | None = None
    engine_size_line: int | None = None
    profile: ProfileTable | None = None

    @property
    def flags(self) -> list[str]:
        """Flags of the command line that change what is measured, verbatim."""
        if not self.command:
            return []
        return [token for token in self.command.split() if MEASURED_FLAGS.match(token)]

    @property
    def label(self) -> str:
        return f"run {self.index + 1} (line {self.line})"

    def timed_iterations(self) -> int | None:
        """Timed iterations: trtexec counts *queries*, which with an implicit
        batch (TensorRT 7 ``--batch=N``) are iterations × N."""
        if self.timed_queries is None:
            return None
        if self.batch and not self.explicit_batch and self.timed_queries % self.batch == 0:
            return self.timed_queries // self.batch
        return self.timed_queries

    def warmup_iterations(self) -> int | None:
        if self.warmup_queries is None:
            return None
        if self.batch and not self.explicit_batch and self.warmup_queries % self.batch == 0:
            return self.warmup_queries // self.batch
        return self.warmup_queries


@dataclass
class TrtexecLog:
    """A parsed console log: its runs, in order."""

    display: str
    runs: list[TrtexecRun]

    @property
    def basename(self) -> str:
        return Path(self.display).name


def _summary_items(items: str) -> dict[str, float] | None:
    """``min = X ms, max = Y ms, percentile(99%) = Z ms`` → statistics; None
    when any item is not complete (a cut line is never read as a figure)."""
    stats = {}
    for item in items.split(", "):
        match = SUMMARY_ITEM.match(item.strip())
        if not match:
            return None
        name = match.group(1)
        if name.startswith("percentile"):
            name = "p" + match.group(2)
        stats[name] = figure(match.group(3))
    return stats


def parse_log(path: Path, display: str | None = None) -> TrtexecLog:
    """Parse a trtexec console log into runs.

    Raises InputError (naming file and line) when the file is not a trtexec
    log, a run reports FAILED, a run lacks its closing ``&&&& PASSED`` line
    (the log is cut: nothing of that run is read) or its summary is
    incomplete. A last line without a newline is dropped, since it may be
    half-written (unless it is the ``&&&& PASSED`` line).
    """
    display = display or shown_path(path)
    text = read_input_text(path, display)
    if _is_json(text):
        if '"Layers"' in text[:200]:
            raise InputError("this is trtexec --exportLayerInfo JSON, not a console log: pass it as --layer-info",
                             path=display)
        raise InputError("this is JSON, not a trtexec console log (use --times, --profile or --layer-info)", path=display)
    lines = text.split("\n")
    if not text.endswith("\n") and not lines[-1].startswith("&&&& PASSED"):
        # possibly half-written; a status line, even cut, shows the run finished
        lines = lines[:-1]
    runs: list[TrtexecRun] = []
    current: TrtexecRun | None = None
    state = {"mode": None, "block": None}
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        if line.startswith("&&&& "):
            match = RUNNING.match(line)
            if match:
                current = TrtexecRun(index=len(runs), line=number, command=match.group("command") or None)
                tag = VERSION_TAG.search(match.group("tags") or "")
                if tag:
                    current.tensorrt_version = decode_version_tag(tag.group(1))
                    current.version_line = number
                runs.append(current)
                state = {"mode": None, "block": None}
                continue
            status = STATUS.match(line)
            if status and current is not None:
                current.status = status.group(1)
                state = {"mode": None, "block": None}
                continue
        prefixed = PREFIX.match(line)
        if prefixed is None:
            continue
        message = prefixed.group("message")
        if current is None:
            # A log without "&&&& RUNNING" (output captured part way): one run.
            if not (message.startswith("===") or message in OLD_BLOCK or message.startswith("TensorRT version")):
                continue
            current = TrtexecRun(index=0, line=number)
            runs.append(current)
        _parse_message(current, message, number, state, display)
    if not runs:
        raise InputError("not a trtexec console log: no '&&&& RUNNING' line and no performance summary", path=display)
    for run in runs:
        _check_run(run, display)
    return TrtexecLog(display=display, runs=runs)


def _is_json(text: str) -> bool:
    """True when ``text`` starts with a whole JSON object or array (log
    lines start with "[date] [I]", which is no JSON)."""
    import json

    stripped = text.lstrip()
    if stripped[:1] not in ("{", "["):
        return False
    try:
        json.JSONDecoder().raw_decode(stripped)
    except ValueError:
        return False
    return True


def _parse_message(run: TrtexecRun, message: str, number: int, state: dict, display: str) -> None:
    """Update ``run`` from one log message (the text after ``[time] [I] ``)."""
    if message.startswith("Average on "):
        return  # the trace averages: thousands of lines, never a summary figure
    mode = state["mode"]
    if mode == "summary":
        match = SUMMARY_LINE.match(message)
        if match and match.group("label") in SUMMARY_LABELS:
            stats = _summary_items(match.group("items"))
            if stats is not None:
                timing = SUMMARY_LABELS[match.group("label")]
                run.summary[timing] = Summary(timing, stats, number)
            return
        if SUMMARY_END.match(message):
            run.summary_complete = True
            state["mode"] = None
            return
    if mode == "old":
        if message in OLD_BLOCK:
            state["block"] = OLD_BLOCK[message]
            return
        stat = OLD_STAT.match(message)
        if stat and state["block"]:
            _old_stat(run, state["block"], stat.group(1), stat.group(2), stat.group(3), number)
            return
        percentile = OLD_PERCENTILE.match(message)
        if percentile and state["block"]:
            name = "p" + percentile.group(2)
            _old_stat(run, state["block"], name, percentile.group(1), percentile.group(3), number)
            return
        if OLD_END.match(message):
            run.summary_complete = True
            state["mode"] = None
            return
    if mode == "profile":
        if _profile_row(run, message, number, state):
            return
    if message == "=== Performance summary ===":
        state["mode"], run.summary_line = "summary", number
        return
    if message in OLD_BLOCK and mode is None and run.summary_line is None:
        state["mode"], state["block"], run.summary_line = "old", OLD_BLOCK[message], number
        return
    header = PROFILE_HEADER.match(message)
    if header:
        state["mode"] = "profile"
        state["profile_rows"] = []
        state["profile_iterations"] = int(header.group(1))
        state["profile_line"] = number
        state["profile_has_median"] = None
        return
    _parse_setting(run, message, number)


def _old_stat(run: TrtexecRun, timing: str, name: str, value: str, end_to_end: str | None, number: int) -> None:
    """A TensorRT 7 block line; ``(end to end X ms)`` feeds the end_to_end timing."""
    summary = run.summary.setdefault(timing, Summary(timing, {}, number))
    summary.statistics_ms[name] = figure(value)
    if end_to_end is not None:
        e2e = run.summary.setdefault("end_to_end", Summary("end_to_end", {}, number))
        e2e.statistics_ms[name] = figure(end_to_end)


def _profile_row(run: TrtexecRun, message: str, number: int, state: dict) -> bool:
    """One line of a ``--dumpProfile`` table; True when consumed."""
    if PROFILE_COLUMNS.match(message):
        state["profile_has_median"] = "Median" in message
        return True
    if state.get("profile_has_median") is None:
        return False
    columns = 4 if state["profile_has_median"] else 3
    parts = message.split(None, columns)
    if len(parts) != columns + 1:
        return False
    try:
        numbers = [figure(p) for p in parts[:columns]]
    except ValueError:
        return False
    name = parts[columns].strip()
    total_ms, avg_ms = numbers[0], numbers[1]
    median_ms = numbers[2] if state["profile_has_median"] else None
    if name == "Total":
        run.profile = ProfileTable(state["profile_iterations"], state["profile_rows"], avg_ms, state["profile_line"])
        state["mode"] = None
    else:
        state["profile_rows"].append((name, avg_ms, median_ms, total_ms))
    return True


def _parse_setting(run: TrtexecRun, message: str, number: int) -> None:
    """Options, device, version, counts and warnings outside the summary."""
    if match := VERSION_LINE.match(message):
        run.tensorrt_version, run.version_line = match.group(1), number
    elif match := DEVICE_LINE.match(message):
        run.device = match.group(1)
    elif match := SETTING_LINE.match(message):
        run.settings[SETTING_NAMES[match.group(1)]] = match.group(2) == "Enabled"
    elif match := BATCH_LINE.match(message):
        if match.group(1) == "Explicit":
            run.explicit_batch = True
        else:
            run.batch = int(match.group(1))
    elif match := SHAPE_LINE.match(message):
        if match.group(1) != "model":
            run.input_shapes = match.group(1)
    elif match := WARMUP_LINE.match(message):
        run.warmup_queries = int(match.group(1))
    elif match := TRACE_LINE.match(message):
        run.timed_queries = int(match.group(1))
    elif match := THROUGHPUT_LINE.match(message):
        run.throughput_qps, run.throughput_line = figure(match.group(1)), number
    elif match := ENGINE_SIZE_LINE.match(message):
        run.engine_size_mib, run.engine_size_line = figure(match.group(1)), number
    elif match := UNSTABLE_LINE.match(message):
        run.unstable_cv_percent, run.unstable_line = figure(match.group(1)), number


def _check_run(run: TrtexecRun, display: str) -> None:
    """Refuse runs whose figures cannot be trusted."""
    if run.status == "FAILED":
        raise InputError(f"trtexec reported FAILED for {run.label}; nothing recorded", path=display, where=f"line {run.line}")
    if run.line and run.command is not None and run.status is None:
        where = f"line {run.summary_line}" if run.summary_line else f"line {run.line}"
        inside = "inside the performance summary" if run.summary_line else "before the run finished"
        raise InputError(f"the log ends {inside} of {run.label} (no '&&&& PASSED' line): "
                         "the file is cut; nothing recorded", path=display, where=where)
    if run.summary_line and not run.summary_complete and run.status is None:
        raise InputError(f"the performance summary of {run.label} is incomplete (the log is cut?); nothing recorded",
                         path=display, where=f"line {run.summary_line}")
    for summary in run.summary.values():
        if "median" not in summary.statistics_ms:
            raise InputError(f"the {summary.timing} summary of {run.label} has no median", path=display,
                             where=f"line {summary.line}")


# --- exportTimes -------------------------------------------------------------

@dataclass
class TimesRun:
    """One array of ``--exportTimes``: per-iteration timings in ms by timing
    (``host_latency`` from latencyMs, ``gpu_compute`` from computeMs, …)."""

    index: int
    line: int
    key_set: str
    timings: dict[str, list[float]]

    @property
    def iterations(self) -> int:
        return len(next(iter(self.timings.values())))


def _json_arrays(path: Path, display: str, what: str):
    """``(index, array, line, pointer)`` for each JSON value of a trtexec export (one,
    or several concatenated by a wrapper script; pointer ``/i`` then, else "").
    Raises InputError at the value's line when one is not a non-empty array."""
    values = load_json_values(path, display)
    for index, (value, line) in enumerate(values):
        if not isinstance(value, list) or not value:
            raise InputError(f"expected a non-empty JSON array of {what}", path=display, where=f"line {line}")
        yield index, value, line, (f"/{index}" if len(values) > 1 else "")


def parse_times(path: Path, display: str | None = None) -> list[TimesRun]:
    """Parse a ``--exportTimes`` file (one array or several concatenated).

    Timings: ``host_latency`` ← latencyMs (H2D + compute + D2H in both key
    sets), ``gpu_compute`` ← computeMs, ``h2d`` ← h2dMs (8.2+) or inMs (7),
    ``d2h`` ← d2hMs or outMs, ``end_to_end`` ← endToEndMs (7), ``enqueue`` ←
    endEnqMs − startEnqMs (trtexec's own definition). Raises InputError for
    malformed JSON, an unknown key set or a non-numeric timing.
    """
    display = display or shown_path(path)
    runs = []
    for index, value, line, pointer in _json_arrays(path, display, "per-iteration timings (trtexec --exportTimes)"):
        first = value[0]
        if not isinstance(first, dict):
            raise InputError("expected objects with latencyMs, computeMs, …", path=display, where=f"{pointer}/0")
        keys = set(first)
        if TIMES_KEYS_82 <= keys:
            key_set, mapping = "TensorRT 8.2+", {"host_latency": "latencyMs", "gpu_compute": "computeMs", "h2d": "h2dMs", "d2h": "d2hMs"}
        elif TIMES_KEYS_7 <= keys:
            key_set, mapping = "TensorRT 7", {"host_latency": "latencyMs", "gpu_compute": "computeMs", "h2d": "inMs",
                                              "d2h": "outMs", "end_to_end": "endToEndMs"}
        else:
            raise InputError(f"unknown --exportTimes keys {sorted(keys)} (expected TensorRT 8.2+ "
                             "startH2dMs…latencyMs or TensorRT 7 startInMs…endToEndMs)", path=display, where=f"{pointer}/0")
        timings: dict[str, list[float]] = {name: [] for name in mapping}
        enqueue: list[float] | None = [] if {"startEnqMs", "endEnqMs"} <= keys else None
        for position, item in enumerate(value):
            for timing, key in mapping.items():
                number = item.get(key) if isinstance(item, dict) else None
                if not is_number(number):
                    raise InputError(f"{key} is missing or not a number", path=display, where=f"{pointer}/{position}/{key}")
                if number < 0:
                    # a duration in ms: checked here so the message names this file, not the record built from it
                    raise InputError(f"{key} is {number}: a duration cannot be negative", path=display,
                                     where=f"{pointer}/{position}/{key}")
                timings[timing].append(number)
            if enqueue is not None:
                start, end = item.get("startEnqMs"), item.get("endEnqMs")
                if not (is_number(start) and is_number(end)):
                    raise InputError("startEnqMs/endEnqMs missing or not numbers", path=display, where=f"{pointer}/{position}")
                if end < start:
                    raise InputError(f"endEnqMs {end} is before startEnqMs {start}", path=display,
                                     where=f"{pointer}/{position}/endEnqMs")
                enqueue.append(end - start)
        if enqueue is not None:
            timings["enqueue"] = enqueue
        runs.append(TimesRun(index=index, line=line, key_set=key_set, timings=timings))
    return runs


def trtexec_percentile(sorted_values: list[float], percentile: float) -> float:
    """trtexec's percentile (sampleReporting.cpp ``findPercentile``):
    ``sorted[max(n − 1 − floor((1 − p/100)·n), 0)]`` on ascending values."""
    count = len(sorted_values)
    exclude = int((1 - percentile / 100) * count)
    return sorted_values[max(count - 1 - exclude, 0)]


def trtexec_median(sorted_values: list[float]) -> float:
    """trtexec's median (``findMedian``): the middle value, or the mean of
    the two middle values for an even count."""
    count = len(sorted_values)
    if count % 2:
        return sorted_values[count // 2]
    return significant((sorted_values[count // 2 - 1] + sorted_values[count // 2]) / 2)


def timing_statistics(values: list[float]) -> dict[str, float]:
    """Statistics of per-iteration timings in ms: min, max, mean, median,
    p90, p95, p99 (trtexec's rules), std (population, as trtexec's
    coefficient of variation uses) and cv = std / mean (a fraction).
    Computed figures are rounded to 12 significant digits (binary noise only)."""
    ordered = sorted(values)
    mean = statistics.fmean(ordered)
    std = statistics.pstdev(ordered, mu=mean)
    return {
        "min": ordered[0], "max": ordered[-1], "mean": significant(mean), "median": trtexec_median(ordered),
        "p90": trtexec_percentile(ordered, 90), "p95": trtexec_percentile(ordered, 95),
        "p99": trtexec_percentile(ordered, 99), "std": significant(std),
        "cv": significant(std / mean) if mean > 0 else 0.0,
    }


# --- exportProfile -----------------------------------------------------------

@dataclass
class ProfileRun:
    """One array of ``--exportProfile``: ``iterations`` (the leading count)
    and per-layer rows ``(name, average_ms, median_ms | None, time_ms)``."""

    index: int
    line: int
    iterations: int | None
    rows: list[tuple[str, float, float | None, float]]
    has_median: bool


def parse_profile(path: Path, display: str | None = None) -> list[ProfileRun]:
    """Parse ``--exportProfile`` (one array or several concatenated). The
    leading ``{"count": N}`` is optional; rows need ``name`` and
    ``averageMs`` (``medianMs`` is absent in older files). Raises InputError."""
    display = display or shown_path(path)
    runs = []
    for index, value, line, pointer in _json_arrays(path, display, "layer timings (trtexec --exportProfile)"):
        iterations = None
        items = value
        if isinstance(value[0], dict) and "count" in value[0] and "name" not in value[0]:
            count = value[0]["count"]
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise InputError("count must be a positive integer", path=display, where=f"{pointer}/0/count")
            iterations, items = count, value[1:]
        rows = []
        has_median = True
        for position, row in enumerate(items, start=len(value) - len(items)):
            if not isinstance(row, dict) or not isinstance(row.get("name"), str):
                raise InputError("layer row without a name", path=display, where=f"{pointer}/{position}")
            average = row.get("averageMs")
            if not is_number(average) or average < 0:
                raise InputError("averageMs is missing or not a non-negative number", path=display,
                                 where=f"{pointer}/{position}/averageMs")
            median = row.get("medianMs")
            if median is None:
                has_median = False
            elif not is_number(median) or median < 0:
                raise InputError("medianMs is not a non-negative number", path=display,
                                 where=f"{pointer}/{position}/medianMs")
            total = row.get("timeMs", 0)
            if is_number(total) and total < 0:
                raise InputError("timeMs is negative", path=display, where=f"{pointer}/{position}/timeMs")
            rows.append((row["name"], average, median, total if is_number(total) else 0))
        if not rows:
            raise InputError("the profile lists no layer", path=display, where=f"line {line}")
        runs.append(ProfileRun(index=index, line=line, iterations=iterations, rows=rows, has_median=has_median))
    return runs


# --- exportLayerInfo and plan ------------------------------------------------

@dataclass
class LayerInfo:
    """``--exportLayerInfo``: layers as dicts (name, and layer_type, tactic,
    origin when detailed), bindings."""

    layers: list[dict]
    bindings: list[str]
    detailed: bool

    def details(self) -> dict[str, str]:
        """Layer name → ``"<LayerType> <TacticName> <Metadata>"`` for grouping
        layers whose name matches no rule."""
        out = {}
        for layer in self.layers:
            text = " ".join(layer.get(k, "") for k in ("layer_type", "tactic", "origin")).strip()
            if text:
                out[layer["name"]] = text
        return out


def parse_layer_info(path: Path, display: str | None = None) -> LayerInfo:
    """Parse ``--exportLayerInfo`` output (plain name list or detailed). Raises InputError."""
    display = display or shown_path(path)
    values = load_json_values(path, display)
    if len(values) != 1:
        raise InputError(f"holds {len(values)} JSON values; expected one layer-info object", path=display)
    document = values[0][0]
    if not isinstance(document, dict) or not isinstance(document.get("Layers"), list):
        raise InputError("expected an object with a \"Layers\" list (trtexec --exportLayerInfo)", path=display, where="/Layers")
    layers, detailed = [], False
    for index, layer in enumerate(document["Layers"]):
        if isinstance(layer, str):
            layers.append({"name": layer})
        elif isinstance(layer, dict) and isinstance(layer.get("Name"), str):
            detailed = True
            entry = {"name": layer["Name"]}
            for source, target in (("LayerType", "layer_type"), ("TacticName", "tactic"), ("Metadata", "origin")):
                if isinstance(layer.get(source), str) and layer[source]:
                    entry[target] = layer[source]
            layers.append(entry)
        else:
            raise InputError("a layer must be a name or an object with \"Name\"", path=display, where=f"/Layers/{index}")
    bindings = document.get("Bindings") or []
    if not all(isinstance(b, str) for b in bindings):
        raise InputError("Bindings must be a list of names", path=display, where="/Bindings")
    return LayerInfo(layers=layers, bindings=bindings, detailed=detailed)


def plan_size_bytes(path: Path, display: str | None = None) -> int:
    """Size of an engine plan file in bytes (the file is not read). Raises
    InputError for a missing, empty or folder path."""
    display = display or shown_path(path)
    if not path.exists():
        raise InputError("no such file", path=display)
    if path.is_dir():
        raise InputError("is a folder, not an engine plan", path=display)
    size = path.stat().st_size
    if size == 0:
        raise InputError("file is empty", path=display)
    return size


# --- results -----------------------------------------------------------------

@dataclass
class TrtexecInputs:
    """What ``collect trtexec`` was given (any may be None)."""

    log: TrtexecLog | None = None
    times: list[TimesRun] | None = None
    times_display: str | None = None
    profile: list[ProfileRun] | None = None
    profile_display: str | None = None
    layer_info: LayerInfo | None = None
    layer_info_display: str | None = None
    plan_bytes: int | None = None
    plan_display: str | None = None


def measured_settings(run: TrtexecRun) -> dict[str, bool | None]:
    """CUDA graph, data transfers, spin-wait and separate profile run: as the
    log prints them under Inference Options, else from the flags (a missing
    flag means the default only when the version is known to be < 11)."""
    flags = run.flags
    major = major_version(run.tensorrt_version)
    out = {}
    for flag, name, given in TIMING_FLAGS:
        if name in run.settings:
            out[name] = run.settings[name]
        elif flag in flags:
            out[name] = given
        elif major is not None and major < 11:
            out[name] = PRE11_DEFAULTS[name]
        else:
            out[name] = None
    return out


def _method(run: TrtexecRun | None) -> dict:
    method = {"timer": "trtexec"}
    if run is None:
        return method
    settings = measured_settings(run)
    method.update(cuda_graph=settings["cuda_graph"], data_transfers=settings["data_transfers"],
                  spin_wait=settings["spin_wait"], separate_profile_run=settings["separate_profile_run"])
    if run.command:
        method["command"] = run.command
    if run.flags:
        method["flags"] = run.flags
    if run.input_shapes:
        method["input_shapes"] = run.input_shapes
    return method


def run_batch(run: TrtexecRun | None, batch_option: int | None, display: str) -> int | None:
    """The run's batch: ``--batch=N`` / ``Batch: N`` from the log, else the
    ``--batch`` option. UsageError when both are given and differ."""
    log_batch = run.batch if run is not None else None
    if log_batch is not None and batch_option is not None and log_batch != batch_option:
        raise UsageError(f"--batch {batch_option} but {display} says batch {log_batch} for {run.label}")
    return log_batch if log_batch is not None else batch_option


def _base(variant: str, shape: str | None, batch: int | None) -> dict:
    result = {"kind": None, "variant": variant}
    if shape:
        result["shape"] = shape
    if batch is not None:
        result["batch"] = batch
    result["backend"] = "tensorrt"
    result["mode"] = "engine"
    return result


def _latency_from_summary(run: TrtexecRun, summary: Summary, base: dict, log: TrtexecLog) -> dict:
    stats = summary.statistics_ms
    result = dict(base, kind="latency", timing=summary.timing, statistic="median", value_ms=stats["median"],
                  statistics_ms=dict(stats), method=_method(run))
    if run.throughput_qps is not None:
        result["throughput_qps"] = run.throughput_qps
    distribution = {}
    if run.timed_iterations():
        distribution["samples"] = run.timed_iterations()
    if run.warmup_iterations() is not None:
        distribution["warmup_iterations"] = run.warmup_iterations()
    if summary.timing == "gpu_compute" and run.unstable_cv_percent is not None:
        distribution["cv"] = significant(run.unstable_cv_percent / 100)
        result["unstable"] = True
        result["unstable_reason"] = (f"trtexec: GPU compute time is unstable, coefficient of variance "
                                     f"{run.unstable_cv_percent}% ({log.basename}:{run.unstable_line})")
    if distribution:
        result["distribution"] = distribution
    result["source_locator"] = f"{log.basename}:{summary.line}"
    return result


def _attach_times(result: dict, values: list[float], times_run: TimesRun, run: TrtexecRun | None, times_name: str) -> None:
    """Per-iteration statistics of one timing into ``result['distribution']``."""
    stats = timing_statistics(values)
    distribution = {
        "samples": len(values), "median_ms": stats["median"], "mean_ms": stats["mean"], "std_ms": stats["std"],
        "p90_ms": stats["p90"], "p99_ms": stats["p99"], "cv": stats["cv"],
    }
    result["distribution"] = distribution
    note = (f"distribution: {len(values)} per-iteration timings of {times_name} (array {times_run.index + 1}, "
            f"{times_run.key_set} keys)")
    if run is not None and run.timed_iterations() is not None and len(values) != run.timed_iterations():
        warmup = run.warmup_iterations()
        if warmup is not None and len(values) == run.timed_iterations() + warmup:
            note += (f"; they include the warm-up: {len(values)} = {run.timed_iterations()} timed"
                     f" + {warmup} warm-up iterations of the log")
        else:
            note += f"; the log's timing trace has {run.timed_iterations()} iterations"
    result["note"] = note


def _latency_from_times(values: list[float], timing: str, base: dict, run: TrtexecRun | None) -> dict:
    stats = timing_statistics(values)
    statistics_ms = {k: stats[k] for k in ("min", "max", "mean", "median", "p90", "p95", "p99", "std")}
    return dict(base, kind="latency", timing=timing, statistic="median", value_ms=stats["median"],
                statistics_ms=statistics_ms, method=_method(run))


def _kernel_time(items: list[KernelItem], rules: KernelGroupRules, base: dict, *, iterations: int | None,
                 profiler: str, total_ms: float | None = None, note: str | None = None) -> dict:
    grouped = group_times(items, rules)
    total = grouped.total_ms if total_ms is None else total_ms
    result = dict(base, kind="kernel_time", groups=groups_for_record(grouped), profiled_total_ms=total,
                  unclassified_ms=grouped.unclassified_ms,
                  unclassified_share=significant(grouped.unclassified_ms / total) if total > 0 else 0.0,
                  profiler=profiler, rows_listed=True)
    if iterations is not None:
        result["iterations"] = iterations
    zero = sum(1 for i in items if i.time_ms == 0)
    words = [f"{len(items)} layers ({zero} with zero time); groups by {rules.source} kernel_groups rules; "
             "each group lists at most its 20 largest layers"]
    if grouped.unclassified_names:
        words.append(f"{len(grouped.unclassified_names)} layers matched no rule")
    if note:
        words.append(note)
    result["note"] = "; ".join(words)
    return result


def _match_runs(count: int, log: TrtexecLog | None, what: str, display: str) -> list[TrtexecRun | None]:
    """The log run for each of ``count`` arrays, in order."""
    if log is None:
        if count > 1:
            raise InputError(f"holds {count} runs (concatenated arrays) but nothing tells them apart: give the --log "
                             "that produced them, so each run gets its batch", path=display)
        return [None]
    runs = log.runs
    if len(runs) != count:
        raise InputError(f"holds {count} run(s) but the log {log.display} has {len(runs)}: the arrays of a {what} "
                         "file are matched to the log's runs in order, so the counts must agree", path=display)
    return list(runs)


def build_results(inputs: TrtexecInputs, rules: KernelGroupRules, *, variant: str, shape: str | None,
                  batch: int | None) -> list[NewResult]:
    """Results from every given trtexec input: latency per timing and run
    (headline: median; ``statistics_ms`` as printed), per-iteration
    distributions from ``--times`` attached to the matching run and timing,
    kernel time per group (``--profile``, else the log's ``--dumpProfile``
    table), engine layers, plan size (``--plan`` in bytes, else the log's
    ``Created engine with size`` in MiB). Raises InputError / UsageError."""
    log = inputs.log
    out: list[NewResult] = []
    latency_index: dict[tuple[int, str], dict] = {}
    runs = log.runs if log else []
    for run in runs:
        base = _base(variant, shape, run_batch(run, batch, log.display))
        transfers = measured_settings(run)["data_transfers"]
        for summary in run.summary.values():
            if transfers is False and summary.timing in ("h2d", "d2h"):
                continue  # zeros by construction with --noDataTransfers
            result = _latency_from_summary(run, summary, base, log)
            latency_index[(run.index, summary.timing)] = result
            out.append(NewResult(result, f"{log.display}:line {summary.line}"))
    if inputs.times is not None:
        times_name = Path(inputs.times_display).name
        matched = _match_runs(len(inputs.times), log, "times", inputs.times_display)
        for times_run, run in zip(inputs.times, matched):
            base = _base(variant, shape, run_batch(run, batch, log.display if log else inputs.times_display))
            transfers = measured_settings(run)["data_transfers"] if run else None
            for timing, values in times_run.timings.items():
                if transfers is False and timing in ("h2d", "d2h"):
                    continue
                existing = latency_index.get((run.index, timing)) if run else None
                if existing is not None:
                    _attach_times(existing, values, times_run, run, times_name)
                    continue
                result = _latency_from_times(values, timing, base, run)
                _attach_times(result, values, times_run, run, times_name)
                result["source_locator"] = f"{times_name}:line {times_run.line}"
                out.append(NewResult(result, f"{inputs.times_display}:array {times_run.index + 1}"))
    details = inputs.layer_info.details() if inputs.layer_info else {}
    if inputs.profile is not None:
        profile_name = Path(inputs.profile_display).name
        matched = _match_runs(len(inputs.profile), log, "profile", inputs.profile_display)
        for profile_run, run in zip(inputs.profile, matched):
            base = _base(variant, shape, run_batch(run, batch, log.display if log else inputs.profile_display))
            items = [KernelItem(name, average, None, details.get(name)) for name, average, _, _ in profile_run.rows]
            result = _kernel_time(items, rules, base, iterations=profile_run.iterations,
                                  profiler=f"trtexec --exportProfile ({profile_name}; averageMs: mean per iteration)")
            result["source_locator"] = f"{profile_name}:line {profile_run.line}"
            out.append(NewResult(result, f"{inputs.profile_display}:array {profile_run.index + 1}"))
    else:
        for run in runs:
            if run.profile is None:
                continue
            base = _base(variant, shape, run_batch(run, batch, log.display))
            items = [KernelItem(name, avg, None, details.get(name)) for name, avg, _, _ in run.profile.rows]
            result = _kernel_time(items, rules, base, iterations=run.profile.iterations, total_ms=run.profile.total_avg_ms,
                                  profiler="trtexec --dumpProfile (Avg.(ms): mean per iteration; total from its Total row)")
            result["source_locator"] = f"{log.basename}:{run.profile.line}"
            out.append(NewResult(result, f"{log.display}:line {run.profile.line}"))
    if inputs.layer_info is not None:
        info = inputs.layer_info
        result = dict(_base(variant, shape, batch), kind="engine_layers", layer_count=len(info.layers),
                      detailed=info.detailed, layers=info.layers, bindings=info.bindings)
        result["source_locator"] = Path(inputs.layer_info_display).name
        out.append(NewResult(result, inputs.layer_info_display))
    if inputs.plan_bytes is not None:
        result = dict(_base(variant, shape, batch), kind="plan_size", value_bytes=inputs.plan_bytes)
        result["source_locator"] = Path(inputs.plan_display).name
        out.append(NewResult(result, inputs.plan_display))
    else:
        for run in runs:
            if run.engine_size_mib is None:
                continue
            base = _base(variant, shape, run_batch(run, batch, log.display))
            result = dict(base, kind="plan_size", value_mib=run.engine_size_mib,
                          note="as trtexec printed it when building the engine (MiB); give --plan for the size in bytes")
            result["source_locator"] = f"{log.basename}:{run.engine_size_line}"
            out.append(NewResult(result, f"{log.display}:line {run.engine_size_line}"))
    return out


def log_provenance(log: TrtexecLog | None) -> tuple[str | None, str | None, list[str]]:
    """``(gpu, tensorrt_version, notes)`` from the log: the selected device and
    the TensorRT version (None when the log does not say). Raises
    InputError when runs of one log disagree (one job is one machine)."""
    if log is None:
        return None, None, []
    devices = {run.device for run in log.runs if run.device}
    versions = {run.tensorrt_version for run in log.runs if run.tensorrt_version}
    if len(devices) > 1:
        raise InputError(f"runs name different devices {sorted(devices)}: one job is one GPU; split the log", path=log.display)
    if len(versions) > 1:
        raise InputError(f"runs name different TensorRT versions {sorted(versions)}; split the log", path=log.display)
    notes = []
    if not versions:
        notes.append(f"{log.basename} states no TensorRT version (no 'TensorRT version:' line or [TensorRT vNNNN] tag): recorded as unknown")
    if not devices:
        notes.append(f"{log.basename} names no device (no 'Selected Device:' line): GPU recorded as unknown")
    return (devices.pop() if devices else None), (versions.pop() if versions else None), notes


def read_inputs(log: Path | None, times: Path | None, profile: Path | None, layer_info: Path | None,
                plan: Path | None) -> TrtexecInputs:
    """Parse every given file (InputError on the first bad one)."""
    inputs = TrtexecInputs()
    if log is not None:
        inputs.log = parse_log(log)
    if times is not None:
        inputs.times_display = shown_path(times)
        inputs.times = parse_times(times, inputs.times_display)
    if profile is not None:
        inputs.profile_display = shown_path(profile)
        inputs.profile = parse_profile(profile, inputs.profile_display)
    if layer_info is not None:
        inputs.layer_info_display = shown_path(layer_info)
        inputs.layer_info = parse_layer_info(layer_info, inputs.layer_info_display)
    if plan is not None:
        inputs.plan_display = shown_path(plan)
        inputs.plan_bytes = plan_size_bytes(plan, inputs.plan_display)
    return inputs
