"""trtexec export readers: ``--exportTimes``, ``--exportProfile``,
``--exportLayerInfo``, and the engine plan file's size.

Formats (seen in ../shared/fixtures/trtexec and TensorRT's
``samples/common/sampleReporting.cpp``):

* **--exportTimes**: an array of per-iteration objects, times in ms.
  TensorRT 8.2+ keys ``startEnqMs, endEnqMs, startH2dMs, endH2dMs,
  startComputeMs, endComputeMs, startD2hMs, endD2hMs, h2dMs, computeMs,
  d2hMs, latencyMs`` (lower-case ``d`` in H2d/D2h); TensorRT 7 keys
  ``startInMs, endInMs, inMs, computeMs, outMs, latencyMs, endToEndMs``.
* **--exportProfile**: an array whose first element is ``{"count": N}``
  (profiled iterations, optional), then ``{name, timeMs, averageMs,
  [medianMs], percentage}`` per layer (``medianMs`` is absent in TensorRT 7
  era files).
* **--exportLayerInfo**: ``{"Layers": [...], "Bindings": [...]}`` with layer
  names, or objects (``Name, LayerType, TacticName, Metadata``) when the
  engine was built with ``--profilingVerbosity=detailed``.
* **Engine plan**: only its size in bytes is read.

Several arrays concatenated in one file (``cat times_*.json``) are several
runs, kept apart and matched to the log's runs in order by the result
builders. Statistics of per-iteration timings follow trtexec's own rules
(``findPercentile``, ``findMedian``), so they reproduce its summary.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from ...fsutil import shown_path
from ...textio import regular_file
from ..inputs import is_number, load_json_values, significant

TIMES_KEYS_82 = {"startEnqMs", "endEnqMs", "startH2dMs", "endH2dMs", "startComputeMs", "endComputeMs",
                 "startD2hMs", "endD2hMs", "h2dMs", "computeMs", "d2hMs", "latencyMs"}
TIMES_KEYS_7 = {"startInMs", "endInMs", "inMs", "computeMs", "outMs", "latencyMs", "endToEndMs"}


@dataclass(frozen=True)
class TimesKeySet:
    """The keys one TensorRT version's ``--exportTimes`` writes: ``name`` (as
    records cite it), the ``required`` keys that recognise it, and
    ``timings``, timing name → key of its per-iteration duration in ms."""

    name: str
    required: frozenset[str]
    timings: dict[str, str]


# Tried in order: the first whose required keys an array's first object holds.
TIMES_KEY_SETS = (
    TimesKeySet("TensorRT 8.2+", frozenset(TIMES_KEYS_82),
                {"host_latency": "latencyMs", "gpu_compute": "computeMs", "h2d": "h2dMs", "d2h": "d2hMs"}),
    TimesKeySet("TensorRT 7", frozenset(TIMES_KEYS_7),
                {"host_latency": "latencyMs", "gpu_compute": "computeMs", "h2d": "inMs", "d2h": "outMs",
                 "end_to_end": "endToEndMs"}),
)


def times_key_set(keys: set[str]) -> TimesKeySet | None:
    """The key set of :data:`TIMES_KEY_SETS` that ``keys`` (the keys of an
    array's first object) hold, or None."""
    for key_set in TIMES_KEY_SETS:
        if key_set.required <= keys:
            return key_set
    return None


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
        found = times_key_set(keys)
        if found is None:
            raise InputError(f"unknown --exportTimes keys {sorted(keys)} (expected TensorRT 8.2+ "
                             "startH2dMs…latencyMs or TensorRT 7 startInMs…endToEndMs)", path=display, where=f"{pointer}/0")
        mapping = found.timings
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
        runs.append(TimesRun(index=index, line=line, key_set=found.name, timings=timings))
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
    InputError for a missing, empty or folder path, or a special file (a FIFO, a device)."""
    display = display or shown_path(path)
    size = regular_file(path, display, folder="is a folder, not an engine plan").st_size
    if size == 0:
        raise InputError("file is empty", path=display)
    return size

