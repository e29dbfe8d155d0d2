"""The text ``studygen new`` writes for a newcomer to replace.

``new`` (:mod:`studygen.commands.new`) fills the study file's prose fields
(title, description, decision) with these placeholders; SG218 (:mod:`studygen.checks.sg218_placeholder`)
reports any study-file text that still holds one, so that a README never
publishes "(edit this)". Kept below both, in the study layer, so that the
command and the check read the same words.
"""

from __future__ import annotations

from ..rules import WARNING

# Marks a text to be replaced; SG218 finds it anywhere in a study-file string.
EDIT_MARKER = "(edit this)"
DESCRIPTION_PLACEHOLDER = f"What model, which variants, measured where and why {EDIT_MARKER}."
SUMMARY_PLACEHOLDER = "Not decided yet: collect measurements, then state the decision here."


def title_placeholder(family: str) -> str:
    """The title ``new`` writes for ``family``: the family name and
    :data:`EDIT_MARKER` (``demo (edit this)``), which no title a person
    writes holds, so SG218 finds it. It names no variant: a variant later
    declared not measured would make the placeholder an SG206 finding too."""
    return f"{family} {EDIT_MARKER}"


# Texts ``new`` writes that are placeholders as a whole, besides any text holding EDIT_MARKER.
PLACEHOLDERS = (DESCRIPTION_PLACEHOLDER, SUMMARY_PLACEHOLDER)


def is_placeholder(text: str) -> bool:
    """True when ``text`` (a study-file string) holds :data:`EDIT_MARKER`
    or starts with one of ``new``'s whole-text placeholders' first clause
    ("Not decided yet"), case and spacing aside."""
    folded = " ".join(str(text).split()).lower()
    if EDIT_MARKER in folded:
        return True
    return any(folded.startswith(placeholder.split(":")[0].lower()) for placeholder in PLACEHOLDERS)


# The study file's ``status``: ``draft`` while a newcomer fills it in, ``ready`` (the default) to publish.
DRAFT = "draft"


def unfinished_severity(spec: dict) -> str:
    """Severity of SG218, SG219, SG209's missing repository commit and SG216's
    unused waiver for the study file ``spec``: the rule table's (an error) once the study is ready to publish (``status: ready``,
    or no status), a warning while it says ``status: draft`` (as ``new``
    writes it), so that a draft renders and checks while it is filled in.
    ``""`` stands for the rule table's severity (:class:`studygen.findings.Finding`'s default)."""
    return WARNING if spec.get("status") == DRAFT else ""
