"""Lint stays linear in documents an attacker shaped (issue 23 item 6): one
paragraph of many ranges, and many small tables each followed by a range.
Measured by counting Python calls (a profiler hook), not by timing: for N and
2N the count must grow about 2x. Before the fix the count grew about 4x
(per-figure rescans of the sentence, per-range passes over every table of
the section). Also: figure_scope's indexed scan gives what a plain scan of
the sentence gives, on generated sentences."""

from __future__ import annotations

import random
import re
import sys

from studygen.lint import lint_text
from studygen.lint.text import figure_scope

_TABLE = "| engine | fp16 ms | INT8 ms |\n|---|---:|---:|\n| A100 | 7.214 | 6.930 |\n| L40S | 8.015 | 7.441 |\n"


def _one_paragraph(count: int) -> str:
    body = " ".join(f"{i}.25 ms to {i + 2}.75 ms, {i}x quicker, {i}% fewer;" for i in range(count))
    return "# Ranges\n\n" + _TABLE + "\n" + body + "\n"


def _many_tables(count: int) -> str:
    return "# Tables\n\n" + "".join(_TABLE + f"\nINT8 needs {i}.25 ms to {i + 1}.75 ms on A100.\n\n" for i in range(count))


def _calls(text: str) -> tuple[int, int]:
    """(Python calls made while linting ``text``, findings)."""
    counted = [0]

    def hook(frame, event, arg):
        if event == "call":
            counted[0] += 1

    lint_text(text[:200], "warm.md")  # caches and lazy regexes out of the count
    sys.setprofile(hook)
    try:
        findings = lint_text(text, "scaling.md")
    finally:
        sys.setprofile(None)
    return counted[0], len(findings)


def _growth(make, count: int) -> float:
    small, _ = _calls(make(count))
    large, _ = _calls(make(2 * count))
    return large / small


def test_one_paragraph_of_ranges_is_linear():
    assert _growth(_one_paragraph, 150) < 2.5


def test_tables_each_followed_by_a_range_is_linear():
    assert _growth(_many_tables, 150) < 2.5


def _plain_scope_start(text: str, start: int) -> int:
    """The backward half of the scope by the definition: the end of the last
    clause separator of a scan of text[:start] that is not a conjunction
    between two words holding digits."""
    separators = re.compile(r"[,;:]\s+|\s+(?:and|but|while|whereas)\s+(?![-−+]?\d)")
    scope = 0
    for match in separators.finditer(text, 0, start):
        word = match.group().strip()
        before = re.search(r"(\S+)\s*$", text[:match.start()])
        after = re.match(r"\s*(\S+)", text[match.end():])
        joins = bool(before and after and re.search(r"\d", before.group(1)) and re.search(r"\d", after.group(1)))
        if not (word in ("and", "but", "while", "whereas") and joins):
            scope = match.end()
    return scope


def test_indexed_scope_start_matches_a_plain_scan():
    rng = random.Random(23)
    words = ["and", "but", "whereas", ",", ";", ":", "(", ")", "4.5", "-1", "−2", "+7", "ms", "x", "H100", "INT8",
             "at", "the", "\t", "  ", "and 3", "while"]
    for _ in range(400):
        text = "".join(rng.choice(words) + " " * rng.randint(0, 2) for _ in range(rng.randint(5, 150)))
        for start in range(0, len(text), 3):
            end = min(len(text), start + rng.randint(0, 4))
            assert figure_scope(text, start, end)[0] == _plain_scope_start(text, start), (text, start)
