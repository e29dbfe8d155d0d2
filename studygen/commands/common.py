"""Options shared by commands (cog-style: each field next to its flag)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..study import STUDY_FILE, find_root

FORMATS = ("text", "json", "github")

root_option = click.option(
    "--root", "root", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Project root (the folder holding families/). Default: walk up from the study folder given as a path, "
         "else from the working directory.")
format_option = click.option(
    "--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
    help="text: path:line: CODE message; json: a list of findings; github: workflow commands.")


def resolve_root(root: Path | None, targets: tuple[str, ...] | list[str] = ()) -> Path:
    """``--root`` (must hold families/); without it, the nearest folder
    holding families/ at or above the study folders among ``targets`` (paths
    to a folder with a study file, as :func:`studygen.study.resolve_targets`
    reads them), so that ``studygen check ../other/families/demo`` finds
    ``../other`` from anywhere; with no such target, at or above the working
    directory. Raises UsageError when no folder holds families/ there, or
    when two study folders lie in different projects."""
    if root is not None:
        if not (root / "families").is_dir():
            raise UsageError(f"--root {root}: no families/ folder there")
        return root.resolve()
    study_dirs = [Path(t) for t in targets if ("/" in t or Path(t).is_dir()) and (Path(t) / STUDY_FILE).is_file()]
    roots = list(dict.fromkeys(find_root(folder) for folder in study_dirs))
    if len(roots) > 1:
        raise UsageError(f"the study folders given lie in {len(roots)} projects ({', '.join(map(str, roots))}): "
                         "give them one project at a time, or --root DIR")
    return roots[0] if roots else find_root()
