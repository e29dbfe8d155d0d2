"""Start-up benchmark: ``check`` and ``render`` of the shipped project against ``studygen --help``.

Targets, on the 2-core development machine:

- issue 25 item 5: ``studygen check`` of the shipped project (every family)
  within 8x ``studygen --help``, with no cache of any kind (studygen keeps
  none); ``studygen render FAMILY`` of an unchanged family within 5x
  ``--help`` (its figures are current: decided from their stamps, nothing
  drawn, matplotlib not imported);
- issue 11 item 7: ``studygen check FAMILY`` in at most 0.35 s, and
  ``studygen --help`` within 1.3x ``python -c "import click"``.

The package's bytecode is compiled first (``compileall``, as ``pip install``
does; the development machine sets ``PYTHONDONTWRITEBYTECODE``, which would
otherwise make every start compile studygen from source; the libraries'
bytecode is there as pip left it). Each command runs in a fresh subprocess
on a copy of the committed project (render writes nothing into the checkout); the commands take turns, ``--repeat`` rounds, so
that the load of a shared machine falls on all of them alike. Printed are
the best and median wall seconds and the best CPU seconds (user + system of
the child), and each ratio to ``--help`` both ways: wall time on the shared
machine follows the other processes' load, CPU time much less. Times are
printed, never asserted (tests assert no wall times).

``--before DIR`` (a checkout of an earlier commit, e.g. ``git worktree add
/tmp/before 145b456``) times that version's commands too, in the same
rounds, so that before and after meet the same load; its lines are marked
``[before]`` and compared with this version's at the end.

``--extra-check-args`` and ``--cache-dir`` exist to measure earlier versions
the same way (they kept caches): ``--extra-check-args=--no-cache`` with a
warm cache folder is the uncached check issue 25 measured, ``--cache-dir ''``
runs with no cache folder at all.

Last measured (main at session 31's end against fd4d5fd3, session 29's
end, with ``--before``, ``--repeat 10``, 2026-12-06 23:16-23:17, load
average 1.1-1.2; this hour's ``--help`` best 0.046 s, faster than before,
which raises every ratio): check of the project 0.504 s against 0.537 s
(0.94x wall, 0.92x CPU; 11.1x against 11.0x ``--help``), one process 0.92x;
render deformable_detr 0.88x (4.1x ``--help``, met); render
deformable_detr_h200_torch 0.270 s against 0.261 s (1.04x; 5.9x against
5.3x ``--help``: MISSED). Check of the project: target 8x MISSED;
``benchmarks/check_floor.py`` put its two-process bound at 8.5x ``--help``
two minutes before.

Measured before (main fd4d5fd3, session 29's end, against 8442c0c, the
session's start, with ``--before``, ``--repeat 10``, 2026-12-06 19:14-19:16,
helpers stopped, load average 1.0-1.2, on a machine slower than the session
before: ``--help`` 0.060 s): check of the project 0.615 s against 0.645 s
(10.2x against 10.8x ``--help``; CPU 0.99x), one process 1.03x; render
deformable_detr_h200_torch 0.295 s against 0.304 s (4.9x against 5.1x; a run
just before gave 5.1x against 5.9x): at the 5x target within the run-to-run
spread; render deformable_detr 3.8x (met). Check of the project: target 8x
MISSED; ``benchmarks/check_floor.py`` puts the lower bound of its two-process
design at 9.3x ``--help`` (the same hour).

Measured before (branch render29 95f0265 against main 8442c0c, with
``--before``, 2026-12-06 18:35-18:38, ``--repeat 10``, load average 1.8
rising to 4.0 while other sessions' tests ran: wall medians twice the bests,
so the wall ratios moved by more than the changes): render
deformable_detr_h200_torch best CPU 0.288 s against 0.300 s (5.4x
``--help``'s 0.053 s CPU, the start 5.3x), best wall 6.2x against 5.4x;
check of the project 0.94x CPU. An interleaved A/B of 25 rounds just after
(load 3.3-4.1): render 291.7 against 295.1 ms best CPU, ``--help`` 53.6
against 54.8 ms. Target 5x: missed. Instructions (callgrind,
``PYTHONHASHSEED=0``, the same to 1e-6 from run to run whatever the load):
that render 1853.9M -> 1805.9M (-2.6 %), ``--help`` 240.0M -> 234.4M
(-2.3 %: ``records.kinds``, whose ResultKind became a NamedTuple, is on its
path), render deformable_detr 1173.3M -> 1129.9M; the ratio in instructions
stays 7.7x. Of main's 1853.9M: imports 41 % (the libraries and the
interpreter about 660M; studygen's own 84 modules 186M, now 141M for 82:
most of the cut is the methods Python writes and compiles for each
dataclass when its module is imported, 142 execs of generated source a
render on main, now 55 and 43 NamedTuple evals), scanning 2.4 MB of record
JSON 6.7 % (with studygen's hooks; ``json.loads`` alone takes 8 of its
20 ms), unmarshalling bytecode 5.6 %, compiling the family template's
generated Python 3.5 %, the cyclic collector 1.7 % (memory-bound: about
17 ms of the time, 6-12 ms of it in the one collection that follows the
render's pause).

Measured before (main 74ce9c5 against 81faeaa, session 27's start, with
``--before``, 2026-12-06 12:57-13:00, load average 1.0-1.3, ``--repeat 10``,
two runs): check of the project 0.94x the start's wall time, one process
1.01x (the session's new readings paid for by its speed work), 10.5x
``--help`` (0.062 s) in the second run, the start 11.6x in the first;
render deformable_detr_h200_torch 0.294-0.334 s (5.3-5.4x; the start
5.4x), deformable_detr 4.0x. Targets 8x and 5x: missed. The libraries'
own floor for that render (imports of click, jinja2, PyYAML, markdown-it
and mdformat, the study file's YAML, the family template's compile, one
mdformat pass over its README, the interpreter) is about 0.24 s, 3.9x
``--help``.

Measured before (main 5f78300 against a467614, session 26's start, with
``--before``, 2026-12-06 11:03, load average 0.4-0.9, ``--repeat 10``):
check of the project 0.557 s against 0.521 s (10.0x ``--help`` of 0.056 s,
9.6x; CPU 1.07x: the session's new readings, SG225 among them), one process
1.01x; render deformable_detr_h200_torch 0.292 s against 0.300 s (5.2x,
5.5x); render deformable_detr 3.9x. Targets 8x and 5x: missed.

Measured before (main 266e713 against 115c69c, the session's start, with
``--before``, 2026-12-06, a noisier hour of the machine: medians 10-25 %
above the bests): ``--repeat 15``: check of the project 0.550 s against
0.552 s (9.7x ``--help`` of 0.057 s, 9.9x), render
deformable_detr_h200_torch 0.291 s against 0.305 s (5.1x, 5.5x); a run of
``--repeat 10`` just before gave 10.6x / 9.3x and 5.8x / 5.7x: the ratios
move by more than the changes. Interleaved A/B of 25 rounds (best CPU):
one-process check 760 against 772 ms, forked check 560 against 560 ms wall,
render of the H200 family 301 against 309 ms, ``--help`` 52.6 against
55.6 ms: the session's two speed changes (no interpreter teardown, about
9 ms a command and 3 ms of ``--help``; the drawing code's digest written at
development time, 6 ms a process with charts) were about paid for by its new
lint and check readings, and the faster ``--help`` leaves the ratios where
they were. Both targets MISSED.

Measured before (main c9e7170 against 314b299, that session's start, with
``--before``, ``--repeat 10``, 2026-12-06, load average 0.9-1.2, on a machine
slower than the one before: ``--help`` 0.057 s against 0.038 s): check of the
project 0.547 s against 0.529 s (1.03x wall, 1.02x CPU; 9.7x ``--help``, 9.3x
for 314b299 in the same run), one process 0.719 s against 0.711 s; render
deformable_detr_h200_torch 0.299 s against 0.294 s (5.3x, 5.2x): both
MISSED; render deformable_detr 3.8x (met); check deformable_detr 0.348 s
(issue 11's 0.35 s, met). In one process 496 patterns compile in 74-77 ms
(studygen's 345 about 58 ms), and the forked check's parent compiles 63 ms of
them after the fork; ``gc.freeze()`` before the fork changed neither the
page faults (23.7k) nor the times.

Measured before (main 9643f91 against d290d69, that session's start, with
``--before``, ``--repeat 10``, 2026-12-06, load average 1.4-1.5 just after
the session's helpers stopped): check of the project 0.339 s against 0.330 s
(1.03x wall, 1.03x CPU; 9.0x ``--help`` of 0.038 s, 8.8x for d290d69 in the
same run), one process 0.466 s against 0.449 s; render
deformable_detr_h200_torch 0.200 s against 0.196 s (5.3x, 5.2x): both
MISSED; render deformable_detr 3.8x (met). The session's new readings (SG224
and SG212 in the study file's prose, SG103 over range cells and worded
ratios, SG107 over variant columns, SG101 summary ranges, an engine's layer
precisions) cost about 3 % of a project check, mostly once a process: their
modules and about 4 ms more of regular-expression compiles (199 patterns
against 180). A timeline of the forked check (each study's start and end in
each process) showed where the rest goes: each process's first study costs
100-140 ms more than warm (the imports made after the fork, about 60 ms;
regular-expression compiles, about 27 ms; 41 dataclasses, about 12 ms; the
H200 study's project template, about 20 ms), paid in both processes at
once, so at full length of wall time. A prototype that lints every README in
the child and checks the studies' records in either gave 0.32-0.34 s against
0.32-0.34 s (the lint's first-use cost is shared with the other checks, which
use its figure reader, vocabulary and Markdown parser); pausing the collector
while a command's modules are imported was within the run-to-run spread.

Measured before (main 4505d2c plus SG224's last mend, against 19d8e5d, that
session's start, with ``--before``, ``--repeat 10``, 2026-12-05, load
average 0.9-1.2, helpers stopped): check of the project 0.327 s against
0.336 s (0.97x wall, 0.98x CPU; 8.6x ``--help`` of 0.038 s, 9.0x for
19d8e5d in the same run), one process 0.451 s against 0.463 s; render
deformable_detr_h200_torch 0.196 s against 0.199 s (5.2x, 5.3x): both
MISSED; render deformable_detr 3.8x (met). The session's speed changes
(about 16 ms of CPU a project check: SG210/SG223 match each kernel name once
per check, is_prose_field looks paths up by length and first step, SG106
reads each set of terms once a document) were partly spent by its new
readings (SG107's best-of claims, SG213 on the study file's prose, SG224).

Measured before (main 8e897c0 against 436ef6a, that session's start, with
``--before``, ``--repeat 10``, 2026-12-05, load average 0.8-0.9): every
command 0.92-0.99x the time of 436ef6a in wall time (check of the project
0.333-0.340 s, render deformable_detr_h200_torch 0.213 -> 0.198 s), and
``--help`` 0.92x (0.041 -> 0.038 s): the console freezes what is alive
before the process exits (``gc.freeze``), so the interpreter's teardown no
longer walks every object with its last collections (about 20 ms of a check
of the project, 15 ms of a render, 3 ms of ``--help``). The ratios of item 5
therefore did not move down: check of the project 8.9x ``--help`` (8.3x for
436ef6a in that run, its ``--help`` 0.041 s), render
deformable_detr_h200_torch 5.2x (5.2x): both MISSED; render deformable_detr
3.8x (met). The session's new readings (SG223, SG221 on detections, the
prose confounds, the CPU machine label, unstable profiles) cost nothing
measurable on the shipped project.

Measured before (main 2a45879 against 8659713, that session's start, with
``--before``, ``--repeat 10``, 2026-12-05, load average 0.7-0.9): check of the
project 0.334 s against 0.331 s (1.01x; 8.1x ``--help`` best in that run for
both: at the 8x target, no margin); one process 11.1x; render
deformable_detr 3.7x (met); render deformable_detr_h200_torch 0.207 s, 5.0x
(at the target, as before). A mid-session run had check at 1.04x: lint of
the shipped READMEs 47.5 -> 56.4 ms, a README's 'Kernel' column of six-word
descriptions newly read as labels; reading long labels only under headers of
machines and runs took it back (51.3 ms). Tried and dropped: reading
matplotlib's version without importing importlib.metadata (mdformat imports
it in every check and render anyway).

Measured before (main a762f00 against 1ba1e8d, that session's start, with
``--before``, ``--repeat 10``, 2026-12-05, load average 0.2-0.9): check of the
project 1.01x the time of 1ba1e8d (0.326 s, 7.9x ``--help`` best, 8.0x
medians: at the 8x target, no margin; 1ba1e8d 7.8x / 8.0x in the same run),
after the session's new readings had made it 1.03x (lint of the shipped
READMEs 44 -> 49 ms, SG212's reading of the study files' prose 3 ms) and
two mends took most of it back (cells indexed by printed figure once a
document, prose fields without a time not parsed); one process 10.7x; render
deformable_detr 3.7x (met); render deformable_detr_h200_torch 0.206 s, 5.0x
(at the target, as before); check of each family under 0.33 s (met).
Measured: importing the checks after the fork instead of before it gains
nothing (0.332 against 0.333 s): the import stays on every share's path.

Measured before (main c1293f5 against edb6a28, the session's start, with
``--before``, ``--repeat 10``, 2026-12-05, load average 1.1): check of the
project 1.02x the time of edb6a28 (7.9x -> 8.1x ``--help`` best in that run,
7.8x -> 8.0x medians: at the 8x target, no margin; an earlier run of edb6a28
measured 7.7-7.8x), the two lint readings added that session (comparisons on
named rows, variants across sections) costing lint of the shipped READMEs
39 -> 46 ms in process; renders and ``--help`` unchanged (1.00-1.02x); render
deformable_detr_h200_torch 5.0-5.3x (at the target, as before).

Measured before (main 2ce04f0+ against 02d1891 with ``--before``, ``--repeat 10``,
2026-12-05, load average 1.1-1.4): ``--help`` 0.042 s; check of the
project 0.413 -> 0.318 s wall, 10.2x -> 7.6x (medians 7.8x; target 8x:
met), CPU 0.530 s (12.8x: missed); one process 0.435 s (10.4x); render
deformable_detr 0.154 s, 3.7x (met); render deformable_detr_h200_torch
0.203 s, 4.8x best, 5.2x medians (at the target: met by the best run,
missed by the medians); check deformable_detr 0.228 s and
deformable_detr_h200_torch 0.306 s (0.35 s: met).

Measured before (main fc1ab03 against 02d1891 with ``--before``, ``--repeat
10``, best of 10, load average 0.6 on the 2-core development machine, a
faster one than the figures below it): ``--help`` 0.040 s; check of the
project 0.414 -> 0.314 s wall, 10.3x -> 7.8x ``--help`` (medians 7.9x;
target 8x: met in wall time, with no margin), in CPU time 0.414 -> 0.517 s
(10.4x -> 13.0x: missed, and more than before); in one process
(``STUDYGEN_JOBS=1``, the line this script prints for it) unchanged at
0.415 s, 10.3x; render deformable_detr 0.150 s, 3.7x (met); render
deformable_detr_h200_torch 0.199 s, 4.9-5.0x (at the target, no margin);
check deformable_detr 0.216 s and deformable_detr_h200_torch 0.297 s
(issue 11's 0.35 s: met). What moved: the project's five studies are
checked in two processes (check itself and one forked child, the studies
dealt by the bytes they read), each importing and compiling what its first
study needs while the other does the same (the H200 study, half of the
work, took 0.22 s of its process's time with that, the four others 0.20 s
together). No render figure moved. The pool of fc1ab03 measured the same
(0.31-0.32 s); it was replaced for its faults under interrupts, not speed.

Earlier (main 7e56d03 against 4c578c0, on the slower machine, ``--help``
0.055-0.057 s): check of the project 0.641 -> 0.601 s, 11.2x -> 10.6-11.0x;
render deformable_detr 0.232 -> 0.214 s, 4.1x -> 3.8x; render
deformable_detr_h200_torch 0.311 -> 0.281-0.285 s, 5.5x -> 5.0x idle and
5.1x at load 2.5; check deformable_detr 0.334 -> 0.313 s; check
deformable_detr_h200_torch 0.458 -> 0.425 s. What remains of the H200
render (in-process CPU, then): imports about 0.16 s (of which the
interpreter and click, as for ``--help``, and 13 ms creating 28
dataclasses), compiling the family's template 21 ms, generating its text
about 28 ms, formatting it 20 ms, the records 28 ms and the study file's
YAML (PyYAML's own Python scanner) about 10 ms; regular expressions
compiled in the process about 16 ms, most of them the libraries' own.

Usage: ``python benchmarks/family_check.py [--repeat R] [--before DIR] [--extra-check-args ARGS] [--cache-dir DIR] [FAMILY ...]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_PROJECT_CHECK_RATIO = 8.0  # issue 25 item 5
TARGET_RENDER_RATIO = 5.0  # issue 25 item 5
TARGET_FAMILY_CHECK_S = 0.35  # issue 11 item 7
TARGET_HELP_RATIO = 1.3  # issue 11 item 7


def run_once(argv: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run of ``argv`` in ``cwd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr.strip()}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def line(label: str, walls: list[float], cpus: list[float]) -> str:
    return (f"{label}: best {min(walls):.3f} s, median {statistics.median(walls):.3f} s wall, "
            f"best {min(cpus):.3f} s CPU over {len(walls)} runs")


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def ratio_line(label: str, times: tuple[list, list], base: tuple[list, list], target: float) -> str:
    wall, cpu = min(times[0]) / min(base[0]), min(times[1]) / min(base[1])
    median_wall = statistics.median(times[0]) / statistics.median(base[0])
    return (f"  {label} / --help: {wall:.1f}x wall (best), {median_wall:.1f}x wall (medians), {cpu:.1f}x CPU"
            f"  target <= {target:g}x: wall {verdict(wall <= target)}, medians {verdict(median_wall <= target)}, "
            f"CPU {verdict(cpu <= target)}")


def report(mark: str, times: dict[str, tuple[list, list]]) -> None:
    """Print each command's times (``mark`` before each line) and its ratios against the targets."""
    help_times = times["studygen --help"]
    for label, (walls, cpus) in times.items():
        print(mark + line(label, walls, cpus))
        if label.startswith("studygen check (the shipped project"):
            print(ratio_line("check of the project", (walls, cpus), help_times, TARGET_PROJECT_CHECK_RATIO))
        elif label.startswith("studygen render"):
            print(ratio_line("render of an unchanged family", (walls, cpus), help_times, TARGET_RENDER_RATIO))
        elif label.startswith("studygen check "):
            print(f"  target <= {TARGET_FAMILY_CHECK_S} s: wall {verdict(min(walls) <= TARGET_FAMILY_CHECK_S)}, "
                  f"CPU {verdict(min(cpus) <= TARGET_FAMILY_CHECK_S)}")
    click_times = times['python -c "import click"']
    wall_ratio, cpu_ratio = min(help_times[0]) / min(click_times[0]), min(help_times[1]) / min(click_times[1])
    print(f"{mark}--help / import click: {wall_ratio:.2f}x wall, {cpu_ratio:.2f}x CPU  target <= {TARGET_HELP_RATIO}x: "
          f"wall {verdict(wall_ratio <= TARGET_HELP_RATIO)}, CPU {verdict(cpu_ratio <= TARGET_HELP_RATIO)}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("families", nargs="*", default=["deformable_detr", "deformable_detr_h200_torch"],
                        help="shipped families to check and render one by one (default: both)")
    parser.add_argument("--repeat", type=int, default=10, help="rounds of runs (default 10)")
    parser.add_argument("--extra-check-args", default="", help="more arguments for every check (e.g. --no-cache)")
    parser.add_argument("--cache-dir", default=None, help="STUDYGEN_CACHE_DIR for every run (earlier versions only)")
    parser.add_argument("--before", type=Path, default=None,
                        help="a checkout of an earlier version, timed in the same rounds (lines marked [before])")
    args = parser.parse_args(argv)

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average "
          f"{os.getloadavg()[0]:.2f}; studygen's bytecode compiled (compileall), as pip install leaves it")
    studygen = [sys.executable, "-m", "studygen"]
    extra = args.extra_check_args.split()
    commands = {"studygen --help": [*studygen, "--help"], 'python -c "import click"': [sys.executable, "-c", "import click"],
                "studygen check (the shipped project)": [*studygen, "check", *extra],
                # the same in one process: what the workers cost in CPU, and the figure of a one-core machine
                "studygen check (the shipped project, one process)": ["env", "STUDYGEN_JOBS=1", *studygen, "check",
                                                                      *extra]}
    for family in args.families:
        commands[f"studygen check {family}"] = [*studygen, "check", *extra, family]
        commands[f"studygen render {family} (unchanged)"] = [*studygen, "render", family]
    versions = {"": REPO} if args.before is None else {"": REPO, "[before] ": args.before.resolve()}
    envs = {}
    for mark, checkout in versions.items():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "studygen")], check=True)
        envs[mark] = dict(os.environ, PYTHONPATH=str(checkout) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        if args.cache_dir is not None:
            envs[mark]["STUDYGEN_CACHE_DIR"] = args.cache_dir
    runs = {mark + label: (argv_, envs[mark]) for mark in versions for label, argv_ in commands.items()}
    times: dict[str, tuple[list, list]] = {label: ([], []) for label in runs}
    with tempfile.TemporaryDirectory(prefix="studygen-family-check-") as scratch:
        # Each version checks and renders a copy of its own checkout's project, so that render cannot write
        # into a checkout, and an unchanged family stays unchanged for each: a version whose README or chart
        # stamps differ from the other's would otherwise rewrite (and redraw) what the other just wrote.
        projects = {}
        for index, (mark, checkout) in enumerate(versions.items()):
            projects[mark] = Path(scratch) / f"project-{index}"
            for folder in ("families", "measurements", "templates"):
                shutil.copytree(checkout / folder, projects[mark] / folder)
        runs = {label: (argv_, env, projects[label[:len("[before] ")] if label.startswith("[before] ") else ""])
                for label, (argv_, env) in runs.items()}
        for argv_, env, project in runs.values():  # a first run of each (a cache of earlier versions fills here)
            run_once(argv_, env, project)
        for _ in range(args.repeat):
            for label, (argv_, env, project) in runs.items():
                wall, cpu = run_once(argv_, env, project)
                times[label][0].append(wall)
                times[label][1].append(cpu)
    for mark in versions:
        report(mark, {label[len(mark):]: value for label, value in times.items()
                      if label.startswith(mark) and (mark or not label.startswith("[before] "))})
    if args.before is not None:
        print("after / before (best wall, best CPU):")
        for label in commands:
            after, before = times[label], times["[before] " + label]
            print(f"  {label}: {min(after[0]) / min(before[0]):.2f}x wall, {min(after[1]) / min(before[1]):.2f}x CPU")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
