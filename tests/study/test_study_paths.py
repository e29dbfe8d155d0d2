"""Study.rel shows a path as findings do, worked out once a path for the
study: every README finding shows the README's path, and each working out
resolved it and the project root on the disk."""

from __future__ import annotations

import studygen.study as study_module

from ..checks.studies import latency, load, record


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
