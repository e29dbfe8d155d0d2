"""Clauses of prose that state no result of the study they are written in,
though they hold a result's words (a speed comparative, a ratio, a time).

A clause is one of these when it

- expects or plans (:data:`~studygen.lint.vocabulary.EXPECTATION_RE`:
  "we expected fp16 to be faster", "we will rerun this on an A100",
  "should"), unless the word follows "as" or "than" ("as expected, fp16 is
  faster" states the result it expected);
- supposes (:data:`HYPOTHETICAL_RE`: "would", "could", "might", lower-case
  "may", "if ... were": "if fp16 were faster than fp32, we would ship it");
- attributes the result to another source (:data:`SOURCE_RE`: "the vendor
  claims", "according to", "earlier work found", a datasheet, spec sheet,
  paper or blog, a citation in parentheses with a year, "et al.", a URL or
  a Markdown link);
- leaves the question open (:data:`OPEN_RE`: "whether", "remains to be
  seen", "may or may not", "unknown", "unclear").

A hypothetical may be a claim all the same: "On an H100, bf16 would be faster
than fp32", in a study measured on one GTX 1070 (a new user's trial, session
23), asserts a result on a GPU the study never ran on, which SG224 reports;
``hypothetical=True`` reads such a clause (its "would" included) as stating a
result. Read by SG212 for comparisons of variants printed without figures
(:mod:`studygen.checks.prose_variant_rows`) and by SG224 for results on a GPU
no record was measured on (:mod:`studygen.checks.sg224_unmeasured_gpu`).
Case (an attack on both, session 23): "We expected fp16 to be faster than
fp32.", "The vendor claims fp16 is 2x faster than fp32 on Pascal." and "It
remains to be seen whether fp16 is faster than fp32." were SG212 errors;
"NVIDIA's A100 datasheet lists FP16 tensor math as 2x faster than TF32." and
"We will rerun this on an A100 to see whether fp16 is faster." were SG224
warnings in a study of other GPUs.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .vocabulary import EXPECTATION_RE

# A supposition: a modal of possibility or the subjunctive "if ... were" ("may" in lower case: "In May, ..." is a
# month); EXPECTATION_RE holds "would"
HYPOTHETICAL_RE = lazy_compile(r"\b(?:could|might|(?-i:may))\b|\bif\b[^,;:.]{0,80}?\bwere\b", re.IGNORECASE)
# Another source of the result: a claim, a document results are published in, earlier work, a citation
# ("(Smith et al., 2023)", "(2023)"), a URL or a Markdown link
SOURCE_RE = lazy_compile(
    r"\b(?:claims?|claimed|according\s+to|vendor's|vendors?|data\s?sheets?|spec(?:ification)?\s+sheets?|"
    r"white\s?papers?|papers?|blog|MLPerf|literature|et\s+al)\b"
    r"|\b(?:earlier|prior|previous|related|other|existing|published)\s+(?:work|studies|study|papers?|reports?|"
    r"results|benchmarks?)\b"
    r"|\([^()]{0,80}?\b(?:19|20)\d\d[a-z]?\)|\bhttps?://|\bwww\.|\]\(",
    re.IGNORECASE,
    # one word of each alternative: a source named, a kind of earlier work, a year's century, a link
    needs=("claim", "according", "vendor", "sheet", "paper", "blog", "mlperf", "literature", "et", "earlier", "prior",
           "previous", "related", "other", "existing", "published", "19", "20", "http", "www.", "]("))
# A question left open: what is asked, not answered
OPEN_RE = lazy_compile(
    r"\bwhether\b|\bremains?\s+to\s+be\s+(?:seen|shown|measured|tested|determined)\b"
    r"|\b(?:may|might|could)\s+or\s+(?:may|might|could)\s+not\b|\b(?:unknown|unclear|undecided|open\s+question)\b",
    re.IGNORECASE, needs=("whether", "remain", "may", "might", "could", "unknown", "unclear", "undecided", "question"))
# "as expected", "than hoped": the result is stated and compared with the expectation
_AS_BEFORE_RE = lazy_compile(r"\b(?:as|than)\s+$", re.IGNORECASE)
_BEFORE_REACH = 8  # characters before an expectation word searched for its "as" or "than"


def _expects(clause: str, hypothetical: bool) -> bool:
    """Whether ``clause`` holds an expectation or a plan (see the module
    docstring); its "would" left out when ``hypothetical`` counts as a claim."""
    for match in EXPECTATION_RE.finditer(clause):
        if hypothetical and match.group(0).lower() == "would":
            continue
        if _AS_BEFORE_RE.search(clause[max(0, match.start() - _BEFORE_REACH):match.start()]):
            continue
        return True
    return False


def states_no_result(clause: str, *, hypothetical: bool = False) -> bool:
    """Whether ``clause`` (a clause of prose: the caller cuts it) states no
    result of the study: an expectation or a plan, a supposition, a result
    of another source, or an open question (see the module docstring). With
    ``hypothetical`` a supposition ("would be faster") is read as a claim."""
    if SOURCE_RE.search(clause) or OPEN_RE.search(clause) or _expects(clause, hypothetical):
        return True
    return not hypothetical and HYPOTHETICAL_RE.search(clause) is not None


__all__ = ["HYPOTHETICAL_RE", "OPEN_RE", "SOURCE_RE", "states_no_result"]
