"""SG105: the declared table of noise-verdict forms (NOISE_VERDICT_FORMS):
a variation of repeated measurements named without "the" ("less than
run-to-run variation", "below measurement noise"), a word naming the
quantity inside "no meaningful ... difference", plurals of the effect, and
the spread or repeat count nearby that still clears each. Documents of our
own."""

from __future__ import annotations

import re

import pytest

from studygen.lint import lint_text
from studygen.lint import vocabulary

TABLE = "| Kernel | Time (ms) |\n|---|---:|\n| fused | 3.31 |\n| split | 3.29 |\n\nSome words between.\n\n"


def _sg105(paragraph: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE + paragraph + "\n", "t.md") if f.code == "SG105"]


@pytest.mark.parametrize("paragraph, phrase", [
    ("Fused and split differ by less than run-to-run variation.", "less than run-to-run variation"),
    ("The gap sits below measurement noise.", "below measurement noise"),
    ("The gap stays inside trial-to-trial jitter.", "inside trial-to-trial jitter"),
    ("The gap is smaller than timing error.", "smaller than timing error"),
    ("The gap is below trial-to-trial error.", "below trial-to-trial error"),
    ("The gap is comparable to session-to-session fluctuation.", "comparable to session-to-session fluctuation"),
    ("We see no meaningful kernel-time difference.", "no meaningful kernel-time difference"),
    ("We see no measurable latency change.", "no measurable latency change"),
    ("Splitting brings no noticeable gains.", "no noticeable gains"),
    # the variation itself said negligible: a stability verdict (a new user's trial wrote "The run-to-run
    # variation on the H100 is negligible" of a run trtexec flagged unstable, and check passed it)
    ("The run-to-run variation on split is negligible.", "run-to-run variation on split is negligible"),
    ("Timing jitter was insignificant.", "jitter was insignificant"),
    ("The scatter between runs is negligible for both kernels.", "scatter between runs is negligible"),
])
def test_a_paraphrased_verdict_without_evidence_is_reported(paragraph, phrase):
    assert _sg105(paragraph) == [(8, f"'{phrase}' with no spread, repeat count or test stated in the same paragraph")]


@pytest.mark.parametrize("paragraph", [
    "Fused and split differ by less than run-to-run variation over 6 runs.",      # a repeat count
    "The gap sits below measurement noise (3.30 ± 0.03 ms).",                     # a spread
    "We see no meaningful kernel-time difference (Welch t-test, p = 0.4).",       # a test
    "Splitting gives a 4% drop in run-to-run variation.",                         # "in" without "the": no verdict
    "The kernel stays robust under measurement noise.",
    "The new timer shows less run-to-run variation.",                             # no "than": a comparison of spreads
    "The gap is below 0.05 ms.",
    "We see no meaningful reason to split.",                                      # no effect word
    "No meaningful kernel-time difference was expected.",                         # an expectation, not a result
    "Variation in input size is negligible here.",                                # no repeats named
    "The launch overhead on split is negligible.",
    "The spread of prompt lengths is negligible.",
    "The run-to-run variation on split is negligible (3 runs, 3.29 ± 0.01 ms).",  # a spread and a count
])
def test_near_misses_stay_silent(paragraph):
    assert _sg105(paragraph) == []


def test_every_declared_form_reads_its_own_example_and_the_union_reads_all():
    forms = vocabulary.NOISE_VERDICT_FORMS
    assert len(forms) == len({example for example, _ in forms}) == 14
    for example, pattern in forms:
        assert re.fullmatch(pattern, example, re.IGNORECASE), example
        match = vocabulary.NOISE_VERDICT_RE.search(f"We found it {example} here.")
        assert match is not None and match.group(0) == example, example
