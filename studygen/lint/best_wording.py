"""The wording of a best-of claim (SG107, :mod:`.best_rows`): the one
superlative of a clause, and whether the clause says it of the row whose
figure it quotes, over the rows of that figure's column.

A superlative is read (:func:`superlative`) when it is the clause's only one
and nothing hedges it ("one of the fastest", "near the peak", "second-best",
"at best"); a clause that denies, conditions or hedges what it says
(:func:`unsure`: "not", "if", "can", "hardly", "far from") is not read.

It is a claim about the quoted row only in these shapes (:func:`predicated`),
the row's name, the figure or nothing standing before it:

- a verb: "GA peaks at 2.58x", "fused leads at 3.8 GB/s" (a verb whose clause
  puts another row before it, "slower than int8, which leads", is not read,
  nor "leads" with an object: "leads the float formats", "leads fp32");
- after a copula, with or without an article: "k1 is (also, still, by far) the fastest", "remains the
  best", "k1 is fastest";
- after a possessive: "GA's highest speedup", "its minimum throughput of 433";
- after a verb of having, naming the column's quantity: "naive has the lowest
  time", "reaches a maximum throughput of 433 img/s", "hits a peak at 2.2x";
- opening the clause, or after a comma: "The fastest kernel takes 12.4 ms",
  "the highest throughput is a's", "int8, the fastest variant, takes 3.1 ms".

Anywhere else it names another row than the subject ("trails the fastest",
"slower than the best", "twice the best", "compared with the fastest
variant"). What it qualifies must be nothing, the quantity the column
measures (its header's quantity words, the words of its kind: "lowest
latency" over ``time (ms)``; "value", "result", "use") or, for "fastest"
and "slowest", a word for a row ("variant", "configuration", "kernel", a
label column's header; never for "best" or "worst": "the best choice", "the
best option" recommend a row): "the best trade-off", "the best accuracy"
over a time, "the highest-precision variant", "the smallest GPU" and "the
largest model" rank something else. "Largest", "lowest" and "peak" rank a
figure, never a row ("the largest model" is a size). What follows that must
end the phrase: punctuation, a figure, "at", a verb ("takes", "is"), a
phrase naming the whole set ("in this study", "of all", "overall"), or a
preposition before a figure ("of 433 img/s", "with 12.4 ms"); another
preposition ("the fastest variant for accuracy-critical work", "of the
three"), a relative clause ("that keeps accuracy") or another word ("the
fastest float variant") restricts the set. A sentence naming a restricted
set ("among", "of the float variants", "within", "excluding", "between",
"other than") is not read: the set it means is not one the tables' labels
can resolve. A cause after the claim ("due to", "thanks to", "owing to", "because",
"as a result of": :data:`CAUSE_RE`) explains the ranking and names no set: the
readers stop before it. Whatever is not plainly one of these is left unread: a
missed claim costs less than a false finding.

Cases: ``tests/lint/test_best_wording.py``, ``tests/lint/test_best_rows.py``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..patterns import lazy_compile
from .document import Series, Table
from .header_names import name_words
from .text import stem
from .variant_pairs import QUANTITY_WORDS, kind_of_series, kind_of_words

# group: peak (the largest, subject fixed), high / low (the largest / smallest), better / worse (by kind)
SUPERLATIVE_RE = lazy_compile(
    r"\b(?:(?P<peak>peak(?:s|ed|ing)?|maximum|minimum)"
    r"|(?P<high>highest|largest|biggest)|(?P<low>lowest|smallest|fewest)"
    r"|(?P<better>best|fastest|quickest|leads?(?!\s+to\b))|(?P<worse>worst|slowest))\b",
    re.IGNORECASE,
)
# words every match of SUPERLATIVE_RE holds (lower case): a block without one is not searched
STEMS = ("peak", "maximum", "minimum", "highest", "largest", "biggest", "lowest", "smallest", "fewest", "best",
         "fastest", "quickest", "lead", "worst", "slowest")
# "one of the fastest", "among the best", "near the peak", "second-best", "next-best", "close to its maximum"
_HEDGE_BEFORE_RE = lazy_compile(
    r"\b(?:one\s+of|among|amongst|near|nearly|almost|close\s+to|second|third|next|not|never|arguably|"
    r"approaching|below|under|within)\s+(?:(?:the|its|their|his|her|a)\s+)?(?:[\w-]+\s+)?[-\s]?$",
    re.IGNORECASE,
    needs=("one", "among", "near", "almost", "close", "second", "third", "next", "not", "never", "arguably", "approaching",
           "below", "under", "within"))
_HEDGE_AFTER_RE = lazy_compile(r"^(?:[-\s]*(?:of\b|case\b|practice|effort|known|ever|possible|-?in-class))",
                               re.IGNORECASE)
_IDIOM_BEFORE_RE = lazy_compile(r"\bat\s+(?:its\s+|their\s+)?$|\b(?:second|third|next|co)-$", re.IGNORECASE)
# a clause that denies, conditions or hedges what it says ("hardly the fastest", "far from the best")
_UNSURE_RE = lazy_compile(
    r"\b(?:not|never|no|nor|if|when|whenever|unless|can|could|may|might|would|should|likely|probably|"
    r"perhaps|expected|typically|usually|often|sometimes|theoretical(?:ly)?|hardly|barely|scarcely|rarely|"
    r"seldom|nowhere|far\s+from|by\s+no\s+means)\b|n't\b", re.IGNORECASE)
# "peak memory of 68 GB", "maximum power": each run's own statistic, not the largest row
_PER_RUN_AFTER_RE = lazy_compile(
    r"^[\s*_]*(?:gpu\s+|host\s+|device\s+|resident\s+)?(?:memory|mem|vram|ram|rss|usage|allocat\w*|footprint|power|"
    r"temperature|temp|bandwidth|bw|flops|tflops|tops|clock|context|batch|sequence|length|tokens|lr|learning)\b",
    re.IGNORECASE)
_POSSESSIVE_BEFORE_RE = lazy_compile(r"(?:'s|’s|\b(?:its|their))\s+$", re.IGNORECASE)
# a set the tables' labels cannot resolve: "among fp16 and fp32", "Of the float variants, ...", "excluding int8"
_RESTRICTED_SET_RE = lazy_compile(
    r"\b(?:among|amongst|within|between|excluding|excludes?|except|besides|apart\s+from|aside\s+from|"
    r"other\s+than|outside\s+of|save\s+for|barring|out\s+of)\b|(?:^|[,;:])[\s*_]*of\s+(?!all\b|every\b)",
    re.IGNORECASE)

_MARKUP_RE = lazy_compile(r"[*_`]")
_VERBS = frozenset({"peaks", "peaked", "peaking", "leads"})
# a verb form after these is a noun ("the peaks") or has another subject ("slower than int8, which leads")
_NO_SUBJECT_BEFORE_RE = lazy_compile(
    r"\b(?:the|our|this|these|those|than|from|to|with|behind|of|at|in|on|for|by|and|or)\s*$", re.IGNORECASE)
_OTHER_SUBJECT_RE = lazy_compile(r"\b(?:than|which|who|whose|unlike|compared|versus|vs)\b", re.IGNORECASE)
# a relative clause opening before a superlative had by its row: "the strided case (...), which got the largest"
RELATIVE_HAVING_RE = lazy_compile(r"[,)][\s*_`]*(?:which|who)\s+(?=[a-z]+\s+(?:the|a)[\s*_`]+$)", re.IGNORECASE)
_ADVERB = r"(?:(?:also|still|again|clearly|easily|now|by\s+far|always|consistently|uniformly)\s+)?"
COPULA_BEFORE_RE = lazy_compile(
    rf"\b(?:is|was|are|were|remains|remained|stays|stayed|becomes|became)\s+{_ADVERB}(?:the\s+)?$", re.IGNORECASE)
# a clause giving the superlative's cause ("... due to its GPU backend", "thanks to fusion", "because it batches"):
# it explains the ranking and restricts no row, so the words after it are not read as the set's bounds
# a comment on it after a comma ("..., underscoring how much precision matters") likewise restricts no row
_CAUSE_WORDS = r"\b(?:due\s+to|thanks\s+to|owing\s+to|because|as\s+a\s+result\s+of)\b"
_COMMENT_WORDS = r"(?:underscoring|highlighting|showing|suggesting|indicating|confirming|demonstrating|reflecting)\b"
CAUSE_RE = lazy_compile(rf"[\s,]*{_CAUSE_WORDS}|\s*,\s*{_COMMENT_WORDS}", re.IGNORECASE)
# CAUSE_RE less the spaces and commas a match may start with, which cause_start walks back over: searched whole,
# CAUSE_RE tried each place of a run of 20,000 spaces or ', ' as a start and scanned the run from there (8.4 s of
# CPU for one sentence, quadratic; attack30)
_CAUSE_CORE_RE = lazy_compile(rf"{_CAUSE_WORDS}|(?P<comma>,)\s*{_COMMENT_WORDS}", re.IGNORECASE)
_HAVING_VERBS = ("has", "have", "had", "gives", "gave", "delivers", "delivered", "achieves", "achieved", "reaches", "reached",
                 "hits", "posts", "posted", "shows", "showed", "records", "recorded", "attains", "attained", "sustains",
                 "sustained", "gets", "got", "sees", "saw")
HAVE_BEFORE_RE = lazy_compile(rf"\b(?:{'|'.join(_HAVING_VERBS)})\s+{_ADVERB}(?:the|a)\s+$", re.IGNORECASE, needs=_HAVING_VERBS)
_OPENING_BEFORE_RE = lazy_compile(r"(?:^|,)\s*(?:the\s+)?$", re.IGNORECASE)

# one word of the phrase a superlative qualifies ("-precision" of "highest-precision" included)
_PHRASE_WORD_RE = lazy_compile(r"[\s*_`]*-?([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)")
# what ends that phrase: punctuation, a figure, "at", a verb, or a preposition (group prep) judged by what follows
_PHRASE_END_RE = lazy_compile(
    r"[\s*_`]*(?:$|[,;:.()!?\u2013\u2014\d]|(?:at|is|was|are|were|remains|remained|stays|stayed|takes|took|needs|"
    r"needed|runs|ran|reaches|reached|hits|achieves|achieved|delivers|delivered|gives|gave|comes|came|belongs|"
    r"sits|lands|landed|completes|completed|finishes|finished|posts|posted|records|recorded|sustains|sustained|"
    r"serves|served|processes|processed|clocks|clocked|measures|measured|scores|scored|goes|went|has|had|shows|"
    r"showed|yields|yielded|requires|required)\b|(?:in|of|across)\s+(?:this|the|our|these)\s+(?:study|studies|"
    r"survey|report|tables?|data|results?|runs?|measurements?)\b|of\s+(?:all|any)\b|overall\b"
    r"|(?P<prep>of|with|on|in|for|across|under|over)\b)",
    re.IGNORECASE)
_FIGURE_NEXT_RE = lazy_compile(r"[\s*_`~]*\d")

# what the column's figure is, whatever it measures
_FIGURE_NOUNS = frozenset({"value", "figure", "number", "result", "use", "usage", "consumption", "overall"})
# quantity words a header may name besides those of a kind
_MEASURE_NOUNS = QUANTITY_WORDS | frozenset({"speedup", "slowdown", "ratio", "gain", "improvement", "goodput", "ttft",
                                             "tpot", "itl", "tbt", "bandwidth", "score", "rate", "performance"})
# what "the fastest" may rank whatever the column measures
_MERIT_NOUNS = frozenset({"performance", "speed"})
# words for a row of a table: what "the fastest" or "the slowest" may rank (never "best", "largest" or "lowest")
ROW_NOUNS = frozenset({
    "variant", "configuration", "config", "option", "setting", "backend", "run", "setup", "model", "method", "approach",
    "engine", "kernel", "implementation", "framework", "library", "system", "mode", "version", "build", "combination",
    "choice", "candidate", "entry", "row", "one", "performer", "contender", "gpu", "card", "device", "machine",
    "instance", "node", "platform", "strategy", "algorithm", "solution", "runtime", "provider", "server"})


class Best(NamedTuple):
    """A superlative read from a clause: ``word`` as written at offset ``start`` (``end``), ``group`` as
    SUPERLATIVE_RE names it; ``peak`` True when the subject stays fixed (a peak, a possessive)."""

    word: str
    group: str
    start: int
    end: int
    peak: bool


def superlative(text: str, start: int, end: int) -> Best | None:
    """The one unhedged superlative of ``text[start:end]``; None for none, a hedged one, or two."""
    found = []
    for match in SUPERLATIVE_RE.finditer(text, start, end):
        before, after = text[max(start, match.start() - 40):match.start()], text[match.end():end]
        if _HEDGE_BEFORE_RE.search(before) or _IDIOM_BEFORE_RE.search(before) or _HEDGE_AFTER_RE.match(after):
            return None
        group = match.lastgroup
        if group == "peak" and _PER_RUN_AFTER_RE.match(after):
            return None
        peak = group == "peak" or _POSSESSIVE_BEFORE_RE.search(before) is not None
        found.append(Best(match.group(0), group, match.start(), match.end(), peak))
    return found[0] if len(found) == 1 else None


def unsure(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` denies, conditions or hedges what it says."""
    return _UNSURE_RE.search(text, start, end) is not None


def restricted(sentence_text: str) -> bool:
    """True when a sentence names a set of rows its words cannot resolve ("among", "of the float variants")."""
    return _RESTRICTED_SET_RE.search(sentence_text) is not None


def predicated(text: str, start: int, end: int, best: Best, series: Series) -> bool:
    """True when the superlative ``best`` of ``text[start:end]`` is said of the quoted row over the rows of
    ``series`` (one of the module's shapes, qualifying the column's quantity or a row)."""
    before = _MARKUP_RE.sub("", text[start:best.start])
    if _OTHER_SUBJECT_RE.search(before):
        return False
    if best.word.lower() in _VERBS:
        if _NO_SUBJECT_BEFORE_RE.search(before):
            return False
        # "leads" with no object ("fused leads at 3.8 GB/s"), not "leads the float formats", "leads fp32"
        return best.word.lower() != "leads" or _ends_phrase(text, best.end, end)
    having = HAVE_BEFORE_RE.search(before) is not None
    if not (having or _POSSESSIVE_BEFORE_RE.search(before) or COPULA_BEFORE_RE.search(before)
            or _OPENING_BEFORE_RE.search(before)):
        return False
    # a row's noun only where the superlative is said of the row ("is the fastest variant"), not had by it
    # (never for "best" or "worst": "the best choice", "the best default" recommend a row, they rank none)
    rows = best.group in ("better", "worse") and not having and best.word.lower() not in ("best", "worst")
    heads, modifiers = _qualifiable(series, rows)
    words, position = _phrase(text, best.end, end, modifiers)
    if words and words[-1] not in heads:
        return False  # "the lowest GPU" over a "GPU time" column: the phrase ends on no quantity
    if having and not words and best.group != "peak":
        return False  # "has the best" ranks nothing named; "hits a peak" is the figure's own
    return _ends_phrase(text, position, end)


def qualifier_end(text: str, best: Best, end: int, series: Series) -> int:
    """The offset in ``text`` (before ``end``) where the phrase the superlative ``best`` qualifies ends: past
    the column's header and quantity words and the nouns of a row right after it ("lowest int8 time", "fastest
    fp16 GPU"), ``best.end`` when none follow."""
    return _phrase(text, best.end, end, _qualifiable(series, True)[1])[1]


def _phrase(text: str, position: int, end: int, modifiers: frozenset[str]) -> tuple[list[str], int]:
    """(the stems of the words of ``modifiers`` standing one after another from ``position``, the offset past
    the last)."""
    words = []
    while (match := _PHRASE_WORD_RE.match(text, position, end)) and stem(match.group(1)) in modifiers:
        words.append(stem(match.group(1)))
        position = match.end()
    return words, position


def _qualifiable(series: Series, rows: bool) -> tuple[frozenset[str], frozenset[str]]:
    """(heads, words) a superlative may qualify in a claim about ``series``: heads end the phrase (the quantity
    the column measures, a figure's noun, and where ``rows`` a row's noun), words may stand in it (heads and the
    header's other words)."""
    header = set(name_words(series.header)) | series.keywords
    heads = {word for word in header if word in _MEASURE_NOUNS} | _FIGURE_NOUNS
    kind = kind_of_series(series)
    if kind is not None:
        heads |= {word for word in QUANTITY_WORDS if kind_of_words((word,)) == kind}
    if rows:
        heads |= ROW_NOUNS | _MERIT_NOUNS | _label_headers(series.table)
    return frozenset(heads), frozenset(heads | header)


def _label_headers(table: Table) -> set[str]:
    """The words of the table's label column headers ("kernel", "engine"): the rows' own noun."""
    return {word for column in table.label_columns for word in name_words(table.headers[column])}


def _ends_phrase(text: str, position: int, end: int) -> bool:
    """True when what follows a superlative's phrase at ``position`` ends it: punctuation, a figure, "at", a
    verb, or a preposition before a figure ("of 433 img/s", "with 12.4 ms")."""
    match = _PHRASE_END_RE.match(text, position, end)
    if match is None:
        return False
    # "the largest model of the three", "the fastest variant for accuracy-critical work": a restricted set
    return match.group("prep") is None or _FIGURE_NEXT_RE.match(text, match.end(), end) is not None


def cause_start(text: str, pos: int, endpos: int) -> int | None:
    """Where the leftmost match of :data:`CAUSE_RE` in ``text[pos:endpos]``
    starts (``CAUSE_RE.search(text, pos, endpos).start()``), None for none;
    linear in the text searched."""
    core = _CAUSE_CORE_RE.search(text, pos, endpos)
    if core is None:
        return None
    return run_start(text, core.start(), pos, commas=core.group("comma") is None)


def run_start(text: str, start: int, pos: int, *, commas: bool) -> int:
    """``start`` moved back over the whitespace (and, with ``commas``, the
    commas) before it, no further than ``pos``: where a pattern opening with
    ``\\s*`` (``[\\s,]*``) that matches at ``start`` first matches."""
    while start > pos and (text[start - 1].isspace() or (commas and text[start - 1] == ",")):
        start -= 1
    return start


__all__ = ["CAUSE_RE", "cause_start", "run_start", "COPULA_BEFORE_RE", "HAVE_BEFORE_RE", "RELATIVE_HAVING_RE", "ROW_NOUNS", "STEMS", "SUPERLATIVE_RE",
           "Best", "predicated", "qualifier_end", "restricted", "superlative", "unsure"]
