"""SG206 unmeasured configurations: a configuration the study file lists
under ``not_measured`` (with its ``aliases``) may appear only through
``study.expectation(config)``, which prints hedged wording ("Not measured:
X (reason). Expected without a measurement: …, because …"), or through
helpers that state no result: ``study.variant_entry`` (the Variants list, a
declaration) and ``study.revisit_conditions`` (``revisit_when`` entries,
conditions by the field's meaning).

Errors:

- records: a result (other than ``kind: not_measured``) of a variant whose
  name, label or precision is the configuration or an alias — a figure of
  something the study says it never measured;
- README: a mention of the configuration or an alias (whole words, any case;
  a format also written in words, "a four-bit integer format" for INT4)
  anywhere outside text that ``expectation`` printed in the same render —
  a table cell or header, a sentence that states it as a result, a range
  that includes it (see :mod:`studygen.checks.readme_text` for how helper text is
  recognised).

A configuration that names one of the study's variants (its name, label or
precision) and one of the GPUs its records ran on ("fp32 on the GeForce RTX
3090") is also named by its parts: a sentence (a table row) that names the
variant and the GPU however spelt (vendor words such as GeForce, NVIDIA,
Tesla optional, words parted by a space, a hyphen or nothing:
:func:`studygen.label_names.label_pattern`) names it ("On the RTX 3090, fp32
was slower"), and so does a record of that variant on that GPU. A mention by
parts is exempt where both parts lie in helper output that states no result.

A hand-written sentence that only declares the configuration not measured
(its subject: "int8 was not measured.", "INT8 on the GTX 1070 has not been
tried yet, for want of a calibration set."; or its object: "We did not
measure int8.") states no result and is no finding, as long as it holds no
outcome word (:data:`studygen.lint.sg106_unmeasured.OUTCOME_RE`: faster,
gain, no speedup …) and no figure: the hint to a study-file field says to
write exactly that (:func:`declares_unmeasured`).

Cases: (issue 22) a new user's generic README drew SG206 on its own Variants
list and on a revisit_when line "publishes an FP16 run"; (trial s20) the
decision summary "int8 was not measured." drew SG206 after its author had
followed the hint; (seed) "NVFP4 was not tried: FP8 already gives no speedup on these
linears" states an unmeasured configuration as a conclusion.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from bisect import bisect_right
from itertools import accumulate

from ..findings import Finding
from ..label_names import label_pattern
from ..lint.format_words import format_mentions
from ..lint.sg106_unmeasured import DO_OR_DONE_WORDS, DONE_WORDS, OUTCOME_RE
from ..records.kinds import NOT_MEASURED_STATISTIC
from .base import prose_finding, row_finding
from .readme_text import numbered_labels, numbers_in, quote, sentence_at, sentence_bounds

# Helper output that states no result: hedged wording, the Variants list (what
# the study file declares), revisit_when entries (conditions, by the field's meaning),
# a record's notes on its input (a trtexec log's builder-default "Precision: FP32" line,
# quoted by collect, named a configuration the study never measured).
STATES_NO_RESULT = frozenset({"expectation", "variant_list", "condition", "record_note"})


# "<a few words naming it> was not measured": the mention lies in the subject, before the verb
_DECLARED_SUBJECT_RE = re.compile(
    r"^(?:[\w.+-]+\s+){0,8}?(?:was|were|is|are|has|have)\s+(?:not|never)\s+(?:yet\s+)?(?:been\s+)?(?:yet\s+)?"
    + DONE_WORDS + r"\b", re.I)
# "We did not measure <it>": the mention lies after the verb
_DECLARED_OBJECT_RE = re.compile(
    r"^(?:we|i|nobody|no\s+one)\s+(?:did\s+not|didn't|have\s+not|haven't|has\s+not|hasn't|never)\s+(?:yet\s+)?"
    + DO_OR_DONE_WORDS + r"\b", re.I)


def declares_unmeasured(sentence: str, start: int, labels=None) -> bool:
    """Whether ``sentence`` (hand-written prose, list marks stripped) only
    declares the configuration mentioned at offset ``start`` not measured:
    it opens with a declaration whose subject holds the mention ("int8 was
    not measured", "INT8 on the GTX 1070 has not been tried") or whose
    object follows it ("We did not measure int8"), with a measuring verb of
    lint's list (:data:`~studygen.lint.sg106_unmeasured.MEASURING_VERBS`,
    the one SG106 reads), and holds no outcome word
    (:data:`~studygen.lint.sg106_unmeasured.OUTCOME_RE`) and no figure
    (:func:`~studygen.checks.readme_text.numbers_in`, a number in a name
    ``labels`` finds left out) up to its full stop. A reason may follow ("…, for want of a
    calibration set"); a result may not ("…, but it would save 2 ms")."""
    if OUTCOME_RE.search(sentence) or numbers_in(sentence, labels):
        return False
    subject = _DECLARED_SUBJECT_RE.match(sentence)
    if subject and start < subject.end():  # its words hold no ',', ';', ':' or parenthesis
        return True
    action = _DECLARED_OBJECT_RE.match(sentence)
    return bool(action and start >= action.end())


def names(entry: dict) -> list[str]:
    """The configuration and its aliases, longest first (so 'NVFP4 linears' wins over 'NVFP4')."""
    return sorted({entry["config"], *entry.get("aliases", [])}, key=len, reverse=True)


def mention_pattern(entry: dict) -> re.Pattern:
    alternatives = "|".join(re.escape(name) for name in names(entry))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.I)


class Parts(NamedTuple):
    """A configuration read as a variant on a GPU: ``variant`` finds a name,
    label or precision of the variants it names (lower case, whole word),
    ``gpu`` one of the GPUs it names however spelt; ``variants`` and ``gpus``
    are those variants' names and the GPUs as the records give them."""

    variant: re.Pattern
    gpu: re.Pattern
    variants: frozenset[str]
    gpus: frozenset[str]
    other_gpus: re.Pattern | None = None  # the records' other GPUs: a sentence naming one compares, not configures


def _whole_words(alternatives) -> str:
    return "(?<![\\w-])(?:" + "|".join(re.escape(a) for a in sorted(alternatives, key=len, reverse=True)) + ")(?![\\w-])"


def config_parts(study, entry: dict) -> Parts | None:
    """The parts of ``entry``'s configuration (or of an alias) when it names
    one or more of the study's variants by name, label or precision and one
    or more GPUs of its records (:func:`~studygen.label_names.label_pattern`),
    else None: ``"fp32 on the GeForce RTX 3090"`` is variant fp32 on the
    record GPU "NVIDIA GeForce RTX 3090"."""
    spelt = [name.lower() for name in names(entry)]
    patterns = {gpu: label_pattern(" ".join(gpu.lower().split()))[1]
                for gpu in sorted({row.gpu for row in study.rows if row.gpu})}
    spans = {gpu: [(i, m.span()) for i, name in enumerate(spelt) if (m := re.search(pattern, name))]
             for gpu, pattern in patterns.items()}
    # a GPU named only inside a longer GPU's name is that one's: "RTX 3090 Ti" is no "RTX 3090"
    gpus = {gpu: patterns[gpu] for gpu, found in spans.items()
            if any(not _inside(span, spans) for span in found)}
    if not gpus:
        return None
    variants, alternatives = set(), set()
    for name, variant in study.variants.items():
        words = _variant_words(name, variant)
        if any(re.search(_whole_words([word]), text) for word in words for text in spelt):
            variants.add(name)
            alternatives |= words
    if not variants:
        return None
    others = [pattern for gpu, pattern in patterns.items() if gpu not in gpus]
    return Parts(re.compile(_whole_words(alternatives), re.I), re.compile("|".join(gpus.values())),
                 frozenset(variants), frozenset(gpus), re.compile("|".join(others)) if others else None)


def _variant_words(name: str, variant: dict) -> set[str]:
    """A variant's name, label and precision (those it has), lower-cased: the words that name it."""
    return {str(word).lower() for word in (name, variant.get("label"), variant.get("precision")) if word}


def _inside(span: tuple[int, tuple[int, int]], spans: dict) -> bool:
    """Whether ``span`` (``(name index, (start, end))``) lies strictly inside another GPU's span in the same name
    (a GPU has one span a name, so no span of its own is strictly around it)."""
    index, (start, end) = span
    return any(i == index and s <= start and end <= e and (s, e) != (start, end)
               for found in spans.values() for i, (s, e) in found)


def _part_mentions(line: str, parts: Parts | None) -> list[tuple[tuple[int, int], ...]]:
    """``((start, end) of the variant, (start, end) of the GPU)`` for each
    variant name in ``line`` whose sentence (a table line: the row) names a
    GPU of ``parts`` too; [] without parts."""
    if parts is None:
        return []
    lowered = line.lower()
    if not parts.gpu.search(lowered):
        return []
    found = []
    for match in parts.variant.finditer(line):
        first, last = (0, len(line)) if line.startswith("|") else sentence_bounds(line, match.start(), match.end())
        gpu = parts.gpu.search(lowered, first, last)
        if gpu and not _names_another_gpu(lowered, first, last, parts):
            found.append((match.span(), gpu.span()))
    return found


def _names_another_gpu(lowered: str, first: int, last: int, parts: Parts) -> bool:
    """Whether ``lowered[first:last]`` also names a GPU of the records other
    than the configuration's (not as part of the configuration GPU's longer
    name): "fp16 takes 0.05 ms on the RTX 3090 and fp32 0.09 ms on the GTX
    1070" compares two GPUs and states no fp32 result on the RTX 3090."""
    if parts.other_gpus is None:
        return False
    own = [m.span() for m in parts.gpu.finditer(lowered, first, last)]
    return any(not any(s <= m.start() and m.end() <= e for s, e in own)
               for m in parts.other_gpus.finditer(lowered, first, last))


def _mentions(named: list[tuple[int, int]], formats: list[tuple[str, int, int]], wanted: frozenset[str]):
    """``(start, end)`` of each mention of the configuration in one line, in
    order: its names and aliases where :func:`_named_by_line` found them
    (``named``), and the formats written in words whose name is one of them
    (``wanted``: the names and aliases lower-cased; "a four-bit integer
    format" for INT4; ``formats`` from the shared vocabulary,
    :func:`studygen.lint.format_words.format_mentions`)."""
    if not named and not formats:  # nearly every line: no set to build and sort
        return []
    return sorted({*named, *((start, end) for name, start, end in formats if name in wanted)})


def _all_mentions(line: str, named, formats, wanted: frozenset[str], parts: Parts | None) -> list[tuple[tuple[int, int], ...]]:
    """Each mention of the configuration in ``line`` as the places it covers,
    in order: one place for a name, alias or format (:func:`_mentions`), two
    for a variant and a GPU named in one sentence (:func:`_part_mentions`)."""
    whole = [(span,) for span in _mentions(named, formats, wanted)]
    return sorted(whole + _part_mentions(line, parts))


def _named_by_line(lines: list[str], pattern: re.Pattern, entry_names: list[str]) -> dict[int, list[tuple[int, int]]]:
    """``{index: [(start, end), ...]}``: where ``pattern`` (:func:`mention_pattern`)
    finds a name in each of ``lines`` (lines without one left out), as
    ``pattern.finditer`` finds them line by line. The lines are searched as
    one text, a newline between two (one search instead of one a line): no
    name can match across the newline (a name holding one is searched line by
    line), and a newline is no word character or hyphen, as the pattern sees
    a line's ends, so each line's matches are the same."""
    if any("\n" in name for name in entry_names):
        return {i: found for i, line in enumerate(lines) if (found := [m.span() for m in pattern.finditer(line)])}
    if all(name.isascii() for name in entry_names):
        return {i: found for i in _lines_naming(lines, entry_names)
                if (found := [m.span() for m in pattern.finditer(lines[i])])}
    text = "\n".join(lines)
    starts = list(accumulate((len(line) + 1 for line in lines), initial=0))
    found: dict[int, list[tuple[int, int]]] = {}
    index = 0
    for match in pattern.finditer(text):
        while starts[index + 1] <= match.start():
            index += 1
        found.setdefault(index, []).append((match.start() - starts[index], match.end() - starts[index]))
    return found


def _lines_naming(lines: list[str], entry_names: list[str]) -> list[int]:
    """Indexes, in order, of the lines that may hold one of ``entry_names``
    (ASCII, none holding a newline) as :func:`mention_pattern` finds them:
    every line that is not ASCII, and each ASCII line whose lower case holds
    a name's. Among ASCII characters ``str.lower()`` folds case as
    ``re.IGNORECASE`` does, so the names are found by ``str.find`` over the
    ASCII lines at C speed; the pattern, whose look-behind makes it try every
    position of a text, then reads only these lines (a README's lines were
    scanned once for each declared configuration)."""
    ascii_text = "\n".join(line if line.isascii() else "" for line in lines).lower()
    starts = list(accumulate((len(line) + 1 if line.isascii() else 1 for line in lines), initial=0))
    found = {i for i, line in enumerate(lines) if not line.isascii()}
    for name in {name.lower() for name in entry_names}:
        at = ascii_text.find(name)
        while at >= 0:
            found.add(bisect_right(starts, at) - 1)
            at = ascii_text.find(name, at + 1)
    return sorted(found)


def record_findings(study, entries: list[dict]) -> list[Finding]:
    findings = []
    variants = study.variants
    labels_of = {name: _variant_words(name, variants.get(name, {})) for name in {row.variant for row in study.rows}}
    for entry in entries:
        wanted = {n.lower() for n in names(entry)}
        parts = config_parts(study, entry)
        for row in study.rows:
            if row.statistic == NOT_MEASURED_STATISTIC:
                continue
            if labels_of[row.variant] & wanted or parts is not None and row.variant in parts.variants and row.gpu in parts.gpus:
                figure = row.value if row.value is not None else f"{row.value_min} to {row.value_max}"
                findings.append(row_finding(
                    "SG206", row,
                    f"job {row.job_id} reports {row.kind} {figure} for {row.variant}, but the study file lists "
                    f"{entry['config']} as not measured ({entry['reason']})",
                    hint="remove the figure, or remove the configuration from not_measured"))
    return findings


def readme_findings(context, entries: list[dict]) -> list[Finding]:
    study = context.study
    text = context.readme_text
    if text is None:
        return []
    findings = []
    per_entry = []
    labels = numbered_labels(study)
    for entry in entries:
        entry_names = names(entry)
        per_entry.append((entry, frozenset(name.lower() for name in entry_names),
                          _named_by_line(text.lines, mention_pattern(entry), entry_names), config_parts(study, entry)))
    for index, line in text.prose_lines():
        formats = format_mentions(line)
        for entry, wanted, named, parts in per_entry:
            sentences_seen = set()
            mentions = _all_mentions(line, named.get(index, []), formats, wanted, parts)
            stated = _own_digits_masked(line, mentions)
            for places in mentions:
                if all(text.covered(index, start, end, kinds=STATES_NO_RESULT) for start, end in places):
                    continue
                start, end = places[0]
                in_table = line.startswith("|")
                if in_table and sentences_seen:
                    break  # one finding per table row
                span = sentence_at(line, start, end)
                if span in sentences_seen:
                    continue  # one finding per sentence
                sentences_seen.add(span)
                sentence = line if in_table else sentence_at(line, start, end)
                if not in_table and declares_unmeasured(*_full_sentence(stated, start, end), labels):
                    continue
                figures = numbers_in(stated if in_table else sentence_at(stated, start, end), labels)
                shown = f" with figures {', '.join(figures)}" if figures else ""
                where = "a table row" if in_table else "hand-written text"
                findings.append(prose_finding(
                    context, "SG206", index, (start, end),
                    f"{entry['config']} is declared not measured ({entry['reason']}) but {where} names it{shown}: "
                    f"{quote(sentence)}",
                    f"state it only through study.expectation({entry['config']!r}), which prints hedged wording",
                    # a study-file field cannot call a helper; the README's Not measured list already says it
                    "say here that it was not measured, or leave it out (the README's Not measured list gives "
                    "its reason)"))
    return findings


def _own_digits_masked(line: str, mentions: list[tuple[tuple[int, int], ...]]) -> str:
    """``line`` with each digit inside a mention of the configuration read as
    a letter ('_'), offsets kept: the "8.2.3" of "fp16 on TensorRT 8.2.3" or
    the "64" of "batch 64" is part of the name a sentence declares not
    measured, no figure stated about it."""
    if not mentions:  # nearly every line
        return line
    chars = list(line)
    for places in mentions:
        for start, end in places:
            chars[start:end] = ("_" if c.isdigit() else c for c in chars[start:end])
    return "".join(chars)


_FULL_STOP = re.compile(r"\.(?= )")  # a '.' with a space after it ends a sentence


def _full_sentence(line: str, start: int, end: int) -> tuple[str, int]:
    """The sentence of ``line`` around ``[start, end)`` up to its full stop
    (a ';' does not end it here: "int8 was not measured; it needs 0.2 ms"
    says more than the declaration), its list marks and emphasis stripped,
    and the offset of ``start`` in it."""
    first = sentence_bounds(line, start, end)[0]
    stop = _FULL_STOP.search(line, end)
    text = line[first:stop.end() if stop else len(line)]
    stripped = text.lstrip(" -*")
    return stripped.rstrip(" *"), start - first - (len(text) - len(stripped))


def check(context) -> list[Finding]:
    study = context.study
    entries = study.declared_not_measured
    if not entries:
        return []
    return record_findings(study, entries) + readme_findings(context, entries)
