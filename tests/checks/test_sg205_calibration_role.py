"""SG205 rule 7 on a set whose definition says it is a calibration set. Case (a new user's trial, session 28): an
int8 agreement figure (logit correlation with fp32) scored on the 64 inputs the int8 activation scales came from
was reported only as "figures on different evaluation sets", since the same job scored the held-out set too;
scored alone, it passed, the study file naming no calibration set and no quantization result naming one. The
study here is made up: a hand-written agreement record of an int8 and an fp16 variant."""

from __future__ import annotations

from studygen.checks import CheckContext, sg205_datasets
from studygen.findings import ERROR

from .studies import collected_provenance, dataset, load, record, spec

VARIANTS = [{"name": "fp32", "precision": "fp32", "label": "fp32"}, {"name": "fp16", "precision": "fp16", "label": "fp16"},
            {"name": "int8", "precision": "int8", "label": "int8"}]
SETS = {"scales-32": dataset("scales-32", "calibration", 32, disjoint_from=["kept-apart-200"]),
        "kept-apart-200": dataset("kept-apart-200", "evaluation", 200, disjoint_from=["scales-32"])}


def _agreement(variant: str, value: float, dataset_id: str) -> dict:
    return {"kind": "agreement", "variant": variant, "reference_variant": "fp32", "metric": "logit_correlation",
            "value": value, "backend": "other", "dataset": dataset_id}


def _findings(tmp_path, results):
    study = load(tmp_path, records=[record("by-hand", results, collected_provenance(gpu=None))], datasets=SETS,
                 study=spec(variants=VARIANTS, recipes={}))
    return [f for f in sg205_datasets.check(CheckContext(study)) if "were not published" not in f.message]


def test_an_int8_figure_on_a_calibration_set_alone_is_an_error(tmp_path):
    (finding,) = _findings(tmp_path, [_agreement("int8", 0.99871, "scales-32")])
    assert (finding.severity, finding.file, finding.pointer) == (ERROR, "measurements/toy/by-hand.json",
                                                                 "/results/0/dataset")
    assert finding.message == (
        "agreement (logit_correlation) of int8 in job by-hand is evaluated on scales-32, the set int8 was calibrated "
        "on (its definition's role is calibration: measurements/toy/datasets/scales-32.json /role): quality must be "
        "measured on images the calibration never saw")


def test_beside_a_held_out_figure_it_is_that_error_not_a_mix_of_evaluation_sets(tmp_path):
    found = _findings(tmp_path, [_agreement("fp16", 0.9999912, "kept-apart-200"), _agreement("int8", 0.99871, "scales-32"),
                                 _agreement("int8", 0.99802, "kept-apart-200")])
    assert [f.pointer for f in found] == ["/results/1/dataset"]
    assert "different evaluation sets" not in found[0].message


def test_an_uncalibrated_variant_on_a_calibration_set_is_no_such_error(tmp_path):
    # fp16 needs no calibration: its agreement on those inputs overstates nothing of a calibration
    assert [f for f in _findings(tmp_path, [_agreement("fp16", 0.9999912, "scales-32")]) if "calibrated" in f.message] == []
    assert _findings(tmp_path / "held-out", [_agreement("int8", 0.99802, "kept-apart-200")]) == []
