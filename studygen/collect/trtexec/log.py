"""trtexec console log reader: runs, their performance summaries, settings,
``--dumpProfile`` tables and what the log says about the measuring machine.

Format (seen in ../shared/fixtures/trtexec, TensorRT 7.x, 8.4-8.6 and
10.16, and TensorRT's ``samples/common/sampleReporting.cpp``):

* Each run starts with ``&&&& RUNNING TensorRT.trtexec [TensorRT vNNNNNN]
  # <command>`` and ends with ``&&&& PASSED`` (or ``FAILED``). Log lines are
  ``[date time] [I] message``; a log captured part way (no ``&&&& RUNNING``)
  is one run starting at its first summary or version line.
* The version is ``TensorRT version: X`` or decoded from ``vNNNNNN``
  (``v101601`` → 10.16.1, ``v8600`` → 8.6.0); TensorRT 7 logs carry neither,
  and the version is then recorded as unknown (None), never guessed from a
  file name.
* TensorRT 8+ prints ``=== Performance summary ===`` with lines such as
  ``GPU Compute Time: min = X ms, max = …, mean = …, median = …,
  percentile(90%) = … ms``, ended by ``Total GPU Compute Time:``; TensorRT 7
  prints blocks (``Host Latency`` / ``min: X ms (end to end Y ms)`` /
  ``percentile: X ms at 99%``), ended by ``total compute time: X s``.
* ``* GPU compute time is unstable, with coefficient of variance = X%.``
  marks the GPU compute timing unstable.
* ``--dumpProfile`` prints ``=== Profile (N iterations ) ===``, a column
  line ``Time(ms) Avg.(ms) [Median(ms)] Time(%) Layer`` and one row per
  layer (figures first, the layer name last) ending in a ``Total`` row, as
  TensorRT 10.16 does. The pre-8.6 table (layer name first, then Time, Avg.
  Time, Median Time, Time %) is not read: such a log gives no kernel time.
* Inference options name the timing method (``CUDA Graph: Enabled``,
  ``Data transfers: Disabled`` …); when the log does not print them, the
  command line's flags decide, and a missing flag means the pre-11 default
  only when the version is known to be below 11 (TensorRT 11 changed them).

Each run's figures are kept as printed (:func:`studygen.collect.inputs.figure`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError
from ...fsutil import shown_path
from ..inputs import figure, read_input_text

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

