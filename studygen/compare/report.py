"""A diff report (:class:`Report`) printed four ways, and the exit code it gives.

- ``text``: per family, one line per change (the figure, old -> new, the
  change absolute and relative, the spread it was held to, its place), then
  a summary line;
- ``md``: for a pull-request comment: the summary, the new error findings
  (:meth:`Report.new_errors`: check fails on each), the figures beyond their
  spread (the :data:`SUMMARY_ROWS` largest changes, :func:`change_size`), the verdict
  changes and the removed figures first, then every change folded in ``<details>`` blocks (GitHub
  renders them collapsed), cut to :data:`MAX_COMMENT_CHARS`;
- ``json``: one object (:mod:`studygen.compare.report_json`);
- ``github``: workflow commands (``::error file=…,line=…::…``, as
  docs.github.com "Workflow commands for GitHub Actions" gives them) at the
  changed lines of the head revision: what fails the run under ``--fail-on``
  as errors, removed figures and findings that appeared as warnings, other
  changes as notices.

A job whose provenance changed and re-keyed its figures, values kept
(:class:`~studygen.compare.rekey.ProvenanceChange`), is one line in every
format (Markdown: above the removed figures; JSON: ``provenance``; GitHub: a
notice at the changed field), its figures counted as ``re-keyed``.

A kernel-time profile read again from the same input and grouped by other
rules (:class:`~studygen.compare.regroup.Regrouping`) is one line in every
format too (old groups -> new groups, the input's sha256; Markdown: beside
the provenance changes; JSON: ``regrouped``; GitHub: a notice at the head's
groups), counted as ``regrouped``; it fails nothing, under any
``--fail-on``: no figure was measured again.

A finding whose words changed (same code, file and measurement key:
:func:`studygen.compare.compare_findings`) is one ``finding changed`` line,
old and new messages side by side (:func:`finding_change_text`; JSON:
``was``; GitHub: a notice, a warning where its severity rose), counted as
``changed``, apart from those that appeared or went.

A family there at base and gone at head, folder and study file
(:attr:`~studygen.compare.FamilyChanges.removed`), is said to be removed
(text, Markdown, JSON ``removed``, a GitHub warning) and counted, its
figures listed as removed; it fails nothing: a study taken out on purpose
leaves nothing for ``check`` to fail, and failing it would make the only
way through the gate ``--fail-on never``, which passes every other change
of the pull request too. A family whose folder stays without its study
file, or whose records are all gone, is unreadable instead (see below).

``--fail-on`` (:data:`FAIL_ON`): ``beyond-spread`` fails (exit 1) on any
figure beyond its spread and any verdict change (a sentence's verdicts, or
the study file's ``decision.shipped``); ``verdict`` on verdict changes only;
``never`` never. A study unreadable at head (:class:`~studygen.compare.Unreadable`)
fails both (nothing of it was compared; ``check`` refuses it); one unreadable
at base only is reported and fails nothing (the change repairs it); a
re-keyed figure fails nothing (its value did not move).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal

from ..findings import ERROR, SEVERITIES, Finding, one_line, workflow_command
from ..numbers import format_number
from ..records.kinds import POINTS_PER_UNIT
from ..render.rows import unit_suffix
from ..render.escaping import escape_name
from . import FamilyChanges, FindingChange, ProvenanceChange, Regrouping, Unreadable
from .allowance import RERUN_WORDS
from .figures import BEYOND, HOST_BOUND, NEW, NEW_JOB, REMOVED, UNCHANGED, VERDICT_ORDER, WITHIN, FigureChange
from .sentences import SentenceChange

FAIL_ON = ("beyond-spread", "verdict", "never")
RELATIVE_DECIMALS = 2  # a relative change in %, as "+3.98 %"
MAX_COMMENT_CHARS = 65536  # the longest comment body GitHub accepts
SUMMARY_ROWS = 10  # figures beyond their spread listed above the folded table, largest relative change first
REMOVED_WORDS = "its folder and study file are gone at head; its figures are listed as removed (fails nothing)"
_LEFT_OUT = ("*{count} more lines left out: a comment holds at most 65,536 characters. "
             "`studygen diff --format text` lists every change.*")


@dataclass
class Report:
    """Changes between two revisions: ``base``/``head`` name them in words;
    ``families`` in name order; ``path_prefix`` is the project root relative
    to the repository's top level (GitHub annotations name files from there)."""

    base: str
    head: str
    families: list[FamilyChanges] = field(default_factory=list)
    path_prefix: str = ""

    def figures(self, verdict: str) -> list[tuple[str, FigureChange]]:
        return [(f.family, c) for f in self.families for c in f.figures_with(verdict)]

    def provenance(self) -> list[tuple[str, ProvenanceChange]]:
        """``(family, change)`` of each job whose provenance change re-keyed figures."""
        return [(f.family, c) for f in self.families for c in f.provenance]

    def regrouped(self) -> list[tuple[str, Regrouping]]:
        """``(family, regrouping)`` of each kernel-time profile grouped otherwise from the same input."""
        return [(f.family, r) for f in self.families for r in f.regrouped]

    def verdict_changes(self) -> list[tuple[str, SentenceChange]]:
        return [(f.family, c) for f in self.families for c in f.verdict_changes]

    def decision_flips(self) -> list[FamilyChanges]:
        return [f for f in self.families if f.decision_flipped]

    def unreadable(self, side: str) -> list[tuple[str, Unreadable]]:
        """``(family, how)`` of each family whose study could not be read at ``side`` (``base``/``head``)."""
        return [(f.family, u) for f in self.families for u in f.unreadable if u.side == side]

    def new_errors(self) -> list[tuple[str, FindingChange]]:
        """``(family, change)`` of each error at head the base did not have as one: appeared,
        or changed and risen to error (a waived finding unwaived). Check fails on each."""
        return [(f.family, c) for f in self.families for c in f.findings
                if c.appeared and c.finding.severity == ERROR and (c.was is None or c.was.severity != ERROR)]

    @property
    def changed(self) -> bool:
        return any(f.changed for f in self.families)

    def summary(self) -> dict[str, int]:
        """Counts of every kind of change (the figures by verdict, re-keyed figures and the provenance changes
        that re-keyed them, sentences, findings)."""
        counts = {verdict: len(self.figures(verdict)) for verdict in VERDICT_ORDER}
        counts["re-keyed"] = sum(len(change.figures) for _, change in self.provenance())
        counts["provenance changes"] = len(self.provenance())
        counts["regrouped"] = len(self.regrouped())
        counts["verdict changes"] = len(self.verdict_changes()) + len(self.decision_flips())
        counts["sentences changed"] = sum(len(f.sentences) for f in self.families)
        for how in ("appeared", "gone", "changed"):
            counts[f"findings {how}"] = sum(1 for f in self.families for c in f.findings if c.how == how)
        counts["new error findings"] = len(self.new_errors())
        counts["families removed"] = sum(1 for f in self.families if f.removed)
        counts["unreadable at base"] = len(self.unreadable("base"))
        counts["unreadable at head"] = len(self.unreadable("head"))
        return counts


def exit_code(report: Report, fail_on: str) -> int:
    """1 when ``report`` holds a change ``fail_on`` counts (see the module docstring), else 0."""
    verdicts = bool(report.verdict_changes() or report.decision_flips())
    if fail_on != "never" and report.unreadable("head"):  # an unreadable base alone is repaired, not broken
        return 1
    failing = {"beyond-spread": bool(report.figures(BEYOND)) or verdicts, "verdict": verdicts}
    return 1 if failing.get(fail_on, False) else 0


def summary_line(report: Report) -> str:
    """``2 figures beyond their spread, 1 verdict change; 3 within spread, ...``."""
    if not report.changed:
        return f"nothing changed between {report.base} and {report.head}"
    counts = report.summary()
    unread = [f"{_count(counts[f'unreadable at {side}'], 'family', 'families')} unreadable at {side}"
              for side in ("base", "head") if counts[f"unreadable at {side}"]]  # named only when there are any
    if counts["families removed"]:
        unread.append(f"{_count(counts['families removed'], 'family', 'families')} removed")
    errors = counts["new error findings"]
    first = [*unread, _count(counts[BEYOND], "figure beyond its spread", "figures beyond their spread"),
             _count(counts["verdict changes"], "verdict change", "verdict changes"),
             # named only when there are any: what check will fail on, beside what the figures did
             *([_count(errors, "new error finding", "new error findings")] if errors else [])]
    rest = [f"{counts[WITHIN]} within spread",
            # named only when there are any: a job joined beside unchanged ones, held to nothing that bounds jobs
            *([_count(counts[NEW_JOB], "figure with a new job", "figures with a new job")] if counts[NEW_JOB] else []),
            *([_count(counts[HOST_BOUND], "host-bound figure", "host-bound figures")] if counts[HOST_BOUND] else []),
            f"{counts[NEW]} new", f"{counts[REMOVED]} removed",
            f"{counts[UNCHANGED]} unchanged",
            # named only when there are any: a re-keyed figure is none of the others
            *([f"{counts['re-keyed']} re-keyed ({_count(counts['provenance changes'], 'job', 'jobs')} "
               "whose provenance changed)"] if counts["provenance changes"] else []),
            # named only when there are any: a profile grouped otherwise from its input, not compared
            *([f"{counts['regrouped']} regrouped (kernel-time "
               f"{'profile' if counts['regrouped'] == 1 else 'profiles'} grouped by other rules)"]
              if counts["regrouped"] else []),
            _count(counts["sentences changed"], "sentence changed", "sentences changed"),
            f"findings: {counts['findings appeared']} appeared, {counts['findings gone']} gone"
            # named only when there are any, as the re-keyed figures
            + (f", {counts['findings changed']} changed" if counts["findings changed"] else "")]
    return f"{', '.join(first)}; {', '.join(rest)}"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


# ---- words shared by the formats ---------------------------------------------

def jobs_text(jobs: tuple[str, ...]) -> str:
    """``job a`` or ``jobs a, b``."""
    return f"{'job' if len(jobs) == 1 else 'jobs'} {', '.join(jobs)}"


def values_text(values: tuple[str, ...], jobs: tuple[str, ...], unit: str, name_one_job: bool = False) -> str:
    """One side of a figure: ``8.188 ms``, or ``8.188, 8.190 ms (jobs a, b)``;
    ``8.188 ms (job a)`` with ``name_one_job``."""
    if not values:
        return "-"
    text = ", ".join(values) + unit_suffix(unit)
    if len(jobs) > 1 or (jobs and name_one_job):
        text += f" ({jobs_text(jobs)})"
    return text


def change_text(change: FigureChange) -> str:
    """``+0.500 ms, +3.97 %``; a quality figure in points, ``-0.40 points``
    (its digits less those the points' factor takes: 0.4644 AP moves in
    hundredths of a point); at the digits that make it read as the new
    value minus the old as the line prints them (``delta_shown``); with several head jobs, the job it is given for
    (``…, job b moved most``); a job the base lacks is new, not moved, its change one from the base's figure
    (``job c is new, +0.005 ms, +0.86 % from the base``); '' when there is no single value on both sides."""
    if change.delta is None:
        return ""
    # the change as the line's values print it (FigureChange.delta_shown), else at the figure's digits
    shown = Decimal(change.delta_shown) if change.delta_shown is not None else None
    digits = -shown.as_tuple().exponent if shown is not None else change.decimals
    if change.points is not None:
        factor = POINTS_PER_UNIT.get(change.unit, 1.0)
        factor_digits = round(math.log10(factor))
        decimals = None if digits is None else max(digits - factor_digits, 0)
        points = shown * Decimal(repr(factor)) if shown is not None else change.points
        text = f"{format_number(points, decimals, sign=True)} points"
    else:
        text = f"{format_number(shown if shown is not None else change.delta, digits, sign=True)}{unit_suffix(change.unit)}"
    if change.relative is not None:
        text += f", {format_number(100 * change.relative, RELATIVE_DECIMALS, sign=True)} %"
    if change.farthest and change.old_jobs and change.farthest not in change.old_jobs:
        return f"job {change.farthest} is new, {text} from the base"
    if len(change.new_jobs) > 1 and change.farthest:
        text += f", job {change.farthest} moved most"
    return text


def change_size(change: FigureChange) -> float:
    """How large a change reads, to list the largest first: its relative
    change, or a quality figure's points as a fraction of AP's full scale
    (:data:`~studygen.records.kinds.POINTS_PER_UNIT`); 0.0 without either."""
    if change.relative is not None:
        return abs(change.relative)
    return abs(change.points) / POINTS_PER_UNIT["AP"] if change.points is not None else 0.0


def spread_text(change: FigureChange) -> str:
    """The spread a changed figure was held to, or why none holds it."""
    if change.verdict not in (WITHIN, BEYOND, NEW_JOB, HOST_BOUND):
        return ""
    if change.spread is None:
        return "no spread measured (no repeats, profiled iterations, compilations or other jobs) and no tolerance"
    # the line's digits: those its change prints with (FigureChange.delta_shown) where they are more than the figure's
    digits = change.decimals
    if change.delta_shown is not None and digits is not None:
        digits = max(digits, -Decimal(change.delta_shown).as_tuple().exponent)
    if change.points is None:
        return change.spread.words(change.unit, digits)
    # a quality figure's change is in points (change_text), and so is the spread it is held to, at the change's digits
    if change.delta_shown is not None:
        digits = -Decimal(change.delta_shown).as_tuple().exponent
    return change.spread.words(change.unit, digits, POINTS_PER_UNIT.get(change.unit, 1.0))


def figure_line(change: FigureChange) -> str:
    """One figure change in words (text and annotations)."""
    if change.verdict == NEW:
        return f"{change.what}: {values_text(change.new, change.new_jobs, change.unit, name_one_job=True)}"
    if change.verdict == REMOVED:
        line = f"{change.what}: was {values_text(change.old, change.old_jobs, change.unit, name_one_job=True)}"
        return f"{line}; still reported by {jobs_text(change.still_reported_by)}" if change.still_reported_by else line
    moved = change_text(change)
    line = (f"{change.what}: {values_text(change.old, change.old_jobs, change.unit)} -> "
            f"{values_text(change.new, change.new_jobs, change.unit)}{f' ({moved})' if moved else ''}")
    if change.verdict == NEW_JOB:  # how far jobs differ: the base bounds only one job's scatter, if anything
        held = f" ({spread_text(change)} bounds one job's scatter)" if change.spread else ""
        return f"{line}; no spread between jobs or tolerance in base to hold a new job to{held}"
    if change.verdict == HOST_BOUND:  # the host's pace in another process: one job's repeats bound none of it
        return f"{line}; host-bound, so no spread between jobs or tolerance in base to hold a re-run to"
    spread = spread_text(change)
    if change.spread is None:
        return f"{line}; {spread}" if spread else line
    if change.verdict == BEYOND and change.spread.one_run and change.farthest in change.old_jobs:
        return f"{line}; more than {spread}{RERUN_WORDS.format(job=change.farthest)}"  # a re-run of a base job
    return f"{line}; {'more than' if change.verdict == BEYOND else 'within'} {spread}"


def verdicts_text(change: SentenceChange, arrow: str = "->") -> str:
    """``no faster -> faster`` (``none`` for a side without a verdict)."""
    def side(sentence):
        return ", ".join(sorted(sentence.verdicts)) if sentence and sentence.verdicts else "none"
    return f"{side(change.old)} {arrow} {side(change.new)}"


def sentence_kind(change: SentenceChange) -> str:
    if change.verdict_changed:
        return "verdict changed"
    if change.old is None:
        return "sentence added"
    if change.new is None:
        return "sentence removed"
    return "sentence changed"


def finding_change_text(change: FindingChange, arrow: str = "->") -> str:
    """``SG203 [error] <old message> -> <new message>``; the new severity
    after the arrow too where it differs (``[warning] … -> [error] …``)."""
    old, new = change.was, change.finding
    rose = f"[{new.severity}] " if new.severity != old.severity else ""
    return f"{new.code} [{old.severity}] {one_line(old.message)} {arrow} {rose}{one_line(new.message)}"


def _shipped(value: bool | None) -> str:
    return "shipped" if value else "not shipped"


# ---- text ---------------------------------------------------------------------

def format_text(report: Report) -> str:
    """Plain text: a heading line, then per family one line per change."""
    lines = [f"studygen diff: {report.base} -> {report.head}"]
    for family in report.families:
        if not family.compared:
            lines.append(f"{family.family}: inputs unchanged")
            continue
        if not family.changed:
            lines.append(f"{family.family}: nothing changed")
            continue
        lines.append(family.family)
        lines += _text_family(family)
    lines.append(summary_line(report))
    return "\n".join(lines)


def _text_family(family: FamilyChanges) -> list[str]:
    lines = [f"  unreadable: {u.words()}" for u in family.unreadable]
    lines += [f"  family removed: {REMOVED_WORDS}"] if family.removed else []
    lines += [f"  provenance changed: {change.words()} [{change.place}]" for change in family.provenance]
    lines += [f"  regrouped: {change.words()} [{change.place}]" for change in family.regrouped]
    for change in family.figures:
        if change.verdict != UNCHANGED:
            lines.append(f"  {change.verdict}: {figure_line(change)} [{change.place}]")
    if family.decision_flipped:
        old, new = family.shipped
        lines.append(f"  verdict changed: decision.shipped in the study file: {_shipped(old)} -> {_shipped(new)}")
    for change in family.sentences:
        where = change.new or change.old
        detail = f" ({verdicts_text(change)})" if change.verdict_changed else ""
        lines.append(f"  {sentence_kind(change)}: {family.readme_path}:{where.line}{detail}")
        if change.old is not None:
            lines.append(f"      - {change.old.text}")
        if change.new is not None:
            lines.append(f"      + {change.new.text}")
    for change in family.findings:
        finding = change.finding
        if change.was is not None:
            lines.append(f"  finding changed: {finding.place}: {finding_change_text(change)}")
            continue
        lines.append(f"  finding {change.how}: {finding.place}: {finding.code} "
                     f"[{finding.severity}] {one_line(finding.message)}")
    lines += [f"  note: {note}" for note in family.notes]
    return lines


# ---- Markdown -----------------------------------------------------------------

def format_markdown(report: Report, limit: int = MAX_COMMENT_CHARS) -> str:
    """A pull-request comment: summary, what needs a look, then every change
    folded; at most ``limit`` characters (see :func:`_fit`)."""
    lines = [f"### studygen diff: {_code(report.base)} → {_code(report.head)}", ""]
    if not report.changed:
        lines.append(f"Nothing changed between {_code(report.base)} and {_code(report.head)}.")
        return "\n".join(lines) + "\n"
    lines += [f"**{summary_line(report)}**", ""]
    unread = [f"- {escape_name(family)}: {escape_name(u.words())}" for side in ("base", "head")
              for family, u in report.unreadable(side)]
    if unread:
        lines += ["Could not be read (nothing of these studies was compared):", "", *unread, ""]
    removed_families = [f"- {escape_name(f.family)}: {REMOVED_WORDS}" for f in report.families if f.removed]
    if removed_families:
        lines += ["Families removed:", "", *removed_families, ""]
    errors = report.new_errors()
    if errors:  # not folded: check fails on each
        lines += ["New error findings (check fails on these):", ""]
        lines += [f"- {escape_name(family)}: {_code(str(c.finding.place))} {_finding_md(c)}" for family, c in errors]
        lines.append("")
    beyond = sorted(report.figures(BEYOND), key=lambda item: -change_size(item[1]))
    if beyond:
        shown = beyond[:SUMMARY_ROWS]
        more = f" (the {len(shown)} largest relative changes; all {len(beyond)} in the table below)" \
            if len(beyond) > len(shown) else ""
        lines += [f"Beyond their spread{more}:", ""]
        lines += _figure_table(shown, with_verdict=False)
        lines.append("")
    flips = report.verdict_changes()
    if flips or report.decision_flips():
        lines += ["Verdict changes:", ""]
        for family in report.decision_flips():
            old, new = family.shipped
            lines.append(f"- {escape_name(family.family)}: decision in the study file, {_shipped(old)} → {_shipped(new)}")
        for family, change in flips:
            lines.append(f"- {escape_name(family)}, {_code(_readme_of(report, family))} line {change.new.line}: "
                         f"{escape_name(verdicts_text(change, '→'))}")
            lines += [f"  - before: {_literal(change.old.text)}", f"  - after: {_literal(change.new.text)}"]
        lines.append("")
    provenance = report.provenance()
    if provenance:  # not folded: it says why figures of the job read as removed or new below
        lines += ["Provenance changed (figures re-keyed, values unchanged):", ""]
        lines += [f"- {escape_name(family)}: {escape_name(change.words('→'))}" for family, change in provenance]
        lines.append("")
    regrouped = report.regrouped()
    if regrouped:  # not folded: it says why a profile's groups are neither removed nor new below
        lines += ["Regrouped (other kernel groups; the groups concerned not compared):", ""]
        lines += [f"- {escape_name(family)}: {escape_name(change.words('→'))}" for family, change in regrouped]
        lines.append("")
    removed = report.figures(REMOVED)
    if removed:  # not folded: a job's run dropped beside others that stay reads as no change in a table
        lines += [f"Removed figures ({len(removed)}):", ""]
        lines += [f"- {escape_name(family)}: {escape_name(figure_line(change))}" for family, change in removed]
        lines.append("")
    lines += _details(report)
    return _fit(lines, limit)


def _fit(lines: list[str], limit: int) -> str:
    """``lines`` joined, cut where the text would pass ``limit`` characters
    (GitHub refuses a longer comment): the lines that fit, an open
    ``<details>`` closed, and a line saying how many lines were left out and
    where every change is listed."""
    while lines and not lines[-1]:
        lines = lines[:-1]
    text = "\n".join(lines) + "\n"
    if len(text) <= limit:
        return text
    kept, size, open_details = [], 0, False
    budget = limit - len(_LEFT_OUT.format(count=len(lines))) - len("</details>\n\n") - 2
    for line in lines:
        if size + len(line) + 1 > budget:
            break
        kept.append(line)
        size += len(line) + 1
        open_details = (open_details or line == "<details>") and line != "</details>"
    left_out = len(lines) - len(kept)
    closing = ["", "</details>", ""] if open_details else [""]
    return "\n".join(kept + closing + [_LEFT_OUT.format(count=left_out)]) + "\n"


def _details(report: Report) -> list[str]:
    lines = []
    changed = [(f.family, c) for f in report.families for c in f.figures if c.verdict != UNCHANGED]
    if changed:
        lines += _folded(f"All figure changes ({len(changed)})", _figure_table(changed, with_verdict=True))
    rekeyed = [(family, change.job, figure) for family, change in report.provenance() for figure in change.figures]
    if rekeyed:
        body = [f"- {escape_name(family)}, job {escape_name(job)}: {escape_name(figure.what)}: "
                f"{escape_name(', '.join(figure.values) + unit_suffix(figure.unit))}" for family, job, figure in rekeyed]
        lines += _folded(f"Re-keyed figures ({len(rekeyed)})", body)
    sentences = [(f, c) for f in report.families for c in f.sentences]
    if sentences:
        body = []
        for family, change in sentences:
            where = change.new or change.old
            body.append(f"- {escape_name(family.family)}, line {where.line}, {sentence_kind(change)}"
                        + (f" ({escape_name(verdicts_text(change, '→'))})" if change.verdict_changed else ""))
            if change.old is not None:
                body.append(f"  - before: {_literal(change.old.text)}")
            if change.new is not None:
                body.append(f"  - after: {_literal(change.new.text)}")
        lines += _folded(f"Sentences with a verdict or a range ({len(sentences)})", body)
    findings = [(f.family, c) for f in report.families for c in f.findings]
    if findings:
        body = [f"- {c.how}: {_code(str(c.finding.place))} {_finding_md(c)}" for _, c in findings]
        title = "appeared, went or changed" if any(c.was for _, c in findings) else "appeared or went"
        lines += _folded(f"Findings that {title} ({len(findings)})", body)
    unchanged = [f.family for f in report.families if not f.compared]
    notes = [f"- {escape_name(f.family)}: {escape_name(note)}" for f in report.families for note in f.notes]
    if unchanged:
        notes.append(f"- inputs unchanged, not compared: {', '.join(escape_name(name) for name in unchanged)}")
    if notes:
        lines += ["Notes:", "", *notes, ""]
    return lines


def _finding_md(change: FindingChange) -> str:
    """``SG203 [error] `message```, or for a changed finding both messages: ``… `old` → `new```."""
    finding, was = change.finding, change.was
    if was is None:
        return f"{finding.code} [{finding.severity}] {_literal(finding.message)}"
    rose = f"[{finding.severity}] " if finding.severity != was.severity else ""
    return f"{finding.code} [{was.severity}] {_literal(was.message)} → {rose}{_literal(finding.message)}"


def _figure_table(rows: list[tuple[str, FigureChange]], with_verdict: bool) -> list[str]:
    header = ["Family", "Figure", "Old", "New", "Change", *(["Verdict"] if with_verdict else []), "Spread"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for family, change in rows:
        cells = [family, change.what, values_text(change.old, change.old_jobs, change.unit),
                 values_text(change.new, change.new_jobs, change.unit), change_text(change),
                 *([change.verdict] if with_verdict else []), spread_text(change)]
        lines.append("| " + " | ".join(escape_name(c) for c in cells) + " |")
    return lines


def _folded(summary: str, body: list[str]) -> list[str]:
    return ["<details>", f"<summary>{escape_name(summary)}</summary>", "", *body, "", "</details>", ""]


def _code(text: str) -> str:
    return f"`{text.replace('`', '')}`"


def _literal(text: str) -> str:
    """``text`` (a README sentence, a finding message quoting one) as a code
    span, so that a pull request comment shows it as written: no link, image,
    HTML, emphasis or ``@`` mention of its own (escaping cannot stop a
    mention). The fence is one backtick longer than the longest run inside
    (CommonMark 6.1); a space pads a text that starts or ends with a
    backtick; line breaks and control characters are shown as escapes."""
    text = one_line(text)
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _readme_of(report: Report, family: str) -> str:
    return next(f.readme_path for f in report.families if f.family == family)


# ---- GitHub workflow commands -------------------------------------------------

def format_github(report: Report, fail_on: str = "beyond-spread") -> str:
    """One workflow command per change at its place in the head revision
    (a removed figure or a finding that went has none there: no file), then
    the summary line."""
    prefix = report.path_prefix
    fails_beyond = fail_on == "beyond-spread"
    fails_verdict = fail_on in ("beyond-spread", "verdict")
    lines = []
    for family in report.families:
        for how in family.unreadable:
            fails = fail_on != "never" and how.side == "head"  # see exit_code
            lines.append(workflow_command("error" if fails else "warning",
                                          f"studygen diff: {how.side} could not be read", f"{family.family}: {how.words()}",
                                          (prefix + how.files[0] if how.files and how.side == "head" else "") or None))
        for change in family.provenance:  # a notice: no value moved
            lines.append(workflow_command("notice", "studygen diff: provenance changed",
                                          f"{family.family}: {change.words()}", prefix + change.place.path,
                                          change.place.line))
        if family.removed:  # fails nothing, but a whole study gone must not pass as a notice
            lines.append(workflow_command("warning", "studygen diff: family removed",
                                          f"{family.family}: {REMOVED_WORDS}", None))
        for change in family.regrouped:  # a notice: nothing was measured again
            lines.append(workflow_command("notice", "studygen diff: regrouped", f"{family.family}: {change.words()}",
                                          prefix + change.place.path, change.place.line))
        for change in family.figures:
            if change.verdict == UNCHANGED:
                continue
            # a removed figure fails nothing, but a dropped run must not pass as a notice
            level = ("error" if fails_beyond else "warning") if change.verdict == BEYOND else \
                "warning" if change.verdict == REMOVED else "notice"
            at = change.place if change.verdict != REMOVED else None
            lines.append(workflow_command(level, f"studygen diff: {change.verdict}", f"{family.family}: {figure_line(change)}",
                                          (prefix + at.path if at else "") or None, at.line if at else 0))
        if family.decision_flipped:
            old, new = family.shipped
            at = family.decision_place  # the head's study file: the line the pull request changed
            lines.append(workflow_command("error" if fails_verdict else "warning", "studygen diff: verdict changed",
                                          f"{family.family}: decision.shipped {_shipped(old)} -> {_shipped(new)}",
                                          (prefix + at.path if at.path else "") or None, at.line))
        for change in family.sentences:
            level = ("error" if fails_verdict else "warning") if change.verdict_changed else "notice"
            message = f"{family.family}: {sentence_kind(change)}"
            if change.verdict_changed:
                message += f" ({verdicts_text(change)})"
            if change.old is not None:
                message += f"\nbefore: {change.old.text}"
            if change.new is not None:
                message += f"\nafter: {change.new.text}"
            lines.append(workflow_command(level, f"studygen diff: {sentence_kind(change)}", message,
                                          (prefix + family.readme_path if change.new else "") or None,
                                          change.new.line if change.new else 0))
        for change in family.findings:
            lines.append(_finding_command(change, prefix))
    lines.append(summary_line(report))
    return "\n".join(lines)


def _finding_command(change: FindingChange, prefix: str) -> str:
    finding: Finding = change.finding
    if change.was is not None:  # still there: a notice, unless it grew more severe
        rose = SEVERITIES.index(finding.severity) < SEVERITIES.index(change.was.severity)
        return workflow_command("warning" if rose else "notice", f"studygen diff: {finding.code} changed",
                                finding_change_text(change), prefix + finding.file if finding.file else None,
                                finding.line)
    if change.appeared:
        return workflow_command("warning", f"studygen diff: {finding.code} appeared", f"{finding.code} {finding.message}",
                                prefix + finding.file if finding.file else None, finding.line)
    return workflow_command("notice", f"studygen diff: {finding.code} gone",
                            f"{finding.code} {finding.message} (was at {finding.place})")


FORMATS = ("text", "md", "json", "github")
