"""The generic template shows, of each run, the timing that times its work
(studygen.study.timing.shown_rows): a GPU run's CUDA-event or GPU compute
time, a ``collect run --cpu`` run's end-to-end time, each in the table of
its own timing signature; of trtexec's six timings of one engine, the GPU
compute time only.

Case (a run on an H100): one job timed the model on the GPU (CUDA events),
another with ``collect run --cpu`` on the same machine (16 intra-op threads,
fp32 10.73 ms, fp16 11.90 ms). The README picked one timing for the whole
study, GPU compute time, so its only latency table was the H100's and the
CPU figures appeared nowhere, though SG208 named them. The GPU figures
below are made up.
"""

from __future__ import annotations

from studygen.render.charts import latency_chart, latency_rows

from ..checks.studies import collected_provenance, latency, load, readme_lines, record
from .test_cpu_machine import TWO
from .test_host_bound_cells import GENERIC, cells, cpu_latency, torch_latency

XEON = "Intel(R) Xeon(R) Processor"
GPU_HEADING = ("Timed as PyTorch eager, CUDA-event time per forward, CUDA graphs off, data transfers off, forwards "
               "queued back to back:")
CPU_HEADING = "Timed as PyTorch eager, end-to-end time with 16 intra-op threads:"


def on_sixteen_threads(variant: str, value_ms: float) -> dict:
    result = cpu_latency(variant, value_ms, value_ms)
    result["method"]["intra_op_threads"] = 16
    return result


def gpu_and_cpu_jobs(tmp_path):
    gpu = record("h100-gpu", [torch_latency("fp32", "eager", 1.21, 0.4), torch_latency("fp16", "eager", 0.93, 0.4)],
                 collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None))
    cpu = record("h100-cpu", [on_sixteen_threads("fp32", 10.73), on_sixteen_threads("fp16", 11.90)],
                 collected_provenance(gpu=None, tensorrt=None, gpu_count=0, driver=None, cpu=XEON))
    return load(tmp_path, records=[gpu, cpu], template=GENERIC, study=TWO)


def test_a_gpu_job_and_a_cpu_job_each_show_their_latency_under_their_own_timing(tmp_path):
    study = gpu_and_cpu_jobs(tmp_path)
    lines = readme_lines(study)
    assert ("### Latency (ms, median end-to-end time with 16 intra-op threads; median CUDA-event time per forward)"
            in lines)
    assert cells(lines, CPU_HEADING) == [[f"CPU {XEON}", "224 x 224", "1", "10.73", "11.9", "0.90x"]]
    assert cells(lines, GPU_HEADING) == [["H100 80GB HBM3", "224 x 224", "1", "1.21", "0.93", "1.30x"]]
    # the side finding is on a timing a table prints (before, the template kept only GPU compute time's findings)
    assert f"- fp16 on {XEON.join(['CPU ', ''])} at 224 x 224 (eager) is slower than fp32 with 11.9 ms against " \
           "10.73 ms." in lines
    # the chart plots what the tables print, each run's figures in the row of panels of its method
    assert sorted((row.job_id, row.metric, row.value) for row in latency_rows(study)) == [
        ("h100-cpu", "end_to_end", 10.73), ("h100-cpu", "end_to_end", 11.9),
        ("h100-gpu", "gpu_compute", 0.93), ("h100-gpu", "gpu_compute", 1.21)]
    alt = latency_chart(study).alt
    assert "end-to-end time with 16 intra-op threads, at 224 x 224: 10.73 to 11.9 ms over 2 results" in alt, alt
    assert "forwards queued back to back, at 224 x 224: 0.93 to 1.21 ms over 2 results" in alt, alt


# (fp32, fp16) ms of each timing trtexec prints for one engine: GPU compute 0.50 and 0.30 ms
TRTEXEC_TIMINGS = {"gpu_compute": (0.5, 0.3), "host_latency": (0.55, 0.36), "end_to_end": (0.61, 0.41),
                   "enqueue": (0.12, 0.11), "h2d": (0.02, 0.021), "d2h": (0.01, 0.013)}


def test_trtexecs_six_timings_of_one_engine_still_show_its_gpu_compute_time_only(tmp_path):
    results = [latency(variant, values[i], "28x28", timing=timing, method={"timer": "trtexec"})
               for i, variant in enumerate(("fp32", "fp16")) for timing, values in TRTEXEC_TIMINGS.items()]
    study = load(tmp_path, records=[record("h200-trt", results)], template=GENERIC, study=TWO)
    lines = readme_lines(study)
    assert "### Latency (ms, median GPU compute time)" in lines
    assert cells(lines, "### Latency") == [["H200", "28 x 28", "1", "0.5", "0.3", "1.67x"]]
    assert not any(line.startswith("Timed as") for line in lines)
    assert [(row.metric, row.value) for row in latency_rows(study)] == [("gpu_compute", 0.5), ("gpu_compute", 0.3)]
