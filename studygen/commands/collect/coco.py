"""``studygen collect coco``: COCOeval bbox statistics of a detections file
against ground-truth annotations into a run record, with the dataset
definition of the images written (new id) or verified (known id)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import click

from ...collect import coco
from ...collect.inputs import input_sha256, under_recorded_reads
from ...records.datasets import DatasetUse, use_dataset, validate_dataset_id
from ...records.write import WriteOutcome, write_results
from .. import COLLECT_COMMANDS, command
from .ingest import SourceProvenance, origin_notes, prepare, provenance_block, report, shape_notes, warn
from .options import IngestOptions, SubcommandOptions, click_options, flag


@dataclass
class CocoOptions(SubcommandOptions):
    """Options of ``studygen collect coco``: ground truth, detections, the
    dataset id, the evaluator, what a new dataset definition says, what
    produced the detections, and the :class:`IngestOptions`."""

    subcommand: ClassVar[str] = "coco"
    ingest: IngestOptions
    annotations_path: Path = field(metadata=flag(
        "--annotations", required=True, type=click.Path(path_type=Path), help="COCO ground-truth annotations JSON."))
    detections_path: Path = field(metadata=flag(
        "--detections", required=True, type=click.Path(path_type=Path),
        help="Detections in the COCO results format (x, y, w, h in pixels)."))
    dataset_id: str = field(metadata=flag(
        "--dataset", required=True, help="Dataset id: DIR/FAMILY/datasets/ID.json is written, or verified when it exists."))
    backend: str = field(default="pycocotools", metadata=flag(
        "--backend", type=click.Choice(coco.BACKENDS), default="pycocotools", show_default=True,
        help="COCOeval implementation."))
    split: str = field(default="unspecified", metadata=flag(
        "--split", default="unspecified", show_default=True, help="Split named in a new dataset definition."))
    dataset_source: str | None = field(default=None, metadata=flag(
        "--dataset-source", help="Where the images come from, for a new dataset definition."))
    role: str = field(default="evaluation", metadata=flag(
        "--role", type=click.Choice(["evaluation", "reference", "calibration"]), default="evaluation",
        show_default=True, help="Role of a new dataset definition."))
    inference: str | None = field(default=None, metadata=flag(
        "--inference", type=click.Choice(["tensorrt", "pytorch", "onnxruntime", "other"]),
        help="Backend that produced the detections."))
    mode: str | None = field(default=None, metadata=flag(
        "--mode", type=click.Choice(["engine", "eager", "compile"]), help="Mode that produced the detections."))

    def __post_init__(self):
        self.annotations_path = Path(self.annotations_path)
        self.detections_path = Path(self.detections_path)


@dataclass
class CocoOutcome:
    """What ``collect coco`` did: the record written, the dataset definition
    written or verified (and its image count), the 12 statistics by name,
    the warning for an empty detections file (None otherwise) and the
    warnings with figures met while checking and evaluating (each also a
    note of the record)."""

    record: WriteOutcome
    dataset: DatasetUse
    images: int
    stats: dict[str, float]
    empty_warning: str | None = None
    warnings: list[str] = field(default_factory=list)


@under_recorded_reads
def run_coco(options: CocoOptions) -> CocoOutcome:
    """Check the inputs (refusing those that would give a wrong AP), write
    or verify the dataset definition, evaluate, and write or extend the
    record with the definition. Raises UsageError, InputError, RecordError,
    ConflictError; nothing is written when anything is raised."""
    ingest = options.ingest
    target = prepare(ingest)
    origins = options.origins()
    validate_dataset_id(options.dataset_id)  # same id rules as a job: it becomes a file name
    inputs = coco.read_inputs(options.annotations_path, options.detections_path)
    gt, detections, detections_display = inputs.gt, inputs.detections, inputs.detections.display

    def dataset_use() -> DatasetUse:
        return use_dataset(target.measurements, ingest.family, options.dataset_id, gt.image_ids, gt.display,
                           lambda: coco.dataset_definition(options.dataset_id, gt, split=options.split,
                                                           source=options.dataset_source, role=options.role),
                           records_dir=target.records_dir)

    dataset = dataset_use()  # refused here, before the evaluation, when the images differ from the definition's
    notes = list(dataset.notes)
    evaluation = coco.evaluate_checked(inputs, options.backend)
    stats, evaluation_notes = evaluation.stats, evaluation.notes
    warnings = inputs.warnings + evaluation.warnings
    # an empty list is a measurement (nothing detected: AP 0), recorded, but never silently
    empty_warning = None if detections else coco.no_detections_warning(detections_display)
    results = coco.build_results(stats, variant=target.variant, dataset=options.dataset_id, backend=options.backend,
                                 shape=ingest.shape, batch=ingest.batch, inference_backend=options.inference,
                                 mode=options.mode, origin=detections_display, note=empty_warning,
                                 tie_range=evaluation.tie_range,
                                 source=(options.detections_path.name, input_sha256(options.detections_path)))
    if not detections:
        notes.append(f"{detections_display} holds no detection: AP 0 where ground truth exists")
    notes += warnings + evaluation_notes
    notes = by_file_name(notes, {detections_display: options.detections_path.name,
                                 gt.display: options.annotations_path.name})
    notes += target.notes + shape_notes(ingest, options.detections_path.name)
    notes += origin_notes(origins)
    source = SourceProvenance(software={options.backend: coco.backend_version(options.backend)})
    provenance = provenance_block(ingest, "studygen collect coco", options.command_line(), source, notes)
    uses = [dataset]

    def dataset_files() -> list[tuple[Path, str]]:
        # again under the records folder's lock: another collect may have written the definition meanwhile
        uses.append(dataset_use())
        return uses[-1].files()

    record = write_results(target.measurements, ingest.family, ingest.job_id, provenance, results,
                           extra_files=dataset_files, records_dir=target.records_dir, replace=ingest.replace)
    return CocoOutcome(record, uses[-1], len(gt.images), stats, empty_warning, warnings)


def by_file_name(notes: list[str], names: dict[str, str]) -> list[str]:
    """``notes`` for the record, each opening with an input file as shown on
    stderr (the path as typed: ``/data/run7/dets.json names 35 of the 36
    annotated images``) naming it by its file name instead (``names``: shown
    path -> file name), as the record's other notes do (``dets.json: shape
    640x640 taken from --shape``): the collecting machine's folders say
    nothing to a reader of the README and differ from machine to machine.
    The command the record keeps still holds the paths as typed."""
    named = []
    for note in notes:
        for shown, name in names.items():
            if shown != name and note.startswith((f"{shown} ", f"{shown}:")):
                note = name + note[len(shown):]
                break
        named.append(note)
    return named


@command("coco", COLLECT_COMMANDS)
@click_options(CocoOptions)
@click_options(IngestOptions)
def coco_command(**params):
    """Refuses ground truth that would give a wrong AP (annotation ids 0 or
    repeated, images listed twice, boxes without size, no annotation, scores,
    areas no mask can have) and detections whose ids are not in the
    annotations, whose boxes have negative size, or that another box
    convention, category mapping or image mapping fits far better.
    """
    options = CocoOptions.from_params(params)
    outcome = run_coco(options)
    report(outcome.record)
    if outcome.dataset.created:
        click.echo(f"wrote {outcome.dataset.display}: dataset {options.dataset_id}, {outcome.images} images")
    else:
        click.echo(f"verified {outcome.dataset.display}: {outcome.images} images match")
    click.echo("  " + ", ".join(f"{name} {outcome.stats[name]:.4f}" for name in coco.STAT_NAMES))
    for warning in ([outcome.empty_warning] if outcome.empty_warning else []) + outcome.warnings:
        warn(warning)
