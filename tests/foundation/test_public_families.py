"""Issue 22 item 1: the three shipped families of other people's public data.
Their records must say where every input came from (repository, commit,
path, and a sha256 that matches the file in ../shared today), hold the
figures the files print (read off them by hand, or computed here from the
trace independently of the collector), and their READMEs must carry none
of the placeholders ``studygen new`` writes."""

from __future__ import annotations

import gzip
import hashlib
import json
import re

import pytest

from tests.conftest import FIXTURES, REPO

PUBLIC_FAMILIES = ("hackathon_mnist_trtexec", "jetson_trt7_googlenet", "bert_small_h100_mi300x")
ORIGIN = re.compile(r"^input --(?P<input>[a-z-]+) (?P<name>\S+) \(sha256 (?P<digest>[0-9a-f]{12})\) was published in "
                    r"(?P<repository>\S+) at commit (?P<commit>[0-9a-f]{7,40}) as (?P<path>\S+)$")


def records(family: str) -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted((REPO / "measurements" / family).glob("*.json"))]


def fixture(name: str):
    (found,) = [path for path in FIXTURES.rglob(name) if path.is_file()]
    return found


@pytest.mark.parametrize("family", PUBLIC_FAMILIES)
def test_every_input_of_a_public_family_names_its_origin_and_matches_its_sha256(family):
    for record in records(family):
        command = record["provenance"]["collector"]["command"]
        given = re.findall(r"--(log|times|profile|trace) (\S+)", command)
        origins = [ORIGIN.match(note) for note in record["provenance"]["notes"]]
        origins = {m["input"]: m for m in origins if m}
        assert sorted(origins) == sorted(option for option, _ in given), (record["job_id"], command)
        for option, path in given:
            origin = origins[option]
            assert origin["name"] == path.rsplit("/", 1)[-1]
            digest = hashlib.sha256(fixture(origin["name"]).read_bytes()).hexdigest()
            assert origin["digest"] == digest[:12], (record["job_id"], origin["name"])


@pytest.mark.parametrize("family", PUBLIC_FAMILIES)
def test_a_public_family_readme_has_no_placeholder_of_new(family):
    readme = (REPO / "families" / family / "README.md").read_text(encoding="utf-8")
    for placeholder in ("(edit this)", "Not decided yet", f"{family}: "):
        assert placeholder not in readme, (family, placeholder)


def _gpu_compute(family: str, job: str, batch: int) -> float:
    (record,) = [r for r in records(family) if r["job_id"] == job]
    (result,) = [r for r in record["results"] if r["kind"] == "latency" and r["timing"] == "gpu_compute"
                 and r["batch"] == batch]
    return result["value_ms"]


def test_cookbook_logs_figures_as_printed():
    family = "hackathon_mnist_trtexec"
    # hackathon-76321b19_trt8.4.1_result-FP16.log line 3019: "GPU Compute Time: ... median = 0.154663 ms"
    assert _gpu_compute(family, "gtx1070-trt8.4.1", 4) == 0.154663
    # the two RTX 3090 logs of one plan (result-04.log at 07271c31, result-03.log at 32c8646c) print the same median
    assert _gpu_compute(family, "rtx3090-trt8.6.0-a", 4) == _gpu_compute(family, "rtx3090-trt8.6.0-b", 4) == 0.0439453
    gpus = {r["job_id"]: r["provenance"]["gpu"] for r in records(family)}
    assert gpus == {"gtx1070-trt8.0.3": "NVIDIA GeForce GTX 1070", "gtx1070-trt8.2.3": "NVIDIA GeForce GTX 1070",
                    "gtx1070-trt8.4.1": "NVIDIA GeForce GTX 1070", "h100-trt10.16.1": "NVIDIA H100 PCIe",
                    "rtx3090-trt8.6.0-a": "NVIDIA GeForce RTX 3090", "rtx3090-trt8.6.0-b": "NVIDIA GeForce RTX 3090",
                    "rtx6000ada-trt10.14.1": "NVIDIA RTX 6000 Ada Generation"}


def test_jetson_runs_keyed_by_batch_with_the_gpu_the_log_does_not_name():
    family = "jetson_trt7_googlenet"
    # jetson-trt7_googlenet_raw_googlenet_None_int8_10.txt, batch 1 "GPU Compute ... median: 1.97266 ms" (line 559),
    # batch 128 (the seventh run) "median: 91.6031 ms" (line 1553)
    assert _gpu_compute(family, "jetson-int8", 1) == 1.97266
    assert _gpu_compute(family, "jetson-int8", 128) == 91.6031
    (record,) = records(family)
    assert record["provenance"]["gpu"] == "NVIDIA Jetson (module not stated)"
    assert record["provenance"]["software"] == {"tensorrt": None}  # never guessed
    kernel = [r for r in record["results"] if r["kind"] == "kernel_time"]
    assert sorted(r["batch"] for r in kernel) == [1, 4, 8, 16, 32, 64, 128]
    # the study file's layer groups leave no layer unclassified
    assert all(r["unclassified_ms"] == 0 for r in kernel)


@pytest.mark.parametrize("job, trace", [("h100", "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"),
                                        ("mi300x", "rocm-mi300x_bert-small_profilerstep6_kineto_trace.json.gz")])
def test_bert_attention_and_total_kernel_time_from_the_trace(job, trace):
    events = json.loads(gzip.decompress(fixture(trace).read_bytes()))["traceEvents"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    # computed here from the trace: the four attention launches (FlashAttention on CUDA, Triton attn_fwd on ROCm)
    attention = sum(e["dur"] for e in kernels if "flash_fwd" in e["name"] or e["name"] == "attn_fwd") / 1000
    total = sum(e["dur"] for e in kernels) / 1000
    (record,) = [r for r in records("bert_small_h100_mi300x") if r["job_id"] == job]
    (result,) = record["results"]
    groups = {g["group"]: g["time_ms"] for g in result["groups"]}
    assert groups["attention"] == pytest.approx(attention, abs=5e-7)
    assert result["profiled_total_ms"] == pytest.approx(total, abs=5e-7)
    assert sum(groups.values()) == pytest.approx(result["profiled_total_ms"], abs=5e-6)
    # by hand: 37.408 µs on the H100 (4 x flash_fwd_kernel), 113.656 µs on the MI300X (4 x attn_fwd)
    assert groups["attention"] == {"h100": 0.037408, "mi300x": 0.113656}[job]
