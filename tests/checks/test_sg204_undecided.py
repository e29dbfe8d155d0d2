"""SG204 leaves alone a verdict's words that a modal of inability governs:
"no difference between A and B can be told from run-to-run variation" says
the data cannot decide, no verdict. Case (a new user's trial): a decision
summary explaining that single published runs settle nothing was reported as
a hand-written "no difference" verdict. Verdicts stated as such stay errors."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg204_noise_verdict

from .studies import codes, latency, line_of, load, record

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"


def _findings(tmp_path, sentence: str):
    study = load(tmp_path, records=[record("job", [latency("fp16", 2.417), latency("fp8", 2.395)])],
                 template=HEADER + sentence + "\n")
    return study, codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")


@pytest.mark.parametrize("sentence", [
    "Each engine ran once, so no difference between 2.417 and 2.395 ms can be told from run-to-run variation.",
    "With one run a side, no change of 0.022 ms could be established.",
    "Whether the 0.022 ms gap is within noise cannot be established from one run.",
    "Whether the gap is within the run-to-run noise could not be resolved.",
    "Whether the gap is statistically significant is impossible to say from these logs.",
    "One run a side: we cannot say that there is no difference between 2.417 and 2.395 ms.",
    "It is impossible to tell whether the two are within noise.",
])
def test_a_verdict_the_sentence_cannot_decide_is_no_finding(tmp_path, sentence):
    assert _findings(tmp_path, sentence)[1] == []


@pytest.mark.parametrize(("sentence", "verdict"), [
    ("There is no difference between 2.417 and 2.395 ms.", "no difference"),
    ("The two are within noise.", "are within noise"),
    # "seen" tells nothing undecided: the sentence states the verdict and where to look
    ("No difference between 2.417 and 2.395 ms can be seen.", "No difference"),
    # a clause of its own after the comma: the verdict is stated, then said to be confirmed
    ("The 0.022 ms gap is within noise, which can be confirmed from the logs.", "is within noise"),
    # the modal is the verdict's own wording (it cannot be told apart from the noise)
    ("fp8 cannot be told apart from the variation between runs.", "cannot be told apart from the variation"),
    # a modal of another clause, past a semicolon
    ("We could not rerun it; the gap is within noise.", "is within noise"),
])
def test_a_stated_verdict_is_still_an_error(tmp_path, sentence, verdict):
    study, findings = _findings(tmp_path, sentence)
    (finding,) = findings
    assert f'verdict "{verdict}"' in finding.message
    assert finding.line == line_of(study, sentence[:20])
