"""studygen.records.write: validation before writing, conflicts, provenance merge."""

from __future__ import annotations

import json
import os

import pytest

from studygen.records.result import NewResult
from studygen.records.write import measurement_key, write_results
from studygen.errors import ConflictError, RecordError, UsageError


def provenance(**overrides):
    block = {"gpu": "NVIDIA H200", "software": {"tensorrt": "10.16.1"},
             "checkpoint": {"id": "demo/model", "revision": "abc", "weights": "pretrained"},
             "collector": {"name": "test", "version": "0"}}
    block.update(overrides)
    return block


def latency(value, **extra):
    return {"kind": "latency", "variant": "fp16", "backend": "tensorrt", "timing": "gpu_compute", "statistic": "median",
            "value_ms": value, **extra}


def test_new_record_is_schema_valid_and_atomic(tmp_path):
    outcome = write_results(tmp_path, "demo", "job", provenance(), [NewResult(latency(1.5, batch=1), "a.log:line 3")])
    assert outcome.created and outcome.added == 1
    document = json.loads((tmp_path / "demo" / "job.json").read_text())
    assert document["results"][0]["value_ms"] == 1.5
    assert os.listdir(tmp_path / "demo") == ["job.json"]


def test_invalid_result_is_refused_before_writing(tmp_path):
    with pytest.raises(RecordError) as raised:
        write_results(tmp_path, "demo", "job", provenance(), [NewResult(latency("fast"), "a.log:line 3")])
    assert raised.value.where == "/results/0/value_ms"
    assert "'fast' is not of type 'number'" in raised.value.message
    assert not (tmp_path / "demo" / "job.json").exists()


def test_duplicate_key_names_both_and_writes_nothing(tmp_path):
    write_results(tmp_path, "demo", "job", provenance(), [NewResult(latency(1.5, batch=1), "a.log:line 3")])
    path = tmp_path / "demo" / "job.json"
    before = path.read_bytes()
    with pytest.raises(ConflictError) as raised:
        write_results(tmp_path, "demo", "job", provenance(),
                      [NewResult(latency(1.6, batch=2), "b.log:line 9"), NewResult(latency(1.7, batch=1), "b.log:line 4")])
    message = raised.value.message
    assert "latency gpu_compute median, variant fp16, batch 1 from b.log:line 4" in message
    assert "already recorded at" in message and "job.json:/results/0" in message
    assert path.read_bytes() == before


def test_duplicate_among_new_results(tmp_path):
    with pytest.raises(ConflictError, match="from b.log:line 2 is already recorded at b.log:line 1"):
        write_results(tmp_path, "demo", "job", provenance(),
                      [NewResult(latency(1.0), "b.log:line 1"), NewResult(latency(1.1), "b.log:line 2")])
    assert not (tmp_path / "demo").exists()


def test_key_distinguishes_what_differs():
    base = measurement_key("demo", provenance(), latency(1.0, batch=1, shape="800x800"))
    for changed in (latency(1.0, batch=2, shape="800x800"), latency(1.0, batch=1, shape="800x1067"),
                    dict(latency(1.0, batch=1, shape="800x800"), variant="fp8"),
                    dict(latency(1.0, batch=1, shape="800x800"), timing="host_latency"),
                    dict(latency(1.0, batch=1, shape="800x800"), statistic="p99")):
        assert measurement_key("demo", provenance(), changed) != base
    assert measurement_key("demo", provenance(), latency(2.0, batch=1, shape="800x800")) == base


def test_other_tensorrt_version_is_a_conflict(tmp_path):
    write_results(tmp_path, "demo", "job", provenance(), [NewResult(latency(1.5), "a")])
    with pytest.raises(ConflictError, match="the record says tensorrt 10.16.1, the new input says 11.4.0"):
        write_results(tmp_path, "demo", "job", provenance(software={"tensorrt": "11.4.0"}),
                      [NewResult(latency(1.5, batch=4), "b")])


def test_unknown_fields_are_filled_in(tmp_path):
    write_results(tmp_path, "demo", "job", provenance(gpu=None, software={"tensorrt": None}), [NewResult(latency(1.5), "a")])
    outcome = write_results(tmp_path, "demo", "job", provenance(), [NewResult(latency(1.5, batch=4), "b")])
    document = json.loads(outcome.path.read_text())
    assert document["provenance"]["gpu"] == "NVIDIA H200"
    assert document["provenance"]["software"]["tensorrt"] == "10.16.1"
    assert "provenance.gpu filled in: NVIDIA H200" in outcome.notes


def test_transcribed_record_is_not_extended(tmp_path):
    path = tmp_path / "demo" / "seed.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"schema_version": 1, "job_id": "seed", "family": "demo", "provenance": {
        "gpu": "NVIDIA B200", "software": {}, "checkpoint": {"id": "x", "weights": "pretrained"},
        "source": {"citation": "a PR"}}, "results": []}))
    with pytest.raises(ConflictError, match="transcribes a publication"):
        write_results(tmp_path, "demo", "seed", provenance(), [NewResult(latency(1.5), "a")])


def test_writes_stay_inside_the_measurements_folder(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    measurements = tmp_path / "measurements"
    measurements.mkdir()
    (measurements / "demo").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UsageError, match="refusing to write"):
        write_results(measurements, "demo", "job", provenance(), [NewResult(latency(1.5), "a")])
    assert list(outside.iterdir()) == []
    with pytest.raises(UsageError, match="invalid job id"):
        write_results(measurements, "demo2", "../job", provenance(), [NewResult(latency(1.5), "a")])


def test_the_other_jobs_are_parsed_once_a_write_and_again_when_their_text_changed(tmp_path):
    # a write reads the other jobs twice (before the lock and under it): an unchanged sibling is not validated again
    from studygen.records.write import other_jobs
    from tests.checks.studies import latency, record

    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(record("a", [latency("fp16", 5.0)])), encoding="utf-8")
    (folder / "b.json").write_text(json.dumps(record("b", [latency("fp16", 5.25)])), encoding="utf-8")
    (folder / "broken.json").write_text("{", encoding="utf-8")
    read: dict = {}
    first = other_jobs(folder / "new.json", read)
    assert [(job, [r["value_ms"] for r in results]) for job, _, results in first] == [("a", [5.0]), ("b", [5.25])]
    (folder / "b.json").write_text(json.dumps(record("b", [latency("fp16", 5.5)])), encoding="utf-8")
    second = other_jobs(folder / "new.json", read)
    assert second[0][2] is first[0][2]  # a.json as parsed before
    assert second[1][2] is not first[1][2] and second[1][2][0]["value_ms"] == 5.5  # b.json changed: read anew
    assert [job for job, _, _ in other_jobs(folder / "a.json")] == ["b"]  # itself and the broken file left out
