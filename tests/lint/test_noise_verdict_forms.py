"""SG105: verdicts worded by a statistical test ("cannot be statistically
distinguished"), the spread written as "s.d." or "SD = …", and an
expectation stated after its verdict ("no measurable difference was
expected"). Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = "| Build | Latency (ms) |\n|---|---:|\n| eager | 10.2 |\n| compiled | 10.1 |\n\nSome words between.\n\n"


def _sg105(paragraph: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE + paragraph + "\n", "t.md") if f.code == "SG105"]


@pytest.mark.parametrize("paragraph, phrase", [
    ("Eager and compiled cannot be statistically distinguished.", "cannot be statistically distinguished"),
    ("The two builds are not statistically distinguishable.", "not statistically distinguishable"),
    ("The builds could not be statistically separated.", "could not be statistically separated"),
    ("The two builds are statistically indistinguishable.", "indistinguishable"),
    ("The gap lies within run-to-run variation.", "within run-to-run variation"),
    ("The remaining gap is in the noise.", "in the noise"),
    ("We found no measurable difference between the builds.", "no measurable difference"),
])
def test_a_verdict_without_evidence_is_reported(paragraph, phrase):
    assert _sg105(paragraph) == [(8, f"'{phrase}' with no spread, repeat count or test stated in the same paragraph")]


@pytest.mark.parametrize("evidence", [
    "(s.d. 0.2 ms)", "(SD = 0.2 ms)", "(sd: 0.2 ms)", "(stdev 0.2 ms)", "(10.1 ± 0.3 ms)", "(95% CI 9.9 to 10.3 ms)",
    "(IQR 0.3 ms)", "(min 9.9, max 10.4 ms)", "over 5 runs", "over seven repeats",
])
def test_a_spread_or_a_repeat_count_in_the_paragraph_is_evidence(evidence):
    assert _sg105(f"Eager and compiled cannot be statistically distinguished {evidence}.") == []


@pytest.mark.parametrize("paragraph, reported", [
    ("No measurable difference in accuracy was expected from the new tokenizer.", False),
    ("A statistically insignificant gap is predicted by the cost model.", False),
    ("We saw no measurable difference, as was expected.", True),   # the comma ends the clause: a result
    ("We saw no measurable difference as expected.", True),        # "as expected" confirms a result
    ("No measurable difference in accuracy was found.", True),
])
def test_an_expectation_after_the_verdict_is_no_result(paragraph, reported):
    assert bool(_sg105(paragraph)) is reported


def test_sd_words_that_are_no_spread():
    # "SD 1.5" names a model, not a spread: the verdict stays without evidence
    assert _sg105("On the SD 1.5 model the gap is in the noise.")[0][1].startswith("'in the noise'")
