"""Benchmark: memory and time of ``studygen collect coco`` on large inputs.

Target (issue 13, COCO item 7): inputs up to 500 MB within 4 GB of peak
memory. Before the change, 450 MB of annotations took 7.1 GB and 450 MB of
detections 6.4 GB (the issue's figures).

Two cases, each generated seeded (benchmarks/coco_synth.py) and run as
``studygen collect coco`` in a fresh subprocess; the figures printed are the
file sizes, the wall time and the peak resident memory of that subprocess
(``getrusage(RUSAGE_CHILDREN).ru_maxrss``), against the 4 GB budget:

- ``annotations``: ~450 MB of ground truth shaped like COCO train2017 (about
  120 000 images, 9 boxes each with a 20-point polygon), detections on the
  first 2000 images;
- ``detections``: ground truth of 50 000 images (8 boxes each, no polygons)
  and ~450 MB of detections (about 107 per image, 5.4 million).

Figures only; nothing is asserted. Generating the files takes a few minutes
each (``--keep DIR`` reuses them); evaluating 120 000 images with pycocotools
takes about ten. Run::

    python benchmarks/coco_bench.py [--size-mb 450] [--case annotations|detections|both]
        [--backend pycocotools|faster-coco-eval] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from coco_synth import write_detections, write_ground_truth  # noqa: E402

BUDGET_BYTES = 4 * 1024**3
POLYGON_ANNOTATION_BYTES = 410  # per annotation with a 20-point polygon, as coco_synth writes it
DETECTION_BYTES = 86  # per detection, as coco_synth writes it


def generate(case: str, size_mb: float, folder: Path) -> tuple[Path, Path]:
    """The ground truth and detections of ``case``, written once into ``folder``."""
    gt, dt = folder / f"{case}-{size_mb:g}-gt.json", folder / f"{case}-{size_mb:g}-dt.json"
    if gt.exists() and dt.exists():
        return gt, dt
    if case == "annotations":
        images = max(10, int(size_mb * 1e6 / (9 * POLYGON_ANNOTATION_BYTES)))
        write_ground_truth(gt, images, 9, polygon_points=20)
        write_detections(dt, min(2000, images), 9, extra=2)
    else:
        images = 50_000 if size_mb >= 100 else 5_000
        extra = max(0, round(size_mb * 1e6 / (images * DETECTION_BYTES) - 7.2))
        write_ground_truth(gt, images, 8)
        write_detections(dt, images, 8, extra=extra)
    return gt, dt


def run_collect(gt: Path, dt: Path, backend: str, folder: Path) -> tuple[int, float, int, str]:
    """(exit code, wall seconds, peak RSS bytes, last output line) of one collect coco run in a subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    env = dict(os.environ, PYTHONPATH=str(REPO))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "studygen", "collect", "coco", "--family", "bench", "--job",
                           f"{gt.stem}-{backend}", "--measurements", str(folder / "measurements"), "--annotations",
                           str(gt), "--detections", str(dt), "--dataset", gt.stem, "--backend", backend],
                          env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of the children is the largest of any child so far: a fresh process per case keeps it honest
    peak_bytes = max(peak, before) * 1024
    lines = (done.stdout or done.stderr).strip().splitlines()
    return done.returncode, wall, peak_bytes, lines[-1] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=450.0)
    parser.add_argument("--case", choices=("annotations", "detections", "both"), default="both")
    parser.add_argument("--backend", choices=("pycocotools", "faster-coco-eval"), default="pycocotools")
    parser.add_argument("--keep", type=Path, help="folder for the generated files (reused when present)")
    args = parser.parse_args()
    cases = ("annotations", "detections") if args.case == "both" else (args.case,)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for case in cases:
            # each case in its own process tree: ru_maxrss of RUSAGE_CHILDREN only grows
            if len(cases) > 1:
                subprocess.run([sys.executable, __file__, "--size-mb", str(args.size_mb), "--case", case,
                                "--backend", args.backend, "--keep", str(folder)], check=False)
                continue
            start = time.perf_counter()
            gt, dt = generate(case, args.size_mb, folder)
            made = time.perf_counter() - start
            code, wall, peak, last = run_collect(gt, dt, args.backend, folder)
            print(f"{case}: annotations {gt.stat().st_size / 1e6:.0f} MB, detections {dt.stat().st_size / 1e6:.0f} MB "
                  f"(generated in {made:.0f} s); {args.backend}: exit {code}, {wall:.0f} s, peak memory "
                  f"{peak / 1024**3:.2f} GiB ({peak / BUDGET_BYTES:.0%} of the 4 GiB budget)")
            print(f"  {last[:200]}")


if __name__ == "__main__":
    main()
