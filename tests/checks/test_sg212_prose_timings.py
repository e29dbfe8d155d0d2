"""SG212 in the study file's prose: a ratio or comparison written by hand whose
two figures are latencies timed differently. A new user's decision summary set
a run timed with CUDA graphs and without data transfers against one timed the
other way ("6.1x faster ... (0.2754 ms ... against 1.398 ms ...)"), and check
said nothing. The studies here are made up: three trtexec jobs on one GPU,
each timed its own way; every test holds one sentence that crosses methods,
so each failed before prose was read (no finding at all)."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, run_checks, sg212_incomparable
from studygen.checks.prose_timings import names_the_method
from studygen.findings import ERROR, NOTICE

from .studies import FAMILY, MINIMAL_TEMPLATE, collected_provenance, latency, load, record, spec

GRAPHS_OFF = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}
GRAPHS_ON = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True}
TRANSFERS_ON = {"timer": "trtexec", "cuda_graph": True, "data_transfers": True, "spin_wait": True}
TRT10 = collected_provenance("NVIDIA L4", tensorrt="10.3.0")
RECORDS = [
    record("bench-a", [latency("fp32", 2.417, method=GRAPHS_OFF), latency("fp16", 1.733, method=GRAPHS_OFF),
                       latency("fp8", 1.205, method=GRAPHS_OFF)], TRT10),
    record("bench-b", [latency("fp16", 0.8613, method=GRAPHS_ON)], TRT10),
    record("bench-c", [latency("fp8", 1.205, method=TRANSFERS_ON)], TRT10),  # the same figure as bench-a's fp8
]
OPENING = "The L4 runs every variant below its budget."
CROSSED = "On the tuned setup fp16 is 2.81x faster than fp32 (0.8613 ms against 2.417 ms)."
WHAT_A_SAYS = "TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, spin-wait off"
WHAT_B_SAYS = "TensorRT engine, GPU compute time, CUDA graphs on, data transfers off, spin-wait on"


def _study(tmp_path, *sentences, **fields):
    summary = " ".join((OPENING, *sentences))
    return load(tmp_path, records=RECORDS, study=spec(decision={"shipped": False, "summary": summary}, **fields))


def _findings(study):
    return [f for f in sg212_incomparable.check(CheckContext(study)) if f.file.endswith("study.yaml")]


def _study_line(tmp_path, words: str) -> int:
    lines = (tmp_path / "families" / FAMILY / "study.yaml").read_text().splitlines()
    (line,) = [number for number, text in enumerate(lines, 1) if words in text]
    return line


def test_a_ratio_across_timing_methods_is_reported_at_its_sentence(tmp_path):
    study = _study(tmp_path, "Nothing else was tried on it, and the budget of the next release is the same.", CROSSED)
    (finding,) = _findings(study)
    assert (finding.code, finding.severity, finding.pointer) == ("SG212", ERROR, "/decision/summary")
    assert finding.file == f"families/{FAMILY}/study.yaml"
    # yaml folds the summary over several lines: the finding names the one where the sentence starts
    assert finding.line == _study_line(tmp_path, "On the tuned setup") != _study_line(tmp_path, "summary:")
    assert finding.message == (f"'2.81x' in /decision/summary compares latencies measured differently: 0.8613 ms "
                               f"(fp16, job bench-b): {WHAT_B_SAYS}; 2.417 ms (fp32, job bench-a): {WHAT_A_SAYS}")
    assert finding.key == "/decision/summary 0.8613 ms against 2.417 ms"
    assert finding.hint == ("edit /decision/summary in this file, which the README prints as written "
                            f"(families/{FAMILY}/README.md line 5): compare figures timed the same way, or say in the "
                            "sentence how each side was timed, or explain the comparison (explanations: SG212); then run "
                            "studygen render")


def test_a_comparison_without_a_ratio_and_a_change_are_read_too(tmp_path):
    study = _study(tmp_path, "fp16 (0.8613 ms) is faster than fp32 (2.417 ms).",
                   "The time drops from 2.417 ms to 0.8613 ms.")
    assert [f.message.split(" in ")[0] for f in _findings(study)] == ["'faster than'", "'drops from'"]


@pytest.mark.parametrize("named", [
    "With CUDA graphs fp16 is 2.81x faster than fp32 (0.8613 ms against 2.417 ms).",
    "fp16 is 2.81x faster than fp32 (0.8613 ms with no data transfers against 2.417 ms).",
    "Timed with --useCudaGraph, fp16 is 2.81x faster than fp32 (0.8613 ms against 2.417 ms).",
    "The two were timed differently: fp16 is 2.81x faster than fp32 (0.8613 ms against 2.417 ms).",
])
def test_a_sentence_that_names_the_difference_in_method_is_deliberate(tmp_path, named):
    study = _study(tmp_path, named, CROSSED)
    (finding,) = _findings(study)  # the crossed sentence alone
    assert finding.line == _study_line(tmp_path, "On the tuned setup")


def test_a_ratio_within_one_method_is_no_finding(tmp_path):
    # bench-a timed fp16 and fp32 the same way: 2.417 / 1.733 = 1.39
    study = _study(tmp_path, "Within one setup fp16 is 1.39x faster than fp32 (1.733 ms against 2.417 ms).", CROSSED)
    assert [f.key for f in _findings(study)] == ["/decision/summary 0.8613 ms against 2.417 ms"]


def test_a_figure_rows_timed_differently_give_alike_is_not_judged(tmp_path):
    # 1.205 ms is bench-a's fp8 (CUDA graphs off) and bench-c's (data transfers on): either reading crosses
    # methods against bench-b, but which one the sentence quotes cannot be told
    study = _study(tmp_path, "fp8 is 1.40x slower than fp16 (1.205 ms against 0.8613 ms).", CROSSED)
    assert [f.key for f in _findings(study)] == ["/decision/summary 0.8613 ms against 2.417 ms"]


def test_a_difference_in_batch_alone_is_no_finding(tmp_path):
    records = [record("bench-a", [latency("fp16", 1.733, method=GRAPHS_OFF),
                                  latency("fp16", 5.112, method=GRAPHS_OFF, batch=4)], TRT10),
               *RECORDS[1:2]]
    summary = f"{OPENING} At batch 4 fp16 takes 2.95x as long (5.112 ms against 1.733 ms). {CROSSED}"
    study = load(tmp_path, records=records, study=spec(decision={"shipped": False, "summary": summary}))
    assert _findings(study) == []  # the same method; 2.417 ms is no row's here
    summary = f"{OPENING} fp16 at batch 4 (5.112 ms) is 5.9x slower than on the tuned setup (0.8613 ms)."
    study = load(tmp_path / "b", records=records, study=spec(decision={"shipped": False, "summary": summary}))
    (finding,) = _findings(study)  # batch and method differ: the method is the finding
    assert finding.key == "/decision/summary 5.112 ms against 0.8613 ms"


def test_an_explanation_makes_it_a_notice(tmp_path):
    text = "The tuned setup's CUDA graphs are part of what the summary compares, on purpose."
    study = _study(tmp_path, CROSSED, explanations=[
        {"code": "SG212", "key": "/decision/summary 0.8613 ms against 2.417 ms", "text": text}])
    (finding,) = [f for f in run_checks(study) if f.code == "SG212"]
    assert finding.severity == NOTICE and finding.waived_reason == "explained: " + text
    assert not [f for f in run_checks(study) if f.code == "SG216"]  # the explanation is used


def test_names_the_method_reads_only_the_parts_that_differ():
    graphs = 3  # the CUDA-graph field of a timing signature
    assert names_the_method("fp16 with CUDA graphs is 2x faster", [graphs])
    assert not names_the_method("fp16 with CUDA graphs is 2x faster", [graphs + 1])  # transfers differ, not graphs
    assert names_the_method("eager (3.1 ms) is slower than compiled", [1])
    assert names_the_method("timed differently, 3.1 ms against 2.2 ms", [])


@pytest.mark.parametrize("sentence", [
    # the pair after the clause: a study file's prose has no table to say whose each figure is, and SG212 needs
    # no owner, only how each figure was timed
    "At batch 4, fp16 is faster than fp32 (0.8613 ms against 2.417 ms).",
    "At batch 4, fp16 is faster than fp32 (2.417 ms against 0.8613 ms).",
    "fp16 is faster than fp32 with 0.8613 ms against 2.417 ms.",
])
def test_a_pair_after_the_clause_is_read_whatever_its_order(tmp_path, sentence):
    (finding,) = _findings(_study(tmp_path, sentence))
    assert finding.message.startswith("'faster than' in /decision/summary compares latencies measured differently: ")
    first, second = sentence.split("(")[-1].split(" with ")[-1].rstrip(".)").split(" against ")
    assert finding.key == f"/decision/summary {first} against {second}"


def test_a_pair_after_the_clause_timed_alike_is_no_finding(tmp_path):
    assert _findings(_study(tmp_path, "At batch 4, fp16 is faster than fp32 (1.733 ms against 2.417 ms).")) == []


def test_each_claim_field_is_read_once_past_a_title_and_a_paragraph_without_digits(tmp_path):
    # the template prints the summary twice and a not-measured expectation (no claim: what was not measured is
    # expected to do) that crosses methods too; the title and the summary's first paragraph hold no digit
    template = MINIMAL_TEMPLATE + "\n{{ study.decision.summary }}\n\n{{ study.expectation('INT8') }}\n"
    summary = f"The tuned setup is the faster one.\n\n{CROSSED}"
    expected = {"config": "INT8", "reason": "no calibration set yet", "because": "its engine would run on graphs",
                "expectation": "int8 would be 2.81x faster than fp32 (0.8613 ms against 2.417 ms)"}
    study = load(tmp_path, records=RECORDS, template=template,
                 study=spec(title="Toy detector study", decision={"shipped": False, "summary": summary},
                            not_measured=[expected]))
    assert [(f.pointer, f.key, f.line) for f in _findings(study)] == [
        ("/decision/summary", "/decision/summary 0.8613 ms against 2.417 ms", _study_line(tmp_path, "On the tuned"))]


def test_every_pair_of_figures_in_a_sentence_is_reported_once(tmp_path):
    # two pairs in one sentence: two findings; one pair read both as a ratio and as a comparative: one finding
    study = _study(tmp_path, "fp16 is 2.81x faster than fp32 (0.8613 ms against 2.417 ms) and drops from 1.733 ms to "
                   "0.8613 ms.", "Tuned, the time drops from 2.417 ms to 0.8613 ms, 2.81x less.")
    assert [(f.message.split(" in ")[0], f.key, f.line) for f in _findings(study)] == [
        ("'2.81x'", "/decision/summary 0.8613 ms against 2.417 ms", _study_line(tmp_path, "fp16 is 2.81x")),
        ("'drops from'", "/decision/summary 1.733 ms against 0.8613 ms", _study_line(tmp_path, "fp16 is 2.81x")),
        ("'2.81x'", "/decision/summary 2.417 ms against 0.8613 ms", _study_line(tmp_path, "Tuned,"))]


@pytest.mark.parametrize(("sentence", "key"), [
    ("fp16 is 2.81x faster than fp32 (0.861 ms against 2.42 ms).", "0.861 ms against 2.42 ms"),  # 3 digits each
    ("fp16 is 2.81x faster than fp32 (861.3 µs against 2417 µs).", "861.3 us against 2417 us"),
    ("The time drops from 2.417 to 0.8613 ms.", "2.417 ms against 0.8613 ms"),  # one unit for both
    ("Throughput rises from 412.5 img/s to 980.3 img/s.", None),  # no time
    ("The score rises from 412.5 to 980.3 points.", None),
    ("fp16 is 3x faster than fp32 (0.86 ms against 2.4 ms).", None),  # two digits: a target, not a quotation
])
def test_a_time_resolves_in_ms_or_us_at_three_or_more_digits(tmp_path, sentence, key):
    assert [f.key for f in _findings(_study(tmp_path, sentence))] == ([f"/decision/summary {key}"] if key else [])


def test_a_side_names_each_variant_and_job_and_what_was_timed(tmp_path):
    # bench-b's run without data transfers prints 0.8613 ms as its GPU compute time and as its host latency;
    # 1.733 ms is bench-a's fp16 and bench-d's fp8, timed alike; 0.6402 ms is bench-d's and bench-e's fp8 timed
    # with and without CUDA graphs, everything else alike, so it is no one way's figure
    graphs_only = {**GRAPHS_OFF, "cuda_graph": True}
    records = [record("bench-a", [latency("fp32", 2.417, method=GRAPHS_OFF), latency("fp16", 1.733, method=GRAPHS_OFF)],
                      TRT10),
               record("bench-b", [latency("fp16", 0.8613, method=GRAPHS_ON),
                                  latency("fp16", 0.8613, method=GRAPHS_ON, timing="host_latency")], TRT10),
               record("bench-d", [latency("fp8", 1.733, method=GRAPHS_OFF), latency("fp8", 0.6402, method=graphs_only)],
                      TRT10),
               record("bench-e", [latency("fp8", 0.6402, method=GRAPHS_OFF)], TRT10)]
    summary = (f"{OPENING} fp16 is 2.01x faster than fp32 (0.8613 ms against 1.733 ms). "
               "fp8 is 1.35x faster than fp16 (0.6402 ms against 0.8613 ms).")
    study = load(tmp_path, records=records, study=spec(decision={"shipped": False, "summary": summary}))
    (finding,) = _findings(study)
    assert finding.message == (
        "'2.01x' in /decision/summary compares latencies measured differently: 0.8613 ms (fp16, job bench-b): "
        "TensorRT engine, GPU compute time and host latency, CUDA graphs on, data transfers off, spin-wait on; "
        f"1.733 ms (fp16, fp8, jobs bench-a, bench-d): {WHAT_A_SAYS}")


# ---- two times set side by side, and variants from other builds (trial s21) ---------------------------------

def test_two_times_set_against_each_other_are_a_comparison_too(tmp_path):
    # "takes X ms against Y ms for fp32": no comparative, the verdict elsewhere in the sentence
    for said in ("On the tuned setup fp16 takes 0.8613 ms against 2.417 ms for fp32, so it is the one to ship.",
                 "fp16 and fp32: 0.8613 ms vs. 2.417 ms.", "fp16 needs 0.8613 ms, compared with 2.417 ms for fp32."):
        findings = _findings(_study(tmp_path / str(len(said)), said))
        assert [f.key for f in findings] == ["/decision/summary 0.8613 ms against 2.417 ms"], said


TRT84 = collected_provenance("NVIDIA GeForce GTX 1070", tensorrt="8.4.1")
TRT82 = collected_provenance("NVIDIA GeForce GTX 1070", tensorrt="8.2.3")
BUILDS = [record("gtx-841", [latency("fp16", 0.1547, method=GRAPHS_OFF)], TRT84),
          record("gtx-823", [latency("fp32", 0.1536, method=GRAPHS_OFF)], TRT82)]


def _builds_study(tmp_path, summary):
    return load(tmp_path, records=BUILDS, study=spec(decision={"shipped": False, "summary": summary}))


def test_variants_timed_alike_on_two_tensorrt_versions_are_not_compared_as_variants(tmp_path):
    # fp16 from TensorRT 8.4.1, fp32 from 8.2.3, each timed one way: the difference is the variant's and the version's
    (finding,) = _findings(_builds_study(tmp_path, "fp16 takes 0.1547 ms against 0.1536 ms for fp32, so fp16 is no "
                                                   "faster on that GPU."))
    assert finding.message == (
        "'against' in /decision/summary compares variants that differ in more than the variant (tensorrt 8.4.1 against "
        "8.2.3): 0.1547 ms (fp16, job gtx-841): TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, "
        "spin-wait off; 0.1536 ms (fp32, job gtx-823): TensorRT engine, GPU compute time, CUDA graphs off, data "
        "transfers on, spin-wait off")
    assert finding.hint.endswith("compare variants of one software version and model revision, or name the versions "
                                 "in the sentence, or explain the comparison (explanations: SG212); then run studygen render")


@pytest.mark.parametrize("summary", [
    # the versions named: a comparison across them on purpose
    "On TensorRT 8.4.1 fp16 takes 0.1547 ms, against 0.1536 ms for fp32 on 8.2.3.",
    # one variant on both sides: the versions are what it compares
    "fp16 takes 0.1547 ms against 0.1536 ms.",
])
def test_a_comparison_that_names_the_versions_or_holds_one_variant_passes(tmp_path, summary):
    records = BUILDS if "8.4.1" in summary else [BUILDS[0], record("gtx-823", [latency("fp16", 0.1536,
                                                                                      method=GRAPHS_OFF)], TRT82)]
    assert _findings(load(tmp_path, records=records, study=spec(decision={"shipped": False, "summary": summary}))) == []


def test_a_model_revision_and_a_version_both_named_in_the_message_and_either_named_in_the_sentence_passes(tmp_path):
    # fp16 from TensorRT 8.4.1 at model commit 76321b1, fp32 from 8.2.3 at c65790e (the trial's two logs)
    fp16 = collected_provenance("NVIDIA GeForce GTX 1070", tensorrt="8.4.1")
    fp32 = collected_provenance("NVIDIA GeForce GTX 1070", tensorrt="8.2.3")
    fp16["checkpoint"] = dict(fp16["checkpoint"], revision="76321b1")
    fp32["checkpoint"] = dict(fp32["checkpoint"], revision="c65790e")
    records = [record("gtx-841", [latency("fp16", 0.1547, method=GRAPHS_OFF)], fp16),
               record("gtx-823", [latency("fp32", 0.1536, method=GRAPHS_OFF)], fp32)]

    def found(root, summary):
        return _findings(load(root, records=records, study=spec(
            decision={"shipped": False, "summary": summary}, model={"id": "example/toy-detector",
                                                                    "revisions": ["76321b1", "c65790e"]})))
    (finding,) = found(tmp_path / "a", "fp16 needs 0.1547 ms, compared with 0.1536 ms for fp32.")
    assert "(model revision 76321b1 against c65790e; tensorrt 8.4.1 against 8.2.3)" in finding.message
    assert "'compared with' in /decision/summary" in finding.message
    # naming one of the versions or revisions, in any case, says the comparison crosses them on purpose
    assert found(tmp_path / "b", "At commit C65790E fp32 takes 0.1536 ms against 0.1547 ms for fp16.") == []


@pytest.mark.parametrize("sentence", [
    # a multiple of the reference, no comparative (a new user's trial: "The RTX 3080 int8 median, 0.2754 ms, is
    # roughly 1.8x the GTX 1070 fp32 median of 0.1536 ms" set CUDA graphs against none and passed)
    "The tuned fp32 time, 2.417 ms, is roughly 2.8x the fp16 median of 0.8613 ms.",
    "fp32 takes 2.417 ms, 2.8x that of the tuned fp16 (0.8613 ms).",
    "The fp32 median (2.417 ms) is 2.8x the tuned fp16 median (0.8613 ms).",
])
def test_a_ratio_written_as_a_multiple_of_the_reference_is_read(tmp_path, sentence):
    assert [f.key for f in _findings(_study(tmp_path, sentence))] == ["/decision/summary 2.417 ms against 0.8613 ms"]


@pytest.mark.parametrize("sentence", [
    "The fp32 median (2.417 ms) is 1.4x the fp16 median (1.733 ms).",  # one method
    "fp32 takes 2.417 ms, 1.4x the 1.733 ms of fp16 on the same setup.",
    "The fp32 median of 2.417 ms is 2.8x the budget, while tuned fp16 takes 0.8613 ms.",  # another clause's figure
])
def test_a_multiple_of_a_reference_timed_alike_or_of_no_figure_is_no_finding(tmp_path, sentence):
    assert _findings(_study(tmp_path, sentence)) == []


@pytest.mark.parametrize("summary", [
    # a new user's trial (s26): the comparison denied, its two figures printed beside the variants; lint reads a
    # denied comparative as no comparison of its figures, and the figure-less reading skipped a sentence with a time
    "fp16 at 0.1547 ms is no faster than fp32 at 0.1536 ms.",
    "fp16 (0.1547 ms) is not faster than fp32 (0.1536 ms) on that GPU.",
])
def test_a_denied_comparison_that_prints_its_figures_is_read_as_one_without_them(tmp_path, summary):
    (finding,) = _findings(_builds_study(tmp_path, summary))
    assert finding.key == "/decision/summary fp16 against fp32"
    assert finding.message == ("'faster' in /decision/summary compares variants that differ in more than the variant "
                               "(tensorrt 8.4.1 against 8.2.3): fp16 (job gtx-841); fp32 (job gtx-823)")


def test_a_denied_comparison_of_one_build_or_naming_the_versions_passes(tmp_path):
    assert _findings(_builds_study(tmp_path / "a", "On TensorRT 8.4.1 fp16 at 0.1547 ms is no faster than fp32 "
                                                   "at 0.1536 ms on 8.2.3.")) == []
    records = [BUILDS[0], record("gtx-841b", [latency("fp32", 0.1536, method=GRAPHS_OFF)], TRT84)]
    assert _findings(load(tmp_path / "b", records=records, study=spec(decision={
        "shipped": False, "summary": "fp16 at 0.1547 ms is no faster than fp32 at 0.1536 ms."}))) == []
