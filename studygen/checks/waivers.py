"""Waivers and explanations from the study file.

A waiver demotes one finding (by code and measurement key, README line, or
message text) to a notice that carries its mandatory reason; an explanation
does the same for an anomaly and is rendered next to the known gaps. A waiver
or explanation that matches no finding is itself a finding (SG216), so stale
waivers cannot pile up: an error, a warning while the study file says
``status: draft`` (a new user's study scaffolded without ``--revision`` kept
``new``'s waiver of the missing revision, and its random-init records needed
none: the draft failed on the scaffold's own entry).

An entry that could hide more than one known finding is refused, not
applied, and is an SG216 finding of its own at its study-file line, whatever
else the study holds: one for a code the rule table marks not waivable
(``Rule.waivable`` in :mod:`studygen.rules`: a stale README, an invalid record, a
figure typed into the template, a refused waiver), one whose ``match`` has
fewer than :data:`studygen.study.waiver_rules.MIN_MATCH_CHARS` characters besides spaces, and an
explanation that gives neither ``key`` nor ``match``. Case (attack round):
``{code: SG202, match: "", reason: ...}`` waived an invalid record, since
``""`` is in every message, and with it every check the invalid record
stopped (exit 0); the same on SG201 let a README edited by hand pass, and an
explanation without a selector took every finding of its code.

Every entry that matches a finding counts as used, whatever other entries
match it too, and the finding carries the reasons of all of them: the order
of the entries in the study file changes nothing. Case (issue 22): an
explanation matching ``GeForce GTX 1070``, a GPU the device-to-host finding
named among its other platforms, took that finding first, so the entry
written for it (``device-to-host``) was reported as matching nothing and the
finding showed the GTX 1070 text; swapping the two entries cleared it.

A finding that stands for several (``Finding.parts``: SG203's finding of a
measurement key stands for each pair of its jobs that disagree) is held to
its parts as well: an entry that matches a part names that part only (a
waiver written for one pair of jobs by its README line or message text never
hides the key's other pairs), one that matches the finding and none of its
parts names the whole, and the finding is waived where every part is named.
"""

from __future__ import annotations

from dataclasses import replace

from ..findings import Finding
from ..records.load import yaml_line
from ..study.scaffold import unfinished_severity
from ..study.waiver_rules import SELECTORS, refusal

REASONS_SEPARATOR = " | "


def matches(entry: dict, finding: Finding) -> bool:
    """True when a waiver/explanation entry names this finding."""
    if entry["code"] != finding.code:
        return False
    if "key" in entry and entry["key"] != finding.key:
        return False
    if "line" in entry and entry["line"] != finding.line:
        return False
    if "match" in entry and entry["match"] not in finding.message:
        return False
    return True


def _narrowness(entry: dict) -> int:
    """Index in :data:`SELECTORS` of the narrowest selector the entry gives (its code alone: past the end)."""
    return next((i for i, name in enumerate(SELECTORS) if name in entry), len(SELECTORS))


def joined_reasons(matched: list[tuple[dict, str]]) -> str:
    """The reasons of the ``(entry, reason)`` pairs that match one finding, each
    once, narrowest selector first (:data:`SELECTORS`), then by text, so that
    the order of the study file does not change them; joined by
    :data:`REASONS_SEPARATOR`."""
    ordered = sorted(matched, key=lambda pair: (_narrowness(pair[0]), pair[1]))
    return REASONS_SEPARATOR.join(dict.fromkeys(reason for _, reason in ordered))


def unmatched_hint(entry: dict, findings: list[Finding]) -> str:
    """SG216's hint for ``entry``, which matches none of ``findings`` (all the
    family's findings, before waivers): the finding is gone when none has the
    entry's code; otherwise the selectors the code's findings all miss."""
    code = entry["code"]
    count = sum(1 for f in findings if f.code == code)
    if not count:
        return f"remove it: check reports no {code} finding in this family now, so the one it covered is gone"
    missed = [f"has the key {entry['key']}"] if "key" in entry else []
    missed += [f"is at README line {entry['line']}"] if "line" in entry else []
    missed += [f'says "{entry["match"]}" in its message'] if "match" in entry else []
    return (f"no {code} finding (of {count} now) {' and '.join(missed)}: make it name the finding it covers "
            "(studygen check --format json gives each finding's key, line and message), or remove it")


def listed_entries(spec: dict) -> list[tuple[str, int, dict, str]]:
    """``(section, index, entry, reason)`` of the study file's waivers and explanations, waivers first,
    each in the file's order; an explanation's reason is ``explained: TEXT``."""
    listed = [("waivers", i, w, w["reason"]) for i, w in enumerate(spec.get("waivers", []))]
    return listed + [("explanations", i, e, "explained: " + e["text"]) for i, e in enumerate(spec.get("explanations", []))]


def active_entries(spec: dict) -> list[dict]:
    """The study file's waivers and explanations that are applied (:func:`refusal` refuses none of
    them), waivers first, each in the file's order."""
    return [entry for section, _, entry, _ in listed_entries(spec) if refusal(section, entry) is None]


def _held_to_parts(finding: Finding, matched: list, entries: list) -> tuple[list, set]:
    """``(matched, named)`` for a finding with ``parts``: the entries that waive it (those that match
    it and none of its parts; or, where every part is matched, every entry that matches one) and
    ``(section, index)`` of each entry that matches a part (used, whether or not it waives the finding)."""
    by_part = [[e for e in entries if matches(e[2], part)] for part in finding.parts]
    named = {(section, index) for each in by_part for section, index, _, _ in each}
    whole = [e for e in matched if (e[0], e[1]) not in named]
    if whole or not all(by_part):
        return whole, named
    return list({(e[0], e[1]): e for each in by_part for e in each}.values()), named


def apply_waivers(study, findings: list[Finding]) -> list[Finding]:
    """Findings with waived/explained ones demoted to notices, plus SG216 for
    every waiver or explanation that was refused (:func:`refusal`: it is not
    applied) or matched nothing."""
    spec = study.spec
    study_file = study.rel(study.study_path)
    entries, refused_entries = [], []
    for section, index, entry, reason in listed_entries(spec):
        refused = refusal(section, entry)
        if refused is None:
            entries.append((section, index, entry, reason))
        else:
            refused_entries.append(Finding("SG216", refused[0], study_file,
                                           line=yaml_line(study.spec_text, section, index), hint=refused[1]))
    used, result = set(), []
    for finding in findings:
        matched = [(section, index, entry, reason) for section, index, entry, reason in entries
                   if matches(entry, finding)]
        if finding.parts:
            matched, named = _held_to_parts(finding, matched, entries)
            used.update(named)
            finding = replace(finding, parts=())
        if matched:
            used.update((section, index) for section, index, _, _ in matched)
            finding = finding.waived(joined_reasons([(entry, reason) for _, _, entry, reason in matched]))
        result.append(finding)
    result += refused_entries  # whatever else the study holds: a refusal needs no other check to have run
    if study.problems:
        # With a record unreadable most checks could not run: an unmatched waiver proves nothing then.
        return result
    # a waiver left over while the study is a draft (the one studygen new writes for a missing revision, where
    # the records turn out to need none: random weights) is a warning until the study is ready to publish
    unused_severity = unfinished_severity(spec)
    for section, index, entry, _ in entries:
        if (section, index) not in used:
            target = entry.get("key") or entry.get("match") or f"line {entry.get('line')}"
            result.append(Finding(
                "SG216", f"{section[:-1]} for {entry['code']} ({target}) matches no finding", study_file,
                line=yaml_line(study.spec_text, section, index), hint=unmatched_hint(entry, findings),
                severity=unused_severity))
    return result
