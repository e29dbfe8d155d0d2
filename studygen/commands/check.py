"""``studygen check [FAMILY|STUDY_DIR ...]``: stale README, invalid records, claims against data."""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import os
import sys
import typing
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click

from .. import memo
from ..checks import run_checks
from ..checks.sg202_records import unloadable_study
from ..errors import StudygenError
from ..findings import FORMATTERS, Finding, has_errors
from ..records.schemas import fast_run_check
from ..study import Study, load_study, resolve_targets
from . import command
from .common import format_option, resolve_root, root_option


@dataclass
class CheckOptions:
    """Options of ``studygen check``."""

    targets: tuple[str, ...] = ()  # FAMILY|STUDY_DIR ...; none: every family
    root: Path | None = None  # --root DIR
    output_format: str = "text"  # --format text|json|github
    use_cache: bool = True  # --no-cache sets False: check every study afresh


# The cache folder (studygen.memo) of each study's findings, kept for inputs that have not changed.
FINDINGS_CACHE = "check-findings"


# Studies are checked in parallel processes when there are at least this many
# run records in all (below it, starting processes costs more than it saves).
PARALLEL_MIN_RECORDS = 500


@contextmanager
def fewer_collections(first_generation: int = 50_000):
    """Run the block with the cyclic garbage collector's generation-0 threshold
    raised to ``first_generation`` allocations (CPython's default is 700).

    Why: loading a study allocates many small dicts and lists (one record:
    about 20 objects and 30 numbers), all kept; at the default threshold the
    collector rescans them again and again (~20 % of a large study's load
    time). Nothing is skipped: collections still run, less often."""
    threshold = gc.get_threshold()
    gc.set_threshold(max(first_generation, threshold[0]), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def check_study(study_dir: Path, root: Path, use_cache: bool = True) -> list:
    """Findings of every registered check over one study; a study file that
    cannot be loaded is one SG202 finding. With ``use_cache``, the findings
    of an earlier check are reused when nothing it read has changed (see
    :mod:`studygen.memo`), else kept for the next check."""
    if not use_cache:
        return _checked_study(study_dir, root)
    # The working directory is part of the key: findings name files relative to it.
    key = memo.entry_key("check", str(root.resolve()), str(study_dir.resolve()), os.getcwd())
    kept = kept_findings(memo.lookup(FINDINGS_CACHE, key))
    if kept is not None:
        return kept
    with memo.recording() as reads:
        findings = _checked_study(study_dir, root)
    memo.store(FINDINGS_CACHE, key, reads, [dataclasses.asdict(finding) for finding in findings])
    return findings


# Each field of a finding and its type (str, int, str | None), as a kept entry must hold them.
_FINDING_FIELDS = typing.get_type_hints(Finding)


def kept_findings(kept) -> list[Finding] | None:
    """The findings a kept entry's value holds (a list of objects with
    exactly :class:`Finding`'s fields, each of its type, as
    ``dataclasses.asdict`` writes them); None for anything else, so that a
    damaged or foreign entry is checked afresh, never printed or crashed on."""
    if not isinstance(kept, list):
        return None
    findings = []
    for fields in kept:
        if not isinstance(fields, dict) or fields.keys() != _FINDING_FIELDS.keys() or not all(
                isinstance(fields[name], kind) and not isinstance(fields[name], bool)
                for name, kind in _FINDING_FIELDS.items()):
            return None
        try:
            findings.append(Finding(**fields))
        except ValueError:  # an unknown code or severity
            return None
    return findings


def _checked_study(study_dir: Path, root: Path) -> list:
    return loaded_and_checked(study_dir, root)[1]


def loaded_and_checked(study_dir: Path, root: Path) -> tuple[Study | None, list]:
    """``(study, findings)``: the study loaded from ``study_dir`` (None when
    its study file cannot be loaded) and the findings of every registered
    check over it, as ``check`` reports them (a study file that cannot be
    loaded is one SG202 finding). ``studygen diff`` checks each revision here."""
    with fewer_collections():
        try:
            study = load_study(study_dir, root)
        except StudygenError as exc:
            return None, unloadable_study(exc, str(study_dir))
        return study, run_checks(study)


def worker_count(root: Path, study_dirs: list[Path]) -> int:
    """Processes to check ``study_dirs`` with: 1 for one study or few records;
    else one per available core (at most one per study). ``STUDYGEN_JOBS=N``
    sets it (1: no extra process)."""
    wanted = os.environ.get("STUDYGEN_JOBS", "")
    if wanted.isdigit() and int(wanted) >= 1:
        return min(int(wanted), len(study_dirs))
    if len(study_dirs) < 2:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2:
        return 1
    records = 0
    for study_dir in study_dirs:  # measurements/<family>/ by default; a count to decide, not to check
        folder = root / "measurements" / study_dir.name
        records += sum(1 for _ in folder.glob("*.json")) if folder.is_dir() else 0
        if records >= PARALLEL_MIN_RECORDS:  # decided: the other folders need not be listed
            return min(cores, len(study_dirs))
    return 1


def run_check(options: CheckOptions) -> list:
    """Findings of every registered check over the chosen studies, in study
    order (studies run in parallel processes on large projects, see
    :func:`worker_count`; the findings are the same).

    Raises UsageError for an unknown family or path; a study file that cannot
    be loaded is reported as an SG202 finding.
    """
    root = resolve_root(options.root)
    study_dirs = resolve_targets(root, options.targets)
    workers = worker_count(root, study_dirs)
    if workers == 1:
        per_study = [check_study(study_dir, root, options.use_cache) for study_dir in study_dirs]
    else:
        # fork where it is safe and cheap (Linux: workers inherit the imports); spawn elsewhere
        method = "fork" if sys.platform == "linux" else "spawn"
        if method == "fork":  # compile the run-record check once here, not once per worker
            fast_run_check()
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method)) as pool:
            per_study = list(pool.map(check_study, study_dirs, [root] * len(study_dirs),
                                      [options.use_cache] * len(study_dirs)))
    return [finding for findings in per_study for finding in findings]


# pre-commit runs a hook with PRE_COMMIT=1 in its environment (pre_commit/commands/run.py), in a virtualenv of
# its own: the shell that commits may have no studygen to run the render a stale README needs.
HOOK_RENDER = ("studygen runs here from pre-commit's own environment: render with it by pre-commit run "
               "studygen-render --hook-stage manual --all-files (or install studygen at the rev your "
               ".pre-commit-config.yaml pins and run studygen render)")


def hook_hints(findings: list) -> list:
    """``findings`` as a pre-commit hook prints them: a hint to run studygen
    render also says how, where studygen is installed only in the hook's
    environment. Applied when printing, so kept findings stay as checked."""
    return [dataclasses.replace(f, hint=f"{f.hint}; {HOOK_RENDER}") if "studygen render" in (f.hint or "") else f
            for f in findings]


@command("check")
@click.argument("targets", nargs=-1)
@root_option
@format_option
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Check every study afresh, neither reusing nor keeping findings of unchanged inputs.")
@click.pass_context
def check_command(ctx, targets, root, output_format, no_cache):
    """Exit 1 on any error-level finding, 2 on a usage error or an internal error."""
    findings = run_check(CheckOptions(targets=tuple(targets), root=root, output_format=output_format,
                                      use_cache=not no_cache))
    if os.environ.get("PRE_COMMIT") == "1":
        findings = hook_hints(findings)
    click.echo(FORMATTERS[output_format](findings))
    ctx.exit(1 if has_errors(findings) else 0)
