"""``studygen collect trtexec``: trtexec console log, --exportTimes,
--exportProfile, --exportLayerInfo and plan size into a run record."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import click

from ...collect import trtexec
from ...collect.inputs import stamp_digests, under_recorded_reads
from ...collect.trtexec.no_result import no_result_error
from ...collect.trtexec.layer_precision import check_engine_layers
from ...collect.trtexec.precision import check_declared
from ...errors import UsageError
from ...records.write import WriteOutcome, write_results
from .. import COLLECT_COMMANDS, command
from .ingest import SourceProvenance, declared_precision, origin_notes, prepare, provenance_block, report, warn
from .options import IngestOptions, SubcommandOptions, click_options, flag, optional_path

PATH = click.Path(path_type=Path)


@dataclass
class TrtexecOptions(SubcommandOptions):
    """Options of ``studygen collect trtexec``: the trtexec files (at least
    one) and the :class:`IngestOptions`."""

    subcommand: ClassVar[str] = "trtexec"
    ingest: IngestOptions
    log_path: Path | None = field(default=None, metadata=flag("--log", type=PATH, help="trtexec console log."))
    times_path: Path | None = field(default=None, metadata=flag(
        "--times", type=PATH, help="--exportTimes JSON (arrays may be concatenated)."))
    profile_path: Path | None = field(default=None, metadata=flag(
        "--profile", type=PATH, help="--exportProfile JSON (arrays may be concatenated)."))
    layer_info_path: Path | None = field(default=None, metadata=flag(
        "--layer-info", type=PATH, help="--exportLayerInfo JSON. Exported with --profilingVerbosity=detailed and "
                                        "joined with --profile (or the log's --dumpProfile table), it gives an FP8 "
                                        "variant's latencies their fp8_evidence: the FP8 GEMM and convolution "
                                        "layers that ran, with their tactics and times."))
    plan_path: Path | None = field(default=None, metadata=flag(
        "--plan", type=PATH, help="Engine plan file (its size in bytes is recorded)."))
    override_precision: str | None = field(default=None, metadata=flag(
        "--override-precision", metavar="REASON",
        help="Record the log under the variant although its build allowed, or its engine's layers (a detailed "
             "--layer-info, or the layers the log prints) ran at, a precision the variant declares no room for "
             "(refused without it), recording REASON."))

    def __post_init__(self):
        for name in ("log_path", "times_path", "profile_path", "layer_info_path", "plan_path"):
            setattr(self, name, optional_path(getattr(self, name)))


    def validate(self) -> None:
        """At least one trtexec file. Raises UsageError."""
        if not any((self.log_path, self.times_path, self.profile_path, self.layer_info_path, self.plan_path)):
            raise UsageError("give at least one of --log, --times, --profile, --layer-info, --plan")


@dataclass
class TrtexecOutcome:
    """What ``collect trtexec`` did: the record written, and the warnings
    for stderr (each also a note of the record): what the inputs print that
    no reader knows, left unread."""

    record: WriteOutcome
    warnings: list[str] = field(default_factory=list)


@under_recorded_reads
def run_trtexec(options: TrtexecOptions) -> TrtexecOutcome:
    """Read the trtexec files, build their results and write or extend the
    record. Raises UsageError (also when the inputs give no result, with
    the warnings), InputError, RecordError, ConflictError; nothing is
    written when anything is raised."""
    options.validate()
    target = prepare(options.ingest)
    origins = options.origins()
    inputs = trtexec.read_inputs(options.log_path, options.times_path, options.profile_path, options.layer_info_path,
                                 options.plan_path)
    trtexec.refuse_unnamed_failure(inputs.log, options.ingest.variant is not None or target.spec is not None)
    results = trtexec.build_results(inputs, target.kernel_rules(), variant=target.variant, shape=options.ingest.shape,
                                    batch=options.ingest.batch, precision=declared_precision(target))
    stamp_digests(results, [path for path in (options.log_path, options.times_path, options.profile_path) if path])
    if not results and inputs.warnings:
        raise UsageError(f"nothing to record: the inputs gave no result ({'; '.join(inputs.warnings)})")
    if not results and inputs.log is not None:
        raise no_result_error(inputs.log)
    gpu, version, log_notes = trtexec.log_provenance(inputs.log, options.ingest.gpu,
                                                     options.ingest.software_versions().get("tensorrt"))
    precision_notes = check_declared(inputs.log, target.variant, declared_precision(target), target.study_display,
                                     options.override_precision)
    precision_notes += check_engine_layers(inputs, target.variant, declared_precision(target), target.study_display,
                                           options.override_precision)
    notes = log_notes + inputs.notes + inputs.warnings + target.notes + precision_notes + origin_notes(origins)
    if inputs.log is None:
        notes.append("no trtexec log given: the measuring GPU and TensorRT version come from options only")
    source = SourceProvenance(gpu=gpu, names_gpu=inputs.log is not None, software={"tensorrt": version})
    provenance = provenance_block(options.ingest, "studygen collect trtexec", options.command_line(), source, notes)
    record = write_results(target.measurements, options.ingest.family, options.ingest.job_id, provenance, results,
                           records_dir=target.records_dir, replace=options.ingest.replace)
    return TrtexecOutcome(record, inputs.warnings)


@command("trtexec", COLLECT_COMMANDS)
@click_options(TrtexecOptions)
@click_options(IngestOptions)
def trtexec_command(**params):
    """Each run of a log (and each array of a concatenated times or profile
    file, matched to the log's runs in order) gives its own results, keyed
    by its batch. The measuring GPU and TensorRT version come from the log.
    """
    outcome = run_trtexec(TrtexecOptions.from_params(params))
    report(outcome.record)
    for warning in outcome.warnings:
        warn(warning)
