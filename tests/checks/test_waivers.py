"""Waivers and explanations: a matching one demotes its finding to a notice
with its reason; one that matches nothing is SG216 at its line of the study file."""

from __future__ import annotations

import yaml

from studygen.checks.waivers import apply_waivers
from studygen.findings import ERROR, NOTICE, Finding

from .studies import latency, load, record, spec

WAIVERS = [
    {"code": "SG207", "key": "latency|fp16|800x800", "reason": "the B300 run used another clock"},
    {"code": "SG214", "match": "random-init", "reason": "a smoke test of the pipeline only"},
    {"code": "SG211", "line": 7, "reason": "a hand count, checked by review"},
]
EXPLANATIONS = [{"code": "SG208", "match": "fp16", "text": "fp16 falls back to fp32 kernels here"}]


def _study(tmp_path):
    return load(tmp_path, records=[record("job", [latency("fp16", 5.889)])],
                study=spec(waivers=WAIVERS, explanations=EXPLANATIONS))


def test_unmatched_waivers_and_explanations_are_sg216_at_their_lines(tmp_path):
    study = _study(tmp_path)
    findings = apply_waivers(study, [])
    text = (tmp_path / "families/toy/study.yaml").read_text().splitlines()
    assert [(f.code, f.severity, f.file, f.message) for f in findings] == [
        ("SG216", ERROR, "families/toy/study.yaml", "waiver for SG207 (latency|fp16|800x800) matches no finding"),
        ("SG216", ERROR, "families/toy/study.yaml", "waiver for SG214 (random-init) matches no finding"),
        ("SG216", ERROR, "families/toy/study.yaml", "waiver for SG211 (line 7) matches no finding"),
        ("SG216", ERROR, "families/toy/study.yaml", "explanation for SG208 (fp16) matches no finding"),
    ]
    # each at the first line of its entry in the study file
    assert [text[f.line - 1].strip() for f in findings] == ["- code: SG207", "- code: SG214", "- code: SG211", "- code: SG208"]
    assert {f.hint for f in findings} == {"remove it: the finding it covered is gone, or its key changed"}
    assert yaml.safe_load("\n".join(text))["waivers"] == WAIVERS


def test_a_matching_waiver_demotes_its_finding_and_is_used(tmp_path):
    study = _study(tmp_path)
    random_init = Finding("SG214", "coco_ap AP 0.0012 of fp16 in job job comes from random-init weights", "x.json")
    inversion = Finding("SG208", "fp16 (14.7 ms) is slower than fp32", "y.json")
    findings = apply_waivers(study, [random_init, inversion])
    assert [(f.code, f.severity, f.waived_reason) for f in findings[:2]] == [
        ("SG214", NOTICE, "a smoke test of the pipeline only"),
        ("SG208", NOTICE, "explained: fp16 falls back to fp32 kernels here")]
    assert [f.message for f in findings[2:]] == ["waiver for SG207 (latency|fp16|800x800) matches no finding",
                                                 "waiver for SG211 (line 7) matches no finding"]
