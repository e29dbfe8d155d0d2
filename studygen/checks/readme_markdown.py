"""SG101–SG107 on the committed README: the lint checks (table vs prose,
structure) run on every family README, plus SG104 when mdformat would change
the README (not idempotent) or the README cannot be read as text.

The mdformat pass is made for every README, also one equal to the text
render makes now: mdformat is not idempotent on every text, so render's
output is not always a fixpoint (a study title of stray emphasis markers
and brackets comes out of render's formatting as text a second pass
rewrites), and such a README is SG104 although it is render's own output.

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
    idempotency = mdformat_idempotency_finding(text, shown)  # also for render's own output (module docstring)
    if idempotency is not None:
        findings.append(idempotency)
    return findings
