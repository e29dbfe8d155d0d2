"""Where a check of the shipped project spends its time, per process: the floor issue 25 item 5's target meets.

``studygen check`` of the project deals its studies to two processes (itself and a forked child, on a 2-core
machine), so its wall time is at least the part before the fork (interpreter, click, the check command's imports)
plus, in each process, what its first study pays once (the imports made after the fork, every regular expression
the checks and lint compile, the Markdown and template machinery's first use) plus its share of the studies' own
work. This script measures those parts in fresh processes, ``--repeat`` times, best of each:

- ``--help``: ``studygen --help`` wall time, the ratio's base;
- head: importing ``studygen.commands.check`` in a fresh interpreter (what check does before it forks),
  measured inside the process, plus the interpreter's start (``python -c pass``);
- first-study cost: one process checks every study twice in a row; the first pass less the second is what a
  process pays once, of which the regular-expression compiles are timed apart (``re``'s compiler, wrapped here
  only);
- work: the second pass, each study's check with everything imported and compiled.

From them it prints the lower bound of a two-process check (head + first-study cost + half the work, the work split
evenly) and its ratio to ``--help``: a check of that design cannot go below it without less per-process cost or
less work. Figures are printed, never asserted.

Last measured: see the closing note of issue 25 (session 29).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter: checks every study twice, timing each pass and the regex compiles of each.
_PASSES = r"""
import json, sys, time
import re._compiler as compiler
compiled = {"seconds": 0.0, "count": 0}
_compile = compiler.compile
def timed_compile(pattern, flags=0):
    start = time.perf_counter()
    try:
        return _compile(pattern, flags)
    finally:
        compiled["seconds"] += time.perf_counter() - start
        compiled["count"] += 1
compiler.compile = timed_compile
start = time.perf_counter()
from pathlib import Path
from studygen.commands.check import check_study
from studygen.study import resolve_targets
head = time.perf_counter() - start
root = Path(sys.argv[1])
studies = resolve_targets(root, ())
passes = []
for _ in range(2):
    compiled.update(seconds=0.0, count=0)
    begin = time.perf_counter()
    per_study = {}
    for study in studies:
        study_start = time.perf_counter()
        check_study(study, root)
        per_study[study.name] = time.perf_counter() - study_start
    passes.append({"seconds": time.perf_counter() - begin, "regex_seconds": compiled["seconds"],
                   "regex_count": compiled["count"], "per_study": per_study})
print(json.dumps({"head": head, "passes": passes}))
"""


def _wall(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(repeat: int) -> dict:
    """Best of ``repeat`` fresh processes for each part, in seconds: ``help``, ``start`` (``python -c pass``),
    ``head``, ``first`` and ``second`` pass, ``regex`` (the first pass's compiles, with their ``regex_count``) and
    ``per_study`` (the second pass's seconds by study, best of each)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), STUDYGEN_JOBS="1")
    best: dict = {"help": [], "start": [], "head": [], "first": [], "second": [], "regex": [], "per_study": {}}
    count = 0
    for _ in range(repeat):
        best["help"].append(_wall([sys.executable, "-m", "studygen", "--help"], env))
        best["start"].append(_wall([sys.executable, "-c", "pass"], env))
        done = subprocess.run([sys.executable, "-c", _PASSES, str(REPO)], cwd=REPO, env=env, capture_output=True,
                              text=True, check=True)
        figures = json.loads(done.stdout)
        first, second = figures["passes"]
        best["head"].append(figures["head"])
        best["first"].append(first["seconds"])
        best["second"].append(second["seconds"])
        best["regex"].append(first["regex_seconds"])
        count = first["regex_count"]
        for name, seconds in second["per_study"].items():
            best["per_study"].setdefault(name, []).append(seconds)
    out = {key: min(values) for key, values in best.items() if key != "per_study"}
    out["per_study"] = {name: min(values) for name, values in best["per_study"].items()}
    out["regex_count"] = count
    return out


def report(figures: dict) -> None:
    """Print the parts and the two-process lower bound, in ms and as multiples of ``--help``."""
    help_s = figures["help"]
    once = figures["first"] - figures["second"]
    work = figures["second"]
    largest = max(figures["per_study"].values())
    share = max(work / 2, largest)  # a study is not split: the largest bounds a share from below
    head = figures["start"] + figures["head"]
    bound = head + once + share

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:7.1f} ms ({seconds / help_s:4.1f}x --help)"

    print(f"--help                          {ms(help_s)}")
    print(f"head: interpreter + imports     {ms(head)}")
    print(f"first study's once-only cost    {ms(once)}, of which regex compiles "
          f"{figures['regex'] * 1000:.1f} ms ({figures['regex_count']} patterns)")
    print(f"work of every study, warm       {ms(work)}; largest study {largest * 1000:.1f} ms")
    for name, seconds in sorted(figures["per_study"].items(), key=lambda item: -item[1]):
        print(f"    {name:32s} {seconds * 1000:7.1f} ms")
    print(f"two-process lower bound         {ms(bound)} = head + once-only cost + the larger share")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per part; the best is printed")
    report(measure(parser.parse_args(argv).repeat))


if __name__ == "__main__":
    main()
