"""``studygen lint``: check any Markdown document against its own tables.

Each check is a pure function ``Document -> list[Finding]`` in its own
module, registered in :data:`CHECKS` (adding a check = one module + one
line). The document is parsed once by markdown-it-py
(:func:`studygen.lint.parse.parse_document`) and every check reads the
same typed tables and prose.

Public API (also used by ``studygen check``):

- :func:`lint_text` — every SG101..SG106 finding of one document;
- :func:`structure_findings` — SG104 only (row cell counts, unclosed fences);
- :func:`mdformat_idempotency_finding` — SG104 when mdformat would rewrite
  the text (the renderer's own formatting call);
- :func:`lint_paths` — :func:`lint_text` over files and folders of ``*.md``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Iterable

from ..errors import InputError
from ..findings import Finding, sort_key
from ..textio import read_text
from .parse import build_document, collector_paused, markdown_parser, normalize_newlines, parse_document

# (code, module, function): each function takes a parsed Document.
CHECKS: list[tuple[str, str, str]] = [
    ("SG101", "studygen.lint.sg101_range_coverage", "check"),
    ("SG102", "studygen.lint.sg102_statistic_order", "check"),
    ("SG103", "studygen.lint.sg103_derived_figures", "check"),
    ("SG104", "studygen.lint.sg104_structure", "check"),
    ("SG105", "studygen.lint.sg105_noise_wording", "check"),
    ("SG106", "studygen.lint.sg106_unmeasured", "check"),
]

# The exact call the renderer formats READMEs with (mdformat + mdformat-gfm).
MDFORMAT_EXTENSIONS = {"gfm"}
MDFORMAT_OPTIONS = {"wrap": "keep", "number": False}


def run_checks(document, codes: set[str] | None = None) -> list[Finding]:
    """Registered checks over a parsed document (or only those in ``codes``)."""
    findings: list[Finding] = []
    for code, module_name, function in CHECKS:
        if codes is not None and code not in codes:
            continue
        findings.extend(getattr(importlib.import_module(module_name), function)(document))
    return sorted(findings, key=sort_key)


def lint_text(text: str, path: str) -> list[Finding]:
    """All SG101..SG106 findings for one Markdown document, sorted by line.

    ``path`` appears in the findings only (nothing is read). Severities:
    SG101-SG104 error, SG105-SG106 warning (see studygen.findings.CODES)."""
    source = normalize_newlines(text)
    tokens = markdown_parser().parse(source)
    with collector_paused():
        document = build_document(source, path, tokens)
        del tokens
        return run_checks(document)


def structure_findings(text: str, path: str) -> list[Finding]:
    """SG104 findings only: a table row whose cell count (read from its raw
    source line) differs from its header's, a delimiter row that does not
    match its header (so no table is rendered), an unclosed code fence."""
    return run_checks(parse_document(text, path), {"SG104"})


def mdformat_idempotency_finding(text: str, path: str) -> Finding | None:
    """SG104 when ``mdformat.text(text, extensions={"gfm"},
    options={"wrap": "keep", "number": False})`` (the renderer's call)
    changes ``text``; the finding's line is the first line that differs.
    None when mdformat leaves the text as it is."""
    import mdformat

    formatted = mdformat.text(text, extensions=MDFORMAT_EXTENSIONS, options=MDFORMAT_OPTIONS)
    if formatted == text:
        return None
    if "\r" in text:
        # mdformat writes LF; a CRLF file (an editor or git's autocrlf) differs on every line
        first_cr = text[: text.index("\r")].count("\n") + 1
        unified = text.replace("\r\n", "\n").replace("\r", "\n")
        if mdformat.text(unified, extensions=MDFORMAT_EXTENSIONS, options=MDFORMAT_OPTIONS) == unified:
            return Finding(
                "SG104", f"line {first_cr} ends in a carriage return (CRLF or CR line endings); "
                "the renderer writes LF line endings, and the text is otherwise as it writes it",
                path, first_cr,
                hint="convert the file to LF line endings (e.g. `git config core.autocrlf input`, or a "
                     "`*.md text eol=lf` line in .gitattributes)")
    crlf_note = ""
    if "\r" in text:
        crlf_note = "; the file also has CR line endings, which the renderer does not write"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    original_lines = text.split("\n")
    formatted_lines = formatted.split("\n")
    line = 1
    for line, (before, after) in enumerate(zip(original_lines, formatted_lines), start=1):
        if before != after:
            break
    else:
        line = min(len(original_lines), len(formatted_lines)) + 1
        line = min(line, max(len(original_lines), 1))
    got = original_lines[line - 1] if line - 1 < len(original_lines) else ""
    want = formatted_lines[line - 1] if line - 1 < len(formatted_lines) else ""
    return Finding(
        "SG104",
        f"mdformat (gfm, wrap keep) rewrites this document from line {line}: {_clip(got)!r} becomes {_clip(want)!r}"
        + crlf_note,
        path,
        line,
        hint="re-render the file, or run mdformat with the renderer's options on it, so that the committed text is what the renderer writes",
    )


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def markdown_files(paths: Iterable[str | Path]) -> list[tuple[Path, str]]:
    """(path, display name) for each file named and each ``*.md`` file under
    each folder named (sorted, hidden folders skipped). Raises InputError for
    a path that does not exist or a folder without ``*.md`` files."""
    found: list[tuple[Path, str]] = []
    for given in paths:
        path = Path(given)
        display = str(given)
        if path.is_dir():
            files = sorted(
                p for p in path.rglob("*.md")
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts[:-1])
            )
            if not files:
                raise InputError("folder holds no .md files", path=display)
            for file in files:
                found.append((file, str(Path(display) / file.relative_to(path))))
        elif not path.exists():
            raise InputError("no such file or folder", path=display)
        else:
            found.append((path, display))
    return found


def lint_paths(paths: Iterable[str | Path]) -> list[Finding]:
    """:func:`lint_text` over every file named and every ``*.md`` under every
    folder named. Raises InputError (one line naming the file) for a missing,
    empty, binary, non-UTF-8 or oversized file (guards of
    studygen.records.load.read_text); nothing is linted then."""
    documents = [(display, read_text(path, display)) for path, display in markdown_files(paths)]
    findings: list[Finding] = []
    for display, text in documents:
        findings.extend(lint_text(text, display))
    return sorted(findings, key=sort_key)


__all__ = [
    "CHECKS",
    "lint_paths",
    "lint_text",
    "markdown_files",
    "mdformat_idempotency_finding",
    "run_checks",
    "structure_findings",
]
