"""Agreement figures quoted in the study file's prose, which SG222 holds to the records
(:func:`~.sg222_misquoted_figures.agreement_findings`): a logit correlation, a largest absolute difference, a
precision or recall against a reference variant ("the fp16 max abs diff is 0.00078434").

An agreement figure has no unit to find it by (``0.99984``, ``0.017765``), so it is read only where its metric is
named before it in its sentence, with at most :data:`_GAP` characters of words between (a colon or an equals sign
too; digits only inside a word, "fp32") and no other figure (:data:`_METRIC_FIGURE_RE`), and only with at least
three significant digits: a round threshold ("above 0.99") is no quotation.

Case (a new user's trial, session 28): "The fp16 max abs diff is 0.00078434." passed in a study whose only fp16
largest difference is 0.00074834 (two digits swapped): SG222 read figures in ms, MiB and AP only.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .prose_figures import MAX_QUOTED_CHARACTERS, MIN_SIGNIFICANT, significant_digits

# how far (characters of words; a digit only inside a word) a figure may stand after its metric's name: "logit correlation with
# fp32 on the held-out set is 0.99984" (36 between); a figure further on is another clause's
_GAP = 60

# the metrics of agreement results (the schema's enum) and the words prose names them by
_METRIC_WORDS = {
    "logit_correlation": r"(?:logit\s+)?correlation|pearson(?:\s+r)?",
    "max_abs_diff": r"max(?:imum)?\.?\s+abs(?:olute)?\.?\s+diff(?:erence)?|largest\s+absolute\s+difference|max\s+abs\s+error",
    "precision": r"precision",
    "recall": r"recall",
}
_METRIC_FIGURE_RE = lazy_compile(
    r"(?<![\w-])(?:" + "|".join(f"(?P<{name}>{words})" for name, words in _METRIC_WORDS.items()) + r")(?![\w-])"
    rf"(?P<gap>(?:[^\d.;!?]|(?<=[A-Za-z])\d+){{0,{_GAP}}}?)(?<![\w.\-/])(?P<number>\d+\.\d+)(?![\w.]?\d)(?!\s*(?:ms|µs|μs|us|MiB|MB|GiB|GB|%|x|×)(?![\w-]))",
    re.IGNORECASE)


def quoted_agreement(text: str):
    """``(metric, number text, offset)`` of each figure ``text`` quotes after an agreement metric's name."""
    for match in _METRIC_FIGURE_RE.finditer(text):
        metric = next(name for name in _METRIC_WORDS if match.group(name) is not None)
        number = match.group("number")
        if significant_digits(number) >= MIN_SIGNIFICANT and len(number) <= MAX_QUOTED_CHARACTERS:
            yield metric, number, match.start("number")


__all__ = ["quoted_agreement"]
