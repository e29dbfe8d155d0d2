"""SG106 unmeasured stated as result: a configuration the document itself
says was not tried, measured or run, given an outcome elsewhere without
hedging. The finding sits on the line of the sentence's first outcome.

**Declarations** the check reads:

- "NVFP4 was not tried", "FP8 convolutions were not measured",
  "GB300 has not been benchmarked";
- "we did not measure NVFP4", "didn't try int8";
- "Not measured: B300 with TensorRT 11.1, GB300, H100" (a list);
- "NVFP4 (not measured)";
- "Deferred: the DeepEP column, 2-node runs" (also skipped, pending, out
  of scope, left for later, not yet run);
- list items under a heading such as "Not measured", "What was not tried",
  "Untested";
- a table row with a cell "not measured" / "not run" / "not tried" (its
  row labels name the configuration), held to the tables under its own
  headings and caption only ("**Linux**" over it leaves a "**MacOS**" table
  measured) unless its words name a wider scope (:func:`_cell_scope`).

A qualifier after a declaration scopes it: "FP16 was not measured on an
Orin", "we did not measure INT8 at 1280 x 720", "... with TensorRT 10.3"
declare FP16 on an Orin, INT8 at 1280x720, ... (a word with a digit, a name
with a capital, a configuration word; "on an A2 or the L40S" declares
both), while a reason, a document place or an unspecific word ("in this
study", "for lack of time", "on any GPU", "in Section 4") leaves the
declaration whole (:func:`qualified`). A row's "not measured" cells declare
the row's label with their own column's words ("fp32" of "fp32 (ms)"
beside "fp16 (ms)"), not the row's other figures.

A configuration is the set of its words (``b300``, ``tensorrt``, ``11.1``;
generic words such as "comparison" or "column" and GPU vendor words
("GeForce", "NVIDIA": optional) left out, a hyphenated name
also read as its parts, formats and counts written in words read as their
names: "a six-bit integer format" is ``int6``, "eight GPUs" is ``8 gpu``, and
a configuration word in one spelling: "bs=32" and "batch size 32" are
``batch 32``, "half precision" is ``fp16``; ``sg106_*_configuration_spellings``);
another sentence *mentions* it when it holds all of them outside a
condition ("revisit when an INT8 engine is built", "as soon as …",
"provided …" name it without stating anything about it). A mention *states
an outcome* when it holds an outcome word (faster, slower, speedup, gain,
pays, helps, improves, drops, saves, "no speedup" …) or a figure with a
unit, and it is *hedged* by words such as expected, likely, may, would,
could, if, when, "not measured"; sentences under a heading such as "When
to revisit", "Not measured", "Known gaps" or "Future work" state
conditions, not results, and so do those under any heading that declares
a not-measured list ("Unmeasured", "Not benchmarked", "Not run" …). A
table figure states an outcome too where its row names the configuration,
or part of it and its column header the rest ("fp16" row, "Orin ms"
column). A one-letter name ("job a", a table cell "b") is a word of the
configuration, and a sentence holds it only as a name: the article "a"
never stands for job a (:func:`identifier_letters`; issue 26). Each
unhedged outcome is a warning.
"""

from __future__ import annotations

from ..visible import shortened
import functools
import re

from ..findings import Finding
from ..patterns import lazy_compile
from .document import Block, Document, Row, Table, is_empty_cell
from ..label_names import VENDOR_WORDS
from .configuration_terms import identifier_letters, named_tokens as _named_tokens, sentence_probe, stemmed as _stemmed
from .configuration_terms import term_anchor, word_tokens
from .text import STOPWORDS, join_shapes, label_tokens, normalize, stem
from .vocabulary import CONFIGURATION_WORDS, letter_runs

CODE = "SG106"

_NOT = r"(?:not|never)"
# The verbs of measuring a configuration, base form and past participle: what a sentence declaring one not
# measured says was not done ("int8 was not timed", "we did not collect int8", "we have not tried int8").
# One list for SG106's declarations and SG206's (checks/sg206_unmeasured.py), so that the README check and
# lint exempt the same sentences.
MEASURING_VERBS = (("try", "tried"), ("measure", "measured"), ("run", "run"), ("test", "tested"),
                   ("benchmark", "benchmarked"), ("evaluate", "evaluated"), ("profile", "profiled"), ("build", "built"),
                   ("time", "timed"), ("collect", "collected"), ("attempt", "attempted"), ("explore", "explored"),
                   ("quantize", "quantized"))
DONE_WORDS = "(?:" + "|".join(done for _, done in MEASURING_VERBS) + ")"  # "was not <done>"
DO_OR_DONE_WORDS = "(?:" + "|".join(dict.fromkeys(word for pair in MEASURING_VERBS for word in pair)) + ")"
_DECLARED_SUBJECT_RE = lazy_compile(
    r"(?P<subject>[^.;:,()\n]{1,80}?)\s+(?:was|were|is|are|has|have)\s+" + _NOT + r"\s+(?:been\s+|yet\s+been\s+)?" + DONE_WORDS + r"\b",
    re.IGNORECASE,
)
_DECLARED_OBJECT_RE = lazy_compile(
    r"\b(?:did\s+not|didn't|have\s+not|haven't|has\s+not|hasn't|could\s+not|couldn't|was\s+not\s+able\s+to)\s+"
    r"(?:yet\s+)?" + DO_OR_DONE_WORDS + r"\s+(?P<object>[^.;:()\n]{1,80})",
    re.IGNORECASE,
)
_DECLARED_LIST_RE = lazy_compile(
    r"(?:^|[.;]\s+|\n|\()\s*(?:(?:" + _NOT + r"\s+(?:yet\s+)?|un)(?:tried|measured|run|tested|benchmarked|evaluated|profiled)"
    r"|deferred|skipped|pending|postponed|out\s+of\s+scope|left\s+for\s+later)(?:\s+\w+){0,3}\s*[:—–]\s*(?P<list>(?:[^.;\n]|\.(?=\S)|\n(?!\s*\n))+)",
    re.IGNORECASE,
)
_DECLARED_PAREN_RE = lazy_compile(
    r"(?P<subject>[\w.+-]+(?:\s+[\w.+-]+){0,4})\s*\(\s*(?:" + _NOT + r"\s+|un)(?:tried|measured|run|tested|benchmarked)\s*\)",
    re.IGNORECASE,
)
# What every match of _DECLARED_SUBJECT_RE and _DECLARED_PAREN_RE holds: a block without it is not scanned with
# them (each tries its subject words from every position of the text, most of _declarations' time).
_DECLARED_SUBJECT_CORE_RE = lazy_compile(
    r"\s(?:was|were|is|are|has|have)\s+" + _NOT + r"\s+(?:been\s+|yet\s+been\s+)?" + DONE_WORDS + r"\b", re.IGNORECASE)
_DECLARED_PAREN_CORE_RE = lazy_compile(
    r"\(\s*(?:" + _NOT + r"\s+|un)(?:tried|measured|run|tested|benchmarked)\s*\)", re.IGNORECASE)
_DECLARED_HEADING_RE = lazy_compile(
    r"\b(?:" + _NOT + r"\s+(?:yet\s+)?(?:tried|measured|run|tested|benchmarked|covered)|untested|unmeasured|not\s+part\s+of\s+the\s+study)\b",
    re.IGNORECASE,
)
_DECLARED_CELL_RE = lazy_compile(r"^\s*(?:" + _NOT + r"\s+(?:tried|measured|run|tested|benchmarked)|untested|unmeasured)\b", re.IGNORECASE)
# The words of a declaring cell that reach past its table: "not tested on any platform", "not run in this study"
_WIDER_SCOPE_RE = lazy_compile(r"\b(?:anywhere|everywhere|elsewhere|(?:on|in|for|across|with|at)\s+(?:any|all|every)\b|"
                               r"(?:in|for|throughout)\s+(?:this|the|our)\s+(?:study|report|evaluation|benchmarks?)\b)", re.IGNORECASE,
    needs=("anywhere", "everywhere", "elsewhere", "any", "all", "every", "study", "report", "evaluation", "benchmark"))

OUTCOME_RE = lazy_compile(
    r"\b(?:faster|slower|speedups?|speed-ups?|slowdowns?|gains?|gained|pays?(?:\s+off)?|paid\s+off|helps?|helped|hurts?|"
    r"improves?|improved|improvements?|degrades?|degraded|regress\w*|drops?|dropped|loses|lost|saves?|saved|"
    r"costs?|better|worse|outperforms?|underperforms?|beats?|breaks|broke|fails?|failed|works|worked|matches|"
    r"no\s+(?:speedup|speed-up|gain|benefit|improvement|difference|change|effect)|"
    r"(?:does|did|do)\s*(?:not|n't)\s+(?:pay|help|improve|matter|work)|(?:cannot|can't|won't)\s+(?:help|improve|pay))\b",
    re.IGNORECASE,
)
HEDGE_RE = lazy_compile(
    r"\b(?:expect\w*|likely|unlikely|probabl\w*|may|might|could|would|should|presumabl\w*|estimat\w*|predict\w*|"
    r"assum\w*|projected|unknown|untested|untried|unmeasured|unverified|if|whether|when|once|until|unless|possibly|perhaps|"
    r"hypothe\w*|guess\w*|"
    r"believe|think|suspect\w*|suggests?|speculat\w*|remains?\s+to\s+be|tbd|open\s+question|"
    + _NOT + r"\s+(?:been\s+)?(?:tried|measured|run|tested|benchmarked|evaluated|verified|known))\b",
    re.IGNORECASE,
)
# Sections whose sentences are conditions or plans, not results; every heading
# that declares a not-measured list (_DECLARED_HEADING_RE) is one of them.
HEDGED_HEADING_RE = lazy_compile(
    r"\b(?:revisit|future|next\s+steps?|open\s+questions?|to\s*do|todo|ideas?|outlook|plans?|expectations?|"
    r"hypothes\w+|" + _NOT + r"\s+(?:yet\s+)?(?:tried|measured|run|tested|benchmarked|covered)|untested|unmeasured|"
    r"not\s+part\s+of\s+the\s+study|limitations?|known\s+gaps?|caveats?|when\s+to)\b",
    re.IGNORECASE,
)
# "x" after a figure is a ratio unless a figure follows it: "640 x 640" is a shape, no outcome
_FIGURE_WITH_UNIT_RE = lazy_compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s|us|µs|%|(?:x|×)(?!\s?\d)|MiB|GiB|MB|GB|tokens/s|"
                                    r"tok/s|images/s|req/s)(?!\w)")


def _phrases(phrases: tuple[str, ...]) -> str:
    """The alternatives of a pattern of ``phrases``, tried in their order, words apart by any white space."""
    return "|".join(phrase.replace(" ", r"\s+") for phrase in phrases)


# A condition names a configuration without stating anything about it (a phrase a pattern alternative,
# the longer of two that start alike first).
_CONDITION_PHRASES = ("if", "when", "whenever", "once", "until", "unless", "as soon as", "provided that", "provided",
                      "in case", "revisited", "revisiting", "revisit")
_CONDITION_RE = lazy_compile(r"\b(?:" + _phrases(_CONDITION_PHRASES) + r")\b[^,;:.()\n]*", re.IGNORECASE)
# An absence names a configuration to say it is not there ("no fp8 on the A100", "except int8 at
# 1280 x 1280", "without a B300"): stated nothing about, unless the clause holds an outcome
# ("no gain from fp8 on the A100" is one).
_ABSENCE_PHRASES = ("no", "without", "except for", "except", "excluding", "but not", "other than", "apart from")
_ABSENCE_RE = lazy_compile(r"\b(?:" + _phrases(_ABSENCE_PHRASES) + r")\s+[^,;:.()\n]*", re.IGNORECASE)
# The words of each phrase: a text holds a match only if it holds every word of one phrase whole (letter_runs)
_CONDITION_WORDS = tuple(frozenset(phrase.split()) for phrase in _CONDITION_PHRASES)
_ABSENCE_WORDS = tuple(frozenset(phrase.split()) for phrase in _ABSENCE_PHRASES)
_PAREN_RE = lazy_compile(r"\([^()]*\)")
_PAREN_UNIT_RE = lazy_compile(r"\(\s*(?:ms|s|us|µs|%|x|mib|gib|mb|gb)\s*\)", re.IGNORECASE)
_ITEM_SPLIT_RE = lazy_compile(r",\s+|;\s+|\s+and\s+|\s+or\s+")
_GENERIC = frozenset({"config", "configuration", "option", "path", "variant", "setting", "case", "mode", "yet", "either", "also",
                      "here", "which", "that", "this", "these", "comparison", "comparisons", "number", "numbers", "result",
                      "results", "data", "sweep", "sweeps", "measurement", "measurements", "benchmark", "benchmarks"})


class Unmeasured:
    """A configuration declared unmeasured: its text, its words, the line
    of the declaration, its block (None for a table row) and, for a declaring
    cell, the slice of its table (None: every table; :func:`_cell_scope`)."""

    def __init__(self, text: str, terms: frozenset[str], line: int, block: Block | None, tables: tuple | None = None):
        self.text, self.terms, self.line, self.block = text, terms, line, block
        self.tables = tables  # the headings and caption of the tables a declaring cell speaks for


def item_terms(text: str) -> frozenset[str]:
    """The words that name a configuration (``'B300 with TensorRT 11.1'`` ->
    ``{'b300', 'tensorrt', '11.1'}``); stop words, generic words and GPU vendor
    words (:data:`~studygen.label_names.VENDOR_WORDS`: GeForce, NVIDIA …) left out,
    a one-letter name kept (``'job a'`` -> ``{'job', 'a'}``, :func:`identifier_letters`)."""
    text = _PAREN_RE.sub(" ", text)
    terms = set()
    for token in word_tokens(text, parts=False):
        if token in STOPWORDS or token in _GENERIC or len(token) < 2:
            continue
        terms.add(stem(token))
    # a GPU's vendor word is optional wherever it is named ("fp32 on the GeForce RTX 3090" is "fp32 on the RTX 3090")
    named = terms - set(VENDOR_WORDS)
    return frozenset((named or terms) | identifier_letters(text))


_QUALIFIER_WORD_RE = lazy_compile(r"^[a-z][a-z.\-]*$")  # lowercase, no digit: 'compiled', 'torch.compile', 'of'


def _has_digit(word: str) -> bool:
    return any(ch.isdigit() for ch in word)


def list_items(listed: str) -> list[str]:
    """The items of a declared list, split at commas, semicolons, 'and', 'or'.

    A leading qualifier of the first item carries over to later one-word items
    of the same kind (both with digits, or both without): "compiled fp32 and
    bf16" -> "compiled fp32", "compiled bf16" (bf16 alone was measured, eager);
    "B300 with TensorRT 11.1, GB300, H100" keeps GB300 and H100 whole (its
    first words are not a lowercase qualifier).
    """
    items = [item.strip() for item in _ITEM_SPLIT_RE.split(listed) if item.strip()]
    first = items[0].split() if items else []
    qualifier, head = first[:-1], first[-1:]
    if not qualifier or not all(_QUALIFIER_WORD_RE.match(word) for word in qualifier):
        return items
    later = items[1:]
    if later and all(len(item.split()) == 1 and _has_digit(item) == _has_digit(head[0]) for item in later):
        return [items[0]] + [" ".join(qualifier + [item]) for item in later]
    return items


def _subject_words(subject: str) -> str:
    words = subject.split()[-6:]
    while words and words[0].lower() in STOPWORDS:
        words = words[1:]
    return " ".join(words)


_OBJECT_STOP = frozenset("on at in for because since as so but to from here there these this those yet either when if".split())


def _object_words(text: str) -> str:
    """The configuration an object phrase names: its words up to the first
    preposition or conjunction ("INT8 on these engines" -> "INT8")."""
    words = []
    for word in text.split()[:6]:
        if words and word.lower() in _OBJECT_STOP:
            break
        words.append(word)
    return " ".join(words)


# What follows a declaration may scope it: "FP16 was not measured on an Orin",
# "we did not measure INT8 at 1024 x 1024", "... with TensorRT 10.3".
_QUALIFIER_RE = lazy_compile(
    r"\s+(?:yet\s+)?(?P<preposition>on|at|with|for|under|using|in|across)\s+(?P<qualifier>(?:[^.;:()\n]|\.(?=\w)){1,80})",
    re.IGNORECASE,
)
# Where a qualifier ends: a reason, a relative clause, a comparison ("for
# batches above 16" bounds a range, it names no configuration).
_QUALIFIER_STOP_RE = lazy_compile(
    r"\b(?:because|since|as|so|but|which|that|who|whose|due|when|if|while|where|though|although|unless|until|either|yet|"
    r"than|above|below|beyond|over|under|past|between|exceeding|larger|smaller|greater|bigger|higher|lower|more|less|fewer|"
    r"up)\b",
    re.IGNORECASE,
)
_QUALIFIER_JOIN_RE = lazy_compile(r"\s*,\s+(?:and\s+|or\s+)?|\s+(?:and|or|nor)\s+", re.IGNORECASE)
# Words that name no particular configuration however they are written ...
_UNSPECIFIC = frozenset("gpu gpus cpu cpus device devices hardware machine machines platform platforms node nodes i".split())
# ... and document places: "in Section 4" says where, not on what.
_PLACES = frozenset("section sections sec appendix chapter figure fig table part page".split())
_DETERMINERS = frozenset("a an the any every each all our this these those either both".split())


def _specific_words(alternative: str) -> list[str] | None:
    """The words of a qualifier alternative that name a configuration: a
    word with a digit ("H100", "10.3", "1024x1024"), a name written with a
    capital ("Orin", "TensorRT") or a configuration word ("batch"); [] for
    "an unspecified device", "this study" or "any GPU"; None for a document
    place ("Section 4")."""
    words = []
    for word in alternative.split():
        bare = word.strip("'\"`*_,")
        lowered = bare.lower()
        if lowered in _PLACES:
            return None
        if not bare or lowered in _UNSPECIFIC:
            continue
        if _has_digit(bare) or bare[0].isupper() or lowered in CONFIGURATION_WORDS:
            words.append(bare)
    return words


def _names_only(alternative: str) -> bool:
    """True when every word of ``alternative`` is a specific name, a
    determiner or an unspecific device word ("the H100", "Xavier"): a later
    item of a list of names, not a new clause ("the H100 rows are eager")."""
    specific = _specific_words(alternative) or []
    bare = (word.strip("'\"`*_,") for word in alternative.split())
    return all(w in specific or w.lower() in _DETERMINERS or w.lower() in _UNSPECIFIC for w in bare if w)


def qualified(named: str, after: str) -> list[str]:
    """The configurations a declaration of ``named`` declares, given the text
    ``after`` it: ``named`` with each specific qualifier that follows ("FP16
    was not measured on an Orin or a Xavier" -> "FP16 on Orin", "FP16 on
    Xavier"), or ``named`` alone when none follows ("FP8 was not measured in
    this study", "... for lack of time", "... in Section 4"). A qualifier
    ends at a mark, a reason, a relative clause or a comparison
    (:data:`_QUALIFIER_STOP_RE`); a later alternative joins it only when it is
    a name ("on the Orin, the H100 rows are eager" qualifies by Orin only)."""
    match = _QUALIFIER_RE.match(after)
    if not match:
        return [named]
    qualifier = _QUALIFIER_STOP_RE.split(match.group("qualifier"), maxsplit=1)[0]
    qualifier = join_shapes(qualifier)  # "1024 x 1024" is one word
    preposition = match.group("preposition").lower()
    items = []
    for index, alternative in enumerate(_QUALIFIER_JOIN_RE.split(qualifier.strip())):
        if index and not _names_only(alternative):
            break
        specific = _specific_words(alternative)
        if specific is None:
            return [named]
        if specific:
            items.append(f"{named} {preposition} {' '.join(specific)}")
    return items or [named]


# Every declaration holds one of these (a substring prefilter per block).
_DECLARATION_WORDS = ("not", "never", "n't", "untried", "untested", "unmeasured", "unrun", "deferred", "skipped", "pending",
                      "postponed", "out of scope", "left for later")


def _declarations(document: Document) -> list[Unmeasured]:
    found: list[Unmeasured] = []

    def add(text: str, line: int, block: Block | None, scope: tuple | None = None):
        terms = item_terms(text)
        if terms and len(terms) <= 6:
            found.append(Unmeasured(text.strip(), terms, line, block, scope))

    for block in document.blocks:
        text = block.text
        if block.kind == "heading":
            continue
        lowered = block.lowered
        if not any(word in lowered for word in _DECLARATION_WORDS) and not (block.in_list and _DECLARED_HEADING_RE.search(block.heading or "")):
            continue
        if block.in_list and _DECLARED_HEADING_RE.search(block.heading or ""):
            item = re.split(r"\s*[:—–(]\s*|\s+-\s+", text, maxsplit=1)[0]
            add(item, block.line, block)
        for match in _DECLARED_SUBJECT_RE.finditer(text) if _DECLARED_SUBJECT_CORE_RE.search(text) else ():
            for item in qualified(_subject_words(match.group("subject")), text[match.end():]):
                add(item, block.line_at(match.start()), block)
        for match in _DECLARED_OBJECT_RE.finditer(text):
            named = _object_words(match.group("object"))
            for item in qualified(named, text[match.start("object") + len(named):]):
                add(item, block.line_at(match.start()), block)
        for match in _DECLARED_PAREN_RE.finditer(text) if _DECLARED_PAREN_CORE_RE.search(text) else ():
            add(_subject_words(match.group("subject")), block.line_at(match.start()), block)
        for match in _DECLARED_LIST_RE.finditer(text):
            listed = _PAREN_RE.sub(" ", match.group("list"))
            for item in list_items(listed.rstrip(". ")):
                add(item, block.line_at(match.start("list")), block)
    lowered = document.lowered
    declared_cells = any(word in lowered for word in ("not measured", "not run", "not tried", "not tested", "not benchmarked", "never ", "untested", "unmeasured"))
    for table in document.tables if declared_cells else ():
        column_words = None  # read once a table, when a row declares
        for row in table.rows:
            label = _declared_row_label(row)
            if not label:
                continue
            if column_words is None:
                column_words = _column_words(table)
            for item in _declared_row_labels(row, label, column_words):
                add(item, row.line, None, _cell_scope(row))
    return found


def _declares_cell(cell: str) -> bool:
    return cell[:1] in "nNuU" and bool(_DECLARED_CELL_RE.match(cell))


def _slice(table: Table) -> tuple:
    return table.headings, table.context  # the tables of one slice of the study: the same headings and caption


def _cell_scope(row: Row) -> tuple | None:
    """The slice (:func:`_slice`) a row's declaring cells speak for: the row's
    table's, or None (every table) where one names a wider scope
    (:data:`_WIDER_SCOPE_RE`: "not tested on any platform")."""
    if row.table is None or any(_declares_cell(cell) and _WIDER_SCOPE_RE.search(cell) for cell in row.cells):
        return None
    return _slice(row.table)


def _declared_row_label(row: Row) -> str:
    """The label of a row with a "not tried" cell, less that cell (a column
    of few rows with words in half its cells is a label column, and the
    declaring cell's words are no part of the configuration); "" when the
    row declares nothing or has no other label cell."""
    if not any(_declares_cell(cell) for cell in row.cells):
        return ""
    cells = (row.cells[c] for c in row.table.label_columns)
    return " / ".join(cell for cell in cells if not is_empty_cell(cell) and not _declares_cell(cell))


def _declared_row_labels(row: Row, label: str, column_words: dict[int, str]) -> list[str]:
    """What a row with "not measured" cells declares: its ``label`` (:func:`_declared_row_label`, not "")
    with, for each declaring cell in a column that its header tells apart from the table's other value
    columns (``column_words``: :func:`_column_words` of the row's table), that column's own words
    ("800 x 800 / total" under "fp32 (ms)" beside "fp16 (ms)" declares 800 x 800 / total / fp32, not the
    row's fp16 figures); the label alone where the column's header names only what all columns measure."""
    found = []
    for column, cell in enumerate(row.cells):
        if not _declares_cell(cell):
            continue
        words = column_words.get(column)
        item = f"{label} / {words}" if words else label
        if item not in found:
            found.append(item)
    return found or [label]


def _column_words(table) -> dict[int, str]:
    """For each value column of ``table`` (a column that is no label
    column, or that holds a "not measured" cell in place of a figure: with
    many such cells it reads as a label column), the words of its header
    that not every value column's header has ("fp32" of "fp32 (ms)" beside
    "fp16 (ms)"); none for a table of one value column."""
    columns = [c for c in range(len(table.headers))
               if c not in table.label_columns or any(_declares_cell(r.cells[c]) for r in table.rows if c < len(r.cells))]
    if len(columns) < 2:
        return {}
    tokens = {c: label_tokens(normalize(_PAREN_UNIT_RE.sub("", table.headers[c]))) for c in columns}
    common = set.intersection(*(set(t) for t in tokens.values()))
    return {c: " ".join(t for t in tokens[c] if t not in common) for c in columns}


def check(document: Document) -> list[Finding]:
    """SG106 findings: one per unhedged outcome of a declared-unmeasured configuration."""
    declared = _declarations(document)
    if not declared:
        return []
    findings = []
    reported: set[tuple[int, str]] = set()
    # what a sentence must hold to name each declared configuration (configuration_terms.term_anchor);
    # None: some configuration any sentence may name
    anchor_of = functools.cache(term_anchor)  # for this document: sets repeat (H200 README: 732 asks, 86 sets)
    anchors = [anchor_of(item.terms) for item in declared]
    anchors = None if None in anchors else set(anchors)
    named_by = _named_index(declared)
    for block in document.prose:
        if HEDGED_HEADING_RE.search(block.heading or ""):
            continue
        for sentence in block.sentences:
            sentence_text = sentence.text
            if anchors is not None:
                probe = sentence_probe(sentence_text)
                if not any(anchor in probe for anchor in anchors):
                    continue  # it names none of the declared configurations: not tokenized
            # the sentence without its conditions and absences: a configuration named only there is not stated
            unconditioned = _unstated(sentence_text)
            tokens = _stemmed(word_tokens(unconditioned))
            sentence_line = sentence.line_at(sentence.start)
            # per text, its first declaration that is not this very sentence (the finding cites its line)
            named = sorted(found for token in tokens for terms, first, other in named_by.get(token, ()) if terms <= tokens
                           for found in [_first_elsewhere(first, other, block, sentence_line)] if found)
            if not named or _declares(sentence_text):
                continue
            outcome = _first_outcome(unconditioned)
            if outcome is None or HEDGE_RE.search(sentence_text):
                continue
            line = sentence.line_at(sentence.start + outcome)
            for _, item in named:
                if (line, item.text) in reported:
                    continue
                reported.add((line, item.text))
                findings.append(_finding(document, item, line, f"line {line} states an outcome for it: '{_outcome_quote(sentence_text, outcome)}'"))
    for table in document.tables:
        headers = [_stemmed(_named_tokens(series.header)) for series in table.series]
        any_header = set().union(*headers)
        # the label columns' headers name what their cells hold: row "a" under "Job" is job a
        label_headers = _stemmed(_named_tokens(" / ".join(table.headers[c] for c in table.label_columns if c < len(table.headers))))
        row_anchors = _row_anchors(declared, label_headers | any_header, anchor_of)
        for row in table.rows:
            if row_anchors is not None and not any(anchor in sentence_probe(row.label) for anchor in row_anchors):
                continue  # its label names no configuration's words that the headers leave out
            if any(_DECLARED_CELL_RE.match(c) for c in row.cells):
                continue  # a row that declares is no result
            tokens = _stemmed(_named_tokens(row.label)) | label_headers
            for item in declared:
                if item.tables is not None and item.tables != _slice(table):
                    continue  # a declaring cell speaks for its own slice of the study only
                # the row names the configuration, or part of it and its column the rest ("fp16" row, "Orin ms"
                # column); a column header alone names the column, as a declaration may ("the DeepEP column")
                if not item.terms <= tokens | any_header or item.terms.isdisjoint(tokens):
                    continue
                shown = ", ".join(f"'{series.header}' {series.values[row.index].text}"
                                  for series, header in zip(table.series, headers)
                                  if series.values[row.index] is not None and item.terms <= tokens | header)
                if shown:
                    findings.append(_finding(document, item, row.line, f"{row.name()} (line {row.line}) gives it figures: {_clip(shown)}"))
    return findings


_Declared = tuple[int, Unmeasured]  # a declaration and its place in declaration order


def _named_index(declared: list[Unmeasured]) -> dict[str, list[tuple[frozenset[str], _Declared, _Declared | None]]]:
    """The declarations grouped by text, each group filed under one of its
    terms as (its terms, its first declaration, its first declared on
    another line or block than that one, or None): a sentence looks up only
    the groups its own words file, one try however many declarations say the
    same (10,000 "int8 was not measured." cost each sentence 10,000 tries)."""
    groups: dict[tuple[str, frozenset[str]], list[_Declared]] = {}
    for order, item in enumerate(declared):
        groups.setdefault((item.text, item.terms), []).append((order, item))
    named_by: dict[str, list] = {}
    for (_, terms), items in groups.items():
        first = items[0][1]
        other = next((found for found in items if found[1].block is not first.block or found[1].line != first.line), None)
        named_by.setdefault(min(terms), []).append((terms, items[0], other))
    return named_by


def _first_elsewhere(first: _Declared, other: _Declared | None, block: Block, line: int) -> _Declared | None:
    """The first declaration of a group (:func:`_named_index`) that is not
    on ``line`` of ``block``: a sentence states no outcome for its own
    declaration; every declaration before ``other`` shares ``first``'s place."""
    return other if first[1].block is block and first[1].line == line else first


def _row_anchors(declared: list[Unmeasured], headed: set[str], anchor_of=term_anchor) -> set[str] | None:
    """What a row's label must hold (``anchor_of``: :func:`~studygen.lint.configuration_terms.term_anchor`)
    to name each configuration with the words ``headed`` (its table's headers) leave to it; None
    when one needs no word of the label, or none it can be read from."""
    anchors = set()
    for item in declared:
        rest = item.terms - headed
        anchor = anchor_of(rest) if rest else None
        if anchor is None:
            return None
        anchors.add(anchor)
    return anchors


def _unstated(text: str) -> str:
    """``text`` with its conditions ("if …", "once …") and its absences
    without an outcome ("no fp8 on the A100") blanked, offsets kept: what a
    configuration named there is not said to do."""
    def blank(match) -> str:
        return " " * len(match.group())

    words = letter_runs(text)  # a pattern whose phrases the text does not hold is not run
    if any(phrase <= words for phrase in _CONDITION_WORDS):
        text = _CONDITION_RE.sub(blank, text)
        words = letter_runs(text)
    if any(phrase <= words for phrase in _ABSENCE_WORDS):
        text = _ABSENCE_RE.sub(lambda m: m.group() if OUTCOME_RE.search(m.group()) else blank(m), text)
    return text


def _first_outcome(text: str) -> int | None:
    """Offset of the first outcome word or figure with a unit in ``text``
    (the conditions already blanked, so offsets match the sentence)."""
    found = [m.start() for m in (OUTCOME_RE.search(text), _FIGURE_WITH_UNIT_RE.search(text)) if m]
    return min(found) if found else None


def _declares(text: str) -> bool:
    return bool(_DECLARED_SUBJECT_CORE_RE.search(text) and _DECLARED_SUBJECT_RE.search(text)
                or _DECLARED_OBJECT_RE.search(text) or _DECLARED_LIST_RE.search(text)
                or _DECLARED_PAREN_CORE_RE.search(text) and _DECLARED_PAREN_RE.search(text))


def _outcome_quote(text: str, outcome: int, limit: int = 100) -> str:
    """The sentence, or (when longer than ``limit``) its part from the start
    of the clause holding the outcome at ``outcome``."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    ends = [text.rfind(mark, 0, outcome) + len(mark) for mark in (", ", "; ", ": ", "(", " — ") if text.rfind(mark, 0, outcome) != -1]
    start = max(ends, default=0)
    return ("…" if start else "") + _clip(text[start:], limit)


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return shortened(text, limit)


def _finding(document: Document, item: Unmeasured, line: int, what: str) -> Finding:
    return Finding(
        CODE,
        f"'{item.text}' is declared not measured (line {item.line}) but {what}",
        document.path,
        line,
        hint="word it as an expectation with its reason (for example 'not measured; expected to …, because …'), "
        "or measure it and remove it from the not-measured list",
    )
