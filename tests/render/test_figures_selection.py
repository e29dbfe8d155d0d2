"""study.figures (studygen/render/rows.py): rows of one kind are read off the
study's rows by kind once and asked the other filters only; every selection
is the rows its filters match (render.rows.matches over every row, the
definition), on the shipped studies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from studygen.render import rows as render_rows
from studygen.render.view import StudyView
from studygen.study import family_dirs, load_study

from ..checks.studies import coco_ap, latency, load, record
from ..conftest import REPO

STUDIES = {d.name: load_study(d, REPO) for d in family_dirs(REPO)}


def test_rows_of_another_kind_are_asked_no_filter(tmp_path, monkeypatch):
    records = [record(job, [latency("fp16", 5.0), latency("fp8", 4.0), coco_ap("fp16", 0.44), coco_ap("fp8", 0.43)])
               for job in ("a", "b", "c")]
    view = StudyView(load(tmp_path, records=records))
    asked = []
    matches = render_rows.matches
    monkeypatch.setattr(render_rows, "matches", lambda row, filters: asked.append(dict(filters)) or matches(row, filters))
    picked = view.figures(kind="latency", variant="fp8")
    assert [(row.job_id, row.value) for row in picked] == [("a", 4.0), ("b", 4.0), ("c", 4.0)]
    assert asked == [{"variant": "fp8"}] * 6  # the 6 latency rows; before: the 12 rows for the kind, then 6 again
    asked.clear()
    assert len(view.figures(kind="coco_ap")) == 6 and asked == [{}] * 6  # before: 12 asked {"kind": "coco_ap"}


def _filters(study):
    """Filter sets drawn from the study's own rows: a kind (one, a list or none) and up to two other fields."""
    rows = study.rows
    values = lambda name: sorted({repr(r.field(name)): r.field(name) for r in rows}.values(), key=repr)  # noqa: E731
    kinds = values("kind")
    one_field = st.sampled_from(["variant", "shape", "batch", "gpu", "tensorrt", "statistic", "metric", "job_id"]).flatmap(
        lambda name: st.tuples(st.just(name), st.sampled_from(values(name)) | st.lists(st.sampled_from(values(name)),
                                                                                        max_size=2)))
    kind = st.sampled_from(kinds) | st.lists(st.sampled_from(kinds), max_size=2) | st.none()
    return st.tuples(kind, st.lists(one_field, max_size=2)).map(lambda parts: {"kind": parts[0], **dict(parts[1])})


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_every_selection_is_what_its_filters_match(name):
    study = STUDIES[name]

    @settings(max_examples=150, deadline=None)
    @given(_filters(study))
    def selection(filters):
        view = StudyView(study)
        expected = [r for r in study.rows if render_rows.matches(r, filters)]
        assert view.figures(**filters).rows == expected
        assert view.figures(**filters).rows == expected  # asked again: the selection kept
        assert view.figures(**{k: v for k, v in reversed(list(filters.items()))}).rows == expected  # kind last

    selection()
