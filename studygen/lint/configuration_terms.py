"""The words a sentence names a configuration by, as SG106 matches a
configuration declared not measured against the document's sentences
(:mod:`studygen.lint.sg106_unmeasured`).

- :func:`word_tokens`: a text's tokens (label tokens, formats and counts
  written in words by their names, configuration words in one spelling,
  parts of hyphenated names, one-letter names) and :func:`stemmed`: with
  each token's stem;
- :func:`term_anchor` and :func:`sentence_probe`: what a sentence must hold
  to name a configuration at all, so that a sentence that names none of the
  declared configurations is not tokenized (most sentences of a document).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .text import STOPWORDS, SYNONYMS, label_tokens, normalize, stem, strip_markup
from .format_words import format_aliases, is_format_name
from .vocabulary import CONFIGURATION_WORDS, ascii_folded, canonical_configuration, number_terms

_FUNCTION_WORDS = STOPWORDS - set("one two three four five six seven eight nine ten table row rows column columns value values "
                                   "figure figures".split())
# A letter standing alone as a word ("job a", "| b |", "`c`"), not a part of
# a name ("H100's", "a-b", "e.g.") nor a unit after a figure ("1.9 x") ...
_LONE_LETTER_RE = lazy_compile(r"(?<![\w'’.-])(?<!\d\s)([a-z])(?![\w'’]|[.-]\w)", re.IGNORECASE)  # "1.9 x" is a unit
# ... and "a" or "I" there only when no noun phrase or verb follows it: an
# article determines the words after it ("a 2x speedup", "a fp16 engine"), so
# "a" followed by the end, a mark or a function word ("job a was not run",
# "than a.", "a / fp16") names something.
_AFTER_NAME_RE = lazy_compile(r"\s*(?:$|[^\w\s]|(?:" + "|".join(sorted(_FUNCTION_WORDS, key=len, reverse=True)) + r")\b(?!-))", re.IGNORECASE)


def identifier_letters(text: str) -> set[str]:
    """The one-letter names of ``text``, lower case: job or run ids such as
    ``b`` in "job b" or a table cell "b"; "a" and "i" only where they cannot
    be the article or the pronoun (:data:`_AFTER_NAME_RE`). A configuration
    named by a one-letter id keeps it, and a sentence names that
    configuration only where it writes the id as a name: "fp16 is a 2x
    speedup" does not name job a."""
    found = set()
    text = normalize(text)  # shapes joined ("800 x 800" is 800x800, no letter x), markup dropped
    for match in _LONE_LETTER_RE.finditer(text):
        letter = match.group(1).lower()
        if letter in "ai" and not _AFTER_NAME_RE.match(text, match.end()):
            continue
        found.add(letter)
    return found


def named_tokens(text: str) -> set[str]:
    """The normalised label tokens of ``text``, a lone letter only as a name."""
    tokens = {token for token in label_tokens(normalize(text)) if len(token) > 1 or not token.isalpha()}
    return tokens | identifier_letters(text)


def word_tokens(text: str, parts: bool = True) -> set[str]:
    """Tokens of ``text`` as configurations are matched: normalised label
    tokens, formats and counts written in words by their names ("six-bit
    integer" -> ``int6``, "eight" -> ``8``), configuration words in one
    spelling ("bs=16" -> ``batch``, ``16``; :data:`~studygen.lint.vocabulary.CONFIGURATION_WORDS`)
    and, when ``parts``, each part of a hyphenated name (``deepep-ll`` ->
    ``deepep``, ``ll``). A one-letter token is one only as a name
    (:func:`identifier_letters`): the article "a" names no job a."""
    text = canonical_configuration(text)
    tokens = named_tokens(text)
    tokens |= format_aliases(text)
    tokens |= number_terms(text)
    if parts:
        for token in list(tokens):
            if "-" in token:
                tokens.update(part for part in token.split("-") if len(part) > 1 or part.isdigit())
    return tokens



def stemmed(tokens: set[str]) -> set[str]:
    """``tokens`` with the stem of each (:func:`studygen.lint.text.stem`)."""
    return tokens | {stem(t) for t in tokens}


# A term a sentence's text holds as written (less markup, in lower case) wherever its tokens hold it: letters,
# digits and . + _ - of ASCII, no "x" ("×" is written x, "800 x 800" joined as 800x800)
_PLAIN_TERM_RE = lazy_compile(r"[a-wyz0-9.+_-]{2,}")
_REWRITTEN = tuple(SYNONYMS.values())  # words normalize writes anew ("trt" as "tensorrt")


def _plain(term: str) -> bool:
    """True when a token naming ``term`` is text of the sentence itself: not a
    format or count written in words (``int6``, ``6-bit``, ``8``), not one
    holding a configuration word in one spelling ("bs" is ``batch``) or a
    word normalize writes anew, not a one-letter name."""
    return (_PLAIN_TERM_RE.fullmatch(term) is not None and not term.isdigit() and not is_format_name(term)
            and not any(word in term for word in CONFIGURATION_WORDS) and not any(word in term for word in _REWRITTEN))


def term_anchor(terms: frozenset[str]) -> str | None:
    """What every sentence whose :func:`word_tokens` (:func:`stemmed`) hold
    all of ``terms`` holds in its :func:`sentence_probe`: the longest plain
    term (:func:`_plain`) less its last letter (a token and its stem share
    it: ``latency`` of "latencies"); None when no term is plain (every
    sentence may name it)."""
    plain = sorted((term for term in terms if _plain(term)), key=lambda term: (-len(term), term))
    return plain[0][:-1] if plain else None


def sentence_probe(text: str) -> str:
    """``text`` folded to lower case (:func:`studygen.lint.vocabulary.ascii_folded`)
    without markup characters: each plain token of :func:`word_tokens`, a
    stretch of the text read the same way, is part of it."""
    return strip_markup(ascii_folded(text))
