"""Reading the lint case files of tests/cases/lint/.

Each case is a Markdown document written for one purpose. Its first HTML
comment says what it exercises (``case: SG101 positive``, ``case: negative for
every check``); expectations sit in HTML comments too (markdown-it-py reads
them as HTML blocks, so lint never sees them):

- ``expect: SG101 line 18 "0.19 to 0.21 ms" "0.409 ms"`` — one finding of that
  code on that line whose message holds every quoted fragment;
- ``absent: "H100"`` — no finding's message holds the fragment.

A case with no ``expect:`` line must produce no finding at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CASES = Path(__file__).resolve().parents[1] / "cases" / "lint"

_EXPECT_RE = re.compile(r'^expect: (SG\d{3}) line (\d+)((?: "[^"]*")*)\s*$', re.M)
_ABSENT_RE = re.compile(r'^absent:((?: "[^"]*")+)\s*$', re.M)
_CASE_RE = re.compile(r"^case: (.+)$", re.M)
_QUOTED_RE = re.compile(r'"([^"]*)"')
CHECK_CODES = ("SG101", "SG102", "SG103", "SG104", "SG105", "SG106", "SG107")


@dataclass
class Expected:
    code: str
    line: int
    fragments: list[str]


@dataclass
class Case:
    path: Path
    text: str
    kind: str  # the "case:" line
    expected: list[Expected] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)

    @property
    def positive_for(self) -> set[str]:
        return {e.code for e in self.expected}

    @property
    def negative_for(self) -> set[str]:
        if "negative for every check" in self.kind:
            return set(CHECK_CODES)
        return {code for code in CHECK_CODES if f"{code} negative" in self.kind}


def load_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    kind = _CASE_RE.search(text)
    case = Case(path, text, kind.group(1) if kind else "")
    for match in _EXPECT_RE.finditer(text):
        case.expected.append(Expected(match.group(1), int(match.group(2)), _QUOTED_RE.findall(match.group(3))))
    for match in _ABSENT_RE.finditer(text):
        case.absent.extend(_QUOTED_RE.findall(match.group(1)))
    return case


def all_cases() -> list[Case]:
    return [load_case(p) for p in sorted(CASES.glob("*.md"))]
