"""How SG224 and SG225 read a clause of a study file's prose (no check of its
own): where a clause begins and ends (the sentence cut at a colon:
:func:`clause_bounds`) and its parts joined by a comma and a conjunction
(:func:`conjunct_bounds`), the GPU models and precisions it names
(:data:`GPU_MODEL`, :data:`PRECISION`) and the rows of them
(:func:`rows_named`), whether it states a result (:func:`states_result`) or
states none of this study's (it denies, defers, cites or asks:
:func:`clause_unread`, :func:`unread_clause`, :func:`cites`). Moved out of
:mod:`.sg224_unmeasured_gpu` (session 27) when its readings of batches,
shapes and timing methods (:mod:`.prose_settings`) took it to 600 lines.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from ..lint.unstated import SOURCE_RE, states_no_result
from ..patterns import lazy_compile
from .prose_figures import names_in, quoted_figures, sentence_bounds

GPU_MODEL = lazy_compile(
    r"(?<![\w.-])("
    r"G[BH]\d{3}|A(?:2|10G?|16|30|40|100|800)|H(?:20|100|200|800)|B(?:100|200|300)"  # NVIDIA data-centre parts
    r"|L(?:4|20|40S?)|T4|V100|P(?:4|40|100)|K80"
    r"|(?:RTX|GTX|TITAN)\s?(?:A\d{4}|\d{3,4})(?:\s?Ti|\s?SUPER)?"  # RTX 3090, GTX 1070, RTX A6000, RTX 4070 Ti
    r"|TITAN\s(?:RTX|V|Xp?)"  # the TITAN cards named by a word, not a number (trex's exports ran on a TITAN RTX)
    r"|MI\d{3}[AX]?"  # AMD Instinct
    r"|Jetson(?:\s+(?:AGX\s+|Orin\s+)?(?:Orin|Xavier|Nano|TX2)(?:\s+NX)?)?"  # a bare "Jetson": any module
    r")s?(?![\w-])")


# A precision as a study's variants declare it (studygen new's list) and as prose writes it ("FP8", "int8")
PRECISION = lazy_compile(r"(?<![\w.-])(fp32|tf32|bf16|fp16|fp8|nvfp4|mxfp4|fp4|int8|int4)(?![\w-])", re.IGNORECASE)


# words of a Jetson module's name that its GPU, as trtexec logs it, leaves out ("Orin" on a Jetson AGX Orin)
_MODULE_WORDS = re.compile(r"^(?:JETSON|AGX)")
# the modules' own names, as a record's GPU may hold them without "Jetson" (trtexec logs "Orin" on an AGX Orin)
_MODULES = frozenset({"ORIN", "XAVIER", "NANO", "TX2"})


# A sentence that names a machine without stating a result of this study on it: it denies, defers, says the run
# failed ("fp16 build failed": collect records such a run as not measured) or cites one published or reported (the
# other sources a clause cites: lint.unstated.SOURCE_RE). "plan" defers only as a verb ("we plan to", "plans to",
# "planned"): an engine plan is what a plan size is of (a new user's trial, session 28: "The int8 plan is 27 MiB"
# and "the int8 plan takes 0.2 ms on the A100" were read as deferred)
ELSEWHERE = lazy_compile(r"\b(?:not|no|never|without|later|next|future|plans?\s+to|planned|published|reported|failed|"
                         r"crashed|errored)\b|n't\b", re.IGNORECASE)


# What states a result of a clause beside its GPU: a ratio ("1.4x", "2×"; not a shape's "1333 x 800"), a percentage
# ("64% of its kernel time") or a speed comparative; a time is a figure with a unit (prose_figures.quoted_figures)
RESULT_WORDS = lazy_compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:[x×](?![\w-])(?!\s?\d)|%)|\b(?:faster|slower|quicker|speed-?ups?|slow-?downs?|outperform(?:s|ed)?)\b",
    re.IGNORECASE)


# Where a comma joins two statements of one clause (conjunct_bounds)
_CONJUNCTION = lazy_compile(r",\s+(?:and|but|while|whereas|yet)\s+", re.IGNORECASE)


# The item of a list that a conjunction ends ("the H100, the H200, and the B200"): a comma, then up to four words
# not beginning "and" or "or" (which end a list already: "bf16, fp32, or fp8, and ...") before the conjunction
_LIST_ITEM = lazy_compile(r",\s+(?!(?:and|or)\b)[^\s,;:]+(?:\s+[^\s,;:]+){0,3}\s*$", re.IGNORECASE)


# Where a clause ends inside a sentence: a colon before a space ("Not shipped: on the A100 ..."), not one in "10:30"
_CLAUSE_END = re.compile(r":(?=\s)")


def model_key(text: str) -> str:
    """A model as compared: upper case, spaces and hyphens dropped (``RTX 3090`` -> ``RTX3090``)."""
    return re.sub(r"[\s-]+", "", text).upper()


def is_measured(key: str, measured: set[str]) -> bool:
    """Whether the model ``key`` (:func:`model_key`) names a GPU of ``measured``
    (:func:`measured_models`): the same word, a word it begins with letters
    after ("MI300" of "MI300X"; not "A10" of "A100"), or, for a Jetson, its
    module's last word ("ORIN")."""
    if key == "JETSON":  # a Jetson of no module named: any record on a Jetson, or on a module trtexec names alone
        return any(word.startswith("JETSON") or word in _MODULES for word in measured)
    bare = key
    while (stripped := _MODULE_WORDS.sub("", bare)) != bare:
        bare = stripped
    return any(word == key or (word.startswith(key) and word[len(key):].isalpha()) or (bare != key and word == bare)
               for word in measured)


def unread_clause(said: str) -> bool:
    """Whether the clause ``said`` denies, defers, cites or asks, so that it
    states no result of this study whatever figure it prints (:func:`clause_unread`
    without its test for a timing result): SG225 reads kernel-time shares by it."""
    return bool(ELSEWHERE.search(said) or SOURCE_RE.search(said)) or states_no_result(said, hypothetical=True)


@lru_cache(maxsize=64)
def unread_at(text: str, begin: int, end: int) -> bool:
    """:func:`unread_clause` of ``text[begin:end]``, read once a clause: a reader asking for each of thousands of
    claims in one clause of 20,000 characters read the clause again for each (SG225, SG222's other-run reader:
    10 to 37 s of CPU, quadratic; attack30)."""
    return unread_clause(text[begin:end])


def clause_unread(said: str, in_title: bool) -> bool:
    """Whether the clause ``said`` states no result of this study: it denies, defers or cites one, or (outside the
    title) states no timing result or one only as a question or condition."""
    return bool(ELSEWHERE.search(said) or SOURCE_RE.search(said)) or not in_title and (
        not states_result(said) or states_no_result(said, hypothetical=True))


def rows_named(study, rows: list, said: str) -> tuple[str, list]:
    """``(subject, rows)``: the GPUs, then the variants or precisions, then the checkpoint revisions
    (:func:`revisions_named`) the clause ``said`` names, as written and joined ("the GTX 1070, fp16"), and the
    ``rows`` of them (each kind named narrows them); ("", rows) where it names none. A GPU or variant no row has
    gives no rows; a hash that begins no row's revision names nothing."""
    words, about = [], rows
    gpus = [m.group(1) for m in GPU_MODEL.finditer(said)]
    if gpus:
        words.append("the " + " and the ".join(gpus))
        # each GPU and variant tested once, not once a row (a study of 10,000 records has a few of each)
        named_gpus = {gpu for gpu in {row.gpu for row in rows}
                      if gpu and any(is_measured(model_key(g), model_words(gpu)) for g in gpus)}
        about = [row for row in about if row.gpu in named_gpus]
    variants = {variant for variant in {row.variant for row in rows}
                if names_in(said, {name.lower() for name in (variant, str(study.variant_label(variant))) if name})}
    precisions = {m.group(1).lower() for m in PRECISION.finditer(said)}
    if variants or precisions:
        words.append(", ".join(sorted(variants | precisions)))
        about = [row for row in about if row.variant in variants or (row.precision or "") in precisions]
    revisions = revisions_named(said, {row.revision for row in rows})
    if revisions:
        words.append("revision " + " and ".join(sorted(revisions)))
        about = [row for row in about if row.revision in revisions]
    return ", ".join(words), about


# a git hash as prose writes a checkpoint revision ("the 7a07608d engine"): 7 to 40 hex digits, one a digit
_HASH = lazy_compile(r"(?<![\w.-])(?=[a-f]*\d)[0-9a-f]{7,40}(?![\w-])", re.IGNORECASE)


def revisions_named(said: str, revisions) -> set[str]:
    """The checkpoint ``revisions`` (as records state them; None and tags skipped) the text ``said`` names by a git
    hash of 7 digits or more that begins one of them or that one of them begins (``7a07608`` of ``7a07608d``, as
    the README prints a revision); empty where it names none. A hash that begins none (a code commit) names none."""
    written = {m.group(0).lower() for m in _HASH.finditer(said)}
    if not written:
        return set()
    return {rev for rev in revisions if rev and len(rev) >= 7 and _HASH.fullmatch(rev)
            and any(rev.lower().startswith(w) or w.startswith(rev.lower()) for w in written)}


def model_words(gpu: str) -> set[str]:
    """One GPU's words as :func:`measured_models` keys them (each word, and each two and three neighbours joined:
    a model of three words, "RTX 2080 Ti", was never found measured in "NVIDIA GeForce RTX 2080 Ti")."""
    words = [model_key(word) for word in re.split(r"[\s-]+", gpu) if word]
    return (set(words) | {a + b for a, b in zip(words, words[1:])}
            | {a + b + c for a, b, c in zip(words, words[1:], words[2:])})


def clause_bounds(text: str, start: int) -> tuple[int, int]:
    """``(begin, end)`` offsets in ``text`` of the clause around offset
    ``start``: its sentence cut at a colon before and after it ("Not
    shipped:" denies nothing of what follows),
    from the sentence's bounds and the text's colons, each listed once a
    text (a colon at the sentence's last character ends no clause: a
    sentence end follows it, not a space)."""
    sentence_begin, sentence_end = sentence_bounds(text, start)
    colons = _colons(text)  # offsets of each clause-ending colon, ascending
    # a colon opens the clause when the space after it lies before start; the first at or after start ends it
    before = bisect_left(colons, start - 1)
    begin = colons[before - 1] + 1 if before and colons[before - 1] >= sentence_begin else sentence_begin
    after = bisect_left(colons, start, before)
    end = colons[after] if after < len(colons) and colons[after] < sentence_end - 1 else sentence_end
    return begin, end


def conjunct_bounds(text: str, bounds: tuple[int, int], start: int) -> tuple[int, int]:
    """``(begin, end)`` of the part of the clause at ``bounds`` in ``text`` that holds offset ``start``, the clause
    cut where a comma joins another statement (", and", ", but", ", while", ", whereas", ", yet"): a denial or a plan
    in one part says nothing of the other. Case (a new user's trial, session 26, left then): "The fp8 build was not
    tried, and on the H100 fp16 takes 0.08 ms" passed, the whole sentence read as a denial. Not cut: a conjunction
    inside a quotation, or after a list's item ("the V100, the P100, and the K80 are 3x slower": one subject; an
    attack, session 27, found the first two unreported)."""
    cuts = _cuts(text, *bounds)
    at = bisect_left(cuts, (start,))  # the first cut at or after start
    before = at
    while before and cuts[before - 1][1] > start:
        before -= 1  # a cut whose words hold start (a name is never one of them): neither bound
    return (cuts[before - 1][1] if before else bounds[0]), (cuts[at][0] if at < len(cuts) else bounds[1])


@lru_cache(maxsize=64)
def cites(text: str, begin: int, end: int) -> bool:
    """Whether the clause ``text[begin:end]`` cites a source (:data:`~studygen.lint.unstated.SOURCE_RE`), read once
    a clause, not once a name or setting of it."""
    return SOURCE_RE.search(text, begin, end) is not None


@lru_cache(maxsize=64)
def _cuts(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each conjunction that cuts the clause ``text[begin:end]`` (:func:`conjunct_bounds`),
    ascending: found once a clause, where each name of a clause holding thousands of parts read it again."""
    cuts: list[tuple[int, int]] = []
    straight = opened = closed = 0  # quotation marks before the conjunction, counted as the clause is read
    seen, part = begin, begin
    for match in _CONJUNCTION.finditer(text, begin, end):
        between = text[seen:match.start()]
        straight, opened, closed = (straight + between.count('"'), opened + between.count("\u201c"),
                                    closed + between.count("\u201d"))
        seen = match.start()
        if straight % 2 or opened > closed:
            continue  # inside a quotation: a quoted passage is one statement
        comma = text.rfind(",", part, match.start())
        if comma >= 0 and _LIST_ITEM.match(text, comma, match.start()):
            continue  # after a list's item: "the H100, the H200, and the B200 are ..." is one subject
        cuts.append((match.start(), match.end()))
        part = match.end()
    return cuts


@lru_cache(maxsize=8)
def _colons(text: str) -> list[int]:
    return [match.start() for match in _CLAUSE_END.finditer(text)]


def states_result(clause: str) -> bool:
    """Whether ``clause`` states a result: a time (a figure in ms or µs), an
    AP (``AP 0.5806``, ``0.58 AP``, AP points) or a plan size in MiB, a ratio,
    a percentage or a speed comparative (:data:`RESULT_WORDS`). Case (a new user's trial,
    session 26): "The fp16 run reaches AP 0.5806." passed in a study of fp32
    and bf16 runs, an AP being no timing. A size in GB or MB is not read: a
    GPU's memory is written so ("H100 80GB")."""
    return RESULT_WORDS.search(clause) is not None or any(
        unit in _RESULT_UNITS for _number, unit, _offset in quoted_figures(clause))


# the units of quoted_figures whose figure states a result of a run beside the GPU, precision or batch it names
_RESULT_UNITS = ("ms", "µs", "μs", "us", "AP", "MiB", "point", "points")
