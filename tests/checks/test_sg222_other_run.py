"""SG222 on a figure of another run (:mod:`studygen.checks.prose_misattributed`): a figure some row gives, quoted in
a clause that names runs none of whose figures gives it (a new user's trial, session 29: "The 26210e92 engine spends
0.3746 ms per iteration in convolution layers." passed where 0.3746 ms is the other engine's, and "The median ... is
0.4780 ms" passed where 0.4780 ms is the mean)."""

from __future__ import annotations

from studygen.checks import CheckContext, sg222_misquoted_figures
from studygen.checks.prose_misattributed import statistic_named

from .studies import collected_provenance, kernel_time, latency, load, record, spec

TEMPLATE = "{{ generated_note }}\n\n# {{ study.title }}\n\n{{ study.spec.decision.summary }}\n"


def findings(tmp_path, summary, second_gpu="NVIDIA GeForce RTX 2080 Ti"):
    # two fp16 runs, figures of my own: the TITAN V's median 1.234 ms (mean 1.3071), convolutions 0.8123 ms; the
    # RTX 2080 Ti's median 2.468 ms (mean 2.5312), convolutions 1.6047 ms
    runs = (("titanv-run", "NVIDIA TITAN V", 1.234, 1.3071, 0.8123),
            ("rtx2080ti-run", second_gpu, 2.468, 2.5312, 1.6047))
    records = [record(job, [latency("fp16", median, statistics_ms={"min": median - 0.1, "median": median,
                                                                    "mean": mean, "max": mean + 1}),
                            kernel_time("fp16", {"conv": conv, "other": 0.05}, total=conv + 0.05)],
                      collected_provenance(gpu=gpu))
               for job, gpu, median, mean, conv in runs]
    study = load(tmp_path, records=records, template=TEMPLATE,
                 study=spec(decision={"shipped": False, "summary": summary}))
    return [f for f in sg222_misquoted_figures.check(CheckContext(study)) if f.key.endswith("of another run")]


def test_a_figure_of_another_gpu_is_reported_naming_whose_it_is(tmp_path):
    (finding,) = findings(tmp_path, "On the TITAN V the fp16 median is 2.468 ms.")
    assert finding.message == (
        "/decision/summary quotes 2.468 ms of the TITAN V, fp16, which none of its figures gives as a median: it is "
        "job rtx2080ti-run's gpu_compute median (measurements/toy/rtx2080ti-run.json#/results/0/value_ms)")
    assert (finding.code, finding.pointer, finding.key) == ("SG222", "/decision/summary",
                                                            "/decision/summary 2.468 ms of another run")
    assert findings(tmp_path / "b", "On the TITAN V the fp16 median is 1.234 ms.") == []


def test_a_kept_statistic_counts_only_as_itself_where_the_clause_names_one(tmp_path):
    (finding,) = findings(tmp_path, "On the TITAN V the fp16 median is 1.307 ms.")
    assert "as a median: it is job titanv-run's gpu_compute mean" in finding.message
    assert findings(tmp_path / "b", "On the TITAN V the fp16 mean is 1.307 ms.") == []
    assert findings(tmp_path / "c", "On the TITAN V, fp16 averages 1.307 ms.") == []


def test_a_kernel_group_of_another_job(tmp_path):
    (finding,) = findings(tmp_path, "Convolutions take 1.605 ms in job titanv-run.")
    assert "of job titanv-run, which none of its figures gives: it is job rtx2080ti-run's conv" in finding.message
    assert findings(tmp_path / "b", "Convolutions take 0.8123 ms in job titanv-run.") == []


def test_what_is_not_read(tmp_path):
    summaries = [
        "fp16 takes 2.468 ms.",  # names no run apart from the variant every run has
        "On the TITAN V fp16 takes 1.234 ms against 2.468 ms on the other card.",  # a second figure
        "The RTX 2080 Ti takes 2.468 ms where the TITAN V takes half as long.",  # names both GPUs
        "We never measured 2.468 ms on the TITAN V.",  # a denial
        "On the TITAN V fp16 takes 3.456 ms.",  # no row gives it: SG222 proper's
        "On the A100 fp16 takes 2.468 ms.",  # a GPU no run has: SG224's
    ]
    for index, summary in enumerate(summaries):
        assert findings(tmp_path / str(index), summary) == [], summary
    # a run that states no GPU may have been on the one named
    assert findings(tmp_path / "gpuless", "On the TITAN V the fp16 median is 2.468 ms.", second_gpu=None) == []


def test_statistic_named():
    assert [statistic_named(s) for s in ("the median", "its average", "p99 latency", "the 95th percentile",
                                         "median and mean", "no statistic")] == [
        "median", "mean", "p99", "p95", None, None]


def test_a_quote_in_microseconds_and_where_the_finding_stands(tmp_path):
    (finding,) = findings(tmp_path, "On the TITAN V the fp16 median is 2468 µs.")
    assert "quotes 2468 µs of the TITAN V, fp16" in finding.message
    # the line of the summary in the study file the test writes (its decision comes last)
    assert (finding.file, finding.line, bool(finding.hint)) == ("families/toy/study.yaml", 26, True)


def test_each_quote_is_read_after_one_that_holds(tmp_path):
    # the first quote names only the variant every run has and holds; the second is the RTX 2080 Ti's
    (finding,) = findings(tmp_path, "fp16 takes 2.468 ms. On the TITAN V the fp16 median is 2.468 ms.")
    assert finding.key == "/decision/summary 2.468 ms of another run"


def test_a_group_the_clause_names_narrows_the_runs_figures(tmp_path):
    # 0.0500 ms is each run's 'other' group; job titanv-run's conv layers take 0.8123 ms
    (finding,) = findings(tmp_path, "In job titanv-run the conv layers take 0.0500 ms.")
    assert finding.message.endswith("it is job rtx2080ti-run's other (measurements/toy/rtx2080ti-run.json#/results/1/"
                                    "groups/1/time_ms); job titanv-run's other (measurements/toy/titanv-run.json#/results/1/"
                                    "groups/1/time_ms)")
    # a clause whose first figure opens it and names a run of the second: two figures, not read
    assert findings(tmp_path / "b", "2.468 ms on the other card against 1.234 ms on the TITAN V.") == []


def test_a_statistic_no_record_keeps_or_a_row_without_statistics(tmp_path):
    # no p95 is kept: the TITAN V's figures give no p95, and 1.234 ms is its median
    (finding,) = findings(tmp_path, "On the TITAN V the fp16 p95 is 1.234 ms.")
    assert "as a p95: it is job titanv-run's gpu_compute median" in finding.message
    assert [statistic_named(s) for s in ("the minimum", "the maximum", "min and max")] == ["min", "max", None]


def test_a_gpu_no_run_has_is_read_where_every_run_giving_the_figure_states_its_own(tmp_path):
    # SG224 reads no GPU in a study one of whose records states none; the figure still says whose it is
    (finding,) = findings(tmp_path, "On a Jetson AGX Orin the fp16 median is 1.234 ms.", second_gpu=None)
    assert "of the Jetson AGX Orin, fp16, which none of its figures gives as a median: it is job titanv-run's" in \
        finding.message
    # the figure of the run that states no GPU may be the Jetson's; a study whose runs all state one: SG224's
    assert findings(tmp_path / "b", "On a Jetson AGX Orin the fp16 median is 2.468 ms.", second_gpu=None) == []
    assert findings(tmp_path / "c", "On a Jetson AGX Orin the fp16 median is 1.234 ms.") == []
    assert findings(tmp_path / "d", "The fp32 median is 1.234 ms.", second_gpu=None) == []  # a variant: SG224's


def test_quotes_left_unread_or_holding_do_not_stop_the_reading(tmp_path):
    summary = ("We never measured 2.468 ms on the TITAN V. The run takes 2.468 ms. On the TITAN V the fp16 median is "
               "1234 µs. On the TITAN V the fp16 median is 2.468 ms.")
    (finding,) = findings(tmp_path, summary)
    assert finding.line == 26 and "quotes 2.468 ms of the TITAN V, fp16" in finding.message


def test_a_field_the_readme_does_not_print_is_not_read(tmp_path):
    records = [record("titanv-run", [latency("fp16", 1.234)], collected_provenance(gpu="NVIDIA TITAN V")),
               record("rtx-run", [latency("fp16", 2.468)], collected_provenance(gpu="NVIDIA GeForce RTX 2080 Ti"))]
    study = load(tmp_path, records=records, template="{{ generated_note }}\n\n# {{ study.title }}\n",
                 study=spec(decision={"shipped": False, "summary": "On the TITAN V fp16 takes 2.468 ms."}))
    assert [f for f in sg222_misquoted_figures.check(CheckContext(study)) if f.key.endswith("of another run")] == []
