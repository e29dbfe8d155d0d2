"""The engine's own word on its precision: which compute layers of a
built engine ran below what the variant declares, read from a detailed
``--exportLayerInfo`` (:mod:`.exports`) or the layers a log prints
(:mod:`.printed_layers`).

:mod:`.precision` checks what the build allowed, from the log's
``Precision:`` line or flags; a run that loaded a plan, a strongly typed
build, or a layer info given without a log says nothing there. The layers
do: a layer runs at the type of its first (data) input, ``Row major Int8
format``, ``Channel major FP16 format where channel % 8 == 0``, ``Half``
(the TensorRT 8.0-10.16 fixtures), and at INT8 or FP8 when its tactic names
that math (``…_i8i8_i8i32_…``, ``…_imma…``, ``…int8x4…``; ``e4m3``,
``e5m2``). FP32, TF32 tactics (``f32f32_tf32f32``) and integer index
tensors (``Int32``, ``Int64``, ``UInt8``, ``Bool``) say nothing.

Not counted, since they compute nothing at a precision: layers that move or
convert data (``Reformat``, ``MyelinReformat``, ``NoOp``, ``Shuffle``,
``Constant``, ``Cast``, a quantize or dequantize layer), whatever their
tensors hold, and the copies TensorRT inserts itself between formats (named
``Reformatting CopyNode for ...`` by TensorRT, not by the model). A model's
layer name (which keeps its ``QuantizeLinear_7`` after fusion) is never read
as its type.

A layer's precision is allowed under a declared precision when it is that
precision, FP32, or wider (:data:`.precision.WIDTH`), the rule
:func:`.precision.contradiction` holds the build to: an FP16 engine keeps
some layers in FP32, an INT8 one FP16 and FP32 layers; INT8 or FP8 under
FP16, FP16 under FP32, or FP8 under INT8 is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from .common import TrtexecInputs
from .exports import LayerKernel
from .figures import shown
from .fp8 import FP8_TYPE
from .precision import BUILDER_NAME, WIDTH

# what a tensor's type text names, for the precisions a declared one can rule out; FP32 is always allowed
TYPE_WORDS = (("int8", re.compile(r"\bint8\b", re.IGNORECASE)),
              ("fp8", re.compile(r"\bfp8\b|float8|e4m3|e5m2", re.IGNORECASE)),
              ("fp16", re.compile(r"\bfp16\b|\bhalf\b", re.IGNORECASE)),
              ("bf16", re.compile(r"\bbf16\b|bfloat16", re.IGNORECASE)),
              ("int4", re.compile(r"\bint4\b", re.IGNORECASE)),
              ("fp4", re.compile(r"\bfp4\b|e2m1", re.IGNORECASE)))
# what a tactic's name says of its math; "i8" and "imma" only at a word's start ("_i8i8_", "_i8f32_",
# "_i8816cudnn_", "int8x4_imma_"), not inside a name a tactic carries ("__myl_Gemma_Dimma": an attack refused it)
TACTIC_WORDS = (("int8", re.compile(r"(?<![a-z0-9])(?:i8|int8|imma)", re.IGNORECASE)), ("fp8", FP8_TYPE))
DATA_MOVEMENT = re.compile(r"reformat|no-?op|shuffle|constant|\bcast\b|quantize", re.IGNORECASE)
COPY_NODE = "Reformatting CopyNode"


@dataclass(frozen=True)
class LowLayer:
    """A compute layer running below the declared precision: ``name``,
    ``precisions`` it runs at that are not allowed, ``why`` (what shows
    it, for messages) and where (``pointer`` into a layer info, else the
    log ``line``)."""

    name: str
    precisions: frozenset[str]
    why: str
    pointer: str | None = None
    line: int | None = None


def layer_precisions(kernel: LayerKernel) -> dict[str, str]:
    """Precision (lower-case, as :data:`.precision.WIDTH`) → what shows it,
    of one layer: its first input's type and its tactic; empty for a layer
    that moves or converts data (see the module docstring)."""
    if DATA_MOVEMENT.search(kernel.work):
        return {}
    found: dict[str, str] = {}
    if kernel.input_types and kernel.input_types[0]:
        for precision, pattern in TYPE_WORDS:
            if pattern.search(kernel.input_types[0]):
                found.setdefault(precision, f"input {shown(kernel.input_types[0])}")
    for precision, pattern in TACTIC_WORDS:
        if kernel.tactic and pattern.search(kernel.tactic):
            found.setdefault(precision, f"tactic {shown(kernel.tactic)}")
    return found


def not_allowed(declared: str, precisions: dict[str, str]) -> dict[str, str]:
    """The part of ``precisions`` that a variant declared ``declared`` (a
    study precision) does not allow: not the declared one and no wider than
    it (FP32 is wider than all but itself)."""
    wanted = BUILDER_NAME.get(declared, declared)
    return {p: why for p, why in precisions.items() if p != wanted and WIDTH[p] <= WIDTH[wanted]}


def low_layers(layers: list[tuple[str, LayerKernel, str | None, int | None]], declared: str) -> list[LowLayer]:
    """The layers of ``(name, kernel, pointer, line)`` running below
    ``declared``, in order; a layer named twice counts once."""
    low, seen = [], set()
    for name, kernel, pointer, line in layers:
        if name in seen or name.startswith(COPY_NODE):
            continue
        seen.add(name)
        if found := not_allowed(declared, layer_precisions(kernel)):
            low.append(LowLayer(name, frozenset(found), "; ".join(found.values()), pointer, line))
    return low


def engine_sources(inputs: TrtexecInputs) -> list[tuple[str, str, list]]:
    """``(display path, what to call it, layers)`` per source of layer
    facts: the detailed ``--layer-info`` (a names-only one says nothing),
    then each log run that printed its layers."""
    sources = []
    info = inputs.layer_info
    if info is not None and info.detailed:
        layers = [(layer["name"], info.kernels[layer["name"]], f"/Layers/{index}", None)
                  for index, layer in enumerate(info.layers) if layer["name"] in info.kernels]
        sources.append((inputs.layer_info_display, f"the layer info {Path(inputs.layer_info_display).name}", layers))
    log = inputs.log
    for run in log.every_run if log is not None else []:
        if run.printed_layers:
            layers = [(name, kernel, None, line) for name, (line, kernel) in run.printed_layers.items()]
            sources.append((log.display, f"the layers {run.label} of {log.basename} prints", layers))
    return sources


def check_engine_layers(inputs: TrtexecInputs, variant: str, declared: str | None, study_display: str | None,
                        override: str | None = None) -> list[str]:
    """Refuse (InputError at the first such layer's JSON pointer or log
    line) inputs whose engine runs compute layers at a precision the
    variant's ``declared`` precision does not allow (None: no study,
    nothing checked), unless ``override`` (checked non-blank by
    :func:`.precision.check_declared`) gives a reason: then the notes say
    what was recorded as declared, and why."""
    if declared is None:
        return []
    notes = []
    for display, called, layers in engine_sources(inputs):
        low = low_layers(layers, declared)
        if not low:
            continue
        names = sorted({p for layer in low for p in layer.precisions}, key=lambda p: (-WIDTH[p], p))
        precisions = " and ".join(p.upper() for p in names)
        first = low[0]
        what = (f"{called} shows {len(low)} compute layer{'s' if len(low) > 1 else ''} at {precisions} "
                f"(first {shown(first.name)}: {first.why})")
        if override is not None:
            notes.append(f"precision: variant {variant!r} is declared {declared} but {what}; recorded as declared: "
                         f"{' '.join(override.split())}")
            continue
        raise InputError(f"variant {variant!r} is declared {declared} in {study_display}, but {what}, which "
                         f"{declared} does not allow; collect it under a variant of that precision, or give "
                         "--override-precision REASON", path=display, pointer=first.pointer, line=first.line or 0)
    return notes
