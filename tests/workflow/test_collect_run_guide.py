"""The study guide's ``collect run`` study block (between the ``collect-run
study`` markers of docs/study-guide.md) is a valid study file once the fields
``studygen new`` writes are added, builds a run plan, and needs no
calibration set: as the guide says, only an FP8 variant does."""

from __future__ import annotations

import re

import yaml

from studygen.collect.run.spec import build_plan
from studygen.records.schemas import validate_document

from ..conftest import REPO

GUIDE = REPO / "docs" / "study-guide.md"
BLOCK = re.compile(r"<!-- collect-run study: begin -->\n```yaml\n(.*?)```\n<!-- collect-run study: end -->", re.S)
WRITTEN_BY_NEW = {"schema_version": 1, "family": "my_classifier", "title": "t", "template": "studygen/generic.md.j2",
                  "decision": {"shipped": False, "summary": "s"}}


def test_the_guides_collect_run_block_is_a_study_that_needs_no_calibration_set():
    (block,) = BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    spec = {**WRITTEN_BY_NEW, **yaml.safe_load(block)}
    validate_document("study", spec, path="docs/study-guide.md")
    plan = build_plan(spec, study_path="docs/study-guide.md")
    assert spec["model"]["hf_class"] == "AutoModelForImageClassification"
    assert "calibration_set" not in spec["run"] and plan.calibrated_variants() == []
    assert [(c.mode, c.shape, c.variant) for c in plan.cells] == [("eager", "224x224", "fp32"),
                                                                 ("eager", "224x224", "bf16")]
    assert plan.reference_variant == "fp32"
