"""Placeholder text in the study file's prose: words that hold the place of
text nobody wrote yet, which a README would publish as the study's own words
("# TODO", "TBD", "…", "<model name>").

Which strings are prose (:data:`PROSE_FIELDS`): those a README prints as
sentences, headings or labels (the title, the description, the decision,
reasons, revisit conditions, variant labels, kernel group names, …); not
names, patterns or paths (``kernel_groups[*].pattern`` may well be ``...``).

When a string is placeholder text (:func:`placeholder_found`), case aside:

- **nothing but placeholder matter**: empty, blank, only dots, an ellipsis
  or other punctuation, or only markers and slots (``TODO``, ``TBD.``,
  ``[FIXME]``, ``<model name>``, ``fill in``);
- an **angle-bracket slot** anywhere (``YOLO on <gpu name>``): a template
  field left unfilled. An HTML element is not one: a void element
  (``<br>``, ``<hr>``, ``<wbr>``) or one closed later in the text
  (``<sup>2</sup>``); nor is a C++ template argument, brackets written
  right after a name (a kernel's ``Kernel2<cutlass_80_tensorop_s1688gemm>``);
- a **slot of another template language** anywhere: Jinja's or Mustache's
  ``{{ name }}``, the shell's or JavaScript's ``${NAME}``, ``%NAME%``, and
  Python's ``{name}`` when the name is no English word (it holds ``_`` or is
  in capitals: ``{gpu_name}``, ``{GPU}``);
- a **lone bracketed name**, ``[decision]`` or ``{decision}``, when it is the
  whole text or a whole sentence: in running prose it is notation ("maps
  {input} to a binding", "latency (ms) [median]");
- **N/A** (not applicable) when the text holds nothing else: as a row label
  ("N/A rows are not measured") it is prose;
- **TBD, TBA, XXX** as a whole word anywhere: they are no words of English
  prose, each stands in for a fact ("int8 takes XXX ms", "the A100 run is TBD");
- **to be decided, determined, confirmed** (TBD spelled out) opening or
  ending the text or a sentence ("To be decided.", "the A100 run is to be
  determined"); within a sentence it is prose ("was to be decided by the A100 runs");
- an **instruction to the author**: a sentence that opens with write,
  describe, add, insert, put, fill, enter or paste and ends with "here"
  ("Write the decision here.", "Add the A100 figures here"), or a whole
  field that only says where its text goes, a few words and "goes here"
  ("Summary goes here.": a new user's trial passed it);
- **TODO, FIXME, "fill in", "lorem ipsum"** used as a note: opening the text
  or a sentence, after a colon, followed by a colon, or alone in brackets
  ("TODO: add the L4", "Shipped. Fill in why.", "(todo)"). Elsewhere they are
  prose about something ("the TODO list of the upstream exporter", "a FIXME in
  onnx-graphsurgeon", "dashes fill in the missing cells") and pass.

A whole word is bounded by neither a letter, a digit, ``_``, ``-`` or ``/``,
nor a ``.`` or an apostrophe joined to a further letter: ``XXX-large`` (a
model size), ``todo.txt`` and ``TODOs`` are words of their own.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from . import NOT_MEASURED_KEY

# Fields of the study file a README prints as prose, as JSON-pointer steps; "*" stands for any key or index.
PROSE_FIELDS = (
    ("title",), ("description",), ("decision", "summary"), ("decision", "revisit_when", "*"),
    ("variants", "*", "label"), ("variants", "*", "description"),
    ("recipes", "*", "description"), ("recipes", "*", "keep_high_precision_reasons", "*"),
    *((NOT_MEASURED_KEY, "*", name) for name in ("config", "reason", "expectation", "because")),
    (NOT_MEASURED_KEY, "*", "aliases", "*"),
    ("comparisons", "*", "about"), ("spread_sources", "*", "reason"), ("waivers", "*", "reason"),
    ("explanations", "*", "text"), ("notes", "*"), ("kernel_groups", "*", "group"),
)

_BEFORE = r"(?<![\w\-/.])"  # not inside a word, a hyphenated compound, a path or a file name
_AFTER = r"(?![\w\-/]|[.'’]\w)"


def _word(pattern: str) -> str:
    return f"{_BEFORE}(?:{pattern}){_AFTER}"


_ANYWHERE_WORDS = ("tbd", "tba", "xxx")
_NOTE_WORDS = ("todo", "fixme", r"fill\s+in", r"lorem\s+ipsum")
_ANYWHERE = _word("|".join(_ANYWHERE_WORDS))
_NOTE = _word("|".join(_NOTE_WORDS))
_ANY_MARKER = lazy_compile(f"{_ANYWHERE}|{_NOTE}", re.IGNORECASE,
    needs=("tbd", "tba", "xxx", "todo", "fixme", "fill", "lorem"))
_STANDALONE = lazy_compile(_ANYWHERE, re.IGNORECASE)
_OPEN = r"[\s(\[{\"'*_>#-]*"  # brackets, quotes, emphasis, a bullet or a quote mark before a note's marker
_AS_NOTE = lazy_compile(
    rf"(?:^|[.!?:;]\s|\n){_OPEN}(?P<a>{_NOTE})"  # opening the text or a sentence, or after a colon
    rf"|(?P<b>{_NOTE})\s*:"  # followed by a colon: "TODO: …"
    rf"|[(\[{{]\s*(?P<c>{_NOTE})\s*[)\]}}]",  # alone in brackets
    re.IGNORECASE)
_SLOT = lazy_compile(r"<\s*([A-Za-z][\w \-]*?)\s*>")
_VOID_ELEMENTS = frozenset({"br", "hr", "wbr"})
_NAME = r"[A-Za-z_]\w*"
_OTHER_SLOT = lazy_compile(
    rf"\{{\{{\s*{_NAME}(?:\.{_NAME})*\s*\}}\}}"  # Jinja, Mustache: {{ name }}, {{ study.title }}
    rf"|\$\{{\s*{_NAME}\s*\}}"  # shell, JavaScript: ${NAME}
    rf"|(?<![\w%])%{_NAME}%(?![\w%])"  # %NAME%
    r"|(?<![\w{$])\{(?:[A-Za-z]\w*_\w*|[A-Z][A-Z\d]+)\}(?!\})")  # Python format, a name no English word
_LONE_SLOT = lazy_compile(rf"[\[{{]\s*{_NAME}\s*[\]}}]")
_SENTENCES = lazy_compile(r"(?<=[.!?:;])\s+|\n")
_FILLER = lazy_compile(_word(r"n/a"), re.IGNORECASE)  # placeholder matter only when nothing else is there
_SPELLED_ENDS = ("decided", "determined", "confirmed")
_SPELLED_TBD = rf"to\s+be\s+(?:{'|'.join(_SPELLED_ENDS)})"
_SPELLED = lazy_compile(
    rf"(?:^|[.!?:;]\s|\n){_OPEN}(?P<a>{_SPELLED_TBD}){_AFTER}"  # opening the text or a sentence
    rf"|{_BEFORE}(?P<b>{_SPELLED_TBD})\s*(?:[.!?;:]|$)",  # ending it
    re.IGNORECASE | re.MULTILINE, needs=("decided", "determined", "confirmed"))
_INSTRUCTION_VERBS = ("write", "describe", "add", "insert", "put", "fill", "enter", "paste")
_INSTRUCTION = lazy_compile(
    rf"(?:^|[.!?:;]\s|\n){_OPEN}(?P<i>(?:{'|'.join(_INSTRUCTION_VERBS)})\s"
    r"(?:[^.!?;:\n\s]+\s+){0,8}?here)\s*(?:[.!?]|$)", re.IGNORECASE | re.MULTILINE)
# A whole field that only says where its text goes ("Summary goes here.", "Your results go here"): a few words
# (no figure) and "goes here"; a sentence of real prose ("most of the time goes here") is never a field alone
_GOES_HERE_VERBS = ("goes", "go", "comes", "come", "belongs", "belong")
_GOES_HERE = lazy_compile(
    rf"^\W*(?P<i>(?:[^\W\d_][\w'’-]*\s+){{1,5}}?(?:{'|'.join(_GOES_HERE_VERBS)})\s+here)\W*$", re.IGNORECASE)

# What the patterns above need: a slot opens with one of _SLOT_MARKS; each other pattern needs, lower case,
# a word of its own (an alternative's first word), an instruction "here" and a verb (:class:`_Cues`).
_SLOT_MARKS = "<[{%"
_MARKER_WORDS = (*_ANYWHERE_WORDS, *(word.split("\\")[0] for word in _NOTE_WORDS))
_FILLER_WORDS = ("n/a",)


class _Cues:
    """Which patterns above may match one text: in ASCII text ``str.lower()``
    folds case as ``re.IGNORECASE`` does, so a pattern matches only where the
    lower-cased text holds its words. Most README lines hold none: the scans
    (each pattern tries every position of a line) are skipped for them. A
    text that is not ASCII may hold any (its case folds otherwise)."""

    __slots__ = ("lowered",)

    def __init__(self, text: str):
        self.lowered = text.lower() if text.isascii() else None

    def may(self, *needed: tuple[str, ...]) -> bool:
        """Whether the text holds a word of each of ``needed`` (always, when not ASCII)."""
        lowered = self.lowered
        return lowered is None or all(any(word in lowered for word in words) for words in needed)


def _angle_slots(text: str):
    """``(position, slot)`` of each ``<slot>`` of ``text`` that is no HTML
    element, nor a C++ template argument: brackets right after a name or
    ``::`` (``cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>``,
    a kernel that collect run's TF32 note names, in a record's notes)."""
    for match in _SLOT.finditer(text):
        if match.start() and (text[match.start() - 1].isalnum() or text[match.start() - 1] in "_:"):
            continue
        name = match.group(1)
        closed = re.search(rf"</\s*{re.escape(name)}\s*>", text[match.end():], re.IGNORECASE)
        if name.lower() not in _VOID_ELEMENTS and not closed:
            yield match.start(), match.group(0)


def _lone_slots(text: str):
    """``(position, slot)`` of each sentence of ``text`` that is one bracketed
    name and nothing else (a trailing full stop aside), no marker word."""
    start = 0
    for separator in [*_SENTENCES.finditer(text), None]:
        end = separator.start() if separator else len(text)
        sentence = text[start:end].strip().rstrip(".!?:;").strip()
        if _LONE_SLOT.fullmatch(sentence) and not _ANY_MARKER.search(sentence):
            yield text.index(sentence, start), sentence
        start = separator.end() if separator else end


def template_slots(text: str) -> list[str]:
    """Each unfilled template slot of ``text`` (``<slot>`` that is no HTML
    element, ``{{ name }}``, ``${NAME}``, …: see the module docstring), as
    written, in order."""
    return [slot for _, slot in _placed_slots(text)]


def _placed_slots(text: str) -> list[tuple[int, str]]:
    """``(position, slot)`` of each slot :func:`template_slots` names, in order."""
    if not any(mark in text for mark in _SLOT_MARKS):  # every slot opens with one of them
        return []
    found = [*_angle_slots(text), *_lone_slots(text),
             *((match.start(), match.group(0)) for match in _OTHER_SLOT.finditer(text))]
    return sorted(found)


def _spelled_tbd(text: str) -> tuple[int, str]:
    """``(position, words)`` of the first "to be decided" (determined,
    confirmed) of ``text`` that opens or ends a sentence, as written;
    ``(0, '')`` when there is none."""
    match = _SPELLED.search(text)
    if match is None:
        return 0, ""
    group = "a" if match.group("a") else "b"
    return match.start(group), match.group(group)


def names_a_marker(text: str) -> bool:
    """Whether ``text`` holds a placeholder word (TODO, TBD, …, as a whole
    word), a template slot, TBD spelled out, an instruction to the author or
    N/A: what placeholder text in a line of a README, whose tables and lists
    leave lines of pipes and dashes, is told by."""
    cues = _Cues(text)
    return bool((cues.may(_MARKER_WORDS) and _ANY_MARKER.search(text)) or template_slots(text)
                or (cues.may(_SPELLED_ENDS) and _spelled_tbd(text)[1])
                or (cues.may(("here",), _INSTRUCTION_VERBS) and _INSTRUCTION.search(text))
                or (cues.may(("here",), _GOES_HERE_VERBS) and _GOES_HERE.search(text))
                or (cues.may(_FILLER_WORDS) and _FILLER.search(text)))


def placeholder_found(text: str) -> tuple[str, int]:
    """``(reason, position)``: why ``text`` (one study-file string) is
    placeholder text, in words for a finding (``'TODO' used as a note``,
    ``the template slot <model name>``, ``it is empty``; the rules are the
    module docstring's), and where
    in ``text`` the matter it names begins (the slot, the marker word, the
    instruction; 0 for a text that is empty or nothing but placeholder
    matter), so that a finding quoting part of a long text can quote that
    part; ``('', 0)`` when ``text`` is no placeholder text."""
    text = str(text)
    if not text.strip():
        return "it is empty", 0
    cues = _Cues(text)
    markers = cues.may(_MARKER_WORDS)  # the words of _ANY_MARKER, _STANDALONE and _AS_NOTE
    slots = _placed_slots(text)
    spelled_at, spelled = _spelled_tbd(text) if cues.may(_SPELLED_ENDS) else (0, "")
    rest = _ANY_MARKER.sub(" ", text) if markers else text
    if cues.may(_FILLER_WORDS):  # a marker's removal leaves a space: it cannot join an "n/a" together
        rest = _FILLER.sub(" ", rest)
    for matter in [*(slot for _, slot in slots), spelled]:
        rest = rest.replace(matter, " ") if matter else rest
    if not re.search(r"[^\W_]", rest):
        return "it holds nothing but placeholder text", 0
    if slots:
        return f"the template slot {slots[0][1]}", slots[0][0]
    standalone = _STANDALONE.search(text) if markers else None
    if standalone or spelled:
        at, words = (standalone.start(), standalone.group(0)) if standalone else (spelled_at, spelled)
        return f"{' '.join(words.split())!r} stands in for a fact", at
    note = _AS_NOTE.search(text) if markers else None
    if note:
        group = next(name for name in ("a", "b", "c") if note.group(name))
        return f"{' '.join(note.group(group).split())!r} used as a note", note.start(group)
    instruction = _INSTRUCTION.search(text) if cues.may(("here",), _INSTRUCTION_VERBS) else None
    if instruction:
        return f"{' '.join(instruction.group('i').split())!r} is an instruction to the author", instruction.start("i")
    slot = _GOES_HERE.search(text) if cues.may(("here",), _GOES_HERE_VERBS) else None
    if slot:
        return f"{' '.join(slot.group('i').split())!r} marks text still to be written", slot.start("i")
    return "", 0


# PROSE_FIELDS by length and first step (never "*"), each as its later steps: a path is held against those only
# (about 1,200 paths a check of the shipped project, render's study-file view and SG218 each asking of every string).
_PROSE_FIELDS_AT: dict[tuple[int, str], list[tuple]] = {}
for _field in PROSE_FIELDS:
    _PROSE_FIELDS_AT.setdefault((len(_field), _field[0]), []).append(_field[1:])


def is_prose_field(path: tuple) -> bool:
    """Whether ``path`` (the keys and indexes from the study file's root to a
    string) names a field of :data:`PROSE_FIELDS`."""
    later_steps = _PROSE_FIELDS_AT.get((len(path), path[0])) if path else None
    return later_steps is not None and any(all(f in ("*", step) for f, step in zip(steps, path[1:]))
                                           for steps in later_steps)


def spec_strings(node, path: tuple = ()):
    """``(path, text)`` of every string in a parsed study file ``node``, depth
    first; ``path`` the keys and indexes from the root (as
    :func:`is_prose_field` reads them)."""
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from spec_strings(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from spec_strings(value, (*path, index))


def prose_strings(spec):
    """``(path, text)`` of each string of the study file ``spec`` in a prose
    field (:data:`PROSE_FIELDS`: what the README prints as the study's words)."""
    return ((path, text) for path, text in spec_strings(spec) if is_prose_field(path))


# Study-file fields whose figures claim no result of the study: the expectations of not_measured, and the
# words that account for a finding (a waiver's reason, an explanation): "the vendor's published 0.03395 ms".
NOT_CLAIMS = (NOT_MEASURED_KEY, "waivers", "explanations")


def claim_strings(spec):
    """:func:`prose_strings` but those of :data:`NOT_CLAIMS`: the prose whose
    figures state the study's results (SG205 and SG222 read their figures)."""
    return ((path, text) for path, text in prose_strings(spec) if path[0] not in NOT_CLAIMS)
