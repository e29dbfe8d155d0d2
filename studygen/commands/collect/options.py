"""Options of the ``studygen collect`` ingest commands (cog-style: each
field next to its flag, the rules between flags in one place).

Every options class is a dataclass whose fields carry their flag in
``metadata`` (:func:`flag`); :func:`click_options` turns the fields into
click options in field order, :func:`flag_values` reads them back from
click's parameters, and :func:`command_line` rebuilds the command a set of
options stands for (recorded as ``provenance.collector.command``). So a
Python caller builds the same options object the command line does, and
both run through the same function (``run_trtexec(TrtexecOptions(...))``).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import ClassVar

import click

from ...errors import UsageError
from ...records.checkpoints import revision_problem
from ...records.provenance import CHECKPOINT_DEFAULTS, DEFAULTED, FROM_STUDY
from ...records.names import validate_family_name, validate_job_id
from ...study.model_revisions import allowed_revisions, describe_allowed, names_model, names_revision

SHAPE = re.compile(r"[1-9][0-9]*x[1-9][0-9]*")  # HxW, as studygen.collect.run.spec.SHAPE; matched whole
FLAG = "flag"


def flag(*decls: str, **attrs) -> dict:
    """Field metadata naming the click option that sets the field: its
    option strings (``"--job"``) and click's keyword arguments (``help``,
    ``type``, ``default``, ``required``, ``multiple``, ``is_flag``). The
    field's name is the option's parameter name."""
    return {FLAG: (decls, attrs)}


def flagged(cls) -> list:
    """The dataclass fields of ``cls`` that carry a flag, in order."""
    return [f for f in fields(cls) if FLAG in f.metadata]


def click_options(cls):
    """A decorator adding the click option of every flagged field of ``cls``
    (in field order, as ``--help`` lists them)."""
    def decorate(func):
        for item in reversed(flagged(cls)):
            decls, attrs = item.metadata[FLAG]
            func = click.option(*decls, item.name, **attrs)(func)
        return func

    return decorate


def flag_values(cls, params: dict) -> dict:
    """``{field: value}`` of the flagged fields of ``cls`` from click's ``params``."""
    return {item.name: params[item.name] for item in flagged(cls)}


def command_line(subcommand: str, *option_sets) -> str:
    """``studygen collect SUBCOMMAND --flag value …`` for the given options
    objects, in order: a flag set to its default (or not set) is left out,
    a required one never; a repeated flag appears once per value."""
    parts = ["studygen", "collect", subcommand]
    for options in option_sets:
        for item in flagged(type(options)):
            decls, attrs = item.metadata[FLAG]
            value = getattr(options, item.name)
            if value in (None, False, (), attrs.get("default")) and not (attrs.get("required") and value):
                continue
            for one in (value if isinstance(value, tuple) else (value,)):
                parts.extend([decls[0]] if one is True else [decls[0], str(one)])
    return " ".join(shlex.quote(p) for p in parts)


def optional_path(value) -> Path | None:
    """``value`` as a Path (Python callers may pass a str); None stays None."""
    return None if value is None else Path(value)


@dataclass
class IngestOptions:
    """The options every ingest subcommand (trtexec, torch-profile, coco)
    shares: where the record goes and what it measured."""

    family: str = field(metadata=flag("--family", required=True, help="Model family (records go to DIR/FAMILY/)."))
    job_id: str = field(metadata=flag("--job", required=True, help="Job id: the record is DIR/FAMILY/JOB.json."))
    variant: str | None = field(default=None, metadata=flag(
        "--variant", help="Variant name from the study file (precision and recipe)."))
    shape: str | None = field(default=None, metadata=flag("--shape", help="Input shape HxW in pixels, e.g. 800x1067."))
    batch: int | None = field(default=None, metadata=flag(
        "--batch", type=click.IntRange(min=1), help="Batch size, when the input does not state it."))
    measurements_dir: Path | None = field(default=None, metadata=flag(
        "--measurements", type=click.Path(file_okay=False, path_type=Path),
        help="Records folder (default: measurements/ under the project root; outside a project, give it or --root)."))
    root: Path | None = field(default=None, metadata=flag(
        "--root", type=click.Path(file_okay=False, path_type=Path),
        help="Project root (the folder holding families/). Default: walk up from the working directory."))
    study_file: Path | None = field(default=None, metadata=flag(
        "--study", type=click.Path(dir_okay=False, path_type=Path),
        help="Study file (default: families/FAMILY/study.yaml under the project root, when present)."))
    checkpoint: str | None = field(default=None, metadata=flag(
        "--checkpoint", help="Checkpoint measured, ID or ID@REVISION (default: the study file's checkpoint, else unknown)."))
    weights: str | None = field(default=None, metadata=flag(
        "--weights", type=click.Choice(["pretrained", "random-init"]),
        help="Weights of the checkpoint (default for a new record: pretrained, noted as a default)."))
    gpu: str | None = field(default=None, metadata=flag("--gpu", help="Measuring GPU model, when the input does not name it."))
    software: tuple[str, ...] = field(default=(), metadata=flag(
        "--software", multiple=True, metavar="NAME=VERSION",
        help="A software version of the measuring machine (repeatable), when the input does not state it."))
    driver: str | None = field(default=None, metadata=flag(
        "--driver", metavar="VERSION", help="GPU driver version of the measuring machine."))
    commit: str | None = field(default=None, metadata=flag(
        "--commit", metavar="SHA", help="Repository commit of the code that made the measured engine or run "
                                        "(7 to 40 hex digits; check asks every collected record for one)."))
    dirty: bool = field(default=False, metadata=flag(
        "--dirty", is_flag=True, help="The working tree at --commit had uncommitted changes."))
    replace: str | None = field(default=None, metadata=flag(
        "--replace", metavar="REASON", help="Replace the results this job took from the same input files "
                                            "(a fixed option, a rerun), and its earlier run of each configuration "
                                            "(variant, shape, batch) the new input measures again, whatever that "
                                            "run's file name; REASON is recorded in the record."))
    origin: tuple[str, ...] = field(default=(), metadata=flag(
        "--origin", multiple=True, metavar="INPUT=REPOSITORY@COMMIT:PATH",
        help="Where an input file was published (repeatable), e.g. log=NVIDIA/TensorRT@1a2b3c4:samples/run.log; "
             "INPUT is the option that names the file (log, times, trace, ...). Recorded in the record's notes "
             "with the file's sha256."))
    # Not a flag: the study file's model (id, revision, weights, seed), set by
    # prepare() so a checkpoint not given on the command line comes from it.
    study_model: dict | None = field(default=None, repr=False)

    def __post_init__(self):
        self.measurements_dir = optional_path(self.measurements_dir)
        self.root = optional_path(self.root)
        self.study_file = optional_path(self.study_file)
        self.software = tuple(self.software)
        self.origin = tuple(self.origin)

    @classmethod
    def from_params(cls, params: dict) -> "IngestOptions":
        return cls(**flag_values(cls, params))

    def validate(self) -> None:
        """The rules on these flags alone: family and job ids and a variant
        name that can be file names, a shape HxW. Raises UsageError."""
        validate_family_name(self.family)
        validate_job_id(self.job_id)
        if self.variant is not None:  # a variant names files too (collect run's detections/<job>/<variant>.json)
            validate_job_id(self.variant, "variant name")
        check_shape(self.shape)
        check_commit(self.commit)
        if self.driver is not None:
            check_version(f"--driver {self.driver}", self.driver)
        parse_software(self.software)
        for text in self.origin:
            parse_origin(text)
        if self.dirty and not self.commit:
            raise UsageError("--dirty says the tree at --commit had changes: give --commit SHA too")

    def software_versions(self) -> dict[str, str]:
        """``--software NAME=VERSION …`` as ``{name: version}``. Raises UsageError."""
        return parse_software(self.software)

    def checkpoint_block(self) -> dict:
        """``--checkpoint`` and ``--weights`` as a provenance checkpoint block
        (see :func:`checkpoint_block`); what they leave out comes from the
        study file's model when there is one (:func:`with_study_model`)."""
        return with_study_model(checkpoint_block(self.checkpoint, self.weights), self.study_model)

    def repository_block(self) -> dict:
        """``--commit``/``--dirty``/``--driver`` as provenance fields (none when not given)."""
        block = {}
        if self.commit:
            block["repository_commit"] = self.commit.lower()
            block["repository_dirty"] = self.dirty
        if self.driver:
            block["driver"] = self.driver
        return block


COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")


def check_commit(commit: str | None) -> str | None:
    """``commit`` when it is 7 to 40 hex digits (a git commit, full or
    abbreviated); None stays None. Raises UsageError otherwise."""
    if commit is not None and not COMMIT.fullmatch(commit):
        raise UsageError(f"invalid --commit {commit!r}: give the commit as 7 to 40 hex digits "
                         "(git rev-parse HEAD in the repository that made the engine or run)")
    return commit


def with_study_model(block: dict, model: dict | None) -> dict:
    """``block`` (from :func:`checkpoint_block`) with the fields the command
    line left to defaults taken from the study file's ``model`` (id,
    revision, weights; the seed of random-init weights). A ``--checkpoint``
    naming another model than the study's (:func:`~studygen.study.model_revisions.names_model`:
    its id however spelt), or a revision the study neither
    names nor lists (``model.revision``, ``model.revisions``:
    :func:`~studygen.study.model_revisions.names_revision`), is refused
    (UsageError). Fields the study does not state stay defaults; those it
    fills are listed under :data:`~studygen.records.provenance.FROM_STUDY`
    with the values the study allows, so extending a record that holds
    another allowed value keeps the record's (no conflict)."""
    if not model:
        return block
    defaulted = list(block.get(DEFAULTED, []))
    if "id" not in defaulted and not names_model(model, block["id"]):
        raise UsageError(f"--checkpoint {block['id']} but the study file's model is {model.get('id')}")
    if "revision" not in defaulted and block["revision"] and not names_revision(model, block["revision"]):
        raise UsageError(f"--checkpoint revision {block['revision']} but the study file names "
                         f"{describe_allowed(model)}: list {block['revision']} under model.revisions if the input "
                         "was made from that revision")
    block = dict(block)
    from_study = {}
    for name in ("id", "revision", "weights"):
        if name in defaulted and model.get(name) is not None:
            block[name] = model[name]
            defaulted.remove(name)
            from_study[name] = study_values(model, name)
    if from_study:
        block[FROM_STUDY] = from_study
    if block.get("weights") == "random-init" and model.get("seed") is not None:
        block["seed"] = model["seed"]
    block[DEFAULTED] = defaulted
    return block


def study_values(model: dict, name: str) -> list:
    """The values of checkpoint field ``name`` that the study file's
    ``model`` allows a record to hold, as
    :data:`~studygen.records.provenance.FROM_STUDY` lists them: its
    revisions (:func:`~studygen.study.model_revisions.allowed_revisions`),
    its id and local folder, or its weights."""
    if name == "revision":
        return allowed_revisions(model)
    if name == "id":
        return [model["id"], model.get("local_dir")]
    return [model[name]]


def check_shape(shape: str | None, option: str = "--shape") -> str | None:
    """``shape`` when it is ``HxW``: height and width in pixels, whole numbers
    above 0 without leading zeros (``800x1067``); None stays None. Raises
    UsageError naming ``option`` otherwise (``0x0`` is no input an engine runs on)."""
    if shape is not None and not SHAPE.fullmatch(shape):
        raise UsageError(f"invalid {option} {shape!r}: use HxW in pixels, each a whole number above 0, e.g. 800x1067")
    return shape


def check_version(option: str, version: str) -> str:
    """``version`` when it names a number (``2.1.0``, ``580.65.06``,
    ``2.5.0+cu124``); UsageError otherwise: ``unknown``, ``n/a`` or ``?``
    say that the version is not known, which is no version, and a record
    that states one as a version could never be corrected by collecting again."""
    if not any(character.isdigit() for character in version):
        raise UsageError(f"invalid {option}: {version!r} is no version: a version names a number (e.g. 2.1.0); "
                         "leave the option out when the version is not known")
    return version


# INPUT=REPOSITORY@COMMIT:PATH; a repository is a name without blanks or "@" (owner/name, a URL)
ORIGIN = re.compile(r"(?P<input>[a-z][a-z-]*)=(?P<repository>[^\s@=]+)@(?P<commit>[0-9a-fA-F]{7,40}):(?P<path>[^\x00-\x1f]+)")


@dataclass(frozen=True)
class InputOrigin:
    """Where an input file was published: the collect option that names it
    (``input``, e.g. ``log``), the repository, the commit and the path in it."""

    input: str
    repository: str
    commit: str
    path: str


def parse_origin(text: str) -> InputOrigin:
    """``log=NVIDIA/repo@1a2b3c4:dir/result.log`` → :class:`InputOrigin`.
    Raises UsageError for text of another form (the commit must be 7 to 40
    hex digits, as ``--commit``'s)."""
    match = ORIGIN.fullmatch(text)
    if match is None:
        raise UsageError(f"invalid --origin {text!r}: use INPUT=REPOSITORY@COMMIT:PATH, e.g. "
                         "log=NVIDIA/TensorRT@1a2b3c4:samples/result.log (INPUT: the option that names the file, "
                         "COMMIT: 7 to 40 hex digits)")
    return InputOrigin(**match.groupdict())


def parse_software(pairs: tuple[str, ...]) -> dict[str, str]:
    """``("tensorrt=10.16.1", …)`` → ``{"tensorrt": "10.16.1", …}``; UsageError
    for a pair without both parts or a version that is no version (:func:`check_version`)."""
    software = {}
    for pair in pairs:
        name, sep, version = pair.partition("=")
        if not sep or not name or not version:
            raise UsageError(f"invalid --software {pair!r}: use NAME=VERSION, e.g. tensorrt=10.16.1")
        software[name.strip()] = check_version(f"--software {pair}", version.strip())
    return software


def checkpoint_block(checkpoint: str | None, weights: str | None) -> dict:
    """``{id, revision, weights}`` from the options; fields not given are
    defaults (id ``unknown``, revision null, weights ``pretrained``) and are
    marked so they never conflict with an existing record. Raises UsageError
    for a checkpoint that is not ID or ID@REVISION, or whose revision no git
    revision could be (:func:`~studygen.records.checkpoints.revision_problem`)."""
    block, defaulted = {}, []
    if checkpoint:
        ident, sep, revision = checkpoint.partition("@")
        if not ident or (sep and not revision):
            raise UsageError(f"invalid --checkpoint {checkpoint!r}: use ID or ID@REVISION")
        if revision and revision_problem(revision):
            raise UsageError(f"invalid --checkpoint {checkpoint!r}: revision {revision!r} {revision_problem(revision)}")
        block["id"] = ident
        block["revision"] = revision or None
        if not sep:
            defaulted.append("revision")
    else:
        block.update(id=CHECKPOINT_DEFAULTS["id"], revision=CHECKPOINT_DEFAULTS["revision"])
        defaulted += ["id", "revision"]
    if weights:
        block["weights"] = weights
    else:
        block["weights"] = CHECKPOINT_DEFAULTS["weights"]
        defaulted.append("weights")
    block[DEFAULTED] = defaulted
    return block


class SubcommandOptions:
    """What the options class of an ingest subcommand adds to its dataclass
    (its own flagged fields and ``ingest``, the :class:`IngestOptions`):
    building it from click's parameters and the command line it stands for
    (own flags first, as ``--help`` lists them)."""

    subcommand: ClassVar[str]
    ingest: IngestOptions

    @classmethod
    def from_params(cls, params: dict):
        return cls(ingest=IngestOptions.from_params(params), **flag_values(cls, params))

    def command_line(self) -> str:
        return command_line(self.subcommand, self, self.ingest)

    def input_files(self) -> dict[str, Path]:
        """``{input: path}`` of the input files given: each flagged field whose
        name ends in ``_path`` and holds a path, keyed by its option without
        dashes (``log`` for ``--log``), as ``--origin`` names them."""
        files = {}
        for item in flagged(type(self)):
            value = getattr(self, item.name)
            if item.name.endswith("_path") and value is not None:
                files[item.metadata[FLAG][0][0].lstrip("-")] = Path(value)
        return files

    def origins(self) -> list[tuple[InputOrigin, Path]]:
        """Each ``--origin`` with the file it describes, in the order given.
        Raises UsageError for an origin of an input not given, or a second
        origin of one input."""
        files = self.input_files()
        found: dict[str, tuple[InputOrigin, Path]] = {}
        for text in self.ingest.origin:
            origin = parse_origin(text)
            if origin.input not in files:
                given = ", ".join(f"--{name}" for name in files) or "none"
                raise UsageError(f"--origin {text}: no --{origin.input} file was given (input files given: {given})")
            if origin.input in found:
                raise UsageError(f"--origin given twice for --{origin.input}: one file has one origin")
            found[origin.input] = (origin, files[origin.input])
        return list(found.values())
