"""``studygen render --pr-body FAMILY``: the pull request description from the
same template blocks as the README (summary and decision, results, runs
without a figure where the template has that block, not measured), so the
two cannot disagree."""

from __future__ import annotations

from .charts import render_charts
from .engine import PR_BODY_BLOCKS, render_markdown


def pr_body(study) -> str:
    """Markdown for the pull request: the template's ``summary``, ``results``,
    ``runs_without_figure`` (where it has one) and ``not_measured`` blocks,
    with figures embedded as in the README.
    Raises TemplateError when the template lacks one of those blocks."""
    # Paths from the repository root: a pull request page has no README folder to be relative to.
    figures = {name: fig.markdown(study.root) for name, fig in render_charts(study).items()}
    body = render_markdown(study, extra_context={"figures": figures}, blocks=PR_BODY_BLOCKS)
    header = f"Study: `{study.rel(study.study_path)}`; records: `{study.rel(study.measurements_dir)}/`.\n\n"
    return header + body
