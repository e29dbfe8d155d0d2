"""A trace holding kernels of several devices is one kernel time per device,
never their sum (attack round 09: the H100 BERT step's kernels written again
on device 1 were recorded as attention 0.074816 ms per iteration, twice the
0.037408 ms one GPU spent, gpu_count 2, "the kernels ran on device 1")."""

from __future__ import annotations

import copy
import gzip
import json

import pytest

from studygen.collect.torch_profile import parse_trace
from studygen.errors import InputError, UsageError
from tests.collect.conftest import TORCH, assert_refused
from tests.conftest import FIXTURES

H100 = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"  # 60 kernel launches on device 0


def _two_devices(tmp_path, scale: float = 1.0, first: bool = False):
    """The H100 trace with each kernel also on device 1 (pid 1), its dur times ``scale``; written before the
    device 0 events when ``first``."""
    trace = json.loads(gzip.decompress(H100.read_bytes()))
    extra = []
    for event in trace["traceEvents"]:
        if event.get("cat") == "kernel":
            twin = copy.deepcopy(event)
            twin["args"]["device"], twin["pid"] = 1, 1
            twin["dur"] = round(twin["dur"] * scale, 3)
            extra.append(twin)
    trace["traceEvents"] = extra + trace["traceEvents"] if first else trace["traceEvents"] + extra
    path = tmp_path / "two-gpus.json"
    path.write_text(json.dumps(trace))
    return path


def test_a_trace_of_two_devices_is_refused_without_device(collect, tmp_path):
    # devices named by index, whichever the trace lists first
    done = collect("torch-profile", "--variant", "fp16", "--trace", _two_devices(tmp_path, first=True))
    assert_refused(done, "two-gpus.json: its kernels ran on 2 devices: device 0 (60 kernel launches), device 1 "
                         "(60 kernel launches); a kernel time per group is one GPU's and is never summed across "
                         "devices: name the one to read with --device N")


def test_device_reads_that_device_only(collect, tmp_path):
    # device 1 runs every kernel 1.5 times as long: attention 0.037408 x 1.5 = 0.056112 ms, never 0.09352
    done = collect("torch-profile", "--variant", "fp16", "--trace", _two_devices(tmp_path, 1.5), "--device", "1")
    assert done.exit_code == 0, done.err
    result = done.results[0]
    assert {g["group"]: g["time_ms"] for g in result["groups"]}["attention"] == 0.056112
    assert done.record["provenance"]["gpu_count"] == 1
    assert "kernels of device 1 only (--device 1): 60 of 120 kernel launches; the trace holds device 0 (60 kernel " \
           "launches), device 1 (60 kernel launches)" in result["note"]
    assert "the kernels ran on device 1, which deviceProperties does not list" in result["note"]
    zero = collect("torch-profile", "--variant", "fp16", "--trace", _two_devices(tmp_path, 1.5), "--device", "0",
                   job="zero")
    assert {g["group"]: g["time_ms"] for g in zero.results[0]["groups"]}["attention"] == 0.037408
    assert "which deviceProperties does not list" not in zero.results[0]["note"]
    # each device of the trace is a place of its own in it: device 0 into another job is no copy of device 1
    assert (result["source_locator"], zero.results[0]["source_locator"]) == ("two-gpus.json:device 1",
                                                                              "two-gpus.json:device 0")


def test_a_device_that_ran_no_kernel_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match=r"^--device 3: no kernel of .*two-gpus.json ran on it; its kernels ran on "
                                         r"device 0 \(60 kernel launches\), device 1 \(60 kernel launches\)$"):
        parse_trace(_two_devices(tmp_path), device=3)


def test_kernels_without_a_device_count_as_a_device_of_their_own(tmp_path):
    trace = json.loads(gzip.decompress(H100.read_bytes()))
    kernel = next(e for e in trace["traceEvents"] if e.get("cat") == "kernel")
    del kernel["args"]["device"]
    path = tmp_path / "one-unstated.json"
    path.write_text(json.dumps(trace))
    with pytest.raises(InputError, match=r"device 0 \(59 kernel launches\), device not stated \(1 kernel launches\)"):
        parse_trace(path)


@pytest.mark.parametrize("name, device, launches", [
    ("public/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz", 2, 14),
    ("public/hta_ns_resolution_trace_rank-0.pt.trace.json.gz", 0, 4350),
    ("public/hta_trace_compare_base_base.json.gz", 1, 6),
    ("torch_profiler/rocm-mi210_gpu-only_kineto_trace.json.gz", 1, 562),
])
def test_one_rank_traces_of_multi_gpu_machines_read_as_before(name, device, launches):
    # each rank's trace lists every GPU of its machine but holds the kernels of one
    trace = parse_trace(FIXTURES / name)
    assert trace.kernel_devices == {device} and len(trace.kernels) == launches and trace.gpu_count == 1
    assert parse_trace(FIXTURES / name, device=device).kernels == trace.kernels
