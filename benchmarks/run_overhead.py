"""Benchmark report: harness overhead, repeat-to-repeat CV and device time of a measured study.

Reads the run records ``studygen collect run`` wrote (default:
``measurements/deformable_detr_h200_torch/``) and prints, from the records alone:

* **harness overhead** per latency result: the timed median (CUDA events around
  one forward, ms) over the profiler's kernel sum for the same variant, shape
  and mode (``kernel_time.profiled_total_ms``, ms per forward). 1.00 would mean
  the GPU never idles inside a timed forward; above it, launch gaps and host
  work between kernels (large in eager mode);
* **repeat-to-repeat CV** per mode: std/mean of the per-repeat medians
  (``distribution.repeat_cv``), and the CV over all samples (``distribution.cv``);
* **job-to-job spread** where two jobs measured the same cell (in compiled
  mode, two compilations): (max - min) / mean of their medians;
* **device time** of the study: the sum of ``provenance.run_wall_s`` (wall time
  of each ``collect run`` invocation, seconds) over the records.

Targets (issue 6): compiled-mode CV <= 2 %; whole study <= 25 minutes of device time.
The script prints whether each is met; it never fails on a miss (a benchmark,
not a test). Run::

    python benchmarks/run_overhead.py [MEASUREMENTS_DIR]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_DIR = REPO / "measurements" / "deformable_detr_h200_torch"
COMPILED_CV_TARGET = 0.02
DEVICE_TIME_TARGET_S = 25 * 60


def load_records(folder: Path):
    """Every run record in ``folder`` written by ``collect run`` (validated against the schema)."""
    from studygen.records.load import load_record

    records = [load_record(path) for path in sorted(folder.glob("*.json"))]
    return [r for r in records if (r.provenance.get("collector") or {}).get("name") == "studygen collect run"]


def overhead_rows(records) -> list[dict]:
    """One row per latency result that has a kernel profile of the same (variant, shape, mode)."""
    rows = []
    for record in records:
        kernels = {(r["variant"], r.get("shape"), r.get("mode")): r for r in record.results if r["kind"] == "kernel_time"}
        for result in record.results:
            if result["kind"] != "latency":
                continue
            key = (result["variant"], result.get("shape"), result.get("mode"))
            kernel = kernels.get(key)
            distribution = result.get("distribution") or {}
            rows.append({
                "job": record.job_id, "mode": key[2], "shape": key[1], "variant": key[0],
                "median_ms": result["value_ms"],
                "kernel_ms": kernel["profiled_total_ms"] if kernel else None,
                "overhead": result["value_ms"] / kernel["profiled_total_ms"] if kernel else None,
                "cv": distribution.get("cv"), "repeat_cv": distribution.get("repeat_cv"),
                "unstable": result.get("unstable", False),
            })
    return rows


def job_to_job_lines(rows: list[dict]) -> list[str]:
    """One line per (mode, shape, variant) that two or more jobs measured: the
    spread of their medians, (max - min) / mean, against the widest
    repeat-to-repeat CV inside those jobs. In compiled mode each job is its own
    compilation, so this is the compile-to-compile spread."""
    by_cell: dict[tuple, list[dict]] = {}
    for row in rows:
        by_cell.setdefault((row["mode"], row["shape"], row["variant"]), []).append(row)
    lines = []
    for (mode, shape, variant), cell in sorted(by_cell.items()):
        if len({row["job"] for row in cell}) < 2:
            continue
        medians = [row["median_ms"] for row in cell]
        spread = (max(medians) - min(medians)) / statistics.fmean(medians)
        lines.append(f"job to job, {mode} {shape} {variant}: medians {min(medians):.3f} to {max(medians):.3f} ms over "
                     f"{len(cell)} jobs, spread {spread * 100:.2f} % (widest repeat CV inside a job "
                     f"{max(row['repeat_cv'] for row in cell) * 100:.2f} %)")
    return lines


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else DEFAULT_DIR
    records = load_records(folder)
    if not records:
        print(f"no collect run records in {folder}")
        return 1
    rows = overhead_rows(records)
    print(f"{'job':<14} {'mode':<8} {'shape':<9} {'variant':<6} {'median ms':>10} {'kernels ms':>10} "
          f"{'overhead':>8} {'CV %':>6} {'repeat CV %':>11}")
    for row in rows:
        kernel = f"{row['kernel_ms']:.3f}" if row["kernel_ms"] is not None else "-"
        overhead = f"{row['overhead']:.2f}x" if row["overhead"] is not None else "-"
        print(f"{row['job']:<14} {row['mode']:<8} {row['shape']:<9} {row['variant']:<6} {row['median_ms']:>10.3f} "
              f"{kernel:>10} {overhead:>8} {row['cv'] * 100:>6.2f} {row['repeat_cv'] * 100:>11.2f}"
              + ("  unstable" if row["unstable"] else ""))
    print()
    for mode in sorted({row["mode"] for row in rows}):
        of_mode = [row for row in rows if row["mode"] == mode]
        repeat_cvs = [row["repeat_cv"] for row in of_mode]
        sample_cvs = [row["cv"] for row in of_mode]
        overheads = [row["overhead"] for row in of_mode if row["overhead"] is not None]
        line = (f"{mode}: repeat-to-repeat CV median {statistics.median(repeat_cvs) * 100:.2f} % "
                f"(range {min(repeat_cvs) * 100:.2f} to {max(repeat_cvs) * 100:.2f} %), sample CV median "
                f"{statistics.median(sample_cvs) * 100:.2f} %, harness overhead median "
                f"{statistics.median(overheads):.2f}x over {len(of_mode)} results")
        if mode == "compile":
            met = max(repeat_cvs) <= COMPILED_CV_TARGET
            line += f"; target repeat CV <= {COMPILED_CV_TARGET * 100:.0f} %: {'met' if met else 'NOT met'}"
        print(line)
    for line in job_to_job_lines(rows):
        print(line)
    total_s = sum(r.provenance.get("run_wall_s") or 0.0 for r in records)
    per_job = ", ".join(f"{r.job_id} {r.provenance.get('run_wall_s', 0.0):.0f} s" for r in records)
    met = total_s <= DEVICE_TIME_TARGET_S
    print(f"device time (collect run wall time): {total_s:.0f} s = {total_s / 60:.1f} min ({per_job}); "
          f"target <= {DEVICE_TIME_TARGET_S / 60:.0f} min: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
