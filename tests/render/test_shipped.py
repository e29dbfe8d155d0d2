"""Every shipped family renders, in memory, to exactly its committed README and
charts: any change to what a helper prints shows up here, for the PyTorch
family as well as the TensorRT one."""

from __future__ import annotations

import pytest

from studygen.render.engine import render_study
from studygen.study import family_dirs, load_study

from ..conftest import REPO

FAMILIES = family_dirs(REPO)


def test_both_studies_ship():
    assert [d.name for d in FAMILIES] == ["deformable_detr", "deformable_detr_h200_torch"]


@pytest.mark.parametrize("study_dir", FAMILIES, ids=lambda d: d.name)
def test_family_renders_to_its_committed_files(study_dir):
    study = load_study(study_dir, REPO)
    assert not study.problems
    rendered = render_study(study)
    assert rendered.files[study.readme_path] == study.readme_path.read_bytes()
    committed_charts = sorted((study_dir / "figures").glob("*.svg"))
    assert sorted(rendered.figures) == committed_charts
    for path, chart in rendered.figures.items():
        assert chart.is_current(path.read_bytes()), f"{path.relative_to(REPO)} is stale"
