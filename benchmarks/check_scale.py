"""Scale benchmark: how long ``studygen check`` takes on many records.

Generates N families x M run records in a temporary folder (synthetic: every
record carries ``"synthetic": true`` and a collector named
``studygen-benchmark``; the figures in them are generated, never
measurements), a dataset definition and a minimal template per family,
renders them, then times ``studygen check`` in a subprocess (wall time and
CPU time, best and median of ``--repeat`` runs) at 10,000 and 20,000
records, with the studies spread over worker processes as check does and in
one process (``STUDYGEN_JOBS=1``), against the floor of reading the same
records (one process opening and ``json.load``-ing every record file, best
of three) and ``studygen --help``; it also prints where one study's check
time goes.

The records look like a large real project's, so that check does the work it
does there, not the work of reporting thousands of findings: shaped like
``studygen collect trtexec`` output (summary statistics, FP8 GEMM kernel
evidence), latency following each platform's relative speed and the batch
with 1 % noise, FP8 faster than fp16. The deliberate findings: one dataset
without published image ids per family (SG205 warning) and one FP8 engine
slower than fp16 per 500 records (SG208 warning, and SG207 where it also
stands out against the other platforms).

Prints the figures against the targets of issues 7, 11 and 25:

- per record, check within 5x the ``json.load`` floor (issue 25 item 5),
  printed for wall time and for CPU time;
- 10,000 records checked in <= 3 s on the 2-core development machine (issue 11;
  issue 7 asked for 5 s);
- doubling the records costs at most 2.2x the time;
- ``studygen --help`` in <= 0.3 s (lazy imports).

Last measured at the default scale (branch scale29 a61f741c, 2026-12-06
18:35-18:44, ``--repeat 2``, load average 1.6 at the start, 3.6 during the
10,000-record checks and 4.5 during the 20,000-record ones: other sessions'
work ran throughout, so the wall times are disturbed and the CPU times are
the figures to read): the floor 28.8 us a record at 10,000 and 29.9 us at
20,000; 10,000 records 2.09 s (7.3x; CPU 11.5x), one process 3.15 s
(10.9x; CPU 3.13 s, 10.9x); 20,000 records 6.14 s (10.3x; CPU 10.4x), one
process CPU 5.97 s (10.0x; wall 7.62 s); doubling 2.94x (disturbed).
Target 5x: missed. Interleaved against main 8442c0c (the session's start),
CPU best: the kept 20 x 500 project in one process 3.83 -> 3.36 s (-12 %,
6 rounds, load 7) and 3.38 -> 3.07 s (-9 %, 4 rounds, load 3.7); the kept
20 x 1000 project with worker processes 7.32 -> 6.73 s CPU (-8 %), wall
10.56 -> 9.85 s (3 rounds, load 3.8). What moved (each a value made more
often than needed): SG224 split every record's GPU name into words where a
study names a few GPUs (7.2 -> 2.5 us a record), SG207's cells and GPU
versions, the run key hashed three times a latency row and made again for
SG215, the record's job id, provenance and results read through
properties, SG213's sorted figures made for prose that quotes none, and a
generator frame a key in the schema's statistics check.

Measured before at the default scale (main 74ce9c5, 2026-12-06 13:00,
``--repeat 2``, load average 1.1, helpers stopped): the floor 38.5 us a
record at 10,000 and 29.9 us at 20,000 (the floor itself moves between the
two parts); 10,000 records 2.55 s (6.6x), one process 4.27 s (11.1x);
20,000 records 3.64 s (6.1x), one process 6.77 s (11.3x); doubling 1.43x.
Target 5x: missed. Interleaved on the kept 20 x 500 project, one process,
4 rounds: best 3.74 s CPU at session 27's start (81faeaa), 3.28 s (-12 %:
SG224 had listed and keyed every row for each prose field and setting).

Measured before at the default scale (main 5f78300, 2026-12-06 11:04,
``--repeat 2``, load average 0.9-1.1): the floor 28.9 us a record; 10,000
records 2.35 s (8.1x), one process 3.75 s (12.9x); 20,000 records 4.38 s
(7.6x), one process 7.38 s (12.8x); doubling 1.87x. Target 5x: missed.
Interleaved on one kept 4 x 1,000-record project, one process, 5 rounds:
best 1.41 s CPU for the session's start (a467614) against 1.47 s (+4 %,
the session's new checks); the rest of the gap to session 25's figures
below is the machine's hour, not the code.

Measured before at the default scale (main 266e713, 2026-12-06, ``--repeat
3``, load average 1.1-1.3, a noisier hour): the floor 29.5-30.0 us a record;
10,000 records 1.93 s (6.4x), one process 3.53 s (11.7x); 20,000 records
3.15 s (5.3x), one process 5.97 s (10.1x); doubling 1.63x. Target 5x:
missed, as at the session's start.

Measured before at the default scale (main c9e7170, 2026-12-06, ``--repeat
3``, load average 1.2, on a machine slower than the one before: the floor
28.6 us a record against 18.4): 20,000 records 3.12 s (5.5x), one process
6.11 s (10.7x); the 10,000-record part was a disturbed run (2.24 s, 7.1x;
its per-study load 0.13 s against 0.07 s in the same code earlier). At that
session's start (314b299, ``--repeat 2``): 10,000 records 1.63 s (5.7x),
one process 2.94 s (10.2x); 20,000 records 3.03 s (5.3x), one process
5.74 s (10.0x); doubling 1.86x. Interleaved, one process, on the kept
20 x 500 project: 3.10-3.92 s for 314b299 against 3.09-3.34 s. Target 5x:
missed. Per record, warm, in process: reading 13.4 us, parsing with its
refusals 39.9 us (plain json.loads 24.4), the schema check 33.2 us, order
checks 9.6 us; the checks about 154 us, a quarter of it making rows.

Measured before at the default scale (main 9643f91, 2026-12-06, ``--repeat
3``, load average 0.9-1.1, the session's helpers stopped): 10,000 records
1.05 s with worker processes, 5.7x the floor (18.4 us a record), one process
1.89 s (10.3x); 20,000 records 2.02 s (5.4x), one process 3.95 s (10.6x);
doubling 1.93x. Target 5x: missed. On the kept 20 x 500-record project, one
process, interleaved with the session's start (d290d69): 1.79-1.99 s against
1.70-1.84 s (best, median of 4), about 5 % more: of a study of 500 records,
render's latency rows picked per run (SG201), the rows' run memo and the
loading, each about a millisecond.

Measured before at the default scale (main 4505d2c plus SG224's last mend,
2026-12-05, ``--repeat 3``, load average 1.1, helpers stopped): 10,000
records 0.96 s with worker processes, 5.2x the floor (18.6 us a record), one
process 1.62 s (8.7x); 20,000 records 1.99 s (5.3x), one process 3.59 s
(9.5x); doubling 2.07x. Target 5x: missed. That session's speed changes
(kernel-rule names matched once per check, prose-field lookups, SG106's term
anchors read once a document) were offset by its new readings (SG107's
best-of claims, SG213 on study-file prose, SG224).

Measured before at the default scale (main 8e897c0, 2026-12-05, ``--repeat
3``, load average 0.9-1.2 after the session's work): 10,000 records 1.01 s
with worker processes, 5.4x the floor (18.8 us a record), one process 1.76 s
(9.4x); 20,000 records 2.03 s (5.3x), one process 3.88 s (10.1x); doubling
2.01x. Target 5x: missed. The session's start (436ef6a) measured against it
on one kept 20 x 500-record project, interleaved, one process: 1.67-1.72 s
against 1.61-1.83 s for 8e897c0: no change beyond the spread between runs;
the figures below came from quieter hours of the machine.

Measured before at the default scale (2026-12-05, ``--repeat 3``, the machine
otherwise idle): on 2841ae5, load average 0.7-1.1, the floor 18.7-18.9 us a
record; 10,000 records with workers 0.90 s (4.8x: met), CPU 1.67 s (8.9x),
one process 1.61 s (8.5x); 20,000 records 1.65 s (4.4x: met), CPU 3.16 s
(8.4x), one process 3.03 s (8.1x); doubling 1.84x. At the session's end
(2a45879, an hour later) the same benchmark gave 0.95 s (5.0x) and 1.98 s
(5.2x), one process 3.17 s (8.3x), and interleaved runs of the kept 20,000-record
project gave 1.78-1.79 s for that session's start (8659713) against
1.80-1.87 s: the spread between runs of the same code (1.65 against 1.98 s)
is larger than what the session's changes cost. Two one-process checks of
ten 1,000-record studies each, run at once, took 1.59 and 1.69 s against
1.60 s alone (ten of 500 records: 0.91 and 0.89 against 0.87 s): the two
cores do not slow each other much; what is left between the one-process time
and twice the workers' is each process's start and the last study's tail.

Measured before at the default scale (main a762f00, 2026-12-05, ``--repeat 3``,
load average 0.9-1.1, the machine otherwise idle): the floor 18.4-18.8 us a
record; 10,000 records with workers 0.91 s (4.9x: met, no margin), CPU
1.69 s (9.0x), one process 1.56 s (8.3x); 20,000 records 1.94 s (5.3x:
missed), CPU 3.61 s, one process 3.22 s (8.7x); doubling 2.12x. The same
code measured 1.06 s (5.5x) at 10,000 records earlier that day with other
work on the machine. In process, a record of a 1,000-record study cost
152-168 us against 156-171 on 1ba1e8d (interleaved runs; their spread is
larger than the difference): SG207 no longer looks at each of a
configuration's 190 platform pairs when a bound over all of them says none
departs (21-22 -> 18.6-19.5 us); the session's new checks (SG212's prose,
SG219's declared shapes) cost under 1 us a record here.

Measured before at the default scale (main c1293f5, 2026-12-05, ``--repeat 3``,
load average 0.8-1.1): the floor 18.7-18.8 us a record; 10,000 records with
workers 1.09 s (5.8x), CPU 2.01 s, one process 1.68 s (9.0x); 20,000 records
1.98 s (5.3x), one process 3.30 s (8.8x); doubling 1.81x. Target 5x: missed,
as in every run but the best of f7e0307 (below). In process, warm, a record
of a 1,000-record study costs 150-158 us on c1293f5 against 150-152 on
edb6a28 (interleaved): the record checks added that session (a value_ms its
statistics contradict, a kernel group its kernels contradict) cost under 1 us.

Measured before at the default scale (main f7e0307, 2026-12-05, ``--repeat 3``,
load average 0.9-1.1): the floor 18.7-19.6 us a record; 10,000 records with
worker processes 0.97 s wall (5.0x the floor: the target, no margin), CPU
1.82 s (9.3x), one process 1.65 s (8.4x); 20,000 records with workers 1.88 s
(5.03x: missed by a hair), CPU 3.63 s (9.7x), one process 3.14 s (8.4x);
doubling 1.93x. The same commit measured 1.14 s (5.9x) at 10,000 records
twenty minutes earlier with a helper's tests on one core, and a529dae an
hour later 1.19 s (6.2x; 20,000 records 2.38 s, 6.3x) on a quiet but slower
machine (the same code ran 15-20 % slower in process then): on this shared
machine the spread between runs is larger than what the targets leave.
What moved since: a one-expression test in front of every generated schema
check (loading 89 -> 77 us a record), a study's size for dealing it to a
process taken from at most 64 of its records, and check taking over the
studies a worker has not begun (equal shares of 500-record studies used to
end 0.1 s apart).

Before that, at the default scale (main 9420659 and b6e0605, separate
runs on one day, ``--repeat 3``, load average below 1.2; no change on the
one-process path between them, so the difference is the spread between
runs): the floor 18.8-20.1 us a record; 10,000 records with worker
processes 1.27 / 1.16 s wall (6.4x / 6.2x the floor), one process 2.30 /
1.92 s (11.5x / 10.2x); 20,000 records with workers 2.32 / 2.11 s (5.8x /
5.6x), CPU 11.1x / 10.5x, one process 4.20 / 3.75 s (10.4x / 9.9x).
Target 5x: missed. Per record of a 1,000-record study (one process, warm):
loading 91 us (parse with its hooks 30-33, schema checks 30-33), rows 22,
SG201's render 21, SG207 24, the other checks about 30.

Before that (main fc1ab03 against 02d1891, each its own run of
``--families 8 --records-per-family 500 --repeat 3`` at load average
0.2-0.7, on a faster machine than the figures after it): the floor 0.075
s (18.7-19.1 us a record); worker processes 0.57 -> 0.51 s wall (7.4x ->
6.8x the floor) and 0.94 -> 0.91 s CPU (12.3x -> 12.2x); one process 0.83
-> 0.75 s (10.8x -> 10.1x, no change of its code: the spread between two
runs). Target 5x: missed. What moved: nothing is warmed in the parent
before the workers fork (they do it at once, each for itself) and the
largest study is handed out first (measured with fc1ab03's process pool;
98d4f1b deals the studies to forked processes by size instead, check
itself taking a share).

Earlier (main 879ff67, ``--families 8 --records-per-family 500
--repeat 3``, load average 0.5-0.8 on the 2 cores; 4c578c0 measured 1.42
s one process and 0.90 s wall with workers the same way): the floor 0.114
s (28.5 us a record); one process (``STUDYGEN_JOBS=1``) 1.42 -> 1.22 s CPU,
12.3x -> 10.7x the floor; worker processes 0.90 -> 0.78 s wall (7.8x ->
6.8x) and 1.30 s CPU (11.4x) (target 5x: missed). What moved: JSON
integers are made in C where no literal could be refused, the schema checks
test a plainly valid kernel or per-iteration entry in one expression, a
figure's decimals are counted from its text, value rows are made by
position, a study's compute-timing rows are made once (SG207 and SG208
each made them), the latency chart names each row's timing once, and
SG201 reads a chart's stamp in place. Per 1,000 records (one process,
before these): loading 127 ms (records 115), rows 40, SG207 32 (150
configurations x 150 cross-GPU pairs a family, near its method's floor),
render 32, the other checks about 45; and about 0.23 s a process fixed
(imports, check modules, the first render).

Usage: ``python benchmarks/check_scale.py [--families N] [--records-per-family M ...] [--repeat R] [--keep DIR]``.
Times are printed, never asserted (tests assert no wall times): wall time,
and the CPU time (user + system, worker processes included) that a machine
shared with other work judges better. studygen's bytecode is compiled first
(``compileall``, as ``pip install`` does): the development machine sets
``PYTHONDONTWRITEBYTECODE``, which would otherwise make every run compile
studygen's modules from source. Every check is passed ``--no-cache``, which
this version accepts and ignores (it keeps no cache), so that the script
measures earlier versions, which kept findings, the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_10K_S = 3.0  # issue 11 item 7 (issue 7 asked for 5 s)
TARGET_DOUBLING = 2.2
TARGET_HELP_S = 0.3
TARGET_FLOOR_RATIO = 5.0  # issue 25 item 5: check within 5x the json.load floor per record

# Platforms of the synthetic jobs, with a relative speed each, so that one
# configuration's latency differs across GPUs and TensorRT versions by less than
# the anomaly factor (1.5), as it does between neighbouring datacenter GPUs; a
# uniformly random latency per job would make every record an SG207 anomaly.
GPUS = {"NVIDIA B300": 0.92, "NVIDIA B200": 1.0, "NVIDIA H200": 1.1, "NVIDIA H100 80GB HBM3": 1.15}
TENSORRT = {"10.8.0.43": 1.04, "10.9.0.34": 1.03, "10.13.3.9": 1.01, "11.1.0.10": 1.0, "11.4.0.106": 0.98}
SHAPES = {"640x640": 6.0, "800x800": 9.4}  # fp16 batch-1 GPU compute time, ms
DATASET_ID = "synthetic-val-500"
# Every this many records of a family, one record's FP8 engine is slower than its
# fp16 engine: a deliberate SG208 warning, as real projects have a few.
INVERSION_EVERY = 500
FP8_GEMM_KERNELS = ("sm100_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n_tilesize128x128x64_stage4_warpsize2x2x1_tensor",
                    "sm100_xmma_gemm_e4m3e4m3_f16f32_f32_tn_n_tilesize64x128x64_stage6_warpsize2x2x1_tensor")

TEMPLATE = """\
{{ generated_note }}

# {{ study.title }}

{{ study.decision.summary }}

fp16 latency over every job: {{ study.span(study.figures(kind="latency", variant="fp16")) }}.
"""


def study_yaml(family: str) -> str:
    return f"""\
schema_version: 1
family: {family}
title: "{family}: synthetic benchmark study"
template: {family}.md.j2
model:
  id: example/synthetic-detector
  revision: 0123456789abcdef0123456789abcdef01234567
  weights: pretrained
variants:
  - name: fp16
    precision: fp16
    label: fp16
  - name: fp8
    precision: fp8
    label: FP8
decision:
  shipped: false
  summary: Synthetic records for the scale benchmark; nothing here is a measurement.
"""


def dataset() -> dict:
    return {"schema_version": 1, "dataset_id": DATASET_ID, "source": "synthetic (benchmark)", "split": "validation",
            "role": "evaluation", "selection": "none: the benchmark generates its records", "count": 500,
            "ids_not_published": "synthetic benchmark data: there are no images"}


def _latency_statistics(median_ms: float, rng: random.Random) -> dict:
    """trtexec-style summary statistics (ms) around ``median_ms``: a tight body, a longer tail."""
    return {"min": round(median_ms * rng.uniform(0.96, 0.99), 5), "max": round(median_ms * rng.uniform(1.06, 1.15), 5),
            "mean": round(median_ms * rng.uniform(1.0, 1.01), 5), "median": median_ms,
            "p90": round(median_ms * rng.uniform(1.01, 1.03), 5), "p99": round(median_ms * rng.uniform(1.03, 1.06), 5)}


def record(family: str, index: int, rng: random.Random) -> dict:
    """One synthetic run record shaped like ``studygen collect trtexec`` output:
    latency (fp16 and FP8, with summary statistics and FP8 GEMM kernel
    evidence), plan size and COCO AP of both variants, at one GPU, TensorRT
    version, shape and batch. Latency follows the platform's relative speed
    and the batch, with 1 % noise; FP8 takes 69 to 71 % of fp16's time except
    in one deliberate inversion per ``INVERSION_EVERY`` records."""
    gpus, versions, shapes = list(GPUS), list(TENSORRT), list(SHAPES)
    gpu = gpus[index % len(gpus)]
    tensorrt = versions[(index // len(gpus)) % len(versions)]
    shape = shapes[(index // (len(gpus) * len(versions))) % len(shapes)]
    batch = 1 + index // (len(gpus) * len(versions) * len(shapes))  # every record its own configuration
    fp16_ms = round(SHAPES[shape] * (0.3 + 0.7 * batch) * GPUS[gpu] * TENSORRT[tensorrt] * rng.uniform(0.99, 1.01), 5)
    inverted = index % INVERSION_EVERY == INVERSION_EVERY - 1
    fp8_ms = round(fp16_ms * (rng.uniform(1.02, 1.06) if inverted else 0.7 * rng.uniform(0.98, 1.02)), 5)
    fp16_ap = round(0.445 + rng.uniform(-0.002, 0.002), 4)
    common = {"shape": shape, "batch": batch, "backend": "tensorrt", "mode": "engine"}
    method = {"timer": "trtexec", "cuda_graph": False, "data_transfers": False, "spin_wait": True,
              "separate_profile_run": True}
    plan_scale = 1 + (TENSORRT[tensorrt] - 1) / 2  # newer TensorRT, slightly smaller plans

    def latency(variant, value_ms):
        result = {"kind": "latency", "variant": variant, **common, "timing": "gpu_compute", "statistic": "median",
                  "value_ms": value_ms, "statistics_ms": _latency_statistics(value_ms, rng), "method": method,
                  "distribution": {"samples": 200 + 10 * batch, "warmup_iterations": 20},
                  "source_locator": f"{variant}-b{batch}-{shape}.log:{rng.randint(90, 140)}"}
        if variant == "fp8":
            share = rng.uniform(0.25, 0.35)
            result["fp8_evidence"] = {"kernels": [{"name": name, "time_ms": round(value_ms * share * part, 5), "calls": 36}
                                                  for name, part in zip(FP8_GEMM_KERNELS, (0.7, 0.3))],
                                      "fake_quant_kernels": 0}
        return result

    return {
        "schema_version": 1,
        "job_id": f"job-{index:05d}",
        "family": family,
        "synthetic": True,
        "description": "Synthetic record for the scale benchmark (generated figures, not a measurement).",
        "provenance": {
            "gpu": gpu,
            "driver": "570.86.15",
            "software": {"tensorrt": tensorrt, "cuda": "12.8"},
            "checkpoint": {"id": "example/synthetic-detector", "revision": "0123456789abcdef0123456789abcdef01234567",
                           "weights": "pretrained"},
            "repository_commit": "0123abcd",
            "collected_at": "2025-01-01T00:00:00Z",
            "collector": {"name": "studygen-benchmark", "version": "1"},
        },
        "results": [
            latency("fp16", fp16_ms),
            latency("fp8", fp8_ms),
            {"kind": "plan_size", "variant": "fp16", **common,
             "value_bytes": int(86 * 2**20 * plan_scale) + rng.randint(0, 2**16)},
            {"kind": "plan_size", "variant": "fp8", **common,
             "value_bytes": int(53 * 2**20 * plan_scale) + rng.randint(0, 2**16)},
            {"kind": "coco_ap", "variant": "fp16", **common, "statistic": "AP", "value": fp16_ap, "dataset": DATASET_ID},
            {"kind": "coco_ap", "variant": "fp8", **common, "statistic": "AP",
             "value": round(fp16_ap - rng.uniform(0.002, 0.008), 4), "dataset": DATASET_ID},
        ],
    }


def write_family(root: Path, family: str, documents) -> None:
    """One family under ``root``: its study file, template, dataset definition and ``documents`` (records)."""
    (root / "families" / family).mkdir(parents=True)
    (root / "families" / family / "study.yaml").write_text(study_yaml(family), encoding="utf-8")
    (root / "templates").mkdir(parents=True, exist_ok=True)
    (root / "templates" / f"{family}.md.j2").write_text(TEMPLATE, encoding="utf-8")
    records = root / "measurements" / family
    (records / "datasets").mkdir(parents=True)
    (records / "datasets" / f"{DATASET_ID}.json").write_text(json.dumps(dataset(), indent=2) + "\n")
    for document in documents:
        (records / f"{document['job_id']}.json").write_text(json.dumps(document, indent=2) + "\n")


def generate(root: Path, families: int, per_family: int, seed: int = 0) -> int:
    """Write the project under ``root``; return the number of records."""
    rng = random.Random(seed)
    for f in range(families):
        family = f"synthetic_{f:03d}"
        write_family(root, family, (record(family, i, rng) for i in range(per_family)))
    return families * per_family


def studygen(*argv, cwd: Path = REPO, jobs: str = "") -> tuple[float, subprocess.CompletedProcess]:
    """``python -m studygen ARGV`` in a subprocess; (wall seconds, result). ``jobs``: ``STUDYGEN_JOBS``."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("STUDYGEN_JOBS", None)
    if jobs:
        env["STUDYGEN_JOBS"] = jobs
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "studygen", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, text=True)
    return time.perf_counter() - started, done


def children_cpu_s() -> float:
    """CPU seconds (user + system) of this process's finished children and
    the descendants they waited for (``check``'s worker processes)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_check(root: Path, repeat: int, jobs: str = "") -> tuple[list[float], list[float], str]:
    """Wall seconds and CPU seconds (user + system, workers included) of
    ``repeat`` check runs, and the last run's summary line; ``jobs``: the
    ``STUDYGEN_JOBS`` value ("" lets check choose)."""
    times, cpu, summary = [], [], ""
    for _ in range(repeat):
        cpu_before = children_cpu_s()
        seconds, done = studygen("check", "--root", root, "--no-cache", jobs=jobs)
        if done.returncode not in (0, 1):
            raise SystemExit(f"check failed (exit {done.returncode}): {done.stderr.strip()}")
        times.append(seconds)
        cpu.append(children_cpu_s() - cpu_before)
        summary = done.stdout.strip().splitlines()[-1]
    return times, cpu, summary


FLOOR_SCRIPT = """
import glob, json, sys, time
files = sorted(glob.glob(sys.argv[1] + "/measurements/*/*.json"))
def run():
    started = time.process_time()
    for name in files:
        with open(name, "rb") as handle:
            json.load(handle)
    return time.process_time() - started
print(min(run() for _ in range(3)))
"""


def json_load_floor(root: Path) -> float:
    """CPU seconds one fresh process takes to open and ``json.load`` every record file of
    ``root`` (best of three passes): what reading the records costs at the least."""
    done = subprocess.run([sys.executable, "-c", FLOOR_SCRIPT, str(root)], capture_output=True, text=True, check=True)
    return float(done.stdout)


# Where one study's check time goes, measured in one process over the first
# families (CPU-bound; the check command spreads studies over the cores).
PHASES_SCRIPT = """
import json, sys, time
from pathlib import Path
from studygen.checks import run_checks
from studygen.lint.parse import collector_paused
from studygen.render import charts, engine
from studygen.study import family_dirs, load_study

root = Path(sys.argv[1])
spent = {"load": 0.0, "charts": 0.0, "checks": 0.0}
draw = charts.render_charts
def timed_charts(study):
    started = time.perf_counter()
    try:
        return draw(study)
    finally:
        spent["charts"] += time.perf_counter() - started
charts.render_charts = engine.render_charts = timed_charts  # the engine calls its own imported name
dirs = family_dirs(root)[: int(sys.argv[2])]
load_study(dirs[0], root); draw(load_study(dirs[0], root))  # imports and font cache, as a worker's first study pays
for study_dir in dirs:
    with collector_paused():
        started = time.perf_counter()
        study = load_study(study_dir, root)
        study.rows
        spent["load"] += time.perf_counter() - started
        started = time.perf_counter()
        run_checks(study)
        spent["checks"] += time.perf_counter() - started
spent["checks"] -= spent["charts"]
print(json.dumps({k: v / len(dirs) for k, v in spent.items()}))
"""


def phase_times(root: Path, families: int = 3) -> dict:
    """Seconds per study, in one process: load (read, parse, validate, flatten),
    charts (matplotlib SVG for SG201), the other checks (README render and text checks)."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", PHASES_SCRIPT, str(root), str(families)], cwd=REPO, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"phase timing failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def bench_size(families: int, per_family: int, repeat: int, keep: Path | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="studygen-scale-") as tmp:
        root = (keep / f"{families}x{per_family}") if keep else Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        count = generate(root, families, per_family)
        generate_s = time.perf_counter() - started
        render_s, done = studygen("render", "--root", root)
        if done.returncode != 0:
            raise SystemExit(f"render failed (exit {done.returncode}): {done.stderr.strip()}")
        times, cpu, summary = time_check(root, repeat)
        one_times, one_cpu, one_summary = time_check(root, repeat, jobs="1")
        if one_summary != summary:
            raise SystemExit(f"one process found otherwise: {one_summary!r}, workers {summary!r}")
        floor = json_load_floor(root)
        phases = phase_times(root)
    return {"records": count, "families": families, "per_family": per_family, "generate_s": generate_s,
            "render_s": render_s, "check_s": times, "check_cpu_s": cpu, "one_s": one_times, "one_cpu_s": one_cpu,
            "floor_s": floor, "summary": summary, "phases": phases}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", type=int, default=20, help="families per run (default 20)")
    parser.add_argument("--records-per-family", type=int, nargs="+", default=[500, 1000],
                        help="records per family for each run (default 500 1000: 10,000 and 20,000 records)")
    parser.add_argument("--repeat", type=int, default=3, help="check runs per size (default 3)")
    parser.add_argument("--keep", type=Path, default=None, help="write the projects here and keep them")
    args = parser.parse_args(argv)

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "studygen")], check=True)
    help_times = []
    for _ in range(5):
        seconds, done = studygen("--help")
        assert done.returncode == 0, done.stderr
        help_times.append(seconds)
    python_times = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        python_times.append(time.perf_counter() - started)

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, studygen's bytecode compiled "
          f"(compileall, as pip install leaves it), load average {os.getloadavg()[0]:.2f}")
    results = []
    for per_family in args.records_per_family:
        result = bench_size(args.families, per_family, args.repeat, args.keep)
        results.append(result)
        times = result["check_s"]
        print(f"{result['records']:>6} records ({result['families']} families x {per_family}): "
              f"check best {min(times):.2f} s, median {statistics.median(times):.2f} s over {len(times)} runs "
              f"(CPU user+sys best {min(result['check_cpu_s']):.2f} s, median {statistics.median(result['check_cpu_s']):.2f} s) "
              f"[generate {result['generate_s']:.1f} s, render {result['render_s']:.1f} s; check said: {result['summary']}; "
              f"load average {os.getloadavg()[0]:.2f}]")
        one = result["one_s"]
        print(f"       in one process (STUDYGEN_JOBS=1): best {min(one):.2f} s, median {statistics.median(one):.2f} s "
              f"(CPU best {min(result['one_cpu_s']):.2f} s)")
        floor = result["floor_s"]
        for label, wall, cpu_s in (("worker processes", min(times), min(result["check_cpu_s"])),
                                   ("one process", min(one), min(result["one_cpu_s"]))):
            print(f"       {label}: {wall / floor:.1f}x the json.load floor in wall time, {cpu_s / floor:.1f}x in CPU time "
                  f"(floor {floor:.3f} s, {floor / result['records'] * 1e6:.1f} us a record)  target <= "
                  f"{TARGET_FLOOR_RATIO:g}x: wall {'met' if wall / floor <= TARGET_FLOOR_RATIO else 'MISSED'}, "
                  f"CPU {'met' if cpu_s / floor <= TARGET_FLOOR_RATIO else 'MISSED'}")
        phases = result["phases"]
        print(f"       per study in one process: load {phases['load']:.2f} s, charts {phases['charts']:.2f} s, "
              f"other checks {phases['checks']:.2f} s")
    print(f"studygen --help: best {min(help_times):.3f} s, median {statistics.median(help_times):.3f} s "
          f"(python -c pass: {min(python_times):.3f} s)  target <= {TARGET_HELP_S} s: "
          f"{'met' if min(help_times) <= TARGET_HELP_S else 'MISSED'}")
    for result in results:
        if result["records"] == 10_000:
            best = min(result["check_s"])
            print(f"10,000 records: {best:.2f} s  target <= {TARGET_10K_S} s: {'met' if best <= TARGET_10K_S else 'MISSED'}")
    for small, large in zip(results, results[1:]):
        if large["records"] == 2 * small["records"]:
            ratio = min(large["check_s"]) / min(small["check_s"])
            print(f"doubling {small['records']} -> {large['records']} records: {ratio:.2f}x the time  "
                  f"target <= {TARGET_DOUBLING}x: {'met' if ratio <= TARGET_DOUBLING else 'MISSED'}")


if __name__ == "__main__":
    main()
