"""Options shared by commands (cog-style: each field next to its flag)."""

from __future__ import annotations

import os

from pathlib import Path

import click

from ..errors import UsageError
from ..study import find_root, is_path_target, is_study_dir_target, project_of_study_dir, refuse_path_target

FORMATS = ("text", "json", "github")

root_option = click.option(
    "--root", "root", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Project root (the folder holding families/). Default: the project a study folder given as a path lies "
         "in (as written, links kept), else the one at or above the working directory.")
format_option = click.option(
    "--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
    help="text: path:line: CODE message; json: a list of findings; github: workflow commands.")


def resolve_root(root: Path | None, targets: tuple[str, ...] | list[str] = ()) -> Path:
    """``--root`` (must hold families/; family names are looked up there; a
    study folder lying in another project's ``families/`` is refused).
    Without it, the project every target lies in: a study folder given as a
    path lies in the project above the ``families/`` it is in, walked up to
    from the path as given, symbolic links kept
    (:func:`studygen.study.project_of_study_dir`), so ``studygen check
    ../other/families/demo`` finds ``../other`` from anywhere; a family name,
    or no target, lies in the project at or above the working directory.

    Raises UsageError, before any root is looked for, for a target written
    as a path that is no study folder (no such folder, a file, no study file
    in it); for targets that lie in two projects (naming each project and
    its targets); and when no folder holds families/ where one is needed (a
    bare name that is no folder here is named too: outside a project it is
    no family either)."""
    if root is not None:
        if not (root / "families").is_dir():
            raise UsageError(f"--root {root}: no families/ folder there")
        _refuse_study_dirs_of_other_projects(root, targets)
        return root.resolve()
    for target in targets:
        if not is_study_dir_target(target) and is_path_target(target):
            refuse_path_target(target)
    projects: dict[Path, list[str]] = {}
    for target in targets:
        found = project_of_study_dir(target) if is_study_dir_target(target) else _working_project(target)
        projects.setdefault(found, []).append(target)
    if len(projects) > 1:
        where = "; ".join(f"{', '.join(named)} in {folder}" for folder, named in projects.items())
        raise UsageError(f"the targets given lie in {len(projects)} projects ({where}; a family name is looked up "
                         "in the working directory's project): give them one project at a time, or --root DIR")
    return next(iter(projects)) if projects else find_root()


def _refuse_study_dirs_of_other_projects(root: Path, targets) -> None:
    """UsageError for a STUDY_DIR that lies in the ``families/`` of another
    project than ``--root`` (as written, links kept): it would be checked
    against ``root``'s records and templates, which are not its own."""
    chosen = root.resolve()
    for target in targets:
        if not is_study_dir_target(target):
            continue
        families = Path(os.path.abspath(target)).parent
        if families.name == "families" and families.parent.resolve() != chosen:
            raise UsageError(f"{target}: a study of the project {families.parent}, not of --root {root}: its records "
                             "and templates are that project's (leave out --root, or give its own)")


def _working_project(name: str) -> Path:
    """The project at or above the working directory, where the family
    ``name`` is looked up; outside any project, a UsageError that also says
    what ``name`` is here (a file, a folder without a study file, nothing)."""
    try:
        return find_root()
    except UsageError as no_root:
        if Path(name).exists():
            refuse_path_target(name)
        raise UsageError(f"{name}: no such folder, and no family either: {no_root}") from None
