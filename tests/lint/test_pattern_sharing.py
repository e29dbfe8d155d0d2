"""Patterns that cost less to compile and match as before (issue 25 item 5).

Each rewritten pattern is held here against the pattern it replaced, kept
as text (the oracle): same spans and the same groups the code reads, over
every Markdown file of the repository, ../shared/corpus and
../shared/fixtures, and over strings hypothesis builds from the
vocabulary. The mechanism itself (one compiled copy of the number words,
forms compiled only when used) is asserted in a fresh interpreter, where
``re``'s own cache is empty.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from studygen.lint import format_words, repeat_ranges, variant_pairs, vocabulary, worded_ratios

from ..conftest import REPO, SHARED

# --- the texts: every Markdown file of the repository, the lint corpus and the fixtures


@lru_cache(maxsize=1)
def markdown_lines() -> tuple[str, ...]:
    """Every distinct line of every Markdown file (the repository's own, not
    its build outputs) and every paragraph, joined as one line."""
    paths = [p for p in REPO.rglob("*.md") if ".venv" not in p.parts and ".git" not in p.parts]
    paths += sorted((SHARED / "corpus").rglob("*.md")) + sorted((SHARED / "fixtures").rglob("*.md"))
    assert len(paths) > 150, len(paths)
    lines: set[str] = set()
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        lines.update(text.splitlines())
        lines.update(" ".join(paragraph.split("\n")) for paragraph in text.split("\n\n"))
    return tuple(sorted(lines))


# --- the number words: one compiled copy, shared by number_value, number_terms and format_mentions

# The patterns as they were (main f4138a9), over the module's NUMBER_WORDS.
OLD_NUMBER_RE = re.compile(rf"^(?:\d{{1,3}}(?:,\d{{3}})+|\d+|{vocabulary.NUMBER_WORDS})$", re.IGNORECASE)
OLD_FORMAT_RE = re.compile(
    rf"(?<![\w-])(?P<bits>\d+|{vocabulary.NUMBER_WORDS})[- ]bits?(?:\s+(?P<kind>integer|int|floating[- ]point|float|fp|"
    r"normal[- ]float|nf|microscaling|mx))?\b",
    re.IGNORECASE,
)


def old_format_matches(text: str) -> list[tuple]:
    return [(m.start(), m.end(), m.group("bits"), m.group("kind")) for m in OLD_FORMAT_RE.finditer(text)]


def new_format_matches(text: str) -> list[tuple]:
    return [(start, tail.end(), bits, tail.group("kind")) for start, bits, tail in format_words._format_matches(text)]


def old_is_number(text: str) -> bool:
    return OLD_NUMBER_RE.match(text) is not None


def new_is_number(text: str) -> bool:
    return vocabulary._DIGIT_COUNT_RE.fullmatch(text) is not None or vocabulary.NUMBER_WORDS_RE.fullmatch(text) is not None


# A fresh interpreter's start that records every pattern source compiled after it (in ``seen``)
COMPILES_SEEN = (
        "import json, re._compiler as c\n"
        "from studygen.lint import format_words as f, vocabulary as v\n"
        "seen = []\n"
        "real = c.compile\n"
        "c.compile = lambda p, f=0: seen.append(p) or real(p, f)\n"
)


def test_number_words_compile_once_for_values_terms_formats_and_evidence():
    # the four readers of number words used to compile NUMBER_WORDS four times (about 1 ms each)
    script = COMPILES_SEEN + (
        "v.number_value('twenty-four'); v.number_terms('eight GPUs'); f.format_mentions('a six-bit integer')\n"
        "v.number_value('800'); f.format_mentions('8-bit floating point'); v.has_evidence('repeated six times')\n"
        "print(json.dumps([p for p in seen if isinstance(p, str) and v.NUMBER_WORDS in p]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True)
    assert json.loads(done.stdout) == [vocabulary.NUMBER_WORDS_RE.pattern]


def test_format_matches_and_number_values_as_before_on_every_markdown_line():
    checked = 0
    for line in markdown_lines():
        assert new_format_matches(line) == old_format_matches(line), line
        if "bit" in line.lower():
            checked += len(old_format_matches(line))
        for candidate in {line.strip().lower(), *(" ".join(line.lower().split()[i:i + 4]) for i in range(0, 40))}:
            assert new_is_number(candidate) == old_is_number(candidate), candidate
            assert old_is_number(candidate) or vocabulary.number_value(candidate) is None, candidate
    assert checked > 20  # the texts do hold formats in words ("4-bit", "eight-bit")


_NUMBER_PIECES = st.sampled_from(
    [*vocabulary._UNITS, *vocabulary._TENS, *vocabulary._SCALES, "dozen", "half", "a", "an", "and", "of", "couple", "pair",
     "single", "8", "64", "1,000", "128", "0"]
)
_GLUE = st.sampled_from([" ", " ", "-", "  ", "\n", "\t", ",", ".", "_", "", "x", "\u017f", "\u212a", "\u0130"])
_TAIL_PIECES = st.sampled_from(["bit", "bits", "BIT", "Bits", "bitsy", "integer", "int", "floating point", "floating-point",
                                "float", "fp", "normal float", "normal-float", "nf", "microscaling", "mx", "format"])


@st.composite
def number_phrase(draw):
    """Number words and digits joined as counts are written ("two hundred and fifty", "twenty-four")."""
    words = draw(st.lists(_NUMBER_PIECES, min_size=1, max_size=5))
    joints = draw(st.lists(st.sampled_from([" ", "-", " and ", "-and-", "  ", "\n"]), min_size=len(words), max_size=len(words)))
    return "".join(word + joint for word, joint in zip(words, joints))[:-1]


@st.composite
def vocabulary_text(draw):
    """A string of number phrases, digits, bit words and format kinds with glue between."""
    parts = []
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        parts.append(draw(st.one_of(number_phrase(), _NUMBER_PIECES, _TAIL_PIECES)))
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from(["-bit", " bit", "-bits", " BITS", "-bit-", "bit", "--bit"])))
            parts.append(draw(st.sampled_from(["", " ", "  ", "-"])) + draw(_TAIL_PIECES))
        parts.append(draw(_GLUE))
    text = "".join(parts)
    return text.upper() if draw(st.integers(min_value=0, max_value=5)) == 0 else text


@settings(max_examples=1500, deadline=None)
@given(text=vocabulary_text())
def test_format_matches_as_before_on_vocabulary_strings(text):
    assert new_format_matches(text) == old_format_matches(text)


@settings(max_examples=1500, deadline=None)
@given(text=st.one_of(number_phrase(), vocabulary_text()))
def test_number_value_reads_what_it_read_before(text):
    stripped = text.strip().lower()
    assert new_is_number(stripped) == old_is_number(stripped)
    assert old_is_number(stripped) or vocabulary.number_value(text) is None  # its gate is the old pattern's


# --- evidence: "repeated" with a count is read apart, by the shared number words

OLD_EVIDENCE_RE = re.compile(
    r"±|\+/-|\bstd\b|\bstdev\b|\bstd\.?\s*dev|standard\s+(?:deviation|error)|\bsem\b|\bσ|\bsigma\b|\bcv\b"
    r"|\bs\.d\.|\bsd\s*[=:]\s*\d"
    r"|coefficient\s+of\s+variation|\biqr\b|interquartile|quartiles?|\bspread\b|\bvariance\b|confidence\s+interval"
    r"|\b\d{2}\s*%\s*ci\b|\bci\s*[=:\[(]"
    r"|\bmin(?:imum)?\b(?:[^.]|\.(?=\d)){0,60}\bmax(?:imum)?\b|\bp(?:90|95|99)\b|percentiles?"
    rf"|\bn\s*=\s*(?:[2-9]|\d\d+)|\brepeated\s+(?:{vocabulary.NUMBER}|several|many)\b"
    rf"|\b(?:several|multiple|repeated|many)\s+{vocabulary._REPEAT_NOUNS}\b"
    r"|t-test|\bt\s+test|\bwelch|mann[-\s]whitney|wilcoxon|bootstrap|permutation\s+test|\bp-value|\bp\s*[<=>≤≥]\s*0?\.\d+"
    r"|\banova\b|kolmogorov",
    re.IGNORECASE,
)


def new_evidence(text: str) -> bool:
    found = vocabulary.EVIDENCE_RE.search(text) is not None or vocabulary._repeated_count(text)
    if "repeated" in text.lower():  # has_evidence itself reads the "repeated" counts apart
        old_verdict = OLD_EVIDENCE_RE.search(text) is not None or any(n >= 2 for n, _, _ in vocabulary.repeat_counts(text))
        assert vocabulary.has_evidence(text) == old_verdict, text
    return found


def test_evidence_as_before_on_every_markdown_line():
    found = 0
    for line in markdown_lines():
        assert new_evidence(line) == (OLD_EVIDENCE_RE.search(line) is not None), line
        found += bool(re.search(r"repeated\s+\w", line, re.IGNORECASE))
    assert found > 5


@settings(max_examples=600, deadline=None)
@given(before=vocabulary_text(), count=st.one_of(number_phrase(), _NUMBER_PIECES, st.sampled_from(["several", "many", "1,00"])),
       blank=st.sampled_from([" ", "  ", "\n", "", "-"]), after=vocabulary_text(),
       word=st.sampled_from(["repeated", "Repeated", "REPEATED", "unrepeated", "repeated-"]))
def test_evidence_as_before_on_repeated_counts(before, word, blank, count, after):
    text = f"{before}{word}{blank}{count}{after}"
    assert new_evidence(text) == (OLD_EVIDENCE_RE.search(text) is not None)


# --- repeat ranges: "each of the runs" and "pairs of runs" share their tail

OLD_SPAN_RE = re.compile(
    r"\b(?:each|every|all|both|any)\s+(?:of\s+)?(?:the\s+|its\s+|their\s+|our\s+)?" + repeat_ranges._COUNT
    + r"?(?:pairs?\s+of\s+)?(?:the\s+)?" + repeat_ranges._COUNT + r"?" + repeat_ranges._NOUN
    + r"|\bpairs?\s+of\s+(?:the\s+)?" + repeat_ranges._COUNT + r"?" + repeat_ranges._NOUN
    + r"|\b(?:" + repeat_ranges._NOUNS + r")-to-(?:" + repeat_ranges._NOUNS + r")\b"
    + r"|\bfrom\s+one\s+(?:" + repeat_ranges._NOUNS + r")\s+to\s+(?:the\s+next|another)\b",
    re.IGNORECASE,
)


def spans(pattern, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def test_span_pattern_is_smaller_and_finds_what_it_found_on_every_markdown_line():
    assert len(repeat_ranges._SPAN_RE.pattern) < len(OLD_SPAN_RE.pattern) - 150  # one tail fewer to compile
    found = 0
    for line in markdown_lines():
        old = spans(OLD_SPAN_RE, line)
        assert spans(repeat_ranges._SPAN_RE, line) == old, line
        found += len(old)
    assert found > 20


_SPAN_PIECES = st.sampled_from(
    ["each", "every", "all", "both", "any", "of", "the", "its", "their", "our", "pair", "pairs", "from", "one", "to",
     "next", "another", "6", "two", "twelve", "twenty", "2019", *repeat_ranges.REPEAT_NOUNS, "runs", "builds",
     "compilations", "launches", "run-to-run", "job-to-build", "-to-", "x", "Each", "PAIRS"]
)


@settings(max_examples=2000, deadline=None)
@given(pieces=st.lists(st.tuples(_SPAN_PIECES, st.sampled_from([" ", " ", "  ", "\n", "-", ", ", ""])), max_size=12))
def test_span_pattern_finds_what_it_found_on_vocabulary_strings(pieces):
    text = "".join(word + glue for word, glue in pieces)
    assert spans(repeat_ranges._SPAN_RE, text) == spans(OLD_SPAN_RE, text)


# --- a reference's lead-in: the ratio in words is a pattern of its own, compiled only for a text holding its words

OLD_REFERENCE_BEFORE_RE = re.compile(  # the union as it was (main f7593caf)
    f"(?:{variant_pairs._COMPARISON_WORDS}|{worded_ratios.WORDED_RATIO}|%\\s*(?:above|below))"
    + r"\s+(?:the\s+|a\s+|an\s+)?[`*_]*$", re.IGNORECASE)


def old_reference_before(text: str, end: int) -> bool:
    return OLD_REFERENCE_BEFORE_RE.search(text, 0, end) is not None


def test_a_reference_lead_in_is_read_as_the_union_read_it_on_every_markdown_line():
    found = 0
    # every line holding a word of a ratio in words (where the two patterns could part), every fifth other one
    lines = [line for index, line in enumerate(markdown_lines())
             if len(line) <= 240 and (worded_ratios.may_hold(line) or index % 5 == 0)]
    for line in lines:
        for end in [at + 1 for at, char in enumerate(line) if char == " "] + [len(line)]:  # after each space
            old = old_reference_before(line, end)
            assert variant_pairs.reference_before(line, end) is old, (line, end)
            found += old
    assert found > 200 and len(lines) > 2500, (found, len(lines))


def test_each_kind_of_lead_in_is_read_and_the_ratio_in_words_is_compiled_only_for_its_words():
    cases = {"FP8 is 1.3x faster than the ": True, "a 4 % below ": True, "fp16 runs twice as fast as *": True,
             "bf16 takes half the time of the ": True, "it halves the GPU compute time of ": True,
             "Three Times As Fast As ": True, "twice as fast ": False, "faster than fp32 and ": False,
             "faster than the": False}  # a lead-in ends in a space (or markup)
    for text, lead in cases.items():
        assert variant_pairs.reference_before(text, len(text)) is lead is old_reference_before(text, len(text)), text
    script = ("import json; from studygen.lint import variant_pairs as v\n"
              "answer = v.reference_before('fp16 is faster than the ', 24)\n"
              "print(json.dumps([answer, 'compiled' in vars(v._WORDED_REFERENCE_BEFORE_RE.full)]))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True)
    assert json.loads(done.stdout) == [True, False]


_LEAD_PIECES = st.sampled_from(
    ["twice", "thrice", "three", "2.5", "times", "half", "a", "one", "third", "as", "fast", "slow", "the", "of", "time",
     "GPU", "latency", "than", "vs.", "vs", "versus", "over", "compared", "with", "relative", "to", "ahead", "lags",
     "behind", "4%", "%", "above", "below", "halves", "doubled", "fp32", "takes", "`", "*", "_", "Twice", "TIMES", "ſ"]
)


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(st.tuples(_LEAD_PIECES, st.sampled_from([" ", " ", "  ", "\n", "", "-"])), max_size=10),
       cut=st.integers(min_value=0, max_value=80))
def test_a_reference_lead_in_is_read_as_before_on_vocabulary_strings(pieces, cut):
    text = "".join(word + glue for word, glue in pieces)
    for end in (len(text), min(cut, len(text))):
        assert variant_pairs.reference_before(text, end) is old_reference_before(text, end), (text, end)


# --- noise verdicts: the union is searched only where the cheaper guard finds a verdict's opening

VERDICTS = re.compile(vocabulary.NOISE_VERDICT_RE.pattern, re.IGNORECASE)  # the union, compiled as before


def test_the_union_is_the_one_it_was():
    # the two forms now written through names shared with the guard read as they did
    forms = dict(vocabulary.NOISE_VERDICT_FORMS)
    assert forms["is just noise"] == (r"(?:is|are|was|were|just|only|mere(?:ly)?|pure|simply|amounts?\s+to|nothing\s+but)"
                                      r"\s+(?:[\w-]+\s+)?noise\b(?!\s+(?:floor|level|source))")
    assert forms["difference is negligible"] == (r"(?:difference|change|gap|delta)\s+(?:is|are|was|were)\s+"
                                                 r"(?:negligible|insignificant)")
    assert vocabulary.NOISE_VERDICT_RE.pattern == (
        r"\b(?<![\w-])(?:" + "|".join(pattern for _, pattern in vocabulary.NOISE_VERDICT_FORMS) + r")(?![\w-])")


def assert_guarded(text: str) -> int:
    """Every verdict of the union starts where the guard matches; the guarded pattern answers as the union."""
    guard = vocabulary.NOISE_VERDICT_RE.guard
    found = [m.span() for m in VERDICTS.finditer(text)]
    for start, _ in found:
        assert guard.match(text, start) is not None, (text, start)
    assert [m.span() for m in vocabulary.NOISE_VERDICT_RE.finditer(text)] == found
    half = len(text) // 2
    assert ([m.span() for m in vocabulary.NOISE_VERDICT_RE.finditer(text, 1, half)]
            == [m.span() for m in VERDICTS.finditer(text, 1, half)])
    first = vocabulary.NOISE_VERDICT_RE.search(text)
    assert (first.span() if first else None) == (found[0] if found else None)
    return len(found)


def test_the_guard_finds_every_verdict_of_every_markdown_line():
    assert sum(assert_guarded(line) for line in markdown_lines()) > 100
    for example, _ in vocabulary.NOISE_VERDICT_FORMS:
        assert assert_guarded(f"We found it {example} here.") == 1


@settings(max_examples=1000, deadline=None)
@given(verdict=st.one_of([st.from_regex(re.compile(pattern, re.IGNORECASE), fullmatch=True)
                          for _, pattern in vocabulary.NOISE_VERDICT_FORMS]),
       before=st.sampled_from(["", " ", "We saw it ", "x", "-", "(", "The gap is "]),
       after=st.sampled_from(["", ".", " here", "x", "-y", " floor", " from the runs"]))
def test_the_guard_finds_verdicts_of_every_form(before, verdict, after):
    assert_guarded(before + verdict + after)


def test_a_text_without_a_verdicts_opening_compiles_no_verdict_pattern():
    # SG204 searches every README line holding a stem ("spread", "jitter", "repeat"): a clean project's lines
    # hold no verdict, and the union (about 5 ms to compile) was compiled for them all the same
    script = COMPILES_SEEN + (
        "lines = ['the spread between the two jobs is known', 'inside that spread', 'the host jitter, per repeat']\n"
        "print(json.dumps([[m.group(0) for m in v.NOISE_VERDICT_RE.finditer(line)] for line in lines]))\n"
        "print(json.dumps(v.NOISE_VERDICT_RE.pattern in seen))\n"
        "print(json.dumps([m.group(0) for m in v.NOISE_VERDICT_RE.finditer('it is within the run-to-run noise')]))\n"
        "print(json.dumps(v.NOISE_VERDICT_RE.pattern in seen))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True)
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        [[], [], []], False, ["within the run-to-run noise"], True]


def test_a_verdict_with_nine_words_before_its_verb_starts_where_the_guard_matches():
    # a variation over repeats (a preposition, "the", a word, the noun) and a place of five words: nine words before
    # "is"; the guard allowed eight, so the verdict was never looked for (a property example with NEL separators)
    assert assert_guarded("The variation over the timed runs on one of four GPUs is negligible.") == 1
    assert assert_guarded("variation\x85over\x85the\x850\x85runs\x85on\x850\x850\x850\x850\x85is\x85negligible") == 1
