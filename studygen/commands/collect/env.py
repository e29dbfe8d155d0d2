"""``studygen collect env``: print this machine's provenance block, or merge
it into a record as its measuring or conversion machine."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import click

from ...collect.env import collect_env, collector_block
from ...errors import UsageError
from ...records.write import WriteOutcome, existing_record_path, merge_machine
from .. import COLLECT_COMMANDS, command
from .ingest import load_study_spec, project_root, records_place, report
from .options import click_options, flag, flag_values, optional_path


@dataclass
class EnvOptions:
    """Options of ``studygen collect env``. Rules between them: ``--family``
    and ``--job`` together or not at all; with them, a ``--role``;
    ``--replace`` only with ``--role measuring``, and not blank."""

    family: str | None = field(default=None, metadata=flag(
        "--family", help="With --job: merge the block into DIR/FAMILY/JOB.json."))
    job_id: str | None = field(default=None, metadata=flag("--job", help="Job id of the record to merge into."))
    role: str | None = field(default=None, metadata=flag(
        "--role", type=click.Choice(["measuring", "conversion"]),
        help="Merge as the measuring machine (provenance) or the conversion machine."))
    measurements_dir: Path | None = field(default=None, metadata=flag(
        "--measurements", type=click.Path(file_okay=False, path_type=Path),
        help="Records folder (default: measurements/ under the project root, or ./measurements)."))
    replace: str | None = field(default=None, metadata=flag(
        "--replace", metavar="REASON", help="With --role measuring: correct a driver or software version the record "
                                            "states otherwise (a value typed wrong); REASON is noted in the record."))
    no_torch: bool = field(default=False, metadata=flag(
        "--no-torch", is_flag=True, help="Do not import torch (no CUDA version from torch)."))

    def __post_init__(self):
        self.measurements_dir = optional_path(self.measurements_dir)

    @classmethod
    def from_params(cls, params: dict) -> "EnvOptions":
        return cls(**flag_values(cls, params))

    @property
    def merges(self) -> bool:
        """True when the block is merged into a record (``--family``/``--job`` given)."""
        return self.family is not None

    def validate(self) -> None:
        """Raises UsageError for ``--family`` without ``--job`` (or the other
        way round), either without ``--role``, or a ``--replace`` that is
        blank or not for ``--role measuring``."""
        if (self.family is None) != (self.job_id is None):
            raise UsageError("give both --family and --job to merge into a record, or neither to print")
        if self.family is not None and self.role is None:
            raise UsageError("give --role measuring (this machine measured the job) or --role conversion")
        if self.replace is not None and (self.role != "measuring" or not self.merges):
            raise UsageError("--replace corrects the measuring machine of a record: give it with --family, --job "
                             "and --role measuring")
        if self.replace is not None and not self.replace.strip():
            raise UsageError("--replace needs a reason (why the record's value is wrong), e.g. "
                             "--replace 'driver typed by hand'")


@dataclass
class EnvOutcome:
    """The block of this machine, and the record it was merged into (None when only printed)."""

    block: dict
    record: WriteOutcome | None = None


def env_block(options: EnvOptions) -> dict:
    """This machine's provenance block (:func:`studygen.collect.env.collect_env`,
    git state of the project root). When it is to be merged, the record
    must exist: UsageError before anything is collected."""
    options.validate()
    if options.merges:
        measurements, records_dir = record_folders(options)
        existing_record_path(measurements, options.family, options.job_id, records_dir)
    return collect_env(project_root(), with_torch=not options.no_torch)


def record_folders(options: EnvOptions) -> tuple[Path, Path]:
    """``(measurements, records_dir)`` of the record to merge into: where the
    family's study reads its records (:func:`.ingest.records_place`)."""
    spec, study_display = load_study_spec(options.family, None)
    return records_place(options.family, options.measurements_dir, spec, study_display)


def merge_env(options: EnvOptions, block: dict) -> WriteOutcome:
    """Merge ``block`` into the record of ``--family``/``--job`` as its
    ``--role`` machine (:func:`studygen.records.write.merge_machine`); the
    collector's version is made from the block's own reading of the project
    checkout (:func:`studygen.collect.env.collector_block`)."""
    collector = collector_block("studygen collect env", project_root() or Path.cwd(),  # where collect_env read git
                                reading=(block.get("repository_commit"), block.get("repository_dirty")))
    measurements, records_dir = record_folders(options)
    return merge_machine(measurements, options.family, options.job_id, block, options.role, collector, records_dir,
                         correct=options.replace)


def run_env(options: EnvOptions) -> EnvOutcome:
    """:func:`env_block`, then :func:`merge_env` when the options name a record."""
    block = env_block(options)
    return EnvOutcome(block, merge_env(options, block) if options.merges else None)


@command("env", COLLECT_COMMANDS)
@click_options(EnvOptions)
def env_command(**params):
    """GPU names and driver through nvidia-ml-py when present, CUDA (torch),
    Python, torch/transformers/ModelOpt/TensorRT versions when installed,
    git commit and dirty flag. Missing tools are listed in notes.
    """
    options = EnvOptions.from_params(params)
    block = env_block(options)
    click.echo(json.dumps(block, indent=2))  # printed before the merge, which may refuse
    if options.merges:
        report(merge_env(options, block))
