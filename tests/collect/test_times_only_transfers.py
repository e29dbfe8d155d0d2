"""A times-only ``collect trtexec`` (``--times`` without the log) says what
the export shows about data transfers, never what a TensorRT version's
default would claim: before, its latencies carried no ``data_transfers``, so
a record naming TensorRT 8.6 read as timed with transfers on (TensorRT 10
and older default) although the export's H2D and D2H were zero in every
iteration. fuzzylabs' AlexNet export (../shared/fixtures/public) is such a
file: h2dMs and d2hMs 0 in all 6,039 iterations."""

from __future__ import annotations

import json

from ..conftest import FIXTURES

FUZZYLABS = FIXTURES / "public" / "fuzzylabs-6d8ac68a_alexnet_fp16.timing.json"
ROW = {"startEnqMs": 0.0, "endEnqMs": 0.5, "startH2dMs": 0.5, "endH2dMs": 0.75, "startComputeMs": 0.75,
       "endComputeMs": 2.25, "startD2hMs": 2.25, "endD2hMs": 2.5, "h2dMs": 0.25, "computeMs": 1.5,
       "d2hMs": 0.25, "latencyMs": 2.0}


def times_only(collect, path):
    done = collect("trtexec", "--variant", "fp16", "--times", path, "--gpu", "X", "--software", "tensorrt=8.6.1")
    assert done.exit_code == 0, done.err
    return [r for r in done.results if r["kind"] == "latency"]


def test_an_export_without_copies_records_transfers_off(collect):
    latencies = times_only(collect, FUZZYLABS)
    # host latency and GPU compute (enqueue is below the stamps' resolution; H2D and D2H are zeros)
    assert [(r["timing"], r["value_ms"]) for r in latencies] == [("host_latency", 0.495605), ("gpu_compute", 0.495605)]
    assert [r["method"] for r in latencies] == [{"timer": "trtexec", "data_transfers": False}] * 2


def test_an_export_with_copies_records_transfers_on(collect, workdir):
    # 0.25 ms H2D and D2H in each of three iterations, one after the other
    rows = [{key: value + 2.5 * i if key.startswith(("start", "end")) else value for key, value in ROW.items()}
            for i in range(3)]
    path = workdir / "times.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    latencies = times_only(collect, path)
    assert {r["timing"]: r["method"].get("data_transfers") for r in latencies} == {
        "host_latency": True, "gpu_compute": True, "h2d": True, "d2h": True, "enqueue": True}

