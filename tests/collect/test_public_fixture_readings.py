"""Real public files of ../shared/fixtures/public read in place, and
invented inputs of the same shapes: the values asserted were read off the
files by hand (or summed from their events by a separate script)."""

from __future__ import annotations

import json

from tests.collect.conftest import gpu_groups
from tests.conftest import FIXTURES

PUBLIC = FIXTURES / "public"
TB_PLUGIN_TRACE = PUBLIC / "kineto-301f611b_tb_plugin_test_gpu_metrics_input.json"


def test_a_2021_trace_names_its_gpu_under_compute_properties(collect):
    # the trace lists four "Tesla V100-DGXS-32GB" under computeProperties (no deviceProperties);
    # its 30 kernel events ran on device 0, 48 us in all, inside ProfilerStep#2
    done = collect("torch-profile", "--trace", TB_PLUGIN_TRACE, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla V100-DGXS-32GB"
    assert not any("deviceProperties" in note for note in done.record["provenance"].get("notes", []))
    (result,) = done.kind("kernel_time")
    assert result["profiled_total_ms"] == 0.048
    assert result["per_iteration"][0]["label"] == "ProfilerStep#2"


def _trace(workdir, name: str, top: dict) -> str:
    kernel = {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 1, "tid": 7, "ts": 100, "dur": 250,
              "args": {"device": 1, "stream": 7}}
    path = workdir / name
    path.write_text(json.dumps({**top, "traceEvents": [kernel]}), encoding="utf-8")
    return path


def test_device_properties_win_over_compute_properties_and_either_names_the_kernels_device(collect, workdir):
    older = {"computeProperties": [{"id": 0, "name": "Tesla P100-SXM2-16GB"}, {"id": 1, "name": "Tesla T4"}]}
    done = collect("torch-profile", "--trace", _trace(workdir, "older.json", older), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla T4"  # device 1's name, not device 0's
    assert gpu_groups(done.kind("kernel_time")[0]) == {"GEMM/MatMul": 0.25}
    both = {"deviceProperties": [{"id": 1, "name": "NVIDIA A10"}], **older}
    done = collect("torch-profile", "--trace", _trace(workdir, "both.json", both), "--variant", "fp32", job="job2")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "NVIDIA A10"
