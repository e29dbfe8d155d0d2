"""trtexec export readers: ``--exportProfile``, ``--exportLayerInfo``, and
the engine plan file's size (``--exportTimes`` has its own module,
:mod:`.times`).

Formats (seen in ../shared/fixtures/trtexec and TensorRT's
``samples/common/sampleReporting.cpp``):

* **--exportProfile**: an array whose first element is ``{"count": N}``
  (profiled iterations, optional), then ``{name, timeMs, averageMs,
  [medianMs], percentage}`` per layer (``medianMs`` is absent in TensorRT 7
  era files); an engine's layer names are unique, so a name listed twice in
  one array is refused.
* **--exportLayerInfo**: ``{"Layers": [...], "Bindings": [...]}`` with layer
  names, or objects (``Name, LayerType, TacticName, Metadata``) when the
  engine was built with ``--profilingVerbosity=detailed``. A detailed layer
  lists its ``Inputs``, each with its type and layout in one text,
  ``"Format/Datatype"`` (TensorRT 8.2 to 10: ``"Row major linear FP8
  format"``, or a bare type such as ``"Half"`` for the kernels Myelin
  generates); TensorRT 11 splits it into ``"DataType"`` and ``"Format"``
  (NVIDIA's migration guide for IEngineInspector), so the type is read from
  whichever the layer gives.
* **Engine plan**: only its size in bytes is read.

Several arrays concatenated in one file (``cat profile_*.json``) are several
runs, kept apart and matched to the log's runs in order by the result
builders. Every file is read with the collectors' strict JSON decoder
(:func:`studygen.collect.inputs.decoder`): a repeated key or a number
beyond a double's range is refused at its JSON pointer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError
from ...fsutil import shown_path
from ...textio import regular_file
from ..inputs import is_number, load_json_values


def json_arrays(path: Path, display: str, what: str):
    """``(index, array, line, pointer)`` for each JSON value of a trtexec export (one,
    or several concatenated by a wrapper script; pointer ``/i`` then, else "").
    Raises InputError at the value's line when one is not a non-empty array."""
    values = load_json_values(path, display)
    for index, (value, line) in enumerate(values):
        if not isinstance(value, list) or not value:
            raise InputError(f"expected a non-empty JSON array of {what}", path=display, line=line)
        yield index, value, line, (f"/{index}" if len(values) > 1 else "")


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


# The timing keys of an --exportProfile row; a row holding none of them is no trtexec row.
PROFILE_TIME_KEYS = frozenset({"timeMs", "averageMs", "medianMs", "percentage"})


def parse_profile(path: Path, display: str | None = None) -> list[ProfileRun]:
    """Parse ``--exportProfile`` (one array or several concatenated). The
    leading ``{"count": N}`` is optional; rows need ``name`` and
    ``averageMs`` (``medianMs`` is absent in older files). Raises InputError."""
    display = display or shown_path(path)
    runs = []
    for index, value, line, pointer in json_arrays(path, display, "layer timings (trtexec --exportProfile)"):
        iterations = None
        items = value
        if isinstance(value[0], dict) and "count" in value[0] and "name" not in value[0]:
            count = value[0]["count"]
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise InputError("count must be a positive integer", path=display, pointer=f"{pointer}/0/count")
            iterations, items = count, value[1:]
        rows = []
        has_median = True
        positions: dict[str, int] = {}
        for position, layer in enumerate(items, start=len(value) - len(items)):
            if not isinstance(layer, dict) or not isinstance(layer.get("name"), str) or not layer["name"].strip():
                # a blank name, like a missing one, gives its time to no layer: it would only swell "unclassified"
                raise InputError("layer row without a name", path=display, pointer=f"{pointer}/{position}")
            if layer["name"] in positions:
                # an engine's layer names are unique: a second row would count the layer's time twice
                raise InputError(f"layer {layer['name']!r} is listed twice, at {pointer}/{positions[layer['name']]} and "
                                 f"{pointer}/{position}: its time would be counted twice; nothing recorded",
                                 path=display, pointer=f"{pointer}/{position}/name")
            positions[layer["name"]] = position
            average = layer.get("averageMs")
            if not PROFILE_TIME_KEYS & layer.keys() and layer.keys() - {"name"}:
                # a list of named rows some other tool wrote (a project's own layer table): say so, not "averageMs"
                raise InputError(f"unknown --exportProfile keys {sorted(layer)} (expected name with timeMs, averageMs, "
                                 "medianMs, percentage): not a trtexec layer profile", path=display,
                                 pointer=f"{pointer}/{position}")
            if not is_number(average) or average < 0:
                raise InputError("averageMs is missing or not a non-negative number", path=display,
                                 pointer=f"{pointer}/{position}/averageMs")
            median = layer.get("medianMs")
            if median is None:
                has_median = False
            elif not is_number(median) or median < 0:
                raise InputError("medianMs is not a non-negative number", path=display,
                                 pointer=f"{pointer}/{position}/medianMs")
            total = layer.get("timeMs", 0)
            if is_number(total) and total < 0:
                raise InputError("timeMs is negative", path=display, pointer=f"{pointer}/{position}/timeMs")
            rows.append((layer["name"], average, median, total if is_number(total) else 0))
        if not rows:
            raise InputError("the profile lists no layer", path=display, line=line)
        runs.append(ProfileRun(index=index, line=line, iterations=iterations, rows=rows, has_median=has_median))
    return runs


# --- exportLayerInfo and plan ------------------------------------------------

@dataclass(frozen=True)
class LayerKernel:
    """What a detailed layer entry says of the kernel that ran it: ``work``
    (its ``LayerType`` and ``ParameterType``, space-joined), ``tactic``
    (``TacticName``; None when not given) and ``input_types`` (each input's
    ``Format/Datatype``, or TensorRT 11's ``DataType``, in order; "" where
    an input states neither)."""

    work: str
    tactic: str | None
    input_types: tuple[str, ...]


@dataclass
class LayerInfo:
    """``--exportLayerInfo``: layers as dicts (name, and layer_type, tactic,
    origin when detailed), bindings, and for a detailed export each layer's
    kernel facts by layer name (``kernels``)."""

    layers: list[dict]
    bindings: list[str]
    detailed: bool
    kernels: dict[str, LayerKernel] = field(default_factory=dict)
    # (binding name, dims "1x3x224x224") of each network input a detailed export shows: a binding that some layer
    # reads and none writes, with every dimension a positive whole number (a dynamic one, -1, gives none)
    input_shapes: list[tuple[str, str]] = field(default_factory=list)

    def types(self) -> dict[str, str]:
        """Layer name → its type (``LayerType``), for the layers that have one."""
        return {layer["name"]: layer["layer_type"] for layer in self.layers if layer.get("layer_type")}

    def details(self) -> dict[str, str]:
        """Layer name → ``"<TacticName> <Metadata>"`` for grouping layers
        that neither their type nor their name places."""
        out = {}
        for layer in self.layers:
            text = " ".join(layer.get(k, "") for k in ("tactic", "origin")).strip()
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
        raise InputError("expected an object with a \"Layers\" list (trtexec --exportLayerInfo)", path=display, pointer="/Layers")
    layers, detailed, kernels = [], False, {}
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
            kernels[layer["Name"]] = layer_kernel(layer, display, f"/Layers/{index}")
        else:
            raise InputError("a layer must be a name or an object with \"Name\"", path=display, pointer=f"/Layers/{index}")
    bindings = document.get("Bindings") or []
    if not all(isinstance(b, str) for b in bindings):
        raise InputError("Bindings must be a list of names", path=display, pointer="/Bindings")
    return LayerInfo(layers=layers, bindings=bindings, detailed=detailed, kernels=kernels,
                     input_shapes=binding_input_shapes(document["Layers"], bindings))


def binding_input_shapes(layers: list, bindings: list[str]) -> list[tuple[str, str]]:
    """``[(name, "1x3x224x224")]``: the network inputs among ``bindings``
    as a detailed export's layers show them (a tensor some layer lists
    under ``Inputs`` and no layer under ``Outputs``), each once, with its
    ``Dimensions`` when every one is a positive whole number; empty for a
    names-only export. A binding's dimensions are the engine's logical
    shape (NCHW as the ONNX model gives it), whatever its format."""
    written = {tensor.get("Name") for layer in layers if isinstance(layer, dict)
               for tensor in layer.get("Outputs") or [] if isinstance(tensor, dict)}
    found: dict[str, str] = {}
    for layer in layers:
        if not isinstance(layer, dict):
            continue
        for tensor in layer.get("Inputs") or []:
            name = tensor.get("Name") if isinstance(tensor, dict) else None
            dims = tensor.get("Dimensions") if isinstance(tensor, dict) else None
            if name in bindings and name not in written and name not in found and isinstance(dims, list) and dims \
                    and all(type(d) is int and d > 0 for d in dims):
                found[name] = "x".join(str(d) for d in dims)
    return list(found.items())


# the keys an input names its type under: TensorRT 8.2 to 10 in one text with its layout, TensorRT 11 on its own
INPUT_TYPE_KEYS = ("Format/Datatype", "DataType")


def layer_kernel(layer: dict, display: str, pointer: str) -> LayerKernel:
    """The :class:`LayerKernel` of one detailed layer entry at ``pointer``.
    Raises InputError (naming the field's JSON pointer) for a ``TacticName``
    that is not text, ``Inputs`` that is not a list of objects, or an
    input type that is not text: the FP8 evidence is read from these, so
    a damaged one is refused rather than read as "not FP8"."""
    tactic = layer.get("TacticName")
    if tactic is not None and not isinstance(tactic, str):
        raise InputError("TacticName is not text", path=display, pointer=f"{pointer}/TacticName")
    inputs = layer.get("Inputs", [])
    if not isinstance(inputs, list):
        raise InputError("Inputs is not a list", path=display, pointer=f"{pointer}/Inputs")
    types = []
    for position, tensor in enumerate(inputs):
        if not isinstance(tensor, dict):
            raise InputError("an input is not an object", path=display, pointer=f"{pointer}/Inputs/{position}")
        key = next((k for k in INPUT_TYPE_KEYS if k in tensor), None)
        if key is not None and not isinstance(tensor[key], str):
            escaped = key.replace("/", "~1")  # a JSON pointer writes "/" in a key as "~1"
            raise InputError(f"{key} is not text", path=display, pointer=f"{pointer}/Inputs/{position}/{escaped}")
        types.append(tensor[key] if key is not None else "")
    work = " ".join(layer[k] for k in ("LayerType", "ParameterType") if isinstance(layer.get(k), str))
    return LayerKernel(work=work, tactic=tactic or None, input_types=tuple(types))


def plan_size_bytes(path: Path, display: str | None = None) -> int:
    """Size of an engine plan file in bytes (the file is not read). Raises
    InputError for a missing, empty or folder path, or a special file (a FIFO, a device)."""
    display = display or shown_path(path)
    size = regular_file(path, display, folder="is a folder, not an engine plan").st_size
    if size == 0:
        raise InputError("file is empty", path=display)
    return size

