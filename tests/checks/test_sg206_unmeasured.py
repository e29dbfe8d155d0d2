"""SG206: a configuration declared not measured appears only through study.expectation."""

from __future__ import annotations

from studygen.checks import CheckContext, sg206_unmeasured
from studygen.findings import ERROR

from .studies import codes, latency, line_of, load, readme_lines, record, spec

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
NOT_MEASURED = [{"config": "NVFP4", "aliases": ["nvfp4"], "reason": "not tried",
                 "expectation": "no latency gain from the linears alone",
                 "because": "the linears are a small share of engine time"}]
RECORDS = [record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])]


def test_expectation_helper_is_the_only_way(tmp_path):
    template = HEADER + "- {{ study.expectation('NVFP4') }}\n"
    study = load(tmp_path, records=RECORDS, template=template, study=spec(not_measured=NOT_MEASURED))
    assert ("- Not measured: NVFP4 (not tried); expected, not measured: no latency gain from the linears alone, "
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
