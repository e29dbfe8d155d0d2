"""SG213 (warning): a ratio, verdict or range built on a timing flagged unstable."""

from __future__ import annotations

from studygen.checks import CheckContext, sg213_unstable
from studygen.findings import WARNING

from .studies import latency, line_of, load, record

TEMPLATE = ("{{ generated_note }}\n\n# {{ study.title }}\n\n"
            "fp16 over FP8: {{ study.ratio_span('fp16', 'fp8', kind='latency') }}.\n\n"
            "{{ study.table(index=('job_id',), variants=('fp16', 'fp8'), kind='latency') }}\n")


def test_ratio_on_an_unstable_timing_warns(tmp_path):
    results = [latency("fp16", 5.889, unstable=True, unstable_reason="GPU compute time is unstable, CV 44%"),
               latency("fp8", 5.85)]
    study = load(tmp_path, records=[record("job", results)], template=TEMPLATE)
    findings = sg213_unstable.check(CheckContext(study))
    assert len(findings) == 1  # the ratio; the table that only shows the figure is not flagged
    finding = findings[0]
    assert finding.code == "SG213" and finding.severity == WARNING
    assert finding.line == line_of(study, "fp16 over FP8:")
    assert finding.message.startswith('range "1.01x" is built on an unstable timing')  # ratio_span: a range of ratios
    assert "5.889 ms (fp16, job job): GPU compute time is unstable, CV 44%" in finding.message


def test_stable_timings_pass(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.85)])], template=TEMPLATE)
    assert sg213_unstable.check(CheckContext(study)) == []
