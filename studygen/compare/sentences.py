"""Sentences of a README at two revisions: which ones that carry a verdict
or a range changed, and whether a verdict flipped.

Both READMEs are read into lint's model (:func:`studygen.lint.parse.parse_document`):
the prose of paragraphs and list items, split into sentences with their
figures and ranges; tables, headings and code are not prose. A sentence
left as it was is no change. The others are paired old to new by word
similarity, figures masked (difflib's ratio of their words with every
measured figure, a number with decimals or a unit, read as one placeholder,
so a sentence whose figures moved is still the same sentence; whole numbers
such as a batch or a shape name what is compared and stay): first between the unchanged sentences around them (the
runs difflib finds between the two lists, a pair at :data:`PAIRING_RATIO`
or more), then what is left anywhere in the document (a moved sentence, at
:data:`MOVED_RATIO` or more), best pairs first, and never a pair much less alike than either
sentence's best match (:data:`RIVAL_MARGIN`); what finds no pair was added
or removed. A change is reported when either side carries a verdict or a
range.

A sentence's verdicts are read with the field's vocabulary
(:mod:`studygen.lint.vocabulary`), which render's own verdicts use too:

- a noise verdict: :data:`~studygen.lint.vocabulary.NOISE_VERDICT_RE`
  ("within run-to-run noise", "indistinguishable") reads ``within noise``;
  the noise nouns after "beyond", "outside", "exceeds" (render's
  :data:`~studygen.render.stats.BEYOND_NOISE`) read ``beyond noise``;
- a direction (:data:`~studygen.lint.vocabulary.DIRECTION_WORDS`): a speed
  word anywhere ("FP8 is slower"), another direction word only when it
  compares ("less than", "lower latency than"); "no" up to two words before
  it ("no faster", "no measurably faster"), or "not", "never" or "-n't"
  anywhere before it in its clause, make it ``no faster``: "no" qualifies
  the words after it, while "not" negates the clause's verb however far the
  direction word stands from it (the deformable_detr README's "it does not
  make the engine faster" read ``faster``, so a hand edit to "it makes the
  engine faster" was no verdict change);
- a clause that states an expectation ("would mean FP8 is faster",
  :func:`~studygen.lint.vocabulary.is_expectation`) holds no verdict.

A paired sentence whose set of verdicts differs is a **verdict change**
("no faster" -> "faster", "within noise" -> "beyond noise", a verdict that
appears or goes).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..lint.parse import parse_document
from ..lint.vocabulary import DIRECTION_WORDS, NOISE_NOUNS, NOISE_VERDICT_RE, SPEED_WORDS, is_expectation
from ..patterns import lazy_compile

PAIRING_RATIO = 0.3  # between the same unchanged neighbours: below it, two sentences are not one edited
MOVED_RATIO = 0.6  # anywhere in the document: a sentence moved and edited
RIVAL_MARGIN = 0.1  # a pair this much less alike than either sentence's best match is no pair

_DIRECTION_RE = lazy_compile(rf"\b({'|'.join(DIRECTION_WORDS)})\b", re.IGNORECASE)
_COMPARES_RE = lazy_compile(r"(?:\s+[\w-]+){0,2}?\s+than\b", re.IGNORECASE)  # "less than", "lower latency than"
_NO_BEFORE_RE = lazy_compile(r"\bno(?:\s+[\w-]+){0,2}?\s+$", re.IGNORECASE)  # "no faster", "no measurably faster"
_NOT_RE = lazy_compile(r"\b(?:not|never)\b|n't\b", re.IGNORECASE)  # negates its clause's verb
_BEYOND_RE = lazy_compile(
    rf"\b(?:beyond|outside|exceeds?|exceeding)\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){{0,3}}?{NOISE_NOUNS}",
    re.IGNORECASE)
_CLAUSE_END_RE = lazy_compile(r"[,;:]\s|\s(?:and|but|while|whereas)\s")
_SPACES_RE = lazy_compile(r"\s+")
# A measured figure (decimals, or a unit glued on): "9.80", "0.97x", "41%"; a bare whole number
# ("batch 8", "800 x 800") names a configuration and is kept.
_FIGURE_RE = lazy_compile(r"^\(?[-+−]?(?:\d+[.,]\d+|\d+(?:[.,]\d+)?(?:x|%|ms|s|MiB|GB))[),.;:]*$")
WITHIN_NOISE = "within noise"
BEYOND = "beyond noise"


@dataclass(frozen=True)
class ProseSentence:
    """A sentence of a README's prose: its text (white space folded), line,
    the heading it sits under, and its verdicts."""

    text: str
    line: int
    heading: str
    verdicts: frozenset[str]
    has_range: bool


@dataclass(frozen=True)
class SentenceChange:
    """A changed sentence that carries a verdict or a range: ``old``/``new``
    (None where it was added or removed)."""

    old: ProseSentence | None
    new: ProseSentence | None

    @property
    def verdict_changed(self) -> bool:
        """A sentence edited so that its verdicts differ."""
        return self.old is not None and self.new is not None and self.old.verdicts != self.new.verdicts


def verdicts_of(text: str) -> frozenset[str]:
    """The verdicts of one sentence (see the module docstring), e.g.
    ``{"no faster", "slower"}`` or ``{"within noise"}``."""
    found = set()
    if NOISE_VERDICT_RE.search(text) and not _all_expectations(text, NOISE_VERDICT_RE):
        found.add(WITHIN_NOISE)
    if _BEYOND_RE.search(text) and not _all_expectations(text, _BEYOND_RE):
        found.add(BEYOND)
    for match in _DIRECTION_RE.finditer(text):
        word = match.group(1).lower()
        if word not in SPEED_WORDS and not _COMPARES_RE.match(text, match.end()):
            continue
        if is_expectation(_clause(text, match.start())):
            continue
        negated = _negated(text, match.start())
        found.add(f"no {word}" if negated else word)
    return frozenset(found)


def _negated(text: str, offset: int) -> bool:
    """Whether the direction word at ``offset`` is negated (see the module
    docstring): "no" up to two words before it, or "not", "never" or "-n't"
    before it in its clause."""
    if _NO_BEFORE_RE.search(text, 0, offset):
        return True
    return _NOT_RE.search(text, _clause_start(text, offset), offset) is not None


def _all_expectations(text: str, pattern) -> bool:
    return all(is_expectation(_clause(text, m.start())) for m in pattern.finditer(text))


def _clause(text: str, offset: int) -> str:
    """The clause around ``offset``: from the last clause break before it to the next one after."""
    start = _clause_start(text, offset)
    after = _CLAUSE_END_RE.search(text, offset)
    return text[start:after.start() if after else len(text)]


def _clause_start(text: str, offset: int) -> int:
    """Where the clause holding ``offset`` starts: after the last clause break before it, else 0."""
    start = 0
    for match in _CLAUSE_END_RE.finditer(text, 0, offset):
        start = match.end()
    return start


def prose_sentences(text: str, path: str) -> list[ProseSentence]:
    """Every sentence of the prose of a Markdown document, in order."""
    document = parse_document(text, path)
    sentences = []
    for block in document.prose:
        for sentence in block.sentences:
            words = _SPACES_RE.sub(" ", sentence.text).strip()
            if words:
                sentences.append(ProseSentence(words, sentence.line_at(sentence.start), block.heading,
                                               verdicts_of(words), bool(sentence.ranges)))
    return sentences


def compare_sentences(old_text: str | None, new_text: str | None, path: str) -> list[SentenceChange]:
    """Changed sentences of one README between two revisions (see the module
    docstring); ``None``: no README at that revision. In the new README's
    order, removed sentences last in the old one's order."""
    old = prose_sentences(old_text, path) if old_text is not None else []
    new = prose_sentences(new_text, path) if new_text is not None else []
    matcher = difflib.SequenceMatcher(None, [s.text for s in old], [s.text for s in new], autojunk=False)
    blocks = [(old[i1:i2], new[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    similarity = _Similarity([s for block, _ in blocks for s in block], [s for _, block in blocks for s in block])
    pairs = [pair for old_block, new_block in blocks for pair in similarity.pair(old_block, new_block, PAIRING_RATIO)]
    paired = {id(s) for pair in pairs for s in pair}
    old_left = [s for block, _ in blocks for s in block if id(s) not in paired]
    new_left = [s for _, block in blocks for s in block if id(s) not in paired]
    pairs += similarity.pair(old_left, new_left, MOVED_RATIO)
    partner = {id(b): a for a, b in pairs}
    paired = {id(s) for pair in pairs for s in pair}
    changes = [SentenceChange(partner.get(id(s)), s) for _, block in blocks for s in block]
    changes += [SentenceChange(s, None) for s in old_left if id(s) not in paired]
    return [c for c in changes if _worth_reporting(c)]


def _worth_reporting(change: SentenceChange) -> bool:
    return any(s is not None and (s.verdicts or s.has_range) for s in (change.old, change.new))


def _masked(text: str) -> list[str]:
    """The words of a sentence, each measured figure read as ``#``."""
    return ["#" if _FIGURE_RE.match(word) else word for word in text.split()]


class _Similarity:
    """Masked word similarity (difflib's ratio) of every changed old sentence
    with every changed new one, and each sentence's best."""

    def __init__(self, old: list[ProseSentence], new: list[ProseSentence]):
        masked_new = [_masked(b.text) for b in new]
        self.ratios: dict[tuple[int, int], float] = {}
        for a in old:
            matcher = difflib.SequenceMatcher(None, autojunk=False)
            matcher.set_seq2(_masked(a.text))
            for b, words in zip(new, masked_new):
                matcher.set_seq1(words)
                self.ratios[id(a), id(b)] = matcher.ratio()
        self.best: dict[int, float] = {}
        for (a, b), ratio in self.ratios.items():
            self.best[a] = max(self.best.get(a, 0.0), ratio)
            self.best[b] = max(self.best.get(b, 0.0), ratio)

    def pair(self, old, new, threshold: float) -> list[tuple[ProseSentence, ProseSentence]]:
        """``old`` and ``new`` sentences paired best first: at least ``threshold``
        alike, and within :data:`RIVAL_MARGIN` of the best either sentence has
        with any changed sentence (one whose own counterpart is taken is
        removed or added, not paired with a sentence about something else)."""
        scored = sorted(((self.ratios[id(a), id(b)], i, j) for i, a in enumerate(old) for j, b in enumerate(new)),
                        key=lambda item: (-item[0], item[1], item[2]))
        pairs, used_old, used_new = [], set(), set()
        for ratio, i, j in scored:
            if ratio < threshold:
                break
            a, b = old[i], new[j]
            if i in used_old or j in used_new or ratio < max(self.best[id(a)], self.best[id(b)]) - RIVAL_MARGIN:
                continue
            used_old.add(i)
            used_new.add(j)
            pairs.append((a, b))
        return pairs
