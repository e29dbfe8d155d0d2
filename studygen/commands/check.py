"""``studygen check [FAMILY|STUDY_DIR ...]``: stale README, invalid records, claims against data."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from .common import format_option, resolve_root, root_option


@dataclass
class CheckOptions:
    """Options of ``studygen check``."""

    targets: tuple[str, ...] = ()  # FAMILY|STUDY_DIR ...; none: every family
    root: Path | None = None  # --root DIR
    output_format: str = "text"  # --format text|json|github


def run_check(options: CheckOptions) -> list:
    """Findings of every registered check over the chosen studies.

    Raises UsageError for an unknown family or path; a study file that cannot
    be loaded is reported as an SG202 finding.
    """
    from ..checks import run_checks
    from ..errors import StudygenError
    from ..findings import Finding
    from ..study import load_study, resolve_targets

    root = resolve_root(options.root)
    findings = []
    for study_dir in resolve_targets(root, options.targets):
        try:
            study = load_study(study_dir, root)
        except StudygenError as exc:
            line = int(exc.where.split()[1]) if exc.where and exc.where.startswith("line ") else 0
            findings.append(Finding("SG202", exc.message, exc.path or str(study_dir), line=line,
                                    pointer=exc.where if exc.where and exc.where.startswith("/") else None))
            continue
        findings.extend(run_checks(study))
    return findings


@click.command("check")
@click.argument("targets", nargs=-1)
@root_option
@format_option
@click.pass_context
def check_command(ctx, targets, root, output_format):
    """Check studies (default: every family); exit 1 on any error-level finding."""
    from ..findings import FORMATTERS, has_errors

    findings = run_check(CheckOptions(targets=tuple(targets), root=root, output_format=output_format))
    click.echo(FORMATTERS[output_format](findings))
    ctx.exit(1 if has_errors(findings) else 0)
