"""SG222 on agreement figures quoted after their metric's name (:mod:`studygen.checks.prose_agreement`). Case (a new
user's trial, session 28): "The fp16 max abs diff is 0.00078434." passed where the record holds 0.00074834. The
figures here are made up: a hand-written record of fp16 and int8 agreement with fp32 on one held-out set."""

from __future__ import annotations

from studygen.checks import CheckContext, sg222_misquoted_figures
from studygen.checks.prose_agreement import quoted_agreement

from .studies import collected_provenance, dataset, load, record, spec

VARIANTS = [{"name": "fp32", "precision": "fp32", "label": "fp32"}, {"name": "fp16", "precision": "fp16", "label": "fp16"},
            {"name": "int8", "precision": "int8", "label": "int8"}]


def _agreement(variant: str, metric: str, value: float) -> dict:
    return {"kind": "agreement", "variant": variant, "reference_variant": "fp32", "metric": metric, "value": value,
            "backend": "other", "dataset": "held-500"}


RESULTS = [_agreement("fp16", "logit_correlation", 0.9999781), _agreement("fp16", "max_abs_diff", 0.0031529),
           _agreement("int8", "logit_correlation", 0.99612), _agreement("int8", "max_abs_diff", 0.041873)]


def _messages(tmp_path, summary: str) -> list[str]:
    study = load(tmp_path, records=[record("by-hand", RESULTS, collected_provenance(gpu=None))],
                 datasets={"held-500": dataset("held-500", "evaluation", 500)},
                 study=spec(variants=VARIANTS, recipes={}, decision={"shipped": False, "summary": summary}))
    return [f.message for f in sg222_misquoted_figures.check(CheckContext(study))]


def test_an_agreement_figure_one_slip_from_its_metrics_rows_is_reported(tmp_path):
    assert _messages(tmp_path, "The int8 max abs diff is 0.041783.") == [
        "/decision/summary quotes max_abs_diff 0.041783, which no agreement figure of the study gives at 6 decimals; "
        "two digits swapped: 0.041873 (measurements/toy/by-hand.json#/results/3/value)"]
    assert _messages(tmp_path / "r", "int8 keeps a logit correlation with fp32 of 0.99712 on the held-out set.") == [
        "/decision/summary quotes logit_correlation 0.99712, which no agreement figure of the study gives at 5 "
        "decimals; one digit away: 0.99612 (measurements/toy/by-hand.json#/results/2/value)"]


def test_figures_the_rows_give_or_that_are_near_none_pass(tmp_path):
    assert _messages(tmp_path, "The int8 max abs diff is 0.041873; its logit correlation is 0.9961, cut.") == []
    assert _messages(tmp_path / "far", "The fp16 max abs diff is 0.0125, a figure of another run.") == []
    # a figure of another metric, or with a unit, is not this metric's
    assert _messages(tmp_path / "unit", "The max abs diff grows while latency reads 0.041783 ms.") == []


def test_what_is_read_as_a_metric_figure():
    text = ("The logit correlation with fp32 on the held-out set is 0.99984. Maximum absolute difference: 0.0178. "
            "Recall stays at 0.981, and precision (against fp16) 0.9921.")
    assert [(metric, number) for metric, number, _ in quoted_agreement(text)] == [
        ("logit_correlation", "0.99984"), ("max_abs_diff", "0.0178"), ("recall", "0.981"), ("precision", "0.9921")]
    # two figures: the metric's is the first; a digit between stops the reading ("correlation at batch 4 is ...")
    assert [n for _, n, _ in quoted_agreement("The correlation at batch 4 is 0.99984.")] == []


def test_a_multiple_of_two_variants_figures_is_held_to_them(tmp_path):
    # int8 0.041873 over fp16 0.0031529 is 13.28x; 0.99612 / 0.9999781 is 0.9961x
    assert _messages(tmp_path, "int8's max abs diff is 1.3x fp16's.") == [
        "/decision/summary gives 1.3x between the max_abs_diff of fp16 and int8, which their records do not give: "
        "0.08x, 13.28x (either way round, on each image set both were scored on)"]
    assert _messages(tmp_path / "true", "int8's max abs diff is about 13x fp16's.") == []
    assert _messages(tmp_path / "cut", "The largest absolute difference of int8 is 13.2x that of fp16.") == []
    # one variant named, or a figure with a unit beside it: not this reading
    assert _messages(tmp_path / "one", "int8's max abs diff grew 1.3x after recalibration.") == []


def test_a_top1_agreement_is_held_to_the_records_as_a_fraction(tmp_path):
    results = [*RESULTS, _agreement("int8", "top1_agreement", 0.9936), _agreement("fp16", "top1_agreement", 1.0)]
    study = load(tmp_path, records=[record("by-hand", results, collected_provenance(gpu=None))],
                 datasets={"held-500": dataset("held-500", "evaluation", 500)},
                 study=spec(variants=VARIANTS, recipes={},
                            decision={"shipped": False, "summary": "int8 keeps a top-1 agreement of 0.9963 with fp32."}))
    assert [f.message for f in sg222_misquoted_figures.check(CheckContext(study))] == [
        "/decision/summary quotes top1_agreement 0.9963, which no agreement figure of the study gives at 4 decimals; "
        "two digits swapped: 0.9936 (measurements/toy/by-hand.json#/results/4/value)"]
    text = "Top-1 agreement: 0.9936. The top 1 match rate of fp16 is 1.000, and argmax agreement 0.9936; 99.36% agree."
    assert [(metric, number) for metric, number, _ in quoted_agreement(text)] == [
        ("top1_agreement", "0.9936"), ("top1_agreement", "1.000"), ("top1_agreement", "0.9936")]
