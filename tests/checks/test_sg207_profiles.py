"""SG207 and the two kinds of kernel-time profile: a ``collect run --cpu`` profile (CPU operators' self time per
forward) is never set against a GPU profile (kernel time) as one figure on two platforms, while two GPU profiles,
or two CPU profiles of two CPUs, are still compared. Also: a CPU job's end-to-end latency is not compared with a GPU
job's CUDA-event latency. Case: an H100 trial where one model's CPU job and GPU job made seven SG207 errors."""

from __future__ import annotations

from studygen.checks import CheckContext, sg207_anomaly

from .studies import collected_provenance, kernel_time, latency, load, record, spec

CPU_PROFILER = "torch.profiler without CUDA: CPU operator self time, ms per forward (no GPU kernels)"
CUDA_PROFILER = "torch.profiler (CUDA kernels)"
GROUPS = ("Conv", "GEMM/MatMul", "Norm", "Activation", "other")
# Made-up per-group figures (ms). The CPU groups are 30x, 20x, 10x, 2x and 0.06x the H100's: the spread that CPU
# operator self time and GPU kernel time of one group show by nature, which read as one figure on two platforms
# gave a 10x "typical" ratio and four anomalies off it.
H100 = (0.2, 0.05, 0.03, 0.02, 0.01)
XEON = (6.0, 1.0, 0.3, 0.04, 0.0006)
TWO = spec(variants=[{"name": "fp32", "precision": "fp32", "label": "fp32"}], recipes={})


def gpu_job(job_id: str, gpu: str, times) -> dict:
    profile = kernel_time("fp32", dict(zip(GROUPS, times)), shape="224x224", backend="pytorch", mode="eager",
                          profiler=CUDA_PROFILER)
    return record(job_id, [profile], collected_provenance(gpu, None))


def cpu_job(job_id: str, cpu: str, times) -> dict:
    profile = kernel_time("fp32", dict(zip(GROUPS, times)), shape="224x224", backend="pytorch", mode="eager",
                          profiler=CPU_PROFILER)
    provenance = collected_provenance(None, None, gpu_count=0, driver=None, cpu=cpu)
    return record(job_id, [profile], provenance)


def sg207(tmp_path, *records):
    return sg207_anomaly.check(CheckContext(load(tmp_path, records=list(records), study=TWO)))


def test_a_cpu_operator_profile_is_not_compared_with_a_gpu_kernel_profile(tmp_path):
    assert sg207(tmp_path, gpu_job("gpu-b1", "NVIDIA H100 80GB HBM3", H100),
                 cpu_job("cpu-on-gpu", "Intel(R) Xeon(R) Platinum 8480+", XEON)) == []


def test_two_gpu_profiles_are_still_compared_beside_a_cpu_profile(tmp_path):
    # H200 / H100: 0.8 in four groups, Conv 0.32 / 0.2 = 1.6, twice the typical 0.8 (median of the five ratios).
    # The CPU profile beside them takes no part: neither a pair of its own nor a ratio in the GPUs' median.
    h200 = (0.32, 0.04, 0.024, 0.016, 0.008)
    findings = sg207(tmp_path, gpu_job("h100", "NVIDIA H100 80GB HBM3", H100), gpu_job("h200", "NVIDIA H200", h200),
                     cpu_job("cpu", "Intel(R) Xeon(R) Platinum 8480+", XEON))
    assert [(f.file, f.pointer) for f in findings] == [("measurements/toy/h200.json", "/results/0/groups/0/time_ms")]
    assert findings[0].message == (
        "fp32 batch 1 kernel time Conv at 224x224: 0.32 ms on NVIDIA H200, torch=2.11.0,cuda=13.0 (job h200) "
        "is 1.60x 0.2 ms on NVIDIA H100 80GB HBM3, torch=2.11.0,cuda=13.0 (job h100), 2.00x the 0.80x typical of "
        "these two platforms (median over the 5 configurations both measured), at or above the anomaly factor 1.50")


def test_two_cpu_profiles_of_two_cpus_are_compared_and_named_as_cpu_operator_time(tmp_path):
    # EPYC / Xeon: 0.5 in four groups, GEMM/MatMul 1.5 / 1.0 = 1.5, three times the typical 0.5; a CPU job's software
    # names no CUDA (torch's build CUDA ran none of its figures: records.keys.stated_software, session 27)
    epyc = (3.0, 1.5, 0.15, 0.02, 0.0003)
    (finding,) = sg207(tmp_path, cpu_job("xeon", "Intel(R) Xeon(R) Platinum 8480+", XEON),
                       cpu_job("epyc", "AMD EPYC 7763 64-Core Processor", epyc),
                       gpu_job("h100", "NVIDIA H100 80GB HBM3", H100))
    assert (finding.file, finding.pointer) == ("measurements/toy/epyc.json", "/results/0/groups/1/time_ms")
    assert finding.message == (
        "fp32 batch 1 CPU operator self time GEMM/MatMul at 224x224: 1.5 ms on CPU AMD EPYC 7763 64-Core Processor, "
        "torch=2.11.0 (job epyc) is 1.50x 1.0 ms on CPU Intel(R) Xeon(R) Platinum 8480+, "
        "torch=2.11.0 (job xeon), 3.00x the 0.50x typical of these two platforms (median over the 5 "
        "configurations both measured), at or above the anomaly factor 1.50")


def test_a_stated_gpu_range_is_not_held_against_a_cpu_profile(tmp_path):
    # a summary of GPU kernel time (0.19 to 0.21 ms of Conv over rows it does not list) and a CPU job's 6.0 ms of
    # Conv operators: two quantities, no "28.57x above the range"
    summary = {"kind": "kernel_time", "variant": "fp32", "batch": 1, "backend": "pytorch", "mode": "eager",
               "rows_listed": False,
               "groups": [{"group": "Conv", "time_ms_range": {"min": 0.19, "max": 0.21, "over": "the other rows"}}]}
    stated = record("summary", [summary], collected_provenance(None, None))
    assert sg207(tmp_path / "cpu", stated, cpu_job("cpu", "Intel(R) Xeon(R) Platinum 8480+", XEON)) == []
    # the same figure from a GPU profile is held to it
    (finding,) = sg207(tmp_path / "gpu", stated, gpu_job("gpu", "NVIDIA H100 80GB HBM3", XEON))
    assert "6.0 ms on NVIDIA H100 80GB HBM3" in finding.message
    assert "28.57x above the 0.19 to 0.21 ms stated over the other rows" in finding.message


EVENTS = {"timer": "cuda-events", "cuda_graph": False, "data_transfers": False, "host_sync": "per_repeat"}
HOST_CLOCK = {"timer": "perf-counter", "cuda_graph": False, "data_transfers": False}


def test_a_cpu_jobs_latency_is_not_compared_with_a_gpu_jobs_cuda_event_latency(tmp_path):
    # CPU / GPU: 10x at three shapes, 30x at the fourth. The CPU job's end-to-end time by the host clock and the
    # GPU job's CUDA-event time differ in timing and in timing signature: two figures, no pattern between them.
    shapes = {"224x224": (0.2, 2.0), "256x256": (0.3, 3.0), "320x320": (0.4, 4.0), "384x384": (0.5, 15.0)}

    def torch_latency(value_ms, shape, timing, method):
        return latency("fp32", value_ms, shape, timing=timing, method=dict(method), backend="pytorch", mode="eager")

    gpu = record("gpu", [torch_latency(g, s, "gpu_compute", EVENTS) for s, (g, _) in shapes.items()],
                 collected_provenance("NVIDIA H100 80GB HBM3", None))
    cpu = record("cpu", [torch_latency(c, s, "end_to_end", HOST_CLOCK) for s, (_, c) in shapes.items()],
                 collected_provenance(None, None, gpu_count=0, driver=None, cpu="Intel(R) Xeon(R) Platinum 8480+"))
    assert sg207(tmp_path, gpu, cpu) == []
