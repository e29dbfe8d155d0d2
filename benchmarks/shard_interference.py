"""Benchmark report: do shards measured at the same time on the GPUs of one host agree with the
same cells measured alone? (issue 17: interference between the GPUs of one host.)

Reads the shard records of one job (``<job>-shardKofN.json``) and the record of a job that
measured the same cells alone, unsharded, and prints:

* each shard's GPU (``provenance.placement``: index and UUID) and how long the shards ran at the
  same time: the overlap of their ``[collected_at, collected_at + run_wall_s]`` intervals, s;
* per latency cell (variant, shape, mode, statistic): the shard's figure, the alone figure, their
  difference (ms and %), and whether they agree within their spread: the ranges of the two runs'
  per-repeat medians (``distribution.repeat_medians_ms``) overlap. A cell without repeat medians
  is compared on its figure alone and reported as "no spread".

A benchmark, not a test: it prints and never fails on disagreement. Run (after
``families/deformable_detr_h200_torch/collect_h200_x2.sh``)::

    python benchmarks/shard_interference.py [MEASUREMENTS_DIR] [--sharded h200-eager-x2] [--alone h200-eager-alone]
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_DIR = REPO / "measurements" / "deformable_detr_h200_torch"


def latency_cells(record: dict) -> dict[tuple, dict]:
    """``{(variant, shape, mode, statistic, timing): latency result}`` of a record document."""
    return {(r["variant"], r.get("shape"), r.get("mode"), r.get("statistic"), r.get("timing")): r
            for r in record["results"] if r["kind"] == "latency" and "value_ms" in r}


def repeat_range(result: dict) -> tuple[float, float] | None:
    """``(lowest, highest)`` per-repeat median (ms), None when the result lists none."""
    medians = (result.get("distribution") or {}).get("repeat_medians_ms") or []
    return (min(medians), max(medians)) if medians else None


def compare(shards: list[dict], alone: dict) -> list[dict]:
    """One row per latency cell of the shard records that the alone record also holds, in shard
    order: figures (ms), difference (ms, % of alone) and ``agrees`` (repeat-median ranges overlap;
    None without both ranges)."""
    alone_cells = latency_cells(alone)
    rows = []
    for shard in shards:
        for key, result in latency_cells(shard).items():
            other = alone_cells.get(key)
            if other is None:
                continue
            mine, theirs = repeat_range(result), repeat_range(other)
            agrees = None if mine is None or theirs is None else mine[0] <= theirs[1] and theirs[0] <= mine[1]
            difference = result["value_ms"] - other["value_ms"]
            rows.append({"job": shard["job_id"], "variant": key[0], "shape": key[1], "mode": key[2], "statistic": key[3],
                         "shard_ms": result["value_ms"], "alone_ms": other["value_ms"], "difference_ms": difference,
                         "difference_percent": 100 * difference / other["value_ms"], "agrees": agrees})
    return rows


def interval(record: dict) -> tuple[float, float] | None:
    """``(start, end)`` in POSIX seconds of the run that wrote ``record``; None without a start or a wall time."""
    provenance = record["provenance"]
    start, wall = provenance.get("collected_at"), provenance.get("run_wall_s")
    if not start or wall is None:
        return None
    begin = _dt.datetime.fromisoformat(start.replace("Z", "+00:00")).timestamp()
    return begin, begin + wall


def overlap_s(records: list[dict]) -> float | None:
    """Seconds during which every one of ``records`` was being measured; None when one lacks its interval."""
    spans = [interval(r) for r in records]
    if not spans or any(s is None for s in spans):
        return None
    return max(0.0, min(end for _, end in spans) - max(begin for begin, _ in spans))


def _device(record: dict) -> str:
    placement = record["provenance"].get("placement") or {}
    return f"GPU {placement.get('gpu_index')} {placement.get('gpu_uuid') or '(no UUID)'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--sharded", default="h200-eager-x2", help="job id of the shards (records JOB-shardKofN.json)")
    parser.add_argument("--alone", default="h200-eager-alone", help="job id of the same cells measured alone")
    args = parser.parse_args(argv)
    from studygen.records.load import load_record

    shards = [load_record(p).data for p in sorted(args.folder.glob(f"{args.sharded}-shard*of*.json"))]
    alone_path = args.folder / f"{args.alone}.json"
    if not shards or not alone_path.is_file():
        print(f"no shard records {args.sharded}-shard*of*.json or no {alone_path.name} in {args.folder}")
        return 1
    alone = load_record(alone_path).data
    for shard in shards:
        print(f"{shard['job_id']}: {_device(shard)}")
    print(f"{alone['job_id']}: {_device(alone)}")
    together = overlap_s(shards)
    print("shards measured at the same time for " + ("an unknown time" if together is None else f"{together:.0f} s"))
    rows = compare(shards, alone)
    print(f"{'job':<24} {'variant':<8} {'shape':<9} {'shard ms':>10} {'alone ms':>10} {'diff %':>7}  within spread")
    for row in rows:
        verdict = {True: "yes", False: "NO", None: "no spread"}[row["agrees"]]
        print(f"{row['job']:<24} {row['variant']:<8} {row['shape']:<9} {row['shard_ms']:>10.3f} {row['alone_ms']:>10.3f} "
              f"{row['difference_percent']:>+7.2f}  {verdict}")
    judged = [r for r in rows if r["agrees"] is not None]
    print(f"{sum(r['agrees'] for r in judged)} of {len(judged)} cells agree within their spread")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
