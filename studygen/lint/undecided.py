"""Verdict phrases that a modal of inability governs: no verdict stated.

"no difference between 0.1526 and 0.1547 ms can be told from run-to-run
variation", "whether the gap is within noise cannot be established", "we
cannot say that there is no change": each holds a verdict's words ("no
difference", "within noise", "no change") as what cannot be told, said or
settled. The sentence says the data cannot decide, the opposite of a
verdict. :func:`undecided` tells such a phrase from a verdict stated
("there is no difference between A and B", "the two are within noise").

A phrase is undecided when, in its own clause (nothing between it and the
modal but words and figures: no comma, colon, semicolon or parenthesis,
which would start a clause of its own, "..., which can be confirmed"), it is

- the subject of a modal of inability after it: "cannot/can't/could not/
  may not (be) told, established, resolved, determined, said, shown ..."
  or "is impossible/unclear/unknown (to say)"; an affirmative "can/could
  be told" when the phrase opens with "no" (its "no" is the negation: "no
  difference can be told" is "a difference cannot be told"; "no difference
  can be seen" states one, and "seen" is no verb of deciding);
- the object of one before it: "cannot say (whether/that) ...", "it is
  impossible to tell whether ...", "unable to establish ...".

Read by SG204 (:mod:`studygen.checks.sg204_noise_verdict`). Case (a new
user's trial): a study's decision summary said its single published runs
left "no difference between 0.1526 and 0.1547 ms" undecidable, and SG204
reported it as a hand-written verdict.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile

# the verbs of telling, settling or claiming a result, in the forms a modal takes (base and participle)
_DECIDING = (r"(?:say|said|tell|told|establish(?:ed)?|determined?|decided?|concluded?|claim(?:ed)?|stated?|"
             r"judged?|know|known|confirm(?:ed)?|show|shown|prove[dn]?|resolved?|settled?|infer(?:red)?|"
             r"rule[d]?\s+(?:in|out)|separated?|distinguish(?:ed)?)")
_NEGATED_MODAL = r"(?:cannot|can't|can\s+not|could\s+not|couldn't|may\s+not|might\s+not)"
# nothing that opens another clause between the phrase and its modal: words and figures, at most this many characters
_SAME_CLAUSE = r"[^,;:()\[\]]{0,90}?"
# after the phrase: its modal (group "affirmative" set when the modal is no negation itself)
_AFTER_RE = lazy_compile(
    rf"{_SAME_CLAUSE}\b(?:{_NEGATED_MODAL}|(?P<affirmative>can|could))\s+(?:yet\s+|now\s+|really\s+)?"
    rf"(?:be\s+)?{_DECIDING}\b"
    rf"|{_SAME_CLAUSE}\b(?:is|are|was|were|remains?|remained)\s+(?:still\s+)?"
    rf"(?:impossible|not\s+possible|unclear|unknown|undecided|undetermined|uncertain)\b",
    re.IGNORECASE,
    # a stem of each verb of _DECIDING, and of each word of an open outcome ("know" of "unknown")
    needs=("say", "said", "tell", "told", "establish", "determine", "decide", "conclude", "claim", "state", "judge",
           "know", "confirm", "show", "prove", "resolve", "settle", "infer", "rule", "separate", "distinguish",
           "possible", "unclear", "uncertain"),
)
# before the phrase: a modal of inability and its verb, then at most a "whether", "if" or "that" and the phrase's clause
_BEFORE_RE = lazy_compile(
    rf"\b(?:{_NEGATED_MODAL}\s+(?:be\s+)?|(?:impossible|not\s+possible|unable|no\s+way)\s+to\s+)"
    rf"{_DECIDING}\b{_SAME_CLAUSE}$",
    re.IGNORECASE,
    needs=("can", "could", "may", "might", "possible", "unable", "way"),
)
_NO_RE = lazy_compile(r"no\b", re.IGNORECASE)


def undecided(text: str, start: int, end: int, first: int = 0, last: int | None = None) -> bool:
    """True when the verdict phrase ``text[start:end]`` is what a modal of
    inability says cannot be told (see the module docstring), looking no
    further than its clause ``text[first:last]`` (the whole text by default)."""
    last = len(text) if last is None else last
    after = _AFTER_RE.match(text, end, last)
    if after is not None and (after.group("affirmative") is None or _NO_RE.match(text, start)):
        return True
    return _BEFORE_RE.search(text, max(first, start - 160), start) is not None


__all__ = ["undecided"]
