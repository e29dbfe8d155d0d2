"""SG203 on a re-run family: one configuration measured again and again.

Writes a one-family project in a temporary folder with N jobs of one
configuration (synthetic: every record says ``"synthetic": true``; the
figures are generated here, never measurements). Each job holds two kernel-time
traces (fp16 and FP8, four groups and a profiled total each, no per-iteration
times: one trace a job, so no figure has a spread of its own) and one trtexec
GPU compute median of each variant (one run, no repeats); every figure lies
within +-10 % of its centre, drawn from a seeded generator. The study file
sets no tolerance, so every two jobs whose figures differ beyond the timer's
resolution disagree. For each N it runs ``studygen check`` in a subprocess,
one process, and prints the SG203 findings, the other findings, and the CPU
time (user + system) of the check.

With ``--repeats N`` each trtexec median holds N repeat medians (within
+-0.5 % of it): a spread of its own, so those two keys are compared pair by
pair by bootstrap, as before, and only the ten kernel-time keys are counted on
their sorted figures.

Measured on 2026-12-06 (2-core development machine, other work running;
CPU seconds of one ``check`` process, render excluded), main 7ed4af8 against
branch sg203 (one finding per key):

===========  ===========================  =====================
jobs         SG203 findings before/after  CPU s before/after
===========  ===========================  =====================
2            12 / 12                      0.65 / 0.72
10           533 / 12                     0.90 / 0.61
11           649 / 12                     0.78 / 0.68
100          58,368 / 12                  5.50 / 0.73
300          528,981 / 12                 57.14 / 0.89
===========  ===========================  =====================

With ``--repeats 5`` (the two trtexec medians compared by bootstrap, pair by
pair): 10 jobs 526 / 12 findings, 1.02 / 1.08 s; 30 jobs 5,081 / 12, 3.56 /
2.92 s; 100 jobs 57,884 / 12, 28.6 / 25.0 s: those pairs still cost a
bootstrap each.

Usage: ``python benchmarks/sg203_reruns.py [--reruns 2 10 100 300] [--seed 0] [--repeats 0]``.
Times are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_scale import children_cpu_s, studygen, write_family  # noqa: E402

FAMILY = "reruns"
GROUPS = {"gemm": 3.1, "conv": 1.7, "softmax": 0.42, "other": 0.23}  # fp16 centre, ms per forward
FP8_FACTOR = 0.68
GPU_COMPUTE_MS = 9.4  # fp16 centre of the trtexec median


def _jitter(rng: random.Random, centre: float, digits: int) -> float:
    return round(centre * rng.uniform(0.9, 1.1), digits)


def record(index: int, rng: random.Random, repeats: int = 0) -> dict:
    """Job ``rerun-NNN``: two kernel-time traces and two trtexec medians of one configuration;
    ``repeats``: repeat medians each median holds (0: none, so it has no spread of its own)."""
    common = {"shape": "800x800", "batch": 1, "backend": "tensorrt", "mode": "engine"}
    results = []
    for variant, factor in (("fp16", 1.0), ("fp8", FP8_FACTOR)):
        groups = [{"group": name, "time_ms": _jitter(rng, centre * factor, 4)} for name, centre in GROUPS.items()]
        results.append({"kind": "kernel_time", "variant": variant, **common, "groups": groups,
                        "profiled_total_ms": round(sum(g["time_ms"] for g in groups), 4)})
    for variant, factor in (("fp16", 1.0), ("fp8", FP8_FACTOR)):
        result = {"kind": "latency", "variant": variant, **common, "timing": "gpu_compute", "statistic": "median",
                  "value_ms": _jitter(rng, GPU_COMPUTE_MS * factor, 5), "method": {"timer": "trtexec"}}
        if repeats:
            medians = sorted(round(result["value_ms"] * rng.uniform(0.995, 1.005), 5) for _ in range(repeats))
            medians[repeats // 2] = result["value_ms"]
            result["distribution"] = {"repeats": repeats, "repeat_medians_ms": sorted(medians)}
        if variant == "fp8":
            result["fp8_evidence"] = {"kernels": [{"name": "sm90_xmma_gemm_e4m3f16_e4m3f32_f32_tn_n",
                                                   "time_ms": 0.9}]}
        results.append(result)
    return {
        "schema_version": 1, "job_id": f"rerun-{index:03d}", "family": FAMILY, "synthetic": True,
        "description": "Synthetic re-run for the SG203 benchmark (generated figures, not a measurement).",
        "provenance": {
            "gpu": "NVIDIA H100 80GB HBM3", "driver": "570.86.15",
            "software": {"tensorrt": "10.13.3.9", "cuda": "12.8"},
            "checkpoint": {"id": "example/synthetic-detector", "revision": "0123456789abcdef0123456789abcdef01234567",
                           "weights": "pretrained"},
            "repository_commit": "0123abcd", "collected_at": "2025-01-01T00:00:00Z",
            "collector": {"name": "studygen-benchmark", "version": "1"},
        },
        "results": results,
    }


def generate(root: Path, reruns: int, seed: int, repeats: int = 0) -> None:
    rng = random.Random(seed)
    write_family(root, FAMILY, (record(index, rng, repeats) for index in range(reruns)))


def measure(reruns: int, seed: int, repeats: int = 0) -> tuple[int, int, float, str]:
    """(SG203 findings, other findings, CPU seconds, summary line) of one check of an N-job family."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        generate(root, reruns, seed, repeats)
        _, rendered = studygen("render", "--root", root)
        if rendered.returncode:
            raise SystemExit(f"render failed: {rendered.stderr.strip()}")
        before = children_cpu_s()
        _, done = studygen("check", "--root", root, "--format", "json", jobs="1")
        cpu = children_cpu_s() - before
        if done.returncode not in (0, 1):
            raise SystemExit(f"check failed (exit {done.returncode}): {done.stderr.strip()}")
        findings = json.loads(done.stdout)
        sg203 = sum(1 for f in findings if f["code"] == "SG203")
        return sg203, len(findings) - sg203, cpu, f"{sum(f['severity'] == 'error' for f in findings)} error(s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, nargs="+", default=[2, 10, 100, 300])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=0,
                        help="repeat medians of each trtexec median (5: their pairs are compared by bootstrap)")
    args = parser.parse_args()
    print("jobs  SG203  other  CPU s  errors")
    for reruns in args.reruns:
        sg203, other, cpu, errors = measure(reruns, args.seed, args.repeats)
        print(f"{reruns:4d}  {sg203:5d}  {other:5d}  {cpu:5.2f}  {errors}", flush=True)


if __name__ == "__main__":
    main()
