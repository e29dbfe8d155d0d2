"""Waivers and explanations: a matching one demotes its finding to a notice
with its reason; one that matches nothing is SG216 at its line of the study file."""

from __future__ import annotations

import pytest
import yaml

from studygen.checks.waivers import apply_waivers
from studygen.findings import ERROR, NOTICE, Finding

from .studies import latency, load, record, spec

WAIVERS = [
    {"code": "SG207", "key": "latency|fp16|800x800", "reason": "the B300 run used another clock"},
    {"code": "SG214", "match": "random-init", "reason": "a smoke test of the pipeline only"},
    {"code": "SG212", "line": 7, "reason": "one method across the table, checked by review"},
]
EXPLANATIONS = [{"code": "SG208", "match": "is slower than fp32", "text": "fp16 falls back to fp32 kernels here"}]


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
        ("SG216", ERROR, "families/toy/study.yaml", "waiver for SG212 (line 7) matches no finding"),
        ("SG216", ERROR, "families/toy/study.yaml", "explanation for SG208 (is slower than fp32) matches no finding"),
    ]
    # each at the first line of its entry in the study file
    assert [text[f.line - 1].strip() for f in findings] == ["- code: SG207", "- code: SG214", "- code: SG212", "- code: SG208"]
    # no finding of any of these codes: the finding each covered is gone
    assert [f.hint for f in findings] == [
        f"remove it: check reports no {code} finding in this family now, so the one it covered is gone"
        for code in ("SG207", "SG214", "SG212", "SG208")]
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
                                                 "waiver for SG212 (line 7) matches no finding"]


# issue 22: two anomalies of one study, and two explanations whose texts both occur in the second finding's message
# (the first names a GPU the copy finding lists among its other platforms)
COMPUTE = Finding("SG207", "fp16 latency (GPU compute time) median at 64x64: 0.81 ms on GeForce RTX 2070 (job desk) "
                           "is 1.62x the lowest platform (0.5 ms on NVIDIA A10)", "measurements/toy/desk.json",
                  line=12, key="toy|r|fp16|||gpu_compute|median||64x64|1|tensorrt|engine|GeForce RTX 2070|trt||")
COPY = Finding("SG207", "fp16 latency (input copy time) median at 64x64: 0.0084 ms on NVIDIA A10 (job lab) is 4.20x the "
                        "lowest platform; other platforms: 0.002 ms on GeForce RTX 2070 (job desk)",
               "measurements/toy/lab.json", line=30, key="toy|r|fp16|||h2d|median||64x64|1|tensorrt|engine|A10|trt||")
BY_GPU = {"code": "SG207", "match": "GeForce RTX 2070", "text": "the desktop card clocks down after a few seconds"}
BY_COPY = {"code": "SG207", "match": "input copy", "text": "the lab host's link runs at PCIe 3.0 x4"}


def _explained(tmp_path, explanations, waivers=()):
    # a study file may leave out either list: an empty one is not written
    entries = {name: list(given) for name, given in (("explanations", explanations), ("waivers", waivers)) if given}
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], study=spec(**entries))
    return apply_waivers(study, [COMPUTE, COPY])


def test_an_explanation_that_matches_a_finding_another_also_matches_is_used(tmp_path):
    findings = _explained(tmp_path, [BY_GPU, BY_COPY])
    assert [f.code for f in findings] == ["SG207", "SG207"]  # no SG216: both explanations match a finding
    assert [(f.severity, f.waived_reason) for f in findings] == [
        (NOTICE, "explained: the desktop card clocks down after a few seconds"),
        # the copy finding carries both texts that name it, each selector a piece of its message
        (NOTICE, "explained: the desktop card clocks down after a few seconds | explained: the lab host's link runs "
                 "at PCIe 3.0 x4")]


def test_the_order_of_the_entries_changes_nothing(tmp_path):
    given = _explained(tmp_path / "a", [BY_GPU, BY_COPY])
    swapped = _explained(tmp_path / "b", [BY_COPY, BY_GPU])
    assert [(f.code, f.message, f.waived_reason) for f in swapped] == [(f.code, f.message, f.waived_reason) for f in given]


def test_a_finding_named_by_its_key_shows_that_reason_first(tmp_path):
    # a waiver by key names one figure; the explanation by text (which sorts first alphabetically) comes after it
    by_key = {"code": "SG207", "key": COPY.key, "reason": "the two hosts differ; noted in the method section"}
    findings = _explained(tmp_path, [BY_COPY], waivers=[by_key])
    assert findings[0].severity == ERROR  # the compute finding is named by neither
    assert findings[1].waived_reason == ("the two hosts differ; noted in the method section | "
                                         "explained: the lab host's link runs at PCIe 3.0 x4")
    assert len(findings) == 2


def test_the_hint_of_an_entry_that_misses_findings_of_its_code_names_what_they_lack(tmp_path):
    by_key = {"code": "SG207", "key": "toy|r|fp32|||gpu_compute|median||64x64|1|tensorrt|engine|A10|trt||",
              "text": "an fp32 run that is no longer in the study"}
    by_text = {"code": "SG207", "match": "output copy", "text": "a copy finding of an earlier collect"}
    both = {"code": "SG207", "key": COPY.key, "match": "output copy", "text": "a key that fits with a text that does not"}
    findings = _explained(tmp_path, [by_key, by_text, both])
    assert [(f.code, f.severity) for f in findings] == [("SG207", ERROR), ("SG207", ERROR)] + [("SG216", ERROR)] * 3
    json_hint = "(studygen check --format json gives each finding's key, line and message), or remove it"
    assert [f.hint for f in findings[2:]] == [
        f"no SG207 finding (of 2 now) has the key {by_key['key']}: make it name the finding it covers {json_hint}",
        f'no SG207 finding (of 2 now) says "output copy" in its message: make it name the finding it covers {json_hint}',
        f'no SG207 finding (of 2 now) has the key {COPY.key} and says "output copy" in its message: make it name the '
        f"finding it covers {json_hint}"]


def test_the_hint_of_a_waiver_by_line_names_the_line(tmp_path):
    by_line = {"code": "SG207", "line": 31, "reason": "the copy figure of a trimmed log"}
    (*_, unmatched) = _explained(tmp_path, [], waivers=[by_line])
    assert unmatched.message == "waiver for SG207 (line 31) matches no finding"
    assert unmatched.hint.startswith("no SG207 finding (of 2 now) is at README line 31: make it name")


def test_one_reason_given_by_two_entries_prints_once(tmp_path):
    reason = "both logs come from one shared lab machine"
    findings = _explained(tmp_path, [], waivers=[{"code": "SG207", "match": "GeForce RTX 2070", "reason": reason},
                                                 {"code": "SG207", "match": "(job desk)", "reason": reason}])
    assert [f.waived_reason for f in findings] == [reason, reason]


# Attack round: {code: SG202, match: ""} waived an invalid record ("" is in every message, and the other checks had
# stopped: exit 0); the same on SG201 passed a README edited by hand; an explanation needed no selector at all.
INVALID = Finding("SG202", "Additional properties are not allowed ('surprise' was unexpected) (/surprise)",
                  "measurements/toy/job.json", line=3)
STALE = Finding("SG201", "README is stale: it differs from what the records render to", "families/toy/README.md",
                line=22)


def _refusals(tmp_path, waivers=(), explanations=()):
    entries = {name: list(given) for name, given in (("explanations", explanations), ("waivers", waivers)) if given}
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], study=spec(**entries))
    text = (tmp_path / "families/toy/study.yaml").read_text().splitlines()
    findings = apply_waivers(study, [INVALID, STALE, COPY])
    return findings, [text[f.line - 1].strip() if f.code == "SG216" else None for f in findings]


def test_a_code_that_says_the_readme_or_records_cannot_be_trusted_is_never_waived(tmp_path):
    waivers = [{"code": code, "match": words, "reason": "records and README are reviewed elsewhere"}
               for code, words in (("SG202", "Additional properties"), ("SG201", "README is stale"),
                                   ("SG211", "prints a number"), ("SG216", "matches no finding"))]
    findings, lines = _refusals(tmp_path, waivers=waivers,
                                explanations=[{"code": "SG202", "key": "k", "text": "a record kept as it came"}])
    # the findings stay errors, and each entry is an SG216 error of its own, at its line, naming the code
    assert [(f.code, f.severity, f.waived_reason) for f in findings[:3]] == [
        ("SG202", ERROR, None), ("SG201", ERROR, None), ("SG207", ERROR, None)]
    assert [(f.code, f.severity, f.message) for f in findings[3:]] == [
        ("SG216", ERROR, "waiver for SG202 refused: SG202 (invalid record) is never waived or explained, since it "
                         "says the README or the records cannot be trusted"),
        ("SG216", ERROR, "waiver for SG201 refused: SG201 (stale README or figure) is never waived or explained, "
                         "since it says the README or the records cannot be trusted"),
        ("SG216", ERROR, "waiver for SG211 refused: SG211 (literal figure in template) is never waived or explained, "
                         "since it says the README or the records cannot be trusted"),
        ("SG216", ERROR, "waiver for SG216 refused: SG216 (waiver matches no finding or is refused) is never waived "
                         "or explained, since it says the README or the records cannot be trusted"),
        ("SG216", ERROR, "explanation for SG202 refused: SG202 (invalid record) is never waived or explained, since "
                         "it says the README or the records cannot be trusted")]
    assert lines[3:] == ["- code: SG202", "- code: SG201", "- code: SG211", "- code: SG216", "- code: SG202"]
    assert [f.hint for f in findings[3:5]] == ["remove the waiver and fix what the SG202 finding names",
                                               "remove the waiver and fix what the SG201 finding names"]


@pytest.mark.parametrize("match", ["", " ", "       ", "GeForce", "  (job)  ", "\tRTX 207 \n"])
def test_a_match_of_fewer_than_eight_characters_besides_spaces_is_refused_and_waives_nothing(tmp_path, match):
    # each of these is in the copy finding's message ("GeForce", "(job)", "" in every one): all would waive it
    findings, lines = _refusals(tmp_path, waivers=[{"code": "SG207", "match": match, "reason": "a shared lab machine"}])
    assert [(f.code, f.severity) for f in findings] == [("SG202", ERROR), ("SG201", ERROR), ("SG207", ERROR),
                                                        ("SG216", ERROR)]
    assert findings[3].message == (f'waiver for SG207 refused: match "{match}" has fewer than 8 characters besides '
                                   "spaces, so it names no one finding")
    assert findings[3].hint.startswith("name the finding by its key or README line, or quote more of its message")
    assert lines[3] == "- code: SG207"


@pytest.mark.parametrize("match", ["GeForce R", "(job lab", " 4.20x th"])
def test_a_match_of_eight_characters_besides_spaces_waives_what_it_names(tmp_path, match):
    findings, _ = _refusals(tmp_path, waivers=[{"code": "SG207", "match": match, "reason": "a shared lab machine"}])
    assert [(f.code, f.severity) for f in findings] == [("SG202", ERROR), ("SG201", ERROR), ("SG207", NOTICE)]


def test_an_explanation_without_key_or_match_is_refused_and_explains_nothing(tmp_path):
    findings, lines = _refusals(tmp_path, explanations=[{"code": "SG207", "text": "the lab host runs PCIe 3.0"}])
    assert [(f.code, f.severity) for f in findings] == [("SG202", ERROR), ("SG201", ERROR), ("SG207", ERROR),
                                                        ("SG216", ERROR)]
    assert findings[3].message == "explanation for SG207 refused: it names no finding (no key, line or match)"
    assert lines[3] == "- code: SG207"


def test_a_refused_entry_is_reported_even_when_a_record_did_not_load(tmp_path):
    # an unmatched entry proves nothing while a record is invalid; a refused one needs no other check to have run
    entries = {"waivers": [{"code": "SG202", "match": "", "reason": "records are reviewed elsewhere"},
                           {"code": "SG207", "match": "not in any message", "reason": "a shared lab machine"}]}
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], study=spec(**entries))
    study.problems.append(object())
    findings = apply_waivers(study, [INVALID])
    assert [(f.code, f.severity) for f in findings] == [("SG202", ERROR), ("SG216", ERROR)]
    assert findings[1].message.startswith("waiver for SG202 refused")


def test_an_unmatched_waiver_of_a_draft_is_a_warning(tmp_path):
    """A study still a draft (status: draft, as studygen new writes it) keeps a waiver its records turned out not
    to need (new's 'has no revision' waiver, records of random weights): SG216 says to remove it, as a warning
    until the study is ready; a refused entry stays an error whatever the status."""
    from studygen.findings import WARNING

    refused = {"code": "SG202", "match": "an invalid record", "reason": "never waivable"}
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])],
                 study=spec(status="draft", waivers=[WAIVERS[1], refused]))
    assert [(f.code, f.severity, f.message.split(":")[0]) for f in apply_waivers(study, [])] == [
        ("SG216", ERROR, "waiver for SG202 refused"),
        ("SG216", WARNING, "waiver for SG214 (random-init) matches no finding")]
