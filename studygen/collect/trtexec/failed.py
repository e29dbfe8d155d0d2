"""Runs trtexec closed with ``&&&& FAILED`` → ``not_measured`` results.

A failed run (an engine that did not build at the precision asked, an
input it could not parse) measured nothing, but that the configuration
was tried and failed is a finding a README must state: each failed run of
a log (:attr:`.runs.TrtexecLog.failed`) gives one ``not_measured`` result
for the variant collect names and the shape and batch the run
states (else the options'), whose reason says trtexec reported FAILED, at
which line, and the run's ``[E]`` lines when it printed any: the first
(TensorRT's own words on why) and the last (:func:`failure_reason`). The metric is ``latency``, or ``plan_size`` for a
build-only run (``--skipInference``/``--buildOnly``), which times nothing.
A failed run whose variant, shape and batch a passed run of the same log
measured gives nothing (failed, fixed, run again: one log holding both
said "measured" and "not measured" of one configuration). The variant is
collect's ``--variant`` (or the study file's only one): trtexec's command
line names none.
"""

from __future__ import annotations

from ...errors import InputError
from ...records.kinds import Kind
from ...records.result import NewResult
from .common import ResultLabels, TrtexecInputs, run_base
from .no_result import BUILD_ONLY_FLAGS
from .runs import TrtexecLog, TrtexecRun

MAX_SHOWN = 200  # characters of an [E] line quoted in a reason


def failure_reason(log: TrtexecLog, run: TrtexecRun) -> str:
    """Why ``run`` has no figure, in words: trtexec reported FAILED (the
    closing line's number in ``log``) and its ``[E]`` lines, each quoted
    (cut to :data:`MAX_SHOWN` characters) with its line number: the only
    one, or the first and the last, or that the run printed none. The
    first is TensorRT's own words on the cause, which trtexec follows with
    its own consequences (``Failed to parse onnx file``, then ``Parsing
    model failed`` … ``Engine set up failed``, a TensorRT 7.2 ONNX parse
    failure): quoting the last alone named a consequence, not the cause."""
    reason = f"trtexec reported FAILED ({log.basename} line {run.status_line})"
    if not run.errors:
        return f"{reason}; the run printed no error line ([E]) before it"
    (first_line, first), (line, message) = run.errors[0], run.errors[-1]
    if len(run.errors) == 1:
        return f"{reason}; its last error (line {line}): {_cut(message)}"
    return (f"{reason}; its first error (line {first_line}): {_cut(first)}; its last of {len(run.errors)} "
            f"(line {line}): {_cut(message)}")


def _cut(message: str) -> str:
    return message if len(message) <= MAX_SHOWN else message[:MAX_SHOWN - 3] + "..."


def failed_results(inputs: TrtexecInputs, labels: ResultLabels) -> list[NewResult]:
    """One ``not_measured`` result per failed run of the log (see the module
    docstring). Raises UsageError for a ``--shape`` or ``--batch`` the run
    contradicts (:func:`.common.run_base`)."""
    log = inputs.log
    if log is None:
        return []
    passed = {_configuration(run_base(labels, run, log.display, [])) for run in log.runs}
    out = []
    for run in log.failed:
        base = run_base(labels, run, log.display, inputs.notes)
        if _configuration(base) in passed:  # failed, then run again and measured in the same log: that run's figures stand
            continue
        build_only = any(run.flag(flag) is not None for flag in BUILD_ONLY_FLAGS)
        result = dict(base, kind=Kind.NOT_MEASURED,
                      metric=Kind.PLAN_SIZE if build_only else Kind.LATENCY, reason=failure_reason(log, run))
        result["source_locator"] = f"{log.basename}:{run.status_line}"
        out.append(NewResult(result, f"{log.display}:line {run.status_line}"))
    return out


def _configuration(base: dict) -> tuple:
    """What a run of one log measures, as far as a failure can say: its variant, shape and batch."""
    return base.get("variant"), base.get("shape"), base.get("batch")


def refuse_unnamed_failure(log: TrtexecLog | None, variant_named: bool) -> None:
    """InputError at the first failed run's opening line when ``log`` has a
    failed run but nothing names the variant it tried (no ``--variant`` and
    no study file to take the only variant from): a not-measured result
    under a made-up variant would say nothing true."""
    if log is None or not log.failed or variant_named:
        return
    run = log.failed[0]
    raise InputError(f"trtexec reported FAILED for {run.label}; nothing recorded: give --variant (and --shape) to "
                     "record the configuration it tried as not measured", path=log.display, line=run.line)
