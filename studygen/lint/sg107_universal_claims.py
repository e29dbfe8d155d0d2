"""SG107 universal comparisons: "int8 is faster than fp16 on every GPU",
"int8 plans are always smaller than fp16 plans", "fp8 has higher
throughput than bf16 in all configurations", when a row of the table that
measures both variants says otherwise.

A clause (a sentence, or its part after ';' or ', and/but/while/whereas')
holding a comparative word followed by "than" ("faster than", "lower
latency than") and a word claiming it for every row (every, each, all,
always, consistently, uniformly, across the board, without exception) is
tied to two variant columns of one table, a quantity kind and the rows the
clause names by :mod:`studygen.lint.variant_pairs` ("at 640 x 640" keeps
those rows). The comparative says which way each row must go: "faster" is
a smaller time or a larger throughput, "smaller"/"lower"/"less"/"fewer" a
smaller figure, "larger"/"higher"/"more" a larger one, "better" the better
way for the kind (lower time, size or perplexity, higher throughput or AP).
"More/less accurate", "higher/lower quality" and "better/worse quality" are
"better"/"worse" on a quality kind (AP, accuracy; perplexity, WER, loss),
of the one the clause names, else of any table's columns.

A row contradicts the claim when its figures go the other way beyond their
printed digits (``1.71`` against ``1.660`` ms for "faster": every value
1.71 stands for is above every value 1.660 stands for), or, for a strict
comparative ("faster than"), when the row prints the two figures equal
(``9.30`` and ``9.3``): a tie as printed is no "faster". A non-strict
comparison ("at least as fast as", "no slower than", "never larger than")
is read the same way, but a tie does not contradict it. Rows whose figures
differ but overlap within their digits are not counted against either. A
clause that denies ("not always faster", "never"), a universal word that says
what a pooled figure is taken over ("at the medians over every job": a
side finding render writes), a comparison with a figure
("44% smaller than": SG103 reads it), and one that names no table's pair
are not read. A denial counts only in the comparison's own clause
(:func:`_denied`): "Not shipped: fp16 is always faster than fp32", "...,
although fp16 is always faster than fp32" and "fp16 is always faster than
fp32, so we did not ship it" deny the shipping, not the claim. Case (a new
user's trial): each of the three passed with 0 findings, as decision
summaries that open with "Not shipped" did.

A cell holding a range of values, as the generic template prints a
measurement several jobs report ("1.398 to 1.458 (2 jobs: a, b)"), holds
two figures, its ends (:meth:`~studygen.lint.document.Series.ends`): a row
bears the claim out only when it holds at both, and contradicts it when
either goes against it. Case (a new user's trial): "INT8 is faster than
fp32 on every GPU", reported as comparing nothing, passed with 0 findings
once a second fp32 job made that GPU's fp32 cell a range (the readers took
no figure from it, and a side without figures is no claim to judge).

A universal claim whose tables hold no row with both figures (each GPU ran
one of the two variants) compares nothing: it is reported as unmeasured,
never passed as borne out by zero rows. Among several tables, one without a
single comparison is left out of the judgement (it can neither back nor
contradict the claim). Case (a new user's trial): "fp16 is faster than fp32
on every GPU" over a table whose fp16 and fp32 figures sat on different
GPUs passed with 0 findings.

A claim that several tables could back (an eager table and a compiled one,
both with fp16 and int8 columns) is judged against each of them
(:func:`~studygen.lint.variant_pairs.candidates`, the 64 nearest): when
exactly one of them stands in the claim's own section, against that one
only; otherwise it is reported only when every candidate contradicts it, and
the finding names each table's contradicting rows.

A claim that no single table offers a pair for (each variant in a table of
its own, as the generic template prints variants timed differently; a table
per GPU; variants as the rows of a transposed table) is judged against its
two sides' figures paired across every table (:mod:`.table_joins`: two
figures pair when they differ in nothing but the two names: the same labels,
column, headings and lead-in line), read as a table's rows are; with no such
pair it compares nothing, and the finding names the nearest two figures and
what keeps them apart. Case (a new user's README): "int8 is faster than fp16
on every GPU" over an fp16 table of one GPU and an int8 table of two others
passed with 0 findings.

A comparison of two rows without a universal word or a figure ("the A100
row beats the H100 row", "batch 1 has higher throughput than batch 8") is a
claim about that one pair (:func:`~studygen.lint.row_axis.row_comparison`),
read the same way unless hedged ("can be faster", "usually beats").

A comparison of two variants without a universal word whose clause names
rows ("On the H100 PCIe fp16 is faster than fp32", "at batch 8": a claim
about those rows) is read as the universal one restricted to them, when the
clause names both variants and leaves fewer rows than it would naming none
(:func:`_on_named_rows`); named rows without a comparison leave it unread.
Case (a new user's trial): that sentence passed with 0 findings while the
H100 PCIe row printed fp16 0.03882 ms against fp32 0.03613 ms. Variants as
rows of a long table are read so as well: a clause naming one level ("at 20
users") leaves one row of each, their pair (:func:`~.row_variants.row_pairs`
with ``fewest=1``).

A best-of claim quoting no figure ("int8 is the fastest", "GEMM dominates the
kernel time") is read against its one table by :mod:`.best_unquoted`, and
reported only when one rival beats the subject wherever both are compared.

Cases: ``sg107_pos_*``, ``sg107_neg_*``, ``tests/lint/test_row_axis.py``,
``tests/lint/test_joined_claims.py``, ``tests/lint/test_named_row_claims.py``,
``tests/lint/test_universal_range_cells.py``.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..patterns import lazy_compile
from .document import Document, Sentence
from .restriction import TextView
from .header_names import mention as header_mention
from .header_names import name_words
from .figures import RATIO_UNITS, Figure
from .best_rows import findings as best_findings
from .best_unquoted import findings as unquoted_findings
from .inline_comparisons import states_its_figures
from .join_messages import paired, unpaired
from .rounding import stands_for
from .heading_scope import heading_tables
from .row_axis import row_comparison
from .row_variants import RowPair, row_pairs
from .table_joins import Join, pick
from .variant_pairs import (CLAUSE_END_RE, HIGHER_IS_BETTER, QUALITY_KINDS, RANKING_STEMS, RANKING_VERB_RE, Pair, candidates,
                            kinds_named, quality_comparative)

CODE = "SG107"
_DIGIT_RE = lazy_compile(r"\d")
HINT = "name the rows the comparison holds for (or the exception), or correct the table"
UNMEASURED_HINT = ("measure both on the same rows (GPU, batch, shape) before claiming it, or say the comparison "
                   "was not measured")

_COMPARATIVE_RE = lazy_compile(
    r"\b(faster|slower|quicker|smaller|larger|bigger|lower|higher|less|more|fewer|better|worse)\s+"
    r"(?:[A-Za-z][\w-]*\s+){0,2}?than\b",
    re.IGNORECASE,
)
_UNIVERSAL_RE = lazy_compile(
    r"(?<!\bnot\s)(?<!\balmost\s)(?<!\bnearly\s)\b(?:every|each|all|always|consistently|uniformly|"
    r"across\s+the\s+board|without\s+exception)\b",
    re.IGNORECASE,
)
# "at the medians over every job", "averaged across all runs", "over six compilations of each": the word quantifies what a figure
# pools, not the rows the comparison holds for
_AGGREGATE_BEFORE_RE = lazy_compile(
    r"\b(?:medians?|means?|average[ds]?|totals?|sums?|summed|pooled|geomean|aggregated?)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:over|across|of|for)\s+(?:the\s+)?$"
    # "over six compilations of each", "three runs for every variant": how many measurements a figure pools
    r"|\b(?:runs?|repeats?|repetitions?|compilations?|jobs?|iterations?|samples?|measurements?|trials?|builds?)"
    r"\s+(?:of|for|per)\s+(?:the\s+)?$", re.IGNORECASE)
_DENIAL_RE = lazy_compile(r"\b(?:not|never|no|nor|isn't|aren't|wasn't|weren't|doesn't|don't|hardly|rarely)\b|n't\b",
                          re.IGNORECASE)
# Where the clause a denial must stand in to deny the comparison ends: a colon, a semicolon, a dash, or a
# conjunction opening a clause of its own ("Not shipped: fp16 is always faster", "..., so we did not ship it").
# Before the comparison "so", "but", "yet" and "since" need a comma: "not so much faster", "not yet always faster"
# keep their denial; after it a bare "so" or "but" opens a clause ("faster than fp32 so we did not ship it").
_BREAK_BEFORE_RE = lazy_compile(
    r"[:;]|\s[—–]\s|\s--\s|,\s*(?:so|but|yet|since|hence|thus|therefore)\b|\b(?:although|though|because|whereas|while)\b",
    re.IGNORECASE)
# a clause a subordinator opens before the comparison ends at its comma when a verb of the comparison's own clause
# follows it ("Though not shipped, fp16 is always faster"), not when the comma only sets off a phrase inside it
# ("Although fp16 is not, on every GPU, faster")
_SUBORDINATORS = frozenset({"although", "though", "because", "whereas", "while"})
_VERB_RE = lazy_compile(r"\b(?:is|are|was|were|runs?|ran|stays?|stayed|remains?|remained|has|had|comes?|came|"
                        r"proves?|proved|beats?|outperforms?)\b", re.IGNORECASE)
_BREAK_AFTER_RE = lazy_compile(
    r"[:;]|\s[—–]\s|\s--\s|\b(?:so|but|yet|since|hence|thus|therefore|although|though|because|whereas|while)\b",
    re.IGNORECASE)
# a figure of its own ("40% faster than"), not the digits ending a variant's name ("fp8 outperforms")
_FIGURE_BEFORE_RE = lazy_compile(r"(?<![\w.])\d[\d.,]*(?:\s*(?:%|x|×|percent|times))?\s*$", re.IGNORECASE)
_FIGURE_WINDOW = 40
# a comparison hedged or habitual: "can be faster than", "is often ahead of", "would beat"
_HEDGED_RE = lazy_compile(
    r"\b(?:can|could|may|might|would|should|will|often|sometimes|usually|typically|generally|mostly|tends?\s+to|"
    r"expected|likely|most|many|some|if|when|unless)\b", re.IGNORECASE)

# "at least as fast as" (group 1: the plain adjective), "no slower than", "never larger than" (group 2: the
# comparative it denies): a comparison that a tie does not contradict
_NON_STRICT_RE = lazy_compile(
    r"\bat\s+least\s+as\s+(fast|quick|small|low|high|large|big|good)\s+as\b"
    r"|\b(?:no|never|not\s+any)\s+(slower|faster|quicker|smaller|larger|bigger|lower|higher|worse|better)\s+"
    r"(?:[A-Za-z][\w-]*\s+){0,2}?than\b",
    re.IGNORECASE,
)
_NON_STRICT_LEAD = len("not any ")  # the longest word before the comparative of a non-strict one
_PLAIN_TO_COMPARATIVE = {"fast": "faster", "quick": "quicker", "small": "smaller", "low": "lower", "high": "higher",
                         "large": "larger", "big": "bigger", "good": "better"}
_OPPOSITE = {"slower": "faster", "faster": "slower", "quicker": "slower", "smaller": "larger", "larger": "smaller",
             "bigger": "smaller", "lower": "higher", "higher": "lower", "worse": "better", "better": "worse"}

# comparative -> +1 when the variant's figure must be the larger, -1 the smaller; None: by kind
_SIGN = {"smaller": -1, "lower": -1, "less": -1, "fewer": -1, "larger": 1, "bigger": 1, "higher": 1, "more": 1}


def _want(comparative: str, kind: str) -> int:
    """+1 when the variant's figure must be larger than the reference's, -1 smaller."""
    if comparative in _SIGN:
        return _SIGN[comparative]
    higher = kind in HIGHER_IS_BETTER
    better = comparative in ("faster", "quicker", "better", "outperforms")
    return 1 if better == higher else -1


def _segments(sentence: Sentence) -> list[tuple[int, int]]:
    """(start, end) offsets into the block text of the sentence's clauses."""
    text = sentence.block.text
    bounds, start = [], sentence.start
    for match in CLAUSE_END_RE.finditer(text, sentence.start, sentence.end):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, sentence.end))
    return bounds


def _claims_every(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` holds a universal word that is not
    what a pooled figure is taken over ("medians over every job")."""
    return any(not _AGGREGATE_BEFORE_RE.search(text, max(start, word.start() - 60), word.start())
               for word in _UNIVERSAL_RE.finditer(text, start, end))


def _goes_against(x: Figure, y: Figure, want: int, strict: bool) -> bool:
    """True when ``x`` against ``y`` goes against ``want`` beyond their digits, or, when ``strict``, the two
    print the same number (``9.30`` and ``9.3``: a tie is not "faster")."""
    a, b = stands_for(x), stands_for(y)
    return (want < 0 and a.lo >= b.hi) or (want > 0 and a.hi <= b.lo) or (strict and x.value == y.value)


def _contradicting(pair: Pair | RowPair | Join, want: int, strict: bool) -> list[tuple[int, str, str, bool]]:
    """(row, x text, y text, tied) of each named row whose figures go against ``want`` (:func:`_goes_against`).
    A cell holding a range ("1.398 to 1.458 (2 jobs: ...)") is judged at both its ends: the claim holds for the
    row only when it holds at each, and the row's text is the range; tied when only ties go against it."""
    found = []
    for row, xs, ys in pair.ends():
        against = [(x, y) for x in xs for y in ys if _goes_against(x, y, want, strict)]
        if against:
            tied = all(x.value == y.value for x, y in against)
            found.append((row, _printed(xs), _printed(ys), tied))
    return found


def _printed(ends: tuple[Figure, ...]) -> str:
    """A cell's figure as printed, or its range as "low to high"."""
    return " to ".join(end.text for end in ends)


def check(document: Document) -> list[Finding]:
    """SG107 findings: universal comparisons a row of their table contradicts."""
    findings = []
    for block in document.prose:
        lowered = block.lowered
        if "than" not in lowered and "least" not in lowered and not any(stem in lowered for stem in RANKING_STEMS):
            continue  # no clause of the block holds a comparison (_comparison)
        text = block.text
        for sentence in block.sentences:
            for start, end in _segments(sentence):
                finding = _segment_finding(document, sentence, text, start, end)
                if finding is not None:
                    findings.append(finding)
    # a superlative with a figure ("GA peaks at 2.58x"): the quoted row against every other row it claims to beat
    findings.extend(Finding(CODE, message, document.path, line, hint=hint) for line, message, hint in best_findings(document))
    # a superlative without a figure ("int8 is the fastest", "GEMM dominates the kernel time") over its one table
    findings.extend(Finding(CODE, message, document.path, line, hint=hint)
                    for line, message, hint in unquoted_findings(document))
    return findings


def _comparison(text: str, start: int, end: int, lowered: str) -> tuple[re.Match, str, bool] | None:
    """The first comparison of ``text[start:end]``, its comparative word and
    whether it is strict: "faster ... than" as written, a verb of ranking as
    "outperforms" (it says the subject is better) or "trails" (worse), a
    non-strict one as the comparative it allows ("no slower than" and "at
    least as fast as": "faster", not strict)."""
    found = _strict_comparison(text, start, end, lowered)
    loose = None
    if found is not None and found[1] in _OPPOSITE:  # a comparative word, not a verb of ranking
        # "no slower than" ends where its comparative does: read only the words just before it
        loose = _NON_STRICT_RE.search(text, max(start, found[0].start() - _NON_STRICT_LEAD), found[0].end())
    if loose is None and lowered.find("least", start, end) != -1:  # lowered: the text folded, offset for offset
        loose = _NON_STRICT_RE.search(text, start, end)
    if loose is not None:
        word = loose.group(1) or loose.group(2)
        comparative = _PLAIN_TO_COMPARATIVE[word.lower()] if loose.group(1) else _OPPOSITE[word.lower()]
        return loose, comparative, False
    return (found[0], found[1], True) if found is not None else None


def _strict_comparison(text: str, start: int, end: int, lowered: str) -> tuple[re.Match, str] | None:
    # each pattern only where the clause holds what every match of it holds ("than"; a verb's stem)
    comparative = _COMPARATIVE_RE.search(text, start, end) if lowered.find("than", start, end) != -1 else None
    verb = (RANKING_VERB_RE.search(text, start, end)
            if any(lowered.find(stem, start, end) != -1 for stem in RANKING_STEMS) else None)
    if verb is not None and (comparative is None or verb.start() < comparative.start()):
        return verb, "outperforms" if verb.group(1) else "trails"
    return (comparative, comparative.group(1).lower()) if comparative is not None else None


def _segment_finding(document: Document, sentence: Sentence, text: str, start: int, end: int) -> Finding | None:
    found = _comparison(text, start, end, sentence.block.lowered)
    if found is None:
        return None
    match, comparative, strict = found
    # "more accurate than", "higher quality than": better or worse on a quality kind, the kind telling which way
    quality = quality_comparative(match.group(0)) if strict else None
    comparative = quality or comparative
    # after a colon that follows the comparison comes its explanation: "each" or "all" there
    # quantifies what explains it ("...: each quantized linear adds host work"), not the rows
    colon = text.find(":", match.end(), end)
    every = _claims_every(text, start, end if colon == -1 else colon)
    named = False  # a comparison without a universal word, read on the rows its clause names
    # a figure of its own right before the comparison: a ratio SG103 reads (a figure and its unit fit in the window)
    if _FIGURE_BEFORE_RE.search(text, max(start, match.start() - _FIGURE_WINDOW), match.start()):
        return None
    if strict and states_its_figures(sentence, match.start(), match.end()):
        return None  # "A (27 ms) is faster than B (33 ms)": its own figures, which SG103 holds it to
    if not every and _HEDGED_RE.search(text, start, end):
        return None  # "can be faster than", "usually beats": no claim about a given pair of rows
    clause = text[start:end]
    if _denied(text, start, end, match, strict):
        return None
    if not strict:
        # "at least as fast as fp16" names its reference as "faster than fp16" does
        clause = f"{text[start:match.start()]}{comparative} than{text[match.end():end]}"
    kinds = kinds_named(clause, comparative, QUALITY_KINDS if quality else None)
    if not kinds:
        return None
    if every:
        view = sentence.segment_view(start - sentence.start, end - sentence.start)
        judged = _judged(document, sentence, clause, kinds, view)
        if judged is None:
            return None  # a table names a variant of the kind but no pair: which figures are meant is unclear
        if not judged:  # no one table holds both: their figures paired across the document's tables
            judged = _joined(document, sentence, text[start:match.start()], text[match.end():end], kinds, view)
    else:
        # two rows compared ("the A100 row beats the H100 row", "batch 8 is faster than batch 1"): one pair
        # a clause naming another section's heading ("On the H100, paged is faster", written below the A100
        # table) is about the tables under that heading, not the nearest one
        single = row_comparison(document, sentence.block, clause, kinds, heading_tables(sentence, start, end))
        judged = [single] if single is not None else []
        if not judged and not _states_figures(sentence, start, end):
            # two variants compared on rows the clause names ("on the H100 fp16 is faster than fp32"): a claim
            # about those rows, as a universal one restricted to them is; one stating its figures ("with 10.00 ms
            # against 10.00 ms") is held to them, not to a table (SG103)
            view = sentence.segment_view(start - sentence.start, end - sentence.start)
            judged = _on_named_rows(document, sentence, clause, text[start:match.start()], text[match.end():end],
                                    kinds, view)
            named = bool(judged)
    if not judged:
        return None
    claim = " ".join(text[start:end].split()).rstrip(".")
    if every or named:
        measured = [pair for pair in judged if pair.ends()]
        if not measured and named:
            return None  # the rows named ran one of the two: a claim that may be about something else than the table
        if not measured:  # no row holds both figures: the claim is about comparisons never made
            return Finding(CODE, f"'{claim}' compares nothing: {'; '.join(_unmeasured(pair) for pair in judged)}",
                           document.path, sentence.line_at(match.start()), hint=UNMEASURED_HINT)
        judged = measured  # a table without a single comparison can neither back nor contradict the claim
    want = {id(pair): _want(comparative, pair.kind) for pair in judged}
    contradicted = [(pair, _contradicting(pair, want[id(pair)], strict)) for pair in judged]
    if not all(rows for _, rows in contradicted):
        return None  # a table that could back the claim bears it out
    tables = "; ".join(_described(pair, rows) for pair, rows in contradicted)
    every = "every table that could back it: " if len(judged) > 1 else ""
    return Finding(
        CODE,
        f"'{claim}' is contradicted by {every}{tables}",
        document.path,
        sentence.line_at(match.start()),
        hint=HINT,
    )


def _denied(text: str, start: int, end: int, match: re.Match, strict: bool) -> bool:
    """True when a denial word stands in the comparison's own clause of
    ``text[start:end]`` ("fp16 is not always faster", "never faster"): from
    the last clause break before the comparison (:data:`_BREAK_BEFORE_RE`)
    to the first after it (:data:`_BREAK_AFTER_RE`), a clause a subordinator
    opens ending at its comma ("Though not shipped, fp16 is ..."). A clause joined to it
    ("Not shipped: ...", "..., so we did not ship it") denies something else;
    a break followed right away by a denial ("but not on the T4") restricts
    the claim and counts. The "no" of a non-strict comparison ("no slower
    than") is its own word, no denial."""
    own_start, opened = start, None
    for found in _BREAK_BEFORE_RE.finditer(text, start, match.start()):
        own_start, opened = found.end(), found
    if opened is not None and opened.group(0).lower() in _SUBORDINATORS:
        comma = text.find(",", own_start, match.start())
        if comma != -1 and _VERB_RE.search(text, comma + 1, match.start()):
            own_start = comma + 1
    own_end = end
    after = _BREAK_AFTER_RE.search(text, match.end(), end)
    if after is not None:
        own_end = after.start()
        if _DENIAL_RE.match(text, _skip_spaces(text, after.end(), end)):
            own_end = end  # "faster than fp32 but not on the T4": the claim's exception
    if strict:
        return _DENIAL_RE.search(text, own_start, own_end) is not None
    return (_DENIAL_RE.search(text, own_start, match.start()) is not None
            or _DENIAL_RE.search(text, match.end(), own_end) is not None)


def _skip_spaces(text: str, at: int, end: int) -> int:
    while at < end and text[at].isspace():
        at += 1
    return at


def _judged(document: Document, sentence: Sentence, clause: str, kinds: tuple[str, ...],
            view) -> list[Pair] | list[RowPair] | None:
    """The pairs a claim is judged against: every table offering one (columns
    first, else variants written as row labels: "| small | INT8 | 3.65 |"),
    or only the one in the claim's own section when exactly one is there;
    None when a table names a variant of the kind but offers no pair."""
    section = sentence.block.section
    own = candidates(document, clause, kinds, view, near=sentence.block.order, limit=2, section=section)
    if own is not None and len(own) == 1:
        return own  # the one candidate in the claim's own section: the others need not be read
    pairs: list[Pair] | list[RowPair] | None = candidates(document, clause, kinds, view, near=sentence.block.order)
    if pairs is None:
        return None
    if not pairs:
        pairs = row_pairs(document, clause, kinds, view)
    own = [pair for pair in pairs if pair.table.section == sentence.block.section]
    return own if len(own) == 1 else pairs


def _on_named_rows(document: Document, sentence: Sentence, clause: str, subject: str, reference: str,
                   kinds: tuple[str, ...], view) -> list[Pair] | list[RowPair] | list[Join]:
    """The pairs a comparison without a universal word is judged against
    when its clause names rows ("on the H100 PCIe", "at batch 8"): those of
    the universal reading (:func:`_judged`, else :func:`_joined`), a table's
    columns only where the clause names both (:func:`_names_both`), kept only
    when each of them holds fewer rows than it does with no row named (a
    clause naming no rows, "fp16 is faster than fp32", may mean typically:
    [] then, and the clause is not read)."""
    if not (view.vocab_mentions or view.part_mentions or view.multiword_possible or _DIGIT_RE.search(clause)):
        return []  # no label word, label part or number: it names no row (the readings below cost a table walk each)
    found = candidates(document, clause, kinds, view, near=sentence.block.order)
    if found is None:
        return []
    judged: list[Pair] | list[RowPair] | list[Join]
    if found:
        # both variants named: "FP8 is slower than fp16 on B200" is no claim about a table of fp32 and fp16 columns
        named = [pair for pair in found if _names_both(clause, pair)]
        own = [pair for pair in named if pair.table.section == sentence.block.section]
        judged = own if len(own) == 1 else named
    else:
        judged = row_pairs(document, clause, kinds, view, fewest=1) or [
            joined for joined in _joined(document, sentence, subject, reference, kinds, view) if not joined.sides.implicit]
    if not judged:
        return []
    everywhere = TextView("", frozenset())  # names no row: every row of every table
    # read again only by the readings that gave the judged pairs (each walks every table)
    made = {type(pair) for pair in judged}
    unrestricted = ((candidates(document, clause, kinds, everywhere) or [] if Pair in made else [])
                    + (row_pairs(document, clause, kinds, everywhere) if RowPair in made else [])
                    + (_joined(document, sentence, subject, reference, kinds, everywhere) if Join in made else []))
    sizes = {_pair_key(pair): _size(pair) for pair in unrestricted}
    if all(_size(pair) < sizes.get(_pair_key(pair), 0) for pair in judged):
        return judged
    return []


def _states_figures(sentence: Sentence, start: int, end: int) -> bool:
    """Whether the clause ``text[start:end]`` prints two or more measured figures (a unit, no ratio)."""
    return sum(1 for t in sentence.tokens if t.figure is not None and start <= t.start < end
               and t.figure.unit is not None and t.figure.unit not in RATIO_UNITS) >= 2


def _names_both(clause: str, pair: Pair) -> bool:
    """True when ``clause`` names each of the pair's two columns by the header words the other lacks
    (``fp16`` of ``fp16 (ms)`` beside ``fp32 (ms)``), not one of them left to be "the other column"."""
    x_words, y_words = set(name_words(pair.x.header)), set(name_words(pair.y.header))
    return (header_mention(clause, frozenset(x_words - y_words)) is not None
            and header_mention(clause, frozenset(y_words - x_words)) is not None)


def _pair_key(pair: Pair | RowPair | Join) -> tuple:
    """What one judged pair compares, whatever rows it holds: its table and columns, or its two sides."""
    if isinstance(pair, Join):
        return pair.kind, pair.sides
    if isinstance(pair, RowPair):
        return id(pair.table), pair.series.column, pair.x, pair.y
    return id(pair.table), pair.x.column, pair.y.column


def _size(pair: Pair | RowPair | Join) -> int:
    """How many rows (row pairs, cells) a judged pair holds."""
    if isinstance(pair, Join):
        return len(pair.xs) + len(pair.ys)
    if isinstance(pair, RowPair):
        return len(pair.pairs)
    return len(pair.rows)


def _joined(document: Document, sentence: Sentence, subject: str, reference: str, kinds: tuple[str, ...],
            view) -> list[Join]:
    """The claim's two sides paired across every table (:mod:`.table_joins`),
    one :class:`Join` per kind where both sides have figures among the rows
    the clause names (none where two figures of one side share every other
    coordinate: which one is meant is then unclear)."""
    found = []
    for kind in kinds:
        joined = pick(document, kind, subject, reference, view, sentence.block, ranges=True,
                      named=heading_tables(sentence, sentence.start, sentence.end))
        # variants as the row labels of one table: row_pairs read it, and left it unread
        if joined is not None and joined.xs and joined.ys and not joined.row_variants_of_one_table():
            found.append(joined)
    return found


def _unmeasured(pair: Pair | RowPair | Join) -> str:
    """"the table at line N holds no row with both 'X' and 'Y'" for a judged pair without one comparison."""
    if isinstance(pair, Join):
        return unpaired(pair)
    table = pair.table
    if isinstance(pair, RowPair):
        return (f"the table at line {table.line} pairs no '{pair.x}' row with a '{pair.y}' row "
                f"of the same {_key_words(table, pair)} in '{pair.series.header}'")
    only_x = sum(1 for row in pair.rows if pair.x.ends(row))
    only_y = sum(1 for row in pair.rows if pair.y.ends(row))
    return (f"no row of the table at line {table.line} holds both '{pair.x.header}' and '{pair.y.header}' "
            f"({only_x} row(s) with '{pair.x.header}' only, {only_y} with '{pair.y.header}' only)")


def _key_words(table, pair: RowPair) -> str:
    """The headers of the label columns other than the one holding the two variants: what would pair their rows."""
    holding = next(c for c in table.label_columns
                   if any(" ".join(row.cells[c].split()).lower() == pair.x for row in table.rows))
    return ", ".join(f"'{table.headers[c]}'" for c in table.label_columns if c != holding)


def _described(pair: Pair | RowPair | Join, rows: list[tuple[int, str, str, bool]]) -> str:
    """"the table at line N (what was compared): row 'X' has a against b; ..." for one judged pair."""
    if isinstance(pair, Join):
        return paired(pair, rows)
    table = pair.table
    if isinstance(pair, RowPair) and len(pair.pairs) == 1:
        compared = f"'{pair.series.header}' of row '{pair.x}' against row '{pair.y}'"
    elif isinstance(pair, RowPair):
        compared = f"'{pair.series.header}' of the {pair.x} rows against the {pair.y} rows, {len(pair.ends())} pairs"
    else:
        count = len(pair.ends())
        compared = f"'{pair.x.header}' against '{pair.y.header}', {count} row{'' if count == 1 else 's'} named"
    shown = "; ".join(f"{table.rows[r].name()} has {x} against {y}{' (a tie as printed)' if tied else ''}"
                      for r, x, y, tied in rows[:3])
    more = f" and {len(rows) - 3} more" if len(rows) > 3 else ""
    return f"the table at line {table.line} ({compared}): {shown}{more}"


__all__ = ["check"]
