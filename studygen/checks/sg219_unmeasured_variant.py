"""SG219 declared variant without results: a variant the study file
declares that no record gives any result (figure or not-measured result),
and that the study file's ``not_measured`` list does not name either. The
README's tables leave it out without a word: say why it is missing
(``not_measured``: config, reason), collect it, or remove it. An error once
the study file says it is ready to publish (``status: ready``, the default),
a warning while it says ``status: draft`` (:func:`studygen.study.scaffold.unfinished_severity`).

Case (issue 22): a study declared fp32 and fp16, collected fp16 only; the
README never mentioned fp32 and ``check`` said 0 errors.
"""

from __future__ import annotations

from ..findings import Finding
from ..records.load import yaml_line
from ..study.scaffold import unfinished_severity


def check(context) -> list[Finding]:
    study = context.study
    with_results = {row.variant for row in study.rows}
    named = set()
    for entry in study.declared_not_measured:
        named.update([entry["config"], *entry.get("aliases", [])])
    findings, severity = [], unfinished_severity(study.spec)
    for index, variant in enumerate(study.spec["variants"]):
        name = variant["name"]
        if name in with_results or name in named or variant.get("label") in named:
            continue
        findings.append(Finding(
            "SG219", f"variant {name} is declared, but no record has a result for it and not_measured does not name it",
            study.rel(study.study_path), line=yaml_line(study.spec_text, "variants", index),
            pointer=f"/variants/{index}", severity=severity,
            hint=f"collect {name}, add it under not_measured with the reason it was not measured, or remove it"))
    return findings
