"""SG206: a configuration declared not measured appears only through study.expectation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studygen.checks import CheckContext, sg206_unmeasured
from studygen.findings import ERROR
from studygen.lint.sg106_unmeasured import MEASURING_VERBS
from studygen.records.load import yaml_line

from .studies import codes, collected_provenance, latency, line_of, load, readme_lines, record, spec

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
NOT_MEASURED = [{"config": "NVFP4", "aliases": ["nvfp4"], "reason": "not tried",
                 "expectation": "no latency gain from the linears alone",
                 "because": "the linears are a small share of engine time"}]
RECORDS = [record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])]


def test_expectation_helper_is_the_only_way(tmp_path):
    template = HEADER + "- {{ study.expectation('NVFP4') }}\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    assert ("- Not measured: NVFP4 (not tried). Expected without a measurement: no latency gain from the linears alone, "
            "because the linears are a small share of engine time.") in readme_lines(study)
    assert sg206_unmeasured.check(CheckContext(study)) == []


def test_conclusion_about_an_unmeasured_configuration_is_an_error(tmp_path):
    template = (HEADER + "- {{ study.expectation('NVFP4') }}\n\n"
                "NVFP4 was not tried: FP8 already gives no speedup (1.01x), so nvfp4 would not either.\n")
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    findings = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert len(findings) == 1  # one per sentence, the expectation line passes
    finding = findings[0]
    assert finding.severity == ERROR and finding.file == "families/toy/README.md"
    assert finding.line == line_of(study, "FP8 already gives no speedup")
    assert "NVFP4 is declared not measured (not tried) but hand-written text names it with figures 1.01" in finding.message


def test_table_cell_naming_it_is_an_error(tmp_path):
    template = HEADER + "| Variant | ms |\n| --- | --- |\n| NVFP4 | 4.1 |\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    finding = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")[0]
    assert finding.line == line_of(study, "| NVFP4")
    assert "a table row names it with figures 4.1" in finding.message


def test_a_figure_recorded_for_it_is_an_error(tmp_path):
    variants = spec()["variants"] + [{"name": "nvfp4", "precision": "nvfp4", "label": "NVFP4"}]
    records = [record("job", [latency("fp16", 5.889), latency("nvfp4", 5.701)])]
    study = load(tmp_path, records=records, study=spec(variants=variants, not_measured=NOT_MEASURED))
    finding = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")[0]
    assert finding.file == "measurements/toy/job.json" and finding.pointer == "/results/1/value_ms"
    assert "job job reports latency 5.701 for nvfp4, but the study file lists NVFP4 as not measured (not tried)" in finding.message


def test_a_format_written_in_words_is_a_mention(tmp_path):
    # issue 12, item H: "a four-bit integer format" names INT4; "four-bit weights" alone names no int4
    not_measured = [{"config": "INT4", "aliases": ["int4"], "reason": "no calibration set",
                     "expectation": "a larger AP loss", "because": "fewer levels"}]
    template = (HEADER + "- {{ study.expectation('INT4') }}\n\n"
                "A four-bit integer format loses 2 AP points here.\n\n"
                "Four-bit weights need a calibration set first.\n")
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=not_measured))
    findings = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert [f.line for f in findings] == [line_of(study, "four-bit integer format")]
    assert "INT4 is declared not measured (no calibration set) but hand-written text names it with figures 2" in findings[0].message


def test_names_are_the_configuration_and_its_aliases_longest_first(tmp_path):
    # longest first, so that "NVFP4 linears" is one mention, not "NVFP4" and a stray word
    entry = {**NOT_MEASURED[0], "aliases": ["fp4", "NVFP4 linears", "NVFP4"]}
    assert sg206_unmeasured.names(entry) == ["NVFP4 linears", "NVFP4", "fp4"]
    lines = ["The NVFP4 linears and fp4-x, not NVFP4s.", "Neither fp4-x nor NVFP4s is the configuration."]
    found = sg206_unmeasured._named_by_line(lines, sg206_unmeasured.mention_pattern(entry), sg206_unmeasured.names(entry))
    assert found == {0: [(4, 17)]}
    # what check reports of the same lines: the first names the configuration, the second only words like it
    template = HEADER + "- {{ study.expectation('NVFP4') }}\n\n" + "\n\n".join(lines) + "\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=[entry]))
    findings = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert [f.line for f in findings] == [line_of(study, "The NVFP4 linears")]
    assert findings[0].message == ('NVFP4 is declared not measured (not tried) but hand-written text names it: '
                                   '"The NVFP4 linears and fp4-x, not NVFP4s."')


def test_names_found_in_the_lines_searched_as_one_text_are_those_found_line_by_line():
    entry = {"config": "NVFP4", "aliases": ["fp4", "NVFP4 linears"], "reason": "r"}
    lines = ["NVFP4", "x-fp4 fp4", "", "-NVFP4 linears", "fp4-", "nvfp4s NvFp4"]
    found = sg206_unmeasured._named_by_line(lines, sg206_unmeasured.mention_pattern(entry), sg206_unmeasured.names(entry))
    assert found == {0: [(0, 5)], 1: [(6, 9)], 5: [(7, 12)]}


@given(lines=st.lists(st.lists(st.sampled_from(["fp4", "FP4", "nv", "NV", "-", " ", "x", "4", "ı", "_", "ſ", "S", "K",
                                                "\u212a", "İ", "i"]), max_size=8).map("".join), max_size=6),
       aliases=st.lists(st.sampled_from(["fp4", "nv fp4", "NV-FP4", "fp4\nx", "x", "s", "ſ", "k", "ik"]), max_size=3))
def test_searching_the_lines_as_one_text_finds_what_each_line_holds(lines, aliases):
    entry = {"config": "NVFP4", "aliases": aliases, "reason": "r"}
    pattern = sg206_unmeasured.mention_pattern(entry)
    by_line = {index: [m.span() for m in pattern.finditer(line)] for index, line in enumerate(lines)}
    assert sg206_unmeasured._named_by_line(lines, pattern, sg206_unmeasured.names(entry)) == {
        index: spans for index, spans in by_line.items() if spans}


class _Reading:
    """A mention pattern that notes each text it is asked to read."""

    def __init__(self, pattern):
        self.pattern, self.read = pattern, []

    def finditer(self, text, *args):
        self.read.append(text)
        return self.pattern.finditer(text, *args)


def test_the_pattern_reads_only_lines_that_may_name_the_configuration():
    """Lines whose lower case holds no name, and that are ASCII, are not
    given to the pattern (it tries every position of what it reads); a line
    that is not ASCII is, since case folds there as ``str.lower()`` does not."""
    entry = {"config": "NVFP4", "aliases": ["fp4 linears"], "reason": "r"}
    lines = ["The fp16 engine is faster.", "nvfp4 was not tried", "| int8 | 0.5 |", "FP4 Linears", "ſ × 2", "fp4"]
    pattern = _Reading(sg206_unmeasured.mention_pattern(entry))
    found = sg206_unmeasured._named_by_line(lines, pattern, sg206_unmeasured.names(entry))
    assert found == {1: [(0, 5)], 3: [(0, 11)]}
    assert pattern.read == ["nvfp4 was not tried", "FP4 Linears", "ſ × 2"]  # "fp4" alone is no name


def test_a_mention_in_another_case_than_every_name_is_an_error(tmp_path):
    not_measured = [{**NOT_MEASURED[0], "aliases": []}]
    template = HEADER + "- {{ study.expectation('NVFP4') }}\n\nAn Nvfp4 engine would be smaller.\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=not_measured))
    findings = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert [f.line for f in findings] == [line_of(study, "An Nvfp4 engine")]
    assert findings[0].message == ('NVFP4 is declared not measured (not tried) but hand-written text names it: '
                                   '"An Nvfp4 engine would be smaller."')


def test_one_finding_per_sentence_each_quoting_its_own_sentence_and_figures(tmp_path):
    line = "NVFP4 is not faster than nvfp4 alone. NVFP4 saves 2 and 3 ms here. FP8 is 1.01x."
    template = HEADER + "- {{ study.expectation('NVFP4') }}\n\n" + line + "\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    findings = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    lead = "NVFP4 is declared not measured (not tried) but hand-written text names it"
    assert [(f.line, f.message) for f in findings] == [
        (line_of(study, line), f'{lead}: "NVFP4 is not faster than nvfp4 alone."'),
        (line_of(study, line), f'{lead} with figures 2, 3: "NVFP4 saves 2 and 3 ms here."'),
    ]


def _variant_study(tmp_path, variant: dict, not_measured: dict, results: list[dict]):
    variants = spec()["variants"] + [variant]
    records = [record("job", [latency("fp16", 5.889), *results])]
    return load(tmp_path, records=records, study=spec(variants=variants, not_measured=[not_measured]))


@pytest.mark.parametrize("config, reason, variant, value", [
    # the variant's name and precision do not name it; its label does
    ("AWQ-W4", "no kernels", {"name": "quant-a", "precision": "int8", "label": "AWQ-W4"}, "4.75"),
    # the variant's name and label do not name it; its precision does
    ("INT4", "no calibration set", {"name": "quant-b", "precision": "int4", "label": "W4 weights"}, "4.5"),
])
def test_a_figure_of_a_variant_labelled_as_it_or_of_its_precision_is_an_error(tmp_path, config, reason, variant, value):
    not_measured = {"config": config, "reason": reason, "expectation": "e", "because": "b"}
    study = _variant_study(tmp_path, variant, not_measured, [latency(variant["name"], float(value))])
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.pointer == "/results/1/value_ms"
    assert finding.message == (f"job job reports latency {value} for {variant['name']}, but the study file lists {config} "
                               f"as not measured ({reason})")


def test_a_range_recorded_for_it_is_reported_with_both_ends(tmp_path):
    ranged = {"kind": "kernel_time", "variant": "nvfp4", "shape": "800x1067", "batch": 1, "backend": "tensorrt",
              "mode": "engine", "groups": [{"group": "GEMM", "time_ms_range": {"min": 0.19, "max": 0.21, "over": "three jobs"}}]}
    study = _variant_study(tmp_path, {"name": "nvfp4", "precision": "nvfp4"}, NOT_MEASURED[0], [ranged])
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.pointer == "/results/1/groups/0/time_ms_range"
    assert "job job reports kernel_time 0.19 to 0.21 for nvfp4, but the study file lists NVFP4" in finding.message


def test_a_result_of_an_undeclared_variant_named_like_it_is_still_reported(tmp_path):
    # the study has a load problem (SG202 reports it); SG206 still reads the row, by its variant name alone
    from studygen.study import load_study

    from .studies import write_project

    records = [record("job", [latency("fp16", 5.889), latency("nvfp4", 5.701)])]
    study = load_study(write_project(tmp_path, records=records, study=spec(not_measured=NOT_MEASURED)), tmp_path)
    assert any("variant 'nvfp4' is not declared" in str(problem) for problem in study.problems)
    (finding,) = sg206_unmeasured.record_findings(study, NOT_MEASURED)
    assert finding.code == "SG206" and finding.pointer == "/results/1/value_ms"


# ---- issue 22: helper output that states no result ------------------------------------------------

DECLARED = "- {% for v in study.spec.variants %}{{ study.variant_entry(v) }} {% endfor %}\n"
REVISIT = "{% for item in study.revisit_conditions() %}- {{ item }}\n{% endfor %}"


def test_the_variants_list_and_revisit_conditions_may_name_it_hand_written_text_may_not(tmp_path):
    # fp8 (label "FP8 engine", alias fp8) is declared not measured; the Variants list declares it, a
    # revisit_when entry is a condition; the same words written by hand are still findings
    variants = [{"name": "fp16", "precision": "fp16"}, {"name": "fp8", "precision": "fp8", "label": "FP8 engine"}]
    entry = [{"config": "FP8 engine", "aliases": ["fp8"], "reason": "no FP8 kernels on this GPU"}]
    decision = {"shipped": False, "summary": "Keep fp16.",
                "revisit_when": ["a vendor publishes an FP8 engine run of this model at 7.5 ms"]}
    template = HEADER + DECLARED + "\n" + REVISIT + "\nThe FP8 engine would be 2x faster.\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=template,
                 study=spec(title="Toy detector", variants=variants, not_measured=entry, decision=decision))
    lines = readme_lines(study)
    assert "- **fp16** **FP8 engine** (`fp8`)" in lines
    assert "- a vendor publishes an FP8 engine run of this model at 7.5 ms" in lines
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.line == line_of(study, "would be 2x faster")


def test_a_revisit_line_printed_as_it_is_still_counts(tmp_path):
    # the mechanism is the helper, not the words: the same string printed from the study file directly is hand text
    entry = [{"config": "fp8", "reason": "not tried"}]
    decision = {"shipped": False, "summary": "Keep fp16.", "revisit_when": ["someone publishes an fp8 run"]}
    template = HEADER + "{% for item in study.decision.revisit_when %}- {{ item }}\n{% endfor %}"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=template,
                 study=spec(title="Toy detector", not_measured=entry, decision=decision))
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    # still hand text, and text of the study file: the finding names the entry, not the README line printing it
    assert (finding.file, finding.line, finding.pointer) == (
        "families/toy/study.yaml", yaml_line(study.spec_text, "decision", "revisit_when", 0), "/decision/revisit_when/0")
    assert f"(families/toy/README.md line {line_of(study, 'someone publishes an fp8 run')}): say here that it was " \
           "not measured, or leave it out" in finding.hint and "study.expectation" not in finding.hint


NOTES = ("{% for job, note in study.record_notes() %}- {{ job }}: {{ note }}\n{% endfor %}\n"
         "{% for jobs, note in study.shared_record_notes() %}- {{ jobs }}: {{ note }}\n{% endfor %}")


def test_a_records_note_on_its_input_may_name_it_the_same_words_by_hand_may_not(tmp_path):
    # new-user trial: collect's note on a log that loads a built plan quotes the log's builder-default
    # precision line ("Precision: FP32"); the study lists fp32 as not measured. The note says what the
    # input holds, not a result: printed by either notes helper it is no finding, copied by hand it is one.
    entry = [{"config": "fp32", "reason": "no fp32 engine was built"}]
    note = "its line 11 'Precision: FP32' is trtexec's builder default, not the plan's"
    provenance = dict(collected_provenance(), notes=[note])
    template = HEADER + NOTES + f"\n{note}.\n"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)], provenance=provenance)],
                 template=template, study=spec(not_measured=entry))
    lines = readme_lines(study)
    assert lines.count(f"- job: {note}") == 2  # once by each helper
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.line == line_of(study, f"{note}.") and finding.line > max(
        index + 1 for index, line in enumerate(lines) if line.startswith("- job:"))
    assert "hand-written text names it with figures 11" in finding.message


def test_record_figures_read_the_variants_once_for_every_row_and_entry(tmp_path, monkeypatch):
    """The study's variants (a dict made anew each time it is asked) are read
    once for the record rule, not once a row per declared configuration."""
    from studygen.study import Study

    entries = [NOT_MEASURED[0], {"config": "W4", "reason": "no kernels"}]
    records = [record(f"job{n}", [latency("fp16", 5.889), latency("fp8", 5.850)]) for n in range(3)]
    study = load(tmp_path, records=records, study=spec(not_measured=entries))
    assert len(study.rows) == 6  # made before counting (the rows read the variants too)
    asked = []
    real = Study.variants.fget
    monkeypatch.setattr(Study, "variants", property(lambda self: asked.append(1) or real(self)))
    assert sg206_unmeasured.record_findings(study, entries) == []
    assert len(asked) == 1  # no GPU named by either configuration: config_parts asks none


# ---- trial s20: a sentence that only says the configuration was not measured ----------------------

SUMMARY = HEADER + "{{ study.decision.summary }}\n"


@pytest.mark.parametrize("said", [
    "Keep fp16. int8 was not measured.",
    "Keep fp16. INT8 on this board has not been tried yet, for want of a calibration set.",
    "Keep fp16; we did not measure int8.",
    "Keep fp16. We have not tried int8.",
    "Keep fp16. int8 was not attempted.",
])
def test_a_summary_that_only_says_it_was_not_measured_is_no_finding(tmp_path, said):
    # the hint to a study-file field reads "say here that it was not measured": a sentence doing just that passes
    entry = [{"config": "int8", "reason": "no calibration cache"}]
    decision = {"shipped": False, "summary": said}
    study = load(tmp_path, records=[record("job", [latency("fp16", 0.1547)])], template=SUMMARY,
                 study=spec(not_measured=entry, decision=decision))
    assert said in readme_lines(study)
    assert codes(sg206_unmeasured.check(CheckContext(study)), "SG206") == []


@pytest.mark.parametrize("said, quoted", [
    # a declaration followed by a result, a figure, or a declaration about something else naming it
    ("Keep fp16. int8 was not measured, but it would gain little.", "int8 was not measured, but it would gain little."),
    ("Keep fp16. int8 was not measured; it needs 0.2 ms.", "int8 was not measured;"),
    ("Keep fp16. int8 was not measured at 0.31 ms.", "int8 was not measured at 0.31 ms."),
    ("Keep fp16. Beside int8, fp32 was not measured.", "Beside int8, fp32 was not measured."),
    ("Keep fp16. We did not measure fp32 since int8 beats it.", "We did not measure fp32 since int8 beats it."),
])
def test_a_declaration_that_also_says_more_is_still_a_finding(tmp_path, said, quoted):
    entry = [{"config": "int8", "reason": "no calibration cache"}]
    decision = {"shipped": False, "summary": said}
    study = load(tmp_path, records=[record("job", [latency("fp16", 0.1547)])], template=SUMMARY,
                 study=spec(not_measured=entry, decision=decision))
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.pointer == "/decision/summary"
    assert finding.message.endswith(f'"{quoted}"')


# ---- attack s20: a configuration whose name holds a number ----------------------------------------

VERSIONED = [{"config": "fp16 on TensorRT 8.2.3", "reason": "its build log ends in FAILED"}]


def test_a_declaration_of_a_configuration_with_a_version_in_its_name_is_no_finding(tmp_path):
    # the version in the name is no figure stated about it: the hint's own wording must pass
    decision = {"shipped": False, "summary": "Keep fp32. fp16 on TensorRT 8.2.3 was not measured."}
    study = load(tmp_path, records=[record("job", [latency("fp16", 0.1547)])], template=SUMMARY,
                 study=spec(not_measured=VERSIONED, decision=decision))
    assert codes(sg206_unmeasured.check(CheckContext(study)), "SG206") == []


def test_a_result_about_it_lists_only_the_figures_outside_its_name(tmp_path):
    decision = {"shipped": False, "summary": "Keep fp32. fp16 on TensorRT 8.2.3 takes 0.2 ms."}
    study = load(tmp_path, records=[record("job", [latency("fp16", 0.1547)])], template=SUMMARY,
                 study=spec(not_measured=VERSIONED, decision=decision))
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert "names it with figures 0.2:" in finding.message
    assert finding.message.endswith('"fp16 on TensorRT 8.2.3 takes 0.2 ms."')


# ---- mutation run s20: what the declaration rule and the finding text hold to ---------------------

@pytest.mark.parametrize("line, start, end, expected", [
    # it opens after the '. ' before the mention and closes at the first '. ' after it, not a later one
    ("Keep fp16. int8 was not measured. It needs a cache. Later.", 11, 15, ("int8 was not measured.", 0)),
    # a ';' ends no sentence here; the line's end closes one without a full stop
    ("Keep fp16. int8 was not measured; it needs 0.2 ms", 11, 15, ("int8 was not measured; it needs 0.2 ms", 0)),
    # a list mark goes, and the offset moves with it
    ("- int8 was not measured.", 2, 6, ("int8 was not measured.", 0)),
    # emphasis on both sides goes
    ("**int8 was not measured.**", 2, 6, ("int8 was not measured.", 0)),
    # letters at either end stay, the first word's and the last word's
    ("* XLA int8 was not tried on the AGX", 6, 10, ("XLA int8 was not tried on the AGX", 4)),
])
def test_the_full_sentence_runs_from_its_start_to_its_full_stop(line, start, end, expected):
    assert sg206_unmeasured._full_sentence(line, start, end) == expected


def test_what_follows_a_declaration_after_its_full_stop_is_no_part_of_it(tmp_path):
    # "It gains 2 ms." holds an outcome word and a figure, but names nothing: the declaration before it passes;
    # a second sentence that names it with a result is still a finding, the first one passing
    entry = [{"config": "int8", "reason": "no calibration cache"}]
    decision = {"shipped": False, "summary": "Keep fp16. int8 was not measured. It gains 2 ms. Done.\n\n"
                                             "int8 was not tried. int8 saves 3 ms."}
    study = load(tmp_path, records=[record("job", [latency("fp16", 0.1547)])], template=SUMMARY,
                 study=spec(not_measured=entry, decision=decision))
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.pointer == "/decision/summary"
    assert finding.message == ('int8 is declared not measured (no calibration cache) but hand-written text names it '
                               'with figures 3: "int8 saves 3 ms."')
    assert finding.hint == (f"edit /decision/summary in this file, which the README prints as written "
                            f"(families/toy/README.md line {line_of(study, 'int8 saves 3 ms')}): say here that it was not "
                            "measured, or leave it out (the README's Not measured list gives its reason); then run "
                            "studygen render")


def test_a_number_in_a_gpu_name_is_no_figure_of_a_declaration_or_of_a_result(tmp_path):
    # the records ran on the GeForce GTX 1070: its "1070" is a name's, so the first sentence only declares
    # int8 not measured, and the second states 0.1 ms alone
    template = (HEADER + "Keep fp16. INT8 on the GTX 1070 has not been tried yet.\n\n"
                "int8 on the GTX 1070 would take 0.1 ms.\n")
    records = [record("job", [latency("fp16", 0.1547)], provenance=collected_provenance(gpu="NVIDIA GeForce GTX 1070"))]
    study = load(tmp_path, records=records, template=template,
                 study=spec(not_measured=[{"config": "int8", "reason": "no calibration cache"}]))
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.line == line_of(study, "would take 0.1 ms")
    assert finding.message == ('int8 is declared not measured (no calibration cache) but hand-written text names it '
                               'with figures 0.1: "int8 on the GTX 1070 would take 0.1 ms."')
    assert finding.hint == "state it only through study.expectation('int8'), which prints hedged wording"
    declaration = "INT8 on the GTX 1070 has not been tried yet."
    assert sg206_unmeasured.declares_unmeasured(declaration, 0, re.compile(r"gtx 1070", re.I))
    assert not sg206_unmeasured.declares_unmeasured(declaration, 0)  # without the names, 1070 is a figure


def test_hand_text_after_the_expectation_on_its_line_is_still_read(tmp_path):
    template = HEADER + "- {{ study.expectation('NVFP4') }} Still, NVFP4 saves 2 ms.\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.message == ('NVFP4 is declared not measured (not tried) but hand-written text names it with '
                               'figures 2: "Still, NVFP4 saves 2 ms."')


def test_a_results_table_printed_by_a_helper_naming_it_is_a_finding(tmp_path):
    # a table is helper output, but of a kind that states results: its header names fp8
    entry = [{"config": "fp8", "reason": "no FP8 kernels", "expectation": "e", "because": "b"}]
    template = HEADER + "{{ study.table(index=('job_id',), variants=('fp16', 'fp8'), kind='latency') }}\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(title="Toy detector", not_measured=entry))
    findings = codes(sg206_unmeasured.readme_findings(CheckContext(study), entry), "SG206")
    assert [(f.line, f.message) for f in findings] == [(line_of(study, "| Job"), (
        'fp8 is declared not measured (no FP8 kernels) but a table row names it: "| Job | fp16 | FP8 |"'))]


def test_a_table_row_is_quoted_and_read_for_figures_whole_and_once(tmp_path):
    # a cell's ". " ends no sentence of a row; the row's second mention adds no finding, the next line's does
    template = HEADER + "| NVFP4 | est. 4.1 | nvfp4 |\n\nNVFP4 saves 2 ms.\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    findings = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    lead = "NVFP4 is declared not measured (not tried) but"
    assert [(f.line, f.message) for f in findings] == [
        (line_of(study, "| NVFP4"), f'{lead} a table row names it with figures 4.1: "| NVFP4 | est. 4.1 | nvfp4 |"'),
        (line_of(study, "NVFP4 saves"), f'{lead} hand-written text names it with figures 2: "NVFP4 saves 2 ms."')]


def test_a_record_finding_reads_past_a_not_measured_result_and_says_what_to_do(tmp_path):
    variants = spec()["variants"] + [{"name": "nvfp4", "precision": "nvfp4"}]
    refused = {"kind": "not_measured", "variant": "nvfp4", "shape": "800x800", "mode": "engine", "backend": "tensorrt",
               "metric": "latency", "reason": "no FP4 kernels"}
    records = [record("job", [refused, latency("nvfp4", 5.701)])]
    study = load(tmp_path, records=records, study=spec(variants=variants, not_measured=NOT_MEASURED))
    (finding,) = sg206_unmeasured.record_findings(study, NOT_MEASURED)
    assert finding.pointer == "/results/1/value_ms"
    assert finding.hint == "remove the figure, or remove the configuration from not_measured"


def test_names_holding_a_newline_or_other_than_ascii_are_found_line_by_line():
    # a name holding a newline matches no text across two lines
    entry = {"config": "µ-batch 4", "aliases": ["µ\nbatch"], "reason": "r"}
    lines = ["µ", "batch µ-batch 4"]
    pattern = sg206_unmeasured.mention_pattern(entry)
    assert sg206_unmeasured._named_by_line(lines, pattern, sg206_unmeasured.names(entry)) == {1: [(6, 15)]}
    # names other than ASCII: the lines searched as one text, each match placed on its own line
    entry = {"config": "µ-batch 4", "reason": "r"}
    lines = ["µ-batch 4", "none here", "µ-batch 4 and µ-batch 4", "", "at µ-batch 4"]
    pattern = sg206_unmeasured.mention_pattern(entry)
    assert sg206_unmeasured._named_by_line(lines, pattern, sg206_unmeasured.names(entry)) == {
        0: [(0, 9)], 2: [(0, 9), (14, 23)], 4: [(3, 12)]}


AMPERE, PASCAL = collected_provenance(gpu="NVIDIA GeForce RTX 3090"), collected_provenance(gpu="NVIDIA GeForce GTX 1070")


def test_a_variant_named_by_its_label_alone_on_the_only_gpu_is_named_by_its_parts(tmp_path):
    # records on one GPU: no other GPU to compare with, so a sentence naming the label and the GPU names it
    variants = spec()["variants"] + [{"name": "quant-a", "precision": "int8", "label": "W8A8"}]
    entry = {"config": "W8A8 on the RTX 3090", "reason": "no calibration set"}
    study = load(tmp_path, records=[record("ampere", [latency("fp16", 0.0612)], provenance=AMPERE)],
                 template=HEADER + "On the RTX 3090, W8A8 takes 0.3 ms.\n", study=spec(variants=variants, not_measured=[entry]))
    parts = sg206_unmeasured.config_parts(study, entry)
    assert (parts.variants, parts.gpus, parts.other_gpus) == ({"quant-a"}, {"NVIDIA GeForce RTX 3090"}, None)
    # by its name alone, too
    by_name = sg206_unmeasured.config_parts(study, {"config": "quant-a on the RTX 3090", "reason": "r"})
    assert by_name.variants == {"quant-a"}
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.message == ('W8A8 on the RTX 3090 is declared not measured (no calibration set) but hand-written '
                               'text names it with figures 0.3: "On the RTX 3090, W8A8 takes 0.3 ms."')


def test_a_configuration_of_two_variants_on_two_gpus_is_named_by_any_pair(tmp_path):
    entry = {"config": "fp32 or fp16 on the RTX 3090 or the GTX 1070", "reason": "r"}
    records = [record("ampere", [latency("fp8", 0.05)], provenance=AMPERE),
               record("pascal", [latency("fp8", 0.2)], provenance=PASCAL)]
    template = HEADER + "fp32 runs at 2 ms on the GTX 1070.\n\nfp8 runs at 0.05 ms on the RTX 3090.\n"
    study = load(tmp_path, records=records, template=template, study=spec(not_measured=[entry]))
    parts = sg206_unmeasured.config_parts(study, entry)
    assert parts.variants == {"fp32", "fp16"} and parts.other_gpus is None
    assert [m.group() for m in parts.variant.finditer("FP32, fp16 and fp8")] == ["FP32", "fp16"]
    assert [m.group() for m in parts.gpu.finditer("rtx 3090, gtx 1070, h200")] == ["rtx 3090", "gtx 1070"]
    (finding,) = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")
    assert finding.line == line_of(study, "fp32 runs at 2 ms")


def test_a_gpu_named_only_as_the_end_of_a_longer_gpu_name_is_that_gpus(tmp_path):
    # two records spell the card two ways; "A6000" in "RTX A6000" ends where the longer name ends
    records = [record("one", [latency("fp16", 0.05)], provenance=collected_provenance(gpu="NVIDIA RTX A6000")),
               record("two", [latency("fp16", 0.05)], provenance=collected_provenance(gpu="NVIDIA A6000"))]
    study = load(tmp_path, records=records, study=spec())
    parts = sg206_unmeasured.config_parts(study, {"config": "fp32 on the RTX A6000", "reason": "r"})
    assert parts.gpus == {"NVIDIA RTX A6000"}
    assert [m.group() for m in parts.other_gpus.finditer("rtx a6000 and a6000")] == ["a6000", "a6000"]


@pytest.mark.parametrize("base, done", MEASURING_VERBS)
def test_every_measuring_verb_of_lints_list_declares(base, done):
    # SG206 and lint's SG106 read one list of measuring verbs, in both voices
    for sentence in (f"int8 was not {done}.", f"We did not {base} int8.", f"We have not {done} int8."):
        assert sg206_unmeasured.declares_unmeasured(sentence, sentence.index("int8")), sentence
    assert not sg206_unmeasured.declares_unmeasured(f"int8 was {done}.", 0)
