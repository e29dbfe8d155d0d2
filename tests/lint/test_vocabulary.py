"""studygen.lint.vocabulary: the field's words shared by lint and check
(repeat counts, evidence, formats and counts written in words, noise verdicts
by class, configurations in one spelling, claims about most rows)."""

from __future__ import annotations

import random
import re

from hypothesis import given
from hypothesis import strategies as st

from studygen.lint import vocabulary
from studygen.lint.format_words import format_aliases, format_mentions
from studygen.lint.vocabulary import (
    NOISE_VERDICT_RE, canonical_configuration, claims_majority, has_evidence, may_hold_verdict, noise_stem_offsets,
    number_terms, repeat_counts,
)

from ..conftest import REPO


def test_repeat_counts_allow_one_word_between_count_and_noun():
    assert [c for c, _, _ in repeat_counts("across four timed runs")] == [4]
    assert repeat_counts("over five of the cold runs") == []  # three words between: not a count of runs


def test_two_repeats_are_evidence_one_is_not():
    assert has_evidence("medians of two runs")
    assert has_evidence("over 2 repeats")
    assert not has_evidence("from a single run")
    assert not has_evidence("from 1 run")


def test_format_mentions_with_their_places():
    # "six-bit integer" is characters 2 to 17, "8-bit floating point" 26 to 46, "four-bit" 48 to 56
    text = "a six-bit integer format, 8-bit floating point, four-bit weights and a 128-bit bus"
    assert format_mentions(text) == [("int6", 2, 17), ("6-bit", 2, 17), ("fp8", 26, 46), ("8-bit", 26, 46),
                                     ("4-bit", 48, 56)]
    # 64 bits is still a format width, 65 is none; later mentions are read past a wide one
    assert format_aliases("a 65-bit word, then a 64-bit float") == {"fp64", "64-bit"}
    assert format_aliases("4-bit normal-float weights") == {"nf4", "4-bit"}
    assert format_aliases("a 4-bit microscaling format") == {"mxfp4", "4-bit"}


def test_number_terms_give_digits_for_counts_in_words():
    assert number_terms("eight GPUs and a dozen nodes, one host, a single rack") == {"8", "12"}
    assert number_terms("no numbers here") == set()


# --- noise verdicts by concept: one test per class of NOISE_VOCABULARY, a wording of it and a non-verdict beside it

def verdicts(text: str) -> list[str]:
    return [" ".join(m.group(0).split()) for m in NOISE_VERDICT_RE.finditer(text)]


def test_noise_class_the_noise_itself_after_within_or_beneath():
    assert verdicts("The gap stays within the timer jitter.") == ["within the timer jitter"]
    assert verdicts("It sits inside the error bars of both runs.") == ["inside the error bars"]
    assert verdicts("We trained under input noise.") == []  # no "the": a training condition, not a verdict


def test_noise_class_a_variation_tied_to_repeats():
    assert verdicts("The change is below the level of repeat-to-repeat variance.") == [
        "below the level of repeat-to-repeat variance"]
    assert verdicts("It is no larger than the spread between repeats.") == ["no larger than the spread between repeats"]
    # a variation of something else is no verdict
    assert verdicts("It is less than the spread of prompt lengths.") == []
    assert verdicts("It is less than the variation in batch sizes.") == []


def test_noise_class_within_takes_any_variation():
    assert verdicts("Memory stays within the day-to-day fluctuation.") == ["within the day-to-day fluctuation"]
    assert verdicts("It is within 5% of fp16.") == []


def test_noise_class_what_hides_the_difference():
    assert verdicts("The gain disappears in the run-to-run jitter.") == ["disappears in the run-to-run jitter"]
    assert verdicts("It is swallowed by the scatter between runs.") == ["swallowed by the scatter between runs"]
    assert verdicts("The speedup drowns in the timing fluctuations.") == ["drowns in the timing fluctuations"]
    assert verdicts("The kernel disappears in the profile.") == []


def test_noise_class_what_cannot_be_told_from_the_variation():
    assert verdicts("It cannot be told apart from the session-to-session spread.") == [
        "cannot be told apart from the session-to-session spread"]
    assert verdicts("It is not distinguishable from run noise.") == ["not distinguishable from run noise"]
    assert verdicts("It can be told apart from the baseline.") == []


def test_noise_class_no_effect_and_significance():
    assert verdicts("We saw no measurable difference.") == ["no measurable difference"]
    assert verdicts("The gain is not statistically significant.") == ["not statistically significant"]
    assert verdicts("A measurable difference in memory.") == []


def test_the_verdict_prefilter_never_drops_a_verdict():
    # every sentence built from the classes' words that the regex reads as a verdict passes may_hold_verdict,
    # and a sentence holding only weak words without a leading word is dropped
    words = ["the", "our", "run-to-run", "between", "runs", "is", "not", "no", "be", "from", "cannot", "in", "within",
             "below", "of", "level", "than", "smaller", "comparable", "to", "difference", "negligible", "real",
             "measurable", "just", "noise", "\n", "timing", "scatter", "spread", "variance", "error", "bars", "lost",
             "swallowed", "by", "disappears", "tied", "inside", "under", "told", "apart", "separated", "at", "jitter"]
    rng = random.Random(7)
    for _ in range(20000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(2, 9)))
        if NOISE_VERDICT_RE.search(text):
            assert may_hold_verdict(text.lower()), text
    assert not may_hold_verdict("with a spread of 0.02 ms between runs")
    assert may_hold_verdict("it is within the spread")
    assert noise_stem_offsets("the spread and the noise") == [4, 19]


def test_configurations_in_one_spelling():
    assert canonical_configuration("bs=16").split("=") == ["batch ", "16"]
    assert " ".join(canonical_configuration("bs16 and a batch size of 16 on half-precision weights").split()) == \
        "batch 16 and a batch of 16 on fp16 weights"
    # inside other words nothing changes
    assert canonical_configuration("eight jobs in labs 3 and 4") == "eight jobs in labs 3 and 4"
    assert canonical_configuration("bfloat16 vs float32") == "bf16  vs fp32 "


def test_claims_about_most_or_all_rows():
    assert claims_majority("in most configurations") and claims_majority("across the board") and claims_majority("on every GPU")
    assert not claims_majority("at most 5%") and not claims_majority("the most accurate one")
    assert not claims_majority("not all runs") and not claims_majority("on the 7B model")


_COUNT_PIECES = st.sampled_from(["800", "1,000", "a thousand", "six", "-", " ", "\n", "images", "image", "IMAGE",
                                 "held-out", "held out", "runs", "run", "imagesx", "COCO", "2019", "of the", "x", "."])


@given(pieces=st.lists(_COUNT_PIECES, max_size=10), nouns=st.sampled_from(["images?|held[- ]out", "runs?"]),
       between=st.integers(min_value=0, max_value=4))
def test_a_text_without_the_noun_holds_no_count_of_it(pieces, nouns, between):
    # counts() searches for the noun alone first: a count must end in it, so a text without it holds none
    # (the full pattern finding a count where the noun pattern finds no noun would make that shortcut wrong)
    text = "".join(pieces)
    if vocabulary._count_pattern(nouns, between).search(text):
        assert vocabulary._noun_pattern(nouns).search(text)


def test_counts_of_images_in_digits_words_and_hyphens():
    assert vocabulary.counts("On 800 COCO val images, a thousand-image subset and 1,000 held-out; 32-bit image.",
                             "images?|held[- ]out") == [(800, 3, 22), (1000, 24, 40), (1000, 52, 66)]
    assert vocabulary.counts("800 pictures", "images?|held[- ]out") == []


def test_ascii_folding_finds_a_word_wherever_ignorecase_matches_it():
    # every character re.IGNORECASE matches to an ASCII letter folds to that letter (so a word an IGNORECASE
    # pattern finds is a substring of the folded text); the four non-ASCII ones are the re module's documented ones
    import string
    import sys

    letter = re.compile("[a-z]", re.IGNORECASE)
    singles = {p: re.compile(p, re.IGNORECASE) for p in string.ascii_lowercase}
    non_ascii = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        cased = char.lower() != char or char.upper() != char or char.casefold() != char
        matched = [p for p, single in singles.items() if single.fullmatch(char)] if cased else []
        if letter.fullmatch(char) or matched:
            assert matched == [vocabulary.ascii_folded(char)], (hex(code), matched)
            if code > 127:
                non_ascii.append(char)
    assert non_ascii == ["\u0130", "\u0131", "\u017f", "\u212a"]
    assert vocabulary.ascii_folded("Noiſe \u212aept SIGNIF\u0130CANT") == "noise kept significant"


_VERDICT_WORDS = ["the", "our", "run-to-run", "between", "runs", "is", "not", "no", "be", "from", "cannot", "in", "within",
                  "below", "of", "level", "than", "smaller", "comparable", "to", "difference", "negligible", "real",
                  "measurable", "measurably", "different", "just", "noise", "timing", "scatter", "spread", "variance",
                  "error", "bars", "lost", "swallowed", "by", "disappears", "tied", "inside", "under", "told", "apart",
                  "separated", "at", "jitter", "statistically", "significant", "insignificant", "indistinguishable",
                  "material", "change", "gap", "floor", "NOISE", "Real", "ſignificant", "Noiſe", "\u212aept"]


def test_a_text_the_noise_verdict_pattern_reads_a_verdict_in_holds_a_stem():
    # SG204 runs NOISE_VERDICT_RE on a line only where holds_verdict_stem finds a stem, whatever the case or spacing
    rng = random.Random(11)
    found = 0
    for _ in range(20000):
        text = "".join(rng.choice(_VERDICT_WORDS) + rng.choice([" ", "  ", "\t", "\n", "\u00a0"])
                       for _ in range(rng.randint(2, 8)))
        if NOISE_VERDICT_RE.search(text):
            found += 1
            assert vocabulary.holds_verdict_stem(vocabulary.ascii_folded(text)), text
    assert found > 1000  # the words make verdicts often enough for the property to be tried
    assert not vocabulary.holds_verdict_stem(vocabulary.ascii_folded("fp16 is 1.8x faster than fp32 on the B200"))


def test_the_variation_of_repeats_is_written_once_for_both_noise_patterns():
    """_REPEAT_VARIATION (after "the": "below the scatter between runs") and
    _MEASURED_NOISE (without it: "less than run-to-run noise") share their
    forms of a variation tied to repeats; each pattern reads as the text it
    was before (the oracle, written out from the classes)."""
    v = vocabulary
    source = (REPO / "studygen" / "lint" / "vocabulary.py").read_text(encoding="utf-8")
    assert source.count(r"(?:between|across|over|among|from|of)") == 1
    assert source.count(r"{_any('repeats')}(?:\s+|-)(?:[\w-]+\s+)?") == 1
    for pattern in (v._REPEAT_VARIATION, v._MEASURED_NOISE):
        assert v._REPEATS_BEFORE in pattern and v._VARIATION_OVER_REPEATS in pattern
    any_of = v._any
    over = (rf"{any_of('variation')}\s+(?:between|across|over|among|from|of)\s+(?:the\s+)?(?:[\w-]+\s+)?"
            rf"{any_of('repeat_nouns')}")
    # one space run or one hyphen after the repeats' word (a run of both let a verdict start more words before its
    # variation than NOISE_VERDICT_RE's guard reads: test_pattern_sharing's property test found one)
    assert v._REPEAT_VARIATION == rf"(?:{any_of('repeats')}(?:\s+|-)(?:[\w-]+\s+)?{any_of('variation')}|{over})"
    assert v._MEASURED_NOISE == (rf"(?:{any_of('repeats')}(?:\s+|-)(?:[\w-]+\s+)?(?:{v.NOISE_NOUNS}|error)|{over}"
                                 rf"|{any_of('noise')})")
    for verdict in ("below the scatter between runs", "below the run-to-run variance", "less than run-to-run noise",
                    "smaller than the spread across repeats", "smaller than measurement error",
                    "smaller than scatter between runs"):
        assert NOISE_VERDICT_RE.search(f"The gap is {verdict}."), verdict
