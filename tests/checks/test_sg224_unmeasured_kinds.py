"""SG224 on a plan size or an AP stated in a study with no record of that kind, and on "plan" as an engine's
noun. Case (a new user's trial, session 28): "The int8 plan is 27 MiB against 12 MiB for fp32." passed in a study
whose records hold latencies, kernel times and agreement figures but no plan size (both figures came from TensorRT 8
'Loaded engine size' lines, which collect does not read); SG224 also read any "plan" as a deferral ("we plan
to"), so "the int8 plan takes 0.2 ms on the A100" stated nothing. The study here is made up."""

from __future__ import annotations

from studygen.checks import CheckContext, sg224_unmeasured_gpu

from .studies import collected_provenance, latency, load, record, spec

RECORDS = [record("t4", [latency("fp16", 1.093)], collected_provenance("Tesla T4"))]


def _warnings(tmp_path, sentence: str, records=RECORDS) -> list[str]:
    study = load(tmp_path, records=records, study=spec(title="A detector on a T4",
                                                       decision={"shipped": False, "summary": sentence}))
    return [f.message for f in sg224_unmeasured_gpu.check(CheckContext(study))]


def test_a_plan_size_or_ap_no_record_measured_is_warned(tmp_path):
    assert _warnings(tmp_path, "The fp16 plan is 41.5 MiB.") == [
        "/decision/summary states an engine plan size (41.5 MiB), which no record of the study measured (no "
        "plan_size result)"]
    assert _warnings(tmp_path / "ap", "fp16 keeps AP 0.4412 on the validation set.") == [
        "/decision/summary states a COCO AP (0.4412 AP), which no record of the study measured (no coco_ap result)"]


def test_sizes_that_are_no_plan_and_clauses_that_state_nothing_pass(tmp_path):
    assert _warnings(tmp_path, "The T4 has 16 GB of memory; fp16 takes 1.093 ms.") == []
    assert _warnings(tmp_path / "no", "The fp16 plan size (about 40 MiB) was not recorded.") == []
    measured = [record("t4", [latency("fp16", 1.093), {"kind": "plan_size", "variant": "fp16", "value_mib": 41.5,
                                                       "batch": 1, "backend": "tensorrt", "mode": "engine"}],
                       collected_provenance("Tesla T4"))]
    assert _warnings(tmp_path / "measured", "The fp16 plan is 41.5 MiB.", measured) == []


def test_an_engine_plan_is_no_deferral(tmp_path):
    assert _warnings(tmp_path, "The fp16 plan takes 0.61 ms on the A100.") == [
        "/decision/summary states a result on the A100, which no record was measured on (records: Tesla T4)"]
    # the verb still defers
    assert _warnings(tmp_path / "verb", "We plan to time the fp16 plan on the A100 at 0.6 ms.") == []
