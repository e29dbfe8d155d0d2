"""The generic template names the variant its agreement table is measured against when every row names one.
Case (a new user's trial, session 28): fp16 and int8 logit correlations against fp32 were headed "Agreement with
the reference", and the table, whose index leaves out a reference no two rows differ in, named fp32 nowhere.
Figures made up."""

from __future__ import annotations

from ..checks.studies import collected_provenance, dataset, load, readme_lines, record, spec

GENERIC = '{% extends "studygen/generic.md.j2" %}\n'
SETS = {"kept-120": dataset("kept-120", "evaluation", 120)}


def _agreement(variant: str, reference: str, value: float) -> dict:
    return {"kind": "agreement", "variant": variant, "reference_variant": reference, "metric": "logit_correlation",
            "value": value, "backend": "other", "dataset": "kept-120"}


def _headings(tmp_path, results) -> list[str]:
    study = load(tmp_path, records=[record("by-hand", results, collected_provenance(gpu=None))], datasets=SETS,
                 template=GENERIC, study=spec())
    return [line for line in readme_lines(study) if line.startswith("### Agreement")]


def test_one_reference_is_named_in_the_heading(tmp_path):
    results = [_agreement("fp16", "fp32", 0.99991), _agreement("fp8", "fp32", 0.99617)]
    assert _headings(tmp_path, results) == ["### Agreement with fp32"]


def test_several_references_keep_the_general_heading(tmp_path):
    # each row's reference is then a column of the table's index
    results = [_agreement("fp16", "fp32", 0.99991), _agreement("fp8", "fp16", 0.99702)]
    assert _headings(tmp_path, results) == ["### Agreement with the reference"]
