"""SG105 noise wording: a verdict such as "within noise", "not
significant" or "no measurable difference" needs its evidence nearby.

Verdicts are recognised by concept (:data:`studygen.lint.vocabulary.NOISE_VOCABULARY`,
one class of words per line: the variation and what ties it to repeats,
where a verdict puts a difference, what hides it, what it cannot be told
from, no effect), so "disappears in the run-to-run jitter" and "below the
level of repeat-to-repeat variance" read as verdicts (the forms a
verdict takes: :data:`studygen.lint.vocabulary.NOISE_VERDICT_FORMS`, one table) and "the spread of
prompt lengths" does not (``sg105_*_noise_concepts``, ``sg105_*_paraphrases``).

Evidence is any of (or a spread printed elsewhere beside two of the figures the verdict judges:
:func:`studygen.lint.noise_evidence.spread_elsewhere`), in the same paragraph (for a list item, in any item of its list: :func:`_sibling_evidence`), in the table the paragraph
introduces or follows directly or a heading over that table (its own or a
section's holding it: "Decode time (5-run means)"), or (for a verdict in a table cell) in the
same table:

- a spread: ``±``, std / standard deviation / s.d. / ``SD = 0.2``, CV, IQR, a confidence interval,
  min and max, p90/p95/p99, "spread", "variance";
- a repeat count: "5 runs", "three repeats", "across four jobs", ``n = 10``,
  "repeated 5 times";
- a test: t-test, Welch, Mann-Whitney, Wilcoxon, bootstrap, permutation
  test, a p-value (``p = 0.3``, ``p < 0.05``).

In a paragraph a spread counts only where a figure gives it: the name of a
statistic needs a figure beside it in its sentence ("std 0.2 ms", "a CV of
1.3%"), so "caused by evaluation variance" or "within one standard
deviation" is no evidence (:func:`studygen.lint.noise_evidence.measured_evidence`);
in a table, or a heading over one, the name heads a column of figures and
counts alone. Without evidence, the verdict is a warning: it asserts a
measurement nobody reported.
"""

from __future__ import annotations


import re
from bisect import bisect_left

from ..findings import Finding
from ..patterns import lazy_compile
from .document import Block, Document, Table
from .noise_evidence import measured_evidence, spread_elsewhere, spread_figures
from .text import CLAUSE_REACH, split_sentences
from .vocabulary import EXPECTATION_AFTER_RE, NOISE_VERDICT_RE, has_evidence, is_expectation, may_hold_verdict, noise_stem_offsets

CODE = "SG105"

VERDICT_RE = NOISE_VERDICT_RE

# The clause a verdict sits in starts after the last of these before it.
_CLAUSE_START_RE = lazy_compile(r"[.;:!?]\s|,\s+(?:but|while|whereas|yet|so)\s|\n\s*[-*]\s|—|\s–\s")
# the words after a verdict that make it an expectation ("... was expected") are read this far
EXPECTATION_REACH = 120
# A clause opening as a condition states what a reading would mean, no result: "If the percentiles are symmetric
# then the quantization is just adding noise", "Unless the gap grows, it is within noise".
_CONDITION_RE = lazy_compile(r"(?<![\w-])\s*(?:if|unless|assuming|suppose|supposing|provided|in\s+case)\b", re.IGNORECASE)


def _table_text(table: Table) -> str:
    parts = list(table.headers)
    for row in table.rows:
        parts.extend(row.cells)
    return " | ".join(parts)


def _heading_evidence(table: Table) -> bool:
    """True when a heading over ``table`` (its own or one of the sections
    holding it, not a sibling section's) states how its figures were taken
    ("Decode time (5-run means)"): its repeat count or spread is the evidence
    of a verdict beside the table."""
    return any(has_evidence(heading) for heading in table.headings)


def _neighbour_tables(document: Document, block: Block) -> list[Table]:
    """Tables placed directly before or after the block."""
    return [t for t in document.tables_by_order(block.order - 1, block.order + 1)]




def _list_runs(document: Document) -> dict[int, list[Block]]:
    """Block order -> the items of the list holding that block: list items of one section whose orders
    follow one another with no paragraph, heading or table between (nested items included)."""
    runs: dict[int, list[Block]] = {}
    run: list[Block] = []
    for block in document.prose:
        if run and not (block.in_list and block.order == run[-1].order + 1 and block.section == run[-1].section):
            run = []
        if block.in_list:
            run.append(block)
            runs[block.order] = run
    return runs


def _sibling_evidence(block: Block, runs: dict[int, list[Block]], memo: dict[int, bool]) -> bool:
    """True when another item of the list holding ``block`` states the evidence ("- each latency is the mean of
    10 runs" above "- the 0.2 ms gap is within noise"): the items of one list read as one paragraph. Each
    list is read once (a list of thousands of verdicts costs one pass, not one per verdict)."""
    run = runs.get(block.order)
    if not run or len(run) < 2:
        return False
    key = run[0].order
    if key not in memo:
        memo[key] = any(measured_evidence(item.text) for item in run)
    return memo[key]


def _candidate_lines(document: Document) -> list[int]:
    """Sorted 1-based lines holding a verdict stem (:func:`noise_stem_offsets`:
    "no real" ends a line of a hard-wrapped paragraph as well as a space)."""
    return sorted({document.line_of_offset(offset) for offset in noise_stem_offsets(document.lowered)})


def _touches(lines: list[int], first: int, last: int) -> bool:
    index = bisect_left(lines, first)
    return index < len(lines) and lines[index] <= last


def check(document: Document) -> list[Finding]:
    """SG105 findings: one per verdict without evidence."""
    lines = _candidate_lines(document)
    if not lines:
        return []
    findings = []
    runs: dict[int, list[Block]] | None = None
    listed: dict[int, bool] = {}
    spread: frozenset[str] | None = None  # the figures the document prints with a spread, read once
    for block in document.prose:
        if not _touches(lines, block.line, block.end_line):
            continue
        matches = [m for m in _verdicts(block)
                   if not _expected(block.text, m.start(), m.end()) and not quoted(block.text, m.start(), m.end())]
        if not matches:
            continue
        if measured_evidence(block.text):
            continue
        neighbours = _neighbour_tables(document, block)
        if any(has_evidence(_table_text(t)) or _heading_evidence(t) for t in neighbours):
            continue
        spread = spread_figures(document.text) if spread is None else spread
        if spread_elsewhere([block.text, *(_table_text(t) for t in neighbours)], spread):
            continue  # the figures it judges have their spread printed further on ("9.0973 +/- 0.0716")
        if block.in_list:
            runs = _list_runs(document) if runs is None else runs
            if _sibling_evidence(block, runs, listed):
                continue
        for match in matches:
            findings.append(_finding(document, match.group(0), block.line_at(match.start()), "paragraph"))
    for table in document.tables:
        if not _touches(lines, table.line, table.end_line):
            continue
        text = _table_text(table)
        if not VERDICT_RE.search(text):
            continue
        verdicts = [(row.line, m.group(0)) for row in table.rows for cell in row.cells for m in [VERDICT_RE.search(cell)]
                    if m and not _expected(cell, m.start(), m.end()) and not quoted(cell, m.start(), m.end())]
        if not verdicts or has_evidence(text):
            continue
        for line, phrase in verdicts:
            findings.append(_finding(document, phrase, line, "table"))
    return findings


def _verdicts(block: Block):
    """The verdicts of a block: :data:`VERDICT_RE` run over the sentences
    that hold a verdict stem only (a verdict never spans two sentences)."""
    text = block.text
    lowered = block.lowered
    stems = noise_stem_offsets(lowered)
    if not stems:
        return
    spans = [(s.start, s.end) for s in block.sentences] if block.has_digits else split_sentences(text)
    for start, end in spans:
        at = bisect_left(stems, start)
        if at < len(stems) and stems[at] < end and may_hold_verdict(lowered[start:end]):
            yield from VERDICT_RE.finditer(text, start, end)


def _expected(text: str, offset: int, end: int | None = None) -> bool:
    """True when the clause holding the verdict at ``offset`` (to ``end``)
    states an expectation or a plan ("should be within noise", "we expect no
    significant change", "no measurable difference was expected") or opens
    as a condition ("if the percentiles are symmetric then it is just
    noise"), not a measured result."""
    start = max(0, offset - CLAUSE_REACH)  # a bound keeps lint linear (attack round: 8,000 verdicts, 40 s)
    for match in _CLAUSE_START_RE.finditer(text, start, offset):
        start = match.end()
    # what follows is read only up to EXPECTATION_REACH characters: bounded as the clause before is
    after = offset if end is None else end
    return (is_expectation(text[start:offset]) or _CONDITION_RE.match(text, start, offset) is not None
            or EXPECTATION_AFTER_RE.match(text, after, after + EXPECTATION_REACH) is not None)


# quotation marks that make a verdict a mention of the words, opening -> closing
_QUOTES = {'"': '"', "\u201c": "\u201d", "'": "'", "\u2018": "\u2019"}
_QUOTE_REACH = 40  # characters between a quotation mark and the verdict it holds, each side


def quoted(text: str, start: int, end: int) -> bool:
    """True when the verdict at ``start:end`` lies inside quotation marks
    with at most :data:`_QUOTE_REACH` characters to each mark and no other
    mark between: the words are mentioned ("flags \u201cwithin noise\u201d
    with no spread"), not said of a result. A document describing noise
    wording (a reviewer's guide, this tool's own docs) quotes it. A mark
    inside a word is an apostrophe ("the paper's"), no quotation mark."""
    marks = _quote_marks(text, max(0, start - _QUOTE_REACH), start)
    if not marks or marks[-1][1] not in _QUOTES:
        return False
    wanted = _QUOTES[marks[-1][1]]
    after = _quote_marks(text, end, end + _QUOTE_REACH)
    return bool(after) and after[0][1] == wanted


def _quote_marks(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """(offset, mark) of each quotation mark in ``text[start:end]`` that is
    not inside a word (a letter or digit on both sides)."""
    found = []
    for offset in range(start, min(end, len(text))):
        mark = text[offset]
        if mark in _QUOTES or mark in _QUOTES.values():
            inside = 0 < offset < len(text) - 1 and text[offset - 1].isalnum() and text[offset + 1].isalnum()
            if not inside:
                found.append((offset, mark))
    return found


def _finding(document: Document, phrase: str, line: int, where: str) -> Finding:
    return Finding(
        CODE,
        f"'{' '.join(phrase.split())}' with no spread, repeat count or test stated in the same {where}",
        document.path,
        line,
        hint="state the spread (± std, min to max or a confidence interval), how many repeats it is over, "
        "or the test used; or state the difference without calling it noise",
    )
