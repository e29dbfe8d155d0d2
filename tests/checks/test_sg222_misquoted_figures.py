"""SG222: a figure in the study file's prose that misquotes a record. A new
user's decision summary said "0.03395 ms" where the records hold 0.0439453 ms
(printed 0.04395), and neither lint nor check said a word. Each study test
here failed before SG222 existed (no finding at all); the figures are made up
unless a test reads the shipped hackathon records, whose values are named."""

from __future__ import annotations


import pytest
import yaml

from studygen.checks import CheckContext, run_checks
from studygen.checks.sg222_misquoted_figures import (
    check, matches, one_digit_away, quoted_figures, significant_digits)
from studygen.study import load_study
from tests.conftest import copy_project

from .studies import FAMILY, codes, latency, load, record, spec

# the RTX 3090 log's GPU compute median and its p99, as trtexec printed them
GPU_COMPUTE = latency("fp16", 0.0439453, "28x28", batch=4,
                      statistics_ms={"min": 0.0419922, "median": 0.0439453, "mean": 0.0445, "p99": 0.0512695})
PLAN = {"kind": "plan_size", "variant": "fp16", "backend": "tensorrt", "mode": "engine", "value_mib": 24.375}


def _findings(tmp_path, summary: str, *, results=(GPU_COMPUTE,), **fields):
    study = load(tmp_path, records=[record("rtx3090-a", list(results))],
                 study=spec(decision={"shipped": False, "summary": summary}, **fields))
    return check(CheckContext(study))


def test_the_trials_misquote_is_reported_at_the_study_file_pointer(tmp_path):
    (finding,) = _findings(tmp_path, "Not shipped: the RTX 3090 runs the plan at 0.03395 ms per batch of 4.")
    assert (finding.code, finding.file, finding.pointer) == ("SG222", f"families/{FAMILY}/study.yaml",
                                                             "/decision/summary")
    study_lines = (tmp_path / "families" / FAMILY / "study.yaml").read_text().splitlines()
    assert study_lines[finding.line - 1].lstrip().startswith("summary:")
    assert finding.message == (
        "/decision/summary quotes 0.03395 ms, which no measured figure of the study gives at 5 decimals; one digit "
        "away: 0.04395 ms (measurements/toy/rtx3090-a.json#/results/0/value_ms)")
    assert finding.severity == "error"


def test_the_check_is_registered_and_runs_with_the_others(tmp_path):
    study = load(tmp_path, records=[record("rtx3090-a", [GPU_COMPUTE])],
                 study=spec(decision={"shipped": False, "summary": "It runs at 0.04359 ms."}))
    (finding,) = codes(run_checks(study), "SG222")  # two neighbouring digits swapped: 0.04395
    assert "quotes 0.04359 ms" in finding.message and "0.04395 ms (" in finding.message


@pytest.mark.parametrize("summary", [
    "The RTX 3090 runs the plan at 0.04395 ms.",  # as the README prints it
    "The RTX 3090 runs the plan at 0.0439453 ms.",  # every digit of the record
    "The RTX 3090 runs the plan at 0.04394 ms.",  # cut, not rounded: no wrong figure
    "Its p99 is 0.05127 ms and its fastest iteration 0.04199 ms.",  # the record's statistics
    "The plan runs under 0.05 ms and 1.5 ms is the budget.",  # round targets: fewer than 3 significant digits
    "A vendor's figure for another network is 12.34 ms.",  # near no measured figure: another source
    "Measured on 2023-03-25 with TensorRT 8.6.0 on an H100 80GB.",  # a date, a version, a memory size
    "The 0.03395ms-long warm-up and build 0.03395-ms are names, not figures.",
])
def test_figures_that_are_no_misquote_are_not_reported(tmp_path, summary):
    assert _findings(tmp_path, summary) == []


def test_a_field_the_readme_does_not_print_or_an_expectation_is_not_read(tmp_path):
    # the toy template prints the title and the summary, not the description; not_measured says what is expected
    findings = _findings(tmp_path, "Nothing to ship.", description="It runs at 0.03395 ms.",
                         not_measured=[{"config": "int4", "reason": "not tried", "expectation": "about 0.03395 ms",
                                        "because": "fewer bytes"}])
    assert findings == []


def test_plan_sizes_and_ap_are_read_in_their_units(tmp_path):
    ap = {"kind": "coco_ap", "variant": "fp16", "statistic": "AP", "value": 0.4625, "dataset": "val-8",
          "batch": 1, "backend": "tensorrt", "mode": "engine"}
    summary = "The plan is 24.38 MiB (25.56 MB) with AP 0.4652, 46.25 AP in points; 0.4625 AP as measured."
    findings = _findings(tmp_path, summary, results=(PLAN, ap))
    assert [f.message.split(", which")[0] for f in findings] == ["/decision/summary quotes 0.4652 AP"]
    assert "one digit away: 0.4625 AP (measurements/toy/rtx3090-a.json#/results/1/value)" in findings[0].message
    # 24.375 MiB is 25.56 MB: 25.65 MB swaps two digits, 24.48 MiB changes one
    findings = _findings(tmp_path, "The plan is 24.48 MiB, or 25.65 MB.", results=(PLAN,))
    assert [f.message.split(", which")[0] for f in findings] == [
        "/decision/summary quotes 24.48 MiB", "/decision/summary quotes 25.65 MB"]
    assert "one digit away: 25.56 MB (" in findings[1].message


def test_a_unit_the_records_hold_nothing_in_is_not_read(tmp_path):
    assert _findings(tmp_path, "The plan is 24.48 MiB.") == []  # no plan size recorded


def test_both_ends_of_a_range_are_read(tmp_path):
    # the first end has no unit of its own; the second matches the record's p99 (0.0512695)
    (finding,) = _findings(tmp_path, "From 0.03395 to 0.05127 ms.")
    assert "quotes 0.03395 ms" in finding.message


def test_a_kept_statistic_is_matched_but_never_suggested(tmp_path):
    # 0.05217 is a digit swap from the p99 0.05127: too many kept statistics lie near any figure to name them
    assert _findings(tmp_path, "Its tail reaches 0.05217 ms.") == []


def test_a_misquote_near_many_figures_names_three_and_counts_the_rest(tmp_path):
    results = [latency("fp16", value, "28x28", batch=batch) for batch, value in
               ((1, 1.234), (2, 1.214), (4, 1.224), (8, 1.274), (16, 1.284))]
    (finding,) = _findings(tmp_path, "It runs at 1.244 ms.", results=results)
    assert finding.message.endswith(
        "one digit away: 1.234 ms (measurements/toy/rtx3090-a.json#/results/0/value_ms), 1.224 ms "
        "(measurements/toy/rtx3090-a.json#/results/2/value_ms), 1.214 ms "
        "(measurements/toy/rtx3090-a.json#/results/1/value_ms) and 2 more")  # nearest first: 1.274 ties 1.214


def test_the_shipped_hackathon_study_quoting_its_records_right_and_wrong(tmp_path):
    # its README prints the RTX 3090 median 0.04395 ms, the GTX 1070 fp16 builds 0.1547 and 0.1526 ms
    root = copy_project(tmp_path, families=("hackathon_mnist_trtexec",))
    study_file = root / "families/hackathon_mnist_trtexec/study.yaml"
    spec_data = yaml.safe_load(study_file.read_text())
    right = ("The RTX 3090 logs give 0.04395 ms, the GTX 1070 fp16 builds 0.1547 and 0.1526 ms, all on "
             "TensorRT 8.6.0 or older, published 2023-03-25, on cards of 8 GB to 24 GB.")
    spec_data["decision"]["summary"] = right
    study_file.write_text(yaml.safe_dump(spec_data, sort_keys=False))
    assert codes(run_checks(load_study(study_file.parent, root)), "SG222") == []
    spec_data["decision"]["summary"] = right.replace("0.1526 ms", "0.1562 ms")
    study_file.write_text(yaml.safe_dump(spec_data, sort_keys=False))
    (finding,) = codes(run_checks(load_study(study_file.parent, root)), "SG222")
    # nearest first: the 8.0.3 fp16 build's host latency 0.15918 ms (0.1592, a digit changed), then its GPU compute
    # time 0.152588 ms (two digits swapped); the README's table prints the latter as 0.1526
    assert finding.message == (
        "/decision/summary quotes 0.1562 ms, which no measured figure of the study gives at 4 decimals; one digit "
        "away: 0.1592 ms (measurements/hackathon_mnist_trtexec/gtx1070-trt8.0.3.json#/results/0/value_ms), 0.1526 ms "
        "(measurements/hackathon_mnist_trtexec/gtx1070-trt8.0.3.json#/results/4/value_ms)")


def test_significant_digits():
    assert [significant_digits(t) for t in ("0.03395", "91.6", "100.0", "1000", "0.05", "1.5", "24.375", "80")] == \
        [4, 3, 4, 1, 1, 2, 5, 1]


def test_matches_reads_rounding_and_cutting():
    assert matches("0.04395", 0.0439453) and matches("0.04394", 0.0439453) and matches("0.0439", 0.0439453)
    assert not matches("0.04396", 0.0439453) and not matches("0.03395", 0.0439453)
    assert matches("13.62", 13.62) and matches("13.6", 13.62) and not matches("13.7", 13.62)


def test_one_digit_away():
    assert one_digit_away("0.03395", "0.04395") and one_digit_away("1.973", "1.937")
    assert not one_digit_away("0.04395", "0.04395")  # equal
    assert not one_digit_away("0.03385", "0.04395")  # two digits apart
    assert one_digit_away("1.937", "1.397")  # neighbours swapped
    assert not one_digit_away("1.937", "1.739")  # swapped, but not neighbours
    assert not one_digit_away("19.73", "1.973") and not one_digit_away("0.4395", "0.04395")  # lengths differ
    assert not one_digit_away("12.34", "1.2.34"[:5])  # a decimal point moved is no digit changed


def test_quoted_figures():
    def figures(text):
        return [(number, unit) for number, unit, _ in quoted_figures(text)]

    assert figures("at 0.03395 ms, from 1.5 to 2.25 ms, 24.4 MiB, AP of 0.462, 46.2 AP, 3.1 points") == [
        ("0.03395", "ms"), ("1.5", "ms"), ("2.25", "ms"), ("24.4", "MiB"), ("0.462", "AP"), ("46.2", "AP"),
        ("3.1", "points")]
    assert figures("TensorRT 10.16.1 ms, 2023-03-25 ms, v1.234 ms, 12.5msec, sm_90 MB") == []
    assert figures("43.95 µs and 43.95 us") == [("43.95", "µs"), ("43.95", "us")]
    assert [start for _, _, start in quoted_figures("at 0.03395 ms, AP 0.462")] == [3, 18]


def test_a_sentence_naming_rows_is_read_against_those_rows_only(tmp_path):
    root = copy_project(tmp_path, families=("hackathon_mnist_trtexec",))
    study_file = root / "families/hackathon_mnist_trtexec/study.yaml"
    spec_data = yaml.safe_load(study_file.read_text())

    def sg222(summary):
        spec_data["decision"]["summary"] = summary
        study_file.write_text(yaml.safe_dump(spec_data, sort_keys=False))
        return [f.message for f in codes(run_checks(load_study(study_file.parent, root)), "SG222")]

    # 0.1562 ms said of the RTX 3090 (0.04395 ms there): one digit from GTX 1070 figures only, so not theirs
    assert sg222("The RTX 3090 is quick. A vendor's RTX 3090 figure is 0.1562 ms.") == []
    # said of the GTX 1070's fp16 build on TensorRT 8.0.3 (job gtx1070-trt8.0.3): its two figures are named
    (message,) = sg222("The gtx1070-trt8.0.3 job gives 0.1562 ms.")
    assert message.endswith("one digit away: 0.1592 ms (measurements/hackathon_mnist_trtexec/gtx1070-trt8.0.3.json"
                            "#/results/0/value_ms), 0.1526 ms (measurements/hackathon_mnist_trtexec/"
                            "gtx1070-trt8.0.3.json#/results/4/value_ms)")
    # naming no row at all: every row's figure is a candidate (the sentence before names the GPU, not this one)
    (message,) = sg222("The RTX 3090 is quick. It is 0.04359 ms.")
    assert "one digit away: 0.04395 ms (" in message
