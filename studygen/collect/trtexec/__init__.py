"""trtexec output → record results.

Readers: :mod:`.log` (the console log: runs, performance summaries,
settings, ``--dumpProfile`` tables; TensorRT 7 to 10.x), :mod:`.times`
(``--exportTimes``) and :mod:`.exports` (``--exportProfile``,
``--exportLayerInfo``, the plan file's size); :mod:`.align` matches a
times array to its log run (warm-up, the log's own summary). Result
builders, one per result kind: :mod:`.latency`, :mod:`.kernel_time`,
:mod:`.engine_layers`, :mod:`.plan_size`, sharing :mod:`.common`;
:mod:`.fp8` reads the FP8 evidence a latency carries; :mod:`.precision` holds a
run's build, and :mod:`.layer_precision` the engine's layers (:mod:`.printed_layers`
reads those a log prints), to the variant's precision; :mod:`.failed` turns a run trtexec reported FAILED into a not-measured result; :mod:`.no_result` says why a log gave none;
:mod:`.command` splits a run's command line as trtexec does, for every flag lookup. Each module's docstring names the formats and versions it
reads.

Runs are never pooled: each run of a log (for example one per batch size)
gives its own results, keyed by its batch; the arrays of a times or
profile file are matched to the log's runs in order.
"""

from __future__ import annotations

from pathlib import Path

from ...fsutil import shown_path
from ..kernel_groups import KernelGroupRules
from ...records.result import NewResult
from .common import ResultLabels, TrtexecInputs
from .engine_layers import engine_layers_results
from .failed import failed_results, refuse_unnamed_failure
from .exports import parse_layer_info, parse_profile, plan_size_bytes
from .fp8 import fp8_evidence_by_run
from .kernel_time import kernel_time_results
from .latency import latency_results
from .log import log_provenance, parse_log
from .plan_size import plan_size_results
from .times import parse_times

__all__ = ["BUILDERS", "refuse_unnamed_failure", "ResultLabels", "TrtexecInputs", "build_results", "log_provenance", "parse_layer_info",
           "parse_log", "parse_profile", "parse_times", "plan_size_bytes", "read_inputs"]

# One builder per result kind, in the order a record lists their results.
BUILDERS = (latency_results, kernel_time_results, engine_layers_results, plan_size_results, failed_results)


def read_inputs(log: Path | None, times: Path | None, profile: Path | None, layer_info: Path | None,
                plan: Path | None) -> TrtexecInputs:
    """Parse every given file, in this order (InputError on the first bad
    one); each reader names its file by :func:`studygen.fsutil.shown_path`,
    the display the builders' messages use too."""
    inputs = TrtexecInputs()
    if log is not None:
        inputs.log = parse_log(log)
    if times is not None:
        inputs.times_display = shown_path(times)
        inputs.times = parse_times(times)
    if profile is not None:
        inputs.profile_display = shown_path(profile)
        inputs.profile = parse_profile(profile)
    if layer_info is not None:
        inputs.layer_info_display = shown_path(layer_info)
        inputs.layer_info = parse_layer_info(layer_info)
    if plan is not None:
        inputs.plan_display = shown_path(plan)
        inputs.plan_bytes = plan_size_bytes(plan)
    return inputs


def build_results(inputs: TrtexecInputs, rules: KernelGroupRules, *, variant: str, shape: str | None,
                  batch: int | None, precision: str | None = None) -> list[NewResult]:
    """Results from every given trtexec input, builder by builder
    (:data:`BUILDERS`): latency per timing and run (headline: median;
    ``statistics_ms`` as printed), per-iteration distributions from
    ``--times`` attached to the matching run and timing, kernel time per
    group (``--profile``, else the log's ``--dumpProfile`` table), engine
    layers, plan size (``--plan`` in bytes, else the log's ``Created engine
    with size`` in MiB), a not-measured result per failed run. Each latency of a profiled run carries the run's
    ``fp8_evidence`` (:mod:`.fp8`) where the variant is declared
    ``precision`` fp8, or undeclared and FP8 kernels ran. Raises InputError
    / UsageError."""
    labels = ResultLabels(variant=variant, shape=shape, batch=batch, rules=rules, precision=precision)
    inputs.fp8_evidence = fp8_evidence_by_run(inputs, labels)
    return [result for builder in BUILDERS for result in builder(inputs, labels)]
