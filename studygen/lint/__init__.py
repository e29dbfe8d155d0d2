"""``studygen lint``: check any Markdown document against its own tables.

Each check is a pure function ``Document -> list[Finding]`` in its own
module, named by its line in the rule table (:mod:`studygen.rules`): adding
a check is one module plus one line there, and :data:`CHECKS` imports every
lint module the table names. The document is parsed once by markdown-it-py
(:func:`studygen.lint.parse.parse_document`) and every check reads the
same typed tables and prose.

Public API (also used by ``studygen check``):

- :func:`lint_text` — every SG101..SG107 finding of one document;
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
from ..rules import rules_in
from ..textio import read_text
from ..memory import collector_paused
from .parse import parse_document
from .sg104_structure import CODE as STRUCTURE_CODE
from .sg104_structure import mdformat_idempotency_finding

# (code, module) of every lint rule in the rule table (studygen.rules); each
# module's ``check(document)`` takes a parsed Document.
CHECKS: list[tuple[str, object]] = [(rule.code, importlib.import_module(rule.module))
                                    for rule in rules_in("studygen.lint")]


def run_checks(document, codes: set[str] | frozenset[str] | None = None) -> list[Finding]:
    """Registered checks over a parsed document (or only those in ``codes``)."""
    findings: list[Finding] = []
    for code, module in CHECKS:
        if codes is None or code in codes:
            findings.extend(module.check(document))
    return sorted(findings, key=sort_key)


def lint_text(text: str, path: str) -> list[Finding]:
    """All SG101..SG107 findings for one Markdown document, sorted by line.

    ``path`` appears in the findings only (nothing is read). Severities: as
    the rule table (:data:`studygen.rules.RULES`) gives them."""
    document = parse_document(text, path)
    with collector_paused():
        return run_checks(document)


def structure_findings(text: str, path: str) -> list[Finding]:
    """SG104 findings only: a table row whose cell count (read from its raw
    source line) differs from its header's, a delimiter row that does not
    match its header (so no table is rendered), an unclosed code fence."""
    return run_checks(parse_document(text, path), {STRUCTURE_CODE})


def markdown_files(paths: Iterable[str | Path]) -> list[tuple[Path, str]]:
    """(path, display name) for each file named and each ``*.md`` entry under
    each folder named that is no folder (sorted, hidden folders skipped): a
    link leading nowhere or a FIFO named ``*.md`` is listed too, so that
    reading it refuses it in one line, as when it is named (a folder's lint
    passed over them without a word). Raises InputError for a path that does
    not exist or a folder without ``*.md`` files."""
    found: list[tuple[Path, str]] = []
    for given in paths:
        path = Path(given)
        display = str(given)
        if path.is_dir():
            files = sorted(
                p for p in path.rglob("*.md")
                if not p.is_dir() and not any(part.startswith(".") for part in p.relative_to(path).parts[:-1])
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
    studygen.textio.read_text); nothing is linted then."""
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
