"""The checkpoint revisions a study file allows its records to hold.

A study file's ``model.revision`` names the revision a collect fills in when
``--checkpoint`` gives none; ``model.revisions`` lists the others its records
may hold (logs published at several commits of one model repository, each
with its own export). ``collect`` accepts a ``--checkpoint`` revision among
them and refuses any other; SG209 reports a record holding any other. Both
ask :func:`names_revision`, so one rule decides for both.

A git commit may be written abbreviated: two hex revisions of 7 to 40
digits name the same commit when the shorter one begins the longer one
(case aside), as a measurement key keeps only the first 7 digits
(:func:`studygen.records.keys.short_revision`). Other revisions (a branch, a
tag) match only when equal.
"""

from __future__ import annotations

import re

GIT_HASH = re.compile(r"[0-9a-fA-F]{7,40}")


def allowed_revisions(model: dict | None) -> list[str]:
    """The revisions ``model`` (a study file's ``model`` entry) allows, in the
    order written: ``revision`` first, then each of ``revisions`` not already
    named. Empty when the study states none (then every revision is allowed)."""
    model = model or {}
    named = [model.get("revision"), *(model.get("revisions") or [])]
    allowed: list[str] = []
    for revision in named:
        if revision and revision not in allowed:
            allowed.append(revision)
    return allowed


def same_revision(first: str, second: str) -> bool:
    """Whether two revisions name one commit: equal, or both hex git hashes
    of 7 to 40 digits, the shorter beginning the longer (case aside)."""
    if first == second:
        return True
    if not (GIT_HASH.fullmatch(first) and GIT_HASH.fullmatch(second)):
        return False
    first, second = first.lower(), second.lower()
    return first.startswith(second) or second.startswith(first)


def names_revision(model: dict | None, revision: str) -> bool:
    """Whether the study file's ``model`` allows a record to hold checkpoint
    ``revision``: it names or lists it (:func:`same_revision`), or states no
    revision at all."""
    allowed = allowed_revisions(model)
    return not allowed or any(same_revision(revision, known) for known in allowed)


def describe_allowed(model: dict | None) -> str:
    """What ``model`` allows, as a message names it: ``model revision
    abc1234`` for one, ``model revisions abc1234, def5678`` for several
    (``revision`` first, then ``revisions``)."""
    allowed = allowed_revisions(model)
    return f"model revision{'s' if len(allowed) > 1 else ''} {', '.join(allowed)}"
