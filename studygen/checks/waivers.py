"""Waivers and explanations from the study file.

A waiver demotes one finding (by code and measurement key, README line, or
message text) to a notice that carries its mandatory reason; an explanation
does the same for an anomaly and is rendered next to the known gaps. A waiver
or explanation that matches no finding is itself a finding (SG216), so stale
waivers cannot pile up.
"""

from __future__ import annotations

from ..findings import Finding
from ..records.load import yaml_line


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


def apply_waivers(study, findings: list[Finding]) -> list[Finding]:
    """Findings with waived/explained ones demoted to notices, plus SG216 for
    every waiver or explanation that matched nothing."""
    spec = study.spec
    entries = [("waivers", i, w, w["reason"]) for i, w in enumerate(spec.get("waivers", []))]
    entries += [("explanations", i, e, "explained: " + e["text"]) for i, e in enumerate(spec.get("explanations", []))]
    used = set()
    result = []
    for finding in findings:
        for section, index, entry, reason in entries:
            if matches(entry, finding):
                finding = finding.waived(reason)
                used.add((section, index))
                break
        result.append(finding)
    study_file = study.rel(study.study_path)
    if study.problems:
        # With a record unreadable most checks could not run: an unmatched waiver proves nothing then.
        return result
    for section, index, entry, _ in entries:
        if (section, index) not in used:
            target = entry.get("key") or entry.get("match") or f"line {entry.get('line')}"
            result.append(Finding(
                "SG216", f"{section[:-1]} for {entry['code']} ({target}) matches no finding", study_file,
                line=yaml_line(study.spec_text, section, index),
                hint="remove it: the finding it covered is gone, or its key changed"))
    return result
