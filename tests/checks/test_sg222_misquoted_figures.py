"""SG222: a figure in the study file's prose that misquotes a record. A new
user's decision summary said "0.03395 ms" where the records hold 0.0439453 ms
(printed 0.04395), and neither lint nor check said a word. Each study test
here failed before SG222 existed (no finding at all); the figures are made up
unless a test reads the shipped hackathon records, whose values are named."""

from __future__ import annotations

import random

import pytest
import yaml

from studygen.checks import CheckContext, run_checks
from studygen.checks.prose_figures import matches, quoted_figures, sentence_at, significant_digits
from studygen.checks.sg222_misquoted_figures import Figures, Measured, check, digit_slip, misquoted
from studygen.study import load_study
from tests.conftest import copy_project

from .studies import FAMILY, codes, coco_ap, collected_provenance, kernel_time, latency, load, record, spec

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
    assert "quotes 0.04359 ms" in finding.message and "; two digits swapped: 0.04395 ms (" in finding.message


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
    assert "two digits swapped: 0.4625 AP (measurements/toy/rtx3090-a.json#/results/1/value)" in findings[0].message
    # 24.375 MiB is 25.56 MB: 25.65 MB swaps two digits, 24.48 MiB changes one
    findings = _findings(tmp_path, "The plan is 24.48 MiB, or 25.65 MB.", results=(PLAN,))
    assert [f.message.split(", which")[0] for f in findings] == [
        "/decision/summary quotes 24.48 MiB", "/decision/summary quotes 25.65 MB"]
    assert "two digits swapped: 25.56 MB (" in findings[1].message


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
        "away: 0.1592 ms (measurements/hackathon_mnist_trtexec/gtx1070-trt8.0.3.json#/results/0/value_ms); two "
        "digits swapped: 0.1526 ms (measurements/hackathon_mnist_trtexec/gtx1070-trt8.0.3.json#/results/4/value_ms)")


def test_significant_digits():
    assert [significant_digits(t) for t in ("0.03395", "91.6", "100.0", "1000", "0.05", "1.5", "24.375", "80")] == \
        [4, 3, 4, 1, 1, 2, 5, 1]


def test_matches_reads_rounding_and_cutting():
    assert matches("0.04395", 0.0439453) and matches("0.04394", 0.0439453) and matches("0.0439", 0.0439453)
    assert not matches("0.04396", 0.0439453) and not matches("0.03395", 0.0439453)
    assert matches("13.62", 13.62) and matches("13.6", 13.62) and not matches("13.7", 13.62)
    assert matches("2.71", 2.718) and matches("2.72", 2.718) and not matches("2.70", 2.718)  # cut, rounded
    assert matches("1.15", 1.159) and matches("2.70", 2.709)  # cut at ten to the decimals, zeros kept
    # a float just under its decimal text is cut as the text reads: 0.29 is 0.28999…, yet never "0.28"
    assert matches("0.29", 0.29) and not matches("0.28", 0.29) and not matches("1.14", 1.15)
    assert matches("0.0421", -0.0421) and matches("0.042", -0.0421)  # a delta's sign aside


def test_one_slip_away():
    def slipped(a, b):
        return digit_slip(a, b) is not None

    assert slipped("0.03395", "0.04395") and slipped("1.973", "1.937")
    assert not slipped("0.04395", "0.04395")  # equal
    assert not slipped("0.03385", "0.04395")  # two digits apart
    assert slipped("1.937", "1.397")  # neighbours swapped
    assert not slipped("1.937", "1.739")  # swapped, but not neighbours
    assert not slipped("4", "54") and not slipped("0.4395", "0.04395")  # lengths differ


def test_a_figures_sentence_is_found_as_a_scan_of_the_text_up_to_it_finds_it():
    # sentence_at keeps each text's sentence ends (a study file of 1,500 quoted sentences took seconds when every
    # figure's sentence scanned the text up to it): held to that scan, written out here, on made-up texts
    import re

    end = re.compile(r"[.!?;](?=\s|$)")

    def scanned(text, start):
        begin = max((m.end() for m in end.finditer(text, 0, start)), default=0)
        stop = end.search(text, start)
        return text[begin:stop.start() if stop else len(text)]

    generator = random.Random(5)
    for _ in range(3000):
        text = "".join(generator.choice("aX 1.;!?\n\u00a0") for _ in range(generator.randint(0, 24)))
        for start in range(len(text) + 1):
            assert sentence_at(text, start) == scanned(text, start), (text, start)
    assert sentence_at("It is 2.5 ms. Then 3.5 ms; done", 19) == " Then 3.5 ms"  # the space after the stop kept


def test_the_texts_one_slip_from_a_quote_are_those_digit_slip_names():
    # the index that finds them (a place left out, a pair swapped) against digit_slip over every text, on made-up
    # figures of three to six digits: each text one slip from the quote, and no other
    generator = random.Random(20261205)
    for _ in range(300):
        values = [round(generator.uniform(0, 20), generator.randint(1, 4)) for _ in range(40)]
        figures = Figures(rows=[Measured(value, f"r#{index}") for index, value in enumerate(values)])
        decimals = generator.randint(1, 4)
        printed = figures.printed(1.0, decimals)
        for quote in [*list(printed.shown)[:5], f"{generator.uniform(0, 20):.{decimals}f}"]:
            expected = {text for text in printed.shown if digit_slip(quote, text)}
            assert set(printed.one_slip_from(quote)) == expected, (quote, sorted(printed.shown))
    assert figures.printed(1.0, decimals) is printed  # made once per factor and decimals


def test_a_misquote_names_the_first_row_of_each_near_text_the_nearest_first():
    # 12.53 is one digit from 12.50 (two rows print it: the first is named), 12.58 and 17.53, and two neighbours
    # from 12.35; nearest first: 0.029, 0.05, 0.18 and 5 away
    figures = Figures(rows=[Measured(17.53, "a"), Measured(12.501, "b"), Measured(12.58, "c"), Measured(12.499, "d"),
                            Measured(12.35, "e")])
    assert [m.where for m in misquoted("12.53", figures, 1.0, "fp16 takes 12.53 ms")] == ["b", "c", "e", "a"]
    assert misquoted("12.50", figures, 1.0, "fp16 takes 12.50 ms") == []  # 12.501 rounds to it
    # µs against ms rows: the factor is applied before printing
    assert [m.where for m in misquoted("12530", figures, 1000.0, "x")] == ["c", "e", "a"]  # 12501 is two digits away


def test_digit_slip_says_what_happened_to_the_digits():
    assert digit_slip("0.03395", "0.04395") == "one digit away"
    assert digit_slip("12.75", "12.57") == "two digits swapped" and digit_slip("1.973", "1.937") == "two digits swapped"
    assert digit_slip("12.75", "12.75") is None and digit_slip("12.75", "15.72") is None  # equal; not neighbours
    assert digit_slip("12.75", "12.58") is None and digit_slip("12.75", "2.75") is None  # two changed; lengths


def test_a_swap_of_two_neighbouring_digits_is_called_a_swap(tmp_path):
    # a new user's summary quoted 12.75 ms where the record holds 12.57 ms: before, "one digit away: 12.57 ms"
    results = [latency("fp16", 12.5731, "28x28", batch=4)]
    (finding,) = _findings(tmp_path, "The plan runs at 12.75 ms per batch.", results=results)
    assert finding.message == (
        "/decision/summary quotes 12.75 ms, which no measured figure of the study gives at 2 decimals; two digits "
        "swapped: 12.57 ms (measurements/toy/rtx3090-a.json#/results/0/value_ms)")


def test_quoted_figures():
    def figures(text):
        return [(number, unit) for number, unit, _ in quoted_figures(text)]

    assert figures("at 0.03395 ms, from 1.5 to 2.25 ms, 24.4 MiB, AP of 0.462, 46.2 AP, 3.1 points") == [
        ("0.03395", "ms"), ("1.5", "ms"), ("2.25", "ms"), ("24.4", "MiB"), ("0.462", "AP"), ("46.2", "AP"),
        ("3.1", "points")]
    assert figures("TensorRT 10.16.1 ms, 2023-03-25 ms, v1.234 ms, 12.5msec, sm_90 MB") == []
    assert figures("43.95 µs and 43.95 us") == [("43.95", "µs"), ("43.95", "us")]
    # both figures of "A against B ms"; a whole number there is a count ("batch 128 against 247.0 ms")
    assert figures("(0.04395 against 0.1536 ms), 2.75 vs. 1.34 ms, batch 128 against 247.0 ms") == [
        ("0.04395", "ms"), ("0.1536", "ms"), ("2.75", "ms"), ("1.34", "ms"), ("247.0", "ms")]
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
                            "#/results/0/value_ms); two digits swapped: 0.1526 ms (measurements/hackathon_mnist_trtexec/"
                            "gtx1070-trt8.0.3.json#/results/4/value_ms)")
    # naming no row at all: every row's figure is a candidate (the sentence before names the GPU, not this one)
    (message,) = sg222("The RTX 3090 is quick. It is 0.04359 ms.")
    assert "two digits swapped: 0.04395 ms (" in message


def test_sentence_at():
    text = "The RTX 3090 is quick. It takes 0.04359 ms; the GTX 1070 1.234 ms! Done? 9.99 ms"
    assert sentence_at(text, text.index("0.04359")) == " It takes 0.04359 ms"
    assert sentence_at(text, text.index("1.234")) == " the GTX 1070 1.234 ms"
    assert sentence_at(text, text.index("9.99")) == " 9.99 ms"
    assert sentence_at(text, 4) == "The RTX 3090 is quick"
    assert sentence_at("v1.5 is 2.25 ms.", 8) == "v1.5 is 2.25 ms"  # a decimal point ends no sentence


def test_a_quote_of_three_significant_digits_is_read(tmp_path):
    (finding,) = _findings(tmp_path, "It runs at 0.0449 ms.")  # 0.0439 at four decimals
    assert "quotes 0.0449 ms" in finding.message and "one digit away: 0.0439 ms (" in finding.message


def test_a_kept_statistic_or_repeat_median_is_matched(tmp_path):
    # 0.04295 (a mean) and 0.04305 (a repeat median) are each one digit from the row's 0.04395
    result = latency("fp16", 0.0439453, "28x28", batch=4, repeats=[0.0430469, 0.0439453, 0.0441406],
                     statistics_ms={"min": 0.0419922, "median": 0.0439453, "mean": 0.0429453, "max": 0.0512695})
    assert _findings(tmp_path, "Its mean is 0.04295 ms, its first repeat 0.04305 ms.", results=(result,)) == []
    (finding,) = _findings(tmp_path, "Its mean is 0.04385 ms.", results=(result,))
    assert "one digit away: 0.04395 ms (measurements/toy/rtx3090-a.json#/results/0/value_ms)" in finding.message


def test_the_statistics_of_every_row_are_kept(tmp_path):
    first = latency("fp16", 0.0439453, statistics_ms={"mean": 0.0429453})
    second = latency("fp32", 0.0612305, statistics_ms={"mean": 0.0622305})
    # each mean is a digit from its own row's figure: both are quotes, not misquotes
    assert _findings(tmp_path, "The means are 0.04295 ms and 0.06223 ms.", results=(first, second)) == []


def test_a_figure_two_rows_share_is_suggested_once(tmp_path):
    rows = [record("a", [latency("fp16", 0.0439453)]), record("b", [latency("fp16", 0.0439453, "640x640")])]
    study = load(tmp_path, records=rows, study=spec(decision={"shipped": False, "summary": "It takes 0.03395 ms."}))
    (finding,) = check(CheckContext(study))
    assert finding.message.endswith("one digit away: 0.04395 ms (measurements/toy/a.json#/results/0/value_ms)")


def test_a_figure_in_other_units_is_matched_and_ordered_in_the_quoted_unit(tmp_path):
    plans = [dict(PLAN, value_mib=mib) for mib in (24.375, 24.40)]  # 25.56 and 25.59 MB
    assert _findings(tmp_path, "The plan is 25.56 MB.", results=plans) == []
    # 25.65 MB (24.4617 MiB) is 0.10 above 25.55, 25.54 MB (24.3568 MiB) 0.01 below: the nearer first
    plans = [dict(PLAN, value_mib=mib) for mib in (24.4617, 24.3568)]
    (finding,) = _findings(tmp_path, "The plan is 25.55 MB.", results=plans)
    assert finding.message.endswith("one digit away: 25.54 MB (measurements/toy/rtx3090-a.json#/results/1/value_mib), "
                                    "25.65 MB (measurements/toy/rtx3090-a.json#/results/0/value_mib)")


def test_rows_of_other_units_before_do_not_stop_the_reading(tmp_path):
    agreement = {"kind": "agreement", "variant": "fp8", "reference_variant": "fp16", "metric": "logit_correlation",
                 "value": 0.9991, "dataset": "val-8", "backend": "pytorch", "mode": "eager"}
    (finding,) = _findings(tmp_path, "It runs at 0.03395 ms.", results=(agreement, GPU_COMPUTE))
    assert "one digit away: 0.04395 ms (measurements/toy/rtx3090-a.json#/results/1/value_ms)" in finding.message


def test_an_unprinted_field_does_not_stop_the_reading_of_the_next(tmp_path):
    # a variant's description comes before the decision in the study file; the toy template prints neither it
    # nor the description
    variants = [{"name": "fp16", "precision": "fp16", "label": "fp16", "description": "It runs at 0.04359 ms."}]
    (finding,) = _findings(tmp_path, "It runs at 0.03395 ms.", description="It runs at 0.04359 ms.", variants=variants)
    assert finding.pointer == "/decision/summary" and "quotes 0.03395 ms" in finding.message


def test_ap_delta_points_are_read_and_their_sign_is_aside(tmp_path):
    delta = {"kind": "coco_ap_delta", "variant": "fp8", "reference_variant": "fp16", "statistic": "AP",
             "delta_points": -0.215}
    assert _findings(tmp_path, "AP drops by 0.215 points.", results=(delta,)) == []
    (finding,) = _findings(tmp_path, "AP drops by 0.251 points.", results=(delta,))
    assert finding.message.endswith("two digits swapped: 0.215 points (measurements/toy/rtx3090-a.json#/results/0/"
                                    "delta_points)")


def test_ap_in_points_is_read_times_a_hundred(tmp_path):
    ap = {"kind": "coco_ap", "variant": "fp16", "statistic": "AP", "value": 0.4625, "dataset": "val-8",
          "batch": 1, "backend": "tensorrt", "mode": "engine"}
    (finding,) = _findings(tmp_path, "It reaches 46.52 AP.", results=(ap,))
    assert finding.message.endswith("two digits swapped: 46.25 AP (measurements/toy/rtx3090-a.json#/results/0/value)")
    small = dict(ap, value=0.0152)  # an AP of a rare class, in points 1.52
    assert _findings(tmp_path, "Small objects reach 1.52 AP.", results=(small,)) == []
    assert len(_findings(tmp_path, "Small objects reach 1.25 AP.", results=(small,))) == 1


def test_the_finding_carries_its_line_key_and_hint(tmp_path):
    (finding,) = _findings(tmp_path, "It runs at 0.03395 ms.")
    lines = (tmp_path / "families" / FAMILY / "study.yaml").read_text().splitlines()
    assert finding.line == next(i + 1 for i, line in enumerate(lines) if line.strip().startswith("summary:"))
    assert finding.key == "/decision/summary 0.03395 ms"
    assert finding.hint.startswith("quote the figure as the records hold it")


@pytest.mark.parametrize("summary, named", [
    ("The fp32 build takes 0.1562 ms.", "0.1592 ms"),  # the variant: the 8.0.3 fp16 build's 0.1592 is not fp32's
    ("The FP16 BUILD on TensorRT 8.0.3 takes 0.1562 ms.", "0.1592 ms"),  # case aside
    ("At batch 4 the GTX 1070 takes 0.1562 ms.", "0.1592 ms"),
    ("At 28 x 28 the GeForce GTX 1070 takes 0.1562 ms.", "0.1592 ms"),
])
def test_names_a_sentence_may_give_its_rows_by(tmp_path, summary, named):
    root = copy_project(tmp_path, families=("hackathon_mnist_trtexec",))
    study_file = root / "families/hackathon_mnist_trtexec/study.yaml"
    spec_data = yaml.safe_load(study_file.read_text())
    spec_data["decision"]["summary"] = summary
    study_file.write_text(yaml.safe_dump(spec_data, sort_keys=False))
    messages = [f.message for f in codes(run_checks(load_study(study_file.parent, root)), "SG222")]
    if summary.startswith("The fp32"):
        # the fp32 build (8.2.3) holds 0.1602 and 0.1536 ms, neither a digit from 0.1562: the fp16 build's 0.1592
        # is not suggested for a sentence about fp32
        assert messages == []
        spec_data["decision"]["summary"] = "The fp32 build takes 0.1563 ms."  # 0.1536 with two digits swapped
        study_file.write_text(yaml.safe_dump(spec_data, sort_keys=False))
        (message,) = [f.message for f in codes(run_checks(load_study(study_file.parent, root)), "SG222")]
        assert message.endswith("two digits swapped: 0.1536 ms (measurements/hackathon_mnist_trtexec/"
                                "gtx1070-trt8.2.3.json#/results/4/value_ms)")
    else:
        assert messages and named in messages[0]


# row a: fp16 ("half"), job a, H200, 800 x 800, batch 1, 0.04395 ms; row b: fp32 ("single"), job b, GeForce GTX 1070,
# 640 x 640, batch 8, 0.1526 ms. 0.04359 ms is a digit swap of row a's figure only.
@pytest.mark.parametrize("about_b", ["fp32", "SINGLE", "job b", "GeForce GTX 1070", "GTX 1070", "1070", "640x640",
                                     "640 x 640", "batch 8", "Orin", "H100"])
def test_each_name_of_a_row_restricts_the_suggestions_to_it(tmp_path, about_b):
    variants = [{"name": "fp16", "precision": "fp16", "label": "half"},
                {"name": "fp32", "precision": "fp32", "label": "single"}]
    rows = [record("a", [latency("fp16", 0.0439453)]),
            record("b", [latency("fp32", 0.1526, "640x640", batch=8)], collected_provenance(
                gpu={"Orin": "NVIDIA Jetson AGX Orin", "H100": "NVIDIA H100 PCIe"}.get(about_b, "NVIDIA GeForce GTX 1070")))]
    study = load(tmp_path, records=rows, study=spec(variants=variants, decision={
        "shipped": False, "summary": f"With {about_b.replace('job ', '')} it takes 0.04359 ms. Unnamed, 0.04359 ms."}))
    (finding,) = check(CheckContext(study))  # the second sentence names no row: row a's figure is suggested
    assert finding.message.endswith("two digits swapped: 0.04395 ms (measurements/toy/a.json#/results/0/value_ms)")


def test_a_word_many_gpu_models_share_names_none_of_them(tmp_path):
    # "AGX" of "Jetson AGX Orin" is no name of the Orin (nor "PCIe" of "H100 PCIe"): the sentence names no row
    rows = [record("a", [latency("fp16", 0.0439453)]),
            record("b", [latency("fp32", 0.1526, "640x640", batch=8)], collected_provenance(gpu="NVIDIA Jetson AGX Orin")),
            record("c", [latency("fp32", 0.1627, "640x640", batch=8)], collected_provenance(gpu="NVIDIA H100 PCIe"))]
    study = load(tmp_path, records=rows, study=spec(decision={
        "shipped": False, "summary": "On AGX modules over PCIe it takes 0.04359 ms."}))
    (finding,) = check(CheckContext(study))
    assert finding.message.endswith("two digits swapped: 0.04395 ms (measurements/toy/a.json#/results/0/value_ms)")


def test_a_waiver_or_explanation_giving_a_figure_is_no_quote_of_the_study(tmp_path):
    # review: the remedy SG222's hint names (a waiver with the reason) drew a finding of its own on the reason
    waiver = {"code": "SG222", "match": "/decision/summary quotes 0.03395", "reason": "0.03395 ms is the vendor's figure"}
    study = load(tmp_path, records=[record("rtx3090-a", [GPU_COMPUTE])],
                 study=spec(decision={"shipped": False, "summary": "The vendor quotes 0.03395 ms for it."},
                            waivers=[waiver]))
    findings = codes(run_checks(study), "SG222")
    assert [(f.pointer, f.waived_reason) for f in findings] == [("/decision/summary", "0.03395 ms is the vendor's figure")]


@pytest.mark.parametrize("summary", [
    "Spread over its 4 images that is 0.04295 ms per image.",  # one digit from 0.04395, yet a batch's share
    "Spread over its 4 images that is 0.04295 ms/img.",
    "Spread over its 4 images that is 0.04295 ms per-sample.",
    "Spread over its 4 images that is 0.04295 ms a frame.",
])
def test_a_time_per_image_is_a_batch_divided_not_a_quote(tmp_path, summary):
    # a new user's trial: "batch 64 ... 1.13 ms per image" (72.63 ms / 64) was reported one digit from 0.13 ms
    assert _findings(tmp_path, summary) == []


def test_a_time_per_batch_or_iteration_is_still_a_quote(tmp_path):
    for summary in ("It takes 0.04295 ms per batch.", "It takes 0.04295 ms/iteration.", "It takes 0.04295 ms each."):
        (finding,) = _findings(tmp_path, summary)
        assert "quotes 0.04295 ms" in finding.message and "one digit away: 0.04395 ms" in finding.message


def test_quoted_figures_leave_out_a_figure_per_item_when_asked():
    text = "1.13 ms per image, 2.1 ms/img, 0.5 ms a token, 3.04 ms at batch 1, 4.2 ms/iteration, 12.57 MiB per engine"
    assert [number for number, _, _ in quoted_figures(text, per_item=False)] == ["3.04", "4.2", "12.57"]
    assert len(list(quoted_figures(text))) == 6  # a time per image is still a time (SG224 reads it as a result)


# ---- a difference of two figures, and a figure a record's notes state (a new user's trial, session 26: "0.0235 ms
# less per step than the H100" of GEMM times 0.197598 and 0.17413 ms lay a digit from another group's 0.0135 ms;
# "1.81 ms" of TF32 kernel time that collect's note states lay a digit from a group's 1.71 ms) ----

def _kernel_findings(tmp_path, summary: str, notes=()):
    # GEMM 0.2000 and 0.1765 ms on two GPUs (difference 0.0235); softmax 0.0135 and 0.0150; copy 1.71 ms on a third
    provenance = [collected_provenance(gpu=gpu) for gpu in ("NVIDIA L40S", "NVIDIA A10", "NVIDIA L4")]
    provenance[2]["notes"] = list(notes)
    records = [record("l40s", [kernel_time("fp16", {"GEMM": 0.2, "softmax": 0.0135}, total=0.2135)], provenance[0]),
               record("a10", [kernel_time("fp16", {"GEMM": 0.1765, "softmax": 0.015}, total=0.1915)], provenance[1]),
               record("l4", [kernel_time("fp16", {"copy": 1.71}, total=1.71)], provenance[2])]
    study = load(tmp_path, records=records, study=spec(decision={"shipped": False, "summary": summary}))
    return check(CheckContext(study))


def test_a_difference_of_two_figures_of_one_group_is_no_misquote(tmp_path):
    assert _kernel_findings(tmp_path, "The A10 spends 0.0235 ms less in GEMM than the L40S.") == []


def test_a_difference_needs_its_words_and_two_figures_of_one_group(tmp_path):
    # no word of a difference: a quote of 0.0235 ms one digit from softmax's 0.0135 is reported
    assert [f.key for f in _kernel_findings(tmp_path / "a", "The L40S runs softmax in 0.0235 ms.")] == [
        "/decision/summary 0.0235 ms"]
    # 0.0015 ms is the softmax gap; 0.0165 is no gap of one group (GEMM's is 0.0235) and lies a digit from 0.0135
    assert _kernel_findings(tmp_path / "b", "Softmax takes 0.0015 ms less on the L40S than on the A10.") == []
    assert [f.key for f in _kernel_findings(tmp_path / "c", "Softmax on the L40S is 0.0165 ms less than on the A10.")
            ] == ["/decision/summary 0.0165 ms"]


def test_a_figure_a_records_notes_state_is_no_misquote(tmp_path):
    note = "trace.json.gz: 6 of 79 kernel launches ran TF32 tensor-core math by their names (1.81 ms, 17%)"
    summary = "On the L4, 1.81 ms of kernel time ran TF32 math."
    assert [f.key for f in _kernel_findings(tmp_path / "a", summary)] == ["/decision/summary 1.81 ms"]
    assert _kernel_findings(tmp_path / "b", summary, notes=[note]) == []


def test_a_statistic_named_before_its_figure_through_a_verb_is_read(tmp_path):
    # session 27's trial: "AR10 falls from 0.7403 to 0.6693" (the record 0.663889, printed 0.6639) passed unread:
    # only "AP 0.6288" and "0.6288 AP" were quotations. Made-up figures: AP 0.5172, AR10 0.6084
    results = [coco_ap("fp16", 0.517233), coco_ap("fp16", 0.608417, statistic="AR10")]
    quoted = {"AR10 falls from 0.6804 to 0.5172.": ["0.6804 AP"],  # two digits swapped; 0.5172 is AP's figure
              "The fp16 AP is 0.5127 on val-8.": ["0.5127 AP"], "AR10 of 0.6094 is what fp16 keeps.": ["0.6094 AP"],
              "FP16 AR10 IS 0.6804.": ["0.6804 AP"]}  # no lower-case "a" in it (a mutation run's survivor)
    for index, (summary, wrong) in enumerate(quoted.items()):
        got = [f.message.split(" quotes ")[1].split(",")[0] for f in _findings(tmp_path / str(index), summary,
                                                                                results=results)]
        assert got == wrong, summary
    for index, summary in enumerate(["AR10 falls to 0.6084 and AP is 0.5172.", "AR10 is 0.6084, AP 0.5172.",
                                     "AP50 stays near 0.9 on every run."]):  # two significant digits: no quotation
        assert _findings(tmp_path / f"true{index}", summary, results=results) == [], summary
