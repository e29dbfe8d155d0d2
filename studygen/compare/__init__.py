"""What changes in a study between two revisions: figures, verdicts, findings.

Pure: loaded studies, committed READMEs and check findings in, changes out
(``studygen diff`` reads the revisions through git and prints the report,
:mod:`studygen.commands.diff`). One family at a time:

- :mod:`~studygen.compare.figures`: every measurement key's figure, old and
  new, and whether it moved within or beyond its spread;
- :mod:`~studygen.compare.rekey`: jobs whose provenance (GPU, software
  versions, checkpoint revision) changed and moved their figures to new
  keys with the same values: one provenance change each, not removed and
  new figures;
- :mod:`~studygen.compare.regroup`: kernel-time profiles read again from
  the same input (same ``source_sha256`` and ``source_locator``) whose
  groups changed with the study file's ``kernel_groups``: one regrouping
  each, their figures left out of the comparison by key;
- :mod:`~studygen.compare.sentences`: README sentences with a verdict or a
  range that changed, and verdicts that flipped;
- findings (SG1xx, SG2xx) present at one revision and not the other, matched
  on what they say about which measurement: code, severity, file, measurement
  key and message with its places normalised (:func:`finding_identity`), not
  the line or the JSON pointer: an unchanged finding moves when lines are
  added above it, and every later pointer of a record shifts when
  ``collect --replace`` moves a job's results to its end; of those left, one
  gone and one appeared with the same code, file and measurement key are one
  finding that changed (its figures moved), old and new message side by side;
- the study file's decision (``decision.shipped``) when it flips.

A side whose study cannot be read (its study file does not load or is
not there while its folder is, a record, dataset definition or folder
fails to load, or it has no record at all: SG202, which ``check`` fails)
has no figures: nothing of its figures, decision or findings is compared,
and the family says which side could not be read (:class:`Unreadable`).
An unreadable head fails ``studygen diff`` under every ``--fail-on`` but
``never``; an unreadable base alone does not: the change repairs it, nothing
at base bounds the head's figures, and ``check`` judges the head itself
(failing it kept a change that fixes a broken record on the default branch
from passing the gate that branch was broken past).
The figures a loaded study still holds beside its unreadable files were
reported as unchanged, and a head that ``check`` and ``render`` refuse
passed the gate.

:mod:`~studygen.compare.report` prints a :class:`Report` as text, Markdown,
JSON or GitHub annotations and says which changes fail a run.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..findings import ERROR, Finding
from ..place import Place
from ..records.load import yaml_line
from ..rules import code_of
from .figures import BEYOND, NEW, REMOVED, UNCHANGED, WITHIN, FigureChange, figure_changes, profile_words
from .regroup import Regrouping, find_regroupings
from .rekey import ProvenanceChange
from .sentences import SentenceChange, compare_sentences


@dataclass(frozen=True)
class Revision:
    """One family at one revision: ``study`` (loaded; None when the family
    does not exist there or its study file cannot be loaded), ``findings``
    (check's, paths relative to the project root), ``readme`` (the committed
    README's text, None when there is none) and ``problem`` (why the study
    could not be loaded, '' when it could)."""

    study: object | None
    findings: tuple[Finding, ...] = ()
    readme: str | None = None
    problem: str = ""
    exists: bool = True


INVALID_RECORD = code_of("studygen.checks.sg202_records")  # the code of a file that failed to load


@dataclass(frozen=True)
class Unreadable:
    """One side of a family whose study could not be read: ``side``
    (``base`` or ``head``), ``files`` (those its SG202 findings name, in
    order), ``errors`` (how many SG202 findings) and ``first`` (the first
    one's message, or why the study could not be loaded)."""

    side: str
    files: tuple[str, ...]
    errors: int
    first: str

    def words(self) -> str:
        """``the head could not be read: 12 SG202 errors in a.json, b.json (first: ...); its figures and findings
        are not compared``."""
        count = f"{self.errors} {INVALID_RECORD} error{'' if self.errors == 1 else 's'}"
        where = f" in {', '.join(self.files)}" if self.files else ""
        return (f"the {self.side} could not be read: {count}{where} (first: {self.first}); "
                f"its figures and findings are not compared")


def unreadable(side: str, revision: Revision) -> Unreadable | None:
    """How ``revision`` could not be read, None when its study loaded
    whole (or the family does not exist there). A study with no record at
    all is unreadable too: check fails it (SG202), and no figure of it
    bounds or is bounded by the other side's. Case (attack s21): every
    record of a family deleted passed diff, exit 0, beside that error."""
    invalid = [finding for finding in revision.findings if finding.code == INVALID_RECORD]
    if not revision.exists or (revision.study is not None and not revision.study.has_unread_files
                               and not any(finding.severity == ERROR for finding in invalid)):
        return None
    first = invalid[0].message if invalid else revision.problem
    return Unreadable(side, tuple(dict.fromkeys(f.file for f in invalid if f.file)), len(invalid), first)


@dataclass(frozen=True)
class FindingChange:
    """A finding present at one revision only: ``appeared`` at head, or gone;
    or, with ``was`` (the base's finding), one whose words changed: the head's
    ``finding`` says about the same measurement what ``was`` said before, with
    other figures (``appeared`` is then True: ``finding`` is the head's)."""

    finding: Finding
    appeared: bool
    was: Finding | None = None

    @property
    def how(self) -> str:
        """``appeared``, ``gone`` or ``changed``: the words each format prints."""
        return "changed" if self.was is not None else "appeared" if self.appeared else "gone"


@dataclass
class FamilyChanges:
    """Everything that changed in one family (see the module docstring).
    ``compared`` is False when its inputs are byte-identical at both
    revisions, so nothing was compared; ``figures`` holds every key,
    unchanged ones included; ``shipped`` is ``decision.shipped`` at base and
    head (None where there is no study); ``notes`` say what could not be
    compared; ``unreadable`` the sides whose study could not be read (then
    no figure and no decision is compared); ``provenance`` the jobs whose
    figures were re-keyed by a provenance change (those figures are not in
    ``figures``); ``regrouped`` the kernel-time profiles grouped otherwise
    from the same input (their figures are not in ``figures`` either);
    ``removed``: the family is there at base and gone at head (no study
    file and no folder: taken out on purpose, not broken); ``decision_place`` the head study file's
    ``decision.shipped`` (line 0 where the file has no such key; an empty
    place where the head has no study)."""

    family: str
    readme_path: str
    compared: bool = True
    figures: list[FigureChange] = field(default_factory=list)
    sentences: list[SentenceChange] = field(default_factory=list)
    findings: list[FindingChange] = field(default_factory=list)
    shipped: tuple[bool | None, bool | None] = (None, None)
    notes: list[str] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    provenance: list[ProvenanceChange] = field(default_factory=list)
    regrouped: list[Regrouping] = field(default_factory=list)
    removed: bool = False
    decision_place: Place = Place()

    def figures_with(self, verdict: str) -> list[FigureChange]:
        return [change for change in self.figures if change.verdict == verdict]

    @property
    def verdict_changes(self) -> list[SentenceChange]:
        return [change for change in self.sentences if change.verdict_changed]

    @property
    def decision_flipped(self) -> bool:
        old, new = self.shipped
        return old is not None and new is not None and old != new

    @property
    def changed(self) -> bool:
        """Whether anything is reported for the family."""
        return bool(any(c.verdict != UNCHANGED for c in self.figures) or self.provenance or self.regrouped
                    or self.sentences
                    or self.findings or self.decision_flipped or self.notes or self.unreadable
                    or self.removed)


def compare_family(family: str, readme_path: str, base: Revision, head: Revision) -> FamilyChanges:
    """The changes of one family from ``base`` to ``head``."""
    changes = FamilyChanges(family, readme_path)
    changes.removed = base.exists and not head.exists
    changes.unreadable = [u for u in (unreadable("base", base), unreadable("head", head)) if u is not None]
    if not changes.unreadable:
        changes.regrouped, regrouped_rows = find_regroupings(base.study, head.study, profile_words)
        changes.figures, changes.provenance = figure_changes(base.study, head.study, regrouped_rows)
        changes.shipped = (_shipped(base.study), _shipped(head.study))
        changes.decision_place = _decision_place(head.study)
    changes.sentences = compare_sentences(base.readme, head.readme, readme_path)
    # an unreadable side's findings are those of what loaded: "gone" would read as fixed (its unreadable line names
    # the SG202 errors instead)
    changes.findings = [] if changes.unreadable else compare_findings(base.findings, head.findings)
    return changes


def unchanged_family(family: str, readme_path: str) -> FamilyChanges:
    """A family whose inputs are the same bytes at both revisions: nothing to compare."""
    return FamilyChanges(family, readme_path, compared=False)


def _decision_place(study) -> Place:
    """Where ``decision.shipped`` stands in ``study``'s file, so that a
    flipped decision is annotated on the line the pull request changed."""
    if study is None:
        return Place()
    return Place(study.rel(study.study_path), yaml_line(study.spec_text, "decision", "shipped"), "/decision/shipped")


def _shipped(study) -> bool | None:
    if study is None:
        return None
    return bool((study.spec.get("decision") or {}).get("shipped"))


# Places inside a message: a JSON pointer's array indexes ("/results/62/value_ms"), a file's line
# ("run.log:33", "study.yaml:line 4") and a README or record line ("line 12", "lines 3 to 5").
_POINTER_INDEX = re.compile(r"(?<=[A-Za-z_]/)\d+(?=/|\b)")  # after a name ("results/"), never "3/4 rows"
_FILE_LINE = re.compile(r"(\.[A-Za-z][A-Za-z0-9]{0,9}):(?:line )?\d+\b")  # after a file name's extension
_LINE_WORDS = re.compile(r"\b(lines?) \d+(?:(?: to |-)\d+)?\b")


def normalised_message(message: str) -> str:
    """``message`` with the places it names replaced by ``#``: the same
    finding about the same measurement reads the same at two revisions
    whose records or README put it elsewhere."""
    message = _POINTER_INDEX.sub("#", message)
    message = _FILE_LINE.sub(r"\1:#", message)
    return _LINE_WORDS.sub(r"\1 #", message)


def finding_identity(finding: Finding) -> tuple:
    """What a finding says about which measurement: code, severity, file,
    measurement key and :func:`normalised_message` (not its line or
    pointer)."""
    return (finding.code, finding.severity, finding.file, finding.key or "", normalised_message(finding.message))



def compare_findings(old: tuple[Finding, ...] | list[Finding], new: tuple[Finding, ...] | list[Finding]) -> list[FindingChange]:
    """Findings of one revision that the other lacks (each matched once, see
    the module docstring): those gone first, then those that changed
    (:func:`_paired`), then those that appeared."""
    def unmatched(findings, others) -> list[Finding]:
        # each finding of ``others`` matches one finding of ``findings`` with its identity, in order
        left = Counter(map(finding_identity, others))
        kept = []
        for finding in findings:
            identity = finding_identity(finding)
            if left[identity]:
                left[identity] -= 1
            else:
                kept.append(finding)
        return kept

    gone, appeared = unmatched(old, new), unmatched(new, old)
    changed, gone, appeared = _paired(gone, appeared)
    return ([FindingChange(finding, appeared=False) for finding in gone] + changed
            + [FindingChange(finding, appeared=True) for finding in appeared])


def _paired(gone: list[Finding], appeared: list[Finding]) -> tuple[list[FindingChange], list[Finding], list[Finding]]:
    """``(changed, gone, appeared)``: each finding that went paired, in order,
    with one that appeared with the same code, file and measurement key (a
    finding whose figures moved: an SG203 disagreement whose values changed),
    as one change; the rest as given. Findings without a key are never paired:
    nothing says two of them concern the same measurement."""
    waiting: dict[tuple, list[int]] = {}  # (code, file, key) -> indexes into appeared, in order
    for index, finding in enumerate(appeared):
        if finding.key:
            waiting.setdefault((finding.code, finding.file, finding.key), []).append(index)
    changed, still_gone, taken = [], [], set()
    for finding in gone:
        partners = waiting.get((finding.code, finding.file, finding.key)) if finding.key else None
        if partners:
            taken.add(index := partners.pop(0))
            changed.append(FindingChange(appeared[index], appeared=True, was=finding))
        else:
            still_gone.append(finding)
    return changed, still_gone, [finding for index, finding in enumerate(appeared) if index not in taken]


__all__ = ["BEYOND", "NEW", "REMOVED", "UNCHANGED", "WITHIN", "FamilyChanges", "FindingChange", "ProvenanceChange",
           "Regrouping", "Revision", "Unreadable", "compare_family", "compare_findings", "unchanged_family", "unreadable"]
