"""The view of a shipped family, and what its helpers record, for the render tests."""

from __future__ import annotations

from studygen.render.produced import recording
from studygen.render.view import StudyView
from studygen.study import load_study

from ..conftest import REPO

DETR = "deformable_detr"  # TensorRT on B200 and B300, transcribed from the seed
H200 = "deformable_detr_h200_torch"  # PyTorch on H200, collected by collect run


def view_of(family: str) -> StudyView:
    """The view templates get for a shipped family (read only: nothing is written)."""
    return StudyView(load_study(REPO / "families" / family, REPO))


def printed(helper, *args, **kwargs) -> tuple[str, list]:
    """``(text, recorded)``: what ``helper`` returns and the Produced entries it recorded."""
    with recording() as produced:
        text = helper(*args, **kwargs)
    return text, produced


def places(rows) -> list[tuple[str, str]]:
    """``(job_id, JSON pointer)`` of row dicts, in order."""
    return [(row.job_id, row.pointer) for row in rows]
