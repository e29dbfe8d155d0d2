"""``studygen diff [BASE] [HEAD]``: what changes in the studies between two
git revisions, and whether it is beyond the noise.

HEAD omitted: the working tree as it is. BASE omitted: the merge base of
HEAD and the default branch (``origin/HEAD``, else ``main``/``master``), or
HEAD when there is no default branch. Each revision is read through git
(:mod:`studygen.commands.revisions`: plain ``git`` through subprocess, a
fixed argument list, no shell, nothing in the repository written): the files
of a family whose inputs differ are copied out of git into a private
temporary folder outside the repository (removed afterwards), where the
study loaders and ``check`` read them exactly as they read a working tree.
A family whose inputs (its folder, its record folders, the templates) are
the same bytes at both revisions is not loaded: nothing of it can differ.

The comparison itself is :mod:`studygen.compare` (studies in, changes out);
the exit code follows ``--fail-on`` (:func:`studygen.compare.report.exit_code`);
a usage error (unknown revision, no repository, a shallow clone without
BASE) is exit 2 with one line.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import click

from ..compare import Revision, compare_family, unchanged_family
from ..compare.report import FAIL_ON, FORMATS, Report, exit_code, format_github, format_markdown, format_text
from ..compare.report_json import format_json
from ..checks.sg202_records import folder_without_study_file, unloadable_study
from ..errors import InputError, StudygenError, UsageError
from ..compare import INVALID_RECORD
from ..findings import Finding, error_finding
from ..memory import collector_paused
from ..records.load import load_yaml
from ..study import LINK_HINT, LINK_NOT_READ, STUDY_FILE, folders_without_study_file
from ..textio import read_text
from . import command, revisions
from .check import loaded_and_checked
from .common import resolve_root, root_option
from .revisions import STUDY_FOLDERS, Repository, Tree


@dataclass
class DiffOptions:
    """Options of ``studygen diff``."""

    base: str | None = None  # BASE: a git revision; None: the merge base with the default branch
    head: str | None = None  # HEAD: a git revision; None: the working tree
    root: Path | None = None  # --root DIR
    output_format: str = "text"  # --format text|md|json|github
    fail_on: str = "beyond-spread"  # --fail-on beyond-spread|verdict|never


def run_diff(options: DiffOptions) -> Report:
    """The changes between the two revisions options name, per family.

    Raises UsageError for a root outside a git repository, an unknown
    revision, a shallow clone without BASE, or a bad option value."""
    if options.output_format not in FORMATS:
        raise UsageError(f"--format {options.output_format}: choose one of {', '.join(FORMATS)}")
    if options.fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on {options.fail_on}: choose one of {', '.join(FAIL_ON)}")
    root = resolve_root(options.root)
    repo = revisions.repository_of(root)
    base_commit, base_label = _base(repo, options.base)
    head_commit = revisions.resolve(repo, options.head) if options.head is not None else None
    head_label = f"{options.head} ({head_commit[:12]})" if head_commit else "the working tree"
    report = Report(base_label, head_label, path_prefix=repo.prefix)
    with tempfile.TemporaryDirectory(prefix="studygen-diff-") as scratch:
        base_side = _Side(repo, Path(scratch) / "base", _revision_tree(repo, base_commit, base_label, Path(scratch)))
        if head_commit is None:
            head_side = _Side(repo, root, _working_tree(repo, root), in_place=True)
        else:
            head_side = _Side(repo, Path(scratch) / "head", _revision_tree(repo, head_commit, head_label, Path(scratch)))
        for family in sorted(base_side.families() | head_side.families()):
            readme = f"families/{family}/README.md"
            if base_side.inputs(family) == head_side.inputs(family):
                report.families.append(unchanged_family(family, readme))
                continue
            report.families.append(compare_family(family, readme, base_side.revision(family),
                                                  head_side.revision(family)))
    return report


def _base(repo: Repository, base: str | None) -> tuple[str, str]:
    if base is None:
        return revisions.default_base(repo)
    commit = revisions.resolve(repo, base)
    return commit, f"{base} ({commit[:12]})"


def _revision_tree(repo: Repository, commit: str, label: str, scratch: Path) -> Tree:
    """The study files of ``commit``: the study folders, then the record
    folders its study files name outside them (read from a copy of the study
    files in ``scratch``)."""
    tree = Tree(label, commit, {})
    tree.files.update(revisions.list_revision(repo, commit, STUDY_FOLDERS, tree.gitlinks))
    study_files = [path for path in tree.files if _is_study_file(path)]
    if not study_files:
        return tree
    specs = scratch / f"specs-{commit[:12]}"
    revisions.materialize(repo, tree, study_files, specs)
    extra = _record_folders_outside(specs, study_files)
    if extra:
        tree.files.update(revisions.list_revision(repo, commit, extra))
    return tree


def _working_tree(repo: Repository, root: Path) -> Tree:
    tree = Tree("the working tree", None, revisions.list_working_tree(repo, root, STUDY_FOLDERS))
    extra = _record_folders_outside(root, [path for path in tree.files if _is_study_file(path)])
    if extra:
        tree.files.update(revisions.list_working_tree(repo, root, extra))
    return tree


def _is_study_file(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return len(parts) == 3 and parts[0] == "families" and parts[2] == STUDY_FILE


def _spec(folder: Path, study_file: str) -> dict:
    """A study file's mapping, {} when it cannot be read (the loader reports it)."""
    try:
        spec, _ = load_yaml(folder / study_file, study_file)
    except StudygenError:
        return {}
    return spec if isinstance(spec, dict) else {}


def _record_folders(spec: dict, family: str) -> list[str]:
    """The record folders a study file names (relative to the project root, as the loader reads them)."""
    folders = [spec.get("measurements") if isinstance(spec.get("measurements"), str) else f"measurements/{family}"]
    extra = spec.get("extra_measurements")
    folders += [f for f in extra if isinstance(f, str)] if isinstance(extra, list) else []
    return [folder.strip("/") for folder in folders]


def _record_folders_outside(folder: Path, study_files: list[str]) -> list[str]:
    """Record folders the study files name outside :data:`STUDY_FOLDERS`."""
    outside = []
    for study_file in study_files:
        family = PurePosixPath(study_file).parts[1]
        for record_folder in _record_folders(_spec(folder, study_file), family):
            if PurePosixPath(record_folder).parts[:1] not in [(f,) for f in STUDY_FOLDERS]:
                outside.append(record_folder)
    return sorted(set(outside))


class _Side:
    """One revision of the project: its tree, and where its files are read
    (``folder``: the working tree itself, or a private copy filled per family)."""

    def __init__(self, repo: Repository, folder: Path, tree: Tree, in_place: bool = False):
        self.repo, self.folder, self.tree, self.in_place = repo, folder, tree, in_place
        self._specs: dict[str, dict] = {}
        self._written: set[str] = set()

    def families(self) -> set[str]:
        """Families with a study file, and folders ``families/<f>/`` without one (check's SG202)."""
        return {PurePosixPath(path).parts[1] for path in self.tree.files if _is_study_file(path)} \
            | set(self._folders_without_study_file())

    def _folders_without_study_file(self) -> dict[str, tuple]:
        """Family name -> ``(path, blob id)`` of each file of a folder ``families/<f>/`` that holds no
        study file (a study file committed as a submodule is none), as check finds them: a folder of the
        working tree, empty or not; at a revision, one that holds a file or a submodule."""
        folders: dict[str, list] = {}
        for path in [*self.tree.files, *self.tree.gitlinks]:
            parts = PurePosixPath(path).parts
            if len(parts) > 2 and parts[0] == "families" and not parts[1].startswith("."):
                entry = self.tree.files.get(path)
                folders.setdefault(parts[1], []).append((path, entry.oid if entry else "submodule"))
        if self.in_place:
            folders.update({folder.name: folders.get(folder.name, []) for folder in folders_without_study_file(self.folder)})
        return {name: tuple(sorted(files)) for name, files in folders.items()
                if f"families/{name}/{STUDY_FILE}" not in self.tree.files}

    def _spec_of(self, family: str) -> dict:
        """The family's study file (one the tree holds), read once."""
        if family not in self._specs:
            study_file = f"families/{family}/{STUDY_FILE}"
            self._write([study_file])
            self._specs[family] = _spec(self.folder, study_file)
        return self._specs[family]

    def input_paths(self, family: str) -> list[str]:
        """Every file the family's study is made of: its folder, its record folders, the templates."""
        if f"families/{family}/{STUDY_FILE}" not in self.tree.files:
            return []
        folders = [f"families/{family}", *_record_folders(self._spec_of(family), family), "templates"]
        return sorted({path for folder in folders for path in self.tree.under(folder)})

    def inputs(self, family: str) -> tuple:
        """``(path, blob id)`` of every input file: equal at two revisions, nothing of the family differs
        (a folder without a study file: its files)."""
        if f"families/{family}/{STUDY_FILE}" not in self.tree.files:
            return self._folders_without_study_file().get(family, ())
        return tuple((path, self.tree.files[path].oid) for path in self.input_paths(family))

    def _write(self, paths: list[str]) -> None:
        if self.in_place:
            return
        wanted = [path for path in paths if path not in self._written]
        revisions.materialize(self.repo, self.tree, wanted, self.folder)
        self._written.update(wanted)

    def revision(self, family: str) -> Revision:
        """The family at this revision, loaded and checked."""
        paths = self.input_paths(family)
        if not paths:
            return self._without_study_file(family)
        self._write(paths)
        with collector_paused():
            study, findings = loaded_and_checked(self.folder / "families" / family, self.folder)
        # the links first: the first finding is the one an unreadable head is told by
        findings = self._links_not_written(paths) + tuple(_relative(finding, self.folder) for finding in findings)
        readme_path = self.folder / "families" / family / "README.md"
        readme = None
        if readme_path.is_file():
            try:
                readme = read_text(readme_path, f"families/{family}/README.md")
            except StudygenError:
                readme = None  # check reports an unreadable README (SG104)
        problem = findings[0].message if study is None and findings else ""
        return Revision(study, findings, readme, problem)


    def _links_not_written(self, paths: list[str]) -> tuple[Finding, ...]:
        """An SG202 finding for each record or dataset definition (``.json``) of ``paths`` that is a
        symbolic link to no file of the revision (:func:`revisions.link_target`: outside the project, say),
        which :func:`revisions.materialize` does not write: check refuses one that leads outside the
        project (:func:`studygen.study.outside_project`), where diff read the study without it."""
        if self.in_place:
            return ()
        links = [path for path in paths if path.endswith(".json") and self.tree.files[path].kind == "link"]
        if not links:
            return ()
        folders = {str(parent) for path in self.tree.files for parent in PurePosixPath(path).parents} - {"."}
        return tuple(error_finding(INVALID_RECORD, InputError(
            f"a file that leads outside the project's files at {self.tree.label}, to "
            f"{self.tree.link_texts.get(path, '?')}: {LINK_NOT_READ}", path=path), hint=LINK_HINT)
            for path in links if revisions.link_target(self.tree, path, folders) is None)

    def _without_study_file(self, family: str) -> Revision:
        """A family with no study file here: none (a family removed, or not yet added), or a folder that
        check refuses (SG202), which cannot be read: a study file deleted or committed as a submodule
        (a checkout holds an empty folder there) while the folder stays. Case (attack s21): either
        passed diff as 98 removed figures, exit 0, where check failed."""
        if family not in self._folders_without_study_file():
            return Revision(None, exists=False)
        study_file = f"families/{family}/{STUDY_FILE}"
        if study_file in self.tree.gitlinks:
            finding = unloadable_study(InputError(f"committed as a submodule (a git link), not a file: nothing of "
                                                  f"family '{family}' is checked or rendered", path=study_file),
                                       study_file)[0]
        else:
            finding = folder_without_study_file(f"families/{family}")
        return Revision(None, (finding,), problem=finding.message)


def _relative(finding: Finding, folder: Path) -> Finding:
    """A finding naming a file of ``folder`` by its absolute path, named relative to it instead."""
    prefix = str(folder.resolve()) + "/"
    if finding.file.startswith(prefix):
        return replace(finding, file=finding.file[len(prefix):])
    return finding


FORMATTERS = {"text": format_text, "md": format_markdown, "json": format_json}


def format_report(report: Report, options: DiffOptions) -> str:
    """The report in ``options.output_format``."""
    if options.output_format == "github":
        return format_github(report, options.fail_on)
    return FORMATTERS[options.output_format](report)


@command("diff")
@click.argument("base", required=False)
@click.argument("head", required=False)
@root_option
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: one line per change; md: a pull-request comment; json: one object; github: annotations.")
@click.option("--fail-on", "fail_on", type=click.Choice(FAIL_ON), default="beyond-spread", show_default=True,
              help="beyond-spread: exit 1 on a figure beyond its spread or a verdict change; "
                   "verdict: on a verdict change only; never: exit 0.")
@click.pass_context
def diff_command(ctx, base, head, root, output_format, fail_on):
    """BASE defaults to the merge base with the default branch, HEAD to the working tree."""
    options = DiffOptions(base=base, head=head, root=root, output_format=output_format, fail_on=fail_on)
    report = run_diff(options)
    click.echo(format_report(report, options))
    ctx.exit(exit_code(report, fail_on))
