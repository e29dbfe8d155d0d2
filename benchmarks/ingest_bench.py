"""Benchmark: ingest time of the two largest trtexec fixtures.

Targets (issue 5): ingest of the 0.8 MB TensorRT 8.6 log
(``../shared/fixtures/trtexec/trt8.6_unstable-gpu-compute.log``) and of the
0.6 MB concatenated TensorRT 7 times file
(``trt7_resnet50-int8_times-concatenated.json``, with its console log, which
names each run's batch) each <= 0.5 s.

"Ingest" is what ``studygen collect trtexec`` does after start-up: read and
parse the inputs, build the results, merge the provenance, validate the
record against the schema and write it atomically (into a temporary folder).
Each case runs ``--repeat`` times in this process after one warm-up run (the
first run also pays for importing jsonschema and compiling the schema); the
figures printed are the median and the slowest of the timed runs.

``--memory`` also measures the peak resident memory of parsing a generated
~500 MB input (a Kineto trace and an exportTimes file, seeded), each in a
fresh subprocess, against the 4 GB budget. Run::

    python benchmarks/ingest_bench.py [--repeat 7] [--memory]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
FIXTURES = REPO.parent / "shared" / "fixtures" / "trtexec"
TARGET_S = 0.5
MEMORY_BUDGET_BYTES = 4 * 1024**3


def ingest(log: Path | None, times: Path | None, measurements: Path, job: str) -> int:
    """The collect trtexec pipeline without click: returns the results written."""
    from studygen.collect import trtexec
    from studygen.collect.kernel_groups import default_rules
    from studygen.records.write import write_results

    inputs = trtexec.read_inputs(log, times, None, None, None)
    results = trtexec.build_results(inputs, default_rules(), variant="fp32", shape=None, batch=None)
    gpu, version, notes = trtexec.log_provenance(inputs.log)
    provenance = {"gpu": gpu, "software": {"tensorrt": version},
                  "checkpoint": {"id": "unknown", "revision": None, "weights": "pretrained"},
                  "collector": {"name": "studygen collect trtexec", "version": "bench"}, "notes": notes or ["bench"]}
    write_results(measurements, "bench", job, provenance, results)
    return len(results)


def time_case(name: str, log: Path | None, times: Path | None, repeat: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as folder:
        count = ingest(log, times, Path(folder), "warmup")
        seconds = []
        for index in range(repeat):
            start = time.perf_counter()
            ingest(log, times, Path(folder), f"run{index}")
            seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), max(seconds), count


def cold_cli(log: Path | None, times: Path | None) -> float:
    """Wall time of the whole command in a fresh interpreter (start-up and imports included)."""
    args = [sys.executable, "-m", "studygen", "collect", "trtexec", "--family", "bench", "--job", "cold"]
    if log:
        args += ["--log", str(log)]
    if times:
        args += ["--times", str(times)]
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run(args + ["--measurements", folder], cwd=folder, check=True, capture_output=True,
                       env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
        return time.perf_counter() - start


def _write_big_trace(path: Path, target_bytes: int, rng: random.Random) -> int:
    """A Kineto-like trace: ProfilerStep ranges, launches and kernels."""
    names = ["sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_kernel",
             "void at::native::grid_sampler_2d_kernel<c10::Half, long>(long, at::cuda::detail::TensorInfo<c10::Half, long>)",
             "void at::native::vectorized_layer_norm_kernel<c10::Half, float>(int, float, c10::Half const*)",
             "triton_poi_fused__to_copy_add_mul_0"]
    written, count, ts = 0, 0, 0
    with path.open("w") as handle:
        handle.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200"}], "traceEvents": [\n')
        step = 0
        while written < target_bytes:
            lines = [json.dumps({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": 1, "tid": 1,
                                 "ts": ts, "dur": 20000})]
            for correlation in range(step * 200, step * 200 + 200):
                launch = ts + (correlation % 200) * 90
                lines.append(json.dumps({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                                         "tid": 1, "ts": launch, "dur": 4, "args": {"correlation": correlation}}))
                lines.append(json.dumps({"ph": "X", "cat": "kernel", "name": rng.choice(names), "pid": 0, "tid": 7,
                                         "ts": launch + 30, "dur": rng.randint(5, 85),  # one stream: 90 µs apart
                                         "args": {"device": 0, "stream": 7, "correlation": correlation,
                                                  "grid": [120, 1, 1], "block": [128, 1, 1]}}))
            chunk = ",\n".join(lines) + ",\n"
            handle.write(chunk)
            written += len(chunk)
            count += len(lines)
            ts += 20000
            step += 1
        handle.write(json.dumps({"ph": "i", "name": "end", "ts": ts}) + "\n], \"traceName\": \"bench\"}\n")
    return count


def _write_big_times(path: Path, target_bytes: int, rng: random.Random) -> int:
    written, count, start = 0, 0, 0.0
    with path.open("w") as handle:
        handle.write("[\n")
        first = True
        while written < target_bytes:
            rows = []
            for _ in range(1000):
                compute = rng.uniform(5.5, 6.5)
                rows.append(json.dumps({"startEnqMs": start, "endEnqMs": start + 0.05, "startH2dMs": start + 0.05,
                                        "endH2dMs": start + 0.1, "startComputeMs": start + 0.1,
                                        "endComputeMs": start + 0.1 + compute, "startD2hMs": start + 0.1 + compute,
                                        "endD2hMs": start + 0.15 + compute, "h2dMs": 0.05, "computeMs": compute,
                                        "d2hMs": 0.05, "latencyMs": compute + 0.1}))
                start += compute + 0.2
            chunk = ("" if first else ",\n") + ",\n".join(rows)
            first = False
            handle.write(chunk)
            written += len(chunk)
            count += len(rows)
        handle.write("\n]\n")
    return count


PEAK_SCRIPT = """
import resource, sys, time
sys.path.insert(0, {repo!r})
from pathlib import Path
start = time.perf_counter()
if {kind!r} == "trace":
    from studygen.collect.torch_profile import parse_trace
    parsed = len(parse_trace(Path({path!r})).kernels)
else:
    from studygen.collect.trtexec import parse_times
    parsed = parse_times(Path({path!r}))[0].iterations
print(parsed, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def memory_case(kind: str, target_bytes: int) -> None:
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("trace.json" if kind == "trace" else "times.json")
        generated = (_write_big_trace if kind == "trace" else _write_big_times)(path, target_bytes, rng)
        size = path.stat().st_size
        out = subprocess.run([sys.executable, "-c", PEAK_SCRIPT.format(repo=str(REPO), kind=kind, path=str(path))],
                             capture_output=True, text=True, check=True).stdout.split()
        parsed, seconds, peak = int(out[0]), float(out[1]), int(out[2])
        verdict = "within" if peak <= MEMORY_BUDGET_BYTES else "OVER"
        print(f"{kind:6s} {size / 1e6:7.1f} MB, {generated} elements generated, {parsed} parsed: "
              f"{seconds:6.1f} s, peak RSS {peak / 1024**3:.2f} GiB ({verdict} the 4 GiB budget)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--memory", action="store_true", help="also measure peak memory on ~500 MB inputs")
    parser.add_argument("--memory-mb", type=float, default=500.0)
    args = parser.parse_args()
    cases = [
        ("TensorRT 8.6 log (trt8.6_unstable-gpu-compute.log)", FIXTURES / "trt8.6_unstable-gpu-compute.log", None),
        ("TensorRT 7 times, 7 concatenated arrays, with its log",
         FIXTURES / "trt7_resnet50-int8_console.log", FIXTURES / "trt7_resnet50-int8_times-concatenated.json"),
    ]
    print(f"ingest (parse, build results, validate, write), {args.repeat} timed runs after a warm-up; target <= {TARGET_S} s")
    for name, log, times in cases:
        size = sum(p.stat().st_size for p in (log, times) if p is not None)
        median, slowest, count = time_case(name, log, times, args.repeat)
        verdict = "meets" if slowest <= TARGET_S else "MISSES"
        print(f"{name}: {size / 1e6:.2f} MB in, {count} results; median {median * 1000:.1f} ms, "
              f"slowest {slowest * 1000:.1f} ms ({verdict} the target); "
              f"whole CLI cold in a subprocess {cold_cli(log, times) * 1000:.0f} ms")
    if args.memory:
        target = int(args.memory_mb * 1e6)
        for kind in ("trace", "times"):
            memory_case(kind, target)


if __name__ == "__main__":
    main()
