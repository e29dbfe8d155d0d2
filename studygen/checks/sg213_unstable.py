"""SG213 unstable measurement (warning): a ratio, verdict, range or side
finding built on a timing that its record flags unstable (``unstable: true``,
for example from trtexec's coefficient-of-variation warning).

The rows behind each helper output are recorded at render time
(:mod:`studygen.checks.readme_text`); every output of those kinds whose rows include
an unstable timing is one warning at its README line, naming the figure and
the reason its record gives. A table that merely shows the figure is not
flagged: the README's known gaps list every unstable timing by itself.

Case (fixture): ``trt8.6_unstable-gpu-compute.log``, where trtexec reports
GPU compute time with a coefficient of variation of 44 %.
"""

from __future__ import annotations

from decimal import Decimal

from ..findings import Finding
from ..numbers import format_number
from ..render.produced import kinds_where
from .base import readme_finding
from .readme_text import quote

CHECKED_KINDS = kinds_where("concludes")  # the output kinds that declare it (render/produced.py)


def check(context) -> list[Finding]:
    study = context.study
    findings, seen = [], set()
    for item, text in context.produced_outputs(CHECKED_KINDS):
        unstable = [r for r in item.rows if r.unstable]
        if not unstable:
            continue
        line = text.cell_line(item)  # a ratio cell: its own row, since one table may print "1.61x" four times
        marker = (line, item.kind, item.text)
        if marker in seen:
            continue
        seen.add(marker)
        listed = "; ".join(f"{format_number(r.value)} {r.unit or ''} ({_configuration(r)}): "
                           f"{r.unstable_words(_as_recorded)}" for r in unstable if r.value is not None)
        findings.append(readme_finding(
            study, "SG213", line,
            f"{item.kind.replace('_', ' ')} {quote(item.text)} is built on an unstable timing: {listed}",
            hint="re-measure until the timing is stable (lock clocks, more iterations), then render again"))
    return findings


def _configuration(row) -> str:
    """``int8, 1280x1280, batch 8, job l4``: what tells the timing apart
    from the study's other timings of its variant (shape and batch where
    its key has them): a table may print one ratio in several rows."""
    parts = [row.variant, row.shape, f"batch {row.batch}" if row.batch is not None else None, f"job {row.job_id}"]
    return ", ".join(part for part in parts if part)


def _as_recorded(cv: float) -> str:
    """A coefficient of variation (a fraction) in %, with every digit its
    record keeps (0.453157 → ``45.3157%``): a finding quotes the record."""
    return f"{(Decimal(repr(cv)) * 100).normalize():f}%"
