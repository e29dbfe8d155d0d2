"""SG213 (warning): a ratio, verdict or range built on a timing flagged unstable, or such a timing quoted in the
study file's prose."""

from __future__ import annotations

from studygen.checks import CheckContext, sg213_unstable
from studygen.findings import WARNING

from .studies import collected_provenance, latency, line_of, load, readme_lines, record

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
    assert "5.889 ms (fp16, 800x800, batch 1, job job): GPU compute time is unstable, CV 44%" in finding.message


def test_stable_timings_pass(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889), latency("fp8", 5.85)])], template=TEMPLATE)
    assert sg213_unstable.check(CheckContext(study)) == []


def test_each_unstable_output_once_with_every_unstable_timing(tmp_path):
    # the same ratio printed twice on one line is one finding; a second line is a second one
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n"
                "Ratio: {{ study.ratio_span('fp16', 'fp8', kind='latency') }}, again "
                "{{ study.ratio_span('fp16', 'fp8', kind='latency') }}.\n\n"
                "Range: {{ study.span(study.figures(kind='latency')) }}.\n")
    results = [latency("fp16", 5.889, unstable=True, unstable_reason="CV 44%"), latency("fp8", 5.85, unstable=True)]
    study = load(tmp_path, records=[record("job", results)], template=template)
    findings = sg213_unstable.check(CheckContext(study))
    timings = "5.889 ms (fp16, 800x800, batch 1, job job): CV 44%; 5.85 ms (fp8, 800x800, batch 1, job job): flagged unstable"
    assert [(f.line, f.message) for f in findings] == [
        (line_of(study, "Ratio:"), f'range "1.01x" is built on an unstable timing: {timings}'),
        (line_of(study, "Range:"), f'range "5.85 to 5.889 ms" is built on an unstable timing: {timings}'),
    ]
    assert {f.hint for f in findings} == {"re-measure until the timing is stable (lock clocks, more iterations), then render again"}


def test_a_side_finding_on_an_unstable_timing_names_its_kind_in_words(tmp_path):
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n## Side findings\n\n"
                "{% for line in study.precision_inversions() %}\n- {{ line }}\n{% endfor %}\n")
    results = [latency("fp32", 13.99, "800x1067"), latency("fp16", 14.747, "800x1067", unstable=True, unstable_reason="CV 30%")]
    study = load(tmp_path, records=[record("job", results)], template=template)
    (finding,) = sg213_unstable.check(CheckContext(study))
    # the side finding is quoted whole, both figures as the README prints them (14.75: 4 significant digits);
    # the timing after it is the record's
    assert finding.message.startswith('side finding "fp16 is slower than fp32 on H200 with TensorRT ')
    assert finding.message.endswith(' at 800 x 1067: 14.75 ms against 13.99 ms (job job)." '
                                    "is built on an unstable timing: 14.747 ms (fp16, 800x1067, batch 1, job job): CV 30%")



def test_a_timing_trtexec_flagged_names_its_coefficient_of_variation_with_the_records_digits(tmp_path):
    # the reason collect trtexec writes says who flagged the timing; the figure is the record's cv, quoted whole
    flagged = "trtexec flagged the GPU compute time as unstable (b.log:6475)"
    results = [latency("fp16", 5.889, unstable=True, unstable_reason=flagged, distribution={"cv": 0.443558}),
               latency("fp8", 5.85)]
    study = load(tmp_path, records=[record("job", results)], template=TEMPLATE)
    (finding,) = sg213_unstable.check(CheckContext(study))
    assert finding.message.endswith(f"5.889 ms (fp16, 800x800, batch 1, job job): coefficient of variation 44.3558%; {flagged}")


# Two tables with the same header cells (one per GPU), each printing the ratio "1.50x" in two rows.
TWO_TABLES = ("{{ generated_note }}\n\n# {{ study.title }}\n\n"
              "{% for gpu in ['NVIDIA H200', 'NVIDIA L4'] %}{{ gpu }}:\n\n"
              "{{ study.table(index=('shape', 'batch'), variants=('fp16', 'fp32'), gpu=gpu, kind='latency', "
              "derived=[('ratio', 'fp32', 'fp16', 'fp32 / fp16')], sort=True) }}\n\n{% endfor %}")


def _gpu_job(job_id, gpu, unstable_at=None):
    """fp16 and fp32 at two shapes and batches 1 and 8, every fp32 / fp16 ratio 1.50x."""
    results = []
    for shape, base in (("640x640", 1.2), ("1280x1280", 4.8)):
        for batch in (1, 8):
            fp16 = round(base * batch, 3)
            flagged = {"unstable": True, "unstable_reason": "CV 9%"} if (shape, batch) == unstable_at else {}
            results += [latency("fp16", fp16, shape, batch=batch, **flagged),
                        latency("fp32", round(fp16 * 1.5, 4), shape, batch=batch)]
    return record(job_id, results, provenance=collected_provenance(gpu=gpu))


def test_a_ratio_cell_is_reported_at_its_own_row_of_its_own_table(tmp_path):
    # "1.50x" stands in eight rows of two tables with the same headers: the finding names the row of the
    # unstable timing (L4, 1280 x 1280, batch 8), not the first table's header
    study = load(tmp_path, records=[_gpu_job("h200", "NVIDIA H200"),
                                    _gpu_job("l4", "NVIDIA L4", unstable_at=("1280x1280", 8))], template=TWO_TABLES)
    (finding,) = sg213_unstable.check(CheckContext(study))
    lines = readme_lines(study)
    assert lines[finding.line - 1].startswith("| 1280 x 1280 | 8 ")
    assert lines[finding.line - 1].endswith("| 1.50x       |")
    assert finding.line > line_of(study, "NVIDIA L4:")  # the second table
    assert finding.message == ('ratio "1.50x" is built on an unstable timing: 38.4 ms (fp16, 1280x1280, batch 8, '
                               'job l4): CV 9%')


# ---- the study file's prose (a new user's decision quoted two timings flagged unstable, CV 252.6 %) ----

PROSE_TEMPLATE = "{{ generated_note }}\n\n# {{ study.title }}\n\n{{ study.spec.decision.summary }}\n"


def prose_study(tmp_path, summary: str, results: list[dict], template: str = PROSE_TEMPLATE):
    from .studies import spec

    return load(tmp_path, records=[record("job", results)], template=template,
                study=spec(decision={"shipped": False, "summary": summary}))


def unstable_fp32(value: float = 14.1721, shape: str = "800x800") -> dict:
    return latency("fp32", value, shape, unstable=True, unstable_reason="CV 252.6 % over all samples exceeds 5 %")


def test_a_decision_quoting_an_unstable_timing_warns_at_its_field(tmp_path):
    study = prose_study(tmp_path, "fp16 is faster: 5.889 ms against 14.17 ms for fp32.",
                        [latency("fp16", 5.889), unstable_fp32()])
    (finding,) = sg213_unstable.quoted_unstable(study, None)
    assert (finding.code, finding.severity, finding.file, finding.pointer) == (
        "SG213", WARNING, "families/toy/study.yaml", "/decision/summary")
    assert finding.message == ("/decision/summary quotes 14.17 ms, an unstable timing: 14.1721 ms (fp32, 800x800, "
                               "batch 1, job job): CV 252.6 % over all samples exceeds 5 %")
    assert finding.hint.startswith("re-measure until the timing is stable")
    assert [f.pointer for f in sg213_unstable.check(CheckContext(study))] == ["/decision/summary"]  # check runs it


def test_a_quote_a_stable_timing_gives_too_is_not_reported(tmp_path):
    # 14.17 is also the stable fp16 row at 640x640: the quote may be of that one
    results = [unstable_fp32(), latency("fp16", 14.168, "640x640")]
    assert sg213_unstable.quoted_unstable(prose_study(tmp_path, "It takes 14.17 ms.", results), None) == []
    # unless the sentence names the unstable row's variant: then only fp32's rows are read
    named = prose_study(tmp_path / "named", "fp32 takes 14.17 ms.", results)
    assert [f.message.split(":")[0] for f in sg213_unstable.quoted_unstable(named, None)] == [
        "/decision/summary quotes 14.17 ms, an unstable timing"]


def test_a_sentence_that_says_its_figure_is_unstable_or_a_field_not_printed_passes(tmp_path):
    said = prose_study(tmp_path, "fp32 takes 14.17 ms, a timing flagged unstable.", [unstable_fp32()])
    assert sg213_unstable.quoted_unstable(said, None) == []
    hidden = prose_study(tmp_path / "hidden", "fp32 takes 14.17 ms.", [unstable_fp32()],
                         template="{{ generated_note }}\n\n# {{ study.title }}\n")
    assert sg213_unstable.check(CheckContext(hidden)) == []
    short = prose_study(tmp_path / "short", "fp32 takes 14 ms.", [unstable_fp32()])
    assert sg213_unstable.quoted_unstable(short, None) == []  # two significant digits: a round figure, no quotation


def test_a_semicolon_joins_the_clause_that_says_the_figure_is_unstable(tmp_path):
    # a second new user's trial: "... 0.04395 ms at batch 4; trtexec flagged every one of these timings as
    # unstable." was warned for each figure, the sentence cut at its semicolon
    joined = prose_study(tmp_path, "Not shipped. fp32 takes 14.17 ms at batch 1; both runs were flagged unstable.",
                         [unstable_fp32()])
    assert sg213_unstable.quoted_unstable(joined, None) == []
    # the next sentence (after a full stop) says nothing of this one's figure; nor does an earlier one
    apart = prose_study(tmp_path / "apart", "Runs were unstable. fp32 takes 14.17 ms at batch 1. Ship it.",
                        [unstable_fp32()])
    assert [f.key for f in sg213_unstable.quoted_unstable(apart, None)] == ["/decision/summary 14.17 ms"]
    after = prose_study(tmp_path / "after", "fp32 takes 14.17 ms. The next run was unstable.", [unstable_fp32()])
    assert [f.key for f in sg213_unstable.quoted_unstable(after, None)] == ["/decision/summary 14.17 ms"]


def test_whole_sentence_ends_at_full_stops_only():
    text = "First one. Then 14.17 ms; flagged! Last? yes"
    assert sg213_unstable.whole_sentence(text, text.index("14.17")) == " Then 14.17 ms; flagged!"
    assert sg213_unstable.whole_sentence(text, 0) == "First one."
    assert sg213_unstable.whole_sentence(text, len(text) - 1) == " yes"
    assert sg213_unstable.whole_sentence("v1.5 is 14.17 ms", 8) == "v1.5 is 14.17 ms"  # a decimal point ends none


def test_a_quote_in_microseconds_is_read_in_milliseconds(tmp_path):
    study = prose_study(tmp_path, "fp32 takes 14172 us.", [unstable_fp32()])
    assert [f.key for f in sg213_unstable.quoted_unstable(study, None)] == ["/decision/summary 14172 us"]


def test_the_whole_prose_finding_with_two_unstable_timings_after_a_quote_of_another_unit(tmp_path):
    # 24.38 MiB is read first and passed over; 14.17 ms is given by two unstable jobs' rows, both named
    from .studies import spec

    summary = "The plan is 24.38 MiB; fp32 takes 14.17 ms."
    second = record("job2", [latency("fp32", 14.169, unstable=True, distribution={"cv": 0.453})])
    study = load(tmp_path, records=[record("job", [unstable_fp32()]), second], template=PROSE_TEMPLATE,
                 study=spec(decision={"shipped": False, "summary": summary}))
    (finding,) = sg213_unstable.quoted_unstable(study, None)
    assert finding.message == (
        "/decision/summary quotes 14.17 ms, an unstable timing: 14.1721 ms (fp32, 800x800, batch 1, job job): "
        "CV 252.6 % over all samples exceeds 5 %; 14.169 ms (fp32, 800x800, batch 1, job job2): coefficient of "
        "variation 45.3%; flagged unstable")
    assert finding.line == next(number for number, line in enumerate(study.spec_text.splitlines(), start=1)
                                if "summary:" in line)
    assert finding.hint == ("re-measure until the timing is stable (lock clocks, more iterations), or say in the "
                            "sentence that the figure is unstable and what it can still support")


def test_three_significant_digits_are_a_quotation_and_a_stable_figure_of_another_kind_is_one_too(tmp_path):
    three = prose_study(tmp_path, "fp32 takes 14.2 ms.", [unstable_fp32()])
    assert [f.key for f in sg213_unstable.quoted_unstable(three, None)] == ["/decision/summary 14.2 ms"]
    # a stable kernel group time of 14.17 ms may be what the sentence quotes
    from .studies import kernel_time

    kernel = prose_study(tmp_path / "kernel", "It takes 14.17 ms.", [unstable_fp32(), kernel_time("fp16", {"GEMM": 14.17})])
    assert sg213_unstable.quoted_unstable(kernel, None) == []


# ---- a second timing of an unstable run, and a figure before "against" (a new user's trial: "The RTX 3080 ...
# at 0.2754 ms" and "(0.04395 against 0.1536 ms)" passed, the first because trtexec's host latency of a run without
# data transfers equals its unstable GPU compute time and carries no verdict of its own) ----

NO_COPIES = {"timer": "trtexec", "data_transfers": False}


def test_a_stable_timing_of_the_same_run_is_that_runs_unstable_figure(tmp_path):
    compute = latency("fp8", 0.51793, "640x640", method=NO_COPIES, unstable=True, unstable_reason="CV 18 %")
    host = latency("fp8", 0.51793, "640x640", method=NO_COPIES, timing="host_latency")
    study = prose_study(tmp_path, "fp8 takes 0.5179 ms.", [compute, host])
    (finding,) = sg213_unstable.quoted_unstable(study, None)
    assert finding.message == ("/decision/summary quotes 0.5179 ms, an unstable timing: 0.51793 ms (fp8, 640x640, "
                               "batch 1, job job): CV 18 %")


def test_a_stable_timing_of_another_run_still_clears_the_quote(tmp_path):
    # the same figure from another shape, or from another job: the quote may be of that run
    compute = latency("fp8", 0.51793, "640x640", method=NO_COPIES, unstable=True, unstable_reason="CV 18 %")
    other = latency("fp8", 0.51788, "512x512", method=NO_COPIES, timing="host_latency")
    assert sg213_unstable.quoted_unstable(prose_study(tmp_path, "fp8 takes 0.5179 ms.", [compute, other]), None) == []


def test_a_figure_before_against_is_a_quote(tmp_path):
    results = [latency("fp16", 5.889), unstable_fp32()]
    study = prose_study(tmp_path, "fp16 is faster (14.17 against 5.889 ms).", results)
    assert [f.key for f in sg213_unstable.quoted_unstable(study, None)] == ["/decision/summary 14.17 ms"]
    for summary in ("fp16 is faster (14.17 vs. 5.889 ms).", "fp16 is faster (14.17 versus 5.889 ms)."):
        assert len(sg213_unstable.quoted_unstable(prose_study(tmp_path / str(len(summary)), summary, results),
                                                  None)) == 1


def test_a_timing_flagged_by_its_repeat_span_alone_names_no_cv_as_a_cause(tmp_path):
    # a new user's batch-32 fp16 timing: CV 3.81 % (under collect run's 5 % limit), flagged only because its
    # repeat medians spread wider than any repeat's interquartile range; the finding read "coefficient of
    # variation 3.81%; repeat medians span ..." as if the CV were a cause
    span = "repeat medians span 0.212 ms, more than the widest within-repeat interquartile range (0.187 ms)"
    results = [latency("fp16", 3.116, unstable=True, unstable_reason=span, distribution={"cv": 0.0381}),
               latency("fp8", 2.907, unstable=True, unstable_reason="trtexec flagged the GPU compute time unstable",
                       distribution={"cv": 0.0217})]
    study = load(tmp_path, records=[record("job", results)], template=TEMPLATE)
    (finding,) = sg213_unstable.check(CheckContext(study))
    assert finding.message == (
        'range "1.07x" is built on an unstable timing: 3.116 ms (fp16, 800x800, batch 1, job job): ' + span +
        "; 2.907 ms (fp8, 800x800, batch 1, job job): coefficient of variation 2.17%; trtexec flagged the GPU "
        "compute time unstable")
