"""PyTorch profiler (Kineto) Chrome trace → kernel time per group.

Format: the Trace Event Format (Chrome ``about:tracing``): a JSON object with
``traceEvents`` (or a bare event array), plain or gzip-compressed. ``ts`` and
``dur`` are **microseconds** by that format whatever ``displayTimeUnit`` says
(that field only sets how viewers display them). GPU kernels are complete
events (``"ph": "X"``) with ``"cat": "kernel"``; memcpy/memset, CUDA runtime
calls, CPU ops, annotations and ``cuda_profiler_range`` events (CUPTI range
profiling, whose durations are not kernel times) are not kernels.

Iterations: when the trace holds ``ProfilerStep#N`` ranges, each kernel is
assigned to the step whose CPU range contains its launch (the
``cuda_runtime`` event with the same ``correlation`` id; the kernel's own
start when no launch is found), and the result is the mean per step, with
each step's figures in ``per_iteration``. A trace without steps gives totals
over the whole trace.
"""

from __future__ import annotations

import bisect
import collections
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..fsutil import shown_path
from ..errors import InputError
from .inputs import decode_at, decoder, is_number, json_error, read_input_text, significant, skip_space
from .kernel_groups import KernelGroupRules, KernelItem, clean_sum, group_times, groups_for_record
from .result import NewResult

STEP_NAME = re.compile(r"^ProfilerStep#(\d+)$")
US_PER_MS = 1000.0


@dataclass(slots=True)
class Kernel:
    """One GPU kernel execution: name, duration in ms, device index, the
    step label it belongs to (None outside any step)."""

    name: str
    dur_ms: float
    device: int | None
    step: str | None = None


@dataclass
class Trace:
    """The parts of a Kineto trace the collector uses."""

    display: str
    kernels: list[Kernel]
    steps: list[str]
    outside_steps: int
    devices: dict[int, str] = field(default_factory=dict)
    categories: collections.Counter = field(default_factory=collections.Counter)

    @property
    def gpu(self) -> str | None:
        """The GPU model the kernels ran on (``deviceProperties`` name of
        their device), None when the trace does not say."""
        names = {self.devices.get(k.device) for k in self.kernels}
        names.discard(None)
        if len(names) == 1:
            return names.pop()
        return " + ".join(sorted(names)) if names else None

    @property
    def gpu_count(self) -> int:
        return len({k.device for k in self.kernels if k.device is not None})


def scan_events(text: str, display: str, on_event) -> tuple[dict, str]:
    """Call ``on_event(index, event)`` for each element of the trace's event
    array and return the other top-level fields, without building the whole
    document: a 500 MB trace then needs its text plus the kept kernels, not
    several GB of Python objects. Accepts ``{"traceEvents": [...], …}`` or a
    bare array (both allowed by the Trace Event Format). Returns the
    top-level fields and the JSON pointer of the event array. Raises InputError."""
    json_decoder = decoder()
    pos = skip_space(text, 1 if text.startswith("\ufeff") else 0)
    if text.startswith("[", pos):
        pos = _scan_array(text, pos, json_decoder, on_event, display)
        _expect_end(text, pos, display)
        return {}, ""
    if not text.startswith("{", pos):
        raise InputError("not a Chrome trace: expected an object with traceEvents or an event array", path=display)
    top: dict = {}
    found = False
    pos = skip_space(text, pos + 1)
    if text.startswith("}", pos):
        pos += 1
    else:
        while True:
            key, pos = decode_at(json_decoder, text, pos, display)
            pos = skip_space(text, pos)
            if not isinstance(key, str) or not text.startswith(":", pos):
                raise json_error(text, pos, "Expecting a key and ':'", display)
            pos = skip_space(text, pos + 1)
            if key in top or (key == "traceEvents" and found):  # a second event list would count kernels twice
                raise InputError(f"malformed JSON: duplicate key {key!r} (the last would silently win)", path=display,
                                 where="/" + key.replace("~", "~0").replace("/", "~1"))
            if key == "traceEvents" and text.startswith("[", pos):
                pos = _scan_array(text, pos, json_decoder, on_event, display, "/traceEvents")
                found = True
            else:
                top[key], pos = decode_at(json_decoder, text, pos, display, pointer="/" + key.replace("~", "~0").replace("/", "~1"))
            pos = skip_space(text, pos)
            if text.startswith(",", pos):
                pos = skip_space(text, pos + 1)
                continue
            if text.startswith("}", pos):
                pos += 1
                break
            raise json_error(text, pos, "Expecting ',' delimiter", display)
    _expect_end(text, pos, display)
    if not found:
        raise InputError("no \"traceEvents\" list: not a Chrome trace (torch.profiler export_chrome_trace)",
                         path=display, where="/traceEvents")
    return top, "/traceEvents"


def _scan_array(text: str, pos: int, json_decoder, on_event, display: str, pointer: str = "") -> int:
    pos = skip_space(text, pos + 1)
    if text.startswith("]", pos):
        return pos + 1
    index = 0
    while True:
        value, pos = decode_at(json_decoder, text, pos, display, pointer=f"{pointer}/{index}")
        on_event(index, value)
        index += 1
        pos = skip_space(text, pos)
        if text.startswith(",", pos):
            pos = skip_space(text, pos + 1)
        elif text.startswith("]", pos):
            return pos + 1
        else:
            raise json_error(text, pos, "Expecting ',' delimiter", display)


def _expect_end(text: str, pos: int, display: str) -> None:
    pos = skip_space(text, pos)
    if pos < len(text):
        raise json_error(text, pos, "Extra data after the trace", display)


def _no_kernel_error(categories: collections.Counter, display: str) -> InputError:
    """The reason a trace without kernel events cannot give kernel time."""
    listed = ", ".join(f"{name} {count}" for name, count in categories.most_common(6)) or "none"
    if categories.get("cuda_profiler_range"):
        reason = (f"it holds {categories['cuda_profiler_range']} cuda_profiler_range events: recorded with CUPTI "
                  "counters (range profiling), whose durations are not kernel times")
    elif not any(c in categories for c in ("cuda_runtime", "gpu_memcpy", "gpu_memset", "kernel")):
        reason = "it holds CPU events only (profiled without ProfilerActivity.CUDA, or on a machine without a GPU)"
    else:
        reason = "it holds CUDA runtime calls but no kernel activity"
    return InputError(f"no GPU kernel events (\"cat\": \"kernel\"), so no kernel time: {reason}; event categories: {listed}",
                      path=display)


def parse_trace(path: Path, display: str | None = None) -> Trace:
    """Read a Kineto trace (``.json`` or ``.json.gz``).

    Raises InputError for malformed JSON, a file that is not a trace, a
    kernel event with a missing or negative ``dur``, and a trace with no GPU
    kernel events (naming why: CPU only, CUPTI counters, …).
    """
    display = display or shown_path(path)
    text = read_input_text(path, display)
    pointer_base = "" if text.lstrip("\ufeff \t\r\n").startswith("[") else "/traceEvents"
    categories: collections.Counter = collections.Counter()
    # kernels as (name, dur µs, ts µs, device, correlation): a tuple, not the event dict, to keep memory low
    kernel_events, steps, launches = [], [], {}

    def on_event(index: int, event) -> None:
        if not isinstance(event, dict):
            return
        category = event.get("cat")
        if category:
            categories[str(category)] += 1
        if event.get("ph") != "X":
            return
        category = str(category or "").lower()
        if category == "kernel":
            dur, ts, args = event.get("dur"), event.get("ts"), event.get("args") or {}
            if not is_number(dur) or dur < 0 or not is_number(ts):
                raise InputError("kernel event without a non-negative dur and a ts", path=display,
                                 where=f"{pointer_base}/{index}")
            device = args.get("device")
            kernel_events.append((str(event.get("name", "")), dur, ts, device if isinstance(device, int) else None,
                                  args.get("correlation")))
        elif category in ("cuda_runtime", "cuda_driver"):
            correlation = (event.get("args") or {}).get("correlation")
            if correlation is not None and is_number(event.get("ts")):
                launches[correlation] = event["ts"]
        name = event.get("name")
        if isinstance(name, str) and name.startswith("ProfilerStep#") and STEP_NAME.match(name) \
                and is_number(event.get("ts")) and is_number(event.get("dur")):
            steps.append((event["ts"], event["ts"] + event["dur"], name))

    top, _ = scan_events(text, display, on_event)
    del text
    if not kernel_events:
        raise _no_kernel_error(categories, display)
    devices = {}
    for entry in top.get("deviceProperties") or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), int) and isinstance(entry.get("name"), str):
            devices[entry["id"]] = entry["name"]
    steps.sort()
    # Steps named twice (a CPU op and a user annotation) are one range.
    unique_steps = []
    for start, end, name in steps:
        if unique_steps and unique_steps[-1][2] == name:
            continue
        unique_steps.append((start, end, name))
    starts = [s[0] for s in unique_steps]
    kernels, outside = [], 0
    for name, dur, ts, device, correlation in kernel_events:
        launch_ts = launches.get(correlation, ts)
        step = None
        if unique_steps:
            position = bisect.bisect_right(starts, launch_ts) - 1
            if position >= 0 and launch_ts <= unique_steps[position][1]:
                step = unique_steps[position][2]
            else:
                outside += 1
        kernels.append(Kernel(name, dur / US_PER_MS, device, step))
    return Trace(display=display, kernels=kernels, steps=[s[2] for s in unique_steps], outside_steps=outside,
                 devices=devices, categories=categories)


def _items(kernels: list[Kernel], divisor: int = 1) -> list[KernelItem]:
    """Kernels summed by name: ms (divided by ``divisor`` iterations) and calls."""
    times_ms: dict[str, list[float]] = collections.defaultdict(list)
    calls: collections.Counter = collections.Counter()
    for kernel in kernels:
        times_ms[kernel.name].append(kernel.dur_ms)
        calls[kernel.name] += 1
    return [KernelItem(name, significant(clean_sum(times) / divisor), calls[name]) for name, times in times_ms.items()]


def kernel_time_result(trace: Trace, rules: KernelGroupRules, base: dict) -> dict:
    """The ``kernel_time`` result of ``trace`` (fields of ``base`` first:
    variant, shape, batch, backend, mode).

    With ``ProfilerStep#N`` ranges: groups and ``profiled_total_ms`` are the
    mean per step over the steps holding kernels, ``iterations`` their count,
    ``per_iteration`` each step's total and groups. Without: totals over the
    trace. All times in ms (trace ``dur`` µs / 1000).
    """
    profiler = "torch.profiler (Kineto trace; GPU kernel events, dur in µs)"
    notes = [f"{len(trace.kernels)} kernel launches of {len({k.name for k in trace.kernels})} kernels; "
             f"groups by {rules.source} kernel_groups rules; each group lists at most its 20 largest kernels"]
    in_steps = [k for k in trace.kernels if k.step is not None]
    if trace.steps and in_steps:
        step_names = [s for s in trace.steps if any(k.step == s for k in in_steps)]
        count = len(step_names)
        grouped = group_times(_items(in_steps, count), rules)
        per_iteration = []
        for name in step_names:
            step_grouped = group_times(_items([k for k in in_steps if k.step == name]), rules)
            per_iteration.append({"label": name, "profiled_total_ms": step_grouped.total_ms,
                                  "groups": dict(step_grouped.groups)})
        result = dict(base, kind="kernel_time", groups=groups_for_record(grouped), profiled_total_ms=grouped.total_ms,
                      unclassified_ms=grouped.unclassified_ms,
                      unclassified_share=significant(grouped.unclassified_share), iterations=count,
                      per_iteration=per_iteration, profiler=profiler, rows_listed=True)
        notes.append(f"mean per iteration over {count} ProfilerStep ranges")
        if trace.outside_steps:
            notes.append(f"{trace.outside_steps} kernel launches outside any ProfilerStep range are left out")
    else:
        grouped = group_times(_items(trace.kernels), rules)
        result = dict(base, kind="kernel_time", groups=groups_for_record(grouped), profiled_total_ms=grouped.total_ms,
                      unclassified_ms=grouped.unclassified_ms,
                      unclassified_share=significant(grouped.unclassified_share), profiler=profiler, rows_listed=True)
        notes.append("the trace has no ProfilerStep#N ranges: times are totals over the whole trace")
    if grouped.unclassified_names:
        notes.append(f"{len(grouped.unclassified_names)} kernels matched no rule")
    result["note"] = "; ".join(notes)
    return result


def build_results(trace: Trace, rules: KernelGroupRules, *, variant: str, shape: str | None, batch: int | None,
                  mode: str | None) -> list[NewResult]:
    """One ``kernel_time`` result (backend pytorch) for the trace."""
    base = {"kind": None, "variant": variant}
    if shape:
        base["shape"] = shape
    if batch is not None:
        base["batch"] = batch
    base["backend"] = "pytorch"
    if mode:
        base["mode"] = mode
    result = kernel_time_result(trace, rules, base)
    result["source_locator"] = Path(trace.display).name
    return [NewResult(result, trace.display)]
