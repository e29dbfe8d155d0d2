"""SG208 precision inversion (warning): a lower-precision variant that is
slower than a higher-precision one at the same shape, GPU, software and
timing method. Render lists each under side findings by itself.

Case (seed): at 800 x 1067 the fp16 engine is slower than the fp32 engine
(B200 14.747 vs 13.99 ms, B300 14.487 vs 13.62 ms).
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from ..study.analyses import precision_inversions
from .base import row_finding


def check(context) -> list[Finding]:
    study = context.study
    findings = []
    for low, high in precision_inversions(study):
        where = f"{low.gpu or 'GPU not stated'}, {low.software or 'versions not stated'}, {low.shape}"
        findings.append(row_finding(
            "SG208", low,
            f"{low.variant} ({format_number(low.value)} ms, job {low.job_id}) is slower than "
            f"{high.variant} ({format_number(high.value)} ms, job {high.job_id}) on {where}",
            hint="render lists it under side findings; explain it if it is expected"))
    return findings
