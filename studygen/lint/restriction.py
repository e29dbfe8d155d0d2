"""Which rows of a table a clause of prose is about.

A clause names rows by their labels ("on TensorRT 11.4", "at 800 x 800",
"for fp16 and INT8") and leaves rows out by naming them after an exclusion
word ("except B200", "other than H200"). :class:`TextView` prepares a clause
for those tests once (normalised text, its tokens and their stems, the words
after exclusion words); :func:`restricted_rows` reads a table's label values
against it. SG101 compares a range with only the rows its clause names, and
SG106 reads a sentence's tokens through the same view.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from ..label_names import VENDOR_WORDS
from ..patterns import lazy_compile
from .header_names import name_words, phrase_at
from .text import label_tokens, names_whole, normalize, stem

_EXCLUDE_WORDS = frozenset({"except", "excluding", "exclude", "besides", "without"})
# "at 8192", "@1024", "the 16384 point", "at 1024-8192": a number right after one of these words and
# followed by no unit names a row of a numeric label column (a sweep point) even without its header word
_BARE_NUMBER_RE = lazy_compile(
    r"(?:\bat|@|\bthe|\bfor)\s*(\d+(?:\.\d+)?)(?:\s*(?:-|–|—|\.\.|to)\s*(\d+(?:\.\d+)?))?"
    r"(?![\da-zµ_]|\.\d|\s*(?:%|x\b|x\d|×|(?:ms|us|µs|ns|s|sec|secs|seconds)\b|[kmg]i?b\b|tokens?/s|/s|(?:-|–|—|\.\.)\s*\d))"
)
# "from M = 16", "M >= 16", "batch 16 and above", "up to batch 4", "2 or fewer": every sweep point on one side of a
# bound (read into an open span); a unit after the number makes it a figure, not a point ("up to 3x", "from 16 GB")
_NO_UNIT = r"(?![\da-zµ_%×]|\.\d|\s*(?:x\b|(?:ms|us|µs|ns|s|sec|seconds)\b|[kmg]i?b\b|tokens?/s|/s|(?:-|–|—|\.\.|to)\s*\d))"
_LOWER_BOUND_RE = lazy_compile(
    r"(?:\bfrom\s+(?:[a-z][\w-]*\s*(?:=|of)?\s*)?|(?:>=|≥|>)\s*)(\d+(?:\.\d+)?)" + _NO_UNIT + r"(?!\s+to\b)"
    + r"|(?<![\w.])(\d+(?:\.\d+)?)\s+(?:and|or)\s+(?:above|more|larger|up|higher|beyond|over|greater)\b")
_UPPER_BOUND_RE = lazy_compile(
    r"(?:\bup\s+to\s+(?:[a-z][\w-]*\s*(?:=|of)?\s*)?|(?:<=|≤|<)\s*)(\d+(?:\.\d+)?)" + _NO_UNIT
    + r"|(?<![\w.])(\d+(?:\.\d+)?)\s+(?:and|or)\s+(?:below|less|fewer|smaller|lower|under)\b")
_EXCLUSION_RE = lazy_compile(r"except|exclud|besides|without|other than|apart from")
# "small sizes", "large token counts", "long contexts", "low concurrency": a size word before a noun that names
# the swept quantity picks one end of a sweep (the rows of the smallest or the largest labels)
_SMALL_WORDS = frozenset({"small", "smaller", "smallest", "short", "shorter", "shortest", "low", "lower", "lowest",
                          "few", "fewer", "tiny"})
_LARGE_WORDS = frozenset({"large", "larger", "largest", "big", "bigger", "biggest", "long", "longer", "longest",
                          "high", "higher", "highest", "many", "huge"})
_SWEEP_NOUNS = frozenset({"size", "sizes", "batch", "batches", "token", "tokens", "count", "counts", "shape", "shapes",
                          "sequence", "sequences", "input", "inputs", "context", "contexts", "length", "lengths",
                          "prompt", "prompts", "load", "loads", "concurrency", "qps", "problem", "problems",
                          "message", "messages", "point", "points", "end", "regime"})
_SIZE_WORDS = _SMALL_WORDS | _LARGE_WORDS
_MAGNITUDE_RE = lazy_compile(r"^(\d+(?:\.\d+)?)\s*([km])?$")
_DIGIT_RE = lazy_compile(r"\d")


# "at every concurrency", "across all batch sizes", "for each sequence length": the noun after a universal word
# names what the claim ranges over, the table's label column (its header or the unit its labels count)
_SCOPE_RE = lazy_compile(r"\b(?:every|each|all)\s+(?:the\s+|of\s+the\s+)?([a-z][a-z-]*(?:[ \t]+[a-z][a-z-]*){0,2})",
                         re.IGNORECASE)


def scope_phrases(text: str) -> frozenset[tuple[str, ...]]:
    """The name words (:func:`~studygen.lint.header_names.name_words`) of
    the up to three words after each universal word of ``text``: "at every
    user count" -> ``("user", "count")``."""
    return frozenset(filter(None, (name_words(match.group(1)) for match in _SCOPE_RE.finditer(text))))


def names_scope(header: str, scopes: frozenset[tuple[str, ...]]) -> bool:
    """True when a phrase of ``scopes`` opens with the words of ``header``
    ("every user count" and ``Users``) or with those of its parenthesised
    part, the unit its labels count ("every user count" and ``Load (users)``)."""
    if not scopes:
        return False
    main, _, unit = header.partition("(")
    named = [words for words in (name_words(main), name_words(unit.rstrip(") "))) if words]
    return any(phrase[:len(words)] == words for phrase in scopes for words in named)


def _names_multiword(normalized: str, tokens: set[str], labels) -> bool:
    """True when ``normalized`` holds one of the several-word ``labels``: a
    label is looked for only when the text holds its first word (a document
    of thousands of labels costs a set lookup per word, not a search per label)."""
    firsts = _first_words(labels)
    return any(label in normalized for token in tokens for label in firsts.get(token, ()))


@lru_cache(maxsize=64)
def _first_words(labels: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """First word -> the labels of ``labels`` that start with it."""
    grouped: dict[str, list[str]] = {}
    for label in labels:
        words = label_tokens(label)
        grouped.setdefault(words[0] if words else label, []).append(label)
    return {word: tuple(found) for word, found in grouped.items()}


@lru_cache(maxsize=16384)
def _without_vendor(value: str) -> str | None:
    """``value`` (a normalised label) without the vendor words opening it (:data:`VENDOR_WORDS`: "geforce rtx
    3080" -> "rtx 3080"), None when it opens with none or is nothing else."""
    words = value.split()
    count = 0
    while count < len(words) - 1 and words[count] in VENDOR_WORDS:
        count += 1
    return " ".join(words[count:]) if count else None


def is_single_token(value: str) -> bool:
    """True when the normalised label ``value`` is one token as it stands (``b200``,
    ``11.4``), so a text names it by that token; labels of several words
    (``fp16 dequantize``) are searched for as a phrase."""
    tokens = label_tokens(value)
    return len(tokens) == 1 and tokens[0] == value


class TextView:
    """A clause or sentence prepared for restriction tests: normalised text,
    its tokens (and their stems), the positions after exclusion words."""

    __slots__ = ("normalized", "tokens", "token_set", "excluded", "vocab_mentions", "restrictions", "_followers", "multiword_possible",
                 "part_mentions", "_numbers", "_sweep_ends")

    def __init__(self, text: str, vocab: frozenset[str], multiword_labels: frozenset[str] = frozenset(),
                 parts: frozenset[str] = frozenset()):
        self.normalized = normalize(text)
        self.tokens = label_tokens(self.normalized)
        token_set = set(self.tokens)
        token_set.update(map(stem, self.tokens))
        self.token_set = token_set
        excluded = set()
        self.restrictions: dict[int, list[int] | None] = {}
        self._followers: dict[str, list[str]] = {}
        scan = _EXCLUSION_RE.search(self.normalized) is not None
        for index, token in enumerate(self.tokens if scan else ()):
            if token in _EXCLUDE_WORDS or (token == "than" and index and self.tokens[index - 1] == "other") or (
                token == "from" and index and self.tokens[index - 1] == "apart"
            ):
                excluded.update(self.tokens[index + 1:index + 6])
        self.excluded = excluded
        self.vocab_mentions = frozenset(token_set & vocab) if vocab else frozenset()
        # a label of several words ("fp16 Dequantize") may be named without any one-word label
        self.multiword_possible = bool(multiword_labels) and _names_multiword(self.normalized, token_set, multiword_labels)
        # words of labels ("decode" of "deepep_decode", "first" of "First Inference (A)")
        self.part_mentions = frozenset(token_set & parts) if parts else frozenset()
        self._numbers: tuple[frozenset[str], tuple[tuple[float, float], ...]] | None = None
        self._sweep_ends: frozenset[tuple[int, str]] | None = None

    def _read_numbers(self) -> tuple[frozenset[str], tuple[tuple[float, float], ...]]:
        """(numbers, spans) named as points of a sweep ("at 8192", "the
        16384 point", "at 1024-8192"): read on first use, most views are
        settled by their labels before."""
        if self._numbers is None:
            numbers, spans = set(), []
            if _DIGIT_RE.search(self.normalized):
                for match in _BARE_NUMBER_RE.finditer(self.normalized):
                    if match.group(2) is None:
                        numbers.add(match.group(1))
                    else:
                        spans.append((float(match.group(1)), float(match.group(2))))
                for match in _LOWER_BOUND_RE.finditer(self.normalized):
                    spans.append((float(match.group(1) or match.group(2)), math.inf))
                for match in _UPPER_BOUND_RE.finditer(self.normalized):
                    spans.append((-math.inf, float(match.group(1) or match.group(2))))
            self._numbers = (frozenset(numbers), tuple(spans))
        return self._numbers

    @property
    def bare_numbers(self) -> frozenset[str]:
        """Numbers named as a sweep point ("at 8192")."""
        return self._read_numbers()[0]

    @property
    def number_spans(self) -> tuple[tuple[float, float], ...]:
        """Spans of sweep points ("at 1024-8192")."""
        return self._read_numbers()[1]

    @property
    def sweep_ends(self) -> frozenset[tuple[int, str]]:
        """(-1 for the small end, +1 for the large end, noun): "small sizes" -> (-1, "sizes")."""
        if self._sweep_ends is None:
            ends = set()
            if not _SIZE_WORDS.isdisjoint(self.token_set):
                tokens = self.tokens
                for index, token in enumerate(tokens):
                    direction = -1 if token in _SMALL_WORDS else 1 if token in _LARGE_WORDS else 0
                    if direction:
                        for noun in tokens[index + 1:index + 3]:
                            ends.add((direction, noun))
            self._sweep_ends = frozenset(ends)
        return self._sweep_ends

    def mention(self, value: str) -> int:
        """1 when the text names label ``value``, -1 when it names it after
        "except"/"excluding", 0 when it does not name it."""
        if is_single_token(value):
            if value in self.token_set or stem(value) in self.token_set:
                return -1 if value in self.excluded else 1
            if "-" not in value:
                return 0
        match = names_whole(self.normalized, value)
        if not match and (bare := _without_vendor(value)) is not None:
            match = names_whole(self.normalized, bare)  # "RTX 3080" names the label "GeForce RTX 3080"
        if not match and "-" in value and value.replace("-", " ").strip() in self.normalized:
            # "mixed precision" names the label "mixed-precision" (header_names: a hyphen parts words as a space)
            match = phrase_at(self.normalized, name_words(value))
        if not match:
            return 0
        first = label_tokens(value)
        return -1 if first and first[0] in self.excluded else 1

    def numeric_mention(self, header_word: str, value: str) -> int:
        """Like :meth:`mention` for a numeric label (``11.4`` under ``TensorRT``,
        ``1`` under ``batch``): it counts only within four words after the
        column's header word (``on TensorRT 11.4 and 11.1``); a version
        ``11.4.0.106`` is named by ``11.4``."""
        followers = self._followers.get(header_word)
        if followers is None:
            tokens = self.tokens
            followers = []
            if header_word in self.token_set:
                for index, token in enumerate(tokens):
                    if token == header_word:
                        followers.extend(tokens[index + 1:index + 5])
            self._followers[header_word] = followers
        for follower in followers:
            if follower == value or value.startswith(follower + ".") and follower[:1].isdigit():
                return -1 if follower in self.excluded else 1
        return 0


def restricted_rows(table, view: TextView, parts: bool = True) -> list[int] | None:
    """Row indexes of ``table`` that ``view``'s restriction phrases leave (see
    :meth:`studygen.lint.document.Table.restrict`, which caches this per
    view): ``table.all_rows`` itself when the view names none of the table's
    labels, None when it names labels of other tables only. Without
    ``parts``, a label is named only whole, never by a part of it ("compile"
    of a job ``h200-compile-800x1067``)."""
    mentioned_vocab = view.vocab_mentions
    if mentioned_vocab and not (mentioned_vocab & table.terms):
        return None
    numeric_words, multiword = table.label_words
    parts_named = parts and view.part_mentions and table.part_words & view.part_mentions
    numbers_named = table.numeric_labels and (view.bare_numbers or view.number_spans)
    if numbers_named and not _holds_points(table, view):
        return None  # "at 1024-8192": a sweep without a 1024 or an 8192 row is another one
    if not (mentioned_vocab or view.excluded or multiword or numeric_words & view.token_set or parts_named or numbers_named):
        return table.all_rows  # the text names none of this table's labels
    include, exclude = _named_labels(table, view, numbers_named)
    by_parts = _rows_by_parts(table, view, include.keys() | exclude.keys()) if parts_named else {}
    if not include and not exclude and not by_parts:
        return table.all_rows
    # started from the rows named, not from every row: a text naming two rows of a table of thousands
    kept: set[int] | None = None
    for rows in by_parts.values():
        kept = set(rows) if kept is None else kept & rows
    for column, wanted in include.items():
        rows = set()
        for value in wanted:
            rows.update(table.label_values[column][value])
        kept = rows if kept is None else kept & rows
    if kept is None:
        kept = set(range(len(table.rows)))
    for column, unwanted in exclude.items():
        for value in unwanted:
            kept.difference_update(table.label_values[column][value])
    return sorted(kept)


def _named_labels(table, view: TextView, numbers_named) -> tuple[dict[int, set[str]], dict[int, set[str]]]:
    """(included, excluded): label column -> the normalised labels of it that ``view`` names, plainly or
    after an exclusion word; a numeric label counts after its header word, or as a sweep point when
    ``numbers_named`` (the view names points or spans)."""
    include: dict[int, set[str]] = {}
    exclude: dict[int, set[str]] = {}
    for column, values in table.label_values.items():
        header_word = table.numeric_labels.get(column)
        if header_word is not None and header_word not in view.token_set and not numbers_named:
            continue  # a number label is named only after its header word or as a sweep point
        for value in values if header_word is not None else _named_candidates(table, column, view):
            if header_word is not None:
                state = view.numeric_mention(header_word, value)
                if state == 0 and numbers_named and _number_named(view, value):
                    state = 1
            else:
                state = view.mention(value)
            if state == 1:
                include.setdefault(column, set()).add(value)
            elif state == -1:
                exclude.setdefault(column, set()).add(value)
    return include, exclude


def labels_named(table, view: TextView) -> dict[int, set[str]] | None:
    """Label column -> the normalised labels of it that ``view`` names (a whole label, a number after its
    header word or as a sweep point, or the labels holding the label words it names most: as
    :func:`restricted_rows` reads them, column by column, for a reading that restricts some columns and
    not others: :mod:`studygen.lint.best_rows`). None when the view leaves a label out ("except B200"),
    names sweep points the table lacks, or names labels of other tables only: no one set of rows is meant."""
    if view.excluded or restricted_rows(table, view) is None:
        return None
    numbers_named = table.numeric_labels and (view.bare_numbers or view.number_spans)
    include, exclude = _named_labels(table, view, numbers_named)
    if exclude:
        return None
    parts_named = view.part_mentions and table.part_words & view.part_mentions
    for column, rows in (_rows_by_parts(table, view, include.keys()) if parts_named else {}).items():
        include[column] = {normalize(table.rows[row].cells[column]) for row in rows}
    return include


def _named_candidates(table, column: int, view: TextView):
    """The labels of ``column`` (not a numeric one) that :meth:`TextView.mention`
    may find in ``view``: a one-token label only when the view holds it or
    its stem, other labels always. Looked up by the view's tokens when it
    has fewer than the column has labels: a paragraph naming thousands of
    rows one sentence at a time read every label for every sentence."""
    values = table.label_values[column]
    key = ("restriction tokens", column)
    index = table.pair_cache.get(key)
    if index is None:
        by_token: dict[str, list[str]] = {}
        always = []
        for value in values:
            if is_single_token(value) and "-" not in value:
                by_token.setdefault(value, []).append(value)
                by_token.setdefault(stem(value), []).append(value)
            else:
                always.append(value)
        index = table.pair_cache[key] = by_token, always
    by_token, always = index
    if len(view.token_set) >= len(values):
        return values
    found = set(always)
    for token in view.token_set:
        found.update(by_token.get(token, ()))
    return found


def _holds_points(table, view: TextView) -> bool:
    """True when one numeric label column of ``table`` holds every point
    the text names as a sweep point: both ends of each span ("at
    1024-8192") and each single point ("at 8192")."""
    wanted = {float(number) for number in view.bare_numbers}
    bounds = set()
    for lo, hi in view.number_spans:
        if math.isinf(lo) or math.isinf(hi):
            bounds.add(hi if math.isinf(lo) else lo)  # an open span's bound need only fall inside the sweep
        else:
            wanted.update((lo, hi))
    for column in table.numeric_labels:
        held = set()
        for value in table.label_values.get(column, ()):
            try:
                held.add(float(value))
            except ValueError:
                pass
        if held and wanted <= held and all(min(held) <= bound <= max(held) for bound in bounds):
            return True
    return False


def _number_named(view: TextView, value: str) -> bool:
    """True when ``view`` names the numeric label ``value`` as a sweep point
    ("at 8192") or inside a named span ("at 1024-8192")."""
    if value in view.bare_numbers:
        return True
    try:
        number = float(value)
    except ValueError:
        return False
    return any(min(lo, hi) <= number <= max(lo, hi) for lo, hi in view.number_spans)


def _rows_by_parts(table, view: TextView, named_columns) -> dict[int, set[int]]:
    """Per label column not named by a whole label: the rows whose label
    holds the most of the label words the text names ("first inference"
    names 'First Inference (A)' and 'First Inference (B)', not 'Subsequent
    Inferences'; "decode" names 'deepep_decode' and 'none_decode')."""
    chosen: dict[int, set[int]] = {}
    for column, parts in table.label_parts.items():
        if column in named_columns:
            continue
        named = [part for part in parts if part in view.part_mentions]
        if not named:
            continue
        score: dict[int, int] = {}
        for part in named:
            for row in parts[part]:
                score[row] = score.get(row, 0) + 1
        best = max(score.values())
        chosen[column] = {row for row, count in score.items() if count == best}
    return chosen


def label_magnitude(value: str) -> float | None:
    """The size a normalised label names (``8192`` -> 8192, ``32k`` -> 32000), None for other labels."""
    match = _MAGNITUDE_RE.match(value)
    if match is None:
        return None
    return float(match.group(1)) * {"k": 1e3, "m": 1e6}.get(match.group(2) or "", 1.0)


def sweep_end_rows(table, view: TextView, present: list[int], inside: list[int]) -> bool:
    """True when the clause names one end of a sweep ("small sizes", "at large token counts") and the rows
    ``inside`` a range are exactly that end of ``present``: every one of them has a smaller (or larger) size label
    than every row left out, in a label column whose every row is a size (``1K``, ``2048``). The range is then about
    those rows, not the whole column."""
    if not view.sweep_ends or not inside or len(inside) == len(present):
        return False
    inside_set = set(inside)
    for column, values in table.label_values.items():
        header_words = set(label_tokens(normalize(table.headers[column])))
        directions = {d for d, noun in view.sweep_ends if noun in _SWEEP_NOUNS or noun in header_words or stem(noun) in header_words}
        if len(directions) != 1:
            continue
        size_of: dict[int, float] = {}
        for value, rows in values.items():
            magnitude = label_magnitude(value)
            if magnitude is None:
                break
            for row in rows:
                size_of[row] = magnitude
        else:
            if not all(row in size_of for row in present):
                continue
            sizes_in = [size_of[row] for row in inside]
            sizes_out = [size_of[row] for row in present if row not in inside_set]
            if directions == {-1} and max(sizes_in) < min(sizes_out) or directions == {1} and min(sizes_in) > max(sizes_out):
                return True
    return False
