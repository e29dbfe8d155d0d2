"""Engine plan size from trtexec: the plan file's size in bytes (``--plan``),
else the console log's ``Created engine with size: X MiB`` line, printed
when trtexec builds the engine (seen in the TensorRT 10.16 fixture; see
:mod:`.log`), one result per run that printed it.
"""

from __future__ import annotations

from pathlib import Path

from ...records.kinds import Kind
from ...records.result import NewResult
from .common import ResultLabels, TrtexecInputs, base_result, option_shape, run_base

LOG_SIZE_NOTE = "as trtexec printed it when building the engine (MiB); give --plan for the size in bytes"


def plan_size_results(inputs: TrtexecInputs, labels: ResultLabels) -> list[NewResult]:
    """``plan_size`` results: one in bytes for ``--plan`` (labelled with the
    command line's batch), else one in MiB per log run that printed the
    engine size. Raises UsageError for a ``--batch`` the log contradicts."""
    if inputs.plan_bytes is not None:
        shape = option_shape(labels.shape, Path(inputs.plan_display).name, inputs.notes)  # a plan file states none
        result = dict(base_result(labels, labels.batch, shape), kind=Kind.PLAN_SIZE, value_bytes=inputs.plan_bytes)
        result["source_locator"] = Path(inputs.plan_display).name
        return [NewResult(result, inputs.plan_display)]
    log = inputs.log
    out = []
    for run in inputs.runs:
        if run.engine_size_mib is None:
            continue
        base = run_base(labels, run, log.display, inputs.notes)
        result = dict(base, kind=Kind.PLAN_SIZE, value_mib=run.engine_size_mib, note=LOG_SIZE_NOTE)
        result["source_locator"] = f"{log.basename}:{run.engine_size_line}"
        out.append(NewResult(result, f"{log.display}:line {run.engine_size_line}"))
    return out
