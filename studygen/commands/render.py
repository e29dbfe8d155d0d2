"""``studygen render [FAMILY...]``: write each family's README (and figures) from its records."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import click

from ..errors import EXIT_FINDINGS, InputError, UsageError
from ..fsutil import ensure_inside, shown_path
from ..memory import collector_paused
from ..render.engine import render_study, write_rendered
from ..render.generated import MOVE_IT_AWAY, hand_written
from ..study import load_study, open_folder_warning, resolve_targets
from . import command
from .common import resolve_root, root_option
from .pr_text import check_link_base, pr_text


class RenderOptions(NamedTuple):
    """Options of ``studygen render``."""

    families: tuple[str, ...] = ()  # FAMILY... (names or study folders); none: every family
    root: Path | None = None  # --root DIR
    pr_body: str | None = None  # --pr-body FAMILY: print the pull request text instead of writing
    link_base: str | None = None  # --link-base URL: figure links of --pr-body under URL (only with --pr-body)


class RenderOutcome(NamedTuple):
    """What :func:`run_render` did: the files whose bytes changed, the
    studies it left alone because they hold no record yet (their problem),
    ``(folder, mode)`` of each folder it read from that every user may
    write in (as SG220 reports them), once each, and ``(path, note)`` of
    what drawing a chart showed (:attr:`studygen.render.charts.Chart.notes`)."""

    changed: list[Path]
    not_rendered: list
    open_folders: list
    chart_notes: list


def run_render(options: RenderOptions) -> RenderOutcome:
    """Render the chosen studies; return the files whose bytes changed, and
    the studies not rendered because they have no record yet (a family just
    made by ``studygen new``: the others are rendered all the same).

    Raises RecordError when a study has an invalid record (the first problem
    is named), TemplateError for template failures, UsageError for an
    unknown family or an output outside the project root (a study folder
    elsewhere, or a symbolic link out), InputError for a README written by
    hand (:func:`studygen.render.generated.hand_written`). Nothing is written
    when any study fails.
    """
    root = resolve_root(options.root, options.families)
    outputs, not_rendered, open_folders = [], [], {}
    # Render every study before writing any, so a failure leaves all files as they were.
    for study_dir in resolve_targets(root, options.families):
        with collector_paused():  # as check does: 11 % of rendering an unchanged shipped family
            rendered = _rendered(study_dir, root, open_folders, not_rendered)
        if rendered is not None:
            outputs.append(rendered)
    # Render writes only inside the project root: a STUDY_DIR named on the
    # command line, or a symbolic link, may point elsewhere (it may be read, not written).
    for rendered in outputs:
        for path in rendered.paths():
            ensure_inside(path, root)
    # Nor over a README someone wrote: refused before any study's files are written.
    for rendered in outputs:
        readme = rendered.study_dir / "README.md"
        if hand_written(readme, rendered.data(readme)):
            raise InputError(MOVE_IT_AWAY, path=shown_path(readme, root))
    changed = []
    for rendered in outputs:
        try:
            changed.extend(write_rendered(rendered))
        except OSError as exc:
            # a README that is a folder, a figures/ that is a file, a read-only tree, a full disk
            raise InputError(f"cannot write: {exc.strerror or exc}",
                             path=shown_path(Path(exc.filename or rendered.study_dir), root)) from None
    # only charts drawn now have notes: a current one is not drawn
    notes = [(path, note) for rendered in outputs for path, chart in rendered.charts.items() for note in chart.notes]
    return RenderOutcome(changed, not_rendered, list(open_folders.items()), notes)


def _rendered(study_dir: Path, root: Path, open_folders: dict, not_rendered: list):
    """What the study in ``study_dir`` renders to (:func:`render_study`), or
    None when it holds no record yet (its problems are added to
    ``not_rendered``); its open folders are added to ``open_folders``.
    Raises the first problem of a study that has records. The study is
    dropped on return, inside the caller's pause of the cyclic collector:
    its objects (21,000 tracked for deformable_detr_h200_torch) are freed
    then, not scanned by the collection that resuming starts."""
    study = load_study(study_dir, root)
    open_folders.update(study.open_folders)
    if study.problems and all(problem.no_records for problem in study.problems):
        not_rendered.extend(study.problems)
        return None
    if study.problems:
        raise study.problems[0].error()
    return render_study(study)


def run_pr_body(options: RenderOptions) -> str:
    """The pull request text of the one family named by ``options.pr_body``
    (see :func:`studygen.commands.pr_text.pr_text`).

    Raises RecordError when the study has an invalid record (the first
    problem is named), TemplateError for template failures (or a template
    without the blocks the text is made of), UsageError for an unknown family."""
    root = resolve_root(options.root, [options.pr_body])
    (study_dir,) = resolve_targets(root, [options.pr_body])
    study = load_study(study_dir, root)
    if study.problems:
        raise study.problems[0].error()
    return pr_text(study, options.link_base)


@command("render")
@click.argument("families", nargs=-1)
@root_option
@click.option("--pr-body", "pr_body", metavar="FAMILY", default=None,
              help="Print the pull request description (results table, decision, not-measured list, known gaps) for FAMILY.")
@click.option("--link-base", "link_base", metavar="URL", default=None,
              help="With --pr-body: link figures as URL/families/<f>/figures/... so they resolve on the pull request "
                   "page (e.g. https://github.com/ORG/REPO/raw/BRANCH).")
def render_command(families, root, pr_body, link_base):
    """Each family's README.md and its figures/ are written where their bytes change.

    Exit 1 when a family has no record yet (named, the others rendered) or its template fails (nothing written),
    2 on an invalid record (nothing written), a usage error or an internal error, 130 on an interrupt."""
    options = RenderOptions(families=tuple(families), root=root, pr_body=pr_body, link_base=link_base)
    if options.link_base is not None:
        if not options.pr_body:
            raise UsageError("--link-base sets the figure links of --pr-body; give --pr-body FAMILY too")
        check_link_base(options.link_base)
    if options.pr_body:
        if options.families:
            raise UsageError(f"--pr-body prints one family's text; drop {' '.join(options.families)} "
                             "(or render them without --pr-body)")

        click.echo(run_pr_body(options), nl=False)
        return
    outcome = run_render(options)
    root = resolve_root(options.root, options.families)
    for folder, mode in outcome.open_folders:
        click.echo(open_folder_warning(folder, mode), err=True)
    for path in outcome.changed:
        click.echo(f"wrote {shown_path(path, root)}")
    for path, note in outcome.chart_notes:
        click.echo(f"studygen: {shown_path(path, root)}: {note}", err=True)
    if not outcome.changed and not outcome.not_rendered:
        click.echo("up to date", err=True)
    for problem in outcome.not_rendered:
        click.echo(f"studygen: {problem.path}: not rendered: {problem.message} (collect its first records)", err=True)
    if outcome.not_rendered:
        raise click.exceptions.Exit(EXIT_FINDINGS)  # the rest is rendered; exit 1 says not every family is
