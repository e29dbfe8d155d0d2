"""SG101–SG106 on the committed README: the lint checks (table vs prose,
structure) run on every family README, plus SG104 when mdformat would change
the README (not idempotent) or the README cannot be read as text.

The mdformat pass is made only for a README that is not the text render
makes now (a stale or hand-edited one, or a study that does not render).
A README equal to that text is render's output, and render's output is an
mdformat fixpoint: a property of studygen and mdformat, not of the README,
which the tests hold for every shipped family and every generated study
(tests/render/test_shipped.py, tests/render/test_generic_property.py,
tests/robustness/test_h200_jobs_property.py); formatting it again would
only repeat the render's own formatting call.

Case: the seed README passed its own Markdown checks yet its summary range
left out a table row; check lints every generated README so that a template
that writes such a range fails too.
"""

from __future__ import annotations

from ..errors import StudygenError
from ..findings import Finding, error_finding
from ..lint import STRUCTURE_CODE, lint_text, mdformat_idempotency_finding
from ..textio import read_text


def check(context) -> list[Finding]:
    study = context.study
    path = study.readme_path
    if not path.exists():
        return []  # SG201 reports the missing README
    shown = study.rel(path)
    try:
        text = read_text(path, shown)
    except StudygenError as exc:
        return [error_finding(STRUCTURE_CODE, exc)]  # read_text names the file as shown
    findings = list(lint_text(text, shown))
    if text != context.rendered_readme:  # render's own output is an mdformat fixpoint (module docstring)
        idempotency = mdformat_idempotency_finding(text, shown)
        if idempotency is not None:
            findings.append(idempotency)
    return findings
