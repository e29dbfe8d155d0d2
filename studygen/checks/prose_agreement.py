"""Agreement figures quoted in the study file's prose, which SG222 holds to the records
(:func:`~.sg222_misquoted_figures.agreement_findings`): a logit correlation, a largest absolute difference, a
precision, recall or top-1 agreement against a reference variant ("the fp16 max abs diff is 0.00078434"), each
written as the records hold it (a top-1 agreement as a fraction, 0.9921; "99.21%" is not read).

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
from .prose_figures import MAX_QUOTED_CHARACTERS, MIN_SIGNIFICANT, quoted_figures, sentence_bounds, significant_digits

# how far (characters of words; a digit only inside a word) a figure may stand after its metric's name: "logit correlation with
# fp32 on the held-out set is 0.99984" (36 between); a figure further on is another clause's
_GAP = 60

# the metrics of agreement results (the schema's enum) and the words prose names them by
_METRIC_WORDS = {
    "logit_correlation": r"(?:logit\s+)?correlation|pearson(?:\s+r)?",
    "max_abs_diff": r"max(?:imum)?\.?\s+abs(?:olute)?\.?\s+diff(?:erence)?|largest\s+absolute\s+difference|max\s+abs\s+error",
    "precision": r"precision",
    "recall": r"recall",
    "top1_agreement": r"top[\s-]?1\s+(?:agreement|match(?:es)?)|argmax\s+agreement",
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


# a multiple written as a figure and "x" ("2.4x", "3 ×"; not a shape's "224x224")
_MULTIPLE_RE = lazy_compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?[x×](?![\w-])(?!\s?\d)")
_METRIC_NAME_RE = lazy_compile(r"(?<![\w-])(?:" + "|".join(f"(?P<{name}>{words})" for name, words in _METRIC_WORDS.items())
                               + r")(?![\w-])", re.IGNORECASE)


def agreement_multiples(text: str):
    """``(metric, number text, offset, sentence)`` of each multiple ("2.4x") in a sentence of ``text`` that names
    one agreement metric and no figure of a unit: a multiple of one variant's figure of that metric over
    another's, which the sentence's variants tell (SG222 holds it to their rows). Case (a new user's trial,
    session 28): "int8's max abs diff is 2.4x fp16's on the held-out set." passed where the records give
    0.017765 / 0.00074834 = 23.7x."""
    for match in _MULTIPLE_RE.finditer(text):
        begin, end = sentence_bounds(text, match.start())
        sentence = text[begin:end]
        metrics = {next(name for name in _METRIC_WORDS if m.group(name) is not None)
                   for m in _METRIC_NAME_RE.finditer(sentence)}
        if len(metrics) == 1 and not any(True for _ in quoted_figures(sentence)):
            yield metrics.pop(), match.group(1), match.start(1), sentence


__all__ = ["agreement_multiples", "quoted_agreement"]
