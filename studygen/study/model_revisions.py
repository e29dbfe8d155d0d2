"""The checkpoints a study file allows its records to hold: its model and revisions.

A study file's ``model.revision`` names the revision a collect fills in when
``--checkpoint`` gives none; ``model.revisions`` lists the others its records
may hold (logs published at several commits of one model repository, each
with its own export). ``collect`` accepts a ``--checkpoint`` revision among
them and refuses any other; SG209 reports a record holding any other. Both
ask :func:`names_revision`, so one rule decides for both, and it is the
rule the measurement key follows (:class:`studygen.records.checkpoints.Revisions`):
a hash names its commit in either case and abbreviated to 7 digits or more,
unless it begins two commits in view; a tag or branch only itself.

Likewise ``model.id``: a ``--checkpoint`` id and a record's
``provenance.checkpoint.id`` must name the study's model, however spelt
(:func:`names_model`, :func:`studygen.records.checkpoints.names_model_id`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..records.checkpoints import Revisions, names_model_id, prefix_of

UNKNOWN_ID = "unknown"  # the id a collect writes when nobody named the checkpoint (records.provenance)


def allowed_revisions(model: dict | None) -> list[str]:
    """The revisions ``model`` (a study file's ``model`` entry) allows, in the
    order written: ``revision`` first, then each of ``revisions`` not already
    named. Empty when the study states none (then every revision is allowed)."""
    model = model or {}
    named = [model.get("revision"), *(model.get("revisions") or [])]
    return [revision for revision in dict.fromkeys(named) if revision]  # each once, first place kept


def revisions_in_view(model: dict | None, held: Iterable = ()) -> Revisions:
    """The revisions a study sees: those ``model`` allows and those its
    records hold (``held``; None and empty left out)."""
    return Revisions([*allowed_revisions(model), *(revision for revision in held if revision)])


def names_revision(model: dict | None, revision: str, view: Revisions | None = None) -> bool:
    """Whether the study file's ``model`` allows a record to hold checkpoint
    ``revision``: it names or lists one with the same key among the
    revisions in ``view`` (default: the allowed ones and ``revision``), or
    states no revision at all."""
    allowed = allowed_revisions(model)
    view = view or revisions_in_view(model)
    # only a revision that equals, begins or is begun by ``revision`` can name its commit (a cheap test first)
    return not allowed or any(prefix_of(revision, known) and view.same(revision, known) for known in allowed)


def describe_allowed(model: dict | None) -> str:
    """What ``model`` allows, as a message names it: ``model revision
    abc1234`` for one, ``model revisions abc1234, def5678`` for several
    (``revision`` first, then ``revisions``)."""
    allowed = allowed_revisions(model)
    return f"model revision{'s' if len(allowed) > 1 else ''} {', '.join(allowed)}"


def names_model(model: dict | None, checkpoint_id: str | None) -> bool:
    """Whether a checkpoint ``checkpoint_id`` (a record's or a ``--checkpoint``'s)
    is the study file's ``model``: true when either states no id (or the
    record's is ``unknown``), else by
    :func:`~studygen.records.checkpoints.names_model_id` (its id however
    spelt, or its ``local_dir``)."""
    model = model or {}
    if not model.get("id") or not checkpoint_id or checkpoint_id == UNKNOWN_ID:
        return True
    return names_model_id(checkpoint_id, model["id"], model.get("local_dir"))
