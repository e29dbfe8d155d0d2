"""``studygen lint PATH...``: check Markdown documents against their own tables."""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..errors import UsageError
from ..findings import FORMATTERS, has_errors
from ..lint import lint_paths
from ..rules import help_line, rules_in
from . import command
from .common import format_option


@dataclass
class LintOptions:
    """Options of ``studygen lint``."""

    paths: tuple[str, ...] = ()  # PATH...: files, or folders searched for *.md
    output_format: str = "text"  # --format text|json|github


def run_lint(options: LintOptions) -> list:
    """Findings (SG101..SG107) of every Markdown file named or found.

    Raises UsageError when no path is given, InputError for a missing,
    empty, binary or non-UTF-8 file or a folder without ``*.md`` files
    (nothing is linted then)."""
    if not options.paths:
        raise UsageError("lint needs at least one PATH (a .md file or a folder of them)")
    return lint_paths(options.paths)


LINT_DETAILS = f"""Exit 0 when no error-level finding, 1 when any, 2 on a usage error or
unreadable input. {help_line(rules_in("studygen.lint"))}
"""


@command("lint", details=LINT_DETAILS)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@format_option
@click.pass_context
def lint_command(ctx, paths, output_format):
    """``studygen lint``: its help is :data:`LINT_DETAILS` after the summary."""
    findings = run_lint(LintOptions(paths=tuple(paths), output_format=output_format))
    click.echo(FORMATTERS[output_format](findings))
    ctx.exit(1 if has_errors(findings) else 0)
