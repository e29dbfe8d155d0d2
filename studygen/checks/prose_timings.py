"""SG212 in the study file's prose: a ratio or comparison written by hand
whose two figures are latencies timed differently.

A helper's ratio or range knows its rows (:mod:`.sg212_incomparable`); a
sentence of the decision summary does not, so it was never checked. Here the
prose fields the README prints as written (render notes them, kind
:data:`~studygen.render.produced.WRITTEN`; not a field of
:data:`~studygen.study.placeholders.NOT_CLAIMS`: an expectation, a waiver's
reason or an explanation states no result) are read as lint reads any
Markdown, and each comparison lint finds there with both figures printed is
taken as its two operands:

- a ratio or percentage beside the two figures SG103 derives it from
  (:func:`studygen.lint.sg103_derived_figures.ratio_operands`: "int8 is 6.1x
  faster than fp32 (0.2754 ms on one GPU against 1.398 ms on the other)",
  "int8 (11.09 ms) is 8x slower than fp16 (0.2754 ms)");
- a comparative or a change that prints a figure beside each side
  (:func:`studygen.lint.inline_comparisons.compared_operands`: "faster than",
  "drops from 1.398 to 0.2754 ms").

Each figure (a time in ms or µs, at least
:data:`~studygen.checks.prose_figures.MIN_SIGNIFICANT` significant digits)
belongs to the rows that give it at its printed digits as SG222 matches a
quoted figure (:func:`~studygen.checks.prose_figures.matches` over
:func:`~studygen.checks.sg222_misquoted_figures.row_figures`: a row's own
figure or a statistic its record keeps). It resolves only when every such
row is a latency and all of them were timed one way
(:func:`~studygen.study.timing.timing_signature`); a figure no row gives, or
one rows timed differently give alike, is not judged. A figure every row of
which is a kernel time resolves to what its profile spans
(:func:`~studygen.records.profile_spread.kernel_span`): two kernel times of
different spans, a whole trace's total against a step's mean, are an SG212
error unless the sentence says what each spans ("per step", "whole trace");
a kernel time against a latency is not judged here. Case (trial 24): "The
A100 is 8.8x faster than the V100 in fp32 total kernel time (10.69 ms
against 93.6 ms)" set an AlexNet trace of no steps against five training
steps of another model.
Two resolved figures of different signatures are an SG212 error at the
sentence's line in the study file, naming each side's method as SG212's
other findings do (:func:`~studygen.study.timing.describe`).

Two times set side by side by a word alone ("takes 0.1547 ms against
0.1536 ms for fp32", "vs", "compared with") are a comparison too
(:func:`_set_against`), its verdict anywhere in the sentence or nowhere.
Sides timed one way but of different variants whose rows share no version
of a piece of software or no checkpoint revision (:func:`confounded`) are
an SG212 error as well, unless the sentence names one of those versions: the
difference it reads as the variant's is also the build's or the model's.
Case (trial s21): "fp16 on the GTX 1070 takes 0.1547 ms against 0.1536 ms
for fp32, so fp16 is no faster" set TensorRT 8.4.1 at one model commit
against TensorRT 8.2.3 at another.

A comparison of two variants' timings that prints no figure ("fp16 is
faster than fp32 on the GTX 1070", "1.3x faster", "cuts the latency by
12%": :func:`~.prose_variant_rows.variant_comparisons`) compares the two
variants' latency rows, those of the GPU, shape or batch it names
(:func:`~.prose_variant_rows.side_rows`): the same test, exemption, message
and hint apply to them (each side named by its variant and jobs, the key
``<pointer> <variant> against <variant>``). A sentence printing a time is
left to the reading above where that reading takes a pair of its figures;
one that it passes over (a denied comparison, "fp16 at 0.1547 ms is no
faster than fp32 at 0.1536 ms", which lint reads as no comparison of its
figures) is read as one without them. Case (a new user's trial, s23): that
sentence passed, though every fp16 row of the study came from TensorRT 8.0.3
or 8.4.1 and every fp32 row from 8.2.3, at other model commits; (s26) so did
the denied one, with its two figures printed.

Not reported:

- a sentence that names what differs in the method: a word for a field the
  two signatures differ in (``with CUDA graphs``, ``--noDataTransfers``,
  ``eager``/``compiled``, ``host latency``, a backend's name) or "timed
  differently" and the like: the comparison is the writer's on purpose;
- a difference of batch, shape, GPU or variant alone: the signature holds
  none of them, and a study compares batches and GPUs on purpose.

An explanation entry (code SG212, by ``key`` or ``match``) makes it a notice,
as for SG212's other findings. Case (a new user's trial): "int8 is 6.1x
faster than fp32 (0.2754 ms on the RTX 3080 against 1.398 ms on the RTX
3070)" set a run timed with CUDA graphs and without data transfers against
one timed the other way, and check said nothing of it (SG103 only of its
arithmetic).
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..lint.document import Document
from ..lint.figures import UNITS, Figure, with_unit
from ..lint.inline_comparisons import compared_operands
from ..lint.parse import parse_document
from ..lint.sg103_derived_figures import ratio_operands
from ..patterns import lazy_compile
from ..records.kinds import Kind
from ..records.profile_spread import kernel_span
from ..rules import code_of
from ..render.produced import WRITTEN
from ..study.placeholders import NOT_CLAIMS
from ..study.timing import describe, timing_label, timing_signature
from .base import at_written_field, readme_finding
from .prose_figures import MIN_SIGNIFICANT, NearValues, matches, significant_digits
from .prose_variant_rows import side_rows, variant_comparisons
from .sg222_misquoted_figures import row_figures

# the code of the check this module reads prose for (it reports under SG212's entry of the rule table)
CODE = code_of("studygen.checks.sg212_incomparable")
# lint's unit of a time figure -> the factor from ms (the rows' unit) to it
_PER_MS = {"ms": 1.0, "us": 1000.0}
# A figure in one of those units, as lint spells them (any case: a superset): a field without one holds no time to
# compare and is not parsed (parsing every written field of the shipped studies was 3 ms of a check)
_TIME_FIGURE = lazy_compile(r"\d\s*(?:" + "|".join(sorted((re.escape(word) for word, unit in UNITS.items()
                                                            if unit in _PER_MS), key=len, reverse=True)) + ")",
                            re.IGNORECASE)
# what a comparison of two variants with no figure holds (prose_variant_rows reads it): a field without it is not
# parsed for one
_WORDED_COMPARISON = lazy_compile(r"\b(?:faster|slower|quicker|speed-?ups?|slow-?downs?|than)\b|%", re.IGNORECASE)
# the hint's advice (at_written_field makes the finding's hint of it: where in the study file to edit the sentence)
BUILD_ADVICE = ("compare variants of one software version and model revision, or name the versions in the sentence, "
                f"or explain the comparison (explanations: {CODE})")
# what sets two times side by side with nothing between them but the word: "0.1547 ms against 0.1536 ms"
_AGAINST = re.compile(r"\s*,?\s*(against|vs\.?|versus|compared\s+(?:with|to))\s+", re.IGNORECASE)
# the signature of a kernel time: (_KERNEL, what its figures span), never equal to a latency's
_KERNEL = "kernel time"
SPAN_ADVICE = ("compare kernel times that span the same thing (profiles with profiler steps, or whole traces), or say "
               f"in the sentence what each spans, or explain the comparison (explanations: {CODE})")
# words that say what a kernel time spans, so that a sentence naming them compares spans on purpose
_SPAN_NAMED = lazy_compile(r"\bwhole[\s-]trace\b|\bper[\s-](?:profiled\s+)?(?:steps?|iterations?|forwards?)\b|"
                           r"\btotal\s+over\b|\bmean\s+per\b|\bself[\s-]time\b", re.IGNORECASE)
ADVICE = ("compare figures timed the same way, or say in the sentence how each side was timed, or explain the "
          f"comparison (explanations: {CODE})")

# Words that name a part of a timing signature (its fields in timing_signature's order), so that a sentence
# naming the part its two sides differ in says it compares methods on purpose; a word is read whole, any case.
_SIGNATURE_WORDS = (
    r"tensorrt|trt|pytorch|torch|onnx\s*runtime|onnxruntime|ort",  # backend
    r"eager|compiled?|torch\.compile|inductor",  # mode
    r"gpu\s+compute|host\s+latency|end[\s-]to[\s-]end|enqueue|cuda[\s-]events?|copy\s+times?|h2d|d2h",  # timing
    r"cuda[\s-]?graphs?|graphs?|--?usecudagraph",  # CUDA graphs
    r"data[\s-]transfers?|transfers?|copies|--?nodatatransfers",  # data transfers
    r"spin[\s-]?wait(?:ing)?|--?usespinwait",  # spin-wait
    r"host\s+(?:waits?|sync\w*)|waits?\s+for\s+each|back[\s-]to[\s-]back|synchroni[sz]\w*",  # host waits
    r"threads?|intra[\s-]op|omp_num_threads|num_threads",  # intra-op threads (collect run --cpu)
)
_FIELD_WORDS = tuple(lazy_compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.IGNORECASE) for words in _SIGNATURE_WORDS)
_TIMING = 2  # the index of what was timed (GPU compute time, host latency, …) in a timing signature
# words that say the two were timed differently, whatever part differs
_METHOD_NAMED = lazy_compile(r"\btimed\s+differently\b|\bdifferent\s+(?:timing|method)s?\b|"
                             r"\btiming\s+methods?\b|\bmeasured\s+differently\b", re.IGNORECASE)


def check(context) -> list[Finding]:
    """SG212 findings of the prose fields the README prints as written (see the module docstring)."""
    readme = context.readme_text
    if readme is None:
        return []
    owners = _Owners(context.study)
    findings, seen = [], set()
    for item, _ in context.produced_outputs([WRITTEN]):
        path = item.field_path
        if not path or path[0] in NOT_CLAIMS or path in seen:
            continue
        text = str(item.text)
        timed, worded = _TIME_FIGURE.search(text), _WORDED_COMPARISON.search(text)
        if not (timed or worded):
            continue
        seen.add(path)
        document = parse_document(text, item.source.path)
        read = set()  # the sentences whose comparison was read with its figures (by id: one document's sentences)
        if timed:
            for sentence, words, first, second in _comparisons(document):
                read.add(id(sentence))
                finding = _finding(context, owners, item, sentence, words, first, second)
                if finding is not None:
                    findings.append(finding)
        if worded:
            findings.extend(_worded_findings(context, item, document, read))
    return findings


def _worded_findings(context, item, document: Document, read: set[int]) -> list[Finding]:
    """The findings of the comparisons of two variants' timings that
    ``document`` (the field ``item``) makes without a pair of figures read
    (:func:`~.prose_variant_rows.variant_comparisons`; ``read`` the ids of
    the sentences whose figures :func:`_comparisons` took, one finding per
    sentence being enough): each whose sides' latency rows are
    :func:`confounded`. A sentence that prints its times but denies the
    comparison ("fp16 at 0.1547 ms is no faster than fp32 at 0.1536 ms"),
    which the figures' reading passes over, is read here."""
    findings = []
    for block in document.prose:
        for sentence in block.sentences:
            if id(sentence) in read:
                continue
            for compared in variant_comparisons(sentence, context.study.variants):
                text = sentence.text
                sides = [(variant, side_rows(context.study, text, variant))
                         for variant in (compared.first, compared.second)]
                confounds = confounded(text, sides[0][1], sides[1][1]) if sides[0][1] and sides[1][1] else []
                if not confounds:
                    continue
                pointer = item.source.pointer
                listed = "; ".join(f"{variant} ({_jobs(rows)})" for variant, rows in sides)
                message = (f"'{compared.words}' in {pointer} compares variants that differ in more than the variant "
                           f"({'; '.join(confounds)}): {listed}")
                findings.append(_at_sentence(context, item, text, message, BUILD_ADVICE,
                                             f"{pointer} {compared.first} against {compared.second}"))
    return findings


def _comparisons(document: Document):
    """``(sentence, words, first, second)`` of each comparison of ``document``
    with both figures printed (see the module docstring): ``words`` the ratio
    as printed or the comparative's words; each pair of figures once."""
    for block in document.prose:
        if not block.has_digits:
            continue
        for sentence in block.sentences:
            if len(sentence.tokens) < 2:
                continue
            said = set()
            read = [(with_unit(ratio.text, ratio.unit), a, b) for ratio, a, b in ratio_operands(sentence)]
            # a comparative's words name the comparison better than 'against': read first, each pair once
            read += compared_operands(document, sentence, ordered=False) + _set_against(sentence)
            for words, first, second in read:
                pair = frozenset((first.start, second.start))
                if pair not in said:
                    said.add(pair)
                    yield sentence, words, first, second


def _set_against(sentence) -> list[tuple[str, Figure, Figure]]:
    """``(words, first, second)`` of two times set side by side by a word and
    nothing else ("takes 0.1547 ms against 0.1536 ms for fp32", "12.1 ms vs
    9.8 ms"): a comparison whose verdict may sit elsewhere in the sentence
    (", so fp16 is no faster"), or nowhere."""
    times = [token.figure for token in sentence.tokens
             if token.figure is not None and token.figure.unit in _PER_MS and token.start not in sentence.range_ends]
    text = sentence.block.text
    return [(" ".join(match.group(1).split()), first, second) for first, second in zip(times, times[1:])
            if (match := _AGAINST.fullmatch(text, first.end, second.start))]


class _Owners:
    """The latency rows each printed time figure belongs to, read on first
    use (most studies' prose compares no figures)."""

    def __init__(self, study):
        self.study = study
        self._figures: list[tuple[list[float], object]] | None = None
        self._near: NearValues | None = None  # the figures' values by size, made with them

    def of(self, figure: Figure, unit: str | None) -> tuple[frozenset, list] | None:
        """``(signatures, rows)``: the timing signatures and the rows of a
        figure in ``unit`` (``ms`` or ``us``), where every row giving it at
        its printed digits is a latency and all were timed one way, what was
        timed aside (a run without data transfers prints one figure as its
        GPU compute time and its host latency: the figure is either); None
        otherwise (no row, a kernel time, rows timed differently, too few
        digits, another unit)."""
        factor = _PER_MS.get(unit or "")
        if factor is None or significant_digits(figure.text) < MIN_SIGNIFICANT:
            return None
        if self._figures is None:
            self._figures = [(row_figures(row), row) for row in self.study.rows if row.unit == "ms"]
            self._near = NearValues((value, index) for index, (values, _) in enumerate(self._figures)
                                    for value in values)
        candidates = [self._figures[index] for index in self._near.near(figure.text, factor)]
        rows = [row for values, row in candidates if any(matches(figure.text, v * factor) for v in values)]
        if rows and all(row.kind == Kind.KERNEL_TIME for row in rows):
            spans = frozenset((_KERNEL, kernel_span(row.record, row.result)) for row in rows)
            return (spans, rows) if len(spans) == 1 else None  # rows of two spans give it alike: not told
        if not rows or any(row.kind != Kind.LATENCY for row in rows):
            return None
        signatures = frozenset(timing_signature(row) for row in rows)
        if len({_without_timing(signature) for signature in signatures}) > 1:
            return None  # rows timed differently give it alike: whose it is cannot be told
        return signatures, rows


def _without_timing(signature: tuple) -> tuple:
    return signature[:_TIMING] + signature[_TIMING + 1:]


def _differing(first: frozenset, second: frozenset) -> list[int]:
    """Indexes of the signature fields in which no signature of ``first`` meets one of ``second``."""
    return [index for index, (a, b) in enumerate(zip(zip(*first), zip(*second))) if set(a).isdisjoint(b)]


def names_the_method(sentence: str, differing) -> bool:
    """Whether ``sentence`` says how its two sides were timed: a word for a
    signature field of ``differing`` (indexes, :data:`_SIGNATURE_WORDS`), or
    words that say they were timed differently."""
    return _METHOD_NAMED.search(sentence) is not None or any(_FIELD_WORDS[index].search(sentence) for index in differing)


def _jobs(rows) -> str:
    """The jobs of ``rows`` in words: ``job a`` or ``jobs a, b``."""
    jobs = list(dict.fromkeys(row.job_id for row in rows))
    return f"job {jobs[0]}" if len(jobs) == 1 else f"jobs {', '.join(jobs)}"


def _side(figure: Figure, unit: str, signatures: frozenset, rows: list) -> str:
    """One side in words: ``0.2754 ms (int8, job a): TensorRT engine, …``."""
    variants = ", ".join(dict.fromkeys(row.variant for row in rows))
    named = _jobs(rows)
    signature = min(signatures, key=str)  # any: they differ in what was timed only, which timing_label names
    return f"{with_unit(figure.text, unit)} ({variants}, {named}): {describe(signature, timing_label(rows))}"


def _versions(rows) -> dict[str, set[str]]:
    """Each software name of ``rows``' keys (``tensorrt``, ``cuda``) and the
    checkpoint revision (``model revision``), with the values the rows hold."""
    held: dict[str, set[str]] = {}
    for row in rows:
        for part in filter(None, (row.key.software or "").split(",")):
            name, _, version = part.partition("=")
            held.setdefault(name, set()).add(version)
        if row.key.revision:
            held.setdefault("model revision", set()).add(row.key.revision)
    return held


def confounded(text: str, first_rows: list, second_rows: list) -> list[str]:
    """What else than the variant tells apart two sides of a comparison timed
    one way, in words (``tensorrt 8.4.1 against 8.2.3``, ``model revision
    76321b1 against c65790e``): set when the sides are different variants
    whose rows share no version of a piece of software, or no checkpoint
    revision, and ``text`` names none of those versions (a comparison across
    them on purpose names them); else empty."""
    if {row.variant for row in first_rows} & {row.variant for row in second_rows}:
        return []  # one variant on both sides: a comparison of versions or revisions is what it is about
    first, second = _versions(first_rows), _versions(second_rows)
    words = []
    for name in sorted(first.keys() & second.keys()):
        if first[name].isdisjoint(second[name]):
            # a version that ends the sentence ("... on 8.2.3.") is named; one that goes on ("8.2.3.1") is another
            if any(re.search(rf"(?<![\w.]){re.escape(value)}(?!\w|\.\w)", text, re.I)
                   for value in first[name] | second[name]):
                return []
            words.append(f"{name} {', '.join(sorted(first[name]))} against {', '.join(sorted(second[name]))}")
    return words


def _finding(context, owners: _Owners, item, sentence, words: str, first: Figure, second: Figure) -> Finding | None:
    """The finding of one comparison of the field ``item``, or None when its
    figures do not both resolve, were timed alike from one build and model
    (or the comparison names what differs), or the sentence names the
    difference."""
    unit = first.unit or second.unit
    sides = owners.of(first, unit), owners.of(second, unit)
    if None in sides:
        return None  # a side unresolved
    text = sentence.text
    kernel = [_is_kernel(signatures) for signatures, _ in sides]
    if any(kernel):
        return _span_finding(context, item, sentence, words, first, second, sides) if all(kernel) else None
    if not sides[0][0].isdisjoint(sides[1][0]):
        # timed one way: the variants' figures may still come from other software or another model revision
        confounds = confounded(text, sides[0][1], sides[1][1])
        if not confounds:
            return None
        what, advice = f"variants that differ in more than the variant ({'; '.join(confounds)})", BUILD_ADVICE
    elif names_the_method(text, _differing(sides[0][0], sides[1][0])):
        return None
    else:
        what, advice = "latencies measured differently", ADVICE
    pointer = item.source.pointer
    listed = "; ".join(_side(figure, unit, signatures, rows) for figure, (signatures, rows) in zip((first, second), sides))
    shown = f"{with_unit(first.text, unit)} against {with_unit(second.text, unit)}"
    message = f"'{words}' in {pointer} compares {what}: {listed}"
    return _at_sentence(context, item, text, message, advice, f"{pointer} {shown}")


def _is_kernel(signatures: frozenset) -> bool:
    return any(signature[0] == _KERNEL for signature in signatures)


def _span_finding(context, item, sentence, words: str, first: Figure, second: Figure, sides) -> Finding | None:
    """The finding of a comparison of two kernel times (``sides`` as
    :meth:`_Owners.of` gives them) whose figures span different things, a
    total over a whole trace against a mean per iteration, say
    (:func:`~studygen.records.profile_spread.kernel_span`), unless the
    sentence says what each spans; None otherwise."""
    spans = [next(iter(signatures))[1] for signatures, _ in sides]
    if spans[0] == spans[1] or _SPAN_NAMED.search(sentence.text):
        return None
    unit = first.unit or second.unit
    pointer = item.source.pointer
    listed = "; ".join(f"{with_unit(figure.text, unit)} ({', '.join(dict.fromkeys(r.variant for r in rows))}, "
                       f"{_jobs(rows)}): {span}" for figure, (_, rows), span in zip((first, second), sides, spans))
    message = f"'{words}' in {pointer} compares kernel times that span different things: {listed}"
    shown = f"{with_unit(first.text, unit)} against {with_unit(second.text, unit)}"
    return _at_sentence(context, item, sentence.text, message, SPAN_ADVICE, f"{pointer} {shown}")


def _at_sentence(context, item, text: str, message: str, advice: str, key: str) -> Finding:
    """The SG212 error of the sentence ``text`` of the field ``item``."""
    at_readme = readme_finding(context.study, CODE, context.readme_text.locate(item), message, advice, key=key)
    # at the line where the sentence starts in the field (the field's own line where that is not certain)
    return at_written_field(context, at_readme, item, advice, text)


__all__ = ["CODE", "check", "names_the_method"]
