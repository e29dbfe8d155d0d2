"""Figures in a study file's prose written with more digits than any record
holds, and study files with many findings: check reads them without
stopping and in one pass over the file. Attack cases (made-up figures): a
decision summary quoting "7.000…01 ms" with 400 decimals stopped check with
an internal error (OverflowError in the cut of a figure to its decimals, read
by SG205, SG212 and SG222); a 30,000-decimal quote held 1.8 GB in SG222's
index of near figures; 3,000 misquoted figures in one field took 95 s, the
whole study file composed again for each finding's line."""

from __future__ import annotations

from studygen.checks import CheckContext, run_checks
from studygen.checks.prose_figures import matches, printed_as
from studygen.checks.sg222_misquoted_figures import check as sg222

from .studies import codes, latency, load, record, spec

LONG_ZEROS = "0" * 400


def _study(tmp_path, summary: str, value_ms: float = 7.0):
    return load(tmp_path, records=[record("job-a", [latency("fp16", value_ms, "28x28")])],
                study=spec(decision={"shipped": False, "summary": summary}))


def test_a_figure_cut_to_hundreds_of_decimals_is_cut_exactly():
    # 7.0 and 0.5 are exact binary fractions: every decimal past the point is a zero
    assert printed_as(7.0, 401) == ("7." + LONG_ZEROS + "0", "7." + LONG_ZEROS + "0")
    assert printed_as(0.5, 400) == ("0.5" + "0" * 399, "0.5" + "0" * 399)
    assert matches("7." + LONG_ZEROS + "0", 7.0)
    assert not matches("7." + LONG_ZEROS + "1", 7.0)


def test_a_comparison_quoting_a_figure_of_hundreds_of_decimals_is_checked(tmp_path):
    study = _study(tmp_path, f"fp16 at 7.{LONG_ZEROS}1 ms is faster than fp32 at 12.34 ms.")
    findings = run_checks(study)  # raised OverflowError before
    assert codes(findings, "SG222") == []  # too long to be a quotation of a record


def test_a_figure_longer_than_a_record_prints_is_no_quotation(tmp_path):
    # 33 characters, one digit from the record's 7.0 at 31 decimals: not read; 32 characters: read
    assert sg222(CheckContext(_study(tmp_path, "It runs at 7." + "0" * 30 + "1 ms."))) == []
    (finding,) = sg222(CheckContext(_study(tmp_path, "It runs at 7." + "0" * 29 + "1 ms.")))
    assert finding.message.startswith("/decision/summary quotes 7." + "0" * 29 + "1 ms, which no measured figure")


def test_many_findings_in_one_field_compose_the_study_file_once(tmp_path, monkeypatch):
    import yaml

    summary = " ".join(f"Run {i} took 7.01 ms." for i in range(40))
    study = _study(tmp_path, summary)
    composed = []
    real = yaml.compose
    monkeypatch.setattr(yaml, "compose", lambda text, **kw: composed.append(text) or real(text, **kw))
    findings = sg222(CheckContext(study))
    assert len(findings) == 40
    assert len(composed) == 1
    # each finding still names the line its figure stands on: the summary is folded over several lines
    text = (tmp_path / "families" / "toy" / "study.yaml").read_text()
    starts, at = [], text.find("7.01")
    while at != -1:
        starts.append(text.count("\n", 0, at) + 1)
        at = text.find("7.01", at + 1)
    assert [finding.line for finding in findings] == starts
    assert len(set(starts)) > 1
