"""``studygen collect torch-profile``: kernel time per group from a PyTorch
profiler (Kineto) Chrome trace into a run record."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import click

from ...collect import torch_profile
from ...collect.inputs import stamp_digests, under_recorded_reads
from ...collect.kernel_dtypes import other_type_note
from ...collect.tf32 import tf32_note
from ...records.write import WriteOutcome, write_results
from .. import COLLECT_COMMANDS, command
from .ingest import (SourceProvenance, declared_precision, origin_notes, prepare, provenance_block, report,
                     shape_notes, warn)
from .options import IngestOptions, SubcommandOptions, click_options, flag


@dataclass
class TorchProfileOptions(SubcommandOptions):
    """Options of ``studygen collect torch-profile``: the trace, the PyTorch
    mode it was recorded in, the device whose kernels to read, and the
    :class:`IngestOptions`."""

    subcommand: ClassVar[str] = "torch-profile"
    ingest: IngestOptions
    trace_path: Path = field(metadata=flag(
        "--trace", required=True, type=click.Path(path_type=Path),
        help="Chrome trace from torch.profiler (.json or .json.gz)."))
    mode: str | None = field(default=None, metadata=flag(
        "--mode", type=click.Choice(["eager", "compile"]), help="PyTorch mode the trace was recorded in."))
    device: int | None = field(default=None, metadata=flag(
        "--device", type=click.IntRange(min=0),
        help="Device index whose kernels to read, for a trace holding kernels of several devices "
             "(refused without it: kernel time is never summed across devices)."))

    def __post_init__(self):
        self.trace_path = Path(self.trace_path)


@dataclass
class TorchProfileOutcome:
    """What ``collect torch-profile`` did: the record written, and the
    warnings for stderr (each also a provenance note of the record): the
    kernels the trace holds without their launch
    (:func:`~studygen.collect.torch_profile.unlaunched_notes`), and the
    kernels that ran TF32 under a variant declared fp32
    (:func:`~studygen.collect.tf32.tf32_note`), and those naming a 16-bit
    type the variant's precision contradicts
    (:func:`~studygen.collect.kernel_dtypes.other_type_note`)."""

    record: WriteOutcome
    warnings: list[str] = field(default_factory=list)


@under_recorded_reads
def run_torch_profile(options: TorchProfileOptions) -> TorchProfileOutcome:
    """Read the trace, build its kernel-time result and write or extend the
    record. Raises UsageError, InputError, RecordError, ConflictError;
    nothing is written when anything is raised."""
    target = prepare(options.ingest)
    origins = options.origins()
    trace = torch_profile.parse_trace(options.trace_path, device=options.device)
    results = torch_profile.build_results(trace, target.kernel_rules(), variant=target.variant,
                                          shape=options.ingest.shape, batch=options.ingest.batch, mode=options.mode)
    stamp_digests(results, [options.trace_path])
    notes = [] if trace.gpu else [f"{Path(trace.display).name} has no deviceProperties name for the kernels' device"]
    warnings = torch_profile.unlaunched_notes(trace)
    # without a study file the variant is only a name, and a name "fp32" is all that declares it
    precision = declared_precision(target) if target.spec is not None else target.variant
    launches = [(k.name, k.dur_ms) for k in trace.kernels]
    warnings += filter(None, [tf32_note(launches, Path(trace.display).name, target.variant, precision or ""),
                              other_type_note(launches, Path(trace.display).name, target.variant, precision or "")])
    notes += warnings
    notes += target.notes + shape_notes(options.ingest, Path(trace.display).name) + origin_notes(origins)
    source = SourceProvenance(gpu=trace.gpu, names_gpu=trace.gpu is not None, gpu_count=trace.gpu_count)
    provenance = provenance_block(options.ingest, "studygen collect torch-profile", options.command_line(), source,
                                  notes)
    record = write_results(target.measurements, options.ingest.family, options.ingest.job_id, provenance, results,
                           records_dir=target.records_dir, replace=options.ingest.replace)
    return TorchProfileOutcome(record, warnings)


@command("torch-profile", COLLECT_COMMANDS)
@click_options(TorchProfileOptions)
@click_options(IngestOptions)
def torch_profile_command(**params):
    """GPU kernel events only; ts/dur are µs. With ProfilerStep#N ranges the
    result is the mean per iteration, each iteration listed.
    """
    outcome = run_torch_profile(TorchProfileOptions.from_params(params))
    report(outcome.record)
    for warning in outcome.warnings:
        warn(warning)
