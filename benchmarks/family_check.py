"""Start-up benchmark: ``studygen check`` of one shipped family, and ``studygen --help``.

Issue 11's targets (item 7), on the 2-core development machine:

- ``studygen check FAMILY`` of one shipped family, its charts current, in at
  most 0.35 s (a family whose charts are current never imports matplotlib:
  the chart stamps read its version from the package metadata). Printed
  three ways, with the target judged on the first:

  1. nothing changed since the last check: the findings kept for unchanged
     inputs are reused (``studygen.memo``; every input file is hashed and
     compared, so this is what a re-check in an edit loop or a CI cache costs);
  2. ``--no-cache``: every check runs, the other kept results (compiled
     schema checks, templates, formatted Markdown) read from the cache folder
     (the first check after an edit);
  3. an empty cache folder: the first run on a machine, which compiles the
     schema checks and templates and formats the README twice;
- ``studygen --help`` within 1.3 times ``python -c "import click"``.

The package's bytecode is compiled first (``compileall``, as ``pip install``
does; the development machine sets ``PYTHONDONTWRITEBYTECODE``, which would
otherwise make every start compile the package from source). Each command
runs in a fresh subprocess ``--repeat`` times on the committed tree; printed are the best and median wall seconds and the best CPU seconds
(user + system of the child), the latter because the development machine is
shared and wall time there follows the other processes' load. Times are
printed, never asserted (tests assert no wall times).

Usage: ``python benchmarks/family_check.py [--repeat R] [FAMILY ...]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_FAMILY_CHECK_S = 0.35
TARGET_HELP_RATIO = 1.3


def timed(argv: list[str], repeat: int, cold: bool = False) -> tuple[list[float], float]:
    """``(wall seconds of each run, best CPU seconds)`` of ``argv`` run ``repeat``
    times; ``cold``: each run with an empty cache folder (``STUDYGEN_CACHE_DIR``),
    as the first run on a machine, which compiles the schema checks and templates."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    walls, cpus = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="studygen-cold-cache-") as empty:
            if cold:
                env["STUDYGEN_CACHE_DIR"] = empty
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True)
            walls.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr.strip()}")
    return walls, min(cpus)


def line(label: str, walls: list[float], cpu_s: float) -> str:
    return (f"{label}: best {min(walls):.3f} s, median {statistics.median(walls):.3f} s wall, "
            f"best {cpu_s:.3f} s CPU over {len(walls)} runs")


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("families", nargs="*", default=["deformable_detr", "deformable_detr_h200_torch"],
                        help="shipped families to check (default: both)")
    parser.add_argument("--repeat", type=int, default=10, help="runs per command (default 10)")
    args = parser.parse_args(argv)

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average "
          f"{os.getloadavg()[0]:.2f}")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "studygen")], check=True)
    studygen = [sys.executable, "-m", "studygen"]
    for family in args.families:
        timed([*studygen, "check", family], 1)  # keeps the findings the timed runs reuse
        walls, cpu_s = timed([*studygen, "check", family], args.repeat)
        print(line(f"studygen check {family} (unchanged since the last check)", walls, cpu_s)
              + f"  target <= {TARGET_FAMILY_CHECK_S} s: wall {verdict(min(walls) <= TARGET_FAMILY_CHECK_S)},"
              f" CPU {verdict(cpu_s <= TARGET_FAMILY_CHECK_S)}")
        fresh_walls, fresh_cpu_s = timed([*studygen, "check", "--no-cache", family], args.repeat)
        print(line(f"  every check run (--no-cache) {family}", fresh_walls, fresh_cpu_s))
        cold_walls, cold_cpu_s = timed([*studygen, "check", family], max(1, args.repeat // 2), cold=True)
        print(line(f"  first run on a machine (empty cache folder) {family}", cold_walls, cold_cpu_s))
    help_walls, help_cpu = timed([*studygen, "--help"], args.repeat)
    click_walls, click_cpu = timed([sys.executable, "-c", "import click"], args.repeat)
    print(line("studygen --help", help_walls, help_cpu))
    print(line('python -c "import click"', click_walls, click_cpu))
    wall_ratio, cpu_ratio = min(help_walls) / min(click_walls), help_cpu / click_cpu
    print(f"--help / import click: {wall_ratio:.2f}x wall, {cpu_ratio:.2f}x CPU  target <= {TARGET_HELP_RATIO}x: "
          f"wall {verdict(wall_ratio <= TARGET_HELP_RATIO)}, CPU {verdict(cpu_ratio <= TARGET_HELP_RATIO)}")


if __name__ == "__main__":
    main()
