"""SG105 noise wording: a verdict such as "within noise", "not
significant" or "no measurable difference" needs its evidence nearby.

Evidence is any of, in the same paragraph, in the table the paragraph
introduces or follows directly, or (for a verdict in a table cell) in the
same table:

- a spread: ``±``, std / standard deviation, CV, IQR, a confidence interval,
  min and max, p90/p95/p99, "spread", "variance";
- a repeat count: "5 runs", "three repeats", "across four jobs", ``n = 10``,
  "repeated 5 times";
- a test: t-test, Welch, Mann-Whitney, Wilcoxon, bootstrap, permutation
  test, a p-value (``p = 0.3``, ``p < 0.05``).

Without any, the verdict is a warning: it asserts a measurement nobody
reported.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..findings import Finding
from .document import Block, Document, Table

CODE = "SG105"

VERDICT_RE = re.compile(
    r"\b(?:within\s+(?:the\s+)?(?:(?:run-to-run|run\s+to\s+run|measurement|timing|statistical|random)\s+)?"
    r"(?:noise|variance|variation|jitter|error\s+bars|margin\s+of\s+error)"
    r"|in\s+the\s+noise|(?:is|are|was|were|just|only|mere(?:ly)?)\s+noise"
    r"|(?:not|n't|no)\s+(?:statistically\s+)?significant(?:ly)?(?:\s+(?:different|difference|change|gain|speedup|slowdown|regression))?"
    r"|(?:statistically\s+)?insignificant"
    r"|no\s+(?:measurable|significant|meaningful|noticeable|detectable|real|observable|discernible)\s+"
    r"(?:difference|change|gain|speedup|speed-up|slowdown|regression|effect|improvement|impact)"
    r"|not\s+measurably\s+(?:different|faster|slower)"
    r"|indistinguishable\s+from"
    r"|(?:difference|change|gap)\s+is\s+negligible"
    r")",
    re.IGNORECASE,
)

_NUMBER_WORDS = r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)"
EVIDENCE_RE = re.compile(
    r"±|\+/-|\bstd\b|\bstdev\b|\bstd\.?\s*dev|standard\s+deviation|\bcv\b|coefficient\s+of\s+variation"
    r"|\biqr\b|interquartile|\bspread\b|\bvariance\b|confidence\s+interval|\b\d{2}\s*%\s*ci\b"
    r"|\bmin(?:imum)?\b[^.]{0,60}\bmax(?:imum)?\b|\bp(?:90|95|99)\b"
    r"|\b" + _NUMBER_WORDS + r"\s+(?:\w+\s+)?(?:runs|repeats|repetitions|trials|iterations|seeds|samples|measurements|jobs|sessions|times)\b"
    r"|\bn\s*=\s*\d+|\brepeated\s+" + _NUMBER_WORDS + r"\b"
    r"|t-test|\bt\s+test|\bwelch|mann[-\s]whitney|wilcoxon|bootstrap|permutation\s+test|\bp-value|\bp\s*[<=>≤≥]\s*0?\.\d+|\banova\b|kolmogorov",
    re.IGNORECASE,
)


def _table_text(table: Table) -> str:
    parts = list(table.headers)
    for row in table.rows:
        parts.extend(row.cells)
    return " | ".join(parts)


def _neighbour_tables(document: Document, block: Block) -> list[Table]:
    """Tables placed directly before or after the block."""
    return [t for t in document.tables_by_order(block.order - 1, block.order + 1)]


# Every verdict phrase holds one of these stems: a plain substring search of
# the lower-cased text finds the lines worth a closer look.
_STEMS = ("nois", "significan", "measurabl", "meaningful", "noticeabl", "detectabl", "discernibl", "observabl",
          "indistinguishabl", "negligibl", "real ")


def _candidate_lines(document: Document) -> list[int]:
    """Sorted 1-based lines holding a verdict stem."""
    lowered = document.lowered
    found = set()
    for stem in _STEMS:
        position = lowered.find(stem)
        while position != -1:
            found.add(document.line_of_offset(position))
            position = lowered.find(stem, position + 1)
    return sorted(found)


def _touches(lines: list[int], first: int, last: int) -> bool:
    index = bisect_left(lines, first)
    return index < len(lines) and lines[index] <= last


def check(document: Document) -> list[Finding]:
    """SG105 findings: one per verdict without evidence."""
    lines = _candidate_lines(document)
    if not lines:
        return []
    findings = []
    for block in document.prose:
        if not _touches(lines, block.line, block.end_line):
            continue
        matches = list(VERDICT_RE.finditer(block.text))
        if not matches:
            continue
        if EVIDENCE_RE.search(block.text):
            continue
        if any(EVIDENCE_RE.search(_table_text(t)) for t in _neighbour_tables(document, block)):
            continue
        for match in matches:
            findings.append(_finding(document, match.group(0), block.line_at(match.start()), "paragraph"))
    for table in document.tables:
        if not _touches(lines, table.line, table.end_line):
            continue
        text = _table_text(table)
        if not VERDICT_RE.search(text):
            continue
        verdicts = [(row.line, m.group(0)) for row in table.rows for cell in row.cells for m in [VERDICT_RE.search(cell)] if m]
        if not verdicts or EVIDENCE_RE.search(text):
            continue
        for line, phrase in verdicts:
            findings.append(_finding(document, phrase, line, "table"))
    return findings


def _finding(document: Document, phrase: str, line: int, where: str) -> Finding:
    return Finding(
        CODE,
        f"'{phrase}' with no spread, repeat count or test stated in the same {where}",
        document.path,
        line,
        hint="state the spread (± std, min to max or a confidence interval), how many repeats it is over, "
        "or the test used; or state the difference without calling it noise",
    )
