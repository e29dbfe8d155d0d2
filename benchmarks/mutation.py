"""Mutation score per module: how many small bugs the tests catch.

mutmut 3 (``pip install mutmut``, the dev tool this driver calls) changes one
operator, constant or call at a time in the modules named, runs the tests that
reach the changed function, and records whether they fail (the mutant is
*killed*) or pass (it *survived*: a bug no test notices). This driver runs it
on a scratch copy of the project, so the work tree is never touched, and
prints one line per module: its mutants, how many were killed, timed out,
survived, reached by no test, ended otherwise or not checked, and the score.

The score is (killed + timeout) / (mutants - skipped - not checked): a
mutant that no test reaches counts as surviving; "not checked" is non-zero
only when mutmut stopped early (the driver then says so and exits 1; run
``python -m mutmut run`` in DIR/project to go on, then ``--report-only``).
Run from the project root::

    python benchmarks/mutation.py --paths studygen/lint --tests tests/lint

studygen/lint against tests/lint is 4281 mutants, about 0.4 to 0.8 mutants a
second on this 2-core machine (well over an hour); ``--sample N`` tests N
mutants of each module drawn at random (seeded by ``--seed``), and the score
is then that sample's: with N = 40 its standard error is at most 8 points.

Several modules in one run share mutmut's first pass; the table has one line
per module and an "all" line. The issue-11 scope, sampled, one command per
area (each ran in about 5 to 15 minutes on this shared 2-core machine)::

    python benchmarks/mutation.py --sample 25 --max-children 2 --paths studygen/checks --tests tests/checks
    python benchmarks/mutation.py --sample 40 --max-children 2 --paths studygen/lint --tests tests/lint
    python benchmarks/mutation.py --sample 30 --max-children 2 \
        --paths studygen/render/spans.py studygen/render/stats.py studygen/render/labels.py \
                studygen/render/prose.py studygen/render/verdicts.py studygen/render/tables.py \
        --tests tests/render tests/robustness/test_prose_escaping.py tests/robustness/test_escaping.py \
        --deselect tests/render/test_charts.py::test_checking_a_family_with_current_charts_imports_no_matplotlib \
                   tests/render/test_shipped.py::test_family_renders_to_its_committed_files tests/render/test_template_help.py
    python benchmarks/mutation.py --sample 50 --max-children 2 --paths studygen/fsutil.py \
        --tests tests/robustness/test_atomic_write.py tests/records/test_jsonedit.py tests/foundation/test_fsutil.py \
                tests/robustness/test_paths.py tests/robustness/test_names.py \
                tests/foundation/test_check_scale.py::test_shown_paths_in_equals_shown_path \
                tests/robustness/test_parallel_writers.py::test_a_writer_that_cannot_have_the_lock_gives_up_with_a_clear_error \
        --deselect tests/robustness/test_atomic_write.py::test_kill_9_during_a_write_leaves_a_temp_file_git_ignores_and_the_next_collect_removes
    python benchmarks/mutation.py --sample 40 --max-children 2 --tests tests/collect \
        --paths studygen/collect/trtexec studygen/collect/kernel_groups.py studygen/collect/torch_profile.py \
        --deselect tests/commands/test_collect_group.py::test_console_entry_point_success_and_failure \
                   tests/commands/test_collect_group.py::test_collect_help_imports_no_heavy_module \
                   tests/collect/test_env.py::test_git_commit_and_dirty_flag_of_the_project \
                   tests/collect/test_extend_keeps_bytes.py::test_resumed_run_record_keeps_its_bytes \
                   tests/collect/test_lazy.py::test_importing_the_coco_command_imports_no_numpy

``--deselect`` leaves out tests that cannot pass under mutmut (an import
count, byte comparisons with committed files, a helper list that mutmut's
renamed functions extend, a git checkout, eight parallel writers, the console
entry point run from another folder, where mutmut's call recording cannot find
its settings, and import probes in child processes); a test that
fails on the unmutated copy stops the run before any mutant is tested
("Failed to run clean test"). The same seed and module list draw the same
mutants, so a run before and after a change of tests compares like with like.

``--workdir DIR`` keeps the scratch copy and mutmut's results (a new run
into DIR starts from a fresh copy); ``--report-only`` prints the table of the
run kept in DIR, ``--survivors`` lists what survived, and
``python -m mutmut show NAME`` in DIR/project prints one of them as a diff.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# Never copied: version control, environments, caches, earlier mutmut output.
_IGNORED = shutil.ignore_patterns(".git", ".venv*", "__pycache__", ".pytest_cache", ".hypothesis", "build", "dist",
                                  "mutants", "*.egg-info")
# mutmut's exit codes (mutmut/stats.py status_by_exit_code), grouped as the table prints them.
_STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
           36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", None: "not checked"}
_COLUMNS = ("killed", "timeout", "survived", "no tests", "other", "not checked")


def _copy_project(project: Path, paths: list[str], tests: list[str], deselect: list[str] = ()) -> None:
    """The project as it is on disk (committed or not) under ``project``, with
    mutmut's settings for ``paths`` and ``tests`` (less the ``deselect``ed
    test ids) in its pyproject.toml."""
    project.mkdir(parents=True)
    top_level = []
    for entry in sorted(ROOT.iterdir()):
        if _IGNORED(str(ROOT), [entry.name]):
            continue
        top_level.append(entry.name)
        if entry.is_dir():
            shutil.copytree(entry, project / entry.name, ignore=_IGNORED)
        else:
            shutil.copy2(entry, project / entry.name)
    # tests find ../shared from the project root; mutmut runs them from project/mutants
    (project / "shared").symlink_to(SHARED.resolve(), target_is_directory=True)
    settings = {
        "source_paths": ["studygen"],
        "only_mutate": [f"{p.rstrip('/')}/*" if not p.endswith(".py") else p for p in paths],
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", *(arg for node in deselect for arg in ("--deselect", node))],
        "also_copy": [name for name in top_level if name not in ("studygen", "tests")],
    }
    lines = ["", "[tool.mutmut]"] + [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    with open(project / "pyproject.toml", "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def _run_mutmut(project: Path, max_children: int | None, names: list[str] = (), quiet: bool = False) -> int:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # tests must import the mutated copy
    command = [sys.executable, "-m", "mutmut", "run"]
    if max_children:
        command += ["--max-children", str(max_children)]
    output = subprocess.DEVNULL if quiet else None
    return subprocess.call([*command, *names], cwd=project, env=env, stdout=output, stderr=output)


def _sample(project: Path, paths: list[str], per_module: int, seed: int) -> list[str]:
    """Up to ``per_module`` mutant names of each module, drawn at random (seeded).

    mutmut names its mutants only once it has generated them: a first run
    asked for a name that matches nothing generates every mutant and records
    which tests reach each function, then stops at its "nothing matches"
    check before testing any mutant."""
    _run_mutmut(project, None, ["studygen-mutation-sample-matches-nothing"], quiet=True)
    rng = random.Random(seed)
    names = []
    for module in _meta_files(project, paths):
        keys = sorted(json.loads(module.read_text("utf-8"))["exit_code_by_key"])
        names += rng.sample(keys, min(per_module, len(keys)))
    return names


def _meta_files(project: Path, paths: list[str]) -> list[Path]:
    wanted = [p.rstrip("/") for p in paths]
    found = []
    for meta in sorted((project / "mutants").rglob("*.py.meta")):
        module = str(meta.relative_to(project / "mutants"))[: -len(".meta")]
        if any(module == p or module.startswith(p + "/") for p in wanted):
            found.append(meta)
    return found


def _results(project: Path, paths: list[str]) -> dict[str, dict[str, int]]:
    """module -> status -> count, from mutmut's per-file ``.meta`` records."""
    table: dict[str, dict[str, int]] = {}
    for meta in _meta_files(project, paths):
        module = str(meta.relative_to(project / "mutants"))[: -len(".meta")]
        codes = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        counted = Counter(_STATUS.get(code, "other") for code in codes.values())
        table[module] = dict(counted, mutants=len(codes))
    return table


def score(counts: dict[str, int]) -> float | None:
    """(killed + timeout) / (mutants - skipped - not checked); None when no mutant counts."""
    considered = counts["mutants"] - counts.get("skipped", 0) - counts.get("not checked", 0)
    if considered <= 0:
        return None
    return (counts.get("killed", 0) + counts.get("timeout", 0)) / considered


def print_table(table: dict[str, dict[str, int]]) -> None:
    width = max([len("module"), *map(len, table)])
    print(f"{'module':<{width}}  mutants  " + "  ".join(f"{c:>8}" for c in _COLUMNS) + "    score")
    totals: Counter = Counter()
    for module, counts in table.items():
        totals.update(counts)
        _print_row(module, counts, width)
    if len(table) > 1:
        _print_row("all", totals, width)


def _print_row(name: str, counts, width: int) -> None:
    value = score(counts)
    shown = f"{100 * value:7.1f}%" if value is not None else "     n/a"
    cells = "  ".join(f"{counts.get(c, 0):>8}" for c in _COLUMNS)
    print(f"{name:<{width}}  {counts['mutants']:>7}  {cells}  {shown}")


def _survivors(project: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.call([sys.executable, "-m", "mutmut", "results"], cwd=project, env=env)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paths", nargs="+", default=["studygen/lint"], help="modules or folders to mutate (default studygen/lint)")
    parser.add_argument("--tests", nargs="+", default=["tests/lint"], help="tests to run against each mutant (default tests/lint)")
    parser.add_argument("--deselect", nargs="+", default=[], metavar="TEST_ID",
                        help="pytest ids of tests to leave out (tests that cannot pass under mutmut)")
    parser.add_argument("--workdir", type=Path, help="scratch folder to keep (default: a temporary one, removed after)")
    parser.add_argument("--max-children", type=int, help="parallel test processes (mutmut's default: the CPU count)")
    parser.add_argument("--survivors", action="store_true", help="also list the mutants that survived")
    parser.add_argument("--report-only", action="store_true", help="print the table of an earlier run in --workdir")
    parser.add_argument("--sample", type=int, metavar="N", help="test N mutants of each module drawn at random, not all")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample's draw (default 0)")
    args = parser.parse_args(argv)
    if args.report_only and args.workdir is None:
        parser.error("--report-only needs --workdir")
    if importlib.util.find_spec("mutmut") is None:
        print("mutation.py: mutmut is not installed (pip install mutmut)", file=sys.stderr)
        return 2
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="studygen-mutation-"))
    project = workdir / "project"
    try:
        if not args.report_only:
            shutil.rmtree(project, ignore_errors=True)
            _copy_project(project, args.paths, args.tests, args.deselect)
            names = _sample(project, args.paths, args.sample, args.seed) if args.sample else []
            status = _run_mutmut(project, args.max_children, names)
            if status != 0:
                print(f"mutation.py: mutmut exited with status {status}", file=sys.stderr)
        table = _results(project, args.paths)
        print_table(table)
        if not args.sample and any(counts.get("not checked") for counts in table.values()):
            print("mutation.py: some mutants were not checked (mutmut stopped early)", file=sys.stderr)
            return 1
        if args.survivors:
            _survivors(project)
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
