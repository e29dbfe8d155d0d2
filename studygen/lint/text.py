"""Words, normalised labels and sentences of Markdown prose.

Helpers shared by the lint checks: :func:`keywords` (stemmed content words,
for "same quantity" tests), :func:`normalize` (label text compared across
prose and tables: ``800 x 1067`` == ``800x1067``, ``TRT`` == ``TensorRT``),
:func:`label_tokens` (the ordered word tokens of normalised text) and
:func:`split_sentences`, :func:`figure_scope` and :func:`opening_phrase`
(which words of a sentence scope a figure).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..patterns import lazy_compile

STOPWORDS = frozenset(
    """a an the of on at in for to from by with and or but not no nor is are was were be been being it its
    this that these those as than then so such per vs versus into over under all each every any both only
    also about around roughly approximately nearly almost up down out off we our they their there here
    which who what when where while whereas if else has have had do does did can could may might will would
    should shall must one two three four five six seven eight nine ten table row rows column columns value
    values figure figures""".split()
)

# Unit words never count as a quantity keyword (the unit is compared on its own).
UNIT_WORDS = frozenset(
    "ms s sec secs seconds us ns x mib gib kib mb gb kb tokens images img imgs tok fps percent".split()
)

_WORD_RE = lazy_compile(r"[A-Za-z][A-Za-z0-9_+]*")
_SPACE_RE = lazy_compile(r"\s+")
_SHAPE_WORD_RE = lazy_compile(r"\d+(?:\s*[x×]\s*\d+)+")
_SHAPE_RE = lazy_compile(r"(\d)\s*[x×]\s*(?=\d)")
_MARKUP_RE = lazy_compile(r"[*_`~]")
# the tail as \\w: a character class with µ in it makes the scan several times slower
_LABEL_TOKEN_RE = lazy_compile(r"[a-z0-9\xb5\u03bc][\w.+-]*")
_SYNONYMS = {"trt": "tensorrt"}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Lower-case ``word`` with a plural ``s``/``es``/``ies`` stripped
    (``GEMMs`` -> ``gemm``, ``latencies`` -> ``latency``)."""
    word = word.lower()
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def keywords(text: str) -> frozenset[str]:
    """Stemmed content words of ``text``: stop words, unit words and words
    without letters left out; a snake_case word also gives its parts.
    ``'GEMM ms fp16'`` -> ``{'gemm', 'fp16'}``."""
    found = set()
    if "x" in text or "×" in text:
        text = _SHAPE_WORD_RE.sub(" ", text)
    for word in _WORD_RE.findall(text):
        lowered = word.lower()
        if lowered in STOPWORDS or lowered in UNIT_WORDS or len(lowered) < 2:
            continue
        found.add(stem(lowered))
        if "_" in lowered:
            # snake_case names their words too: "e2e_latency_ms" is about latency
            for part in lowered.split("_"):
                if len(part) > 1 and part not in STOPWORDS and part not in UNIT_WORDS:
                    found.add(stem(part))
    return frozenset(found)


@lru_cache(maxsize=8192)
def cached_keywords(text: str) -> frozenset[str]:
    """:func:`keywords` for texts that repeat (table headers)."""
    return keywords(text)


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Label text in one spelling: lower case, Markdown emphasis removed,
    shapes written ``800x1067``, ``×`` as ``x``, ``trt`` as ``tensorrt``,
    single spaces."""
    text = text.replace("×", "x").lower()
    if "*" in text or "_" in text or "`" in text or "~" in text:
        text = _MARKUP_RE.sub("", text)
    if "x" in text:
        text = _SHAPE_RE.sub(r"\1x", text)
    text = " ".join(text.split())
    if "trt" in text:
        text = re.sub(r"\btrt\b", "tensorrt", text)
    return text


@lru_cache(maxsize=65536)
def label_tokens(normalized_text: str) -> tuple[str, ...]:
    """Word tokens of normalised text, trailing dots dropped
    (``'on tensorrt 11.4.'`` -> ``['on', 'tensorrt', '11.4']``)."""
    # a token starts with a letter or digit, so stripping its tail never empties it
    tokens = tuple(t.rstrip(".-") if t[-1] in ".-" else t for t in _LABEL_TOKEN_RE.findall(normalized_text))
    if "trt" in tokens:
        tokens = tuple(_SYNONYMS.get(t, t) for t in tokens)
    return tokens


# A sentence ends at . ! ? followed by white space, except after abbreviations.
_SENTENCE_END_RE = lazy_compile(r"[.!?]+(?=\s)")
_ABBREVIATIONS = ("vs", "e.g", "i.e", "cf", "approx", "etc", "fig", "no", "al", "resp", "incl", "ca")
# an abbreviation as the whole last word before the mark (after white space or "(")
_ABBREVIATION_BEFORE_RE = lazy_compile(
    r"(?<![^\s(])\(*(?:" + "|".join(re.escape(a) for a in _ABBREVIATIONS) + r")$", re.IGNORECASE)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of a paragraph's plain text
    (leading white space left out, empty stretches dropped)."""
    spans = []
    start = 0
    abbreviated = _ABBREVIATION_BEFORE_RE.search
    for match in _SENTENCE_END_RE.finditer(text):
        mark = match.start()
        if mark and text[mark - 1].isalpha() and abbreviated(text, max(start, mark - 7), mark):
            continue  # every abbreviation ends in a letter: "vs.", "e.g."
        spans.append((start, match.end()))
        start = match.end()
    spans.append((start, len(text)))
    found = []
    for begin, end in spans:
        piece = text[begin:end]
        kept = piece.lstrip()
        if kept.rstrip():
            found.append((begin + len(piece) - len(kept), end))
    return found


# "and" before a digit joins a range ("between 2.1 and 9.7 ms"), not clauses
_SEGMENT_SPLIT_RE = lazy_compile(r"[,;:]\s+|\s+(?:and|but|while|whereas)\s+(?![-−+]?\d)")
_OPENING_RE = lazy_compile(
    r"^\W*(?:on|at|for|with|in|under|using|across|from|except|excluding|besides|apart\s+from|other\s+than)\s", re.IGNORECASE
)


_FORWARD_STOP_RE = lazy_compile(r"[,;:]\s+|\s+(?:and|but|while|whereas)\s+")
_LAST_WORD_RE = lazy_compile(r"(\S+)\s*$")


_TRAILING_PAREN_RE = lazy_compile(r"(?:\s*(?:ms|s|us|%|x|MiB|GB|points?))?\s*\([^()]*\)")


def figure_scope(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) of the words that scope a figure at ``start:end`` of a
    sentence: back to the nearest comma, semicolon, colon or
    ``and``/``but``/``while``/``whereas``; forward to the nearest comma,
    semicolon, colon or conjunction, where an ``and`` that joins two labels
    ("for fp16 and INT8", "on TensorRT 11.4 and 11.1": the word before it
    holds a digit) does not end the scope. A parenthesis that follows the
    figure (after its unit) belongs to the scope whole; a figure inside a
    parenthesis has its scope end at the ``)`` that closes it ("slower at
    batch 1 (0.97x to 0.99x) and faster at batch 8": batch 8 is not its)."""
    scope_start = 0
    for match in _SEGMENT_SPLIT_RE.finditer(text, 0, start):
        if match.group().strip() in ("and", "but", "while", "whereas") and _joins_labels(text, match):
            continue  # "The INT8 and FP8 kernels": one subject of two labels
        scope_start = match.end()
    scope_end = len(text)
    # a parenthesis right after the figure is its restriction, commas and all:
    # "8.377 to 8.664 ms (mode compile, at 800 x 800 only)", as render prints it
    trailing = _TRAILING_PAREN_RE.match(text, end)
    for match in _FORWARD_STOP_RE.finditer(text, trailing.end() if trailing else end):
        if match.group().strip() in (",", ";", ":"):
            scope_end = match.start()
            break
        before = _LAST_WORD_RE.search(text, 0, match.start())
        if before and any(ch.isdigit() for ch in before.group(1)):
            continue
        scope_end = match.start()
        break
    opened = text.rfind("(", 0, start)
    if opened != -1 and text.find(")", opened, start) == -1:
        closed = text.find(")", end)
        if closed != -1:
            scope_end = min(scope_end, closed + 1)
    return scope_start, scope_end


_NEXT_WORD_RE = lazy_compile(r"\s*(\S+)")


def _joins_labels(text: str, match) -> bool:
    """True when the conjunction ``match`` stands between two words that
    both hold a digit ("INT8 and FP8", "B200 and B300"): it joins labels."""
    before = _LAST_WORD_RE.search(text, 0, match.start())
    after = _NEXT_WORD_RE.match(text, match.end())
    return bool(before and after and any(c.isdigit() for c in before.group(1)) and any(c.isdigit() for c in after.group(1)))


def opening_phrase(text: str) -> str:
    """The sentence's opening restriction phrase ("On TensorRT 11.4, …",
    "At 800 x 1067 on B200 the …", "Except on H100, …"): its first six
    words when it opens with a preposition or an exclusion, else ""."""
    if not _OPENING_RE.match(text):
        return ""
    end = len(text)
    for stop in (",", ";", ":"):
        position = text.find(stop)
        if position != -1:
            end = min(end, position)
    return " ".join(text[:end].split()[:6])


# Header words of a column of differences ("saving ms", "delta") and of ratios
# printed without an x ("speedup", "ratio", "relative throughput", "weak scaling").
DIFFERENCE_WORDS = frozenset({"saving", "saved", "diff", "difference", "delta", "reduction", "overhead", "gain", "change"})
_RATIO_HEADER_RE = lazy_compile(
    r"\b(?:speed-?ups?|ratio|relative|x\s+faster|times\s+faster|slowdown|(?:weak|strong)\s+scaling|scaling\s+factor)\b|×",
    re.IGNORECASE)


@lru_cache(maxsize=4096)
def ratio_header(header: str) -> bool:
    """True for a header that names a ratio without an ``x`` unit
    ("speedup", "speed-up vs fp16", "relative goodput", "times faster",
    "weak scaling", "strong scaling")."""
    return _RATIO_HEADER_RE.search(header) is not None


_VARIANT_WORD_RE = lazy_compile(r"^(?:fp|bf|tf|int|uint|nvfp|mxfp|w\d+a)\d+$")


@lru_cache(maxsize=8192)
def measure_words(words: frozenset[str]) -> frozenset[str]:
    """Keywords that say what is measured: precision and variant names
    (``fp16``, ``fp8``, ``int8``, ``nvfp4``) left out, since a sentence about
    FP8 latency and a column of FP8 AP share "fp8" but not a quantity."""
    return frozenset(w for w in words if not _VARIANT_WORD_RE.match(w))
