"""The latency label follows the timing the record says it took (issue from a
GPU trial: the generic template headed collect run's CUDA-event times, the
time between events recorded on the stream around each forward, launch gaps
included, "median GPU compute time", trtexec's word for the GPU time of the
engine's work alone). Figures are made up for the tests."""

from __future__ import annotations

from studygen.render.charts import latency_chart
from studygen.render.engine import render_markdown
from studygen.study.timing import timing_words

from ..checks.studies import latency, record
from .test_generic_issue22 import generic, torch_latency, torch_provenance


def headings(text):
    return [line for line in text.splitlines() if line.startswith("### Latency") or line.startswith("Timed as")]


def test_cuda_event_times_are_not_called_gpu_compute_time(tmp_path):
    study = generic(tmp_path, [record("a", [torch_latency("fp16", 5.0), torch_latency("fp8", 4.0)],
                                      torch_provenance())])
    text = render_markdown(study)
    assert headings(text) == ["### Latency (ms, median CUDA-event time per forward)"]
    assert "GPU compute time" not in text
    assert latency_chart(study).alt == ("Median CUDA-event time per forward per variant at 800 x 800: 4.0 to 5.0 ms "
                                        "over 2 results")
    assert latency_chart(study).draw.args[0][0][2] == "median CUDA-event time per forward (ms)"
    assert [timing_words(row) for row in study.rows] == ["median CUDA-event time per forward"] * 2


def test_trtexec_gpu_compute_time_keeps_its_name_beside_cuda_event_times(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 2.0), latency("fp8", 1.5)]),
                               record("b", [torch_latency("fp16", 5.0)], torch_provenance())])
    assert headings(render_markdown(study)) == [
        "### Latency (ms, median GPU compute time; median CUDA-event time per forward)",
        "Timed as TensorRT engine, GPU compute time, CUDA graphs on, data transfers off, spin-wait on:",
        "Timed as PyTorch eager, CUDA-event time per forward, CUDA graphs off, data transfers off, "
        "forwards queued back to back:"]
