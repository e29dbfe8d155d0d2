"""Helpers shared by checks: findings located in records."""

from __future__ import annotations

from ..findings import Finding


def record_line(study, record_path: str, pointer: str) -> int:
    """Line of ``pointer`` in the record shown as ``record_path`` (0 if unknown)."""
    return study.line_of_row({"record": record_path, "pointer": pointer})


def row_finding(study, code: str, row: dict, message: str, hint: str = "", **extra) -> Finding:
    """A finding about one flattened figure row: its record, pointer, line and key."""
    return Finding(code, message, row["record"], line=record_line(study, row["record"], row["pointer"]),
                   pointer=row["pointer"], key=row["key"], hint=hint, **extra)


# ---- the README as render makes it now, with what each helper printed ------------

class RenderedStudy:
    """One render of a study, shared by every check of a run (render is the
    costly step): ``rendered`` (path → bytes) and ``produced`` (the helper
    outputs, :class:`studygen.render.view.Produced`), or ``error`` when the
    template or study file cannot render (SG201 reports it)."""

    def __init__(self, rendered=None, produced=(), error=None):
        self.rendered = rendered
        self.produced = list(produced)
        self.error = error

    @property
    def readme(self) -> str | None:
        return None if self.rendered is None else self.rendered.readme


def rendered_study(study) -> RenderedStudy:
    """Render ``study`` once (helper outputs recorded) and keep it on the
    study object for the other checks of the same run."""
    from ..errors import StudygenError
    from ..render.engine import render_study
    from ..render.view import recording

    cached = study.__dict__.get("_checks_rendered")
    if cached is None:
        try:
            with recording() as produced:
                rendered = render_study(study)
            cached = RenderedStudy(rendered, produced)
        except StudygenError as exc:
            cached = RenderedStudy(error=exc)
        study.__dict__["_checks_rendered"] = cached
    return cached


def readme_text(study):
    """The README as render makes it now, as a :class:`studygen.checks.text.ReadmeText`,
    or None when the study cannot render (or has invalid records: SG202)."""
    from .text import ReadmeText

    if study.problems:
        return None
    state = rendered_study(study)
    if state.readme is None:
        return None
    cached = study.__dict__.get("_checks_readme_text")
    if cached is None:
        cached = ReadmeText(state.readme, state.produced)
        study.__dict__["_checks_readme_text"] = cached
    return cached


def readme_finding(study, code: str, line: int, message: str, hint: str = "", **extra) -> Finding:
    """A finding about a README line (lines of the README as render makes it;
    SG201 keeps the committed README equal to it)."""
    return Finding(code, message, study.rel(study.readme_path), line=line, hint=hint, **extra)


def produced_outputs(study, kinds=None):
    """``(item, readme)`` for each render helper output of the study's README
    (of ``kinds`` only, when given): ``item`` a :class:`studygen.render.view.Produced`,
    ``readme`` the :class:`studygen.checks.text.ReadmeText` that locates it.
    Yields nothing when the study cannot render."""
    readme = readme_text(study)
    if readme is None:
        return
    for item in rendered_study(study).produced:
        if kinds is None or item.kind in kinds:
            yield item, readme
