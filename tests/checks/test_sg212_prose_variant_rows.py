"""SG212 of a comparison in the study file's prose that prints no figure: "fp16
is faster than fp32 on the GTX 1070" passed check in a new user's trial,
though every fp16 row of that study came from other TensorRT builds, at other
model commits, than every fp32 row. The study here is made up: one RTX A4000,
fp16 built with TensorRT 10.0.1 and 8.6.1 at one model commit, fp32 and fp8
with 8.5.2 at another, and one fp16 run at batch 8 from fp32's build."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, run_checks, sg212_incomparable
from studygen.findings import ERROR, NOTICE

from .studies import FAMILY, coco_ap, collected_provenance, latency, load, record, spec

GPU = "NVIDIA RTX A4000"
OLD_COMMIT, NEW_COMMIT = "5d0e9a2", "b71c4f8"


def _provenance(tensorrt: str, commit: str) -> dict:
    provenance = collected_provenance(GPU, tensorrt=tensorrt)
    provenance["checkpoint"] = dict(provenance["checkpoint"], revision=commit)
    return provenance


RECORDS = [
    record("a4000-trt10-fp16", [latency("fp16", 0.3861, shape="640x640"), coco_ap("fp16", 0.412)],
           _provenance("10.0.1", NEW_COMMIT)),
    record("a4000-trt86-fp16", [latency("fp16", 0.3904, shape="640x640")], _provenance("8.6.1", NEW_COMMIT)),
    record("a4000-trt85", [latency("fp32", 0.7275, shape="640x640"), latency("fp8", 0.8019, shape="640x640"),
                           latency("fp32", 4.118, shape="640x640", batch=8),
                           latency("fp16", 2.263, shape="640x640", batch=8), coco_ap("fp32", 0.419)],
           _provenance("8.5.2", OLD_COMMIT)),
]
MODEL = {"id": "example/toy-detector", "revision": NEW_COMMIT, "revisions": [OLD_COMMIT]}
OPENING = "The A4000 is the card the kiosks carry."


def _findings(tmp_path, *sentences):
    summary = " ".join((OPENING, *sentences))
    study = load(tmp_path, records=RECORDS, study=spec(decision={"shipped": False, "summary": summary}, model=MODEL))
    return [f for f in sg212_incomparable.check(CheckContext(study)) if f.file.endswith("study.yaml")]


def _study_line(tmp_path, words: str) -> int:
    lines = (tmp_path / "families" / FAMILY / "study.yaml").read_text().splitlines()
    (line,) = [number for number, text in enumerate(lines, 1) if words in text]
    return line


def test_a_worded_comparison_of_variants_from_other_builds_is_reported_at_its_sentence(tmp_path):
    # at batch 1 fp16 comes from 10.0.1 and 8.6.1 at one commit, fp32 from 8.5.2 at the other: no fp16 row shares
    # a version or the commit with an fp32 row; the GPU and shape named are every row's and narrow nothing
    (finding,) = _findings(tmp_path, "Nothing else changed in the kiosk image.",
                           "On the RTX A4000 at 640x640 fp16 is faster than fp32 at batch 1.")
    assert (finding.code, finding.severity, finding.pointer) == ("SG212", ERROR, "/decision/summary")
    assert finding.line == _study_line(tmp_path, "On the RTX A4000")
    assert finding.message == (
        "'faster' in /decision/summary compares variants that differ in more than the variant (model revision "
        f"{NEW_COMMIT} against {OLD_COMMIT}; tensorrt 10.0.1, 8.6.1 against 8.5.2): fp16 (jobs a4000-trt10-fp16, "
        "a4000-trt86-fp16); fp32 (job a4000-trt85)")
    assert finding.key == "/decision/summary fp16 against fp32"
    assert finding.hint.endswith("compare variants of one software version and model revision, or name the versions "
                                 "in the sentence, or explain the comparison (explanations: SG212); then run studygen "
                                 "render")


@pytest.mark.parametrize(("sentence", "words"), [
    ("fp16 is 1.9x faster than fp32 at batch 1.", "1.9x faster"),
    ("At batch 1 fp32 is slower than fp16.", "slower"),
    ("At batch 1 fp16 cuts the latency by 46% against fp32.", "cuts the latency by 46%"),
    ("At batch 1 fp16 has lower latency than FP32.", "lower"),
])
def test_a_ratio_a_percent_change_and_a_comparative_of_latency_are_read_alike(tmp_path, sentence, words):
    (finding,) = _findings(tmp_path, sentence)
    assert finding.message.startswith(f"'{words}' in /decision/summary compares variants that differ in more than the "
                                      "variant (model revision ")


def test_the_rows_are_those_the_sentence_names(tmp_path):
    # at batch 8 fp16 and fp32 come from one build (8.5.2, one commit): a comparison of the variant alone;
    # at every batch, fp16's batch-8 row shares fp32's build too
    assert _findings(tmp_path / "a", "At batch 8 fp16 is faster than fp32.") == []
    assert _findings(tmp_path / "b", "fp16 is faster than fp32.") == []
    # a batch or shape no row states narrows nothing: every row counts, or only those of batch 1
    assert _findings(tmp_path / "c", "At batch 16 fp16 is faster than fp32.") == []
    (finding,) = _findings(tmp_path / "e", "At batch 1 and 1x3x640x640, fp16 is faster than fp32.")
    assert finding.key == "/decision/summary fp16 against fp32"
    (finding,) = _findings(tmp_path / "d", "At batch 1, fp16 is faster than fp32.")
    assert finding.message.endswith("fp16 (jobs a4000-trt10-fp16, a4000-trt86-fp16); fp32 (job a4000-trt85)")


def test_a_batch_of_thousands_of_digits_is_no_batch(tmp_path):
    # int() refuses past 4,300 digits: such a "batch" stopped check with an internal error; it narrows nothing,
    # so every row counts (as for "fp16 is faster than fp32.": fp16's batch-8 row shares fp32's build)
    assert _findings(tmp_path, f"At batch {'9' * 5000} fp16 is faster than fp32.") == []
    assert _findings(tmp_path / "b", "At batch 12345678 fp16 is faster than fp32.") == []  # past any batch a row holds


def test_variants_of_one_build_are_no_finding(tmp_path):
    # fp8 and fp32: both from 8.5.2 at one commit
    assert _findings(tmp_path, "fp8 is slower than fp32 on the A4000 at batch 1.") == []


@pytest.mark.parametrize("sentence", [
    "At batch 1 fp16 on TensorRT 10.0.1 is faster than fp32 on 8.5.2.",
    f"At batch 1 fp16 at commit {NEW_COMMIT.upper()} is faster than fp32.",
    "At batch 1 fp16 is faster than fp32 on TensorRT 8.5.2.",  # the version ends the sentence
])
def test_a_sentence_that_names_a_version_or_a_commit_passes(tmp_path, sentence):
    assert _findings(tmp_path, sentence) == []


@pytest.mark.parametrize("sentence", [
    "At batch 1 fp16 has a lower AP than fp32.",  # AP: no timing
    "At batch 1 fp16 uses less memory than fp32.",
    "At batch 1 fp16 plans are smaller than fp32 plans.",
    "At batch 1 fp16 plans build faster than fp32 plans.",  # a plan's build: no latency
    "At batch 1 fp16 is faster than before.",  # one variant
    "At batch 1 fp16 and fp8 are faster than fp32.",  # three: which pair is meant is not read
    "At batch 1 we cannot tell whether fp16 is faster than fp32.",  # the data do not decide
])
def test_what_compares_no_timing_of_two_variants_is_not_read(tmp_path, sentence):
    assert _findings(tmp_path, sentence) == []


def test_a_sentence_that_prints_its_figures_gets_the_figures_finding_alone(tmp_path):
    (finding,) = _findings(tmp_path, "At batch 1 fp16 is faster than fp32 (0.3861 ms against 0.7275 ms).")
    assert finding.key == "/decision/summary 0.3861 ms against 0.7275 ms"


def test_an_explanation_makes_it_a_notice(tmp_path):
    text = "The fp32 engine could only be built on the kiosk's older image; the summary says so elsewhere."
    summary = f"{OPENING} At batch 1 fp16 is faster than fp32."
    study = load(tmp_path, records=RECORDS, study=spec(
        decision={"shipped": False, "summary": summary}, model=MODEL,
        explanations=[{"code": "SG212", "key": "/decision/summary fp16 against fp32", "text": text}]))
    (finding,) = [f for f in run_checks(study) if f.code == "SG212"]
    assert finding.severity == NOTICE and finding.waived_reason == "explained: " + text


@pytest.mark.parametrize("sentence", [
    "We expected fp16 to be faster than fp32 at batch 1.",  # an expectation
    "We will check whether fp16 is faster than fp32 at batch 1 next quarter.",  # a plan
    "If fp16 were faster than fp32 at batch 1, we would ship it.",  # a supposition
    "fp16 could be faster than fp32 at batch 1.",
    "The vendor claims fp16 is 2x faster than fp32 at batch 1.",  # another source's result
    "Earlier work found fp16 faster than fp32 at batch 1.",
    "At batch 1 fp16 is faster than fp32 (Lee et al., 2022).",
    "It remains to be seen whether fp16 is faster than fp32 at batch 1.",  # a question left open
    "At batch 1 fp16 may or may not be faster than fp32.",
])
def test_a_comparison_the_study_does_not_state_as_its_result_is_not_read(tmp_path, sentence):
    # an attack's sentences (session 23): each was an SG212 error against the rows' builds
    assert _findings(tmp_path, sentence) == []


@pytest.mark.parametrize("sentence", [
    "As expected, fp16 is faster than fp32 at batch 1.",  # the expectation met: a result
    "At batch 1 we found fp16 faster than fp32.",  # the study's own finding
    "In May, fp16 was faster than fp32 at batch 1.",  # a month, no supposition
])
def test_a_result_beside_words_of_expectation_or_finding_is_still_read(tmp_path, sentence):
    (finding,) = _findings(tmp_path, sentence)
    assert finding.key == "/decision/summary fp16 against fp32"


def test_a_named_gpu_narrows_the_rows_to_its_own(tmp_path):
    # a second card whose fp16 and fp32 come from one build at one commit: named alone, its rows are a comparison
    # of the variant only; the A4000 named, only its rows count (no fp16 row of it shares fp32's build); no GPU or
    # one no row holds narrows nothing, and the L4's rows share a build
    l4 = _provenance("8.5.2", OLD_COMMIT) | {"gpu": "NVIDIA L4"}
    records = [*RECORDS, record("l4-trt85", [latency("fp16", 0.9113, shape="640x640"),
                                              latency("fp32", 1.7402, shape="640x640")], l4)]

    def findings(folder, sentence):
        study = load(tmp_path / folder, records=records,
                     study=spec(decision={"shipped": False, "summary": f"{OPENING} {sentence}"}, model=MODEL))
        return [f for f in sg212_incomparable.check(CheckContext(study)) if f.file.endswith("study.yaml")]

    (finding,) = findings("a", "On the RTX A4000 at batch 1, fp16 is faster than fp32.")
    assert finding.message.endswith("fp16 (jobs a4000-trt10-fp16, a4000-trt86-fp16); fp32 (job a4000-trt85)")
    assert findings("b", "On the L4 at batch 1, fp16 is faster than fp32.") == []
    assert findings("c", "At batch 1, fp16 is faster than fp32.") == []
    assert findings("d", "On the A100 at batch 1, fp16 is faster than fp32.") == []
