"""SG205 on prose giving a named image set the other role than its definition (:mod:`studygen.checks.prose_set_roles`).
Case (a new user's trial, session 28): "Agreement with fp32 is measured on synthetic-heldout-256, the set the int8
activation scales were calibrated on." passed where that set is defined with ``role: evaluation``. The sets here
are made up: 48 calibration inputs and 300 held-out ones."""

from __future__ import annotations

from studygen.checks import CheckContext, sg205_datasets
from studygen.findings import ERROR

from .studies import collected_provenance, dataset, latency, load, record, spec

SETS = {"tune-48": dataset("tune-48", "calibration", 48, disjoint_from=["kept-300"]),
        "kept-300": dataset("kept-300", "evaluation", 300, disjoint_from=["tune-48"])}


def _role_findings(tmp_path, summary: str):
    study = load(tmp_path, records=[record("t4", [latency("fp16", 1.093)], collected_provenance("Tesla T4"))],
                 datasets=SETS, study=spec(decision={"shipped": False, "summary": summary}))
    return [f for f in sg205_datasets.check(CheckContext(study)) if "definition's role" in f.message]


def test_an_evaluation_set_said_to_calibrate_is_an_error(tmp_path):
    (finding,) = _role_findings(tmp_path, "FP8 scales were set on kept-300 before scoring.")
    assert (finding.severity, finding.pointer, finding.file) == (ERROR, "/decision/summary", "families/toy/study.yaml")
    assert finding.message == (
        "/decision/summary calls kept-300 the set a variant was calibrated on, but its definition's role is "
        "evaluation (measurements/toy/datasets/kept-300.json /role): \"FP8 scales were set on kept-300 before scoring\"")
    assert len(_role_findings(tmp_path / "b", "The calibration pass read kept-300.")) == 1
    assert len(_role_findings(tmp_path / "c", "Activation scales for fp8 were derived from kept-300.")) == 1


def test_a_calibration_set_called_held_out_is_an_error(tmp_path):
    (finding,) = _role_findings(tmp_path, "Agreement is scored on tune-48, a held-out slice.")
    assert "calls tune-48 a held-out set, but its definition's role is calibration" in finding.message


def test_what_is_not_read(tmp_path):
    summaries = [
        "FP8 was calibrated on tune-48.",  # the role its definition gives
        "Agreement is scored on kept-300, which the calibration never saw.",  # denied
        "The calibration set (tune-48) and the held-out set (kept-300) share no input.",  # two sets named
        "Agreement is scored on kept-300.",  # no role word
    ]
    for index, summary in enumerate(summaries):
        assert _role_findings(tmp_path / str(index), summary) == [], summary
