"""PyTorch profiler (Kineto) Chrome trace → kernel time per group.

Format: the Trace Event Format (Chrome ``about:tracing``): a JSON object with
``traceEvents`` (or a bare event array), plain or gzip-compressed. ``ts`` and
``dur`` are **microseconds** by that format whatever ``displayTimeUnit`` says
(that field only sets how viewers display them). Device kernels are complete
events (``"ph": "X"``) with ``"cat": "kernel"``, on CUDA (CUPTI) and on ROCm
(roctracer, whose HIP runtime calls Kineto files under ``cuda_runtime`` too;
seen in the MI210 and MI300X fixtures); memcpy/memset, runtime calls, CPU ops,
annotations and ``cuda_profiler_range`` events (CUPTI range profiling, whose
durations are not kernel times) are not kernels. Traces of devices whose work
Kineto records under other categories (MTIA ``mtia_ccp_events``, Gaudi
``hpu_op``) are refused naming the device, as are traces with host events
only. JSON is read with the collectors' one strict decoder
(:func:`studygen.collect.inputs.decoder`): a repeated key (``"dur"`` twice in
an event, ``"traceEvents"`` twice) is refused, never let to replace a value.

Iterations: each kernel belongs to the ``ProfilerStep#N`` whose CPU range
holds its launch (the runtime event of its ``correlation`` id), never to
the step its GPU time falls in; a kernel whose launch is not in the trace
(queued before the profiler's window) is in no step, and
:func:`unlaunched_notes` says how many and how long, for the record's
provenance notes and a warning (:mod:`.torch_steps` tells the rest: GPU
step ranges, steps written twice, traces without launches). The result is
the mean per step, each step's figures in ``per_iteration``; a trace
without steps gives totals over the whole trace, the time the trace holds,
kernels without a launch included (no step is guessed there), with the
same note.

Refused as impossible for one profiler run (each would count time twice):
steps of other names that overlap on one thread, a kernel event written
twice, two launch events of one kernel's correlation id
(:func:`refuse_repeated_launches`), and kernels of one stream that overlap beyond the timestamps' 1 µs
rounding (:func:`refuse_stream_overlaps` says which overlaps are real).

Kernels of several devices are never summed: such a trace is read for the
one device ``--device`` names, else refused (:mod:`.torch_devices`). The
GPU is the ``deviceProperties`` name of the kernels' device (2021 traces:
``computeProperties``; of the two, the first whose list names the kernels' devices, else a device); a trace
that lists one model only (the MI300X BERT fixture lists device 0 while its
kernels ran on device 2) names that model, with a note.
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..fsutil import shown_path
from ..records.group_sums import KERNELS_LISTED_PER_GROUP
from ..records.kernel_rules import grouping_note
from ..records.kinds import Kind
from ..records.result import NewResult
from .inputs import decode_at, decoder, is_number, json_error, read_input_text, significant, skip_space
from .kernel_groups import KernelGroupRules, KernelItem, clean_sum, group_times, groups_for_record
from ..records.trace_notes import COUNTED_IN_TOTALS, LEFT_OUT, no_step_kernel_note, unlaunched_note, unmatched_note
from .torch_devices import device_entries, device_list_key, device_names, distributed_info, one_device
from .torch_steps import STEP_NAME, TIMESTAMP_SLACK_US, StepRanges, attribute
from .trace_resolution import US_DECIMALS_MS, duration_decimals, finer_than_ns, resolution_words, write_at_resolution

US_PER_MS = 1000.0
# Devices whose on-device work Kineto records under a category other than
# "kernel": refused naming the device (the category is not a kernel time).
OTHER_DEVICE_WORK = (("mtia_", "an MTIA trace (its device work is in mtia_* events, not kernel events)"),
                     ("hpu_op", "a Gaudi (HPU) trace (its device work is in hpu_op events, not kernel events)"))


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
    """The parts of a Kineto trace the collector uses: the kernels, the
    step labels in time order that hold kernels or not (``steps``), how
    kernels launched outside every step, the devices by id, the event
    categories, the platform (``CUDA``, ``ROCm`` or None), notes on how
    steps and the GPU were read, the device ``--device`` named, and the
    durations (µs) of the kernels whose launch the trace lacks while it holds
    others' (``unlaunched``, by kind: see
    :class:`~studygen.collect.torch_steps.Attribution`)."""

    display: str
    kernels: list[Kernel]
    steps: list[str]
    outside_steps: int
    devices: dict[int, str] = field(default_factory=dict)
    categories: collections.Counter = field(default_factory=collections.Counter)
    platform: str | None = None
    notes: list[str] = field(default_factory=list)
    device: int | None = None  # the device --device named (its kernels only were read)
    unlaunched: dict[str, list[float]] = field(default_factory=dict)
    us_decimals: int = 0  # decimals of the kernels' dur in µs: 0 whole µs, 3 ns (trace_resolution.duration_decimals)
    us_rounded: bool = False  # some dur has more decimals than us_decimals keeps (trace_resolution.finer_than_ns)
    distributed: dict | None = None  # rank, world_size (backend) of a distributed job (torch_devices.distributed_info)

    @property
    def kernel_devices(self) -> set[int]:
        return {k.device for k in self.kernels if k.device is not None}

    @property
    def gpu(self) -> str | None:
        """The GPU model the kernels ran on: the ``deviceProperties`` (2021: ``computeProperties``) name of
        their device(s); when their device is not listed but the trace lists
        a single model, that model; None when the trace does not say."""
        names = {self.devices.get(device) for device in self.kernel_devices}
        if None in names or not names:
            listed = set(self.devices.values())
            if len(listed) == 1:
                return listed.pop()
            names.discard(None)
        if len(names) == 1:
            return names.pop()
        return " + ".join(sorted(names)) if names else None

    @property
    def gpu_count(self) -> int:
        return len(self.kernel_devices)


def _top_key_pointer(key: str) -> str:
    return "/" + key.replace("~", "~0").replace("/", "~1")


def scan_events(text: str, display: str, on_event) -> tuple[dict, str]:
    """Call ``on_event(index, event)`` for each element of the trace's event
    array and return the other top-level fields, without building the whole
    document: a 500 MB trace then needs its text plus the kept kernels, not
    several GB of Python objects. Accepts ``{"traceEvents": [...], …}`` or a
    bare array (both allowed by the Trace Event Format). Returns the
    top-level fields and the JSON pointer of the event array. Raises
    InputError, also for a top-level key given twice."""
    json_decoder = decoder()
    pos = skip_space(text, 0)
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
                                 pointer="/" + key.replace("~", "~0").replace("/", "~1"))
            if key == "traceEvents" and text.startswith("[", pos):
                pos = _scan_array(text, pos, json_decoder, on_event, display, "/traceEvents")
                found = True
            else:
                top[key], pos = decode_at(json_decoder, text, pos, display, pointer=_top_key_pointer(key))
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
                         path=display, pointer="/traceEvents")
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


def trace_platform(top: dict) -> str | None:
    """``ROCm`` when the trace names roctracer or a HIP runtime, ``CUDA``
    when it names CUPTI or a CUDA runtime (Kineto's top-level fields), else None."""
    if "roctracer_version" in top or "hip_runtime_version" in top:
        return "ROCm"
    if "cupti_version" in top or "cuda_runtime_version" in top:
        return "CUDA"
    return None


def is_launch_category(category: str) -> bool:
    """Host-side runtime or driver calls (``cuda_runtime``, ``cuda_driver``,
    ``xpu_runtime``, ``privateuse1_runtime`` …): where kernels are launched."""
    return category.endswith(("_runtime", "_driver")) or category in ("runtime", "driver")


def _no_kernel_error(categories: collections.Counter, top: dict, display: str, events: int = -1) -> InputError:
    """The reason a trace without kernel events cannot give kernel time (``events``: how many it holds)."""
    listed = ", ".join(f"{name} {count}" for name, count in categories.most_common(6)) or "none"
    lowered = {name.lower() for name in categories}
    platform = trace_platform(top)
    other_device = next((why for prefix, why in OTHER_DEVICE_WORK if any(c.startswith(prefix) for c in lowered)), None)
    runtime = sorted(c for c in lowered if is_launch_category(c))
    devices = device_entries(top)
    if events == 0:
        return InputError("no events at all: its event list is empty (the profiler recorded nothing, or the file was "
                          "written before it flushed), so no kernel time", path=display)
    if categories.get("cuda_profiler_range"):
        reason = (f"it holds {categories['cuda_profiler_range']} cuda_profiler_range events: recorded with CUPTI "
                  "counters (range profiling), whose durations are not kernel times")
    elif other_device:
        reason = f"it is {other_device}"
    elif runtime and platform == "ROCm":
        reason = (f"it holds HIP runtime calls (roctracer, category {runtime[0]}) but no kernel activity: "
                  "the device side was not recorded")
    elif runtime:
        calls = {"cuda_runtime": "CUDA runtime calls", "cuda_driver": "CUDA driver calls"}.get(runtime[0],
                                                                                           f"{runtime[0]} calls")
        reason = f"it holds {calls} but no kernel activity"
    elif any(c in lowered for c in ("gpu_memcpy", "gpu_memset")):
        reason = "it holds memory copies and sets but no kernel activity"
    elif devices:
        reason = (f"it holds CPU events only, though it lists {len(devices)} device(s): profiled without the "
                  "device activity (ProfilerActivity.CUDA)")
    else:
        reason = "it holds CPU events only (profiled without ProfilerActivity.CUDA, or on a machine without a GPU)"
    return InputError(f"no GPU kernel events (\"cat\": \"kernel\"), so no kernel time: {reason}; event categories: {listed}",
                      path=display)


def _stream_of(event: dict, args) -> tuple:
    """The stream a kernel ran on: ``("device", d, "stream", s)`` from its args, else its pid and tid (Kineto
    writes the device as pid and the stream as tid)."""
    if isinstance(args, dict) and args.get("stream") is not None:
        return ("device", _plain(args.get("device")), "stream", _plain(args.get("stream")))
    return ("pid", _plain(event.get("pid")), "tid", _plain(event.get("tid")))


def _plain(value):
    """``value`` as a hashable key: a JSON scalar as it is, a list or object by its JSON-like text."""
    return value if value is None or isinstance(value, (int, float, str)) else repr(value)


def _in_graph(args) -> bool:
    """Whether Kineto marks the kernel as launched from a CUDA graph (``graph node id`` and the like): the
    branches of a graph run concurrently yet CUPTI files their kernels under the stream the graph was launched on."""
    return isinstance(args, dict) and any(isinstance(key, str) and key.startswith("graph") for key in args)


def refuse_stream_overlaps(on_stream: list[tuple], kernel_events: list[tuple], display: str,
                           pointer_base: str) -> None:
    """Refuse kernels that one stream cannot have run: a kernel event written
    twice (same name, ts, dur, device and stream) and, beyond
    :data:`TIMESTAMP_SLACK_US`, a kernel inside another of its stream or
    overlapping more than half of the shorter one. Either adds a kernel's
    time twice to the totals.

    ``on_stream``: ``(stream, ts µs, dur µs, event index, in_graph)`` per
    kernel, in the order of ``kernel_events`` (whose first field is the
    name). A partial overlap at a kernel's tail is real (Hopper's
    programmatic dependent launch starts the next kernel of a stream while
    the previous one drains), and kernels of CUDA graphs are not checked for
    overlap (concurrent branches share the launch stream), nor kernels of
    no known stream (neither ``args.stream`` nor pid and tid); exact repeats
    are refused always. Cost: one sort of the kernels."""
    seen: dict[tuple, int] = {}
    for (stream, ts, dur, index, _), event in zip(on_stream, kernel_events):
        earlier = seen.setdefault((stream, ts, dur, event[0]), index)
        if earlier != index:
            raise InputError(f"kernel event {index} repeats kernel event {earlier} exactly (same name, ts {ts} µs, "
                             f"dur {dur} µs) {_stream_words(stream)}: a kernel written twice would be counted twice",
                             path=display, pointer=f"{pointer_base}/{index}")
    del seen
    order = sorted(range(len(on_stream)), key=lambda k: (repr(on_stream[k][0]), on_stream[k][1], on_stream[k][3]))
    latest = None  # per stream, the kernel reaching furthest so far
    for position in order:
        stream, ts, dur, index, in_graph = on_stream[position]
        if stream[1] is None and stream[3] is None:  # no stream known (no args.stream, no pid or tid)
            continue
        if latest is None or latest[0] != stream:
            latest = on_stream[position]
            continue
        _, start, length, earlier, earlier_in_graph = latest
        end = start + length
        overlap = min(end, ts + dur) - ts
        inside = ts + dur <= end and ts > start - TIMESTAMP_SLACK_US
        if overlap > TIMESTAMP_SLACK_US and not (in_graph or earlier_in_graph) \
                and (inside or overlap > min(dur, length) / 2):
            raise InputError(f"kernel event {index} (ts {ts} µs, dur {dur} µs) starts inside kernel event {earlier} "
                             f"(ts {start} to {end} µs) {_stream_words(stream)} and overlaps it by {overlap:g} µs: a stream runs its "
                             "kernels one after another (events written twice, or traces joined?), so kernel time "
                             "would be counted twice", path=display, pointer=f"{pointer_base}/{index}")
        if ts + dur > end:
            latest = on_stream[position]


def refuse_repeated_launches(kernel_events: list[tuple], repeated: dict, display: str, pointer_base: str) -> None:
    """Refuse a kernel whose correlation id two launch events carry
    (``repeated``: correlation id -> event indices of its first and second
    launch, runtime or driver category, ``"ph": "X"``). A kernel has one
    launch; of two, either could place it in a step (the second used to win
    silently), so the trace was written twice or joined. Only ids some kernel
    of ``kernel_events`` carries count: the MTIA fixture's nested runtime calls
    (``synchronizeStream`` holding ``synchronize``) share ids that no kernel
    carries. Names the one whose second launch comes first in the file."""
    carried = {correlation for *_, correlation in kernel_events}
    pairs = [pair + (correlation,) for correlation, pair in repeated.items() if correlation in carried]
    if not pairs:
        return
    first, second, correlation = min(pairs, key=lambda pair: pair[1])
    raise InputError(f"launch event {second} carries correlation id {correlation}, as launch event {first} "
                     f"({pointer_base}/{first}) does: a kernel has one launch, and which of the two places it in a "
                     "step cannot be told (events written twice, or traces joined?)",
                     path=display, pointer=f"{pointer_base}/{second}")


def _stream_words(stream: tuple) -> str:
    return f"on {stream[0]} {stream[1]} {stream[2]} {stream[3]}"


def refuse_unplaced_step(event: dict, name: str, display: str, pointer: str) -> None:
    """InputError, pointing at the field, for a ``ProfilerStep#N`` event
    whose ``dur`` is no non-negative number or whose ``ts`` is no number.
    Skipping it left its kernels to the GPU ranges or to no step at all (a
    trace of 22.14 ms per step recorded 0.022 ms), and a negative ``dur``
    made a range that holds no launch."""
    dur, ts = event.get("dur"), event.get("ts")
    bad = "dur" if not is_number(dur) or dur < 0 else "ts" if not is_number(ts) else None
    if bad is not None:
        held = f"{bad} {json.dumps(event[bad])[:40]}" if bad in event else f"no {bad}"
        raise InputError(f"{name} event with {held}, not a step range (a ts and a non-negative dur, in µs): which "
                         "kernels ran in this step cannot be told; nothing recorded", path=display,
                         pointer=f"{pointer}/{bad}")


def parse_trace(path: Path, display: str | None = None, device: int | None = None) -> Trace:
    """Read a Kineto trace (``.json`` or ``.json.gz``).

    Raises InputError for malformed JSON (a repeated key included), a file
    that is not a trace, a kernel event that is no complete event (``"ph"``
    other than ``"X"``), a kernel event with a missing or negative ``dur`` or
    a name that is no non-empty string (``null``, a list, missing), a
    ``ProfilerStep#N`` event without a ts and a non-negative dur, two
    launch events of one kernel's correlation id,
    kernels that all last 0, and a trace with no GPU kernel events (naming why: CPU only, CUPTI
    counters, runtime calls only, another device's work, …) and, unless
    ``device`` names one, a trace whose kernels ran on several devices
    (:func:`~studygen.collect.torch_devices.one_device`: only ``device``'s
    kernels are read; UsageError when it ran none).
    """
    display = display or shown_path(path)
    text = read_input_text(path, display)
    pointer_base = "" if text.lstrip(" \t\r\n").startswith("[") else "/traceEvents"
    categories: collections.Counter = collections.Counter()
    # kernels as (name, dur µs, ts µs, device, correlation): a tuple, not the event dict, to keep memory low
    kernel_events, steps, launches = [], StepRanges(), {}
    launch_events: dict = {}  # correlation id -> index of its launch event
    repeated: dict = {}  # correlation id -> (first, second) index of two launch events carrying it
    on_stream: list[tuple] = []  # (stream, ts, dur, event index, in a CUDA graph) of each kernel, for overlaps
    counted = [0]  # events seen

    def on_event(index: int, event) -> None:
        counted[0] = index + 1
        if not isinstance(event, dict):
            return
        category = event.get("cat")
        if category:
            categories[str(category)] += 1
        category = str(category or "").lower()
        if event.get("ph") != "X":
            if category == "kernel":
                # Kineto writes each kernel as one complete event; a begin or end alone holds no dur, and
                # skipping it would drop the kernel's time without a word
                held = f"\"ph\": {json.dumps(event['ph'])[:40]}" if "ph" in event else "no \"ph\""
                raise InputError(f"kernel event with {held}, not a complete event (\"ph\": \"X\", as Kineto writes "
                                 "every kernel): its time cannot be read; nothing recorded",
                                 path=display, pointer=f"{pointer_base}/{index}" + ("/ph" if "ph" in event else ""))
            return
        if category == "kernel":
            dur, ts, args = event.get("dur"), event.get("ts"), event.get("args") or {}
            if not is_number(dur) or dur < 0 or not is_number(ts):
                raise InputError("kernel event without a non-negative dur and a ts", path=display,
                                 pointer=f"{pointer_base}/{index}")
            name = event.get("name")
            if not isinstance(name, str) or not name.strip():
                # Kineto writes every kernel's name as a string; without one the event's time could only
                # be guessed into a group or swell "unclassified", so the trace is refused, not read
                held = f"the name {json.dumps(name)[:40]}" if "name" in event else "no name"
                raise InputError(f"kernel event with {held}, not a kernel name (a non-empty string): its "
                                 f"{dur:g} µs cannot be given to any group; nothing recorded",
                                 path=display, pointer=f"{pointer_base}/{index}/name")
            device = args.get("device") if isinstance(args, dict) else None
            kernel_events.append((name, dur, ts,
                                  device if isinstance(device, int) and not isinstance(device, bool) else None,
                                  _plain(args.get("correlation")) if isinstance(args, dict) else None))
            on_stream.append((_stream_of(event, args), ts, dur, index, _in_graph(args)))
        elif is_launch_category(category):
            args = event.get("args")
            correlation = _plain(args.get("correlation")) if isinstance(args, dict) else None
            if correlation is not None and is_number(event.get("ts")):
                if correlation in launches:
                    repeated.setdefault(correlation, (launch_events[correlation], index))
                else:
                    launches[correlation], launch_events[correlation] = event["ts"], index
        name = event.get("name")
        if isinstance(name, str) and name.startswith("ProfilerStep#") and STEP_NAME.match(name):
            refuse_unplaced_step(event, name, display, f"{pointer_base}/{index}")
            steps.add(category, name, event["ts"], event["ts"] + event["dur"], (event.get("pid"), event.get("tid")), index)

    top, _ = scan_events(text, display, on_event)
    del text
    if not kernel_events:
        raise _no_kernel_error(categories, top, display, counted[0])
    if not any(dur for _, dur, _, _, _ in kernel_events):
        raise InputError(f"every one of its {len(kernel_events)} kernel events has dur 0: no kernel time to record "
                         "(durations not recorded, or below the trace's resolution)", path=display)
    refuse_stream_overlaps(on_stream, kernel_events, display, pointer_base)
    kernel_events, device_note = one_device(kernel_events, device, display)
    ran_on = {event[3] for event in kernel_events}
    devices = device_names(top, ran_on)
    refuse_repeated_launches(kernel_events, repeated, display, pointer_base)
    found = attribute(kernel_events, launches, steps, display, pointer_base)
    kernels = [Kernel(name, dur / US_PER_MS, device, label)
               for (name, dur, _, device, _), label in zip(kernel_events, found.labels)]
    trace = Trace(display=display, kernels=kernels, steps=found.steps, outside_steps=found.outside, devices=devices,
                  categories=categories, platform=trace_platform(top), device=device, unlaunched=found.unlaunched,
                  us_decimals=duration_decimals(dur for _, dur, _, _, _ in kernel_events),
                  us_rounded=finer_than_ns(dur for _, dur, _, _, _ in kernel_events), distributed=distributed_info(top))
    trace.notes.extend(note for note in (found.note, device_note) if note)
    unlisted = sorted(d for d in trace.kernel_devices if d not in devices)
    if unlisted and trace.gpu:
        trace.notes.append(f"the kernels ran on device {', '.join(map(str, unlisted))}, which {device_list_key(top, ran_on)} does "
                           f"not list; it names one model only ({trace.gpu}, device "
                           f"{', '.join(map(str, sorted(devices)))}): recorded as that model")
    return trace


def unlaunched_notes(trace: Trace) -> list[str]:
    """One line on the kernels without their launch in the trace (see
    :attr:`Trace.unlaunched`), naming the trace, the count, the time (ms, 3
    significant digits) and what the result does with them: left out of
    every step, or counted in whole-trace totals. For the record's
    provenance notes and for stderr; empty when every kernel's launch is in
    the trace (or none is)."""
    per_step = any(kernel.step is not None for kernel in trace.kernels)
    why_words = {  # (kind, per step) -> why the kernels have no step
        ("before", True): "launched before the first profiled step, no launch event in the trace",
        ("before", False): "launched before profiling began (no launch event in the trace)",
        ("missing", True): "whose launch event is missing from the trace (their step is unknown)",
        ("missing", False): "whose launch event is missing from the trace"}
    done = LEFT_OUT if per_step else COUNTED_IN_TOTALS
    lines = []
    for kind, durations in sorted(trace.unlaunched.items()):
        ms = significant(clean_sum(durations) / US_PER_MS, 3)
        lines.append(unlaunched_note(Path(trace.display).name, trace.device, len(durations), f"{ms:g}",
                                     why_words[kind, per_step], done))
    return lines


def _items(kernels: list[Kernel], divisor: int = 1) -> list[KernelItem]:
    """Kernels summed by name: ms (divided by ``divisor`` iterations) and calls."""
    times_ms: dict[str, list[float]] = collections.defaultdict(list)
    for kernel in kernels:
        times_ms[kernel.name].append(kernel.dur_ms)
    return [KernelItem(name, significant(clean_sum(times) / divisor), len(times)) for name, times in times_ms.items()]


def profiler_name(trace: Trace) -> str:
    """The record's ``profiler`` text: torch.profiler, the platform when the
    trace names it, and what is read."""
    platform = {"CUDA": "CUDA, CUPTI", "ROCm": "ROCm, roctracer"}.get(trace.platform or "")
    source = f"Kineto trace, {platform}" if platform else "Kineto trace"
    return f"torch.profiler ({source}; GPU kernel events, dur in µs)"


def kernel_time_result(trace: Trace, rules: KernelGroupRules, base: dict) -> dict:
    """The ``kernel_time`` result of ``trace`` (fields of ``base`` first:
    variant, shape, batch, backend, mode).

    With ``ProfilerStep#N`` ranges: groups and ``profiled_total_ms`` are the
    mean per step over the steps holding kernels, ``iterations`` their count,
    ``per_iteration`` each step's total and groups. Without: totals over the
    trace. All times in ms (trace ``dur`` µs / 1000), written with the digits
    the durations carry (:mod:`.trace_resolution`: 0.270, not 0.27).
    """
    profiler = profiler_name(trace)
    launches, names = len(trace.kernels), len({k.name for k in trace.kernels})
    notes = [f"{launches} kernel launch{'' if launches == 1 else 'es'} of {names} kernel{'' if names == 1 else 's'}; "
             f"{grouping_note(rules.source)}; each group lists at most its {KERNELS_LISTED_PER_GROUP} largest "
             "kernels"]
    by_step: dict[str, list[Kernel]] = {}
    for kernel in trace.kernels:
        if kernel.step is not None:
            by_step.setdefault(kernel.step, []).append(kernel)
    if by_step:
        step_names = [name for name in trace.steps if name in by_step]
        count = len(step_names)
        grouped = group_times(_items([k for name in step_names for k in by_step[name]], count), rules)
        per_iteration = []
        for name in step_names:
            step_grouped = group_times(_items(by_step[name]), rules)
            per_iteration.append({"label": name, "profiled_total_ms": step_grouped.total_ms,
                                  "groups": dict(step_grouped.groups)})
        result = dict(base, kind=Kind.KERNEL_TIME, groups=groups_for_record(grouped), profiled_total_ms=grouped.total_ms,
                      unclassified_ms=grouped.unclassified_ms,
                      unclassified_share=significant(grouped.unclassified_share), iterations=count,
                      per_iteration=per_iteration, profiler=profiler, rows_listed=True)
        notes.append(f"mean per iteration over {count} ProfilerStep ranges")
        if len(trace.steps) > count:
            notes.append(f"{len(trace.steps) - count} ProfilerStep ranges hold no kernel and are left out")
        if trace.outside_steps:
            notes.append(f"{trace.outside_steps} kernel launches outside any ProfilerStep range are left out")
    else:
        grouped = group_times(_items(trace.kernels), rules)
        result = dict(base, kind=Kind.KERNEL_TIME, groups=groups_for_record(grouped), profiled_total_ms=grouped.total_ms,
                      unclassified_ms=grouped.unclassified_ms,
                      unclassified_share=significant(grouped.unclassified_share), profiler=profiler, rows_listed=True)
        if trace.steps:
            notes.append(no_step_kernel_note(len(trace.steps)))
        else:
            notes.append("the trace has no ProfilerStep#N ranges: times are totals over the whole trace")
    if grouped.unclassified_names:
        notes.append(unmatched_note(len(grouped.unclassified_names)))
    notes.append(f"times in ms to {trace.us_decimals + US_DECIMALS_MS} decimals: the kernels' dur is in "
                 f"{resolution_words(trace.us_decimals, trace.us_rounded)}")
    notes.extend(trace.notes)
    result["note"] = "; ".join(notes)
    return write_at_resolution(result, trace.us_decimals + US_DECIMALS_MS)


def build_results(trace: Trace, rules: KernelGroupRules, *, variant: str, shape: str | None, batch: int | None,
                  mode: str | None) -> list[NewResult]:
    """One ``kernel_time`` result (backend pytorch) for the trace, with the
    ``device`` index its kernels ran on (when the trace states it) and, for a
    job of two or more ranks, its ``distributed`` rank and world size."""
    base = {"kind": None, "variant": variant}
    if shape:
        base["shape"] = shape
    if batch is not None:
        base["batch"] = batch
    base["backend"] = "pytorch"
    if mode:
        base["mode"] = mode
    result = kernel_time_result(trace, rules, base)
    # where the kernels ran, for the README to say: one device index (never several, see .torch_devices), the rank
    if len(trace.kernel_devices) == 1:
        result["device"] = next(iter(trace.kernel_devices))
    if trace.distributed:
        result["distributed"] = trace.distributed
    # a device named: the place in the file, so each device of one trace is a run of its own
    where = "" if trace.device is None else f":device {trace.device}"
    result["source_locator"] = f"{Path(trace.display).name}{where}"
    return [NewResult(result, trace.display)]
