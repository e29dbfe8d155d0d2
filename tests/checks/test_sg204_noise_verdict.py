"""SG204: verdicts only from study.noise_verdict over >= 3 repeats a side; the helper's
verdict and interval on repeat sets of known separation."""

from __future__ import annotations

import re

import numpy as np

from studygen.checks import CheckContext, sg204_noise_verdict
from studygen.findings import ERROR
from studygen.records.load import yaml_line
from studygen.render.stats import median_difference

from .studies import codes, latency, line_of, load, readme_lines, record

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
VERDICT_CALL = "Verdict: {{ study.noise_verdict('fp16', 'fp8', shape='800x800') }}.\n"

# Five repeat medians a side (ms). Overlapping: FP8 within 0.03 ms of fp16. Separated: FP8 about 0.5 ms faster.
FP16 = [5.00, 5.02, 4.98, 5.01, 4.99]
FP8_OVERLAPPING = [5.01, 4.99, 5.03, 4.98, 5.00]
FP8_SEPARATED = [4.50, 4.52, 4.49, 4.51, 4.48]


def project(tmp_path, template, fp16_repeats=FP16, fp8_repeats=FP8_OVERLAPPING):
    results = [latency("fp16", float(np.median(fp16_repeats)), repeats=fp16_repeats),
               latency("fp8", float(np.median(fp8_repeats)), repeats=fp8_repeats)]
    return load(tmp_path, records=[record("job", results)], template=template)


def interval(line: str) -> tuple[float, float]:
    match = re.search(r"bootstrap interval of the median difference ([-+]?[\d.]+) to ([-+]?[\d.]+) ms", line)
    assert match, line
    return float(match.group(1)), float(match.group(2))


def test_overlapping_repeats_are_within_noise(tmp_path):
    study = project(tmp_path, HEADER + VERDICT_CALL)
    line = next(line for line in readme_lines(study) if line.startswith("Verdict:"))
    assert line.endswith(": within run-to-run noise.")
    assert "FP8 minus fp16 (at 800 x 800 only): 0.000 ms (median of repeat medians" in line  # medians 5.00 and 5.00
    assert "fp16 4.980 to 5.020 ms over 5 repeats, FP8 4.980 to 5.030 ms over 5 repeats" in line
    assert "(10000 resamples, seed 0)" in line
    low, high = interval(line)
    assert low < 0 < high
    # Medians of resamples lie between the extremes: the interval can never leave [min(b)-max(a), max(b)-min(a)].
    assert low >= 4.98 - 5.02 - 1e-9 and high <= 5.03 - 4.98 + 1e-9
    expected = median_difference(FP16, FP8_OVERLAPPING)
    assert (low, high) == (round(expected.low_ms, 3), round(expected.high_ms, 3))
    assert sg204_noise_verdict.check(CheckContext(study)) == []  # the verdict comes from the helper


def test_separated_repeats_are_beyond_noise(tmp_path):
    study = project(tmp_path, HEADER + VERDICT_CALL, fp8_repeats=FP8_SEPARATED)
    line = next(line for line in readme_lines(study) if line.startswith("Verdict:"))
    assert "FP8 minus fp16 (at 800 x 800 only): -0.500 ms" in line  # medians 4.50 and 5.00
    assert line.endswith(": beyond run-to-run noise.")
    low, high = interval(line)
    assert -0.54 <= low <= high < 0  # bounded by 4.48 - 5.02 and 4.52 - 4.98
    assert high <= -0.46
    assert sg204_noise_verdict.check(CheckContext(study)) == []


def test_fewer_than_three_repeats_give_no_verdict(tmp_path):
    study = project(tmp_path, HEADER + VERDICT_CALL, fp16_repeats=[5.0, 5.1], fp8_repeats=[4.9, 5.0])
    line = next(line for line in readme_lines(study) if line.startswith("Verdict:"))
    assert "no noise verdict for FP8 against fp16 (at 800 x 800 only): 2 and 2 repeat medians recorded, " \
           "at least 3 a side are needed" in line
    assert "within" not in line and "beyond" not in line
    assert sg204_noise_verdict.check(CheckContext(study)) == []


def test_hand_written_verdict_without_repeats_is_an_error(tmp_path):
    template = HEADER + "FP8 saves 0.04 to 0.11 ms of GEMM time, which is within the run-to-run noise.\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template)
    findings = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity == ERROR and finding.file == "families/toy/README.md"
    assert finding.line == line_of(study, "within the run-to-run noise")
    assert '"within the run-to-run noise" about 0.04, 0.11' in finding.message
    assert "no record holds repeated timings" in finding.message


def test_hand_written_verdict_with_repeats_still_needs_the_helper(tmp_path):
    template = HEADER + "The difference is not significant.\n\nCopied: FP8 minus fp16: 0.000 ms: within run-to-run noise.\n"
    study = project(tmp_path, template)
    findings = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert [f.line for f in findings] == [line_of(study, "not significant"), line_of(study, "Copied:")]
    assert all("the records hold repeat medians for 2 latency figure(s)" in f.message for f in findings)
    assert '"not significant"' in findings[0].message


def test_verdict_in_the_study_file_summary_is_hand_written_too(tmp_path):
    from .studies import spec

    template = HEADER + "{{ study.decision.summary }}\n\n" + VERDICT_CALL
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.0, repeats=FP16), latency("fp8", 5.0, repeats=FP8_OVERLAPPING)])],
                 template=template, study=spec(decision={"shipped": False, "summary": "FP8 makes no difference."}))
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    # hand-written, and in the study file: named there, with what to write in the field instead of a helper call
    assert (finding.file, finding.line, finding.pointer) == (
        "families/toy/study.yaml", yaml_line(study.spec_text, "decision", "summary"), "/decision/summary")
    assert finding.message == ('verdict "no difference" is written by hand, not computed: the records hold repeat '
                               'medians for 2 latency figure(s); sentence: "FP8 makes no difference."')
    assert finding.hint == (
        f"edit /decision/summary in this file, which the README prints as written (families/toy/README.md line "
        f"{line_of(study, 'FP8 makes no difference.')}): say what was measured instead, the spread of each figure "
        "(min to max, or ± std) and how many repeats it covers, and let the reader judge; or remove the claim; then "
        "run studygen render")


def test_verdicts_in_other_words_are_hand_written_verdicts_too(tmp_path):
    # the field's paraphrases (issue 12, item H): scatter, variation between runs, within error, indistinguishable
    template = HEADER + (
        "The 0.05 ms saving is lost in the scatter of the timings.\n\n"
        "Graph capture cannot be separated from the variation between runs.\n\n"
        "Both engines agree within error.\n\n"
        "Plan sizes differ by 7% and latency by 0.6%, a gap that is indistinguishable here.\n\n"
        "The scatter plot shows latency per shape.\n")
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template)
    findings = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert [f.line for f in findings] == [line_of(study, "lost in the scatter"), line_of(study, "cannot be separated"),
                                          line_of(study, "within error"), line_of(study, "indistinguishable")]
    assert '"lost in the scatter"' in findings[0].message and "about 0.05" in findings[0].message
    assert '"cannot be separated from the variation"' in findings[1].message
    assert '"within error"' in findings[2].message
    assert '"indistinguishable"' in findings[3].message and "about 7%, 0.6%" in findings[3].message


def test_overlapping_phrases_give_one_verdict():
    from studygen.checks.sg204_noise_verdict import verdicts_in

    assert [m.group(0) for m in verdicts_in("it is not statistically significant, and within the run-to-run noise")] == [
        "not statistically significant", "within the run-to-run noise"]
    assert [m.group(0) for m in verdicts_in("no change; no measurable difference")] == ["no change", "no measurable difference"]
    assert verdicts_in("a scatter plot of latency and its variation by shape") == []


def test_a_verdict_inside_another_helper_output_is_still_hand_written(tmp_path):
    # expectation() prints the study file's words: a noise verdict there was typed by a person
    from .studies import spec

    not_measured = [{"config": "NVFP4", "reason": "not tried", "expectation": "a latency within run-to-run noise of FP8",
                     "because": "the linears are a small share of engine time"}]
    template = HEADER + "- {{ study.expectation('NVFP4') }}\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template,
                 study=spec(not_measured=not_measured))
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    # the words are the entry's expectation, inside the helper's own: named at that field
    assert (finding.file, finding.line, finding.pointer) == (
        "families/toy/study.yaml", yaml_line(study.spec_text, "not_measured", 0, "expectation"),
        "/not_measured/0/expectation")
    assert f"(families/toy/README.md line {line_of(study, 'within run-to-run noise of FP8')})" in finding.hint


def test_three_repeats_are_enough_to_call_the_helper(tmp_path):
    # MIN_REPEATS is 3: with exactly three repeat medians a side the message points to the helper
    template = HEADER + "The difference is not significant.\n"
    study = project(tmp_path, template, fp16_repeats=FP16[:3], fp8_repeats=FP8_OVERLAPPING[:3])
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert "the records hold repeat medians for 2 latency figure(s)" in finding.message


def test_the_whole_message_and_hint_of_a_hand_written_verdict(tmp_path):
    template = HEADER + "Intro. FP8 saves 0.04 ms, which is within noise, on every shape. Next sentence.\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template)
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert finding.message == (
        'verdict "is within noise" about 0.04 ms is written by hand, not computed: no record holds repeated timings '
        "(at least 3 repeat medians a side) to support it; "
        'sentence: "FP8 saves 0.04 ms, which is within noise, on every shape."')
    assert finding.hint == ("remove the verdict, or collect repeated runs and use study.noise_verdict(a, b, ...), "
                            "which prints the spread and the bootstrap interval behind it")
    without_figures = HEADER + "The change is indistinguishable.\n"
    bare = load(tmp_path / "bare", records=[record("job", [latency("fp16", 5.889)])], template=without_figures)
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(bare)), "SG204")
    assert finding.message.startswith('verdict "indistinguishable" is written by hand, not computed: ')


def test_only_profiled_iterations_give_no_verdict_and_the_message_says_so(tmp_path):
    from .studies import kernel_time

    iterations = [{"label": f"ProfilerStep#{i}", "profiled_total_ms": 4.0 + i / 100} for i in range(4)]
    results = [kernel_time("fp16", {"GEMM": 2.0}, total=4.015, per_iteration=iterations),
               latency("fp16", 5.0, repeats=[5.0, 5.1])]  # two repeats: no spread of its own
    template = HEADER + "The kernels show no change.\n"
    study = load(tmp_path, records=[record("job", results)], template=template)
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert ("the records hold profiled iterations for 1 figure(s) but no latency with repeat medians, and "
            "study.noise_verdict compares latencies: print the spread, not a verdict") in finding.message


def test_the_exact_repeat_basis_names_the_helper(tmp_path):
    template = HEADER + "No change here.\n"
    study = project(tmp_path, template)
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert ("not computed: the records hold repeat medians for 2 latency figure(s): print the verdict with "
            "study.noise_verdict(...); sentence:") in finding.message


def test_a_verdict_inside_another_helpers_output_is_still_hand_written(tmp_path):
    from .studies import spec

    template = HEADER + "{% for gap in study.known_gaps() %}- {{ gap }}\n{% endfor %}"
    waiver = {"code": "SG203", "match": "nothing at all here", "reason": "the two jobs agree within run-to-run noise"}
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=template,
                 study=spec(waivers=[waiver]))
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert '"within run-to-run noise"' in finding.message


def test_a_line_without_a_verdict_word_is_not_scanned_and_holds_no_verdict():
    # verdicts_in runs VERDICT only on lines holding one of VERDICT_WORDS (as IGNORECASE reads case)
    import random

    from studygen.checks.sg204_noise_verdict import VERDICT, VERDICT_WORDS, verdicts_in
    from studygen.lint.vocabulary import ascii_folded

    words = ["within", "the", "run-to-run", "noise", "Noiſe", "floor", "not", "statistically", "significant",
             "ſignificant", "insignificant", "no", "measurable", "change", "difference", "CHANGE", "indistinguishable",
             "below", "timing", "level", "real", "x"]
    rng = random.Random(5)
    found = 0
    for _ in range(20000):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        if VERDICT.search(line):
            found += 1
            assert any(word in ascii_folded(line) for word in VERDICT_WORDS), line
    assert found > 1000
    # re.IGNORECASE reads the long s as s: a line whose verdict words are written with it is scanned too
    assert [m.group(0) for m in verdicts_in("Not ſignificant, \u212aind of CHANGE, within the noiſe")] == [
        "Not ſignificant", "within the noiſe"]
    # "no" before "significant" opens a noun phrase: a verdict only of a difference ("no significant omissions")
    assert [m.group(0) for m in verdicts_in("No ſignificant CHANGE; no significant omissions")] == [
        "No ſignificant CHANGE"]


def test_a_line_holding_every_verdict_word_keeps_every_verdict():
    """The word prefilter lets each pattern scan a line holding any of its
    words; here all five are there, and only SG204's own pattern reads
    "noise floor" as part of the phrase (the shared one stops at "noise"). Kills verdicts_in mutant 8 (the scan run only
    where some word is missing)."""
    from studygen.checks.sg204_noise_verdict import verdicts_in

    line = "On H200 the fp8 change sits below the timing noise floor; no significant difference, indistinguishable."
    assert [m.group(0) for m in verdicts_in(line)] == [
        "below the timing noise floor", "no significant difference", "indistinguishable"]


def test_a_figure_of_another_clause_is_not_what_the_verdict_is_about(tmp_path):
    # "7%" belongs to ", and fp16 is 7% slower": before, the message said the verdict was about 7 (its unit lost)
    template = HEADER + "FP8 is within noise of fp32, and fp16 is 7% slower.\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template)
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert finding.message.startswith('verdict "is within noise" is written by hand, not computed: ')
    assert finding.message.endswith('sentence: "FP8 is within noise of fp32, and fp16 is 7% slower."')


def test_verdict_figures_are_those_of_its_clause_with_their_units():
    import re

    from studygen.checks.sg204_noise_verdict import verdict_figures

    def figures(line: str, verdict: str, labels=None) -> list[str]:
        start = line.index(verdict)
        return verdict_figures(line, start, start + len(verdict), labels)

    gtx = re.compile("GTX 1070", re.I)
    line = "Speed is within noise on the GTX 1070, and fp16 is 7% slower."
    assert figures(line, "within noise", gtx) == []
    assert figures(line, "within noise") == []  # a whole number without a unit is a name's part, label known or not
    assert figures("Speed is within noise on the GTX 1070.5 build.", "within noise") == ["1070.5"]  # decimals: a figure
    # the clause before a verdict that opens its own: "but" cuts it off, a relative "which" does not
    assert figures("FP8 saves 7%, but the 0.3 ms gap is within noise.", "within noise") == ["0.3 ms"]
    assert figures("FP8 saves 0.04 to 0.11 ms, which is within noise at 800 x 800.", "within noise") == ["0.04", "0.11 ms"]
    assert figures("Plan sizes differ by 7% and latency by 1.02x, indistinguishable.", "indistinguishable") == [
        "7%", "1.02x"]


def test_a_verdict_on_an_ap_names_per_image_results_not_timings(tmp_path):
    # a new user's case: "no record holds repeated timings" answered a verdict on AP50, which is no timing
    from .studies import coco_ap, spec

    summary = "Its AP50 is within noise of fp32."
    results = [coco_ap("fp32", 0.7012, statistic="AP50"), coco_ap("fp8", 0.6998, statistic="AP50")]
    study = load(tmp_path, records=[record("job", results)], template=HEADER + "{{ study.decision.summary }}\n",
                 study=spec(decision={"shipped": False, "summary": summary}))
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert finding.pointer == "/decision/summary"
    assert finding.message == (
        'verdict "is within noise" is written by hand, not computed: no record holds per-image results for a COCO AP '
        "(per_image: the spread an AP difference is bootstrapped from) to support it; "
        'sentence: "Its AP50 is within noise of fp32."')
    assert finding.hint == (
        f"edit /decision/summary in this file, which the README prints as written (families/toy/README.md line "
        f"{line_of(study, summary)}): say what was measured instead, each AP and the image set it was scored on "
        "(how many images), and let the reader judge; or remove the claim; then run studygen render")


def test_a_verdict_on_an_ap_with_per_image_results_points_to_ap_difference(tmp_path):
    from .studies import coco_ap

    results = [coco_ap("fp32", 0.4644, per_image="per_image/fp32.json"),
               coco_ap("fp8", 0.4625, per_image="per_image/fp8.json"), latency("fp8", 5.850)]
    template = HEADER + "The mAP of fp8 shows no difference.\n\nThe mAP and the latency of fp8 show no change.\n"
    study = load(tmp_path, records=[record("job", results)], template=template)
    first, both = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert first.message == (
        'verdict "no difference" is written by hand, not computed: the records hold per-image results for 2 COCO AP '
        "figure(s), and no helper gives a verdict on AP: print study.ap_difference(...) with its per-image bootstrap "
        'interval, not a verdict; sentence: "The mAP of fp8 shows no difference."')
    assert first.hint == (
        "remove the verdict, or print study.ap_difference(a, b, ...), which prints the AP difference with the "
        "job-to-job spread of each figure and, where both results name per-image results, a per-image bootstrap "
        "interval")
    # a clause naming a timing and an AP: what the records hold for each, timings first
    assert both.message == (
        'verdict "no change" is written by hand, not computed: no record holds repeated timings (at least 3 repeat '
        "medians a side) to support it; the records hold per-image results for 2 COCO AP figure(s), and no helper "
        "gives a verdict on AP: print study.ap_difference(...) with its per-image bootstrap interval, not a verdict; "
        'sentence: "The mAP and the latency of fp8 show no change."')
    assert both.hint.startswith(sg204_noise_verdict.HINT + "; for the AP, print study.ap_difference(a, b, ...), ")


def test_verdict_subjects_read_the_result_kind_table():
    from studygen.checks.sg204_noise_verdict import QUALITY, TIMINGS, verdict_subjects

    assert verdict_subjects("Its AP50 is within noise of fp32") == (QUALITY,)
    assert verdict_subjects("AR100 and mAP75 are within noise") == (QUALITY,)  # statistics of the coco_ap schema
    assert verdict_subjects("the COCO AP difference is within noise") == (QUALITY,)
    assert verdict_subjects("FP8 saves 0.04 ms, which is within noise") == (TIMINGS,)
    assert verdict_subjects("The change is indistinguishable") == (TIMINGS,)  # no figure named: read as timings
    assert verdict_subjects("a GAP or a MAPping is within noise") == (TIMINGS,)  # inside words, no AP
    assert verdict_subjects("AP50 and kernel time are within noise") == (TIMINGS, QUALITY)


def test_a_batch_size_is_not_what_a_verdict_is_about(tmp_path):
    # a new user's "within noise at batch 8" was reported as a verdict "about 8"
    template = HEADER + "The fp16 gap of 0.04 ms is within noise at batch 8 on 2 GPUs.\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template)
    (finding,) = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert finding.message.startswith('verdict "is within noise" about 0.04 ms is written by hand')


def test_the_variation_of_repeats_said_negligible_is_a_hand_written_verdict(tmp_path):
    # a new user's trial: "The run-to-run variation on the H100 is negligible" of one unrepeated, unstable timing
    template = HEADER + (
        "The run-to-run variation on the fp16 engine is negligible.\n\n"
        "The launch overhead on the fp16 engine is negligible.\n\n"
        "Variation in input size is negligible here.\n")
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])], template=template)
    findings = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")
    assert [f.line for f in findings] == [line_of(study, "run-to-run variation")]
    assert '"run-to-run variation on the fp16 engine is negligible"' in findings[0].message
