"""Options shared by commands (cog-style: each field next to its flag)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..study import find_root

FORMATS = ("text", "json", "github")

root_option = click.option(
    "--root", "root", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Project root (the folder holding families/). Default: walk up from the working directory.")
format_option = click.option(
    "--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
    help="text: path:line: CODE message; json: a list of findings; github: workflow commands.")


def resolve_root(root: Path | None) -> Path:
    """``--root`` (must hold families/) or the folder found by walking up."""
    if root is None:
        return find_root()
    if not (root / "families").is_dir():
        raise UsageError(f"--root {root}: no families/ folder there")
    return root.resolve()
