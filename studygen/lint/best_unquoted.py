"""Best-of claims without a figure (SG107, beside :mod:`.best_rows`): "int8
is the fastest", "the H100 gives the highest throughput", "GEMM dominates
the kernel time", when the one table they can speak of shows another row
(or variant column) ahead of the subject everywhere it is compared.

A claim quoting no figure names no row of its own to rank, so the reading
is narrow. A sentence is read when

- it quotes no figure with a unit (one that does is :mod:`.best_rows`'s) and
  names no set its labels cannot resolve (:func:`.best_wording.restricted`);
- one clause of it holds one unhedged superlative (:func:`.best_wording.superlative`:
  "fastest", "slowest", "highest", "lowest", "largest", "smallest", "best",
  "worst"; not "peak", "maximum", "minimum" or "leads") after a copula or a
  verb of having ("X is the fastest", "X gives the highest throughput"), or
  opening the clause with its subject after a copula or "comes from" ("the
  fastest engine is X", "the highest throughput comes from X", "the lowest
  latency is X's"), or a
  word of dominance ("X dominates", "takes the bulk of", "accounts for most
  of", "the majority of") followed by a time or its share ("the kernel time",
  "the runtime", "the profile": "dominates on latency" says X wins, and a
  winning time is the smallest), and nothing in the clause denies, conditions or
  hedges it (:func:`.best_wording.unsure`); a cause after the superlative ("... due to its
  paged cache") ends the clause read;
- every word of the sentence is one of the table's label or header words, a
  plain preposition or article, a word of the claim (verbs above, quantity
  words, nouns for a row: "engine", "variant") or a number the table labels
  ("at batch 8"): "in most cases", "for small batches", "according to the
  vendor", "in the paper", "than", "3 of 4 runs" leave it unread.

The quantity is the one kind the clause's words name ("highest throughput":
throughput, larger is better; "lowest latency": time, smaller), else for
"fastest"/"slowest" both times and rates (each its own way); a clause naming
its quantity reads only the columns of the serving metrics it names, none
where it names none ("lowest latency" is no claim about ``TTFT (ms)``), for dominance a
time or a share of time (a ``%`` column headed by time or share); "best" or
"largest" naming no quantity is not read. The subject, the words before the
verb (after it for a clause opening on the superlative), names one label of
one label column (a row claim), or one variant column's header (:func:`.best_columns.variant_columns`: "int8" of ``int8
(ms)``). Words of the rest that name other labels keep those rows ("On the
A100, ..."); header words only some of the quantity's columns hold keep
those columns ("the tf32 profile" over ``tf32 share`` and ``fp16 share``).

The rows are compared in *groups*: for a row claim, the rows sharing every
other label column's label (a GPU and a batch: int8 against fp16 of that
GPU and batch), in each column of the quantity; for a column claim, each
row's cells in the subject's peers (:func:`.best_columns.peers`). A row or
column that pools or bounds the others (total, other, mean, ideal, roofline,
theoretical peak) is never a rival. The claim is contradicted only when
one rival beats the subject beyond their printed digits
(:func:`.ratio_direction.goes_against`) in every group where both have a
figure: whatever the claim means (in every row, typically, on average), the
table then shows the opposite. A tie, or a rival ahead in some groups only,
is no contradiction; with a word of every ("at every batch size") one such group is
(:mod:`.best_everywhere`). Among the document's tables the claim must be readable
(subject and quantity found) in exactly one, or in exactly one of its own
section's.

Cost: a table's groups and rankings are read once per :func:`findings` call
and kept by (table, columns); a claim then reads only the groups holding its
subject, against the group's three leaders (a rival beating the subject
everywhere leads every group it wins unless three others lead that group,
a miss but never a false finding).

Case (a new user's trial): "GEMM/MatMul dominates the tf32 profile" passed
with 0 findings over a kernel-time table where the Conv row held more time.
Cases: ``tests/lint/test_best_unquoted.py``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple

from ..patterns import lazy_compile
from .best_everywhere import beats, group_rival, universal
from .best_columns import DERIVED_RE, names_quantity, peers, variant_columns
from .best_rows import labels_by_column
from .best_wording import (CAUSE_RE, COPULA_BEFORE_RE, HAVE_BEFORE_RE, ROW_NOUNS, cause_start, restricted, superlative,
                           unsure)
from .document import Document, Sentence, Series, Table
from .restriction import TextView, labels_named
from .text import label_tokens, normalize, stem
from .total_shares import POOLED_LABELS
from .variant_pairs import (CLAUSE_END_RE, HIGHER_IS_BETTER, QUANTITY_WORDS, THROUGHPUT, TIME, kind_of_series, kind_of_words,
                            METRIC_NAMES, metric_kinds, quantity_stems)

SHARE = "share"  # a share of time: a time column or a percentage of it, the larger the more dominant
_DOMINANCE_RE = lazy_compile(
    r"\b(?:dominat(?:es|ed|e)"
    r"|(?:takes?|took|accounts?\s+for|accounted\s+for|consumes?|consumed|makes?\s+up|made\s+up|is|are|was|were)\s+"
    r"(?:the\s+bulk|most|the\s+majority|the\s+largest\s+(?:share|part|portion))\s+of)\b", re.IGNORECASE)
# "the fastest engine is ..." (a clause's opening, or after a comma), "the highest throughput comes from ..."
_OPENING_RE = lazy_compile(r"(?:^|,)[\s*_]*the\s+$", re.IGNORECASE)
_SUBJECT_AFTER_RE = lazy_compile(
    r"(?:\s+[\w./-]+){0,3}?\s+(?P<verb>is|was|remains|remained|comes\s+from|came\s+from|belongs\s+to|"
    r"goes\s+to|went\s+to)\s+(?:the\s+)?", re.IGNORECASE)
_SHARE_OBJECT_RE = lazy_compile(
    r"\s+(?:the\s+)?(?:[\w./-]+\s+){0,2}?(?:time|runtime|run\s+time|profile|breakdown|execution|wall[\s-]?clock)\b",
    re.IGNORECASE)
DOMINANCE_STEMS = ("dominat", "bulk", "most of", "majority", "largest")
_SHARE_WORDS = frozenset({"share", "fraction", "portion", "part", "percent", "percentage"})
_SHARE_HEADER_WORDS = frozenset({"time", "share", "fraction", "portion", "percent", "percentage", "total", "runtime"})
# what a sentence may say besides the table's labels and header words, quantity words and nouns for a row
_CLAIM_WORDS = frozenset({
    "at", "on", "for", "with", "in", "under", "using", "via", "and", "the", "a", "an", "of", "by", "across",
    "all", "every", "each", "both", "overall", "is", "was", "are", "were", "remains", "remained", "stays", "stayed",
    "has", "have", "had", "gives", "gave", "delivers", "delivered", "achieves", "achieved", "offers", "provides",
    "shows", "showed", "posts", "posted", "reaches", "reached", "yields", "clearly", "far", "also", "still", "easily",
    "always", "consistently", "uniformly",
    "dominates", "dominated", "dominate", "takes", "took", "take", "accounts", "accounted", "account", "consumes",
    "consumed", "makes", "made", "bulk", "most", "majority", "largest", "share", "part", "portion", "fraction",
    "profile", "runtime", "time", "total", "kernel", "kernels", "gpu", "step", "breakdown", "execution",
    "fastest", "quickest", "slowest", "highest", "lowest", "smallest", "biggest", "best", "worst",
    "ttft", "tpot", "itl", "tbt", "e2el", "goodput", "comes", "came", "from", "belongs", "goes", "went", "to"})
_LEAD_INS = frozenset({"conclusion", "conclusions", "summary", "result", "results", "takeaway", "takeaways",
                       "verdict", "finding", "findings", "observation", "observations", "overall", "key", "main",
                       "short", "in", "tl", "dr", "bottom", "line"})
_NUMBER_RE = lazy_compile(r"^[\d.,]+$")
# a row (or column) that sums, pools, spreads or bounds the others, never a rival: "Total", "other kernels",
# "mean", "std", "ideal", "roofline", "theoretical peak", "spec limit"
_POOLED_WORDS = POOLED_LABELS | {"totals", "other", "others", "rest", "misc", "remaining", "remainder", "ideal",
                                 "roofline", "theoretical", "peak", "bound", "target", "spec", "limit", "max", "min",
                                 "expected", "deviation"}
_COMPARATIVE = {"fastest": "faster", "quickest": "faster", "slowest": "slower", "highest": "higher", "lowest": "lower",
                "largest": "larger", "biggest": "larger", "smallest": "smaller", "best": "better", "worst": "worse",
                "dominates": "larger"}
_TABLE_LIMIT = 64  # the tables a claim may speak of, nearest first (as best_rows reads them)
_LEADERS = 3  # the rows of a group a subject is compared against (see the module's docstring)

HINT = "name the rows the claim holds for, quote the figure, or correct the claim"


class _Claim(NamedTuple):
    """A figure-less claim of a clause: the subject's span, the span of what is said of it (the verb, the
    claim word and its quantity), where the claim word starts, the word, the kinds it may be about."""

    subject: tuple[int, int]
    said: tuple[int, int]
    at: int
    word: str
    kinds: tuple[str, ...]


def _claim(text: str, start: int, end: int) -> _Claim | None:
    """The one claim read here of the clause ``text[start:end]``, None when it holds none."""
    dominance = _DOMINANCE_RE.search(text, start, end)
    if dominance is not None:
        if superlative(text, dominance.end(), end) is not None:
            return None  # a second claim word
        # what is dominated must be a time or its share, right after the words ("dominates the kernel time",
        # "the bulk of the runtime"): "dominates on latency", "dominates at every batch" say it wins, and a time
        # that wins is the smallest; "most of the memory" is another quantity
        if not _SHARE_OBJECT_RE.match(text, dominance.end(), end):
            return None
        verb = dominance.start()
        return _Claim(_subject_before(text, start, verb), (verb, end), verb, "dominates", (SHARE,))
    best = superlative(text, start, end)
    if best is None or best.peak or best.group not in ("high", "low", "better", "worse"):
        return None
    before = text[start:best.start]
    verb_match = COPULA_BEFORE_RE.search(before) or HAVE_BEFORE_RE.search(before)
    if verb_match is not None:  # "X is the fastest", "X gives the highest throughput"
        verb = start + verb_match.start()
        subject, said, phrase_end = _subject_before(text, start, verb), (verb, end), end
    else:  # "the fastest engine is X", "the highest throughput comes from X", "the lowest latency is X's"
        opening = _OPENING_RE.search(before)
        after = _SUBJECT_AFTER_RE.match(text, best.end, end)
        if opening is None or after is None:
            return None
        subject_end = end
        while subject_end > after.end() and text[subject_end - 1] in " .*_`":
            subject_end -= 1
        if text.endswith(("'s", "’s"), after.end(), subject_end):
            subject_end -= 2  # "is Lumen's"
        subject, said, phrase_end = (after.end(), subject_end), (start, after.end()), after.start("verb")
    word = best.word.lower()
    rest = quantity_stems(label_tokens(normalize(text[best.end:phrase_end])))  # not the "size" of "batch size"
    # "highest throughput", "lowest latency", "lowest TTFT" (a serving metric's name)
    named = kind_of_words(tuple(rest)) or next(iter(metric_kinds(text[best.end:phrase_end])), None)
    kinds: tuple[str, ...]
    if best.group == "high" and (set(rest) & _SHARE_WORDS):
        kinds = (SHARE,)
    elif named is not None:
        kinds = (named,)
    elif word in ("fastest", "quickest", "slowest"):
        kinds = (TIME, THROUGHPUT)
    else:
        return None  # "the best", "the largest" naming no quantity
    if word in ("fastest", "quickest", "slowest") and not set(kinds) <= {TIME, THROUGHPUT}:
        return None  # "the fastest model uses the least memory"
    return _Claim(subject, said, best.start, word, kinds)


def _subject_before(text: str, start: int, verb: int) -> tuple[int, int]:
    """The subject before a verb at ``verb``: from the clause's start, or its last comma ("On the T4, fp16 ...")."""
    comma = text.rfind(",", start, verb)
    return (comma + 1 if comma != -1 else start), verb


def _want(word: str, kind: str) -> int:
    """+1 when the claim says the subject's figure is the largest of its group, -1 the smallest."""
    if kind == SHARE or word in ("dominates", "highest", "largest", "biggest"):
        return 1
    if word in ("lowest", "smallest"):
        return -1
    better = word in ("fastest", "quickest", "best")
    return 1 if better == (kind in HIGHER_IS_BETTER) else -1


def _metrics(text: str) -> frozenset[str]:
    """The serving metrics ``text`` names by name ("TTFT", "TPOT")."""
    return frozenset(word for word in (stem(token) for token in label_tokens(normalize(text))) if word in METRIC_NAMES)


def _of_kind(series: Series, kind: str, metrics: frozenset[str] | None = None) -> bool:
    """True when ``series`` measures ``kind`` (a share: a time, or a percentage headed by time or share) and,
    where the claim names a quantity, the serving metrics ``metrics`` it names and no other ("lowest latency"
    is no claim about a ``TTFT (ms)`` column, "lowest TTFT" none about ``latency (ms)``)."""
    if series.parts != 1 or DERIVED_RE.search(series.header.split("(", 1)[0]):
        return False
    if metrics is not None and _metrics(series.header) != metrics:
        return False
    if kind == SHARE:
        words = {stem(token) for token in label_tokens(normalize(series.header))}
        return kind_of_series(series) == TIME or (series.unit == "%" and bool(words & _SHARE_HEADER_WORDS))
    return kind_of_series(series) == kind


class _Reading:
    """What one :func:`findings` call reads of each table, once: labels, vocabulary, groups."""

    def __init__(self, document: Document):
        self.document = document
        self._labels: dict[int, dict[int, list[str]]] = {}
        self._vocabulary: dict[int, frozenset[str]] = {}
        self._groups: dict[tuple[int, int], dict[tuple, dict[str, list[int]]]] = {}
        self._leaders: dict[tuple, list[tuple[str, int]]] = {}
        self._nearest: dict[int, list[Table]] = {}
        self._orders = [table.order for table in document.tables]
        self._quantities: dict[tuple[int, int], bool] = {}
        self.columns: dict[tuple, tuple[Series, list[int]] | None] = {}  # _column_claim's answers

    def labels(self, table: Table) -> dict[int, list[str]]:
        if id(table) not in self._labels:
            self._labels[id(table)] = labels_by_column(table)
        return self._labels[id(table)]

    def vocabulary(self, table: Table) -> frozenset[str]:
        """The tokens (and stems) of ``table``'s labels and headers."""
        if id(table) not in self._vocabulary:
            tokens: set[str] = set()
            for values in self.labels(table).values():
                for value in set(values):
                    tokens.update(label_tokens(value))
            for header in table.headers:
                tokens.update(label_tokens(normalize(header)))
            tokens.update([stem(token) for token in tokens])
            self._vocabulary[id(table)] = frozenset(tokens)
        return self._vocabulary[id(table)]

    def leaders(self, table: Table, column: int, group: tuple, series: Series, want: int) -> list[tuple[str, int]]:
        """(label, row) of the :data:`_LEADERS` rows of ``group`` (by ``column``'s labels) whose figures in
        ``series`` go furthest the way ``want`` says, once per group: no pooled row, no label of two rows."""
        key = (id(table), column, group, id(series), want)
        if key not in self._leaders:
            rows_of = self.groups(table, column)[group]
            ranked = [(other, rows[0]) for other, rows in rows_of.items()
                      if not _pooled(other) and len(rows) == 1 and series.ends(rows[0])]
            ranked.sort(key=lambda pair: -want * series.ends(pair[1])[0].value)
            self._leaders[key] = ranked[:_LEADERS + 1]  # (one more: the subject may be among them)
        return self._leaders[key]

    def holding(self, table: Table, column: int) -> dict[str, list[tuple]]:
        """A label of ``column`` -> the groups (:meth:`groups`) holding it, in order."""
        key = (id(table), column, "holding")
        if key not in self._groups:
            holding: dict[str, list[tuple]] = {}
            for group, rows_of in self.groups(table, column).items():
                for label in rows_of:
                    holding.setdefault(label, []).append(group)
            self._groups[key] = holding  # type: ignore[assignment]
        return self._groups[key]  # type: ignore[return-value]

    def names_quantities(self, table: Table, column: int) -> bool:
        """True when a label of ``column`` names a quantity or a statistic ("mean latency", "p95")."""
        key = (id(table), column)
        if key not in self._quantities:
            self._quantities[key] = any(names_quantity(value) for value in table.label_values.get(column, ()))
        return self._quantities[key]

    def rows_by_label(self, table: Table, column: int) -> dict[str, list[int]]:
        """A label of ``column`` -> its rows, in order."""
        key = (id(table), column, "rows")
        if key not in self._groups:
            index: dict[str, list[int]] = {}
            for row, label in enumerate(self.labels(table)[column]):
                index.setdefault(label, []).append(row)
            self._groups[key] = index  # type: ignore[assignment]
        return self._groups[key]  # type: ignore[return-value]

    def nearest(self, order: int) -> list[Table]:
        """The :data:`_TABLE_LIMIT` tables nearest the prose block at ``order``."""
        if order not in self._nearest:
            # the tables are in document order: the nearest lie on either side of the block's place, taken by
            # distance from there (a sort of every table for every block grew with the square of the tables)
            tables = self.document.tables
            right = bisect_left(self._orders, order)
            left, nearest = right - 1, []
            while len(nearest) < _TABLE_LIMIT and (left >= 0 or right < len(tables)):
                if right >= len(tables) or (left >= 0 and order - tables[left].order <= tables[right].order - order):
                    nearest.append(tables[left])
                    left -= 1
                else:
                    nearest.append(tables[right])
                    right += 1
            self._nearest[order] = nearest
        return self._nearest[order]

    def groups(self, table: Table, column: int) -> dict[tuple, dict[str, list[int]]]:
        """The other label columns' labels -> (the label in ``column`` -> its rows) of ``table``."""
        key = (id(table), column)
        if key not in self._groups:
            labels = self.labels(table)
            others = [c for c in labels if c != column]
            grouped: dict[tuple, dict[str, list[int]]] = {}
            for row, label in enumerate(labels[column]):
                if label:
                    group = tuple(labels[c][row] for c in others)
                    grouped.setdefault(group, {}).setdefault(label, []).append(row)
            self._groups[key] = grouped
        return self._groups[key]


def _pooled(label: str) -> bool:
    """True for a normalised label (or header) naming a pooled or bounding row (:data:`_POOLED_WORDS`)."""
    return any(token in _POOLED_WORDS for token in label_tokens(label))


def _plain(sentence_text: str, table: Table, reading: _Reading) -> bool:
    """True when every word of the sentence is one :data:`_CLAIM_WORDS`, a quantity word, a row's noun, a
    word of ``table``'s labels or headers, or a number (checked against the labels by the caller)."""
    vocabulary = reading.vocabulary(table)
    for token in label_tokens(normalize(sentence_text)):
        word = stem(token)
        if not (token in _CLAIM_WORDS or word in _CLAIM_WORDS or token in vocabulary or word in vocabulary
                or word in QUANTITY_WORDS or word in ROW_NOUNS or token in ROW_NOUNS or _NUMBER_RE.match(token)):
            return False
    return True


def _header_kept(columns: list[Series], words: set[str]) -> list[Series]:
    """The columns whose headers hold the clause's header words that only some of ``columns`` hold."""
    kept = columns
    for word in words:
        holding = [s for s in kept if word in {stem(t) for t in label_tokens(normalize(s.header))}]
        if holding and len(holding) < len(kept):
            kept = holding
    return kept


def _row_claim(table: Table, subject: dict[int, set[str]], rest: dict[int, set[str]], kinds: tuple[str, ...],
               word: str, header_words: set[str], metrics: frozenset[str] | None,
               reading: _Reading, every: bool = False) -> tuple[str, list[tuple[Series, int, int]]] | None:
    """(the rival's label, [(column, the subject's row, the rival's row)...]) when one label of the subject's
    column beats the subject's in every group and column both fill (``every``: in one group,
    :func:`.best_everywhere.group_rival`); None otherwise or when unreadable."""
    ((column, labels),) = subject.items()
    (label,) = labels
    if reading.names_quantities(table, column):
        return None  # rows of several quantities ("mean latency", "p95 latency"): no one quantity to rank
    if column in rest:
        return None  # "fp16 is the fastest after int8": the subject's column names other rows
    if _pooled(label):
        return None
    columns = [(s, kind) for kind in kinds for s in table.series if _of_kind(s, kind, metrics)]
    kept = set(map(id, _header_kept([s for s, _ in columns], header_words)))
    columns = [(s, kind) for s, kind in columns if id(s) in kept]
    if not columns:
        return None
    labels_by = reading.labels(table)
    others = [c for c in labels_by if c != column]
    grouped = reading.groups(table, column)
    groups = [(group, grouped[group]) for group in reading.holding(table, column).get(label, ())
              if not any(c in rest and group[i] not in rest[c] for i, c in enumerate(others))]
    if any(len(rows_of[label]) > 1 for _, rows_of in groups):
        return None  # two rows of the subject in one group: which one is meant is unclear
    if every:
        return group_rival(groups, label, columns, lambda kind: _want(word, kind), _pooled)
    # candidates: the leaders of the subject's first compared group that beat it; each then read in every group
    # (a look-up of its row there), so that a claim costs its groups, not the table's rows
    candidates: list[str] = []
    for group, rows_of in groups:
        for series, kind in columns:
            want = _want(word, kind)
            mine = series.ends(rows_of[label][0])
            if mine:
                candidates = [other for other, row in reading.leaders(table, column, group, series, want)
                              if other != label and beats(mine, series.ends(row), want)]
                break
        else:
            continue
        break
    best: tuple[str, list[tuple[Series, int, int]]] | None = None
    for other in candidates:
        compared: list[tuple[Series, int, int]] = []
        for _, rows_of in groups:
            rows = rows_of.get(other)
            if rows is None:
                continue
            if len(rows) > 1:
                compared = []
                break
            own = rows_of[label][0]
            both = [(series, kind) for series, kind in columns if series.ends(own) and series.ends(rows[0])]
            if not all(beats(series.ends(own), series.ends(rows[0]), _want(word, kind)) for series, kind in both):
                compared = []
                break
            compared.extend((series, own, rows[0]) for series, _ in both)
        if compared and (best is None or len(compared) > len(best[1])):
            best = (other, compared)
    return best


def _column_claim(table: Table, series: Series, rest: dict[int, set[str]], kinds: tuple[str, ...], word: str,
                  metrics: frozenset[str] | None, reading: _Reading) -> tuple[Series, list[int]] | None:
    """(the peer column, the rows it beats the subject in) when one peer beats ``series`` in every row both
    fill among the rows ``rest`` names; None otherwise."""
    kind = next((kind for kind in kinds if _of_kind(series, kind, metrics)), None)
    if kind is None:
        return None
    want = _want(word, kind)
    labels = reading.labels(table)
    key = (id(series), tuple(sorted((c, frozenset(v)) for c, v in rest.items())), word, kinds, metrics)
    if key in reading.columns:
        return reading.columns[key]
    # the rows the clause names, looked up by label (a claim naming one row of a long table costs that row)
    restricting = [(c, wanted) for c, wanted in rest.items() if c in labels]
    if restricting:
        c, wanted = min(restricting, key=lambda item: len(item[1]))
        index = reading.rows_by_label(table, c)
        candidates = sorted(row for value in wanted for row in index.get(value, ()))
    else:
        candidates = range(len(table.rows))
    rows = [row for row in candidates if all(labels[c][row] in wanted for c, wanted in restricting)]
    rows = [row for row in rows if not any(_pooled(labels[c][row]) for c in labels)]
    best: tuple[Series, list[int]] | None = None
    for peer in peers(series):
        if _pooled(normalize(peer.header.split("(", 1)[0])):
            continue
        both = [row for row in rows if series.ends(row) and peer.ends(row)]
        if both and all(beats(series.ends(row), peer.ends(row), want) for row in both):
            if best is None or len(both) > len(best[1]):
                best = (peer, both)
    reading.columns[key] = best
    return best


def findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each figure-less best-of claim its one table contradicts."""
    found = []
    reading = _Reading(document)
    vocab = (document.label_vocab, document.multiword_labels, document.label_parts)
    for block in document.prose:
        lowered = block.lowered
        if not any(word in lowered for word in ("fastest", "quickest", "slowest", "highest", "lowest", "largest",
                                                 "smallest", "biggest", "best", "worst", *DOMINANCE_STEMS)):
            continue
        text = block.text
        for sentence in block.sentences:
            if any(t.figure is not None and t.figure.unit is not None for t in sentence.tokens):
                continue  # a quoted figure: best_rows reads it
            if restricted(text[sentence.start:sentence.end]):
                continue
            starts = [sentence.start] + [m.end() for m in CLAUSE_END_RE.finditer(text, sentence.start, sentence.end)]
            ends = [m.start() for m in CLAUSE_END_RE.finditer(text, sentence.start, sentence.end)] + [sentence.end]
            for start, end in zip(starts, ends):
                finding = _clause_finding(document, sentence, start, end, reading, vocab)
                if finding is not None:
                    found.append(finding)
    return found


def _clause_finding(document: Document, sentence: Sentence, start: int, end: int, reading: _Reading,
                    vocab) -> tuple[int, str, str] | None:
    text = sentence.block.text
    colon = text.rfind(":", start, end)
    if colon != -1:
        # "Conclusion: 3 is the slowest": a lead-in of a summary's words names the topic, the rest claims;
        # "Vendor claim: ...", "Expected: ..." say the claim is someone else's or not measured
        if not set(label_tokens(normalize(text[start:colon]))) <= _LEAD_INS:
            return None
        start = colon + 1
    best = superlative(text, start, end)
    if best is not None and (cause := cause_start(text, best.end, end)) is not None:
        end = cause  # "X is fastest due to its GPU backend": the reason restricts no row
    claim = _claim(text, start, end)
    if claim is None or unsure(text, start, end):
        return None
    word, kinds = claim.word, claim.kinds
    subject_text = text[claim.subject[0]:claim.subject[1]]
    said_text = text[claim.said[0]:claim.said[1]]
    # the rest of the clause: what stands before the subject ("On the T4,") and what is said of it
    rest_text = f"{text[start:max(start, claim.subject[0] - 1)] if claim.said[0] > claim.subject[0] else ''} {said_text}"
    subject_view = TextView(subject_text, *vocab)
    rest_view = TextView(rest_text, *vocab)
    said = {stem(token) for token in label_tokens(normalize(said_text))}
    # header words that may keep some of the quantity's columns ("tf32" of "tf32 share"): not the claim's own
    # words ("of" of "share of time" keeps nothing)
    rest_words = said - QUANTITY_WORDS - _CLAIM_WORDS
    # a claim naming its quantity ("lowest latency", "lowest TTFT") speaks of the columns of that metric only
    metrics = _metrics(said_text) if said & (QUANTITY_WORDS | METRIC_NAMES.keys()) else None
    readings = []
    for table in reading.nearest(sentence.block.order):
        result = _table_reading(table, sentence, start, end, subject_text, subject_view, rest_view, rest_words, kinds, word,
                                metrics, reading, universal(text, start, end))
        if result is not None:
            readings.append((table, result))
    if len(readings) > 1:
        readings = [(table, result) for table, result in readings if table.section == sentence.block.section]
    if len(readings) != 1:
        return None
    table, (readable, contradiction) = readings[0]
    if contradiction is None:
        return None
    claim_text = " ".join(text[start:end].split()).rstrip(".")
    return sentence.line_at(claim.at), f"'{claim_text}' is contradicted by the table at line {table.line}: {contradiction}", HINT


def _table_reading(table: Table, sentence: Sentence, start: int, end: int, subject_text: str, subject_view: TextView,
                   rest_view: TextView, rest_words: set[str], kinds: tuple[str, ...], word: str,
                   metrics: frozenset[str] | None, reading: _Reading, every: bool = False) -> tuple[bool, str | None] | None:
    """(True, the contradiction or None) when ``table`` is one the claim can speak of, None when it is not;
    ``every``: the claim is said of every group (:mod:`.best_everywhere`)."""
    if not table.series or not table.label_columns:
        return None
    block = sentence.block
    # the sentence, less a lead-in before a colon and a closing cause ("... due to its GPU backend")
    said = block.text[max(start, sentence.start):end if end < sentence.end and CAUSE_RE.match(block.text, end) else sentence.end]
    if not _plain(said, table, reading):
        return None
    subject = labels_named(table, subject_view)
    variants = variant_columns(normalize(subject_text), table)
    rest = labels_named(table, rest_view)
    if subject is None or rest is None:
        return None
    numbers = [t for t in label_tokens(normalize(said)) if _NUMBER_RE.match(t)]
    if numbers and not any(c in table.numeric_labels for c in list(rest) + list(subject)):
        return None  # "in 3 of 4 runs": a number no label of the table holds
    rows = table.rows
    if subject and not variants:
        if len(subject) != 1 or len(next(iter(subject.values()))) != 1:
            return None
        found = _row_claim(table, subject, rest, kinds, word, rest_words, metrics, reading, every)
        if found is None:
            return (True, None) if _has_kind(table, kinds, metrics) else None
        rival, compared = found
        shown = "; ".join(f"'{series.header}': {rows[own].name()} has {series.ends(own)[0].text}, "
                          f"{rows[other].name()} {series.ends(other)[0].text}" for series, own, other in compared[:3])
        more = f" and {len(compared) - 3} more" if len(compared) > 3 else ""
        column = next(iter(subject))
        rival_label = " ".join(rows[compared[0][2]].cells[column].split())
        where = "a group the claim covers" if every else f"{_each(len(compared), 'comparison')} the table makes of the two"
        return True, f"'{rival_label}' is {_COMPARATIVE[word]} than it in {where}: {shown}{more}"
    if len(variants) == 1 and not subject:
        if not any(_of_kind(variants[0], kind, metrics) for kind in kinds):
            return None
        found_columns = _column_claim(table, variants[0], rest, kinds, word, metrics, reading)
        if found_columns is None:
            return True, None
        peer, both = found_columns
        series = variants[0]
        shown = "; ".join(f"{rows[row].name()} has {series.ends(row)[0].text} against {peer.ends(row)[0].text}"
                          for row in both[:3])
        more = f" and {len(both) - 3} more" if len(both) > 3 else ""
        return True, (f"'{peer.header}' is {_COMPARATIVE[word]} than '{series.header}' in "
                      f"{_each(len(both), 'row')} both fill: {shown}{more}")
    return None


def _each(count: int, noun: str) -> str:
    """"the one row" or "each of the 3 rows"."""
    return f"the one {noun}" if count == 1 else f"each of the {count} {noun}s"


def _has_kind(table: Table, kinds: tuple[str, ...], metrics: frozenset[str] | None) -> bool:
    return any(_of_kind(series, kind, metrics) for kind in kinds for series in table.series)


__all__ = ["findings"]
