"""Engine layers from trtexec ``--exportLayerInfo`` (see :mod:`.exports`):
one ``engine_layers`` result with the layer count, the layers (name, and
with ``--profilingVerbosity=detailed`` their type, tactic and origin) and
the engine's bindings, as TensorRT's engine inspector writes them (seen in
the TensorRT 8.6 detailed fixture and the DETR-R50 name-list fixture).
"""

from __future__ import annotations

from pathlib import Path

from ...records.kinds import Kind
from ...records.result import NewResult
from .common import ResultLabels, TrtexecInputs, base_result


def engine_layers_results(inputs: TrtexecInputs, labels: ResultLabels) -> list[NewResult]:
    """The ``engine_layers`` result of ``--layer-info`` (none without it),
    labelled with the command line's batch (layer info names no run)."""
    info = inputs.layer_info
    if info is None:
        return []
    result = dict(base_result(labels, labels.batch), kind=Kind.ENGINE_LAYERS, layer_count=len(info.layers),
                  detailed=info.detailed, layers=info.layers, bindings=info.bindings)
    result["source_locator"] = Path(inputs.layer_info_display).name
    return [NewResult(result, inputs.layer_info_display)]
