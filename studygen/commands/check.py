"""``studygen check [FAMILY|STUDY_DIR ...]``: stale README, invalid records, claims against data."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import NamedTuple

import click

from ..checks import run_checks
from ..checks.sg202_records import folder_without_study_file, study_not_checked, unloadable_study
from ..collect.lazy import lazy_import
from ..errors import StudygenError, UsageError
from ..findings import FORMATTERS, has_errors
from ..fsutil import shown_path
from ..memory import collector_paused
from ..study import Study, folders_without_study_file, load_study, resolve_targets
from . import command
from .common import format_option, resolve_root, root_option
from .forked_shares import WorkerEnded, outcomes_in_forks, split_by_size

# Imported only where workers are spawned (not Linux, a large project): importing both costs about 7 ms.
multiprocessing = lazy_import("multiprocessing")
futures = lazy_import("concurrent.futures")


class CheckOptions(NamedTuple):
    """Options of ``studygen check``."""

    targets: tuple[str, ...] = ()  # FAMILY|STUDY_DIR ...; none: every family
    root: Path | None = None  # --root DIR
    output_format: str = "text"  # --format text|json|github


# Studies are checked in parallel processes when there are at least this many
# run records in all (below it, starting processes costs more than it saves).
PARALLEL_MIN_RECORDS = 500


def check_study(study_dir: Path, root: Path) -> list:
    """Findings of every registered check over one study, checked afresh
    (nothing is kept from an earlier check); a study file that cannot be
    loaded is one SG202 finding.

    The cyclic garbage collector is paused meanwhile (see
    :func:`loaded_and_checked`), and the study is let go while it still is:
    its objects, freed by their reference counts, are then gone when
    collection resumes, where they had been alive and young, so that the
    first collection after the pause walked every one of them (about 40 ms
    for a study of 1,000 records)."""
    with collector_paused():
        return loaded_and_checked(study_dir, root)[1]  # the study, [0], is dropped before the pause ends


def loaded_and_checked(study_dir: Path, root: Path) -> tuple[Study | None, list]:
    """``(study, findings)``: the study loaded from ``study_dir`` (None when
    its study file cannot be loaded) and the findings of every registered
    check over it, as ``check`` reports them (a study file that cannot be
    loaded is one SG202 finding). ``studygen diff`` checks each revision here.

    Call it with the cyclic garbage collector paused (:func:`collector_paused`,
    as :func:`check_study` and diff do, each once): a study's records are
    many small objects, all kept, none in a cycle, which each collection would
    scan again (19 % of checking 2,000 records; raising the first generation's
    threshold to 50,000 instead saved 4 %)."""
    try:
        study = load_study(study_dir, root)
    except StudygenError as exc:
        return None, unloadable_study(exc, str(study_dir))
    return study, run_checks(study)


def worker_count(root: Path, study_dirs: list[Path]) -> int:
    """Processes to check ``study_dirs`` with: 1 for one study or one core;
    else one per available core (at most one per study) where workers fork
    (Linux: each inherits this process's imports), and where they would be
    spawned (each importing studygen afresh, about 0.1 s) only when the
    studies hold at least :data:`PARALLEL_MIN_RECORDS` run records.
    ``STUDYGEN_JOBS=N`` sets it (1: no extra process; :func:`jobs_asked`
    raises UsageError for a value it does not take).

    Two processes (this one and a forked child) checked the shipped
    project's five studies in 0.32 s against 0.41 s in one (best of 6 on
    the 2-core development machine; CPU time 0.52 s against 0.41 s)."""
    asked = jobs_asked()
    if asked is not None:
        return min(asked, len(study_dirs))
    if len(study_dirs) < 2:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2:
        return 1
    if start_method() == "fork":
        return min(cores, len(study_dirs))
    records = 0
    for study_dir in study_dirs:  # measurements/<family>/ by default; a count to decide, not to check
        records += _json_count(root / "measurements" / study_dir.name)
        if records >= PARALLEL_MIN_RECORDS:  # decided: the other folders need not be listed
            return min(cores, len(study_dirs))
    return 1


# More processes than any project has studies: a longer number asks for no more (int() refuses over 4,300 digits).
MOST_JOBS = 10**9


def jobs_asked() -> int | None:
    """The number of processes ``STUDYGEN_JOBS`` asks for (at most
    :data:`MOST_JOBS`), or None when it is unset or empty (the count is
    chosen, :func:`worker_count`). Only ASCII digits of a number of 1 or
    more are taken: ``str.isdigit`` alone also passes digits that ``int``
    refuses (a superscript two), so they crashed check.

    Raises UsageError (exit 2) for any other value (``0``, ``-1``, ``two``,
    `` 3``, ``3.0``), naming the variable, its value and what it takes."""
    value = os.environ.get("STUDYGEN_JOBS", "")
    if value == "":
        return None
    digits = value.lstrip("0")
    if not (value.isascii() and value.isdigit() and digits):
        raise UsageError(f"STUDYGEN_JOBS={_shown_value(value)}: expected the number of processes to check the studies in, "
                         "a whole number of 1 or more written in the digits 0-9 (1: all in this process), "
                         "or the variable unset or empty (check chooses)")
    return int(digits) if len(digits) < len(str(MOST_JOBS)) else MOST_JOBS


# A value longer than this is quoted by its ends: the error is one line however long the variable is.
SHOWN_VALUE_CHARACTERS = 40


def _shown_value(value: str) -> str:
    """``value`` quoted for the error line: a character that does not print
    (a newline, a tab) escaped as Python writes it, a byte the environment
    held that is no UTF-8 (``os.environ`` keeps it as a lone surrogate,
    U+DC80 to U+DCFF) as ``\\xff``, and only its first and last 20
    characters, with the count between, when longer than :data:`SHOWN_VALUE_CHARACTERS`."""
    half = SHOWN_VALUE_CHARACTERS // 2
    if len(value) > SHOWN_VALUE_CHARACTERS:
        return f"{_shown_value(value[:half])}...({len(value) - 2 * half} more characters)...{_shown_value(value[-half:])}"
    return "'" + "".join(f"\\x{ord(ch) - 0xDC00:02x}" if "\udc80" <= ch <= "\udcff"
                         else ch if ch.isprintable() else repr(ch)[1:-1] for ch in value) + "'"


def _json_count(folder: Path) -> int:
    """How many entries of ``folder`` are named ``*.json``; 0 when it cannot
    be listed (the study's check says why, SG202)."""
    try:
        with os.scandir(folder) as entries:
            return sum(1 for entry in entries if entry.name.endswith(".json"))
    except OSError:
        return 0


def start_method() -> str:
    """How worker processes start: ``fork`` on Linux (they inherit what this
    process imported), ``spawn`` elsewhere (macOS's system libraries are not
    safe to fork, Windows cannot)."""
    return "fork" if sys.platform == "linux" else "spawn"


# At most this many records of a study are sized (one ``stat`` each): a larger folder's record bytes are the
# sampled records' mean times their count. A study's records are alike in size, and sizing every one of 20,000
# records took about 50 ms before any worker could start.
SIZED_RECORDS = 64


def study_sizes(root: Path, study_dirs: list[Path]) -> list[int]:
    """Bytes each study has to read: its committed README and the run
    records in ``measurements/<family>/``, every record sized for a folder
    of at most :data:`SIZED_RECORDS`, an evenly spaced sample of them
    otherwise (see there). A study's check time follows them (the shipped
    H200 study, 1.4 MB of records and a 43 KB README, takes 0.11 s of the
    0.21 s the project's five studies take once everything is imported):
    the studies are dealt to the processes by them
    (:func:`~studygen.commands.forked_shares.split_by_size`)."""
    def size(study_dir: Path) -> int:
        try:
            total = (study_dir / "README.md").stat().st_size
        except OSError:  # no README yet: SG201 says so
            total = 0
        try:
            with os.scandir(root / "measurements" / study_dir.name) as entries:
                records = [entry for entry in entries if entry.name.endswith(".json") and entry.is_file()]
            sampled = records[::-(-len(records) // SIZED_RECORDS)] if records else []
            if sampled:
                total += round(sum(entry.stat().st_size for entry in sampled) * len(records) / len(sampled))
        except OSError:  # no records folder, or a file gone meanwhile: the check reports what is missing
            pass
        return total

    return [size(study_dir) for study_dir in study_dirs]


def run_check(options: CheckOptions) -> list:
    """Findings of every registered check over the chosen studies, in study
    order (studies run in parallel processes, see :func:`worker_count`; the
    findings are the same).

    Raises UsageError for an unknown family or path; a study file that cannot
    be loaded is reported as an SG202 finding, and so, with no targets (every
    family), is each family folder without a study file, first.
    """
    root = resolve_root(options.root, options.targets)
    study_dirs = resolve_targets(root, options.targets)
    missing = [] if options.targets else [folder_without_study_file(f"families/{folder.name}")
                                          for folder in folders_without_study_file(root)]
    workers = worker_count(root, study_dirs)
    if workers == 1:
        per_study = [check_study(study_dir, root) for study_dir in study_dirs]
    elif start_method() == "fork":
        # this process checks one share, a forked child each other, then the studies a child has not begun
        # (or left when it died); the error of the first failing study in study order is raised, as in one process
        shares = split_by_size(study_sizes(root, study_dirs), workers)
        outcomes = outcomes_in_forks(lambda study_dir: check_study(study_dir, root), study_dirs, shares,
                                     shown=lambda study_dir: shown_path(study_dir, root), steal=True)
        per_study = []
        for index, study_dir in enumerate(study_dirs):
            done, value = outcomes[index]
            if not done and isinstance(value, WorkerEnded):  # the worker died, not the study: the others stand
                value, done = [study_not_checked(shown_path(study_dir, root), value.how)], True
            if not done:
                raise value
            per_study.append(value)
    else:
        with futures.ProcessPoolExecutor(max_workers=workers,
                                         mp_context=multiprocessing.get_context("spawn")) as pool:
            per_study = list(pool.map(check_study, study_dirs, [root] * len(study_dirs)))
    return missing + [finding for findings in per_study for finding in findings]


# pre-commit runs a hook with PRE_COMMIT=1 in its environment (pre_commit/commands/run.py), in a virtualenv of
# its own: the shell that commits may have no studygen to run the render a stale README needs.
HOOK_RENDER = ("studygen runs here from pre-commit's own environment: render with it by pre-commit run "
               "studygen-render --hook-stage manual --all-files (or install studygen at the rev your "
               ".pre-commit-config.yaml pins and run studygen render)")


def hook_hints(findings: list) -> list:
    """``findings`` as a pre-commit hook prints them: a hint to run studygen
    render also says how, where studygen is installed only in the hook's
    environment. Applied when printing, so the findings stay as checked."""
    return [dataclasses.replace(f, hint=f"{f.hint}; {HOOK_RENDER}") if "studygen render" in (f.hint or "") else f
            for f in findings]


@command("check")
@click.argument("targets", nargs=-1)
@root_option
@format_option
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Accepted for scripts written for earlier versions: check keeps no cache, every check is afresh.")
@click.pass_context
def check_command(ctx, targets, root, output_format, no_cache):
    """Exit 1 on any error-level finding, 2 on a usage error or an internal error, 130 on an interrupt."""
    findings = run_check(CheckOptions(targets=tuple(targets), root=root, output_format=output_format))
    if os.environ.get("PRE_COMMIT") == "1":
        findings = hook_hints(findings)
    click.echo(FORMATTERS[output_format](findings))
    ctx.exit(1 if has_errors(findings) else 0)
