"""A diff report (:class:`~studygen.compare.report.Report`) as one JSON object.

``base``, ``head``, ``summary`` (:meth:`Report.summary`'s counts) and
``families``: each with its changed figures (``delta`` and ``relative``
change, ``points`` for a quality figure, ``farthest``: the head job that
moved most, ``still_reported_by``: the head's jobs that still report a
removed figure of one job), its provenance changes and regroupings, the
count of unchanged figures, its sentences, findings, decision and notes,
and the sides that could not be read. Split from :mod:`studygen.compare.report`,
which keeps the other three formats.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from . import FindingChange, ProvenanceChange, Regrouping
from .figures import UNCHANGED, FigureChange
from .report import Report, sentence_kind
from .sentences import ProseSentence, SentenceChange


def format_json(report: Report) -> str:
    """One JSON object: ``base``, ``head``, ``summary`` (counts), ``families``
    (each with its changed figures, sentences, findings, decision and notes)."""
    families = []
    for family in report.families:
        families.append({
            "family": family.family, "compared": family.compared, "removed": family.removed,
            "figures": [_figure_json(c) for c in family.figures if c.verdict != UNCHANGED],
            "provenance": [_provenance_json(c) for c in family.provenance],
            "regrouped": [_regrouping_json(c) for c in family.regrouped],
            "unchanged_figures": len(family.figures_with(UNCHANGED)),
            "sentences": [_sentence_json(c) for c in family.sentences],
            "findings": [_finding_json(c) for c in family.findings],
            "decision_shipped": {"base": family.shipped[0], "head": family.shipped[1]},
            "notes": family.notes, "unreadable": [asdict(u) for u in family.unreadable]})
    return json.dumps({"base": report.base, "head": report.head, "summary": report.summary(),
                       "families": families}, indent=2)


def _finding_json(change: FindingChange) -> dict:
    """The finding (the head's, for one that changed), its ``change``, and ``was`` (the base's) for one that changed."""
    data = dict(asdict(change.finding), change=change.how)
    if change.was is not None:
        data["was"] = asdict(change.was)
    return data


def _figure_json(change: FigureChange) -> dict:
    data = {"key": change.key, "what": change.what, "unit": change.unit, "verdict": change.verdict,
            "old": list(change.old), "new": list(change.new), "old_jobs": list(change.old_jobs),
            "new_jobs": list(change.new_jobs), "old_value": change.old_value, "new_value": change.new_value,
            "delta": change.delta, "relative": change.relative, "points": change.points,
            "farthest": change.farthest, "still_reported_by": list(change.still_reported_by),
            "spread": asdict(change.spread) if change.spread else None, "file": change.place.path,
            "line": change.place.line, "pointer": change.place.pointer}
    return data


def _provenance_json(change: ProvenanceChange) -> dict:
    return {"job": change.job, "fields": [{"name": n, "base": old, "head": new} for n, old, new in change.fields],
            "timing": [{"flag": flag, "base": old, "head": new} for flag, old, new in change.timing],
            "re_keyed": len(change.figures), "value_changed": change.value_changed,
            "figures": [asdict(figure) for figure in change.figures], "file": change.place.path,
            "line": change.place.line, "pointer": change.place.pointer}


def _regrouping_json(change: Regrouping) -> dict:
    found = {"job": change.job, "what": change.what, "base_groups": list(change.old_groups),
             "head_groups": list(change.new_groups), "source_sha256": change.sha256 or None,
             "source_locator": change.locator or None, "base_figures": change.old_figures,
             "head_figures": change.new_figures, "file": change.place.path, "line": change.place.line,
             "pointer": change.place.pointer}
    if change.moved:  # a profile measured again: no input in common, the kernels that changed group instead
        found["moved_kernels"] = [{"kernel": name, "base_group": old, "head_group": new} for name, old, new in change.moved]
    return found


def _sentence_json(change: SentenceChange) -> dict:
    def side(sentence: ProseSentence | None):
        if sentence is None:
            return None
        return {"text": sentence.text, "line": sentence.line, "heading": sentence.heading,
                "verdicts": sorted(sentence.verdicts)}
    return {"kind": sentence_kind(change), "old": side(change.old), "new": side(change.new)}
