"""What SG205 reads in the study file's prose: a sentence that names one image set by its id and gives it the
other role than its definition does (:func:`role_findings`).

A set is named by its ``dataset_id`` as a whole word. A sentence naming exactly one set says it calibrated a
variant when it holds a calibration word (:data:`_CALIBRATION_WORDS`: "calibrated", "calibration", "scales set
on", "the scales for int8 were fit on"), and that it is a held-out set when it holds a held-out word
(:data:`_HELD_OUT_WORDS`: "held-out", "held out", "unseen"); the first, said of a set whose definition's ``role`` is ``evaluation``, or the second, of one
whose role is ``calibration``, is an error at the field. A sentence naming two or more sets (which one a word is
about is not known), and one that denies (:data:`_DENIAL`: "never", "not", "no", "without": "256 inputs the
calibration never saw") are not read.

Case (a new user's trial, session 28): "Agreement with fp32 is measured on synthetic-heldout-256, the set the
int8 activation scales were calibrated on." and "int8 calibration used the held-out set synthetic-heldout-256."
passed, where that set's definition says ``role: evaluation`` and the calibration set is another
(synthetic-calib-64): a reader told the agreement came from the calibration images would discount it.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..patterns import lazy_compile
from ..records.jsonpos import pointer_from_path
from ..records.load import yaml_text_line
from ..study.placeholders import claim_strings
from .prose_figures import sentence_bounds

_CALIBRATION_WORDS = lazy_compile(r"\bcalibrat\w*|\bscales?\b[^.;:]{0,40}?\b(?:set|fit|fitted|computed|derived|taken)\s+"
                                  r"(?:on|from)\b", re.IGNORECASE)
_HELD_OUT_WORDS = lazy_compile(r"\bheld[\s-]out\b|\bunseen\b", re.IGNORECASE)
_DENIAL = lazy_compile(r"\b(?:never|not|no|without)\b|n't\b", re.IGNORECASE)


def role_findings(study, code: str) -> list[Finding]:
    """Errors (of ``code``, SG205's) of sentences giving one named set the role its definition does not (module
    docstring)."""
    roles = {dataset_id: definition.data.get("role") for dataset_id, definition in study.datasets.items()}
    if not roles:
        return []
    names = lazy_compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(roles, key=len, reverse=True)))
                         + r")(?![\w-])")
    findings = []
    for path, text in claim_strings(study.spec):
        seen = set()
        for match in names.finditer(text):
            begin, end = sentence_bounds(text, match.start())
            if (begin, end) in seen:
                continue
            seen.add((begin, end))
            sentence = text[begin:end]
            named = {m.group(1) for m in names.finditer(sentence)}
            if len(named) != 1 or _DENIAL.search(sentence):
                continue
            (dataset_id,) = named
            role = roles[dataset_id]
            if role == "evaluation" and _CALIBRATION_WORDS.search(sentence):
                said = "the set a variant was calibrated on"
            elif role == "calibration" and _HELD_OUT_WORDS.search(sentence):
                said = "a held-out set"
            else:
                continue
            pointer = pointer_from_path(path)
            findings.append(Finding(
                code, f"{pointer} calls {dataset_id} {said}, but its definition's role is {role} "
                f"({study.datasets[dataset_id].display_path} /role): \"{sentence.strip()}\"",
                study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, match.start()), pointer=pointer,
                key=f"{pointer} {dataset_id} {role}",
                hint="name the set that played that role, or correct the definition's role"))
    return findings


__all__ = ["role_findings"]
