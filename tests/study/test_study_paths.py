"""Study.rel shows a path as findings do, worked out once a path for the
study: every README finding shows the README's path, and each working out
resolved it and the project root on the disk."""

from __future__ import annotations

import studygen.study as study_module

from ..checks.studies import latency, load, record
from ..conftest import REPO


def test_each_path_is_worked_out_once_a_study(tmp_path, monkeypatch):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])])
    asked = []
    real = study_module.shown_path
    monkeypatch.setattr(study_module, "shown_path", lambda path, base=None: asked.append(path) or real(path, base))
    shown = [study.rel(study.readme_path) for _ in range(3)] + [study.rel(study.study_path)] * 2
    assert shown == ["families/toy/README.md"] * 3 + ["families/toy/study.yaml"] * 2
    assert asked == [study.readme_path, study.study_path]
    view = study_module.Study(root=tmp_path, study_dir=study.study_dir, spec=study.spec, spec_text=study.spec_text)
    assert view.rel(study.readme_path) == "families/toy/README.md" and len(asked) == 3  # another study asks again


def test_a_comparison_is_seen_through_one_view_however_often_a_template_asks():
    """The H200 template asks for the "pinning" comparison twice (the summary and the eager latency section):
    one view, its rows flattened once. Failed before: each call made a new Study and flattened the entry's
    four records again."""
    study = study_module.load_study(REPO / "families" / "deformable_detr_h200_torch", REPO)
    first = study.comparison("pinning")
    assert study.comparison("pinning") is first
    assert [record.job_id for record in first.records] == [
        record.job_id for record in study.comparison_records["pinning"]]
    assert len(first.records) == 4 and first.comparison_records == {} and first.problems == []
    assert study.comparison("fixed-pointwise") is not first
