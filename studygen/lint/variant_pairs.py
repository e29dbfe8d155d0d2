"""Which two variant columns of which table a comparative sentence is about
(SG103 percent changes, SG107 universal comparisons).

"int8 plans are 44% smaller than fp16 plans", "int8 is faster than fp16 on
every GPU": the sentence names two variants, a quantity and (maybe) rows.
This module ties such a sentence to **one** table, or to none:

- **Quantity kind.** Each measured column has a kind, by its unit first
  (ms, s, us, ns: ``time``; MiB, GB …: ``size``; the rates of
  :data:`~studygen.lint.figures.RATE_UNITS`, tokens/s, req/s, GB/s …:
  ``throughput``; AP: ``quality``), else by its header words ("latency",
  "throughput", "memory"; "perplexity", "WER", "loss", "error rate":
  ``error``, a quality that is better lower), else by those of the heading
  over its table ("Perplexity" over ``FP8 cache`` and ``Q4 cache``). A
  sentence's kind comes from its quantity words ("latency", "plan",
  "memory", "throughput", "AP", "perplexity"); with none, from its
  comparative word ("faster" is ``time`` or ``throughput``, "smaller"
  ``size``, "more accurate" and "higher quality" ``quality`` or ``error``);
  a sentence naming two kinds, or none, is not read.
- **Variants.** Among a table's columns of that kind, a column is named when
  every word of its header that tells it from the others (its unit and the
  words all of them share left out: ``fp16`` of ``fp16 (ms)``) is in the
  sentence; columns told apart by a statistic (``p50``, ``p95``) are not
  variants, and the table offers no pair. The reference (Y) is the column named right after "than", "vs",
  "over", "relative to", "compared to/with", "against" or "from", or named
  as the owner of the quantity a verb reduces ("cuts the fp16 time by");
  the other named column is the variant (X). With one column named and
  exactly two of the kind, the other is the second one ("int8 reduces the
  latency by 44%": int8 against the table's other column).
- **One table.** Every table of the document offering such a pair (and
  rows the clause names, :meth:`~studygen.lint.document.Table.restrict`) is
  a candidate (:func:`candidates`), and a table where the sentence names a
  column of the kind but no pair follows (two of three variants named, no
  reference) makes the tie unclear; :func:`tie` reads the sentence only when
  exactly one table is a candidate (a percent change). SG107 judges a
  universal comparison against each candidate (see its module).

A sentence that cannot be tied this way is not checked here: lint stays
quiet rather than guess which figures were meant. When no table offers a
pair, :mod:`studygen.lint.table_joins` pairs the two variants' figures
across tables instead.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..patterns import lazy_compile
from .document import Document, Series, Table
from .figures import RATE_UNITS, RATIO_UNITS, Figure, statistic_of
from .header_names import mention as header_mention
from .header_names import name_words, prose_words
from .restriction import TextView
from .text import difference_header, label_tokens, normalize, stem
from .worded_ratios import WORDED_RATIO

TIME, SIZE, THROUGHPUT, QUALITY, ERROR = "time", "size", "throughput", "quality", "error"
# kinds where a larger figure is better (QUALITY: AP, accuracy; ERROR, a quality measured as what goes wrong:
# perplexity, WER, loss, is better lower)
HIGHER_IS_BETTER = frozenset({THROUGHPUT, QUALITY})
QUALITY_KINDS = (QUALITY, ERROR)

_KIND_OF_UNIT = {
    "ms": TIME, "s": TIME, "us": TIME, "ns": TIME,
    "MiB": SIZE, "GiB": SIZE, "KiB": SIZE, "MB": SIZE, "GB": SIZE, "KB": SIZE,
    **dict.fromkeys(RATE_UNITS, THROUGHPUT),  # tokens/s, images/s, requests/s, GB/s ...: higher is better
    "AP": QUALITY, "AP50": QUALITY, "AP75": QUALITY,
}
# serving metrics by their names (time to first token, time per output token, inter-token latency, time
# between tokens, end-to-end latency; goodput): each a quantity of its own, never a variant of another
METRIC_NAMES = {"ttft": TIME, "tpot": TIME, "itl": TIME, "tbt": TIME, "e2el": TIME, "goodput": THROUGHPUT}
# quantity words (stems) -> kind; read in header keywords and in sentences
_KIND_WORDS = {
    "latency": TIME, "time": TIME, "runtime": TIME, "duration": TIME, "ms": TIME,
    "size": SIZE, "plan": SIZE, "memory": SIZE, "footprint": SIZE, "disk": SIZE, "file": SIZE, "checkpoint": SIZE,
    "mib": SIZE, "gib": SIZE, "mb": SIZE, "gb": SIZE,
    "throughput": THROUGHPUT, "fps": THROUGHPUT, "qps": THROUGHPUT,
    "ap": QUALITY, "ap50": QUALITY, "ap75": QUALITY, "map": QUALITY, "accuracy": QUALITY,
    # "losse": the stem of "losses". "error" alone is not a kind: "standard error", "error bars", "timing error
    # (ms)" are no quality; "error rate" is (_KIND_PAIRS)
    "perplexity": ERROR, "ppl": ERROR, "wer": ERROR, "cer": ERROR, "loss": ERROR, "losse": ERROR,
}
# two adjacent quantity words (stems) -> kind: "word error rate", "error rate"
_KIND_PAIRS = {("error", "rate"): ERROR}
# every quantity word: what a header or a heading says is measured, never what names a variant (table_joins)
QUANTITY_WORDS = frozenset(_KIND_WORDS) | frozenset(word for words in _KIND_PAIRS for word in words)
# what a column's header may say it measures: a column told apart from another by one of these is no variant
_MEASURED_WORDS = QUANTITY_WORDS | frozenset(METRIC_NAMES)
# "batch size", "input size": a label of the rows, not the size a comparison is about
_LABEL_BEFORE_SIZE = frozenset({"batch", "input", "image", "tile", "block", "group", "window", "chunk", "page", "beam",
                                "context", "vocab", "step", "sample", "patch"})
# comparative word -> the kinds it may be about when the sentence names no quantity
COMPARATIVE_KINDS = {
    "faster": (TIME, THROUGHPUT), "slower": (TIME, THROUGHPUT), "quicker": (TIME, THROUGHPUT),
    "smaller": (SIZE,), "larger": (SIZE,), "bigger": (SIZE,),
    # a verb of ranking ("outperforms", "trails": RANKING_VERB_RE) says which is better, of any kind but size
    "outperforms": (TIME, THROUGHPUT, *QUALITY_KINDS), "trails": (TIME, THROUGHPUT, *QUALITY_KINDS),
}
# "more accurate than", "higher quality than", "worse quality than": better (group 1) or worse (group 2) on a
# quality kind, whichever way its figures go (lower perplexity is the more accurate)
QUALITY_COMPARATIVE_RE = lazy_compile(
    r"^(?:(more|higher|better)|(less|lower|worse))\s+(?:accurate|quality)\s+than$", re.IGNORECASE)
# Two readings of "faster" over the one unit table, which differ on a rate: a rate is what "faster" may be about
# (SPEED_UNITS: the column a speed clause names, studygen.lint.prose_rows), but a rate rises when a run gets faster
# where a duration falls (DURATION_UNITS: SG103 orders the two figures printed after "12% faster" from high to low
# in these only). One set for both would drop "5% faster (100 to 103 tokens/s)" or "1.8x faster" of a tokens/s column.
DURATION_UNITS = frozenset(unit for unit, kind in _KIND_OF_UNIT.items() if kind == TIME)
SPEED_UNITS = frozenset(unit for unit, kind in _KIND_OF_UNIT.items() if kind in COMPARATIVE_KINDS["faster"])
# header words of such a column ("ms" among them is a unit word, which a series' keywords never hold)
SPEED_WORDS = frozenset(word for word, kind in _KIND_WORDS.items() if kind in COMPARATIVE_KINDS["faster"])
# "fp8 outperforms fp16", "beats", "leads", "is ahead of"; "trails", "lags behind", "falls behind",
# "underperforms": a comparison without "than", its reference right after the verb. Group 1: better,
# group 2: worse. "leads to" (a cause) and "behind" without a verb of position ("the reason behind") are none.
RANKING_VERB_RE = lazy_compile(
    r"\b(?:(outperform(?:s|ed|ing)?|beat(?:s|ing)?|lead(?:s|ing)?(?!\s+to\b)|"
    r"(?:is|are|was|were|stays?|remains?)\s+ahead\s+of)"
    r"|(trail(?:s|ed|ing)?|lag(?:s|ged|ging)?(?:\s+behind)?|underperform(?:s|ed|ing)?|"
    r"(?:is|are|was|were|falls?|fell|stays?|remains?)\s+behind))\b",
    re.IGNORECASE,
)
# What every match of RANKING_VERB_RE holds, lower case: a text whose folded form (ascii_folded) holds
# none of these is not searched for a verb of ranking. Extend it with the pattern.
RANKING_STEMS = ("outperform", "beat", "lead", "ahead", "trail", "lag", "underperform", "behind")
# "than fp16", "vs fp16", "compared with fp16": the variant named after it is the reference
# Where a clause ends inside a sentence: at ";", at ", and/but/while/whereas", at "while"/"whereas": the
# clause a percent change (prose_changes) or a universal comparison (SG107) is read in.
CLAUSE_END_RE = lazy_compile(r";|,\s*(?:and|but|while|whereas)\b|\b(?:while|whereas)\b")
_COMPARISON_WORDS = (
    r"(?:\bthan|\bvs\.?|\bversus|\bover|\bagainst|\bfrom|\brelative\s+to|\bcompared\s+(?:to|with)|"
    r"\boutperform(?:s|ed|ing)?|\bbeat(?:s|ing)?|\blead(?:s|ing)?|\bahead\s+of|\btrail(?:s|ed|ing)?|"
    r"\blag(?:s|ged|ging)?(?:\s+behind)?|\bunderperform(?:s|ed|ing)?|\bbehind)"
)
# "than the", and a ratio in words ending where its reference begins ("twice as fast as", .worded_ratios)
# "4% above fp32", "0.4% below fp16": a figure's place against the reference, which a percent change states
# (studygen.lint.prose_changes) but no comparison without a figure does (not in COMPARISON_RE: "the table below")
_REFERENCE_LEAD_END = r"\s+(?:the\s+|a\s+|an\s+)?[`*_]*$"
_REFERENCE_BEFORE_RE = lazy_compile(f"(?:{_COMPARISON_WORDS}|%\\s*(?:above|below))" + _REFERENCE_LEAD_END, re.IGNORECASE)
# The ratio in words apart, behind the words each one holds: it is two thirds of the union's compile (about
# 1.1 of 1.6 ms), and a text holding none of its words (most) never compiles it.
_WORDED_REFERENCE_BEFORE_RE = lazy_compile(
    WORDED_RATIO + _REFERENCE_LEAD_END, re.IGNORECASE,
    needs=("twice", "thrice", "times", "half", "third", "quarter", "fourth", "fifth", "tenth", "halve", "double", "triple"))


def reference_before(text: str, end: int) -> bool:
    """Whether ``text[:end]`` ends in the words that lead to a reference: a comparison ("faster than the"), a
    ratio in words ("twice as fast as") or a figure's place ("4% above"), then maybe "the", "a" or markup. As
    one pattern of the three would answer: it finds a match wherever one of them does."""
    return (_REFERENCE_BEFORE_RE.search(text, 0, end) is not None
            or _WORDED_REFERENCE_BEFORE_RE.search(text, 0, end) is not None)
# a word of comparison anywhere ("than", "vs", "outperforms" …): what comes after it is the reference
COMPARISON_RE = lazy_compile(_COMPARISON_WORDS + r"\b", re.IGNORECASE)


def kind_of_unit(unit: str | None) -> str | None:
    """The quantity kind of a figure printed in ``unit`` (``ms``: time,
    ``tokens/s``: throughput); None for no unit or one of no known kind."""
    return _KIND_OF_UNIT.get(unit) if unit is not None else None


def _kinds_of_keywords(words: frozenset[str]) -> set[str]:
    """The kinds a set of keywords (stems, in no order) names, a pair of :data:`_KIND_PAIRS` by both its words."""
    kinds = {_KIND_WORDS[word] for word in words if word in _KIND_WORDS}
    kinds.update(kind for pair, kind in _KIND_PAIRS.items() if words.issuperset(pair))
    return kinds


def _kinds_of_tokens(stems: list[str]) -> set[str]:
    """The kinds a run of word stems names, a pair of :data:`_KIND_PAIRS` by its two words side by side."""
    kinds = {_KIND_WORDS[word] for word in stems if word in _KIND_WORDS}
    kinds.update(_KIND_PAIRS[pair] for pair in zip(stems, stems[1:]) if pair in _KIND_PAIRS)
    return kinds


def kind_of_series(series: Series, heading: bool = True) -> str | None:
    """The quantity kind of a measured column: by unit, else by its header
    words, else (``heading``) by the quantity words of the heading over its
    table ("Perplexity" over ``FP8 cache`` and ``Q4 cache``) when they name
    one kind; None for a ratio or percentage column, a unit of no known kind,
    or header words or a heading naming none or two."""
    if series.unit in RATIO_UNITS:
        return None
    if series.unit is not None:
        return _KIND_OF_UNIT.get(series.unit)
    kinds = _kinds_of_keywords(series.keywords)
    if not kinds and heading:
        kinds = _kinds_of_keywords(series.table.heading_words)
    return kinds.pop() if len(kinds) == 1 else None


def metric_kinds(text: str) -> tuple[str, ...]:
    """The one kind the serving metrics ``text`` names have ("cuts H100 TTFT by 26%": time), else ().
    Read by a percent change only: elsewhere (table_joins, SG107) a metric's name is no kind word yet."""
    kinds = {METRIC_NAMES[word] for word in (stem(token) for token in label_tokens(normalize(text)))
             if word in METRIC_NAMES}
    return (kinds.pop(),) if len(kinds) == 1 else ()


def kind_of_words(words: tuple[str, ...]) -> str | None:
    """The one kind ``words`` (tokens of a label: "latency", "ms") name, else None."""
    kinds = _kinds_of_tokens([stem(word) for word in words])
    return kinds.pop() if len(kinds) == 1 else None


def quality_comparative(comparison: str) -> str | None:
    """"better" or "worse" for a comparison of quality as written ("more
    accurate than", "lower quality than"), else None."""
    match = QUALITY_COMPARATIVE_RE.match(" ".join(comparison.split()))
    if match is None:
        return None
    return "better" if match.group(1) else "worse"


def quantity_stems(tokens: tuple[str, ...] | list[str]) -> list[str]:
    """The stems of ``tokens`` less each "size" a row label's word names ("batch size", "input size"): a
    label of the rows, not the size a claim is about."""
    return [stem(token) for index, token in enumerate(tokens)
            if not (index and tokens[index - 1] in _LABEL_BEFORE_SIZE and stem(token) == "size")]


def kinds_named(text: str, comparative: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The kinds ``text`` may be about: the one its quantity words name, else
    those its ``comparative`` word allows (see the module docstring), or
    ``allowed`` when given (:data:`QUALITY_KINDS` for "more accurate"); ()
    when it names two kinds or nothing tells."""
    named = _kinds_of_tokens(quantity_stems(label_tokens(normalize(text))))
    if len(named) > 1:
        return ()
    if allowed is None:
        allowed = COMPARATIVE_KINDS.get(comparative.lower(), ())
    if named:
        kind = named.pop()
        return (kind,) if not allowed or kind in allowed else ()
    return allowed


class Pair(NamedTuple):
    """A variant column (``x``) and its reference column (``y``) of one
    table, of one quantity ``kind``, and the rows the sentence names."""

    table: Table
    x: Series
    y: Series
    kind: str
    rows: tuple[int, ...]

    def ends(self) -> list[tuple[int, tuple[Figure, ...], tuple[Figure, ...]]]:
        """(row, x figures, y figures) of each named row holding both, a cell
        holding a range giving its two ends (:meth:`~studygen.lint.document.Series.ends`): what a
        claim about every row is judged on, and what a percent change is
        computed over (:mod:`.prose_changes`, a range over all of it)."""
        return [(row, a, b) for row in self.rows if (a := self.x.ends(row)) and (b := self.y.ends(row))]


def _own_words(table: Table, columns: list[Series]) -> dict[int, frozenset[str]]:
    """Column -> the header words that tell it from the other ``columns``
    (unit words and the words all of them share left out)."""
    words = {s.column: frozenset(name_words(table.headers[s.column])) for s in columns}
    units = {stem(normalize(s.unit)) for s in columns if s.unit}
    shared = frozenset.intersection(*words.values()) if words else frozenset()
    return {c: frozenset(w - shared - units) for c, w in words.items()}


def _kind_columns(table: Table, kind: str) -> list[Series]:
    """The first measured series of each column of ``kind`` (label columns
    left out, and columns of differences: "fp16 minus fp32 (AP points)"
    names both variants, yet is neither, and holds no figure of the kind)."""
    seen, found = set(), []
    for series in table.series:
        if series.column in table.label_columns or series.column in seen or difference_header(series.header):
            continue
        if kind_of_series(series) == kind:
            seen.add(series.column)
            found.append(series)
    return found


def _first_mention(tokens: tuple[str, ...], words: frozenset[str]) -> int | None:
    """Index of the first token of ``tokens`` among ``words`` when all of
    ``words`` occur in ``tokens``, else None."""
    if not words or not words <= set(tokens):
        return None
    return min(i for i, token in enumerate(tokens) if token in words)


_UNCLEAR = "unclear"  # a table naming a variant of the kind without a pair: the sentence may be about it


def _pair_in(table: Table, kind: str, text: str, object_words: frozenset[str]):
    """(x, y) columns of ``table`` that ``text`` names (see the module
    docstring); :data:`_UNCLEAR` when it names a column of ``kind`` but no
    pair follows; None when it names none."""
    columns = _kind_columns(table, kind)
    if len(columns) < 2:
        return None
    own = _own_words(table, columns)
    lowered = normalize(text)
    named, references = [], []
    for series in columns:
        mention = header_mention(text, own[series.column])
        if mention is None:
            continue
        named.append(series)
        if own[series.column] <= object_words or reference_before(lowered, mention):
            references.append(series)
    if not named:
        return None
    if any(not words or words & _MEASURED_WORDS or any(statistic_of(word) for word in words) for words in own.values()):
        # a column told apart by nothing, by a statistic ("Wave P50", "Wave P95") or by the quantity it
        # measures ("TTFT p50 (ms)", "TPOT p50 (ms)"; "Throughput", "Goodput"): other quantities, no variants
        return _UNCLEAR
    if len(named) == 2 and len(references) == 1:
        y = references[0]
        return next(s for s in named if s is not y), y
    if len(named) == 1 and len(columns) == 2:
        other = next(s for s in columns if s is not named[0])
        return (other, named[0]) if references else (named[0], other)
    return _UNCLEAR


def tables_naming(document: Document, text: str) -> list[Table]:
    """Tables with a column whose header holds a word of ``text``, in
    document order (a variant column is named by its header words)."""
    seen: dict[int, Table] = {}
    for token in set(label_tokens(normalize(text))):
        for table in document.tables_by_keyword.get(stem(token), ()):
            seen.setdefault(table.order, table)
    return [seen[order] for order in sorted(seen)]


# The most candidate tables a claim is judged against: far past any hand-written document, and a bound keeps
# lint linear on a generated one of thousands of like tables (tests/lint/test_lint_scaling.py).
CANDIDATE_LIMIT = 64


def candidates(document: Document, text: str, kinds: tuple[str, ...], view: TextView,
               object_text: str = "", near: int = 0, limit: int = CANDIDATE_LIMIT,
               section: int | None = None) -> list[Pair] | None:
    """The :class:`Pair` each table offers that ``text`` (a clause;
    ``object_text`` the object of a reducing verb, "the fp16 time" of "cuts
    the fp16 time by") names, its rows restricted by ``view``: at most
    ``limit`` of them, the tables nearest block order ``near`` first, returned
    in document order; None when a table names a variant of the kind but
    offers no pair (which figures are meant is then unclear). ``section``:
    only the tables of that section."""
    found: list[Pair] = []
    object_words = frozenset(word for _, _, word in prose_words(object_text))
    for table in sorted(tables_naming(document, text), key=lambda t: (abs(t.order - near), t.order)):
        if len(found) >= limit:
            break
        if section is not None and table.section != section:
            continue
        for kind in kinds:
            pair = _pair_in(table, kind, text, object_words)
            if pair is None:
                continue
            rows = table.restrict(view)
            if not rows:
                continue
            if pair is _UNCLEAR:
                return None
            found.append(Pair(table, pair[0], pair[1], kind, tuple(rows)))
    return sorted(found, key=lambda pair: pair.table.order)


def tie(document: Document, text: str, kinds: tuple[str, ...], view: TextView, object_text: str = "") -> Pair | None:
    """The one :class:`Pair` that ``text`` names in the document (see
    :func:`candidates`); None when none or several tables offer one."""
    found = candidates(document, text, kinds, view, object_text, limit=2)
    return found[0] if found is not None and len(found) == 1 else None


__all__ = ["quantity_stems", "COMPARATIVE_KINDS", "candidates", "COMPARISON_RE", "HIGHER_IS_BETTER", "kind_of_unit", "METRIC_NAMES", "Pair", "QUALITY", "RANKING_STEMS", "RANKING_VERB_RE", "reference_before", "SIZE", "THROUGHPUT", "TIME",
           "QUANTITY_WORDS", "kind_of_series", "kind_of_words", "kinds_named", "metric_kinds", "tables_naming", "tie"]
