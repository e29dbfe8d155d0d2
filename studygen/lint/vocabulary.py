"""The field's vocabulary, shared by ``lint`` and ``check``.

Benchmark write-ups say "within noise" in many ways ("within run noise", "lost in the scatter of the
measurements", "cannot be separated from the variation between runs", "indistinguishable"), give counts in
words or hyphenated ("three repeats", "a thousand-image subset", "1000-image", "5-run median") and name
formats in words ("a six-bit integer format").
One table of each lives here, below both users in the layers: SG105 and
SG106 (lint) and SG204, SG205 and SG206 (check) read the same words.

- :data:`NOISE_VERDICT_RE`: a verdict that a difference is noise or not
  significant (the phrase lint's SG105 and check's SG204 look for);
- :data:`EVIDENCE_RE`: what supports such a verdict (a spread, a repeat
  count, a test; :func:`has_evidence` adds "repeated" with a count);
- :data:`EXPECTATION_RE`: words that make a clause an expectation, not a
  result ("should be within noise");
- :func:`number_value` and :data:`NUMBER` (digits or number words),
  :func:`counts` ("N <noun>", "N-<noun>", "a thousand-image");
- :func:`format_mentions` / :func:`format_aliases`: ``int6`` for "six-bit
  integer", ``fp8`` for "8-bit floating point";
- :data:`CONFIGURATION_WORDS` / :func:`canonical_configuration`: one
  spelling of a configuration ("bs=16" and "batch size 16" are batch 16);
- :data:`MAJORITY_RE`: a claim about most or all rows ("in most cases",
  "on every GPU"), which SG101 holds a range to;
- :data:`DIRECTION_WORDS`: the words a comparison goes by ("faster",
  "less"), read by lint's single-figure claims and by ``studygen diff``'s
  verdicts.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..patterns import GuardedPattern, ascii_folded, lazy_compile

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
_DIGIT_COUNT = r"\d{1,3}(?:,\d{3})+|\d+"
NUMBER = rf"(?:{_DIGIT_COUNT}|{NUMBER_WORDS})"
# The one compiled copy of NUMBER_WORDS that number_value, number_terms and format_mentions share (each copy
# costs about 1 ms to compile). Its lookarounds hold at the ends of a fullmatch, so fullmatch(text, start, end)
# says whether the words are exactly text[start:end] (with no letter, digit or hyphen glued on before).
# The letters a number in words starts with ("a", "one", "half" and each word of the tables): a lookahead
# of them first lets a search skip every other character without trying the alternatives there
_NUMBER_FIRST_LETTERS = "".join(sorted({"a", "o", "h"} | {word[0] for word in (*_UNITS, *_TENS, *_SCALES)}))
NUMBER_WORDS_RE = lazy_compile(rf"(?=[{_NUMBER_FIRST_LETTERS}])(?<![\w-]){NUMBER_WORDS}(?![\w])", re.IGNORECASE)
_DIGIT_COUNT_RE = lazy_compile(_DIGIT_COUNT)


@lru_cache(maxsize=4096)
def number_value(text: str) -> int | None:
    """The integer a count is printed as: ``"800"``, ``"1,000"``, ``"six"``,
    ``"twenty-four"``, ``"a thousand"``, ``"two hundred and fifty"``,
    ``"a dozen"``, ``"half a dozen"``; None for anything else."""
    text = text.strip().lower()
    if not text or not (_DIGIT_COUNT_RE.fullmatch(text) or NUMBER_WORDS_RE.fullmatch(text)):
        return None  # not NUMBER, whole
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
    "a thousand-image subset", "three repeats", "400 of the images". A
    four-digit year between the count and the noun is skipped over like any
    word.

    A number counts the noun only when it quantifies it, as a reader reads
    it (:func:`quantifies`): "a 32-fold downsampled image", "a 224 x 224
    image", "stride 32 image features", "1/32 resolution of the image" and
    "a 5-minute run" hold a number and the noun, but no count of it."""
    found = []
    if not _noun_pattern(nouns).search(text):
        return found  # every count ends in its noun: most lines hold none (one search, not one per number)
    pattern = _count_pattern(nouns, between)
    position = 0
    while (match := pattern.search(text, position)) is not None:
        value = number_value(match.group("count"))
        if value is not None and quantifies(text, match):
            found.append((value, match.start("count"), match.end()))
            position = match.end()
        else:
            # a number that measures something else may still precede a count ("32-bit, 500 images" is not one match)
            position = match.end("count")
    return found


@lru_cache(maxsize=64)
def _noun_pattern(nouns: str) -> re.Pattern:
    """The end of every match of :func:`_count_pattern` for ``nouns``, alone."""
    return re.compile(rf"(?:{nouns})\b", re.IGNORECASE)


@lru_cache(maxsize=64)
def _count_pattern(nouns: str, between: int) -> re.Pattern:
    return re.compile(
        rf"(?<![\w.,/:×*-])(?P<count>{NUMBER})(?P<joint>-|\s+)"
        rf"(?P<between>(?:(?:[A-Za-z][\w-]*|(?:19|20)\d\d)\s+){{0,{between}}}?)(?:{nouns})\b",
        re.IGNORECASE,
    )


# What a number next to it measures instead of counting the noun after it:
# factors ("32x", "32-fold", "32 times"), sizes and units ("32-bit", "32 px",
# "32 MB", "3 channel"), durations ("a 5-minute run").
MEASURE_WORDS = frozenset(
    """x × fold times bit bits byte bytes kb mb gb tb kib mib gib tib px pixel pixels pel pels dpi ppi mp megapixel
    megapixels channel channels ms s sec secs second seconds us µs ns min mins minute minutes h hr hrs hour hours
    day days percent""".split()
)
# Nouns that take a number as their value: after "stride 32", "batch 16" or
# "layer 4" the number names a setting, it counts nothing that follows it.
PARAMETER_NOUNS = frozenset(
    """stride strides batch size sizes resolution scale factor level layer stage step epoch iteration seed version
    rank width height dimension dim shape window patch kernel block head heads depth""".split()
)
# Words that cannot stand between a count and what it counts: after one of
# them the number quantifies another word ("1/32 resolution of the image").
_FUNCTION_WORDS = frozenset(
    """of on at in for to from by with and or but nor per than then into onto over under across after before
    the a an as is are was were be been this that these those its their our each every""".split()
)
_PARTITIVE = frozenset("the these those our their its all".split())
_DIMENSION_BEFORE_RE = lazy_compile(r"\d\s*(?:x|×|\*|by)\s*$", re.IGNORECASE)
_DIMENSION_AFTER_RE = lazy_compile(r"^\s*(?:x|×|\*|by)\s*\d", re.IGNORECASE)
_WORD_BEFORE_RE = lazy_compile(r"([A-Za-z]+)\s*[=:]?\s*$")


def quantifies(text: str, match: re.Match) -> bool:
    """True when the number of ``match`` (a :func:`counts` pattern match on
    ``text``) counts its noun: it modifies the noun directly or through
    modifiers ("32 held-out images", "the first 32 images of val2017", "500
    COCO images", a partitive "400 of the images"). False when it is a
    compound modifier of another word ("32-fold", "32-bit", "32-pixel"), a
    measure ("32 px", "32 MB", "32 x 32"), a side of a dimension ("224x224",
    "640 by 480"), a fraction or ratio ("1/32"), the value of a setting
    ("stride 32") or quantifies another word that a function word separates
    from the noun ("1/32 resolution of the image")."""
    words = match.group("between").split()
    if match.group("joint") == "-" and words:
        return False  # "32-fold downsampled image": the number belongs to "fold"
    if words and words[0].lower() in MEASURE_WORDS:
        return False
    if words[:1] == ["of"] and (len(words) == 1 or words[1].lower() in _PARTITIVE):
        words = words[2:]  # "400 of the images", "32 of our held-out images"
    if any(word.lower() in _FUNCTION_WORDS for word in words):
        return False
    before, after = text[: match.start("count")], text[match.end("count"):]
    if _DIMENSION_BEFORE_RE.search(before) or _DIMENSION_AFTER_RE.match(after):
        return False
    setting = _WORD_BEFORE_RE.search(before)
    return not (setting and setting.group(1).lower() in PARAMETER_NOUNS)


# --- directions ------------------------------------------------------------------

# The direction a comparison goes: "5x faster", "70% less memory", "FP8 is slower than fp16".
# Speed words name speed by themselves; the others say which way any quantity goes.
SPEED_WORDS = ("faster", "slower", "quicker")
DIRECTION_WORDS = (*SPEED_WORDS, "less", "more", "lower", "higher", "smaller", "larger", "bigger", "fewer",
                   "cheaper", "longer", "shorter")


# --- noise verdicts ---------------------------------------------------------------

# A noise verdict says that a difference lies inside the measurements' own
# variation. It is recognised by concept, not by phrase: each entry of this
# table is one class of words (regular-expression alternatives); extend a
# class to teach lint a new wording, and NOISE_VERDICT_RE below combines them.
NOISE_VOCABULARY: dict[str, tuple[str, ...]] = {
    # what the measurement's own variation is called, named as such
    "noise": ("noise", "jitter", r"error\s+bars?", r"margins?\s+of\s+error",
              r"(?:measurement|timing|statistical|random|sampling)\s+error", r"noise\s+(?:floor|level|band)"),
    # variation in general: a verdict only with a word tying it to repeated runs, or after "within"
    "variation": (r"variations?", "variance", "variability", "scatter", "spread", r"fluctuations?", "uncertainty", r"deviations?"),
    # what ties a variation to repeated measurements ("run-to-run variance", "the scatter between runs")
    "repeats": (r"run-to-run", r"repeat-to-repeat", r"trial-to-trial", r"session-to-session", r"job-to-job", "run", "repeat",
                "trial", "measurement", "timing", "iteration", "sample", "seed", "session"),
    "repeat_nouns": (r"runs", r"repeats", r"trials", r"measurements", r"iterations", r"samples", r"seeds", r"sessions", r"jobs",
                     r"compilations", r"repetitions", r"launches"),
    # where a verdict puts the difference: inside any variation
    "within": ("within",),
    # ... or beneath the noise (or a variation of repeats), after "the" or "our"
    "beneath": ("in", "into", "inside", "under", "below", "beneath", r"at\s+the\s+level\s+of", r"(?:on|of)\s+the\s+order\s+of",
                r"comparable\s+to", r"on\s+par\s+with", r"no\s+(?:larger|bigger|greater)\s+than", r"smaller\s+than",
                r"less\s+than"),
    # ... or beneath a variation of repeated measurements named without a determiner ("below measurement noise")
    "beneath_bare": ("inside", "below", "beneath", r"at\s+the\s+level\s+of", r"(?:on|of)\s+the\s+order\s+of",
                     r"comparable\s+to", r"on\s+par\s+with", r"no\s+(?:larger|bigger|greater)\s+than", r"smaller\s+than",
                     r"less\s+than"),
    # what the noise does to the difference: hides it (followed by in / into / by / under / within / beneath)
    "hidden": ("lost", "buried", r"drown(?:s|ed|ing)?(?:\s+out)?", "hidden", "hides", "swamped", "masked", "swallowed",
               "dwarfed", "obscured", "absorbed", r"disappear(?:s|ed)?", r"vanish(?:es|ed)?", r"fades?", "faded",
               r"sinks?", "sank", r"ties?", "tied"),
    # that it cannot be told from the noise ("cannot be separated from the variation between runs")
    "inseparable": ("separated", "separable", "distinguished", "distinguishable", r"told\s+apart", "resolved", r"teased\s+apart"),
    # that the difference is no effect at all
    "no_effect": ("measurable", "significant", "meaningful", "noticeable", "detectable", "real", "observable", "discernible",
                  "appreciable", "material", "statistical"),
    "effect": ("difference", "change", "gain", "speedup", "speed-up", "slowdown", "regression", "effect", "improvement",
               "impact", "benefit"),
}


def _any(*classes: str) -> str:
    return "(?:" + "|".join(word for name in classes for word in NOISE_VOCABULARY[name]) + ")"


_QUALIFIER = r"(?:[\w-]+\s+){0,3}?"
_DETERMINER = r"(?:the\s+|our\s+|a\s+|an\s+|any\s+)?"
# words tying a variation to repeats ("run-to-run ", "run-to-run timing "): one space run or hyphen after, as the guard reads
_REPEATS_BEFORE = rf"{_any('repeats')}(?:\s+|-)(?:[\w-]+\s+)?"
# a variation followed by the repeats it is over: "scatter between runs", "variation of the measurements"
_VARIATION_OVER_REPEATS = (rf"{_any('variation')}\s+(?:between|across|over|among|from|of)\s+(?:the\s+)?(?:[\w-]+\s+)?"
                           rf"{_any('repeat_nouns')}")
# a variation tied to repeats: "run-to-run variance", "the scatter between runs", "the variation of the measurements"
_REPEAT_VARIATION = rf"(?:{_REPEATS_BEFORE}{_any('variation')}|{_VARIATION_OVER_REPEATS})"
_NOISE = rf"{_QUALIFIER}(?:{_any('noise')}|{_REPEAT_VARIATION})"

NOISE_NOUNS = _any("noise", "variation")  # every word that names the variation itself
# the variation of repeated measurements, named without "the": _REPEAT_VARIATION's two forms, the first with any
# noun of variation or "error" ("measurement noise", "measurement error", "scatter between runs"), or noise alone
_MEASURED_NOISE = rf"(?:{_REPEATS_BEFORE}(?:{NOISE_NOUNS}|error)|{_VARIATION_OVER_REPEATS}|{_any('noise')})"
_CANNOT = r"(?:cannot|can't|can\s+not|could\s+not|couldn't|not|no\s+longer)"

_JUST_NOISE = r"(?:is|are|was|were|just|only|mere(?:ly)?|pure|simply|amounts?\s+to|nothing\s+but)\s+(?:[\w-]+\s+)?noise\b"
_SIGNIFICANT_OF = r"(?:different|difference|change|gain|speedup|slowdown|regression|improvement)"
_NEGLIGIBLE = r"(?:difference|change|gap|delta)\s+(?:is|are|was|were)\s+(?:negligible|insignificant)"

# The forms of a noise verdict, one a line: (an example, its pattern over the classes of NOISE_VOCABULARY).
# NOISE_VERDICT_RE is their union; extend this table to teach lint a new form (docs/lint.md lists it).
NOISE_VERDICT_FORMS: tuple[tuple[str, str], ...] = (
    ("within the run-to-run noise", rf"{_any('within')}\s+{_DETERMINER}{_QUALIFIER}(?:{NOISE_NOUNS}|error)"),
    # after "the" or "our" any noise ("under input noise" is no verdict, nor "see under Timing spread")
    ("below the run-to-run noise", rf"{_any('beneath')}\s+(?:the|our)\s+{_NOISE}"),
    # without a determiner, the variation of repeated measurements ("in", "into", "under": "a drop in run-to-run
    # variance", "robust under measurement noise" say something else)
    ("less than run-to-run variation", rf"{_any('beneath_bare')}\s+{_MEASURED_NOISE}"),
    ("lost in the scatter between runs",
     rf"{_any('hidden')}\s+(?:in|into|by|under|within|beneath|inside)\s+{_DETERMINER}(?:{_NOISE}|{_QUALIFIER}{NOISE_NOUNS})"),
    ("cannot be told apart from the variation",
     rf"{_CANNOT}\s+(?:be\s+)?{_any('inseparable')}\s+from\s+{_DETERMINER}{_QUALIFIER}{NOISE_NOUNS}"),
    ("is just noise", rf"{_JUST_NOISE}(?!\s+(?:floor|level|source))"),
    ("indistinguishable", r"indistinguishable(?:\s+from)?"),
    # a test's verdict, no "from the noise" needed
    ("cannot be statistically distinguished", rf"(?:{_CANNOT})\s+(?:be\s+)?statistically\s+{_any('inseparable')}"),
    # "no" opens a noun phrase: "no significant difference" is a verdict, "no significant omissions" is not
    ("not significantly different", rf"(?:(?:not|n't)\s+(?:statistically\s+)?significant(?:ly)?|no\s+(?:statistically\s+)?"
                                    rf"significant(?=\s+{_SIGNIFICANT_OF}))(?:\s+{_SIGNIFICANT_OF})?"),
    ("statistically insignificant", r"(?:statistically\s+)?insignificant"),
    # a word may name the quantity between them ("no meaningful latency difference")
    ("no measurable difference", rf"no\s+{_any('no_effect')}\s+(?:[\w-]+\s+)?{_any('effect')}s?"),
    ("not measurably faster", r"not\s+measurably\s+(?:different|faster|slower|better|worse)"),
    ("difference is negligible", _NEGLIGIBLE),
    # the variation of repeats itself, maybe where it was measured: a verdict that the timings are stable
    ("run-to-run variation is negligible", rf"(?:{_REPEAT_VARIATION}|{_any('noise')})(?:\s+(?:on|for|of|in|across|at|"
                                           r"with)\s+(?:[\w.+-]+\s+){1,4}?|\s+)(?:is|are|was|were)\s+(?:negligible|insignificant)"),
)


def _opening_letters(alternative: str) -> list[str]:
    """The letters every word of a class alternative starts with: ``noise``
    for ``noise\\s+(?:floor|level|band)``, ``margin`` for ``margins?...``,
    one each for an opening group ``(?:measurement|timing)\\s+error``."""
    if alternative.startswith("(?:"):
        return [word for part in alternative[3:alternative.index(")")].split("|") for word in _opening_letters(part)]
    letters = re.match(r"[a-z-]*", alternative).group()
    if len(letters) < len(alternative) and alternative[len(letters)] in "?*{":
        letters = letters[:-1]  # "margins?": the s may be missing
    if not letters:
        raise ValueError(f"no opening letters in {alternative!r}")
    return [letters]


_STARTS = sorted({word for name in ("noise", "variation", "repeats") for alternative in NOISE_VOCABULARY[name]
                  for word in _opening_letters(alternative)})
# Every word that names the variation, its repeats or the noise starts with one of these.
_VARIATION_STARTS = "(?:" + "|".join(w for w in _STARTS if not any(o != w and w.startswith(o) for o in _STARTS)) + ")"
# Where a verdict of each form may start: its opening words, then for the forms naming the variation a word
# that starts as one of its words does (or looser). Each verdict NOISE_VERDICT_RE finds starts with a match of
# this union, so it is the guard of NOISE_VERDICT_RE: it costs about 2 ms to compile, the verdicts about 5 ms,
# and a text it finds nothing in (every text of a clean project: a hand-written verdict is an SG204 finding)
# never compiles them. A new form needs its opening here (tests/lint/test_pattern_sharing.py checks it).
_VERDICT_OPENINGS = (
    rf"(?:{_any('within')}\s+{_DETERMINER}|{_any('beneath')}\s+(?:the|our)\s+"
    rf"|{_any('hidden')}\s+(?:in|into|by|under|within|beneath|inside)\s+{_DETERMINER}){_QUALIFIER}{_VARIATION_STARTS}",
    rf"{_any('beneath_bare')}\s+{_VARIATION_STARTS}",
    rf"{_CANNOT}\s+(?:be\s+)?(?:statistically\s|{_any('inseparable')}\s+from\s)",
    _JUST_NOISE,
    r"indistinguishable",
    r"(?:statistically\s+)?insignificant",
    rf"(?:not|n't|no)\s+(?:(?:statistically\s+)?significant|measurably\s|{_any('no_effect')}\s)",
    _NEGLIGIBLE,
    # nine words at most before the verb: "variation over the timed runs on one of four GPUs is negligible"
    rf"{_VARIATION_STARTS}[\w-]*(?:\s+[\w.+-]+){{0,9}}?\s+(?:is|are|was|were)\s+(?:negligible|insignificant)",
)
NOISE_VERDICT_RE = GuardedPattern(
    lazy_compile(r"\b(?<![\w-])(?:" + "|".join(pattern for _, pattern in NOISE_VERDICT_FORMS) + r")(?![\w-])",
                 re.IGNORECASE),
    guard=lazy_compile(r"\b(?<![\w-])(?:" + "|".join(_VERDICT_OPENINGS) + ")", re.IGNORECASE),
)

# Every verdict above holds one of these stems: a substring search of the
# lower-cased text finds the lines worth a closer look.
NOISE_STEMS = (
    "nois", "jitter", "variation", "varianc", "variabil", "scatter", "spread", "fluctuat", "uncertain", "error", "deviat",
    "significan", "measurabl", "meaningful", "noticeabl", "detectabl", "discernibl", "observabl", "appreciabl",
    "indistinguishabl", "negligibl", "real ", "material ", "statistical ", "statistically",
)

# A sentence holding one of these may hold a verdict by its words alone; one
# holding only another stem ("spread", "error", "real ") needs a word that
# places a difference in the variation too (every alternative of
# NOISE_VERDICT_RE without a strong stem starts with one of _VERDICT_LEADS).
_STRONG_STEMS = ("nois", "jitter", "indistinguishabl", "significan", "measurabl", "negligibl")
_VERDICT_LEADS = (
    "within", "in the", "in our", "into the", "into our", "inside the", "inside our", "under the", "under our",
    "below the", "below our", "beneath the", "beneath our", "level of", "order of", "comparable to", "par with",
    "than the", "than our", "lost", "buried", "drown", "hidden", "hides", "swamped", "masked", "swallowed",
    "dwarfed", "obscured", "absorbed", "disappear", "vanish", "fade", "sink", "sank", "tie", "separa",
    "distinguish", "told apart", "resolved", "teased apart", "no ", "inside", "below", "beneath", "than",
)


# a stem's trailing space ("real ") is any whitespace: a hard-wrapped paragraph breaks "no real\ndifference"
_STEM_RE = lazy_compile("|".join(re.escape(stem).replace(r"\ ", r"\s") for stem in NOISE_STEMS))
_STRONG_RE = lazy_compile("|".join(re.escape(stem) for stem in _STRONG_STEMS))
_LEAD_RE = lazy_compile("|".join(re.escape(lead).replace(r"\ ", r"\s+") for lead in _VERDICT_LEADS))


# Where a stem can start: its letters before any space (str.find finds each; a pattern of 25 alternatives
# tries every one at every character)
_STEM_HEADS = tuple(dict.fromkeys(stem.split(" ")[0] for stem in NOISE_STEMS))


def noise_stem_offsets(lowered: str) -> list[int]:
    """Offsets of the verdict stems (:data:`NOISE_STEMS`) in lower-cased
    text, as ``_STEM_RE.finditer`` gives them (a stem is not looked for
    inside the one before it): the pattern is matched only where
    ``str.find`` finds a stem's head."""
    heads = set()
    for head in _STEM_HEADS:
        at = lowered.find(head)
        while at != -1:
            heads.add(at)
            at = lowered.find(head, at + 1)
    offsets = []
    cursor = 0
    for at in sorted(heads):
        if at < cursor:
            continue
        match = _STEM_RE.match(lowered, at)
        if match is not None:
            offsets.append(at)
            cursor = match.end()
    return offsets


_VERDICT_STEMS = tuple(stem.strip() for stem in NOISE_STEMS)


def holds_verdict_stem(folded: str) -> bool:
    """False when ``folded`` (:func:`ascii_folded`) holds no stem of :data:`NOISE_STEMS`: :data:`NOISE_VERDICT_RE`
    then finds no verdict in the text, whatever its whitespace (a stem's trailing space is not asked for). Unlike
    :func:`may_hold_verdict`, never False where it finds one."""
    return any(stem in folded for stem in _VERDICT_STEMS)


def may_hold_verdict(lowered: str) -> bool:
    """False when the lower-cased sentence cannot hold a noise verdict
    (:data:`NOISE_VERDICT_RE`): no stem of :data:`NOISE_STEMS`, or only weak
    ones without a leading word. A cheap test before the regex."""
    if _STRONG_RE.search(lowered):
        return True
    return _STEM_RE.search(lowered) is not None and _LEAD_RE.search(lowered) is not None


_REPEAT_NOUNS = (
    r"(?:runs?|repeats?|repetitions?|reps?|replicates?|trials?|iterations?|iters?|seeds?|samples?|measurements?|"
    r"jobs?|sessions?|launches|passes|times|benchmarks?\s+runs?)"
)
EVIDENCE_RE = lazy_compile(
    r"±|\+/-|\bstd\b|\bstdev\b|\bstd\.?\s*dev|standard\s+(?:deviation|error)|\bsem\b|\bσ|\bsigma\b|\bcv\b"
    r"|\bs\.d\.|\bsd\s*[=:]\s*\d"
    r"|coefficient\s+of\s+variation|\biqr\b|interquartile|quartiles?|\bspread\b|\bvariance\b|confidence\s+interval"
    r"|\b\d{2}\s*%\s*ci\b|\bci\s*[=:\[(]"
    r"|\bmin(?:imum)?\b(?:[^.]|\.(?=\d)){0,60}\bmax(?:imum)?\b|\bp(?:90|95|99)\b|percentiles?"
    rf"|\bn\s*=\s*(?:[2-9]|\d\d+)|\b(?:several|multiple|repeated|many)\s+{_REPEAT_NOUNS}\b"
    r"|t-test|\bt\s+test|\bwelch|mann[-\s]whitney|wilcoxon|bootstrap|permutation\s+test|\bp-value|\bp\s*[<=>≤≥]\s*0?\.\d+"
    r"|\banova\b|kolmogorov",
    re.IGNORECASE,
)

# An expectation or a plan, not a result: "should be within noise", "we expect no difference".
EXPECTATION_RE = lazy_compile(
    r"\b(?:should|would|will|shall|expect(?:s|ed|ing)?|expectations?|hope[sd]?|aims?|goal|target(?:s|ed)?|predicted|"
    r"anticipated?|supposed\s+to|ought\s+to|planned|plan\s+to|to\s+be\s+(?:confirmed|verified|checked))\b",
    re.IGNORECASE,

    needs=("should", "would", "will", "shall", "expect", "hope", "aim", "goal", "target", "predicted", "anticipate",
           "supposed", "ought", "plan", "confirmed", "verified", "checked"),
)


def repeat_counts(text: str) -> list[tuple[int, int, int]]:
    """``(count, start, end)`` of each repeat count in ``text``: "5 runs",
    "three repeats", "10-iteration", "across four jobs", "5 reps each"."""
    return counts(text, _REPEAT_NOUNS, between=1)


# "repeated five times", "repeated 3x", "repeated several times": read apart from EVIDENCE_RE, whose one
# alternative it was, so that the number words are compiled once (in NUMBER_WORDS_RE), not in EVIDENCE_RE too
_REPEATED_RE = lazy_compile(r"\brepeated\s+", re.IGNORECASE)
_REPEATED_COUNT_RE = lazy_compile(rf"(?:{_DIGIT_COUNT}|several|many)\b", re.IGNORECASE)


def _repeated_count(text: str) -> bool:
    r"""True where ``\brepeated\s+(?:NUMBER|several|many)\b`` matches in
    ``text``: after a "repeated" and its blanks, digits, "several", "many"
    or number words ending a word (number words end in a letter, so their
    ``(?![\w])`` is that ``\b``; a blank before meets their lookbehind)."""
    for repeated in _REPEATED_RE.finditer(text):
        after = repeated.end()
        if _REPEATED_COUNT_RE.match(text, after) or NUMBER_WORDS_RE.match(text, after):
            return True
    return False


def has_evidence(text: str) -> bool:
    """True when ``text`` states a spread, a test or a repeat count of at
    least two (:data:`EVIDENCE_RE`, "repeated" with a count, :func:`repeat_counts`):
    one run shows no variation, so "a single run" is no evidence."""
    if EVIDENCE_RE.search(text) or _repeated_count(text):
        return True
    return any(count >= 2 for count, _, _ in repeat_counts(text))


# An expectation stated after the verdict, in the passive: "no measurable difference was expected", not "as expected".
EXPECTATION_AFTER_RE = lazy_compile(
    r"[^,;:.]{0,80}?(?<!\bas\s)\b(?:is|are|was|were|be|been)\s+(?:\w+\s+)?"
    r"(?:expected|predicted|anticipated|hoped\s+for|targeted|planned)\b",
    re.IGNORECASE,
)


def is_expectation(clause: str) -> bool:
    """True when ``clause`` states an expectation or a plan (see :data:`EXPECTATION_RE`)."""
    return EXPECTATION_RE.search(clause) is not None


# --- configurations named in any form ------------------------------------------

# One spelling for each configuration word a study names in several ways: the
# canonical word, then the spellings (regular-expression alternatives) that name
# it. "bs=16", "batch size 16", "bs16" and "a batch of sixteen" all name batch
# 16 (number words are read by :func:`number_terms`). Extend a line to teach lint
# another spelling.
CONFIGURATION_WORDS: dict[str, tuple[str, ...]] = {
    "batch": (r"batch[\s_-]?sizes?", r"micro[\s_-]?batch(?:[\s_-]?sizes?)?", r"bs", r"mbs"),
    "fp16": (r"half[\s-]precision", r"float16", r"fp-16"),
    "bf16": (r"bfloat16", r"bf-16"),
    "fp32": (r"float32", r"single[\s-]precision", r"full[\s-]precision", r"fp-32"),
    "gpu": (r"gpus", r"graphics\s+cards?"),
}


def spelling_head(spelling: str) -> str:
    """The characters every match of the regular expression ``spelling``
    starts with, lower case: its leading letters, digits and hyphens up to
    its first other character, less one that a quantifier makes optional
    (``"batch[\\s_-]?sizes?"`` -> ``"batch"``, ``"fp-16"`` -> ``"fp-16"``,
    ``"gpus?"`` -> ``"gpu"``); "" when it starts with anything else."""
    head = re.match(r"[A-Za-z0-9-]*", spelling).group()
    if spelling[len(head):len(head) + 1] in ("?", "*", "{"):
        head = head[:-1]
    return head.lower()


# (canonical word, its spellings' pattern, the heads of its spellings): a text whose folded form
# (ascii_folded) holds none of the heads holds no spelling, and is not searched
_CONFIGURATION_RES = tuple(
    (canonical, lazy_compile(r"(?<![\w.-])(?:" + "|".join(spellings) + r")(?=\d|[^\w]|$)", re.IGNORECASE),
     tuple(spelling_head(spelling) for spelling in spellings))
    for canonical, spellings in CONFIGURATION_WORDS.items()
)


def canonical_configuration(text: str) -> str:
    """``text`` with each spelling of :data:`CONFIGURATION_WORDS` written as
    its canonical word, a number glued to it set apart ("bs16" -> "batch 16",
    "half-precision weights" -> "fp16 weights"). A canonical word is searched
    for only where the text holds the head of one of its spellings
    (:func:`spelling_head`)."""
    folded = ascii_folded(text)
    for canonical, pattern, heads in _CONFIGURATION_RES:
        if any(head in folded for head in heads):
            replaced = pattern.sub(lambda m: canonical + " ", text)
            if replaced != text:  # the next spellings are looked for in the text as rewritten
                text, folded = replaced, ascii_folded(replaced)
    return text


# --- claims about most or all rows ------------------------------------------------

# "in most cases", "on every GPU", "consistently", "across the board": the clause
# claims its figure for most or all of what it summarises ("at most", "the most",
# "not all" do not).
MAJORITY_RE = lazy_compile(
    r"(?<!\bat\s)(?<!\bthe\s)(?<!\bnot\s)\b(?:most|all|every|each|always|consistently|uniformly|generally|typically|"
    r"usually|across\s+the\s+board|in\s+general)\b",
    re.IGNORECASE,
)


def claims_majority(clause: str) -> bool:
    """True when ``clause`` claims its figure for most or all rows
    (:data:`MAJORITY_RE`)."""
    return MAJORITY_RE.search(clause) is not None


@lru_cache(maxsize=8)
def letter_runs(text: str) -> frozenset[str]:
    """The words of ``text`` as runs of letters a-z of its folded form
    (:func:`ascii_folded`), each as long as it goes: a word that a pattern
    matches case-insensitively between two non-word characters is one of
    them ("Didn't try" -> ``{"didn", "t", "try"}``). Kept for the last few
    texts asked (the gates of one sentence ask for it one after another)."""
    return frozenset(_LETTER_RUN_RE.findall(ascii_folded(text)))


_LETTER_RUN_RE = lazy_compile(r"[a-z]+")
# Every count in words holds one of these as a whole word ("twenty-four", "a dozen", "a couple of")
_NUMBER_WORD_SET = frozenset([*_UNITS, *_TENS, *_SCALES, *_ALONE])


def number_terms(text: str) -> set[str]:
    """Digits for the counts ``text`` writes in words ("eight GPUs" -> "8");
    a text without a number word (:func:`letter_runs`) is not searched."""
    found = set()
    if _NUMBER_WORD_SET.isdisjoint(letter_runs(text)):
        return found
    for match in NUMBER_WORDS_RE.finditer(text):
        value = number_value(match.group(0))
        if value is not None and match.group(0).lower() not in ("one", "a single"):
            found.add(str(value))
    return found
