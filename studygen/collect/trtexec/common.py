"""What every trtexec result builder shares: the parsed inputs, the labels
the command line gives the results, a result's common fields, its timing
method and batch, and the matching of export arrays to the log's runs.

Reads no file itself: it works on what :mod:`.log` (console log, any
TensorRT version it reads) and :mod:`.exports` (``--exportTimes``,
``--exportProfile``, ``--exportLayerInfo``, plan size) parsed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError, UsageError
from ...records.unstated import shape_option_note, shape_read_note
from ..kernel_groups import KernelGroupRules
from .exports import LayerInfo, ProfileRun
from .times import TimesRun
from .runs import TrtexecLog, TrtexecRun, image_shape, measured_settings


@dataclass
class TrtexecInputs:
    """What ``collect trtexec`` was given (any may be None), each with the
    path as messages show it (``*_display``), ``notes`` the builders add
    for the record's provenance (what was left out, and why), and
    ``warnings``, lines for stderr that are notes of the record too (what
    the inputs print that no reader knows)."""

    log: TrtexecLog | None = None
    times: list[TimesRun] | None = None
    times_display: str | None = None
    profile: list[ProfileRun] | None = None
    profile_display: str | None = None
    layer_info: LayerInfo | None = None
    layer_info_display: str | None = None
    plan_bytes: int | None = None
    plan_display: str | None = None
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    fp8_evidence: dict[int | None, dict] = field(default_factory=dict)  # by run index (None: no log), see .fp8

    @property
    def runs(self) -> list[TrtexecRun]:
        """The log's runs in order; none without a log."""
        return self.log.runs if self.log else []


@dataclass(frozen=True)
class ResultLabels:
    """What the command line says every result measures: the study's
    ``variant``, the input ``shape`` HxW (None: not stated), the ``batch``
    (None: the log's, or not stated), the kernel-group ``rules`` that
    group layer times, and the ``precision`` the study file declares for
    the variant (None: no study file, or not declared)."""

    variant: str
    shape: str | None
    batch: int | None
    rules: KernelGroupRules
    precision: str | None = None


def base_result(labels: ResultLabels, batch: int | None, shape: str | None = None) -> dict:
    """The fields every trtexec result starts with, in record order: kind
    (set by the builder), variant, shape (``shape``, else the labels') and
    batch when known, backend ``tensorrt``, mode ``engine``."""
    result = {"kind": None, "variant": labels.variant}
    if shape or labels.shape:
        result["shape"] = shape or labels.shape
    if batch is not None:
        result["batch"] = batch
    result["backend"] = "tensorrt"
    result["mode"] = "engine"
    return result


def timing_method(run: TrtexecRun | None) -> dict:
    """A latency result's ``method``: timer ``trtexec``, and from the run (when
    there is one) CUDA graph, data transfers, spin-wait and separate profile
    run (:func:`.log.measured_settings`; None where unknown), the command,
    the flags that change what is measured, and the input shapes."""
    method = {"timer": "trtexec"}
    if run is None:
        return method
    settings = measured_settings(run)
    method.update(cuda_graph=settings["cuda_graph"], data_transfers=settings["data_transfers"],
                  spin_wait=settings["spin_wait"], separate_profile_run=settings["separate_profile_run"])
    if run.command:
        method["command"] = run.command
    if run.flags:
        method["flags"] = run.flags
    if run.input_shapes:
        method["input_shapes"] = run.input_shapes
    return method


def run_batch(run: TrtexecRun | None, batch_option: int | None, display: str) -> int | None:
    """The run's batch as the log states it (:meth:`.runs.TrtexecRun.stated_batch`:
    the leading dimension of explicit input shapes, else ``--batch=N`` /
    ``Batch: N``), else the ``--batch`` option. UsageError when both are
    given and differ."""
    log_batch, source = run.stated_batch() if run is not None else (None, None)
    if log_batch is not None and batch_option is not None and log_batch != batch_option:
        raise UsageError(f"--batch {batch_option} but {display} says batch {log_batch} for {run.label} ({source})")
    return log_batch if log_batch is not None else batch_option


def option_shape(shape_option: str | None, where: str, notes: list[str]) -> str | None:
    """The ``--shape`` option for results of an input that states no shape
    (``where``: the input as a note names it), with a note in ``notes``
    (once, :func:`studygen.records.unstated.shape_option_note`) saying the
    shape is the option's: a README marks it so. None without the option."""
    if shape_option is not None:
        note = shape_option_note(where, shape_option)
        if note not in notes:
            notes.append(note)
    return shape_option


def layer_info_shape(inputs: TrtexecInputs) -> tuple[str, str, str] | None:
    """``(HxW, where, what in it)`` of the image input a detailed
    ``--layer-info`` shows (:attr:`.exports.LayerInfo.input_shapes` read by
    :func:`.runs.image_shape`): the shape of the engine that ran, for
    inputs without a log (times and profile files state none). None
    without layer info, or where its inputs give no one HxW."""
    info = inputs.layer_info
    found = image_shape(info.input_shapes) if info is not None else None
    if found is None:
        return None
    bound = ", ".join(f"{name}={dims}" for name, dims in info.input_shapes)
    return found[0], Path(inputs.layer_info_display).name, f"its input binding {bound}, {found[1]}"


def run_shape(run: TrtexecRun | None, shape_option: str | None, display: str, notes: list[str],
              engine: tuple[str, str, str] | None = None) -> str | None:
    """The run's input shape HxW as the log states it
    (:meth:`.runs.TrtexecRun.stated_shape`), else, for inputs without a log,
    as the engine's layer info states it (``engine``,
    :func:`layer_info_shape`), with a note in ``notes`` (once) saying where
    it was read, else the ``--shape`` option, with a note saying so
    (:func:`option_shape`). UsageError when both are given and differ."""
    log_shape, source = run.stated_shape() if run is not None else (None, None)
    if log_shape is None and run is None and engine is not None:
        shape, where, source = engine
        if shape_option is not None and shape != shape_option:
            raise UsageError(f"--shape {shape_option} but {where} says {shape} ({source})")
        note = shape_read_note(where, shape, source)
        if note not in notes:
            notes.append(note)
        return shape
    if log_shape is None:
        where = f"{Path(display).name} {run.label}" if run is not None else Path(display).name
        return option_shape(shape_option, where, notes)
    if shape_option is not None and log_shape != shape_option:
        raise UsageError(f"--shape {shape_option} but {display} says {log_shape} for {run.label} ({source})")
    note = shape_read_note(f"{Path(display).name} {run.label}", log_shape, source)
    if note not in notes:
        notes.append(note)
    return log_shape


def run_base(labels: ResultLabels, run: TrtexecRun | None, display: str, notes: list[str],
             engine: tuple[str, str, str] | None = None) -> dict:
    """:func:`base_result` of one run: its batch (:func:`run_batch`) and
    shape (:func:`run_shape`) as the log states them, else the options';
    a note in ``notes`` (once) when the log prints two batches that
    disagree and no option gives one (:meth:`.runs.TrtexecRun.unread_batch`),
    which was left unsaid before."""
    batch = run_batch(run, labels.batch, display)
    if batch is None and run is not None and (why := run.unread_batch()):
        note = f"{Path(display).name} {run.label}: no batch recorded: {why}; give --batch N where it is known"
        if note not in notes:
            notes.append(note)
    return base_result(labels, batch, run_shape(run, labels.shape, display, notes, engine))


def transfers_off(run: TrtexecRun | None) -> bool:
    """True when the run measured without data transfers
    (``--noDataTransfers``): its H2D and D2H timings are zeros by
    construction, not latencies."""
    return run is not None and measured_settings(run)["data_transfers"] is False


def match_runs(count: int, log: TrtexecLog | None, what: str, display: str) -> list[TrtexecRun | None]:
    """The log run for each of ``count`` arrays of a ``what`` export file, in
    order; ``[None]`` for one array without a log. Raises InputError when
    several arrays come without a log, or the counts differ."""
    if log is None:
        if count > 1:
            raise InputError(f"holds {count} runs (concatenated arrays) but nothing tells them apart: give the --log "
                             "that produced them, so each run gets its batch", path=display)
        return [None]
    runs = log.runs
    if len(runs) != count:
        raise InputError(f"holds {count} run(s) but the log {log.display} has {len(runs)}: the arrays of a {what} "
                         "file are matched to the log's runs in order, so the counts must agree", path=display)
    return list(runs)


def profile_runs(inputs: TrtexecInputs) -> list[TrtexecRun | None]:
    """The log run that wrote each ``--profile`` array (:func:`match_runs`,
    in order): the kernel time and the FP8 evidence of an array belong to
    its run alone. Raises InputError naming both files when a matched run
    wrote no profile (:meth:`.runs.TrtexecRun.wrote_profile`: its ``Export
    profile to JSON file:`` line is empty, or its command line has no
    ``--exportProfile``): the array is then a profile of another run (a
    profiled run's layer times, or another engine's), and tying it to this
    run's latencies would record figures no run measured together. A run
    whose log says neither (captured part way) is taken as matched."""
    matched = match_runs(len(inputs.profile), inputs.log, "profile", inputs.profile_display)
    for array, run in zip(inputs.profile, matched):
        wrote, where = run.wrote_profile() if run is not None else (None, "")
        if wrote is False:
            raise InputError(f"array {array.index + 1} is matched to {run.label} of {inputs.log.display}, which "
                             f"wrote no profile ({where}): a profile of another run? nothing recorded",
                             path=inputs.profile_display, line=array.line)
    return matched
