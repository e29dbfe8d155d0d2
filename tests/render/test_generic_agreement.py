"""The generic template's agreement section (issue from a GPU trial: the
table printed every job's, or every mode's, rows one after the other with
nothing telling them apart, so the table read as printed twice). It is now a
grid like the other results: one row per metric and configuration, a column
per variant, several jobs' figures in one cell with the jobs named. Figures
are made up for the tests."""

from __future__ import annotations

from studygen.render.engine import render_markdown

from ..checks.studies import record
from .test_generic_issue22 import generic, torch_latency, torch_provenance
from .test_generic_template import tables_of


def agreement(variant, metric, value, mode="eager"):
    return {"kind": "agreement", "variant": variant, "metric": metric, "value": value, "dataset": "val-8",
            "reference_variant": "fp32", "shape": "800x800", "batch": 1, "backend": "pytorch", "mode": mode}


def agreement_table(text):
    # headed by the one reference every row names ("Agreement with fp32", session 28), else "the reference"
    section = text.split("### Agreement with ")[1].split("\n## ")[0].split("\n### ")[0]
    return tables_of(section)


def test_two_shards_agreement_is_one_table_with_the_jobs_named(tmp_path):
    shard = lambda job, r, count: record(job, [torch_latency("fp16", 5.0), agreement("fp16", "logit_correlation", r),  # noqa: E731
                                               agreement("fp16", "nonfinite_count", count)], torch_provenance())
    text = render_markdown(generic(tmp_path, [shard("h200-0", 0.9998, 0), shard("h200-1", 0.99991, 0)]))
    assert text.count("### Agreement with fp32") == 1
    assert agreement_table(text) == [[
        ["Metric", "GPU", "Shape HxW", "Batch", "fp16"],
        ["logit correlation (Pearson r)", "H100 PCIe", "800 x 800", "1", "0.9998 to 0.99991 (2 jobs: h200-0, h200-1)"],
        ["non-finite outputs (count)", "H100 PCIe", "800 x 800", "1", "0 (2 jobs, each: h200-0, h200-1)"]]]


def test_agreement_of_two_modes_is_told_apart_by_mode(tmp_path):
    results = [torch_latency("fp16", 5.0), agreement("fp16", "logit_correlation", 0.9998),
               agreement("fp16", "logit_correlation", 0.9991, mode="compile"),
               agreement("fp8", "logit_correlation", 0.97)]
    text = render_markdown(generic(tmp_path, [record("a", results, torch_provenance())]))
    assert agreement_table(text) == [[
        ["Metric", "GPU", "Mode", "Shape HxW", "Batch", "fp16", "FP8"],
        ["logit correlation (Pearson r)", "H100 PCIe", "eager", "800 x 800", "1", "0.9998", "0.97"],
        ["logit correlation (Pearson r)", "H100 PCIe", "compile", "800 x 800", "1", "0.9991", "—"]]]


def test_agreement_against_two_references_is_told_apart(tmp_path):
    against_fp16 = dict(agreement("fp8", "logit_correlation", 0.99), reference_variant="fp16")
    results = [torch_latency("fp16", 5.0), agreement("fp8", "logit_correlation", 0.97), against_fp16]
    text = render_markdown(generic(tmp_path, [record("a", results, torch_provenance())]))
    assert agreement_table(text) == [[
        ["Metric", "GPU", "Shape HxW", "Batch", "Against", "FP8"],
        ["logit correlation (Pearson r)", "H100 PCIe", "800 x 800", "1", "fp32", "0.97"],
        ["logit correlation (Pearson r)", "H100 PCIe", "800 x 800", "1", "fp16", "0.99"]]]
