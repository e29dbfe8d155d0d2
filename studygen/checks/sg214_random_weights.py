"""SG214 quality from random weights: a quality figure (the result-kind
table's ``quality`` kinds: COCO AP and AP difference) from a record whose
checkpoint is ``random-init`` is an error — random weights detect nothing,
so such an AP measures nothing about the model.

Agreement figures (logit correlation, precision and recall against a
reference on the same inputs) stay allowed: on random weights they are a
numerical check of the variants, which is how the README must present them.

Case (issue 6): the first measured study runs the Deformable DETR
architecture with random weights, since no checkpoint can be downloaded on
the GPU machine; it reports speed and kernel time, never AP.
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from ..records.kinds import QUALITY_KINDS
from .base import row_finding


def check(context) -> list[Finding]:
    study = context.study
    findings = []
    for row in study.rows:
        if row.kind in QUALITY_KINDS and row.weights == "random-init":
            figure = format_number(row.value) if row.value is not None else "a range"
            findings.append(row_finding(
                "SG214", row,
                f"{row.kind} {row.statistic} {figure} of {row.variant} in job {row.job_id} comes from "
                f"random-init weights: it says nothing about the model's quality",
                hint="measure quality with pretrained weights, or drop the figure"))
    return findings
