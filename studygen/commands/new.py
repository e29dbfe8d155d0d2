"""``studygen new FAMILY --variants a,b``: start a study family.

Writes ``families/FAMILY/study.yaml``: a valid study file that renders with
the built-in generic template (``studygen/generic.md.j2``, package data), so
that ``collect`` → ``render`` → ``check`` works before any template is
written. Every field a newcomer fills in later (title, description, model,
decision) is written with a placeholder that says so; nothing else is
created (``collect`` makes ``measurements/FAMILY/``).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

import click
import yaml

from ..errors import InputError, UsageError
from ..fsutil import atomic_write_text, shown_path
from ..records.checkpoints import Revisions, revision_problem
from ..records.schemas import validate_document
from ..records.names import validate_family_name
from ..render.generated import MOVE_IT_AWAY, hand_written
from ..rules import code_of
from ..study import STUDY_FILE
from ..study.scaffold import DESCRIPTION_PLACEHOLDER, DRAFT, SUMMARY_PLACEHOLDER, title_placeholder
from . import command

GENERIC_TEMPLATE = "studygen/generic.md.j2"
BACKENDS = ("tensorrt", "pytorch")

# The study schema's precisions; a variant named after one takes it as its precision.
PRECISIONS = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8", "nvfp4", "int4")


@dataclass
class NewOptions:
    """Options of ``studygen new``."""

    family: str = ""  # FAMILY: the folder name under families/
    variants: str = ""  # --variants a,b or name:precision,...
    title: str | None = None  # --title TEXT (default: a placeholder, "FAMILY (edit this)")
    model: str | None = None  # --model ID (checkpoint id, e.g. a Hugging Face repository)
    revision: str | None = None  # --revision REV (checkpoint revision: a commit or tag)
    revisions: str | None = None  # --revisions A,B (other revisions its records may state: model.revisions)
    root: Path | None = None  # --root DIR (default: the project root above, else the working directory)


def parse_variants(text: str) -> list[dict]:
    """``fp16,int8`` or ``base:fp16,fast:int8`` → study-file variants.

    A name that is itself a precision takes it; any other name needs
    ``name:precision``. Raises UsageError for an empty list, a repeated name
    or an unknown precision (naming the valid ones)."""
    variants = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, _, precision = item.partition(":")
        name, precision = name.strip(), (precision.strip() or name.strip())
        if precision not in PRECISIONS:
            hint = "" if ":" in item else f" (name it {name}:PRECISION)"
            raise UsageError(f"--variants: '{precision}' is not a precision{hint}; precisions: {', '.join(PRECISIONS)}")
        twin = next((v["name"] for v in variants if v["name"].casefold() == name.casefold()), None)
        if twin is not None:  # 'a' and 'A' are one file name on macOS and Windows, and SG202 refuses them
            raise UsageError(f"--variants: '{name}' is named twice" if twin == name else
                             f"--variants: '{name}' and '{twin}' differ only in case; name them apart")
        variants.append({"name": name, "precision": precision, "label": name})
    if not variants:
        raise UsageError("--variants needs at least one variant, e.g. --variants fp16,int8")
    return variants


def parse_revisions(text: str | None, revision: str | None) -> list[str]:
    """``331d8b23,76321b19`` → the study file's ``model.revisions``, in the
    order given (None or empty: none). Raises UsageError for a revision with
    a blank in it (no git revision has one), or any other text no git
    revision holds (:func:`~studygen.records.checkpoints.revision_problem`,
    ``revision`` too), or one naming the same
    checkpoint as another or as ``revision``
    (:meth:`studygen.records.checkpoints.Revisions.same`: ``76321b19`` and
    ``76321B190daa…`` are one commit)."""
    if revision and revision_problem(revision):
        raise UsageError(f"--revision: {revision!r} {revision_problem(revision)}")
    revisions: list[str] = []
    view = Revisions([revision])  # the revisions named so far, added one by one
    place = {revision: 0} if revision else {}  # each revision named so far -> its place (--revision first)
    spelling = {revision.lower(): revision} if revision else {}  # a hash in view, lower case -> as first named
    for item in (part.strip() for part in (text or "").split(",")):
        if not item:
            continue
        if any(character.isspace() for character in item):
            raise UsageError(f"--revisions: {item!r} has a blank in it; separate revisions with commas")
        if revision_problem(item):
            raise UsageError(f"--revisions: {item!r} {revision_problem(item)}")
        twin = _twin(item, view, place, spelling)
        if twin is not None:
            where = "--revision" if twin == revision else "--revisions"  # the list holds none --revision names
            raise UsageError(f"--revisions: {item} names the checkpoint {where} gives as {twin}; name each once")
        view.add(item)
        place.setdefault(item, len(place))
        spelling.setdefault(item.lower(), item)
        revisions.append(item)
    for named in ([revision] if revision else []) + revisions:  # the list is complete: a short hash may begin two
        begun = view.commits_begun(named)
        if len(begun) > 1:
            where = "--revision" if named == revision else "--revisions"
            raise UsageError(f"{where}: {named} begins {len(begun)} of the commits listed ({', '.join(begun[:3])}), so it "
                             "names none of them; give the full hash of the one meant")
    return revisions


def _twin(item: str, view: Revisions, place: dict[str, int], spelling: dict[str, str]) -> str | None:
    """The first revision named so far (``place``: each one's place in
    order; ``spelling``: a hash's lower case -> its spelling) that names the
    checkpoint ``item`` names among the revisions in ``view``, else None.
    Only ``item`` itself and the hashes in view it begins or that begin it
    can (:meth:`~studygen.records.checkpoints.Revisions.relatives`), so a
    list of thousands asks a few of them, not each one."""
    candidates = {item, *(spelling[other] for other in view.relatives(item))} & place.keys()
    return next((other for other in sorted(candidates, key=place.__getitem__) if view.same(item, other)), None)


def study_text(options: NewOptions, variants: list[dict]) -> str:
    """The study file ``new`` writes: YAML with comments saying what to fill in."""
    document = {
        "schema_version": 1,
        "family": options.family,
        "title": options.title or title_placeholder(options.family),
        # SG218 and SG219 (placeholders, variants without results) warn while a draft is filled in; set ready to publish
        "status": DRAFT,
        "description": DESCRIPTION_PLACEHOLDER,
        "template": GENERIC_TEMPLATE,
        "model": {"id": options.model or options.family, "revision": options.revision},
        "variants": variants,
        "decision": {"shipped": False, "summary": SUMMARY_PLACEHOLDER},
        "not_measured": [],
    }
    revisions = parse_revisions(options.revisions, options.revision)
    if revisions:
        document["model"]["revisions"] = revisions
    if not options.revision:
        # A scaffold without a pinned checkpoint still renders and checks, but the gap is stated: the
        # waiver prints under the README's known gaps, and SG216 asks to delete it once it matches nothing.
        # No waiver for a record without a repository commit: the collect command printed next passes
        # --commit, and one left without it is a warning while the study is a draft (SG209).
        provenance = code_of("studygen.checks.sg209_provenance")
        document["waivers"] = [
            {"code": provenance, "match": "has no revision",
             "reason": "written by studygen new without --revision: the checkpoint revision that was measured is "
                       "not recorded yet; set model.revision in this file before the study is published"},
        ]
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    return (f"# Study file of the {options.family} family, written by `studygen new`.\n"
            "# Next: collect records (studygen collect ... --family " + options.family + "), then\n"
            f"# `studygen render {options.family}` and `studygen check {options.family}`.\n"
            f"# template: {GENERIC_TEMPLATE} is the built-in generic template; a template of your own in\n"
            "# templates/ can extend it block by block ({% extends \"" + GENERIC_TEMPLATE + "\" %}).\n"
            "# model: the one checkpoint this family measures; collect refuses a --checkpoint with another id\n"
            "# or a revision that model.revision and model.revisions (--revisions) do not name. Another\n"
            "# checkpoint (a fine-tune, a newer revision) is a family of its own:\n"
            "# studygen new FAMILY2 --model ID --revision REV.\n"
            + body)


def project_root(root: Path | None) -> Path:
    """``--root`` (created families/ is fine), else the nearest folder holding
    families/ at or above the working directory, else the working directory."""
    if root is not None:
        if root.exists() and not root.is_dir():
            raise UsageError(f"--root {root}: not a folder")
        return root.resolve()
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "families").is_dir():
            return folder
    return here


def run_new(options: NewOptions) -> Path:
    """Write the new family's study file; return its path.

    Raises UsageError for a bad family name or variant list, when the
    family already has a study file (nothing is overwritten), or when its
    folder holds a README written by hand, which the first render would
    replace (:func:`studygen.render.generated.hand_written`)."""
    validate_family_name(options.family)
    for flag, value in (("--title", options.title), ("--model", options.model), ("--revision", options.revision)):
        if value is not None and any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise UsageError(f"{flag}: {value!r} holds a control character (a line break, a tab): give it on one line")
    variants = parse_variants(options.variants)
    parse_revisions(options.revisions, options.revision)  # refused before anything is looked up or written
    root = project_root(options.root)
    path = root / "families" / options.family / STUDY_FILE
    exists = UsageError(f"{shown_path(path, root)} exists already: edit it (studygen new never overwrites)")
    if path.exists():
        raise exists
    readme = path.parent / "README.md"
    if hand_written(readme):
        raise UsageError(MOVE_IT_AWAY, path=shown_path(readme, root))
    text = study_text(options, variants)
    # What new writes must load: validate against the study schema before anything is written.
    validate_document("study", yaml.safe_load(text), path=shown_path(path, root), text=None)
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file where a folder goes: not the study file existing already
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None
        atomic_write_text(path, text, exclusive=True)  # a second `new` at the same moment does not overwrite
    except FileExistsError:
        raise exists from None
    except OSError as exc:  # a read-only or full file system: one line, as render and collect say it
        raise InputError(f"cannot write: {exc.strerror or exc}", path=shown_path(path.parent, root)) from None
    return path


@command("new")
@click.argument("family")
@click.option("--variants", required=True, metavar="A,B,...",
              help="Variant names, comma-separated; a name that is not a precision is given as NAME:PRECISION "
                   "(precisions: " + ", ".join(PRECISIONS) + ").")
@click.option("--title", default=None, help="Study title (default: a placeholder to replace, 'FAMILY (edit this)').")
@click.option("--model", default=None, metavar="ID", help="Checkpoint id, the one checkpoint the family measures (default: the family name); "
                   "another checkpoint needs a family of its own.")
@click.option("--revision", default=None, metavar="REV", help="Checkpoint revision (a commit or tag).")
@click.option("--revisions", default=None, metavar="A,B,...",
              help="Other revisions of the checkpoint that records may state, comma-separated (model.revisions: "
                   "inputs made at several commits of one model repository).")
@click.option("--root", "root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project root (default: the folder holding families/ above, else the working directory).")
@click.option("--backend", type=click.Choice(BACKENDS), default=None,
              help="What ran the variants: tensorrt (trtexec logs) or pytorch (profiler traces); only the next "
                   "step printed depends on it.")
def new_command(family, variants, title, model, revision, revisions, root, backend):
    """FAMILY's records go to measurements/FAMILY/; collect, render and check work at once."""
    options = NewOptions(family=family, variants=variants, title=title, model=model, revision=revision,
                         revisions=revisions, root=root)
    path = run_new(options)
    shown = shown_path(path, project_root(options.root))
    click.echo(f"wrote {shown}")
    click.echo(next_steps(family, parse_variants(variants)[0]["name"], backend), err=True)


# What collects each backend's measurements: the command's own options, and what it reads.
COLLECTORS = {
    "tensorrt": ("trtexec", "--log LOG", "a trtexec console log (and its exports)"),
    # a Kineto trace names no torch version, which check asks a record for (SG209): the command says to give it
    "pytorch": ("torch-profile", "--trace TRACE --mode eager --software torch=VERSION",
                "a PyTorch profiler (Kineto) trace"),
}
COCO = ("coco", "--annotations GT.json --detections DETS.json --dataset ID", "COCO detections against annotations")
# the file names its variants (and the reference), so the line names none
AGREEMENT = ("agreement", "--input FIGURES.json", "agreement figures of your own script (JSON, see the study guide)")


def next_steps(family: str, variant: str, backend: str | None) -> str:
    """The next commands after ``new``: the collector of ``backend`` (its
    lines start with ``next:``), or, without one, each ingest collector with
    what it reads; then render and check."""
    def line(collector: tuple[str, str, str]) -> str:
        name, options, _ = collector
        commit = " --commit COMMIT" if name != "coco" else ""
        named = f" --variant {variant}" if collector is not AGREEMENT else ""
        return f"studygen collect {name} --family {family} --job JOB{named} {options}{commit}"

    then = f"then studygen render {family} and studygen check {family}"
    if backend is not None:
        return f"next: {line(COLLECTORS[backend])}, {then}"
    choices = [*COLLECTORS.values(), COCO, AGREEMENT]
    width = max(len(line(c)) for c in choices)
    listed = "\n".join(f"  {line(c):<{width}}  # {c[2]}" for c in choices)
    return f"next: collect records with the collector that reads your measurements:\n{listed}\n{then}"
