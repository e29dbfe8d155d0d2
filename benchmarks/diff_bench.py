"""Speed of ``studygen diff`` against ``studygen check`` of the same project (issue 27, item 4).

Target: a diff of the shipped project between two commits within 2x a check
of it. The project is cloned from this repository's HEAD into a temporary
folder and one commit is added that moves a latency in every shipped family
(each timing of the result shifted by 0.5 ms, the README left as it was), so
the diff loads, checks and compares every family at both revisions: the
most work a diff of this project can do. Printed, each in a fresh
subprocess ``--repeat`` times, best and median wall seconds and best CPU
seconds (user + system; the development machine is shared, so wall time
follows the other processes' load):

1. ``studygen check --no-cache`` at the new commit: every check runs, as in
   a CI job without a kept cache folder (the compiled schema checks and
   templates are read from the cache folder, as diff reads them);
2. ``studygen check``: the findings kept for unchanged inputs reused;
3. ``studygen diff HEAD~1 HEAD``;
4. ``studygen diff HEAD~1 HEAD`` where the commit changes nothing of the
   studies (a file outside them): git and the comparison of blob ids only.

The target is judged against (1), the check a CI job runs. Times are
printed, never asserted.

Usage: ``python benchmarks/diff_bench.py [--repeat R]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_RATIO = 2.0
SHIFT_MS = 0.5


def git(repo: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com", GIT_COMMITTER_NAME="bench",
               GIT_COMMITTER_EMAIL="bench@example.com")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def shift_first_latency(path: Path) -> None:
    """Move the record's first single-value latency (and its repeat medians and compilations) by SHIFT_MS."""
    record = json.loads(path.read_text())
    for result in record["results"]:
        if result["kind"] == "latency" and "value_ms" in result:
            result["value_ms"] = round(result["value_ms"] + SHIFT_MS, 6)
            distribution = result.get("distribution") or {}
            if "repeat_medians_ms" in distribution:
                distribution["repeat_medians_ms"] = [round(v + SHIFT_MS, 6) for v in distribution["repeat_medians_ms"]]
            for compilation in result.get("compilations") or []:
                compilation["median_ms"] = round(compilation["median_ms"] + SHIFT_MS, 6)
            break
    path.write_text(json.dumps(record, indent=2) + "\n")


def project(workdir: Path) -> Path:
    """A clone of HEAD with one commit that moves a latency in every family."""
    clone = workdir / "project"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True)
    for family in sorted(p.name for p in (clone / "families").iterdir() if (p / "study.yaml").is_file()):
        first = sorted((clone / "measurements" / family).glob("*.json"))[0]
        shift_first_latency(first)
    git(clone, "commit", "-q", "-am", "a latency moved in every family")
    return clone


def timed(argv: list[str], cwd: Path, repeat: int) -> tuple[list[float], float]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr.strip()}")
    return walls, min(cpus)


def line(label: str, walls: list[float], cpu_s: float) -> str:
    return (f"{label}: best {min(walls):.3f} s, median {statistics.median(walls):.3f} s wall, "
            f"best {cpu_s:.3f} s CPU over {len(walls)} runs")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (default 5)")
    args = parser.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "studygen")], check=True)
    studygen = [sys.executable, "-m", "studygen"]
    with tempfile.TemporaryDirectory(prefix="studygen-diff-bench-") as workdir:
        clone = project(Path(workdir))
        timed([*studygen, "check"], clone, 1)  # fills the cache folder both commands read
        check_walls, check_cpu = timed([*studygen, "check", "--no-cache"], clone, args.repeat)
        print(line("studygen check --no-cache (every check runs)", check_walls, check_cpu))
        kept_walls, kept_cpu = timed([*studygen, "check"], clone, args.repeat)
        print(line("studygen check (findings of unchanged inputs reused)", kept_walls, kept_cpu))
        diff_walls, diff_cpu = timed([*studygen, "diff", "HEAD~1", "HEAD"], clone, args.repeat)
        print(line("studygen diff HEAD~1 HEAD (a latency moved in every family)", diff_walls, diff_cpu))
        (clone / "notes.txt").write_text("outside the studies\n")
        git(clone, "add", "notes.txt")
        git(clone, "commit", "-q", "-m", "notes")
        same_walls, same_cpu = timed([*studygen, "diff", "HEAD~1", "HEAD"], clone, args.repeat)
        print(line("studygen diff HEAD~1 HEAD (no study input changed)", same_walls, same_cpu))
    wall_ratio, cpu_ratio = min(diff_walls) / min(check_walls), diff_cpu / check_cpu
    met = "met" if wall_ratio <= TARGET_RATIO else "MISSED"
    print(f"diff / check --no-cache: {wall_ratio:.2f}x wall, {cpu_ratio:.2f}x CPU  target <= {TARGET_RATIO}x: {met}")


if __name__ == "__main__":
    main()
