"""The steps every ingest subcommand shares, between its options and its
collector: where the record goes and which study it belongs to, the variant,
the kernel-group rules, the provenance block of a new record, and the line
it prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import click

from ...collect.env import collector_block, conversion_machine, now_iso
from ...collect.inputs import stored_sha256
from ...collect.kernel_groups import KernelGroupRules, rules_from_study
from ...errors import RecordError, UsageError
from ...fsutil import shown_path
from ...records.load import load_yaml
from ...records.provenance import DEFAULT_WEIGHTS_NOTE, DEFAULTED
from ...records.unstated import shape_option_note
from ...records.schemas import validate_document
from ...records.write import WriteOutcome
from ...study import (STUDY_FILE, at_yaml_line, find_root, refuse_invalid_patterns, refuse_special_study_file,
                      refuse_unportable_names)
from ...visible import visible
from ..common import resolve_root
from .options import IngestOptions, InputOrigin

DEFAULT_VARIANT = "unnamed"


@dataclass
class IngestTarget:
    """Where an ingest writes and under which study: the folder writes must
    stay in (``measurements``) and the family's records folder in it
    (``records_dir``: where the study reads them), the study file (``spec``,
    validated, and its display path; None outside a study), the variant, and
    ``notes`` for the record's provenance (e.g. a defaulted variant)."""

    measurements: Path
    spec: dict | None
    study_display: str | None
    variant: str | None
    notes: list[str] = field(default_factory=list)
    records_dir: Path | None = None

    def kernel_rules(self) -> KernelGroupRules:
        """The study file's kernel-group rules, or the defaults."""
        return rules_from_study(self.spec, self.study_display or "study.yaml")


def prepare(options: IngestOptions, variant_in_input: bool = False) -> IngestTarget:
    """Check the common options and find the study: family and job ids, the
    shape, the family known to the project, its study file, the variant.
    ``variant_in_input``: the input names its variants (a figures file), so
    without ``--variant`` the target's variant is None, the collector
    checking the input's. Raises UsageError (bad option, unknown family or
    variant), RecordError (bad study file)."""
    options.validate()
    root = project_root(options.root)
    if root is None and options.measurements_dir is None:
        # ./measurements/<family>/ of no project would be a record no render or check ever reads
        raise UsageError(f"no project here: no families/ folder in or above {Path.cwd()}; run studygen new FAMILY "
                         "first, give --root DIR (the project's folder), or --measurements DIR for a record that "
                         "belongs to no study")
    check_family_known(options.family, options.measurements_dir, options.study_file, root)
    spec, study_display = load_study_spec(options.family, options.study_file, root)
    options.study_model = (spec or {}).get("model")
    notes: list[str] = []
    variant = None if variant_in_input and options.variant is None else \
        resolve_variant(options.variant, spec, study_display, notes)
    measurements, records_dir = records_place(options.family, options.measurements_dir, spec, study_display, root)
    return IngestTarget(measurements, spec, study_display, variant, notes, records_dir)


def project_root(root: Path | None = None) -> Path | None:
    """``root`` (``--root``: it must hold families/, else UsageError), else
    the project root (folder holding families/) at or above the cwd, or None."""
    if root is not None:
        return resolve_root(root)
    try:
        return find_root()
    except UsageError:
        return None


def records_place(family: str, measurements_dir: Path | None, spec: dict | None,
                  study_display: str | None, root: Path | None = None) -> tuple[Path, Path]:
    """``(measurements, records_dir)``: the folder a collect's writes must
    stay in, and the family's records folder, where the study reads them.

    Without ``--measurements``, the study file's ``measurements:`` folder
    (relative to the project root, writes bounded by the root), else
    ``<root>/measurements/<family>``. With it, ``DIR/<family>``; inside the
    project, a DIR where the family's study does not read its records is
    refused (UsageError), since ``render`` and ``check`` would never see
    what is written there. ``root``: the project root (default: found above
    the working directory)."""
    root = root or project_root()
    study_records = root / spec["measurements"] if root is not None and spec and spec.get("measurements") else None
    if measurements_dir is None:
        if study_records is not None:
            return root, study_records
        base = (root or Path.cwd()) / "measurements"
        return base, base / family
    if spec is not None and root is not None:
        target = measurements_dir / family
        reads = study_records if study_records is not None else root / "measurements" / family
        inside = (root.resolve() == target.resolve()) or root.resolve() in target.resolve().parents
        if inside and target.resolve() != reads.resolve():
            raise UsageError(f"--measurements {measurements_dir} writes {shown_path(target)}/, but {study_display} "
                             f"reads the records of {family} from {shown_path(reads)}/: leave --measurements out, "
                             "or give a folder outside the project for a record that belongs to no study")
    return measurements_dir, measurements_dir / family


def load_study_spec(family: str, study_file: Path | None,
                    root: Path | None = None) -> tuple[dict | None, str | None]:
    """The study file for ``family`` (validated) and its display path, or
    ``(None, None)`` when there is none. Raises RecordError when invalid
    (at the study file's line of the key or value refused), UsageError when
    it is another family's."""
    if study_file is None:
        root = root or project_root()
        if root is None:
            return None, None
        study_file = root / "families" / family / STUDY_FILE
        if not study_file.is_file():
            return None, None
    shown = shown_path(study_file)
    spec, text = load_yaml(study_file, shown)
    if not isinstance(spec, dict):
        raise RecordError("study file must be a YAML mapping", path=shown, pointer="/")
    try:
        validate_document("study", spec, path=shown)
        refuse_unportable_names(spec, shown)
        refuse_invalid_patterns(spec, shown)
    except RecordError as exc:  # at the study file's line, as check and render name it
        raise at_yaml_line(exc, text) from None
    if spec.get("family") != family:
        raise UsageError(f"--family {family} but {shown} is the study of {spec.get('family')!r}")
    return spec, shown


def resolve_variant(variant: str | None, spec: dict | None, study_display: str | None,
                    notes: list[str] | None = None) -> str:
    """The variant: checked against the study's variants when there is a
    study file (its only variant is the default), else as given, else
    ``unnamed`` (with a note appended to ``notes``, as for a defaulted
    ``--weights``). Raises UsageError."""
    if spec is None:
        if variant is None and notes is not None:
            notes.append(f"--variant not given and no study file names one: results recorded as variant "
                         f"{DEFAULT_VARIANT!r} (the default)")
        return variant or DEFAULT_VARIANT
    names = [v["name"] for v in spec.get("variants", [])]
    if variant is None:
        if len(names) == 1:
            return names[0]
        raise UsageError(f"give --variant: {study_display} defines {', '.join(names)}")
    if variant not in names:
        raise UsageError(f"unknown variant {variant!r}: {study_display} defines {', '.join(names)}")
    return variant


def declared_precision(target: IngestTarget) -> str | None:
    """The precision the study file declares for the target's variant; None
    without a study file (a variant is then only a name)."""
    if target.spec is None:
        return None
    return next((v.get("precision") for v in target.spec.get("variants", []) if v["name"] == target.variant), None)


def check_family_known(family: str, measurements_dir: Path | None, study_file: Path | None,
                       root: Path | None = None) -> None:
    """Inside a project, a record of a family without
    ``families/<family>/study.yaml`` belongs to no study and ``studygen
    check`` would never see it: refuse (UsageError, naming the known
    families), unless ``--study`` is given or ``--measurements`` points
    outside the project (a record kept apart from any study)."""
    root = root or project_root()
    if study_file is not None or root is None:
        return
    if (root / "families" / family / STUDY_FILE).is_file():
        return
    refuse_special_study_file(root / "families" / family / STUDY_FILE)  # a folder or a FIFO is no missing study
    if measurements_dir is not None:
        try:
            measurements_dir.resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            return  # outside the project: not part of any study
    families_dir = root / "families"
    known = sorted(d.name for d in families_dir.iterdir() if (d / STUDY_FILE).is_file()) \
        if families_dir.is_dir() else []
    raise UsageError(f"unknown --family {family!r}: the project has no families/{family}/{STUDY_FILE} "
                     f"(known families: {', '.join(known) or 'none'}); give --measurements outside the project "
                     "for a record that belongs to no study")


@dataclass
class SourceProvenance:
    """What the input itself says about the measuring machine: the GPU
    (``names_gpu``: whether the input names one at all, so a ``--gpu`` that
    differs is a contradiction), its count, and software versions (None:
    known absent or unknown)."""

    gpu: str | None = None
    names_gpu: bool = False
    gpu_count: int | None = None
    software: dict = field(default_factory=dict)


def provenance_block(options: IngestOptions, collector: str, command: str, source: SourceProvenance,
                     notes: list[str]) -> dict:
    """The provenance a new record gets: the measuring GPU and software from
    the source (options fill what it does not state; disagreeing options
    are refused with UsageError), the checkpoint options, the collector
    (``collector`` and ``command``, the studygen command line) and this
    machine as the conversion machine."""
    option_gpu = options.gpu
    gpu = source.gpu
    if option_gpu and gpu and option_gpu != gpu and source.names_gpu:
        raise UsageError(f"--gpu {option_gpu!r} but the input names the GPU {gpu!r}")
    software = dict(source.software)
    for name, version in options.software_versions().items():
        if software.get(name) not in (None, version):
            raise UsageError(f"--software {name}={version} but the input says {name} {software[name]}")
        software[name] = version
    checkpoint = options.checkpoint_block()
    block = {"gpu": gpu or option_gpu}
    if source.gpu_count:
        block["gpu_count"] = source.gpu_count
    block.update(options.repository_block())
    block.update(software=software, checkpoint=checkpoint, collected_at=now_iso(),
                 collector=collector_block(collector, project_root(options.root), command=command),
                 conversion_machine=conversion_machine())
    notes = list(notes)
    if "weights" in checkpoint.get(DEFAULTED, []):
        notes.append(DEFAULT_WEIGHTS_NOTE)
    if notes:
        block["notes"] = notes
    return block


def shape_notes(options: IngestOptions, input_name: str) -> list[str]:
    """The note of a ``--shape`` given for an input that states no shape
    (a profiler trace, a detections file), named ``input_name``: the
    shape is the option's word, and a README marks it so
    (:func:`studygen.records.unstated.shape_option_note`); none without
    the option."""
    return [shape_option_note(input_name, options.shape)] if options.shape else []


def origin_notes(origins: list[tuple[InputOrigin, Path]]) -> list[str]:
    """One provenance note per input file with a stated origin (``--origin``):
    the option and file name, the first 12 hex digits of the file's sha256
    (so a reader can check that the published file is the one collected:
    the bytes the collector parsed, :func:`~studygen.collect.inputs.stored_sha256`),
    and the repository, commit and path it was published at."""
    notes = []
    for origin, path in origins:
        notes.append(f"input --{origin.input} {path.name} (sha256 {stored_sha256(path)[:12]}) was published in "
                     f"{origin.repository} at commit {origin.commit} as {origin.path}")
    return notes


def report(outcome: WriteOutcome) -> None:
    """One line on success (plus notes)."""
    state = "new record" if outcome.created else "record extended"
    if outcome.replaced:  # --replace dropped what the same inputs gave before and wrote the record anew
        click.echo(f"wrote {outcome.display}: {outcome.added} result(s) added in place of {outcome.replaced} "
                   "(record rewritten)")
    elif outcome.added:
        click.echo(f"wrote {outcome.display}: {outcome.added} result(s) added ({state})")
    elif outcome.provenance_filled:
        # a --replace correction notes "provenance.X corrected from ...": say so, not "filled in"
        done = "corrected" if any(" corrected from " in note for note in outcome.notes) else "filled in"
        click.echo(f"wrote {outcome.display}: no new result, provenance {done}")
    else:
        click.echo(f"{outcome.display}: nothing new, the record is unchanged")
    for note in outcome.notes:
        click.echo(f"  note: {visible(note)}")


def warn(warning: str) -> None:
    """One warning line on stderr; what it quotes from an input (a kernel's name, a log's line) has its
    control characters shown as escapes (:func:`~studygen.visible.visible`): a newline in a trace's
    kernel name split the line in two, and a BEL or ESC reached the terminal."""
    click.echo(f"studygen: warning: {visible(warning)}", err=True)
