"""SG218 placeholder text: a study-file string that still holds text
``studygen new`` wrote for the newcomer to replace (the title and the
description ending "(edit this)", the decision "Not decided yet: …"; :mod:`studygen.study.scaffold`),
which the README would publish as the study's own words. An error once the
study file says it is ready to publish (``status: ready``, the default), a
warning while it says ``status: draft``, as ``studygen new`` writes it
(:func:`studygen.study.scaffold.unfinished_severity`).

Case (issue 22): after ``new`` and one ``collect``, the README published
"What model, which variants, measured where and why (edit this)." and
"Not decided yet", and ``check`` said 0 errors; the title ``new`` wrote
("alexnet_kineto: fp32") reached a ``status: ready`` README without a finding.
"""

from __future__ import annotations

from ..findings import Finding
from ..records.load import yaml_line
from ..study.scaffold import is_placeholder, unfinished_severity


def _strings(node, path=()):
    """``(path, text)`` of every string in a parsed YAML ``node``, depth first."""
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _strings(value, (*path, index))


def check(context) -> list[Finding]:
    study = context.study
    findings, severity = [], unfinished_severity(study.spec)
    for path, text in _strings(study.spec):
        if is_placeholder(text):
            pointer = "/" + "/".join(str(step) for step in path)
            findings.append(Finding(
                "SG218", f"{pointer.lstrip('/')} still holds the placeholder studygen new wrote: {text.strip()!r}",
                study.rel(study.study_path), line=yaml_line(study.spec_text, *path), pointer=pointer, severity=severity,
                hint="write what the study is (title, description) and what was decided (decision.summary) in the "
                     "study file"))
    return findings
