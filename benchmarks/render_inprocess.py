"""In-process CPU time of ``render_study`` for each shipped family: cold (the
first render of a fresh process, which imports Jinja and mdformat, compiles
the templates and builds the Markdown parser) and warm (later renders in the
same process, each of a study loaded afresh).

Only ``render_study`` is timed (``time.process_time``), not loading the
study; the cyclic collector is paused around it as ``studygen render`` pauses
it. Each process renders each family once cold and ``--warm`` times warm;
``--repeat`` processes per family, best of all printed. The package's
bytecode is compiled first (``compileall``), as ``pip install`` leaves it.
``--before DIR`` (a checkout of an earlier commit) is timed in the same
rounds, taking turns, so that both meet the same load.

Usage: ``python benchmarks/render_inprocess.py [--repeat R] [--warm W] [--before DIR] [FAMILY ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
from pathlib import Path
from studygen.memory import collector_paused
from studygen.render.engine import render_study
from studygen.study import load_study
root, family, warm = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
times = []
for _ in range(1 + warm):
    with collector_paused():
        study = load_study(root / "families" / family, root)
        started = time.process_time()
        render_study(study)
        times.append(time.process_time() - started)
print(json.dumps(times))
"""


def timed(checkout: Path, family: str, warm: int) -> list[float]:
    """CPU seconds of each render_study of ``family`` in one fresh process of ``checkout``, the cold one first."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", CHILD, str(checkout), family, str(warm)], cwd=checkout, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{checkout}: render_study of {family} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("families", nargs="*", help="shipped families (default: every one)")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per family (default 5)")
    parser.add_argument("--warm", type=int, default=5, help="warm renders per process (default 5)")
    parser.add_argument("--before", type=Path, default=None, help="an earlier checkout, timed in the same rounds")
    args = parser.parse_args(argv)
    families = args.families or sorted(path.parent.name for path in (REPO / "families").glob("*/study.yaml"))
    versions = {"": REPO} if args.before is None else {"": REPO, "[before] ": args.before.resolve()}
    for checkout in versions.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "studygen")], check=True)
    best: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeat):
        for family in families:
            for mark, checkout in versions.items():
                cold, *warm = timed(checkout, family, args.warm)
                now = best.setdefault((mark, family), [cold, min(warm, default=cold)])
                now[0], now[1] = min(now[0], cold), min([now[1], *warm])
    print(f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat} processes, ms CPU (cold, warm)")
    for family in families:
        line = " ".join(f"{mark or '[after] '}cold {best[mark, family][0] * 1000:6.1f} warm {best[mark, family][1] * 1000:5.1f}"
                        for mark in versions)
        print(f"{family:30s} {line}")


if __name__ == "__main__":
    main()
