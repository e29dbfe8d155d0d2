"""``studygen collect agreement``: agreement figures a user computed with a
script of their own (logit correlation, max abs diff, ... of each variant
against a reference variant, on one image set) into a run record."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import click

from ...collect import agreement
from ...collect.inputs import under_recorded_reads
from ...errors import InputError, UsageError
from ...fsutil import shown_path
from ...records.datasets import dataset_path
from ...records.jsonpos import pointer_part
from ...records.kinds import Kind
from ...records.load import load_dataset
from ...records.write import WriteOutcome, write_results
from .. import COLLECT_COMMANDS, command
from .ingest import IngestTarget, SourceProvenance, origin_notes, prepare, provenance_block, report, shape_notes
from .options import IngestOptions, SubcommandOptions, click_options, flag

BACKENDS = ("tensorrt", "pytorch", "onnxruntime", "other")


@dataclass
class AgreementOptions(SubcommandOptions):
    """Options of ``studygen collect agreement``: the figures file, what
    produced the outputs compared, the CPU they were computed on (for a run
    without a GPU), and the :class:`IngestOptions`."""

    subcommand: ClassVar[str] = Kind.AGREEMENT  # the command is named by the kind it records
    ingest: IngestOptions
    input_path: Path = field(metadata=flag(
        "--input", required=True, type=click.Path(path_type=Path),
        help="Figures file (JSON): reference_variant, dataset, figures {VARIANT: {METRIC: VALUE}}; see the study "
             "guide. With --variant, only that variant's figures are recorded."))
    backend: str | None = field(default=None, metadata=flag(
        "--backend", type=click.Choice(BACKENDS), help="Backend that produced the outputs compared."))
    mode: str | None = field(default=None, metadata=flag(
        "--mode", type=click.Choice(["engine", "eager", "compile"]), help="Mode that produced the outputs compared."))
    cpu: str | None = field(default=None, metadata=flag(
        "--cpu", metavar="MODEL", help="CPU model the outputs were computed on, for figures computed without a GPU "
                                       "(the record says no GPU); give --gpu MODEL instead for a GPU."))

    def __post_init__(self):
        self.input_path = Path(self.input_path)

    def validate(self) -> None:
        """``--cpu`` and ``--gpu`` exclude each other. Raises UsageError."""
        if self.cpu is not None and self.ingest.gpu is not None:
            raise UsageError("give --gpu MODEL or --cpu MODEL, not both: one record is one measuring machine")
        if self.cpu is not None and not self.cpu.strip():
            raise UsageError("--cpu needs the CPU model, e.g. --cpu 'AMD EPYC 7763 64-Core Processor'")


@under_recorded_reads
def run_agreement(options: AgreementOptions) -> WriteOutcome:
    """Read the figures file, check its variants and image set against the
    study, and write or extend the record. Raises UsageError, InputError,
    RecordError, ConflictError; nothing is written when anything is raised."""
    options.validate()
    ingest = options.ingest
    target = prepare(ingest, variant_in_input=True)
    origins = options.origins()
    figures = agreement.read_figures(options.input_path)
    variants = chosen_variants(figures, ingest.variant)
    check_against_study(figures, target)
    check_dataset(figures, target, ingest.family)
    results = agreement.build_results(figures, variants, shape=ingest.shape, batch=ingest.batch,
                                      backend=options.backend, mode=options.mode)
    notes = [agreement.provenance_note(figures)]
    if options.cpu is None and ingest.gpu is None:
        notes.append(f"{figures.path.name}: the machine the figures were computed on is not stated (give --gpu MODEL "
                     "or --cpu MODEL)")
    notes += target.notes + shape_notes(ingest, figures.path.name) + origin_notes(origins)
    provenance = provenance_block(ingest, "studygen collect agreement", options.command_line(), SourceProvenance(),
                                  notes)
    if options.cpu is not None:  # no GPU (gpu_count 0) and the CPU named, placed beside gpu as collect run places them
        machine = {"gpu": None, "gpu_count": 0, "cpu": " ".join(options.cpu.split())}
        provenance = {**machine, **{key: value for key, value in provenance.items() if key not in machine}}
    return write_results(target.measurements, ingest.family, ingest.job_id, provenance, results,
                         records_dir=target.records_dir, replace=ingest.replace)


def chosen_variants(figures: agreement.AgreementFigures, variant: str | None) -> list[str]:
    """The file's variants to record: all of them, or ``--variant``'s alone
    (InputError when the file has no figures for it)."""
    if variant is None:
        return list(figures.figures)
    if variant not in figures.figures:
        raise InputError(f"--variant {variant} but the file has figures of {', '.join(figures.figures)} only",
                         path=figures.display, pointer="/figures")
    return [variant]


def check_against_study(figures: agreement.AgreementFigures, target: IngestTarget) -> None:
    """Every variant the file names (the reference too) is one the study
    file declares, and the image set is the study's agreement set where it
    names one (``run.agreement_set``: SG205 holds a record to it); without a
    study file, nothing to check. Raises InputError at the pointer."""
    if target.spec is None:
        return
    declared = [variant["name"] for variant in target.spec.get("variants", [])]
    named = [("/reference_variant", figures.reference_variant)]
    named += [(f"/figures/{pointer_part(variant)}", variant) for variant in figures.figures]
    for pointer, variant in named:
        if variant not in declared:
            raise InputError(f"unknown variant {variant!r}: {target.study_display} declares {', '.join(declared)}",
                             path=figures.display, pointer=pointer)
    agreement_set = (target.spec.get("run") or {}).get("agreement_set")
    if agreement_set and figures.dataset != agreement_set:
        raise InputError(f"dataset {figures.dataset} but {target.study_display} names {agreement_set} as the "
                         "agreement set (/run/agreement_set)", path=figures.display, pointer="/dataset")


def check_dataset(figures: agreement.AgreementFigures, target: IngestTarget, family: str) -> None:
    """The file's dataset id has a definition in the family's records folder
    (``datasets/ID.json``: SG205 asks every agreement figure for one), valid,
    and of ``images`` inputs where the file states a count. Raises
    InputError naming the file's ``/dataset`` or ``/images``, RecordError
    for an invalid definition."""
    path = dataset_path(target.measurements, family, figures.dataset, target.records_dir)
    if not path.is_file():
        raise InputError(f"unknown dataset {figures.dataset!r}: no definition {shown_path(path)} (write it first: "
                         "the study guide's dataset definitions)", path=figures.display, pointer="/dataset")
    definition = load_dataset(path, shown_path(path)).data
    if figures.images is not None and figures.images != definition["count"]:
        raise InputError(f"images {figures.images} but dataset {figures.dataset} has {definition['count']} "
                         f"({shown_path(path)})", path=figures.display, pointer="/images")


@command(Kind.AGREEMENT, COLLECT_COMMANDS)
@click_options(AgreementOptions)
@click_options(IngestOptions)
def agreement_command(**params):
    """The file is one image set's figures: {"reference_variant": "fp32",
    "dataset": "ID", "figures": {"int8": {"logit_correlation": 0.99931,
    "max_abs_diff": 0.0412}}}, optionally with "images" (inputs compared),
    "computed_by" (how, in words) and "score_threshold"/"iou_threshold"
    (for precision and recall). Metrics: logit_correlation (-1 to 1),
    max_abs_diff (0 or more), nonfinite_count (a whole number), precision,
    recall and top1_agreement (0 to 1). The dataset needs a definition,
    DIR/FAMILY/datasets/ID.json. Each result keeps the file's name and the
    sha256 of its content; the machine is --gpu or --cpu, else recorded as
    not stated.
    """
    outcome = run_agreement(AgreementOptions.from_params(params))
    report(outcome)
