"""Comparisons of two variants' timings in the study file's prose that print
no figure ("fp16 is faster than fp32 on the GTX 1070"), and the latency rows
each side stands for (read by :mod:`.prose_timings` for SG212).

A clause of a sentence (cut where lint's readings cut one:
:data:`~studygen.lint.variant_pairs.CLAUSE_END_RE`) compares two variants'
timings when

- it holds a comparative of speed ("faster", "slower", "quicker", "a
  speedup"; a ratio or a percentage before it, "1.3x faster", "12% slower"),
  a comparative of a time ("lower latency than") or a percent change that
  lint reads (:func:`~studygen.lint.prose_changes.changes_of`: "cuts the
  latency by 12%"), and the quantity its words name is a time
  (:func:`~studygen.lint.variant_pairs.kinds_named`: "smaller plans", "lower
  AP", "less memory" name another quantity and are not read);
- it names exactly two variants the study file declares, each by its name
  or label, as a whole word in any case (the longer of two names that
  overlap: ``int8-qdq`` is not ``int8``); a clause naming one or three is
  not read.

A comparison that a modal of inability governs ("we cannot tell whether
fp16 is faster than fp32": :func:`~studygen.lint.undecided.undecided`) says
the data do not decide, and is not read; nor is one in a clause that states
no result of the study (:func:`~studygen.lint.unstated.states_no_result`): an
expectation or a plan, a supposition ("if fp16 were faster than fp32, we
would ship it"), another source's result ("the vendor claims", "earlier work
found") or an open question ("it remains to be seen whether", "may or may
not"). Case (an attack, session 23): six such sentences were SG212 errors.

A sentence whose comparison prints its time figures is left to
:mod:`.prose_timings`, which resolves them to rows itself and calls this
only for the sentences whose figures it took no pair from (one finding per
sentence is enough).

Each side is the variant's latency rows with a figure, restricted to what
the sentence names among what the rows state: a GPU model (as SG224 reads
one: :data:`~studygen.checks.prose_clauses.GPU_MODEL`), a shape
("28x28") or a batch ("batch 4"). A GPU, shape or batch that no row states
restricts nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..lint.prose_changes import changes_of
from ..lint.undecided import undecided
from ..lint.unstated import states_no_result
from ..lint.variant_pairs import CLAUSE_END_RE, TIME, kinds_named
from ..patterns import lazy_compile
from ..records.kinds import Kind
from .prose_clauses import GPU_MODEL, is_measured, model_key, model_words

# a comparative of speed, maybe with its ratio or percentage before it ("1.3x faster", "12 % slower")
_SPEED = lazy_compile(r"(?:(?<![\w.])\d+(?:\.\d+)?\s?[x×%]\s+)?\b(?:faster|slower|quicker|speed-?ups?|slow-?downs?)\b",
                      re.IGNORECASE)
# a comparative that is about time only when the clause names a time ("lower latency than", "more time than")
_AMOUNT = lazy_compile(r"\b(?:lower|higher|less|more|shorter|longer|smaller|larger|greater)\b", re.IGNORECASE)
# "28x28", "800 x 1067", "1x3x224x224": a shape as a row states it once spaces are dropped
_SHAPE = lazy_compile(r"(?<![\w.])\d+(?:\s?[x×]\s?\d+)+(?![\w.])", re.IGNORECASE)
_THAN = lazy_compile(r"\bthan\b", re.IGNORECASE)
# a batch as a row may state one: at most 7 digits (the schema's largest batch is 1,048,576), so that a run of
# thousands of digits is no batch (int() refuses past 4,300 digits: an internal error before)
_BATCH = lazy_compile(r"\bbatch(?:[\s-]+size)?(?:\s*(?:=|of)\s*|[\s-]+)(\d{1,7})(?!\d)\b", re.IGNORECASE)


class VariantComparison(NamedTuple):
    """Two variants a clause compares the timings of: ``words`` the
    comparative as written ("faster", "1.3x faster"), ``first`` and
    ``second`` the variants' names in the order the clause names them."""

    words: str
    first: str
    second: str


def _names(variants: dict[str, dict]) -> list[tuple[re.Pattern, str]]:
    """A whole-word pattern of each name and label (longest first) and the variant it names."""
    spelled = {}
    for name, variant in variants.items():
        for words in (name, variant.get("label")):
            if words:
                spelled.setdefault(words.lower(), name)
    return [(re.compile(rf"(?<![\w.+-]){re.escape(words)}(?![\w+]|[.-]\w)", re.IGNORECASE), name)
            for words, name in sorted(spelled.items(), key=lambda item: -len(item[0]))]


def _named_variants(clause: str, names) -> list[str]:
    """The variants ``clause`` names, in the order it names them first, a
    longer name taking the text it shares with a shorter one."""
    # each character a name took: a match is tested against its own span, where testing it against every earlier
    # match took minutes on a 200 KB clause naming variants thousands of times
    taken = bytearray(len(clause))
    found: list[tuple[int, str]] = []
    for pattern, name in names:
        for match in pattern.finditer(clause):
            start, end = match.span()
            if any(taken[start:end]):
                continue
            taken[start:end] = b"\x01" * (end - start)
            found.append((start, name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


def _comparative(clause: str, changes: list[str]) -> re.Match | None:
    """Where ``clause`` holds a comparative of time (see the module
    docstring), or None; ``changes``: the percent changes lint reads in the
    clause's sentence, as written."""
    speed = _SPEED.search(clause)
    if speed is not None:
        return speed if TIME in kinds_named(clause, speed.group(0).split()[-1].lower()) else None
    if TIME not in kinds_named(clause, ""):
        return None
    for written in changes:
        # a change as lint writes it (spaces folded), found as the clause spells it
        change = re.search(r"\s+".join(map(re.escape, written.split())), clause)
        if change is not None:
            return change
    amount = _AMOUNT.search(clause)
    return amount if amount is not None and _THAN.search(clause, amount.end()) else None


def variant_comparisons(sentence, variants: dict[str, dict]) -> list[VariantComparison]:
    """The comparisons of two declared variants' timings that ``sentence`` (a
    lint :class:`~studygen.lint.document.Sentence`) makes with no figure
    (see the module docstring); ``variants`` the study file's, by name."""
    text = sentence.text
    names = _names(variants)
    changes = [change.written for change in changes_of(sentence)]
    ends = list(CLAUSE_END_RE.finditer(text))
    found = []
    for start, end in zip([0, *(match.end() for match in ends)], [*(match.start() for match in ends), len(text)]):
        clause = text[start:end]
        named = _named_variants(clause, names)
        if len(named) != 2:
            continue
        comparative = _comparative(clause, changes)
        # "we cannot tell whether fp16 is faster than fp32" says the data do not decide: no comparison made
        if comparative is not None and not (undecided(clause, *comparative.span()) or states_no_result(clause)):
            found.append(VariantComparison(" ".join(comparative.group(0).split()), *named))
    return found


def _shape_key(text: str) -> str:
    return re.sub(r"\s", "", text).lower().replace("×", "x")


def side_rows(study, text: str, variant: str) -> list:
    """The latency rows with a figure of ``variant`` that the sentence
    ``text`` is about: those of the GPU models, shapes and batches it names,
    each restriction read where some latency row of the study states what
    it names (a GPU, shape or batch no row states restricts nothing)."""
    timed = [row for row in study.rows if row.kind == Kind.LATENCY and row.value is not None]
    gpus = [model_key(match.group(1)) for match in GPU_MODEL.finditer(text)]
    shapes = {_shape_key(match.group(0)) for match in _SHAPE.finditer(text)}
    batches = {int(match.group(1)) for match in _BATCH.finditer(text)}
    # whether the sentence names a row's GPU, read once a GPU (a study has a few), not once a row and sentence
    named_gpu = {gpu: any(is_measured(name, model_words(gpu)) for name in gpus)
                 for gpu in {row.key.gpu for row in timed} if gpu} if gpus else {}
    tests = (lambda row: named_gpu.get(row.key.gpu, False),
             lambda row: bool(row.key.shape) and _shape_key(row.key.shape) in shapes,
             lambda row: row.key.batch in batches)
    for named, test in zip((gpus, shapes, batches), tests):
        if named and any(test(row) for row in timed):
            timed = [row for row in timed if test(row)]
    return [row for row in timed if row.variant == variant]


__all__ = ["VariantComparison", "side_rows", "variant_comparisons"]
