"""Findings: what lint and check report, and the three output formats.

A finding names a code (SG1xx for Markdown lint, SG2xx for study checks), a
severity, a file and a place (a line, or a JSON pointer and its line), a
message naming the figures and rows, and a hint. ``text`` prints
``path:line: CODE message``; ``json`` prints a list of objects; ``github``
prints GitHub Actions workflow commands (``::error file=…,line=…::…``,
see docs.github.com "Workflow commands for GitHub Actions").
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Iterable

from .place import Place
from .rules import ERROR, RULES, WARNING
from .visible import visible

NOTICE = "notice"  # a waived finding: printed, never fails the run

SEVERITIES = (ERROR, WARNING, NOTICE)

# Default severity and name of every code (from the rule table); a check may not use a code missing here.
CODES: dict[str, tuple[str, str]] = {rule.code: (rule.severity, rule.name) for rule in RULES}


@dataclass(frozen=True)
class Finding:
    """One problem found in a document or a study.

    ``file``, ``line`` (1-based, 0 when the place has no line) and ``pointer``
    (a JSON pointer, RFC 6901, into a record when the finding is about one)
    are the parts of its :attr:`place`, kept as fields because they are the
    keys of the JSON output; ``key`` is the measurement key it concerns, used
    by waivers. ``parts``: the findings this one stands for, each as it would
    be reported alone (SG203's pairs of jobs of one key); waivers are held to
    them too (:func:`studygen.checks.waivers.apply_waivers`, which empties
    it), and no output prints them.
    """

    code: str
    message: str
    file: str
    line: int = 0
    severity: str = ""
    hint: str = ""
    pointer: str | None = None
    key: str | None = None
    detail: str = field(default="", compare=False)
    waived_reason: str | None = field(default=None, compare=False)
    parts: tuple["Finding", ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown finding code {self.code}")
        if not self.severity:
            object.__setattr__(self, "severity", CODES[self.code][0])
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity}")

    def waived(self, reason: str) -> "Finding":
        """The same finding demoted to a notice, carrying the waiver's reason."""
        return replace(self, severity=NOTICE, waived_reason=reason)

    @classmethod
    def at(cls, place: Place, code: str, message: str, **fields) -> "Finding":
        """A finding at ``place``; ``fields`` as for the constructor (hint, key, …)."""
        return cls(code, message, place.path, line=place.line, pointer=place.pointer, **fields)

    @property
    def place(self) -> Place:
        """Where the finding is; prints as ``file:line`` (``file:pointer`` when no line is known)."""
        return Place(self.file, self.line, self.pointer)


def error_finding(code: str, error, *, hint: str = "", path: str = "") -> Finding:
    """The finding that reports ``error`` under ``code``: its message at its
    place. ``error`` is a :class:`~studygen.errors.StudygenError` or anything
    else with ``message`` and ``place`` (a load problem,
    :class:`studygen.study.Problem`); ``path`` names the file when the error
    names none. A place given only as a line or only as a pointer stays so."""
    place = error.place if error.place.path or not path else error.place._replace(path=path)
    return Finding.at(place, code, error.message, hint=hint)


def sort_key(finding: Finding) -> tuple:
    return (finding.file, finding.line, finding.code, finding.pointer or "", finding.message)


def has_errors(findings: Iterable[Finding]) -> bool:
    """True when any finding is error-level (the run exits 1)."""
    return any(f.severity == ERROR for f in findings)


def summary_line(findings: list[Finding]) -> str:
    counts = {s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES}
    parts = [f"{counts[ERROR]} error(s)", f"{counts[WARNING]} warning(s)"]
    if counts[NOTICE]:
        parts.append(f"{counts[NOTICE]} waived")
    return ", ".join(parts)


def one_line(text: str) -> str:
    """:func:`visible` with line breaks shown too (``\\n``/``\\r``): a record string
    quoted in a message (a GPU name, a group) cannot split a finding over two lines."""
    return visible(text)


def format_text(findings: list[Finding]) -> str:
    """One finding a line (``path:line: CODE message``), then a summary line."""
    lines = []
    for f in sorted(findings, key=sort_key):
        severity = "" if f.severity == ERROR else f" [{f.severity}]"
        message = f.message
        if f.waived_reason:
            message += f" [waived: {f.waived_reason}]"
        text = f"{f.code}{severity} {message}"
        # worded as errors are (Place.said); a finding that names no file still opens with ': '
        lines.append(one_line(f.place.said(text) if f.file else f": {text}"))
        if f.hint and f.severity != NOTICE:
            lines.append(f"    hint: {one_line(f.hint)}")
        if f.detail and f.severity != NOTICE:
            lines.extend("    " + visible(line) for line in f.detail.splitlines())
    lines.append(summary_line(findings))
    return "\n".join(lines)


def format_json(findings: list[Finding]) -> str:
    """A JSON list of findings, each with every field of :class:`Finding` but ``parts``."""
    return json.dumps([{name: value for name, value in asdict(f).items() if name != "parts"}
                       for f in sorted(findings, key=sort_key)], indent=2)


def _escape_workflow_data(text: str) -> str:
    # Workflow command escaping, as in @actions/core's escapeData.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_workflow_property(text: str) -> str:
    # @actions/core's escapeProperty: a property also ends at ':' and ','.
    return _escape_workflow_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(level: str, title: str, message: str, path: str | None = None, line: int = 0) -> str:
    """A GitHub Actions annotation (``::error file=…,line=…,title=…::message``,
    docs.github.com "Workflow commands for GitHub Actions"): ``level`` one of
    error, warning, notice; ``path`` None for an annotation at no file (then no
    line either); ``line`` 0 for none. Properties and message escaped as
    @actions/core escapes them, so a message keeps its line breaks."""
    props = [] if path is None else [f"file={_escape_workflow_property(path)}"]
    if path is not None and line:
        props.append(f"line={line}")
    props.append(f"title={_escape_workflow_property(title)}")
    return f"::{level} {','.join(props)}::{_escape_workflow_data(message)}"


def format_github(findings: list[Finding]) -> str:
    """GitHub Actions workflow commands, one per finding, then the summary."""
    lines = []
    for f in sorted(findings, key=sort_key):
        message = f"{f.code} {f.message}"
        if f.pointer:
            message += f" ({f.pointer})"
        if f.hint and f.severity != NOTICE:
            message += f"\nhint: {f.hint}"
        if f.waived_reason:
            message += f"\nwaived: {f.waived_reason}"
        # line breaks stay (the workflow command encodes them as %0D, %0A); what a log viewer would act on is shown
        lines.append(workflow_command(f.severity, f.code, visible(message, keep="\r\n"), visible(f.file), f.line))
    lines.append(summary_line(findings))
    return "\n".join(lines)


FORMATTERS = {"text": format_text, "json": format_json, "github": format_github}
