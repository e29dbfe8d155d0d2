"""A study's figures as typed rows (studygen/study/rows.py): one row per
figure of every result kind, each holding its record and result by
reference, its measurement key as a tuple, and the figure; the writer's
measurement keys name every kind alike.

The record is built here, one result of every kind with figures of our own;
the rows expected of it are written out by hand."""

from __future__ import annotations

import dataclasses
import json

import pytest

from studygen.records.keys import FIELDS, MeasurementKey
from studygen.records.kinds import RESULT_KINDS, metric_of, result_identity
from studygen.records.load import load_record
from studygen.records.write import measurement_key
from studygen.study.rows import ROW_FIELDS, Row, flatten_record
from tests.checks.studies import latency, load, record as study_record, spec

PROVENANCE = {"gpu": "NVIDIA L4", "software": {"tensorrt": "10.3.0", "torch": "2.5.1"},
              "checkpoint": {"id": "demo/detector", "revision": "0123456789abcdef", "weights": "pretrained"},
              "collector": {"name": "test", "version": "0"}}
TRT = {"variant": "int8", "shape": "640x640", "batch": 2, "backend": "tensorrt", "mode": "engine"}
RESULTS = [
    {"kind": "latency", **TRT, "timing": "host_latency", "statistic": "p99", "value_ms": 4.125},
    {"kind": "plan_size", **TRT, "value_bytes": 3 * 2**20},
    {"kind": "coco_ap", **TRT, "dataset": "val-50", "statistic": "AP50", "value": 0.612},
    {"kind": "coco_ap_delta", **TRT, "statistic": "AP", "reference_variant": "fp16", "delta_points": -0.8},
    {"kind": "agreement", **TRT, "reference_variant": "fp16", "metric": "logit_correlation", "value": 0.9987},
    {"kind": "kernel_time", **TRT, "groups": [{"group": "Conv", "time_ms": 1.5},
                                             {"group": "GEMM", "share_percent_range": {"min": 8, "max": 9,
                                                                                       "over": "two runs"}},
                                             {"group": "other", "time_ms": 0.25}],
     "profiled_total_ms": 1.75},
    {"kind": "kernel_time_delta", **TRT, "reference_variant": "fp16", "group": "Conv", "delta_ms": -0.5},
    {"kind": "quantization", "variant": "int8", "backend": "pytorch", "mode": "eager", "quantized_modules": 42},
    {"kind": "not_measured", "variant": "int8", "metric": "gpu_compute", "reason": "no GPU of that kind at hand"},
    {"kind": "engine_layers", **TRT, "layer_count": 2, "layers": [{"name": "conv1"}, {"name": "head"}]},
]
# (kind, metric, statistic, group, value, unit) of each row, in order
EXPECTED_ROWS = [
    ("latency", "host_latency", "p99", None, 4.125, "ms"),
    ("plan_size", "plan_size", None, None, 3.0, "MiB"),
    ("coco_ap", "coco", "AP50", None, 0.612, "AP"),
    ("coco_ap_delta", "coco_delta", "AP", None, -0.8, "points"),
    ("agreement", "logit_correlation", None, None, 0.9987, ""),
    ("kernel_time", "kernel_time", None, "Conv", 1.5, "ms"),
    ("kernel_time", "kernel_share", None, "GEMM", None, "%"),  # a share stated as a range: no value of its own
    ("kernel_time", "kernel_time", None, "other", 0.25, "ms"),
    ("kernel_time", "kernel_time", None, "total", 1.75, "ms"),
    ("kernel_time_delta", "kernel_time_delta", None, "Conv", -0.5, "ms"),
    ("quantization", "quantized_modules", None, None, 42, "modules"),
    ("not_measured", "gpu_compute", "not_measured", None, None, None),
]
PRECISION = {"latency_ms": 3, "plan_mib": 1, "coco": 3, "agreement": 4, "kernel_ms": 2}


def test_the_built_record_has_a_result_of_every_kind():
    assert set(r["kind"] for r in RESULTS) == set(RESULT_KINDS)


VARIANTS = {"int8": {"name": "int8", "precision": "int8", "recipe": "ptq-entropy"}, "fp16": {"name": "fp16"}}


@pytest.fixture
def record(tmp_path):
    document = {"schema_version": 1, "job_id": "l4-a", "family": "demo", "provenance": PROVENANCE, "results": RESULTS}
    path = tmp_path / "l4-a.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return load_record(path, "measurements/demo/l4-a.json")  # schema-valid, as any record the study reads


def test_rows_name_metric_statistic_group_value_and_unit(record):
    rows = flatten_record(record, VARIANTS, PRECISION)
    assert [(r.kind, r.metric, r.statistic, r.group, r.value, r.unit) for r in rows] == EXPECTED_ROWS
    assert [r.pointer for r in rows] == [
        "/results/0/value_ms", "/results/1/value_bytes", "/results/2/value", "/results/3/delta_points",
        "/results/4/value", "/results/5/groups/0/time_ms", "/results/5/groups/1/share_percent_range",
        "/results/5/groups/2/time_ms", "/results/5/profiled_total_ms",
        "/results/6/delta_ms", "/results/7/quantized_modules", "/results/8"]
    assert rows[-1].note == "no GPU of that kind at hand"


def test_rows_print_with_the_precision_of_their_kind(record):
    rows = flatten_record(record, VARIANTS, PRECISION)
    assert [r.display_decimals for r in rows] == [3, 1, 3, None, 4, 2, 2, 2, 2, 2, None, None]
    share = rows[6]
    assert (share.value_min, share.value_max, share.range_over, share.is_range) == (8, 9, "two runs", True)
    assert [r.decimals for r in rows][:3] == [3, 0, 3]  # 4.125, 3 * 2**20 bytes (an int), 0.612
    assert [r.precision for r in rows][:2] == ["int8", "int8"]


def test_a_row_holds_its_record_and_result_by_reference(record):
    rows = flatten_record(record, VARIANTS, PRECISION)
    for row in rows:
        index = int(row.pointer.split("/")[2])  # the test reads the pointer; the code never has to
        assert row.record is record and row.result is record.results[index]
    gemm = rows[5]
    assert (gemm.group, gemm.key.group, gemm.result["kind"]) == ("Conv", "Conv", "kernel_time")
    assert gemm.line == record.line_of("/results/5/groups/0/time_ms") > 1


def test_a_row_is_frozen_slotted_and_compared_by_identity(record):
    row = flatten_record(record, VARIANTS, PRECISION)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.value = 1.0
    assert not hasattr(row, "__dict__") and "__slots__" in vars(Row)
    again = flatten_record(record, VARIANTS, PRECISION)[0]
    assert again != row and again.key == row.key and len({row, again}) == 2  # two rows, one measurement
    assert isinstance(row.key, MeasurementKey) and row.key.text().startswith("demo|0123456|int8|ptq-entropy|latency|")


def test_fields_are_what_templates_and_studygen_rows_read(record):
    row = flatten_record(record, VARIANTS, PRECISION)[0]
    fields = row.fields()
    assert list(fields) == list(ROW_FIELDS)
    assert fields["record"] == "measurements/demo/l4-a.json" and fields["job_id"] == "l4-a"
    assert fields["revision"] == "0123456789abcdef"  # the record's, in full; the key keeps 7 characters
    assert fields["key"] == row.key.text() and fields["config_key"] == row.key.config_text()
    assert (fields["tensorrt"], fields["weights"], fields["transcribed"]) == ("10.3.0", "pretrained", False)
    assert row.field("shape") == "640x640" and row.shape == "640x640"
    with pytest.raises(AttributeError):
        row.field("result")  # the result is the row's own, not a field templates filter by


def test_keys_are_made_from_their_parts_by_field(record, monkeypatch):
    """Every row's key, its fields read by name, holds what its record and
    result state (read here by hand); a group row's key is made from its
    parts, never by ``_replace`` (a call per field, per group row)."""
    def refused(self, **changes):
        raise AssertionError(f"_replace({changes})")

    monkeypatch.setattr(MeasurementKey, "_replace", refused)
    rows = flatten_record(record, VARIANTS, PRECISION)
    software = {"tensorrt": "tensorrt=10.3.0", "pytorch": "torch=2.5.1"}
    for row, (kind, metric, statistic, group, _, _) in zip(rows, EXPECTED_ROWS, strict=True):
        result = row.result
        assert row.key._asdict() == {
            "family": "demo", "revision": "0123456", "variant": "int8", "recipe": "ptq-entropy", "kind": kind,
            "metric": metric, "statistic": statistic, "group": group, "shape": result.get("shape"),
            "batch": result.get("batch"), "backend": result.get("backend"), "mode": result.get("mode"),
            "gpu": "NVIDIA L4", "software": software.get(result.get("backend"), "torch=2.5.1,tensorrt=10.3.0"),
            "dataset": result.get("dataset")}


def key_parts(key: MeasurementKey) -> dict:
    return dict(zip(FIELDS, key.text().split("|")))


def test_rows_and_measurement_keys_agree_for_every_kind(record):
    loaded = record
    rows = flatten_record(loaded, VARIANTS, PRECISION)
    for index, result in enumerate(loaded.results):
        written = key_parts(measurement_key("demo", loaded.provenance, result))
        identity = dict(zip(("kind", "metric", "statistic", "group"), result_identity(result)))
        assert identity == dict(zip(("kind", "metric", "statistic", "group"), (result["kind"], *metric_of(result))))
        own_rows = [r for r in rows if r.result is result]
        if result["kind"] == "engine_layers":
            assert own_rows == [] and written["metric"] == "engine_layers"
            continue
        assert own_rows, result["kind"]
        for row in own_rows:
            read = key_parts(row.key)
            # the row's recipe is the study's; the writer lets the variant stand for it
            for name in FIELDS:
                if name == "recipe":
                    assert read[name] == ("ptq-entropy" if result["variant"] == "int8" else "")
                    assert written[name] == ""
                elif name == "group" and result["kind"] == "kernel_time":
                    # rows of a profile are its groups; the record's key is the whole profile's
                    assert read[name] == row.group and written[name] == ""
                elif name == "metric" and row.unit == "%":
                    assert read[name] == "kernel_share" and written[name] == "kernel_time"  # a group's share
                else:
                    assert read[name] == written[name], (result["kind"], name)


def test_the_key_of_each_kind_names_its_metric(record):
    loaded = record
    metrics = [key_parts(measurement_key("demo", loaded.provenance, r))["metric"] for r in loaded.results]
    assert metrics == ["host_latency", "plan_size", "coco", "coco_delta", "logit_correlation", "kernel_time",
                       "kernel_time_delta", "quantized_modules", "gpu_compute", "engine_layers"]
    software = [key_parts(measurement_key("demo", loaded.provenance, r))["software"] for r in loaded.results]
    assert software[0] == "tensorrt=10.3.0" and software[7] == "torch=2.5.1"  # the versions of each backend


def write_record(tmp_path, job_id: str, results: list) -> object:
    """A schema-valid record of ``results`` (PROVENANCE), loaded as the study loads it."""
    document = {"schema_version": 1, "job_id": job_id, "family": "demo", "provenance": PROVENANCE, "results": results}
    path = tmp_path / f"{job_id}.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return load_record(path, f"measurements/demo/{job_id}.json")


EAGER = {"variant": "int8", "shape": "640x640", "batch": 1, "backend": "pytorch"}
COMPILED = {"kind": "latency", **EAGER, "mode": "compile", "timing": "gpu_compute", "statistic": "median",
            "value_ms": 7.5, "distribution": {"repeats": 2, "repeat_medians_ms": [7.25, 7.75, 7.5, 7.125]},
            "compilations": [{"compilation": 1, "median_ms": 7.75, "repeat_medians_ms": [7.25, 7.75]},
                             {"compilation": 2, "median_ms": 7.25, "repeat_medians_ms": [7.5, 7.125]}]}


def test_a_compiled_latency_keeps_its_compilation_and_repeat_medians(tmp_path):
    eager = {"kind": "latency", **EAGER, "mode": "eager", "timing": "gpu_compute", "statistic": "median",
             "value_ms": 9.5}
    record = write_record(tmp_path, "l4-compile", [COMPILED, eager, {"kind": "plan_size", **TRT, "value_mib": 12.5}])
    compiled, plain, plan = flatten_record(record, VARIANTS, PRECISION)
    assert compiled.compilation_medians() == [7.75, 7.25]  # in compilation order, as the record lists them
    assert compiled.repeat_medians_ms == [7.25, 7.75, 7.5, 7.125] and compiled.repeats == 2
    assert plain.compilation_medians() == [] and plain.repeat_medians_ms is None  # an eager cell: one process
    assert (plan.value, plan.compilation_medians(), plan.repeat_medians_ms) == (12.5, [], None)


def test_a_row_reads_how_its_result_was_timed_and_how_steady_it_was(tmp_path):
    timed = {**COMPILED, "method": {"timer": "cuda-events", "spin_wait": True, "cuda_graph": False,
                                    "host_sync": "per_repeat"},
             "distribution": {"samples": 400, "cv": 0.0125}, "approximate": True, "unstable": True,
             "unstable_reason": "repeat medians 7.125 to 7.75 ms", "note": "shared node"}
    plain = {"kind": "latency", **EAGER, "mode": "eager", "timing": "gpu_compute", "statistic": "p90", "value_ms": 9.5}
    row, bare = flatten_record(write_record(tmp_path, "l4-timed", [timed, plain]), VARIANTS, PRECISION)
    # the settings the result states, in TIMING_METHOD_FIELDS' order (the timer is no such setting)
    assert row.timing_method == "cuda_graph=False,spin_wait=True,host_sync=per_repeat"
    assert (row.samples, row.cv, row.repeats, row.repeat_medians_ms) == (400, 0.0125, None, None)
    assert (row.approximate, row.unstable, row.unstable_reason, row.note) == (
        True, True, "repeat medians 7.125 to 7.75 ms", "shared node")
    assert (bare.timing_method, bare.distribution, bare.samples, bare.approximate, bare.unstable) == (
        "", {}, None, False, False)
    assert (bare.unstable_reason, bare.note, bare.reference_variant, bare.statistic) == (None, None, None, "p90")
    assert (row.low, row.high, row.is_range, bare.low) == (7.5, 7.5, False, 9.5)


def test_a_kind_without_a_precision_key_keeps_its_source_digits_whatever_the_table_holds(tmp_path):
    quantized = {"kind": "quantization", "variant": "fp8", "backend": "pytorch", "mode": "eager",
                 "quantized_modules": 72}
    # "null: 2" in a study file's precision table loaded as the key None, which the study schema let pass; the
    # study file's loader refuses that key now (tests/records/test_study_yaml.py), a spec built in code may hold it
    study = load(tmp_path, records=[study_record("job", [latency("fp16", 5.0), quantized])],
                 study=spec(precision={"latency_ms": 3}))
    study.spec["precision"][None] = 2  # before the rows are made: they read the table once
    assert [(row.kind, row.value, row.display_decimals) for row in study.rows] == [
        ("latency", 5.0, 3), ("quantization", 72, None)]


def test_a_rows_timing_signature_is_made_once_and_kept_on_the_row(record):
    """SG203, SG207, SG212 and the charts each group every latency row by its
    timing signature: it is worked out on first use and kept on the row."""
    from studygen.study.timing import timing_signature

    row = flatten_record(record, VARIANTS, PRECISION)[0]
    assert row.kind == "latency" and row.signature is None
    signature = timing_signature(row)
    assert row.signature is signature and timing_signature(row) is signature
    # no method stated: TensorRT 10.3's defaults (no CUDA graphs, data transfers timed, no spin-wait)
    assert signature == ("tensorrt", "engine", "host_latency", False, True, False, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.signature = ()
