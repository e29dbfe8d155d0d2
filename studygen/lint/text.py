"""Words, normalised labels and sentences of Markdown prose.

Helpers shared by the lint checks: :func:`keywords` (stemmed content words,
for "same quantity" tests), :func:`normalize` (label text compared across
prose and tables: ``800 x 1067`` == ``800x1067``, ``TRT`` == ``TensorRT``),
:func:`label_tokens` (the ordered word tokens of normalised text) and
:func:`split_sentences`, :func:`figure_scope` and :func:`opening_phrase`
(which words of a sentence scope a figure).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from ..patterns import lazy_compile

# How far a clause reaches from a figure or verdict, each way. A reader's clause is far shorter; without a bound, a
# sentence of thousands of figures and no clause end took time quadratic in its length (attack round: 20 KB, 10.8 s).
CLAUSE_REACH = 1000

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
# Words right before a figure that make it the largest of what it summarises ("up to 2x", "as much as 30%"):
# SG103's claims about a column, its percent changes and its ratios between paired rows read it alike
LARGEST_BOUND_RE = lazy_compile(r"(\bup\s*to|\bupto|\bas\s+much\s+as)\s*$", re.IGNORECASE)
_SPACE_RE = lazy_compile(r"\s+")
# A slash that parts a header into two ("fp16 / FP8", "min/max"), not the slash of a rate unit ("img/s", "tokens/s")
PARTING_SLASH = r"\s*/\s*(?!s\b)"
_SHAPE_WORD_RE = lazy_compile(r"\d+(?:\s*[x×]\s*\d+)+")
# the spaces and the x between two sides of a shape ("1024 x 1024", "800×1067"), each side's digit kept
_SHAPE_JOIN_RE = lazy_compile(r"(\d)\s*[x×]\s*(?=\d)")
_MARKUP_RE = lazy_compile(r"[*_`~]")
# the tail as \\w: a character class with µ in it makes the scan several times slower
_LABEL_TOKEN_RE = lazy_compile(r"[a-z0-9\xb5\u03bc][\w.+-]*")
# one spelling of a word written two ways: normalize and the label tokens write the key as its value
SYNONYMS = {"trt": "tensorrt"}
_SYNONYM_RE = lazy_compile(r"\b(?:" + "|".join(map(re.escape, SYNONYMS)) + r")\b")


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


def join_shapes(text: str) -> str:
    """``text`` with each shape written as one word: ``1024 x 1024`` and
    ``800×1067`` become ``1024x1024`` and ``800x1067`` (other text as it is)."""
    return _SHAPE_JOIN_RE.sub(r"\1x", text)


def strip_markup(text: str) -> str:
    """``text`` without the characters of Markdown emphasis and code (``*``, ``_``, `````, ``~``)."""
    if "*" in text or "_" in text or "`" in text or "~" in text:
        return _MARKUP_RE.sub("", text)
    return text


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Label text in one spelling: lower case, Markdown emphasis removed
    (:func:`strip_markup`), shapes written ``800x1067``, ``×`` as ``x``,
    each word of :data:`SYNONYMS` as its one spelling (``trt`` as ``tensorrt``),
    single spaces."""
    text = strip_markup(text.replace("×", "x").lower())
    if "x" in text:
        text = join_shapes(text)
    text = " ".join(text.split())
    if any(word in text for word in SYNONYMS):
        text = _SYNONYM_RE.sub(lambda match: SYNONYMS[match.group(0)], text)
    return text


@lru_cache(maxsize=65536)
def label_tokens(normalized_text: str) -> tuple[str, ...]:
    """Word tokens of normalised text, trailing dots dropped
    (``'on tensorrt 11.4.'`` -> ``['on', 'tensorrt', '11.4']``)."""
    # a token starts with a letter or digit, so stripping its tail never empties it
    tokens = tuple(t.rstrip(".-") if t[-1] in ".-" else t for t in _LABEL_TOKEN_RE.findall(normalized_text))
    if not SYNONYMS.keys().isdisjoint(tokens):  # any synonym, not only the first one listed
        tokens = tuple(SYNONYMS.get(t, t) for t in tokens)
    return tokens


# A sentence ends at . ! ? followed by white space, except after abbreviations.
_SENTENCE_END_RE = lazy_compile(r"[.!?]+(?=\s)")
_ABBREVIATIONS = ("vs", "e.g", "i.e", "cf", "approx", "etc", "fig", "no", "al", "resp", "incl", "ca")
# an abbreviation as the whole last word before the mark (after white space or "(")
_ABBREVIATION_BEFORE_RE = lazy_compile(
    r"(?<![^\s(])\(*(?:" + "|".join(re.escape(a) for a in _ABBREVIATIONS) + r")$", re.IGNORECASE)


def _word_character(character: str) -> bool:
    """What the regular expression ``\\w`` matches in a str: a letter, digit or number of any script, or ``_``."""
    return character.isalnum() or character == "_"


def names_whole(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value`` with no word character or ``.``
    just before it and no word character just after it: the regular
    expression ``(?<![\\w.])VALUE(?!\\w)``, read with ``str.find`` so that a
    document of thousands of row labels compiles no pattern per label
    (Python keeps 512 compiled patterns; past that each label was compiled
    again for every sentence that asked)."""
    start = text.find(value)
    while start >= 0:
        end = start + len(value)
        if (start == 0 or not (_word_character(text[start - 1]) or text[start - 1] == ".")) and (
                end == len(text) or not _word_character(text[end])):
            return True
        start = text.find(value, start + 1)
    return False


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


_TRAILING_PAREN_RE = lazy_compile(r"(?:\s*(?:ms|s|us|%|x|MiB|GB|points?))?\s*\([^()]*\)")


_OPEN_RE, _CLOSE_RE = lazy_compile(r"\("), lazy_compile(r"\)")


class _ScopeIndex:
    """What :func:`figure_scope` reads of one sentence, found once: the
    clause separators of a scan of the whole text (their ends, and the end of
    the last one that is not a label-joining conjunction up to each), and
    where the parentheses are. A sentence with many figures then costs a
    lookup per figure, not a rescan of everything before it (issue 23 item 6:
    one paragraph of 5,000 ranges took minutes). Forward, the stops of one
    scan of the whole text (:func:`_forward_stops`) give where each scope
    ends, so a figure's scope end is a lookup too."""

    __slots__ = ("starts", "ends", "reach", "kept", "opens", "closes", "stop_starts", "stop_ends", "next_stop")

    def __init__(self, text: str):
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.reach: list[int] = []  # 2 past the white space after each: what matching it read
        self.kept: list[int] = []  # kept[k]: scope start after the first k + 1 separators
        last = 0
        for match in _SEGMENT_SPLIT_RE.finditer(text):
            if not _label_join(text, match):
                last = match.end()
            self.starts.append(match.start())
            self.ends.append(match.end())
            space_end = _SPACE_RUN_RE.match(text, match.end()).end()
            self.reach.append(space_end + 2)
            self.kept.append(last)
        # where the parentheses are, found by the regex engine (a loop over each character cost a second a page)
        self.opens = [match.start() for match in _OPEN_RE.finditer(text)]
        self.closes = [match.start() for match in _CLOSE_RE.finditer(text)]
        self.stop_starts, self.stop_ends, self.next_stop = _forward_stops(text)


def _ends_scope(text: str, match) -> bool:
    """Whether a :data:`_FORWARD_STOP_RE` match ends a figure's scope: a
    comma, semicolon or colon always; a conjunction unless the word before
    it holds a digit ("fp16 and INT8" joins labels)."""
    if match.group().strip() in (",", ";", ":"):
        return True
    before = _last_word(text, match.start())
    return not (before and any(ch.isdigit() for ch in before))


def _forward_stops(text: str) -> tuple[list[int], list[int], list[int]]:
    """(starts, ends, next_stop) of the :data:`_FORWARD_STOP_RE` matches of
    one scan of ``text``; ``next_stop[k]`` is the start of the first match
    from the k-th on that ends a scope (:func:`_ends_scope`), or
    ``len(text)`` when none does; one more entry, for k past the last match,
    holds ``len(text)``."""
    starts: list[int] = []
    ends: list[int] = []
    stopping: list[bool] = []
    for match in _FORWARD_STOP_RE.finditer(text):
        starts.append(match.start())
        ends.append(match.end())
        stopping.append(_ends_scope(text, match))
    next_stop = [len(text)] * (len(starts) + 1)
    for k in range(len(starts) - 1, -1, -1):
        next_stop[k] = starts[k] if stopping[k] else next_stop[k + 1]
    return starts, ends, next_stop


def _scope_end(text: str, position: int, index: _ScopeIndex) -> int:
    """Where a scope read forward from ``position`` ends: the start of the
    first :data:`_FORWARD_STOP_RE` match of a scan of ``text`` from
    ``position`` that ends a scope, else ``len(text)``.

    The pattern looks neither behind nor ahead, so whether it matches at a
    place depends on the text from there alone: a scan from a place that no
    match of the whole-text scan straddles finds that scan's matches from
    there on, and the index answers. A scan from inside one of its matches
    may part the text otherwise, so it runs until it is back in step."""
    k = bisect.bisect_left(index.stop_starts, position)
    if k and index.stop_ends[k - 1] > position:
        for match in _FORWARD_STOP_RE.finditer(text, position):
            if _ends_scope(text, match):
                return match.start()
            k = bisect.bisect_left(index.stop_starts, match.end())
            if not (k and index.stop_ends[k - 1] > match.end()):
                break
        else:
            return len(text)
    return index.next_stop[k]


@lru_cache(maxsize=256)
def _scope_index(text: str) -> _ScopeIndex:
    return _ScopeIndex(text)


def _label_join(text: str, match) -> bool:
    """True when a separator match is a conjunction joining two labels."""
    return match.group().strip() in ("and", "but", "while", "whereas") and _joins_labels(text, match)


# A separator match holds at most 8 characters that are not white space ("; ", " whereas ").
_SEPARATOR_SOLID = 8
_BACK_WINDOW = 64
_SPACE_RUN_RE = lazy_compile(r"\s*")


def _scope_start(text: str, start: int, index: _ScopeIndex) -> int:
    """Where the scope of a figure at ``start`` begins: the end of the last
    separator of a scan of ``text[:start]`` that is not a label join.

    A scan stopped at ``start`` finds the same separators as the scan of the
    whole text while matching them read nothing at or past ``start`` (a
    separator reads the white space after it and 2 characters more); only
    the last few may differ. So the
    first ones come from the index and only a short window before the figure
    is rescanned, from a point no separator straddles."""
    limit = start - 2
    # both scans share a separator whose matching read nothing at or past `start`
    # (greedy white space, then a 2-character lookahead, may backtrack)
    safe = bisect.bisect_right(index.reach, start)
    resume = index.ends[safe - 1] if safe else 0
    window = start - _BACK_WINDOW
    if window > resume and sum(not ch.isspace() for ch in text[window:limit]) >= _SEPARATOR_SOLID:
        # no separator spans the window's solid characters, so none that ends past
        # `limit` began before `window`; one of the shared ones may straddle it
        inside = bisect.bisect_right(index.ends, window)
        resume = index.ends[inside] if inside < safe and index.starts[inside] < window else window
    before = bisect.bisect_right(index.ends, resume)
    scope_start = index.kept[before - 1] if before else 0
    for match in _SEGMENT_SPLIT_RE.finditer(text, resume, start):
        if not _label_join(text, match):
            scope_start = match.end()
    return scope_start


def figure_scope(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) of the words that scope a figure at ``start:end`` of a
    sentence: back to the nearest comma, semicolon, colon or
    ``and``/``but``/``while``/``whereas``; forward to the nearest comma,
    semicolon, colon or conjunction, where an ``and`` that joins two labels
    ("for fp16 and INT8", "on TensorRT 11.4 and 11.1": the word before it
    holds a digit) does not end the scope. A parenthesis that follows the
    figure (after its unit) belongs to the scope whole; a figure inside a
    parenthesis has its scope end at the ``)`` that closes it ("slower at
    batch 1 (0.97x to 0.99x) and faster at batch 8": batch 8 is not its).
    Linear in the sentence over all its figures (see :class:`_ScopeIndex`)."""
    index = _scope_index(text)
    scope_start = _scope_start(text, start, index)
    # a parenthesis right after the figure is its restriction, commas and all:
    # "8.377 to 8.664 ms (mode compile, at 800 x 800 only)", as render prints it
    trailing = _TRAILING_PAREN_RE.match(text, end)
    scope_end = _scope_end(text, trailing.end() if trailing else end, index)
    opens = bisect.bisect_left(index.opens, start)
    if opens:
        opened = index.opens[opens - 1]
        first_close = bisect.bisect_left(index.closes, opened)
        if first_close == len(index.closes) or index.closes[first_close] >= start:
            closing = bisect.bisect_left(index.closes, end)
            if closing < len(index.closes):
                scope_end = min(scope_end, index.closes[closing] + 1)
    return scope_start, scope_end


def _last_word(text: str, position: int) -> str | None:
    """The last run of non-space characters before ``position`` (white space
    after it skipped), or None: what ``(\\S+)\\s*$`` finds in
    ``text[:position]``, read backwards so its cost is the word's length."""
    stop = position
    while stop > 0 and text[stop - 1].isspace():
        stop -= 1
    begin = stop
    while begin > 0 and not text[begin - 1].isspace():
        begin -= 1
    return text[begin:stop] if stop > begin else None


_NEXT_WORD_RE = lazy_compile(r"\s*(\S+)")


def _joins_labels(text: str, match) -> bool:
    """True when the conjunction ``match`` stands between two words that
    both hold a digit ("INT8 and FP8", "B200 and B300"): it joins labels."""
    before = _last_word(text, match.start())
    after = _NEXT_WORD_RE.match(text, match.end())
    return bool(before and after and any(c.isdigit() for c in before) and any(c.isdigit() for c in after.group(1)))


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


# A header of a column of differences between two others: "fp16 minus fp32 (AP points)", "FP8 - fp16 (points)"
_DIFFERENCE_HEADER_RE = lazy_compile(r"\bminus\b|\bpoints?\b|\bpts\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def difference_header(header: str) -> bool:
    """True for a header that names a difference of other columns: "A
    minus B", a figure in points ("(AP points)", "(points)"), or one of
    :data:`DIFFERENCE_WORDS` ("Saving (ms)", "delta")."""
    return _DIFFERENCE_HEADER_RE.search(header) is not None or bool(DIFFERENCE_WORDS & cached_keywords(header))


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


# "Against fp16, ...", "Relative to the BF16 engine, ...": a reference named
# before the first comma holds for every clause of the sentence.
_REFERENCE_OPENING_RE = lazy_compile(
    r"^\W*(?:against|relative\s+to|compared\s+(?:to|with)|versus|vs\.?)\s+([^,;:]+)[,;:]", re.IGNORECASE)


def reference_opening(text: str) -> str:
    """The normalized reference phrase a sentence opens with ("against fp16"), or ""."""
    match = _REFERENCE_OPENING_RE.match(text)
    return "against " + normalize(match.group(1)) if match else ""


# Verbs a coordinate clause may open with when it leaves its subject to the clause before ("nf4 trails at
# batch 16, but pulls ahead from batch 32"). A closed list: words that are often nouns there ("runs",
# "levels", "costs", "speeds", "uses") are left out, so a clause they open keeps its own scope.
_ELIDED_SUBJECT_VERBS = frozenset(
    """is are was were has have had becomes become became turns turn turned stays stay stayed remains remain
    remained reaches reach reached grows grow grew drops drop dropped falls fall fell rises rise rose climbs
    climb climbed gains gain gained loses lose lost wins win won trails trail trailed lags lag lagged leads
    lead led beats beat pulls pull pulled overtakes overtook improves improve improved scales scale scaled
    delivers deliver delivered achieves achieve achieved shows show showed gives give gave takes take took
    peaks peaked recovers recover recovered pays pay paid settles settle settled sits sit sat keeps keep kept
    comes come came goes go went gets get got slows slowed outperforms outperform outperformed catches catch
    caught narrows narrow narrowed widens widen widened shrinks shrink shrank saves save saved adds add added
    needs need needed yields yield yielded offers offer offered provides provide provided can could will
    would may might does did""".split())
# what may stand before the verb: the conjunction the clause split kept, adverbs
_ELIDED_OPENING_RE = lazy_compile(
    r"(?:(but|and|yet)\s+)?(?:(?:[a-z]+ly|then|still|also|only|now|soon|even|again|already)\s+)*([a-z]+)\b", re.IGNORECASE)
# the clause break right before the clause: "; ", or "but"/"and"/"yet" (after a comma or not)
_ELIDED_BREAK_RE = lazy_compile(r"(?:;|\b(?:but|and|yet))\s+$|,\s+$", re.IGNORECASE)
_SUBJECT_WORD_RE = lazy_compile(r"[^\s,;:()]+")
_SUBJECT_WORDS = 6


def elided_subject(text: str, clause_start: int) -> tuple[int, int] | None:
    """(start, end) in ``text`` of the subject a clause starting at
    ``clause_start`` leaves out, or None. The clause leaves it out when it
    opens with a verb of :data:`_ELIDED_SUBJECT_VERBS` (adverbs and its
    conjunction before it) after "; ", ", but", ", and" or a bare "but" /
    "and" / "yet"; its subject is then the words of the clause before, from
    that clause's start to its first such verb, six words at most ("INT4" of
    "INT4 is the only miss at bsz=32 (0.95x), but turns faster from bsz>=64")."""
    opening = _ELIDED_OPENING_RE.match(text, clause_start)
    if opening is None or opening.group(2).lower() not in _ELIDED_SUBJECT_VERBS:
        return None
    window = text[max(0, clause_start - 8):clause_start]
    joined = _ELIDED_BREAK_RE.search(window)
    if joined is None or (joined.group().startswith(",") and opening.group(1) is None):
        return None  # after a bare comma the clause is no coordinate one ("..., pulling ahead at 32")
    separator = clause_start - len(window) + joined.start()
    if separator <= 0:
        return None
    previous = _scope_start(text, separator, _scope_index(text))
    for count, word in enumerate(_SUBJECT_WORD_RE.finditer(text, previous, separator)):
        if count >= _SUBJECT_WORDS:
            return None
        if word.group().lower() in _ELIDED_SUBJECT_VERBS:
            return (previous, word.start()) if count else None
    return None
