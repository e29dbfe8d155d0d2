"""The field's vocabulary, shared by ``lint`` and ``check``.

Benchmark write-ups say "within noise" in many ways ("within run noise",
"lost in the scatter of the measurements", "cannot be separated from the
variation between runs", "indistinguishable"), give counts in words or
hyphenated ("three repeats", "a thousand-image subset", "1000-image",
"5-run median") and name formats in words ("a six-bit integer format").
One table of each lives here, below both users in the layers: SG105 and
SG106 (lint) and SG204, SG205 and SG206 (check) read the same words.

- :data:`NOISE_VERDICT_RE`: a verdict that a difference is noise or not
  significant (the phrase lint's SG105 and check's SG204 look for);
- :data:`EVIDENCE_RE`: what supports such a verdict (a spread, a repeat
  count, a test);
- :data:`EXPECTATION_RE`: words that make a clause an expectation, not a
  result ("should be within noise");
- :func:`number_value` and :data:`NUMBER` (digits or number words),
  :func:`counts` ("N <noun>", "N-<noun>", "a thousand-image");
- :func:`format_mentions` / :func:`format_aliases`: ``int6`` for "six-bit
  integer", ``fp8`` for "8-bit floating point";
- :data:`DIRECTION_WORDS`: the words a comparison goes by ("faster",
  "less"), read by lint's single-figure claims and by ``studygen diff``'s
  verdicts.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..patterns import lazy_compile

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_ALONE = {"dozen": 12, "single": 1, "couple": 2, "pair": 2}

_WORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
# A number in words: "six", "twenty-four", "a thousand", "two hundred and fifty", "a dozen".
NUMBER_WORDS = (
    rf"(?:(?:a|one)\s+(?:hundred|thousand|million|dozen)(?:\s+(?:and\s+)?(?:{_WORD})(?:[- ](?:{_WORD}))*)?"
    rf"|(?:half\s+a\s+dozen)|(?:a\s+(?:single|couple\s+of|pair\s+of))"
    rf"|(?:{_WORD})(?:[- ](?:and[- ])?(?:{_WORD}))*)"
)
# A count as printed: digits (thousands separators allowed) or words.
NUMBER = rf"(?:\d{{1,3}}(?:,\d{{3}})+|\d+|{NUMBER_WORDS})"
_NUMBER_RE = lazy_compile(rf"^{NUMBER}$", re.IGNORECASE)
_NUMBER_WORDS_RE = lazy_compile(rf"(?<![\w-]){NUMBER_WORDS}(?![\w])", re.IGNORECASE)


@lru_cache(maxsize=4096)
def number_value(text: str) -> int | None:
    """The integer a count is printed as: ``"800"``, ``"1,000"``, ``"six"``,
    ``"twenty-four"``, ``"a thousand"``, ``"two hundred and fifty"``,
    ``"a dozen"``, ``"half a dozen"``; None for anything else."""
    text = text.strip().lower()
    if not text or not _NUMBER_RE.match(text):
        return None
    digits = text.replace(",", "")
    if digits.isdigit():
        return int(digits)
    if text == "half a dozen":
        return 6
    words = [w for w in re.split(r"[\s-]+", text) if w not in ("and", "of")]
    if words and words[0] == "a":
        words[0] = "one"
    if len(words) == 2 and words[0] == "one" and words[1] in _ALONE:
        return _ALONE[words[1]]
    total = current = 0
    seen = False
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total += current
                current = 0
        elif word == "dozen":
            current = max(current, 1) * 12
        else:
            return None
        seen = True
    return total + current if seen else None


def counts(text: str, nouns: str, between: int = 4) -> list[tuple[int, int, int]]:
    """``(count, start, end)`` for each count of ``nouns`` (a regex
    alternation, e.g. ``"images?|held[- ]out"``) in ``text``: "800 images",
    "800 COCO val images" (up to ``between`` words between), "1000-image",
    "a thousand-image subset", "three repeats". A four-digit year between
    the count and the noun is skipped over like any word."""
    pattern = _count_pattern(nouns, between)
    found = []
    for match in pattern.finditer(text):
        value = number_value(match.group("count"))
        if value is not None:
            found.append((value, match.start("count"), match.end()))
    return found


@lru_cache(maxsize=64)
def _count_pattern(nouns: str, between: int) -> re.Pattern:
    return re.compile(
        rf"(?<![\w.,-])(?P<count>{NUMBER})(?:-|\s+)(?:(?:[A-Za-z][\w-]*|(?:19|20)\d\d)\s+){{0,{between}}}?(?:{nouns})\b",
        re.IGNORECASE,
    )


# --- directions ------------------------------------------------------------------

# The direction a comparison goes: "5x faster", "70% less memory", "FP8 is slower than fp16".
# Speed words name speed by themselves; the others say which way any quantity goes.
SPEED_WORDS = ("faster", "slower", "quicker")
DIRECTION_WORDS = (*SPEED_WORDS, "less", "more", "lower", "higher", "smaller", "larger", "bigger", "fewer",
                   "cheaper", "longer", "shorter")


# --- noise verdicts ---------------------------------------------------------------

# What "noise" is called: the measurement's own variation.
NOISE_NOUNS = (
    r"(?:noise|jitter|variation|variations|variance|variability|scatter|spread|fluctuations?|uncertainty"
    r"|error\s+bars?|margins?\s+of\s+error|(?:measurement|timing|statistical|random|sampling)\s+error)"
)
# Qualifiers of the noise ("run-to-run", "between runs", "of the measurements").
_QUALIFIER = r"(?:[\w-]+\s+){0,3}?"
NOISE_VERDICT_RE = lazy_compile(
    r"\b(?<![\w-])(?:"
    # within (the) run-to-run noise / within run noise / within measurement error / within error
    rf"within\s+(?:the\s+|our\s+|a\s+)?{_QUALIFIER}(?:{NOISE_NOUNS}|error)"
    # in / below / under the noise (floor)
    rf"|(?:in|into|below|under|beneath|inside)\s+the\s+(?:[\w-]+\s+)?noise(?:\s+(?:floor|level|band))?"
    # lost / buried / drowned / hidden in the scatter of the measurements
    rf"|(?:lost|buried|drowned(?:\s+out)?|hidden|swamped|masked)\s+(?:in|by|under|within)\s+(?:the\s+)?{_QUALIFIER}{NOISE_NOUNS}"
    # cannot be separated / told apart / distinguished from the variation between runs
    rf"|(?:cannot|can't|can\s+not|could\s+not|couldn't|not|no\s+longer)\s+(?:be\s+)?(?:separated|separable|distinguished|distinguishable|"
    rf"told\s+apart|resolved|teased\s+apart|separate[d]?)\s+from\s+(?:the\s+)?{_QUALIFIER}{NOISE_NOUNS}"
    # smaller than / comparable to / on the order of the noise
    rf"|(?:smaller\s+than|less\s+than|comparable\s+to|on\s+the\s+order\s+of|of\s+the\s+order\s+of|at\s+the\s+level\s+of|on\s+par\s+with)"
    rf"\s+(?:the\s+)?{_QUALIFIER}(?:noise|jitter|run[- ]to[- ]run\s+(?:variation|variance|spread))"
    # (is) just / only / mere noise
    r"|(?:is|are|was|were|just|only|mere(?:ly)?|pure|simply)\s+(?:[\w-]+\s+)?noise\b(?!\s+(?:floor|level|source))"
    r"|indistinguishable(?:\s+from)?"
    r"|(?:not|n't|no)\s+(?:statistically\s+)?significant(?:ly)?(?:\s+(?:different|difference|change|gain|speedup|slowdown|regression|improvement))?"
    r"|(?:statistically\s+)?insignificant"
    r"|no\s+(?:measurable|significant|meaningful|noticeable|detectable|real|observable|discernible|appreciable|material|statistical)\s+"
    r"(?:difference|change|gain|speedup|speed-up|slowdown|regression|effect|improvement|impact|benefit)"
    r"|not\s+measurably\s+(?:different|faster|slower|better|worse)"
    r"|(?:difference|change|gap|delta)\s+(?:is|are|was|were)\s+(?:negligible|insignificant)"
    r")(?![\w-])",
    re.IGNORECASE,
)

# Every verdict above holds one of these stems: a substring search of the
# lower-cased text finds the lines worth a closer look.
NOISE_STEMS = (
    "nois", "jitter", "variation", "varianc", "variabil", "scatter", "spread", "fluctuat", "uncertain", "error",
    "significan", "measurabl", "meaningful", "noticeabl", "detectabl", "discernibl", "observabl", "appreciabl",
    "indistinguishabl", "negligibl", "real ", "material ", "statistical ",
)

_REPEAT_NOUNS = (
    r"(?:runs?|repeats?|repetitions?|reps?|replicates?|trials?|iterations?|iters?|seeds?|samples?|measurements?|"
    r"jobs?|sessions?|launches|passes|times|benchmarks?\s+runs?)"
)
EVIDENCE_RE = lazy_compile(
    r"±|\+/-|\bstd\b|\bstdev\b|\bstd\.?\s*dev|standard\s+(?:deviation|error)|\bsem\b|\bσ|\bsigma\b|\bcv\b"
    r"|coefficient\s+of\s+variation|\biqr\b|interquartile|quartiles?|\bspread\b|\bvariance\b|confidence\s+interval"
    r"|\b\d{2}\s*%\s*ci\b|\bci\s*[=:\[(]"
    r"|\bmin(?:imum)?\b[^.]{0,60}\bmax(?:imum)?\b|\bp(?:90|95|99)\b|percentiles?"
    rf"|\bn\s*=\s*(?:[2-9]|\d\d+)|\brepeated\s+(?:{NUMBER}|several|many)\b|\b(?:several|multiple|repeated|many)\s+{_REPEAT_NOUNS}\b"
    r"|t-test|\bt\s+test|\bwelch|mann[-\s]whitney|wilcoxon|bootstrap|permutation\s+test|\bp-value|\bp\s*[<=>≤≥]\s*0?\.\d+"
    r"|\banova\b|kolmogorov",
    re.IGNORECASE,
)

# An expectation or a plan, not a result: "should be within noise", "we expect no difference".
EXPECTATION_RE = lazy_compile(
    r"\b(?:should|would|will|shall|expect(?:s|ed|ing)?|expectations?|hope[sd]?|aims?|goal|target(?:s|ed)?|predicted|"
    r"anticipated?|supposed\s+to|ought\s+to|planned|plan\s+to|to\s+be\s+(?:confirmed|verified|checked))\b",
    re.IGNORECASE,
)


def repeat_counts(text: str) -> list[tuple[int, int, int]]:
    """``(count, start, end)`` of each repeat count in ``text``: "5 runs",
    "three repeats", "10-iteration", "across four jobs", "5 reps each"."""
    return counts(text, _REPEAT_NOUNS, between=1)


def has_evidence(text: str) -> bool:
    """True when ``text`` states a spread, a test or a repeat count of at
    least two (:data:`EVIDENCE_RE`, :func:`repeat_counts`): one run shows no
    variation, so "a single run" is no evidence."""
    if EVIDENCE_RE.search(text):
        return True
    return any(count >= 2 for count, _, _ in repeat_counts(text))


def is_expectation(clause: str) -> bool:
    """True when ``clause`` states an expectation or a plan (see :data:`EXPECTATION_RE`)."""
    return EXPECTATION_RE.search(clause) is not None


# --- formats named in words -------------------------------------------------------

_FORMAT_RE = lazy_compile(
    rf"(?<![\w-])(?P<bits>\d+|{NUMBER_WORDS})[- ]bits?(?:\s+(?P<kind>integer|int|floating[- ]point|float|fp|"
    r"normal[- ]float|nf|microscaling|mx))?\b",
    re.IGNORECASE,
)
_KIND_PREFIX = {"integer": "int", "int": "int", "float": "fp", "fp": "fp", "normal": "nf", "nf": "nf", "microscaling": "mxfp", "mx": "mxfp"}


def format_mentions(text: str) -> list[tuple[str, int, int]]:
    """``(name, start, end)`` for each format ``text`` writes in words: two
    names for "a six-bit integer format" (``int6`` and ``6-bit``), ``fp8``
    and ``8-bit`` for "8-bit floating point", ``nf4`` for "4-bit normal
    float", only ``4-bit`` for a bare "four-bit". Bit counts over 64 are no
    format."""
    found = []
    if "bit" not in text.lower():
        return found
    for match in _FORMAT_RE.finditer(text):
        bits = number_value(match.group("bits"))
        if bits is None or bits > 64:
            continue
        kind = (match.group("kind") or "").lower()
        if kind:
            prefix = _KIND_PREFIX.get(kind.split("-")[0].split()[0], "fp")
            found.append((f"{prefix}{bits}", match.start(), match.end()))
        found.append((f"{bits}-bit", match.start(), match.end()))
    return found


def format_aliases(text: str) -> set[str]:
    """The names of :func:`format_mentions` (``{"int6", "6-bit"}`` for "a
    six-bit integer format")."""
    return {name for name, _, _ in format_mentions(text)}


def number_terms(text: str) -> set[str]:
    """Digits for the counts ``text`` writes in words ("eight GPUs" -> "8")."""
    found = set()
    for match in _NUMBER_WORDS_RE.finditer(text):
        value = number_value(match.group(0))
        if value is not None and match.group(0).lower() not in ("one", "a single"):
            found.add(str(value))
    return found
