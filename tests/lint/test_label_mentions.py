"""A document of many row labels: a sentence's mention of a label is read without compiling a pattern per
label (restriction.TextView.mention through text.names_whole). Before, each multi-word label was a fresh
regular expression; past Python's cache of 512 patterns every sentence compiled every label again (a table
of 2,000 'run N' rows and 50 range sentences: 200,000 compilations, about 30 s). names_whole answers as the
pattern it replaced does, on generated text."""

from __future__ import annotations

import random
import re
import sys

from studygen.lint import lint_text
from studygen.lint.text import names_whole


def _compilations(text: str) -> tuple[int, int]:
    """(regular expressions compiled while linting ``text``, findings)."""
    counted = [0]

    def hook(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_name == "compile" and code.co_filename.endswith("_compiler.py"):
            counted[0] += 1

    lint_text(text[:300], "warm.md")  # lazy module patterns compiled out of the count
    sys.setprofile(hook)
    try:
        findings = lint_text(text, "labels.md")
    finally:
        sys.setprofile(None)
    return counted[0], len(findings)


def _document(rows: int, ranges: int) -> str:
    table = "\n".join(f"| run {i} | {1000 + 7 * i} |" for i in range(rows))
    prose = "\n\n".join(f"Latency ranges from {1 + i / 10:.1f} to {2 + i / 10:.1f} seconds for every run up to {i}."
                        for i in range(ranges))
    return f"# Runs\n\n| Run | Latency (ms) |\n|---|---|\n{table}\n\n{prose}\n"


def test_many_row_labels_compile_no_pattern_per_label():
    compiled, findings = _compilations(_document(700, 6))
    assert compiled < 40  # before: 4,211 (each of 700 labels once per sentence)
    # the table runs 1000..5893 ms; each sentence's range (1.0..2.0 s up to 1.5..2.5 s) holds at most 143 of its
    # 700 rows: each of the six sentences is one SG101 finding
    assert findings == 6


def test_names_whole_answers_as_the_pattern_does():
    rng = random.Random(7)
    alphabet = ["a", "b", " ", ".", "-", "_", "1", "é", "٣", "x"]
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
        pattern = re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w])", text)
        assert names_whole(text, value) == (pattern is not None), (text, value)
    assert names_whole("on run 12 and run 1.", "run 1") and not names_whole("on run 12", "run 1")
    assert not names_whole("v.run 1", "run 1") and not names_whole("xrun 1", "run 1")
