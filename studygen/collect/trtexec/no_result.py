"""Why a trtexec console log gave no result, in words for the refusal of
``collect trtexec``: which run, and what it lacks or skipped.

A **build-only** run (``--skipInference`` since TensorRT 8.6, ``--buildOnly``
before) builds or loads an engine and times nothing: trtexec says so in its
command line, in the Inference Options (``Skip inference: Enabled``) and at
the end (``Skipped inference phase since --skipInference is added.``). Any
other run that passed with nothing this reader records (no performance
summary, no ``--dumpProfile`` table, no ``Created engine with size`` line)
is one whose log was cut or edited.
"""

from __future__ import annotations

from ...errors import InputError
from .runs import TrtexecLog, TrtexecRun

BUILD_ONLY_FLAGS = ("--skipInference", "--buildOnly")


def _build_only_flag(run: TrtexecRun) -> str | None:
    return next((flag for flag in BUILD_ONLY_FLAGS if run.flag(flag) is not None), None)


def _why(run: TrtexecRun) -> tuple[str, int]:
    """``(why run gave no result, the line that shows it best)``."""
    built = f" built an engine (line {run.engine_built_line}) and" if run.engine_built_line else ""
    flag = _build_only_flag(run)
    if flag or run.skipped_inference:
        evidence = [f"its command line has {flag}"] if flag else []
        if run.skipped_inference:
            line, message = run.skipped_inference[-1]
            evidence.append(f"line {line} says {message!r}")
        shown = run.skipped_inference[-1][0] if run.skipped_inference else run.line
        return f"{run.label}{built} ran no inference: {', and '.join(evidence)}", shown
    ended = f"passed (line {run.status_line})" if run.status_line else "ended"
    return (f"{run.label}{built} {ended} without a performance summary, a --dumpProfile table or an engine size "
            f"('Created engine with size'), and its command line has no {BUILD_ONLY_FLAGS[0]}: "
            "the log was cut or edited?"), run.line


def no_result_error(log: TrtexecLog) -> InputError:
    """The refusal for a ``log`` none of whose runs gave a result, naming the
    log, each run and why (see the module docstring), at the line that shows
    the first run's cause; for build-only runs, what to collect instead (the
    plan a ``--saveEngine`` flag names, for its size)."""
    reasons = [_why(run) for run in log.runs]
    message = "; ".join(reason for reason, _ in reasons)
    build_only = [run for run in log.runs if _build_only_flag(run) or run.skipped_inference]
    if build_only:
        plans = [plan for run in build_only if (plan := run.flag("--saveEngine"))]
        plan = f", and its size with --plan {plans[0]}" if plans else ""
        message += f"; a build-only log has no timings (collect the log of a run that times the engine{plan})"
    return InputError(f"nothing to record: {message}", path=log.display, line=reasons[0][1])
