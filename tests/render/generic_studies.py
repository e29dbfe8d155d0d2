"""Generated studies for the generic template's property test: a study file
naming ``studygen/generic.md.j2`` and run records shaped like what the
collectors write.

- **trtexec-like** jobs (``collect trtexec``): TensorRT latencies for every
  timing trtexec prints (GPU compute, host latency, end-to-end, enqueue,
  H2D, D2H), each with its statistics, a coefficient of variation and the
  method flags of the command line (CUDA graphs, data transfers,
  spin-wait), several batches in one log, a plan size, a layer profile
  whose ``other`` group holds the layers no rule matched.
- **torch-like** jobs (``collect run`` and ``torch-profile``): PyTorch
  latencies in eager or compiled mode, with repeat medians or without,
  kernel time per group, and failed compilations (``not_measured``).

What varies: the variant set (names that are precisions, named variants,
labels equal to the name or not, a variant with no results), GPUs (one, or
several, named or not), TensorRT and torch versions, modes, shapes (or
none), batches, which cells are missing, one or several jobs, and the
figures themselves (printed with 1 to 7 significant digits, as sources
print them, some just below a power of ten), kernel groups that list the
kernel times they sum, and a study-file ``precision:`` or none. Every figure
is made up for the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from hypothesis import strategies as st

FAMILY = "gen"
REVISION = "0123456789abcdef0123456789abcdef01234567"

# (name, precision): names that are precisions, and named variants
VARIANT_POOL = [("fp32", "fp32"), ("fp16", "fp16"), ("int8", "int8"), ("bf16", "bf16"), ("fp8", "fp8"),
                ("base", "fp16"), ("fast", "int8"), ("other", "fp16")]
GPUS = ["NVIDIA H100 PCIe", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB", "NVIDIA GeForce RTX 3090",
        "NVIDIA GeForce GTX 1070", "H100"]
TENSORRT = ["7.1.3", "8.2.3", "8.6.1", "10.3.0", "10.16.1", "11.4.0.106"]
TORCH = ["2.1.0", "2.4.1", "2.11.0"]
SHAPES = ["224x224", "800x1067", "28x28", "1x128"]
BATCHES = [1, 4, 16, 128]
TIMINGS = ["host_latency", "end_to_end", "enqueue", "h2d", "d2h"]  # besides gpu_compute
GROUPS = ["Conv", "GEMM/MatMul", "normalization and elementwise", "GridSample", "Pooling"]


# Mantissas just below ten: 4 significant digits round them up across a power of ten (0.00099996 -> 0.001000)
EDGE_MANTISSAS = ["9.9996", "9.99951", "9.9995", "9.995", "9.99", "9.99996"]


def figure(draw, low: float = 0.001, high: float = 200.0) -> float:
    """A positive figure with 1 to 7 significant digits (trtexec prints 6,
    a hand-typed source fewer), as a float whose repr is those digits; now and
    then one just below a power of ten (:data:`EDGE_MANTISSAS`)."""
    if draw(st.integers(0, 9)) == 0:
        edge = float(f"{draw(st.sampled_from(EDGE_MANTISSAS))}e{draw(st.integers(-4, 2))}")
        if low <= edge <= high:
            return edge
    value = draw(st.floats(low, high, allow_nan=False, allow_infinity=False))
    digits = draw(st.integers(1, 7))
    return float(f"{value:.{digits}g}")


@st.composite
def variants(draw) -> list[dict]:
    chosen = draw(st.lists(st.sampled_from(VARIANT_POOL), min_size=1, max_size=4, unique_by=lambda v: v[0]))
    out = []
    for name, precision in chosen:
        entry = {"name": name, "precision": precision}
        label = draw(st.sampled_from([None, name, name.upper(), f"{name} engine"]))
        if label is not None:
            entry["label"] = label
        out.append(entry)
    return out


def _provenance(draw, backend: str) -> dict:
    gpu = draw(st.sampled_from(GPUS + [None]) if draw(st.integers(0, 9)) == 0 else st.sampled_from(GPUS))
    software = {}
    if backend == "tensorrt":
        software["tensorrt"] = draw(st.sampled_from(TENSORRT))
    else:
        software.update(torch=draw(st.sampled_from(TORCH)), cuda="12.4")
    provenance = {
        "gpu": gpu, "software": software,
        "checkpoint": {"id": "example/gen", "revision": REVISION, "weights": "pretrained"},
        "repository_commit": "abcdef1", "collected_at": "2025-06-01T12:00:00Z",
        "collector": {"name": "studygen collect trtexec" if backend == "tensorrt" else "studygen collect run",
                      "version": "0"},
    }
    return provenance


def _latency(draw, variant: str, where: dict, timing: str, method: dict, value: float) -> dict:
    result = {"kind": "latency", "variant": variant, **where, "timing": timing, "statistic": "median",
              "value_ms": value, "method": method}
    spread = draw(st.sampled_from(["cv", "repeats", "none"]))
    if spread == "cv":
        cv = draw(st.sampled_from([0.0005, 0.004, 0.03, 0.0658751, 0.45, 0.801687]))
        result["distribution"] = {"samples": 1000, "cv": cv}
        result["statistics_ms"] = {"min": value * 0.9, "median": value, "max": value * 1.5}
        if cv > 0.1 and draw(st.booleans()):
            result["unstable"] = True
            result["unstable_reason"] = "trtexec flagged the GPU compute time as unstable (generated.log:1)"
    elif spread == "repeats":
        medians = sorted(draw(st.lists(st.floats(0.97, 1.03), min_size=3, max_size=6)))
        result["distribution"] = {"repeats": len(medians),
                                  "repeat_medians_ms": [float(f"{value * m:.6g}") for m in medians]}
    return result


def _group(draw, name: str) -> dict:
    """A kernel group: its time alone, or (as ``collect`` writes it) the sum of
    the kernel times it lists, each with its own digits, so that the sum
    carries more digits than its least precise addend (issue 22)."""
    if draw(st.booleans()):
        return {"group": name, "time_ms": figure(draw, 0.001, 20.0)}
    kernels = [{"name": f"{name} kernel {i}", "time_ms": figure(draw, 0.0001, 10.0)}
               for i in range(draw(st.integers(1, 3)))]
    return {"group": name, "time_ms": sum(k["time_ms"] for k in kernels), "kernels": kernels}


def _kernel_time(draw, variant: str, where: dict) -> dict:
    names = draw(st.lists(st.sampled_from(GROUPS), min_size=1, max_size=3, unique=True))
    groups = [_group(draw, name) for name in names]
    other = figure(draw, 0.001, 40.0)
    groups.append({"group": "other", "time_ms": other})
    total = sum(g["time_ms"] for g in groups)
    result = {"kind": "kernel_time", "variant": variant, **where, "groups": groups, "profiled_total_ms": total}
    if draw(st.booleans()):
        result["unclassified_ms"] = other * draw(st.sampled_from([0.0, 0.3, 1.0]))
    return result


@st.composite
def trtexec_job(draw, job_id: str, names: list[str]) -> dict:
    """A job like ``collect trtexec`` of one log (several batches where the log ran several)."""
    method = {"timer": "trtexec"}
    for flag in ("cuda_graph", "data_transfers", "spin_wait"):
        value = draw(st.sampled_from([None, True, False]))
        if value is not None:
            method[flag] = value
    shape = draw(st.sampled_from(SHAPES + [None]))
    batches = draw(st.lists(st.sampled_from(BATCHES), min_size=1, max_size=3, unique=True))
    mine = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
    timings = draw(st.lists(st.sampled_from(TIMINGS), max_size=5, unique=True))
    profile = draw(st.booleans())
    results = []
    for variant in mine:
        for batch in batches:
            where = {"backend": "tensorrt", "mode": "engine", "batch": batch} | ({"shape": shape} if shape else {})
            compute = figure(draw)
            results.append(_latency(draw, variant, where, "gpu_compute", method, compute))
            for timing in timings:
                results.append(_latency(draw, variant, where, timing, method, figure(draw)))
            if profile:
                results.append(_kernel_time(draw, variant, where))
        if draw(st.booleans()):
            results.append({"kind": "plan_size", "variant": variant, "backend": "tensorrt", "mode": "engine",
                            "value_mib": figure(draw, 0.5, 900.0)})
    return {"schema_version": 1, "job_id": job_id, "family": FAMILY, "provenance": _provenance(draw, "tensorrt"),
            "results": results}


@st.composite
def torch_job(draw, job_id: str, names: list[str]) -> dict:
    """A job like ``collect run`` (latency and kernel time per mode and shape) or ``torch-profile``."""
    modes = draw(st.lists(st.sampled_from(["eager", "compile"]), min_size=1, max_size=2, unique=True))
    shapes = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=2, unique=True))
    batch = draw(st.sampled_from(BATCHES))
    mine = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
    method = {"timer": "cuda_event", "cuda_graph": False, "data_transfers": False, "host_sync": "per_repeat"}
    results = []
    for mode in modes:
        for shape in shapes:
            for variant in mine:
                where = {"shape": shape, "batch": batch, "backend": "pytorch", "mode": mode}
                outcome = draw(st.sampled_from(["measured", "measured", "measured", "failed", "absent"]))
                if outcome == "absent":
                    continue
                if outcome == "failed":
                    results.append({"kind": "not_measured", "variant": variant, **where, "metric": "latency",
                                    "reason": "the compilation failed: the worker process exited with code 1"})
                    continue
                run_method = dict(method, cuda_graph=(mode == "compile"))
                results.append(_latency(draw, variant, where, "gpu_compute", run_method, figure(draw)))
                if draw(st.booleans()):
                    results.append(_kernel_time(draw, variant, where))
    return {"schema_version": 1, "job_id": job_id, "family": FAMILY, "provenance": _provenance(draw, "pytorch"),
            "results": results}


@st.composite
def studies(draw) -> tuple[dict, list[dict]]:
    """``(study file, records)`` of one generated study."""
    declared = draw(variants())
    names = [v["name"] for v in declared]
    # a variant may be declared and have no results (the study is not finished)
    measured = names if len(names) == 1 or draw(st.booleans()) else names[:-1]
    count = draw(st.integers(1, 4))
    records = []
    for index in range(count):
        job = draw(st.sampled_from([trtexec_job, torch_job]))
        records.append(draw(job(f"job-{index + 1}", measured)))
    spec = {
        "schema_version": 1, "family": FAMILY, "title": "Generated study", "template": "studygen/generic.md.j2",
        "description": "A study generated for the property test.",
        "model": {"id": "example/gen", "revision": REVISION, "weights": "pretrained"},
        "variants": declared,
        "decision": {"shipped": False, "summary": "Nothing is shipped."},
    }
    if draw(st.integers(0, 3)) == 0:  # the study file's print precision overrides the readable digits
        spec["precision"] = draw(st.dictionaries(st.sampled_from(["latency_ms", "kernel_ms"]), st.integers(1, 6),
                                                 min_size=1))
    if draw(st.booleans()):
        spec["not_measured"] = [{"config": "NVFP4", "reason": "not tried",
                                 **({"expectation": "a smaller plan", "because": "weights take four bits"}
                                    if draw(st.booleans()) else {})}]
    return spec, records


def write_study(root: Path, spec: dict, records: list[dict]) -> Path:
    """Write ``spec`` and ``records`` as a project under ``root`` (emptied
    first); return the study folder."""
    study_dir = root / "families" / FAMILY
    records_dir = root / "measurements" / FAMILY
    for folder in (study_dir, records_dir):
        if folder.exists():
            for path in sorted(folder.rglob("*"), reverse=True):
                path.unlink() if path.is_file() else path.rmdir()
        folder.mkdir(parents=True, exist_ok=True)
    (study_dir / "study.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    for doc in records:
        (records_dir / f"{doc['job_id']}.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return study_dir
