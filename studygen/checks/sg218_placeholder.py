"""SG218 placeholder text: a study-file string that still holds text
``studygen new`` wrote for the newcomer to replace (the title and the
description ending "(edit this)", the decision "Not decided yet: …"; :mod:`studygen.study.scaffold`),
or a prose field the README prints (title, description, decision, reasons,
revisit conditions, labels: :data:`studygen.study.placeholders.PROSE_FIELDS`)
that is placeholder text of any origin ("TODO", "TBD", "...", "<model name>",
"TODO: add the L4"; the rules are :mod:`studygen.study.placeholders`'),
which the README would publish as the study's own words. An error once the
study file says it is ready to publish (``status: ready``, the default), a
warning while it says ``status: draft``, as ``studygen new`` writes it
(:func:`studygen.study.scaffold.unfinished_severity`).

Case (issue 22): after ``new`` and one ``collect``, the README published
"What model, which variants, measured where and why (edit this)." and
"Not decided yet", and ``check`` said 0 errors; the title ``new`` wrote
("alexnet_kineto: fp32") reached a ``status: ready`` README without a finding.
Case (a new user's study): ``title: TODO``, ``description: TBD``, a summary
``'...'`` and ``revisit_when: [TODO]`` in a ``status: ready`` study gave
0 errors, and the README published "# TODO", "TBD", "..." and "- TODO".

The README has two more ways to print text nobody checked, also reported
here: a record's notes (printed under Provenance), at the note in its record;
and a template's own text ("## Method" then "TODO"), at the README line, the
part of the line a render helper printed left out (its figures are checked
elsewhere) and a line that prints a string reported at its source skipped.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..records.jsonpos import pointer_from_path
from ..records.load import yaml_line
from ..study.placeholders import is_prose_field, names_a_marker, placeholder_found, spec_strings
from .base import readme_finding
from .readme_text import normalize, shortened
from ..study.scaffold import EDIT_MARKER, is_placeholder, unfinished_severity


def _quoted(text: str, at: int) -> str:
    """``text`` stripped and quoted (``repr``), shortened as other findings
    quote text (:func:`~.readme_text.shortened`) so that the placeholder at
    offset ``at`` of ``text`` stays in the quote: a 15,000-character summary
    was quoted whole, a finding line of 15,215 characters."""
    stripped = text.strip()
    return repr(shortened(stripped, keep=max(0, at - (len(text) - len(text.lstrip())))))


def _problem(path: tuple, text: str) -> str:
    """What is wrong with the study-file string ``text`` at ``path``, as a
    message ending in the text quoted; '' when nothing is."""
    where = "/".join(str(step) for step in path)
    if is_placeholder(text):
        marker = _EDIT_MARKER.search(text)
        return f"{where} still holds the placeholder studygen new wrote: {_quoted(text, marker.start() if marker else 0)}"
    reason, at = placeholder_found(text) if is_prose_field(path) else ("", 0)
    return f"{where} is placeholder text, not the study's words ({reason}): {_quoted(text, at)}" if reason else ""


_HINT = ("write what the study is (title, description) and what was decided (decision.summary) in the "
         "study file, or remove an optional entry that has nothing to say")
_MARKUP = re.compile(r"^(?:#+|[-*+]|>|\d+[.)])\s+")  # a heading's, a list item's or a quote's mark
# studygen new's marker as is_placeholder finds it, case and spacing aside
_EDIT_MARKER = re.compile(r"\s+".join(map(re.escape, EDIT_MARKER.split())), re.IGNORECASE)


def check(context) -> list[Finding]:
    study = context.study
    findings, severity, printed = [], unfinished_severity(study.spec), []
    for path, text in spec_strings(study.spec):
        message = _problem(path, text)
        if message:
            pointer = pointer_from_path(path)
            findings.append(Finding("SG218", message, study.rel(study.study_path), line=yaml_line(study.spec_text, *path),
                                    pointer=pointer, severity=severity, hint=_HINT))
            printed.append(normalize(text))
    for record in study.records:
        for pointer, note in _notes(record.data):
            reason, at = placeholder_found(note)
            if reason:
                findings.append(Finding(
                    "SG218", f"a note of job {record.job_id} is placeholder text ({reason}): {_quoted(note, at)}",
                    record.display_path, line=record.line_of(pointer), pointer=pointer, severity=severity,
                    hint="the README prints a record's notes under Provenance: say what the note is about"))
                printed.append(normalize(note))
    return findings + _template_text(context, severity, [text for text in printed if text])


def _notes(document: dict):
    """``(pointer, note)`` of each string note of a record (its own and its provenance's)."""
    for prefix, holder in (("/notes", document), ("/provenance/notes", document.get("provenance") or {})):
        for index, note in enumerate(holder.get("notes") or []):
            if isinstance(note, str):
                yield f"{prefix}/{index}", note


def _outside_helpers(line: str, spans) -> str:
    """``line`` with every character a helper output covers (``spans``:
    ``(start, end, item)`` in the line) as a space: the template's own text."""
    if not spans:
        return line
    chars = list(line)
    for start, end, _ in spans:
        chars[start:end] = " " * len(chars[start:end])
    return "".join(chars)


def _template_text(context, severity: str, printed: list[str]) -> list[Finding]:
    """Findings at README lines whose text a template wrote (no render
    helper printed it, and it holds no string reported at its source,
    ``printed``) and that are placeholder text."""
    readme = context.readme_text
    if readme is None:
        return []
    findings = []
    for index, line in readme.prose_lines():
        kept = _outside_helpers(line, readme.spans[index])
        text = _MARKUP.sub("", kept.strip())
        if not text.strip() or any(source in line for source in printed):
            continue
        # a line of pipes or dashes is a table's, a list's
        reason, at = placeholder_found(text) if names_a_marker(text) else ("", 0)
        if reason:
            findings.append(readme_finding(
                context.study, "SG218", index + 1, f"template text is placeholder text ({reason}): {_quoted(text, at)}",
                hint="write the section in the template, or leave it out", severity=severity))
    return findings
