"""Comparisons and changes that print both of their figures (SG103): "int8
(0.0440 ms) is faster than fp16 (0.0388 ms)", "AP50 drops from 0.8416 to
0.8936".

A comparative with no ratio before it ("faster than", "lower latency than",
"uses less memory than") says which of two things has the larger figure.
When each name carries its figure, the direction can be checked without any
table: the subject's figure is the last one before the comparative, at most
two words before it; the reference's is the first after "than" and the
reference's name, printed in parentheses or after "at", "with", "takes" (not
"by": a difference), within 40 characters (a shape between them names rows,
it is no figure). Two figures in one parenthesis after the clause ("faster
than fp32 (0.03882 against 0.03613 ms)", maybe closed by a remark without
figures: ", unstable)") are read only where something says whose each is, as
writers list such a pair in either order:

- a place phrase after the first figure (and maybe one after the second:
  "0.2754 ms on the RTX 3080 against 1.398 ms on the RTX 3070") whose words,
  less the other phrase's, articles and vendor words, all occur on one side
  of the comparison and not all on the other names that side;
- else the document's tables: the cell printing each figure must be named by
  one side's words (all of the row label and header words the other cell
  lacks; where no pair of cells is named so, as with cells of two split
  tables that differ in the GPU too, some of them and none of the other
  cell's, on both sides).

A pair after a comma or colon that ends the reference's clause ("bf16 is
faster than fp32 at both shapes, 0.562 ms against 0.32 ms at 64x64 and 0.772
ms against 0.519 ms at 128x128") is written in the clause's order, the
subject's figure first, unless a place phrase or the tables tell otherwise;
each pair "and" joins is read, and a clause that hedges the comparison ("was
expected to be faster") is not.

SG212's reading of a study file's prose (:func:`compared_operands` with
``ordered`` False) takes such a pair as printed: it asks only how each
figure was timed.

The comparative's word gives the direction (:mod:`.ratio_direction`):
"faster" is the smaller time or the larger rate, "higher", "more" the
larger figure of any kind. "more", "less", "fewer", "higher", "lower" and
"greater" are read only alone before "than" or before a word naming a
quantity ("less memory"): "more accurate" or "less efficient" are about
another quantity than the figures print. With a ratio before the
comparative ("int8 (2.84 ms) is 1.09x faster than fp16 (2.61 ms)") the ratio
is the subject's last figure: SG103's inline ratio reading checks it. A
denied comparison ("is not faster than") is not read. Figures that print
alike or overlap within their digits never count against a claim
(:func:`.ratio_direction.goes_against`).

A comparative that ends its clause at a colon, the pair right after it ("int8
is faster: 0.1342 ms against 0.1547 ms for fp16"), is read alike when a place
phrase of the pair tells whose each figure is: one whose words the clause
before the comparative holds is the subject's, one naming anything else the
reference's; a pair no phrase names is left unread.

In a clause joined to one read before ("A (400 ms) is faster than B (2438
ms) and slower than C (568 ms)"), the subject is that clause's: the figure
before "and" is the earlier reference's.

**Changes** ("drops from 0.8416 to 0.8936", "latency rose from 5.2 to 4.1
ms") say which way their two figures go: a verb of falling (drop, fall,
decrease, decline, shrink, reduce, lower, sink) needs the second figure
smaller, one of rising (rise, grow, increase, climb, jump, swell) larger. The
figures follow "from" (within 40 characters, no clause break) and are joined
by "to", with a unit (AP read before them counts); a percentage's change is
not read (a share that "falls from 12% to 15%" may be the writer's sign), nor
figures of two units, nor a denied change.

Cases: ``tests/lint/test_inline_comparisons.py``.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Document, Sentence
from .figures import RATIO_UNITS, Figure
from .ratio_direction import BETTER, LARGER, SMALLER, WORSE, goes_against, wanted_sign
from .operand_pairs import is_label_number, measured, place_after, placed_gap
from .header_names import VENDOR_WORD_SET, mention, name_words, prose_words
from .text import label_tokens, normalize
from .variant_pairs import kind_of_unit, kind_of_words

_DIRECTIONS = {"faster": BETTER, "quicker": BETTER, "slower": WORSE, "higher": LARGER, "more": LARGER,
               "larger": LARGER, "bigger": LARGER, "greater": LARGER, "lower": SMALLER, "less": SMALLER,
               "smaller": SMALLER, "fewer": SMALLER}
# comparatives that name a size, not a quality: read only alone or before a quantity's name ("less memory")
_SIZE_ONLY = frozenset({"more", "less", "fewer", "higher", "lower", "greater"})
# group 1 the comparative, group 2 up to two words before "than"
_COMPARATIVE_RE = lazy_compile(r"\b(" + "|".join(_DIRECTIONS) + r")\b((?:\s+[A-Za-z][\w-]*){0,2}?)\s+than\s+",
                               re.IGNORECASE)
# a denial with at most one word between it and the comparative or the verb ("neither substantially fell"):
# searched from the sentence's start, as a window of characters would cut off a long word
_DENIED_RE = lazy_compile(r"\b(?:not|never|no|hardly|neither|nor)\s+(?:[a-z]+\s+)?$|n't\s+$", re.IGNORECASE)
# between the subject's figure and the comparative: "ms) is", "ms, is", " runs"
_SUBJECT_GAP_RE = lazy_compile(r"\s*\)?\s*(?:[A-Za-z][\w-]*\s+){0,2}$")
# what opens the reference's figure: "(", "at", "with", "takes", "in"
_FIGURE_OPENING_RE = lazy_compile(r"(?:\(|\b(?:at|with|takes|took|in))\s*$", re.IGNORECASE)
_REACH = 40  # characters of the reference's name between "than" and its figure
HINT = "swap the two names or the comparative, or recompute the figures the sentence compares"
# where the pair after the clause opens: a parenthesis, "with" ("... faster than fp16 with 2.45 ms against 2.10
# ms", closed by the sentence's end or a stop), or a comma or colon ending the reference's clause ("... faster than
# fp32 at both shapes, 0.562 ms against 0.32 ms"), the figures right after it
_PAIR_OPENING_RE = lazy_compile(r"\(|\bwith\b ?|[,:]", re.IGNORECASE)
# after a comma or colon, the next pair of the same comparison ("0.562 ms against 0.32 ms at 64x64 and 0.772 ms
# against 0.519 ms at 128x128")
_NEXT_PAIR_RE = lazy_compile(r"\s*,?\s*and\s", re.IGNORECASE)
# a comparison the clause before the comparative hedges ("bf16 was expected to be faster than fp32, 0.562 ms against
# 0.32 ms"): what was hoped or supposed, which its figures may well disprove, is no claim of the writer's
_HEDGED_RE = lazy_compile(r"\b(?:expect\w*|hop(?:e|es|ed|ing)|should|would|could|might|may|if|whether|predict\w*|"
                          r"suppos\w*|assum\w*|(?:un)?likely|claim\w*|thought|believed)\b", re.IGNORECASE)
# what may close the parenthesis after its pair: a remark of up to 60 characters, no figure and no parenthesis in it
# ("(0.04395 against 0.03613 ms, unstable)", "(...; both flagged unstable)"); a new user's trial: that word hid a
# comparison whose two figures go the other way
_REMARK_RE = lazy_compile(r"[,;][^()\d]{1,60}\)")
_PAIR_GAP_RE = lazy_compile(r"\s*(?:vs\.?|versus|against|compared\s+(?:to|with)|and)\s*", re.IGNORECASE)
_ARTICLES = frozenset({"the", "a", "an"})  # no words of a place phrase that name a side
_CELLS = 8  # cells printing one figure that are tried for its owner (a figure printed more often names no one cell)


# a comparative ending its clause at a colon, its pair after it: "int8 is faster: 0.1342 ms against 0.1547 ms for
# fp16" (group 1 the comparative, group 2 up to two words after it)
_COLON_COMPARATIVE_RE = lazy_compile(r"\b(" + "|".join(_DIRECTIONS) + r")\b((?:\s+[A-Za-z][\w-]*){0,2}?)\s*:",
                                     re.IGNORECASE)


# a change written with its two figures: "drops from 0.8416 to 0.8936"; group 1 a fall, group 2 a rise
_CHANGE_RE = lazy_compile(r"\b(?:(drop|fall|fell|decreas|declin|shrink|shrank|reduc|lower|sink|sank)|"
                          r"(ris|rose|grow|grew|increas|climb|jump|swell))\w*\s+(?:[\w-]+\s+){0,3}?from\s+",
                          re.IGNORECASE)
_TO_GAP_RE = lazy_compile(r"\s*to\s*", re.IGNORECASE)
# "from about 5.2", "from our best run of 410": words between "from" and the figure it governs, no clause break
_LEAD_RE = lazy_compile(r"[^;:()\d]{0,40}")
# a new clause joined to the one before: its subject is the sentence's ("A (400 ms) is faster than B (2438 ms)
# and slower than C (568 ms)"), not the figure before it
_JOINED_CLAUSE_RE = lazy_compile(r"\b(?:and|but|yet|while|whereas)\b", re.IGNORECASE)


def comparison_findings(document: Document, refuted: set[tuple[int, str, frozenset[str]]] | None = None,
                        ) -> list[tuple[int, str, str]]:
    """``(line, message, hint)`` of each comparison of the document whose two
    printed figures go the other way than its comparative says, and of each
    change ("drops from A to B") whose figures go the other way than its verb.
    Each such comparison with a ratio right before its comparative ("1.22x
    faster than") adds ``(line, the ratio's text, its two figures' texts)`` to
    ``refuted``, so that SG103's table readers do not state the same fault again."""
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        for sentence in block.sentences:
            # the block's folded text (as the patterns read case): "FASTER THAN" is a comparison too
            lowered = block.lowered[sentence.start:sentence.end]
            if len(sentence.tokens) >= 2 and ("than" in lowered or ":" in lowered):
                found.extend(_sentence_findings(document, sentence, refuted))
            if len(sentence.tokens) >= 2 and "from" in lowered:
                found.extend(_change_findings(sentence))
    return found


def _changes(sentence: Sentence):
    """``(match, before, now, sign)`` of each change of the sentence written with its two figures ("drops from
    0.8416 to 0.8936"), not denied, in one unit that is no percentage: ``match`` its verb's match, ``sign`` -1 for
    a verb of falling, 1 for one of rising."""
    text = sentence.block.text
    figures = [t.figure for t in sentence.tokens if t.figure is not None]
    for match in _CHANGE_RE.finditer(text, sentence.start, sentence.end):
        after = [f for f in figures if f.start >= match.end()]
        if len(after) < 2 or not _LEAD_RE.fullmatch(text, match.end(), after[0].start) or \
                not _TO_GAP_RE.fullmatch(text, after[0].end, after[1].start):
            continue
        if _DENIED_RE.search(text, sentence.start, match.start()):
            continue
        before, now = after[0], after[1]
        unit = now.unit or before.unit
        if unit is None or unit in RATIO_UNITS or (before.unit and now.unit and before.unit != now.unit):
            continue  # no unit: labels ("from batch 4 to 8"); a percentage: its sign is the writer's
        yield match, before, now, -1 if match.group(1) else 1


def _change_findings(sentence: Sentence) -> list[tuple[int, str, str]]:
    """"AP50 drops from 0.8416 to 0.8936": a fall whose second figure is the larger, or a rise the smaller."""
    text = sentence.block.text
    found = []
    for match, before, now, sign in _changes(sentence):
        if goes_against(now, before, sign):
            words = " ".join(text[match.start():match.end()].split())
            found.append((sentence.line_at(match.start()),
                          f"'{words}' goes the wrong way: from {_as_written(text, before)} to "
                          f"{_as_written(text, now)} is a {'rise' if sign < 0 else 'fall'}",
                          "swap the two figures or the verb"))
    return found


def _comparisons(document: Document, sentence: Sentence, ordered: bool = True):
    """``(match, subject, reference)`` of each comparative of the sentence that prints a figure beside each of
    its two names (or both in a parenthesis whose place phrases or a table order it), not denied: ``match`` the
    comparative's match. ``ordered`` False: a pair after the clause is read whoever owns which, its figures as
    printed (:func:`_pairs_after_clause`)."""
    text = sentence.block.text
    figures = [t.figure for t in sentence.tokens if t.figure is not None]
    subject_of_sentence = None
    for match in _COMPARATIVE_RE.finditer(text, sentence.start, sentence.end):
        word, between = match.group(1).lower(), match.group(2).split()
        if between and word in _SIZE_ONLY and kind_of_words(label_tokens(normalize(" ".join(between)))) is None:
            continue  # "more accurate than": the figures may measure something the word turns around
        if _DENIED_RE.search(text, sentence.start, match.start()):
            continue
        beside = _beside_names(text, figures, match.start(), match.end(), subject_of_sentence)
        pairs = [beside] if beside else _pairs_after_clause(document, sentence, figures, match.start(), match.end(),
                                                            ordered)
        for subject, reference in pairs:
            subject_of_sentence = subject_of_sentence or subject
            yield match, subject, reference
    for match in _COLON_COMPARATIVE_RE.finditer(text, sentence.start, sentence.end):
        if _reads_as_comparison(text, sentence, match):
            operands = _pair_after_colon(text, sentence, figures, match, ordered)
            if operands is not None:
                yield match, *operands


def _reads_as_comparison(text: str, sentence: Sentence, match: re.Match) -> bool:
    """Whether the comparative ``match`` compares what its figures measure: not denied, and a size word
    ("more", "less") alone or before a quantity's name ("less memory"), never "more accurate"."""
    word, between = match.group(1).lower(), match.group(2).split()
    if between and word in _SIZE_ONLY and kind_of_words(label_tokens(normalize(" ".join(between)))) is None:
        return False
    return not _DENIED_RE.search(text, sentence.start, match.start())


def _pair_after_colon(text: str, sentence: Sentence, figures: list[Figure], match: re.Match,
                      ordered: bool = True) -> tuple[Figure, Figure] | None:
    """(subject, reference) of "int8 is faster: 0.1342 ms against 0.1547 ms for fp16": the two figures right after
    the colon, joined by "against", "vs" or the like, each maybe with a place phrase. The subject is the clause
    before the comparative; a place phrase whose words that clause holds names the subject's figure, one naming
    something else the reference's. None when no phrase tells whose each is (writers list a pair either way).
    ``ordered`` False: the two as printed (as :func:`_pairs_after_clause`)."""
    after = [f for f in figures if f.start > match.end()]
    if len(after) < 2 or text[match.end():after[0].start].strip():
        return None
    first = after[0]
    second = next((f for f in after[1:] if not is_label_number(f)), None)  # "on the RTX 3080" holds a name's number
    if second is None or not (measured(second) and first.unit == second.unit):
        return None
    first_place = placed_gap(text, first.end, second.start)
    if first_place is None and (second is not after[1] or not _PAIR_GAP_RE.fullmatch(text, first.end, second.start)):
        return None
    closed, second_place = place_after(text, second.end, sentence.end)
    if any(not is_label_number(f) for f in after if second.end < f.start < closed) or \
            (text[closed:sentence.end].lstrip()[:1] or ".") not in ".,;":
        return None  # the pair ends its clause
    if not ordered:
        return first, second
    places = (first_place or "", second_place)
    clause_start = max(text.rfind(c, sentence.start, match.start()) for c in ",;:") + 1
    subject_words = text[max(sentence.start, clause_start):match.start()]
    sides = []
    for place in places:
        words = frozenset(name_words(place)) - VENDOR_WORD_SET - _ARTICLES
        sides.append(None if not words else "subject" if mention(subject_words, words) is not None else "reference")
    if sides[0] == sides[1]:
        return None  # no phrase, or two naming one side
    first_is_subject = sides[0] == "subject" or sides[1] == "reference"
    return (first, second) if first_is_subject else (second, first)


def _sentence_findings(document: Document, sentence: Sentence,
                       refuted: set[tuple[int, str, frozenset[str]]] | None = None) -> list[tuple[int, str, str]]:
    text = sentence.block.text
    found = []
    for match, subject, reference in _comparisons(document, sentence):
        unit = subject.unit or reference.unit
        sign = wanted_sign(_DIRECTIONS[match.group(1).lower()], kind_of_unit(unit))
        if goes_against(subject, reference, sign):
            wanted = "smaller" if sign < 0 else "larger"
            ratio = _ratio_before(sentence, match.start())
            if ratio is not None and refuted is not None:
                refuted.add((sentence.line_at(ratio.start), ratio.text, frozenset((subject.text, reference.text))))
            found.append((sentence.line_at(match.start()),
                          f"'{match.group(0).strip()}' goes the wrong way: {_as_written(text, subject)} should be the "
                          f"{wanted} of the two figures, but {_as_written(text, reference)}, the one it is compared "
                          f"with, is {wanted}", HINT))
    return found


def _ratio_before(sentence: Sentence, start: int) -> Figure | None:
    """The ratio or percentage printed right before the comparative at ``start`` ("1.22x| faster than"), else None."""
    text = sentence.block.text
    for token in sentence.tokens:
        figure = token.figure
        if figure is not None and figure.unit in RATIO_UNITS and figure.end <= start and not text[figure.end:start].strip():
            return figure
    return None


def compared_operands(document: Document, sentence: Sentence, ordered: bool = True) -> list[tuple[str, Figure, Figure]]:
    """``(words, first, second)`` of each comparison and change of
    ``sentence`` (a sentence of ``document``) that prints both of its
    figures, as this module reads them: ``words`` the comparative or the
    verb as printed ("slower than", "drops from"), ``first`` the subject's
    figure (a change's figure before), ``second`` the reference's (after);
    comparisons first, then changes, each in text order. ``ordered`` False:
    a pair printed after the comparison's clause ("faster than fp32 (0.03882
    ms against 0.04395 ms)") is read even where nothing tells whose each
    figure is, ``first`` and ``second`` then as printed. SG212
    (:mod:`studygen.checks.prose_timings`, unordered) asks whether the two
    were timed alike, whoever owns which."""
    text = sentence.block.text
    lowered = sentence.block.lowered[sentence.start:sentence.end]
    if len(sentence.tokens) < 2:
        return []
    found = []
    if "than" in lowered or ":" in lowered:
        found += [(" ".join(match.group(0).split()), subject, reference)
                  for match, subject, reference in _comparisons(document, sentence, ordered)]
    if "from" in lowered:
        found += [(" ".join(text[match.start():match.end()].split()), before, now)
                  for match, before, now, _ in _changes(sentence)]
    return found


def _pairs_after_clause(document: Document, sentence: Sentence, figures: list[Figure], start: int, end: int,
                        ordered: bool = True) -> list[tuple[Figure, Figure]]:
    """(subject, reference) of "the H100 is slower than the RTX 3090 (0.03613 ms against 0.04395 ms)": the two
    figures of the parenthesis right after the reference's name; none when the parenthesis holds no such pair or
    nothing tells which is whose. The pair may follow "with" instead ("... faster than the RTX 3090 with 0.03613 ms
    against 0.04395 ms"), read alike, and either figure may carry a place phrase ("0.2754 ms on the RTX 3080
    against 1.398 ms on the RTX 3070"). Whose each figure is: the place phrases where they name one side
    (:func:`_placed_owners`), else the table cells that print them (:func:`_cell_owners`).

    After a comma or colon that ends the reference's clause ("it is faster than fp32 at both shapes, 0.562 ms
    against 0.32 ms at 64x64 and 0.772 ms against 0.519 ms at 128x128") the pair is written in the clause's order,
    the subject's figure first, where neither tells otherwise; more pairs joined by "and" are the same
    comparison's, each read alike. A clause that hedges the comparison ("was expected to be faster") is not read.
    ``ordered`` False: the two as printed, whoever owns which (SG212 asks only how each was timed)."""
    text = sentence.block.text
    for opened in _PAIR_OPENING_RE.finditer(text, end, min(sentence.end, end + _REACH)):
        if any(c in text[end:opened.start()] for c in ";,"):
            return []
        inside = _pair_opened(text, sentence, figures, opened.end() - 1, opened.group(0))
        if inside is not None:
            break
    else:
        return []
    lead = opened.group(0)
    pairs = [inside[:3]]
    while lead in ",:" and (joined := _NEXT_PAIR_RE.match(text, inside[3], sentence.end)) is not None and \
            (inside := _pair_opened(text, sentence, figures, joined.end() - 1, lead)) is not None:
        pairs.append(inside[:3])
    pairs = [(first, second, places) for first, second, places in pairs
             if measured(second) and first.unit in (None, second.unit)]
    if not ordered:
        return [(first, second) for first, second, _ in pairs]
    # the subject's words: its own clause ("As on the A100, fp16 is faster ...": "fp16", not "A100")
    clause_start = max(sentence.start, max(text.rfind(c, sentence.start, start) for c in ",;:") + 1)
    if lead in ",:" and _HEDGED_RE.search(text, clause_start, start):
        return []
    subject_words, reference_words = text[clause_start:start], text[end:opened.start()]
    found = []
    for first, second, places in pairs:
        owners = _placed_owners(subject_words, reference_words, first, second, places) or \
            _cell_owners(document, subject_words, reference_words, first, second)
        if owners is None and lead in ",:":
            owners = first, second  # nothing tells otherwise: the clause's order
        if owners is not None:
            found.append(owners)
    return found


def _placed_owners(subject_words: str, reference_words: str, first: Figure, second: Figure,
                   places: tuple[str, str]) -> tuple[Figure, Figure] | None:
    """(subject, reference) as the place phrases of the two figures tell it ("0.2754 ms on the RTX 3080 against
    1.398 ms on the RTX 3070" after "the RTX 3070 is faster than the RTX 3080": the first is the reference's).
    A phrase's words, less those of the other phrase, vendor words and articles, name a side when that side's
    words hold all of them and the other side's do not; None when no phrase names a side, or both name one."""
    sides = []
    for own, other in zip(places, reversed(places)):
        words = frozenset(name_words(own)) - frozenset(name_words(other)) - VENDOR_WORD_SET - _ARTICLES
        by_subject, by_reference = mention(subject_words, words) is not None, mention(reference_words, words) is not None
        sides.append("subject" if by_subject and not by_reference else
                     "reference" if by_reference and not by_subject else None)
    if sides[0] == sides[1]:
        return None  # no side named, or one named by both phrases
    first_is_subject = sides[0] == "subject" or sides[1] == "reference"
    return (first, second) if first_is_subject else (second, first)


def _cell_owners(document: Document, subject_words: str, reference_words: str, first: Figure,
                 second: Figure) -> tuple[Figure, Figure] | None:
    """(subject, reference) as the table cells printing the two figures tell it: a cell whose words (row label and
    header) the subject's words name, and the reference's do not, prints the subject's figure. A cell is named by
    all the words that tell it from the other cell; where no pair of cells is named so (cells of two tables, which
    differ in more than the sentence names: another GPU, another build), by some of them and none of the other
    cell's, on both sides. None where the reading is not one."""
    pairs = [(a, b, a - b - VENDOR_WORD_SET, b - a - VENDOR_WORD_SET)
             for a in _cells_printing(document, first) for b in _cells_printing(document, second)]
    owners = set()
    for _, _, only_a, only_b in pairs:
        # the words that tell the two cells apart (mention finds no empty set: cells named alike tell nothing)
        if mention(subject_words, only_a) is not None and mention(reference_words, only_b) is not None:
            owners.add((first, second))
        if mention(subject_words, only_b) is not None and mention(reference_words, only_a) is not None:
            owners.add((second, first))
    if not owners:
        said = frozenset(w for _, _, w in prose_words(subject_words)), frozenset(w for _, _, w in prose_words(reference_words))
        for _, _, only_a, only_b in pairs:
            if _names_only(said[0], only_a, only_b) and _names_only(said[1], only_b, only_a):
                owners.add((first, second))
            if _names_only(said[0], only_b, only_a) and _names_only(said[1], only_a, only_b):
                owners.add((second, first))
    # one reading only: cells that print a figure twice may name either side, and then no table tells
    return owners.pop() if len(owners) == 1 else None


def _names_only(said: frozenset[str], own: frozenset[str], other: frozenset[str]) -> bool:
    """Whether words ``said`` by one side hold some of a cell's ``own`` distinguishing words and none of the other
    cell's."""
    return not said.isdisjoint(own) and said.isdisjoint(other)


def _pair_opened(text: str, sentence: Sentence, figures: list[Figure], opening: int,
                 lead: str) -> tuple[Figure, Figure, tuple[str, str], int] | None:
    """``(first, second, places, closed)`` of the two figures right after ``text[opening]`` (``lead``, the text
    that opens them: a parenthesis, "with", a comma or a colon), joined by "against", "vs" or the like, that end
    the parenthesis or (after "with") the sentence or its clause; after a comma or colon also a clause that "and"
    joins, and a place phrase after the second figure alone ("0.562 ms against 0.32 ms at 64x64") is both
    figures'. Each may carry a place phrase (:func:`~.operand_pairs.placed_gap`; the second's,
    :func:`~.operand_pairs.place_after`, only after the first's), whose words ``places`` holds ("" where none) and
    whose whole numbers are names, not figures; ``closed`` where the pair and its phrases end. None when no such
    pair."""
    after = [f for f in figures if f.start > opening]
    if len(after) < 2 or text[opening + 1:after[0].start].strip():
        return None
    first = after[0]
    # the second figure: the first after it that is no name's number ("on the RTX 3080")
    second = next((f for f in after[1:] if not is_label_number(f)), None)
    if second is None:
        return None
    first_place = placed_gap(text, first.end, second.start)
    if first_place is None:
        if second is not after[1] or not _PAIR_GAP_RE.fullmatch(text, first.end, second.start):
            return None
        if lead in ",:" and text[first.end:second.start].strip().lower() == "and":
            return None  # after a comma "A and B" lists two figures, it compares none
        # a phrase after the second figure alone ("0.03613 against 0.04395 ms at batch 1") may be both figures'
        closed = place_after(text, second.end, sentence.end)[0] if lead in ",:" else second.end
        places = ("", "")
    else:
        closed, second_place = place_after(text, second.end, sentence.end)
        places = (first_place, second_place)
    rest = text[closed:sentence.end].lstrip()
    if lead == "(":
        # "(0.04395 against 0.03613 ms, unstable)": a remark without figures after the pair leaves it the pair
        ends = (rest[:1] or ".") in ")" or _REMARK_RE.match(rest) is not None
    else:
        ends = (rest[:1] or ".") in ").,;:" or (lead in ",:" and _NEXT_PAIR_RE.match(text, closed) is not None)
    if any(not is_label_number(f) for f in after if second.end < f.start < closed) or not ends:
        return None
    return first, second, places, closed


def _cells_printing(document: Document, figure: Figure) -> list[frozenset[str]]:
    """The names (header and row-label words, :func:`~.header_names.name_words`) of each table cell of the
    document that prints ``figure``'s digits, at most :data:`_CELLS` of them, in table order."""
    found = []
    for unit, names in _printed_cells(document).get(figure.text, ()):
        if unit in (None, figure.unit or unit):
            found.append(names)
            if len(found) == _CELLS:
                break
    return found


# Each document's table cells by the text of the figure they print, made once a document (Document.memo): every
# comparison whose pair is ordered by cells looks its two figures up (a comparison per sentence of a README made the
# names of every table's rows again for each, 10 ms of linting the shipped READMEs)
_PRINTED_CELLS = "printed cells"


def _printed_cells(document: Document) -> dict[str, list[tuple[str | None, frozenset[str]]]]:
    """``{printed figure text: [(its series' unit, the cell's header and row-label words), ...]}`` over every
    table cell of ``document`` that prints a figure, in table order."""
    index = document.memo.get(_PRINTED_CELLS)
    if index is None:
        index = document.memo[_PRINTED_CELLS] = {}
        for table in document.tables:
            labels = [frozenset(w for c in table.label_columns for w in name_words(row.cells[c])) for row in table.rows]
            for series in table.series:
                header = frozenset(name_words(series.header))
                for row, printed in series.figures:
                    index.setdefault(printed.text, []).append((series.unit, labels[row] | header))
    return index


def _as_written(text: str, figure: Figure) -> str:
    """``figure`` with its unit as the document prints them ("6 µs", "2.84ms"), blanks made single spaces."""
    return " ".join(text[figure.start:figure.end].split())


def states_its_figures(sentence: Sentence, start: int, end: int) -> bool:
    """Whether the comparison whose comparative runs from ``start`` to
    ``end`` (past "than") in ``sentence.block.text`` prints a figure beside
    each of its names, the comparison this module reads (SG107 leaves it here)."""
    figures = [t.figure for t in sentence.tokens if t.figure is not None]
    return _beside_names(sentence.block.text, figures, start, end) is not None


def _beside_names(text: str, figures: list[Figure], start: int, end: int,
                  first_subject: Figure | None = None) -> tuple[Figure, Figure] | None:
    """(subject, reference) of the comparative at ``text[start:end]``: "int8
    (0.0440 ms) is faster than fp16 (0.0388 ms)"; in a clause joined to one
    read before ("and slower than bf16 (0.0471 ms)"), the subject is that
    one's, ``first_subject`` (none: the clause is not read)."""
    before = [f for f in figures if f.end <= start]
    after = [f for f in figures if f.start >= end]
    if not before or not after:
        return None
    subject, reference = before[-1], after[0]
    gap = text[subject.end:start]
    if not _SUBJECT_GAP_RE.match(gap):
        return None
    if _JOINED_CLAUSE_RE.search(gap):
        if first_subject is None:
            return None
        subject = first_subject
    if not (measured(subject) and subject.unit == reference.unit):
        return None
    name = text[end:reference.start]
    # the figure in the parenthesis the name opens ("beta (WASM, 33 ms)"): a clause break inside it is no break
    # of the name, one before it is
    opening = name.rfind("(")
    outside = name[:opening] if opening != -1 else name
    inside = opening != -1 and ")" not in name[opening:]
    if len(name) > _REACH or not (inside or _FIGURE_OPENING_RE.search(name)) or any(c in outside for c in ";,"):
        return None
    return subject, reference


__all__ = ["HINT", "comparison_findings", "compared_operands", "states_its_figures"]
