"""A record refused at load (SG202) may hold what a check looks for: a
check whose verdict is that something is missing reports nothing while a
record is refused, as SG216 reports no unmatched waiver then. Case (attack
round): a record whose ``value_ms`` disagreed with its own median was
refused, and SG219 said its variant had no result, a second error that
was not true. Figures are made up for the tests."""

from __future__ import annotations

import pytest

from studygen.checks import run_checks
from studygen.study import load_study

from .studies import DEFAULT_DATASETS, codes, coco_ap, dataset, latency, record, spec, write_project

STATS = {"min": 4.9, "median": 5.0, "max": 5.3}


def fp32_latency(value_ms: float) -> dict:
    return latency("fp32", value_ms, statistics_ms=dict(STATS))


def checked(tmp_path, records, **kwargs):
    study_dir = write_project(tmp_path, records=records, **kwargs)
    return run_checks(load_study(study_dir, tmp_path))


def one_variant_study():
    return spec(variants=[{"name": "fp32", "precision": "fp32", "label": "fp32"}], recipes={})


def test_a_variant_whose_record_is_refused_is_not_said_to_have_no_result(tmp_path):
    findings = checked(tmp_path, [record("a", [fp32_latency(6.0)])], study=one_variant_study())
    assert [(f.code, f.file, f.pointer, f.message) for f in findings] == [
        ("SG202", "measurements/toy/a.json", "/results/0/value_ms",
         "value_ms 6.0 ms disagrees with statistics_ms median 5.0 ms, the statistic it states (the record was edited?)")]


def test_a_variant_without_results_is_still_named_when_every_record_loads(tmp_path):
    # the same study, the record's figures agreeing, and a second variant that no record measures
    study = spec(variants=[{"name": "fp32", "precision": "fp32", "label": "fp32"},
                           {"name": "fp16", "precision": "fp16", "label": "fp16"}], recipes={})
    findings = checked(tmp_path, [record("a", [fp32_latency(5.0)])], study=study)
    assert [(f.pointer, f.message) for f in codes(findings, "SG219")] == [
        ("/variants/1", "variant fp16 is declared, but no record has a result for it and not_measured does not "
                        "name it")]


def two_evaluation_sets():
    return {**DEFAULT_DATASETS, "val-16": dataset("val-16", "evaluation", 16, ids=list(range(21, 37)))}


def test_an_evaluation_set_named_only_by_a_refused_record_is_not_said_unused(tmp_path):
    refused = record("b", [coco_ap("fp32", 0.41, dataset="val-16")], surprise=True)
    findings = checked(tmp_path, [record("a", [coco_ap("fp16", 0.40)]), refused], datasets=two_evaluation_sets())
    assert [(f.code, f.file) for f in findings if f.code in ("SG202", "SG205")] == [
        ("SG202", "measurements/toy/b.json")]


def test_an_evaluation_set_no_result_names_is_still_reported_when_every_record_loads(tmp_path):
    findings = checked(tmp_path, [record("a", [coco_ap("fp16", 0.40)])], datasets=two_evaluation_sets())
    assert [(f.file, f.message) for f in codes(findings, "SG205")] == [
        ("measurements/toy/datasets/val-16.json",
         "evaluation set val-16 (16 images) is defined but no result names it, while the quality results name "
         "val-8 (8 images): which images were evaluated is ambiguous")]


# ---- SG202's hint fits why the record was refused ---------------------------------------------------

CONTRADICTION_HINT = ("its figures contradict each other, which no measurement gives: collect it again from its "
                      "source, or correct the figure the message names")
SCHEMA_HINT = "fix the file so it validates against its schema (studygen/schemas/; see docs/study-guide.md)"


def test_a_record_whose_figures_contradict_each_other_is_not_sent_to_its_schema(tmp_path):
    disordered = latency("fp32", 5.0, statistics_ms={"min": 4.9, "median": 5.0, "p99": 4.95, "max": 5.3})
    findings = checked(tmp_path, [record("a", [fp32_latency(6.0)]), record("b", [disordered]),
                                  record("c", [fp32_latency(5.0)], surprise=True)], study=one_variant_study())
    assert [(f.file, f.message, f.hint) for f in codes(findings, "SG202")] == [
        ("measurements/toy/a.json", "value_ms 6.0 ms disagrees with statistics_ms median 5.0 ms, the statistic it "
                                    "states (the record was edited?)", CONTRADICTION_HINT),
        ("measurements/toy/b.json", "statistics_ms out of order: median 5 ms is above p99 4.95 ms, which no set of "
                                    "timings gives (the record was edited?)", CONTRADICTION_HINT),
        ("measurements/toy/c.json", "Additional properties are not allowed ('surprise' was unexpected)", SCHEMA_HINT)]


def test_a_profile_rank_its_world_size_does_not_hold_is_refused(tmp_path):
    """A hand-edited profile said rank 8 of 8 (ranks count from 0): README printed 'as rank 8 of 8'. Refused at
    the field, as a record whose figures contradict each other (an attack on the profile's distributed fields)."""
    from studygen.errors import RecordError
    from studygen.records.load import refuse_disorder

    document = {"results": [{"kind": "kernel_time", "distributed": {"rank": 8, "world_size": 8}}]}
    text = '{"results": [{"kind": "kernel_time",\n "distributed": {"rank": 8, "world_size": 8}}]}'
    with pytest.raises(RecordError) as refused:
        refuse_disorder(document, "m.json", text)
    assert refused.value.line() == ("m.json:2: distributed rank 8 is not below its world_size 8 (the record was "
                                    "edited?) (/results/0/distributed/rank)")
    document["results"][0]["distributed"]["rank"] = 7
    refuse_disorder(document, "m.json", text)  # rank 7 of 8: a rank of that job
