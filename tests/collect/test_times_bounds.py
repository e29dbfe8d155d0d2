"""A ``--exportTimes`` duration longer than an hour is refused in the times file, at its JSON pointer.

A record holds no time above 3,600,000 ms (the run-record schema's maximum of ``value_ms`` and
``statistics_ms``). Before the bound was checked in the file, a computeMs of 1e200 ms in one iteration overflowed
the population standard deviation (``internal error: AttributeError``, exit 2, no place), and one of 4,000,000 ms
was refused by the schema at a line of the record that was never written
(``measurements/demo/job1.json:49: ... /results/0/statistics_ms/max``).
"""

from __future__ import annotations

import json

import pytest

from studygen.collect.trtexec.times import MAX_DURATION_MS
from studygen.records.schemas import schema_bytes

from .conftest import assert_refused


def iterations(computes: list[float], *, enqueue_ms: float = 0.005) -> list[dict]:
    """TensorRT 8.2+ iterations with these compute times (ms), 0.01 ms copies each way, 1 ms apart."""
    rows, start = [], 0.0
    for compute in computes:
        h2d_end = start + enqueue_ms + 0.01
        rows.append({"startEnqMs": start, "endEnqMs": start + enqueue_ms, "startH2dMs": start + enqueue_ms,
                     "endH2dMs": h2d_end, "startComputeMs": h2d_end, "endComputeMs": h2d_end + compute,
                     "startD2hMs": h2d_end + compute, "endD2hMs": h2d_end + compute + 0.01, "h2dMs": 0.01,
                     "computeMs": compute, "d2hMs": 0.01, "latencyMs": compute + 0.02})
        start = h2d_end + compute + 1.0
    return rows


def collect_times(collect, workdir, rows: list[dict]):
    path = workdir / "times.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    return collect("trtexec", "--variant", "fp16", "--times", path, "--gpu", "X", "--software", "tensorrt=10.0")


def test_the_bound_is_the_schemas_maximum_of_a_time():
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("value_ms"), dict):
                found.append(node["value_ms"].get("maximum"))
            for item in node.values():
                walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(json.loads(schema_bytes("run")))
    assert found and set(found) == {MAX_DURATION_MS} and MAX_DURATION_MS == 3_600_000


@pytest.mark.parametrize("compute, shown", [(1e200, "1e+200"), (4_000_000.0, "4e+06")])
def test_a_duration_over_an_hour_is_refused_at_its_pointer(collect, workdir, compute, shown):
    rows = iterations([1.0, 1.0, 1.0, compute, 1.0])
    done = collect_times(collect, workdir, rows)
    assert_refused(done, f"times.json:/3/latencyMs: latencyMs is {shown} ms: longer than an hour (3,600,000 ms)")


def test_an_enqueue_over_an_hour_is_refused_at_its_end_stamp(collect, workdir):
    rows = iterations([1.0, 1.0, 1.0])
    rows[1]["endEnqMs"] = rows[1]["startEnqMs"] + 4_000_000  # no duration is exported for it: a difference of stamps
    done = collect_times(collect, workdir, rows)
    assert_refused(done, "times.json:/1/endEnqMs: endEnqMs − startEnqMs is 4e+06 ms: longer than an hour")


def test_an_hour_itself_is_read(collect, workdir):
    done = collect_times(collect, workdir, iterations([3_599_999.0, 3_599_999.0]))
    assert done.exit_code == 0, done.err
    compute = next(r for r in done.results if r.get("timing") == "gpu_compute")
    assert compute["value_ms"] == 3_599_999.0
