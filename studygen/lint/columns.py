"""Column typing: which columns of a table are row labels, and which hold
figures, with what unit, statistic and header words.

:func:`type_columns` reads each column of a :class:`~studygen.lint.document.Table`
once (markdown-it pads every row to the header's cells):

- a column is a **label column** (GPU, TensorRT, shape …) when its header
  names a label (:func:`~studygen.lint.label_headers.is_label_header`) and no unit, or when at most half
  of its non-empty cells are numeric, and its cells are short (notes and
  commands are neither labels nor figures);
- any other column becomes one :class:`~studygen.lint.document.Series` per
  figure position of its cells (``5.889 / 14.747`` under ``fp16 ms 800x800 /
  800x1067`` gives ``fp16 ms 800x800`` and ``fp16 ms 800x1067``), with the
  unit its header names (:func:`header_unit`), else the unit its cells
  print, else the one the table's heading or caption gives
  (:func:`context_unit`; never to a column headed as a ratio, "speedup"
  under "Throughput (images/s)"); cells of another unit than the series'
  are left out of it;
- a column of figures headed with a label word ("TRT plugin", "step
  speedup") is a series when a ratio column follows it (its operand) or
  its header names a ratio.

:func:`add_label_vocabulary` then gathers the labels of all tables, the
words prose is matched against when it names rows.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from itertools import chain

from ..patterns import lazy_compile
from .document import Document, Row, Series, Table, is_empty_cell
from .label_headers import LONG_LABEL_HEADER_RE, is_label_header, is_text_header, names_a_quantity
from .figures import RATIO_UNITS, UNITS, Figure, is_count_share, statistics_in, tokenize
from .restriction import is_single_token, names_scope
from .suffixed_figures import reads_suffixes, suffixed_cell as _suffixed
from .table_model import precedes_derived
from .text import PARTING_SLASH, STOPWORDS, UNIT_WORDS, cached_keywords, label_tokens, normalize, ratio_header, stem

_HEADER_UNIT_RE = lazy_compile(
    r"(?<![\w/'])(" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u not in ("second", "seconds", "sec", "secs", "s"))
    + r"|s(?=\)|\]|$))(?!\w)(?!/(?!" + r"(?i:gpus?|devices?|chips?|cards?|nodes?|ranks?|users?|requests?|reqs?|im|imgs?|images?|samples?|"
    r"streams?|seqs?|quer(?:y|ies))\b))"
)  # a unit per something ("tok/s/GPU", "ms/im") is the unit, as prose reads it (studygen.lint.figures)
# The rates spelt in words (tokens/s, img/sec, inf/s), any case: a header's capital does not change the unit
_RATE_WORD_UNITS = {u.lower(): unit for u, unit in UNITS.items() if "/" in u and u[0].islower()}
_HEADER_RATE_RE = lazy_compile(
    r"(?<![\w/'])(" + "|".join(re.escape(u) for u in sorted(_RATE_WORD_UNITS, key=len, reverse=True)) + r")(?!\w)(?!/(?!(?:gpus?|devices?|chips?|cards?|nodes?|ranks?|users?|streams?)\b))",
    re.IGNORECASE, needs=("/s",))
# A header split into the parts of a multi-figure cell: "fp16 ms 800x800 / 800x1067",
# "plan MiB fp16 to FP8", "GEMM ms fp16 → FP8", "min / max ms", "median (min–max)".
_HEADER_SPLIT_RE = lazy_compile(PARTING_SLASH + r"|\s+to\s+|\s*(?:→|->|=>)\s*|\s+vs\.?\s+|\s*[–—]\s*")
_RESIDUE_RE = lazy_compile(
    r"[\s/|(),;:±~≈→<>=+*\-–—\[\]]+|\b(?:to|vs|and|of|or|from|about)\b|\b(?:"
    + "|".join(re.escape(u) for u in UNITS if u[0].isalpha())
    + r")\b"
)
_LETTER_RE = lazy_compile(r"[A-Za-z]")
_PLAIN_NUMBER_RE = lazy_compile(r"-?\d+(?:\.\d+)?")
_PLAIN_PAIR_RE = lazy_compile(r"(-?\d+(?:\.\d+)?) ?(?:/|→|->|to) ?(-?\d+(?:\.\d+)?)")
_ANNOTATION_RE = lazy_compile(r"^(.*?\S)\s*\(([^()]*[A-Za-z][^()]*)\)$")
_CONTEXT_UNIT_RE = lazy_compile(
    r"\((?:in\s+)?(" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True)) + r")\)"
    r"|\b(?:in|times\s+in|latency\s+in)\s+(ms|us|µs|MiB|GiB|MB|GB|seconds)\b"
)
# A first column that names the quantity of each row ("Metric", "Quantity", "KPI")
_METRIC_HEADER_RE = lazy_compile(r"^\W*(?:metrics?|quantity|quantities|measures?|measurements?|kpis?)\W*$", re.IGNORECASE)
_MAX_LABEL_WORDS = 5
_MAX_NAMED_LABEL_WORDS = 8
# A cell's figure followed by the direction it goes ("2x faster", "70% less").
_COMPARATIVE_WORDS = ("faster", "slower", "less", "more", "lower", "higher", "longer", "shorter", "smaller", "larger", "bigger",
                      "better", "worse", "fewer", "cheaper", "quicker", "reduction", "increase", "decrease", "improvement",
                      "speedup", "speed-up", "slowdown", "gain", "saved", "saving", "savings")
_COMPARATIVE_RE = lazy_compile(rf"^\s*(?:{'|'.join(_COMPARATIVE_WORDS)})\b", re.IGNORECASE, needs=_COMPARATIVE_WORDS)
_MAX_COMPARATIVE_WORDS = 4
_PLAIN_INT_RE = lazy_compile(r"\d+")
_RANGE_HEADER_RE = lazy_compile(r"\brange\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def context_unit(context: str) -> str | None:
    """The one unit a table's heading or caption gives for all its figures
    ("Latency (ms)", "times in ms"), or None when it gives none or several."""
    found = {UNITS.get(a or b, "s" if (a or b) == "seconds" else None) for a, b in _CONTEXT_UNIT_RE.findall(context)}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def table_unit(table: Table) -> str | None:
    """The unit a table's caption gives, else the nearest heading above it
    that gives one ("## Latency (ms)" two levels up): :func:`context_unit`
    of each, nearest first; None when none gives exactly one."""
    caption = table.context.split("\n", 1)[1] if "\n" in table.context else ""
    for text in (caption, *(table.headings or (table.context,))):
        unit = context_unit(text) if text else None
        if unit is not None:
            return unit
    return None


@lru_cache(maxsize=8192)
def header_unit(header: str) -> str | None:
    """The unit a header names (``GEMM ms fp16`` -> ``ms``, ``plan MiB`` ->
    ``MiB``, ``speedup (x)`` -> ``x``, ``AP fp16 / FP8`` -> ``AP``,
    ``Tokens/sec`` -> ``tokens/s``), or None."""
    match = _HEADER_UNIT_RE.search(header.replace("×", "x"))
    if not match:
        # a rate spelt in words starts a header with a capital ("Tokens/sec", "Images/s"), as prose never does
        rate = _HEADER_RATE_RE.search(header)
        if rate:
            return _RATE_WORD_UNITS[rate.group(1).lower()]
        # snake_case names end in their unit: "e2e_latency_ms", "plan_mib", "speedup_x", "saving_pct"
        snake = _SNAKE_UNIT_RE.search(header)
        return _SNAKE_UNITS.get(snake.group(1).lower()) if snake else None
    return UNITS.get(match.group(1))


_SNAKE_UNITS = {"ms": "ms", "us": "us", "s": "s", "sec": "s", "ns": "ns", "pct": "%", "percent": "%", "x": "x",
                "mib": "MiB", "gib": "GiB", "kib": "KiB", "mb": "MB", "gb": "GB", "kb": "KB"}
_SNAKE_UNIT_RE = lazy_compile(r"[A-Za-z0-9]_(" + "|".join(_SNAKE_UNITS) + r")\b", re.IGNORECASE, needs=("_",))

_EMPTY = (None, False)
# A cell holding a range of values: "1.20–1.31", "1.20 to 1.31", "(3 jobs: 1.20 to 1.31)"; group 2 the separator
_RANGE_CELL_RE = lazy_compile(
    r"(?:\d+\s+[A-Za-z]+\s*:\s*)?(-?\d+(?:\.\d+)?)\s*(–|—|-|to)\s*(-?\d+(?:\.\d+)?)")
# A note after a range naming the repeats it spans, as the generic template prints several jobs' figures of one
# cell: "0.457 to 0.92 (3 jobs: a, b, c)", "5.0 to 8.0 (2 figures of 1 job: a)", "(3 jobs: a, b; 1 undefined)"
_REPEATS_NOTE_RE = lazy_compile(
    r"\s*\(\d+\s+(?:figures\s+of\s+\d+\s+)?(?:jobs?|runs?|repeats?|compilations?|measurements?|trials?)\b"
    r"(?:\s*,\s*each)?\s*:[^()]*\)$")


def _range_cell(text: str) -> tuple[tuple[Figure, Figure], str] | None:
    """((low end, high end), separator) of a cell holding a range of values
    (see :data:`_RANGE_CELL_RE`; the whole cell, maybe in parentheses or
    followed by a note of the repeats it spans (:data:`_REPEATS_NOTE_RE`,
    separator ``note`` then), the low end first), else None. ``0.409 to
    0.073`` goes down: a change, no range."""
    text = text.strip()
    note = _REPEATS_NOTE_RE.search(text) if text.endswith(")") else None
    if note is not None and note.start() > 0:
        found = _range_cell(text[:note.start()])
        return (found[0], "note") if found is not None else None
    inner = text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text
    match = _RANGE_CELL_RE.fullmatch(inner)
    if match is None:
        return None
    low, high = _plain_figure(match.group(1), match.start(1)), _plain_figure(match.group(3), match.start(3))
    return ((low, high), match.group(2)) if low.value < high.value else None


# An LRU cache smaller than a column's distinct labels misses on every row
# (a sweep of shapes has thousands); 16k entries hold ~4 MB at most.
@lru_cache(maxsize=1 << 14)
def _parsed_cell(text: str) -> tuple[tuple[Figure, ...] | None, bool]:
    """(figures when the cell is numeric else None, whether it holds
    anything): :func:`_cell_figures`, cached, since label cells ("B200",
    "11.4", "800 x 800") repeat on every row."""
    if is_empty_cell(text):
        return _EMPTY
    figures, numeric = _cell_figures(text)
    return (tuple(figures) if numeric else None), True


def _plain_figure(text: str, start: int) -> Figure:
    dot = text.find(".")
    decimals = len(text) - dot - 1 if dot != -1 else 0
    return Figure(float(text), text, decimals, None, start, start + len(text))


def _finite(*figures: Figure) -> bool:
    """Whether each figure's value is a finite float."""
    return all(math.isfinite(figure.value) for figure in figures)


def _cell_figures(text: str) -> tuple[list[Figure], bool]:
    """(figures, numeric) of a cell: numeric when nothing but figures,
    separators and unit words is left once the figures are taken out. A
    trailing note in parentheses with words in it (``0.4644 (2 jobs: 0.4639
    to 0.4644)``) is left out; one of figures only (``5.3 (5.1–5.9)``) is kept."""
    # Fast paths for the common cells: "5.889", "0.409 → 0.073", "5.889 / 14.747".
    # (a figure past 1.8e308 reads as infinity: the tokenizer, below, leaves it out)
    if _PLAIN_NUMBER_RE.fullmatch(text) and _finite(plain := _plain_figure(text, 0)):
        return [plain], True
    pair = _PLAIN_PAIR_RE.fullmatch(text)
    if pair and _finite(first := _plain_figure(pair.group(1), pair.start(1)),
                        second := _plain_figure(pair.group(2), pair.start(2))):
        if is_count_share(first, second, text[pair.end(1):pair.start(2)]):
            first, second = first._replace(exact=True), second._replace(exact=True)
        return [first, second], True
    if text.startswith("(") and text.endswith(")"):
        ends = _range_cell(text)  # "(3 jobs: 1.20 to 1.31)": the cell is the range its note gives
        if ends is not None:
            return list(ends[0]), True
    if text.endswith(")"):
        annotated = _ANNOTATION_RE.match(text)
        # "(1.26x)" or "(+8%)" is a figure of the cell, "(2 jobs: ...)" a note on it
        if annotated and not _cell_figures_plain(annotated.group(2))[1]:
            figures, numeric = _cell_figures_plain(annotated.group(1))
            if numeric:
                return figures, True
    return _cell_figures_plain(text)


def _cell_figures_plain(text: str) -> tuple[list[Figure], bool]:
    tokens = tokenize(text)
    figures = [t.figure for t in tokens if t.figure is not None]
    if not figures:
        return figures, False
    pieces = []
    cursor = 0
    for token in tokens:
        pieces.append(text[cursor:token.start])
        cursor = token.end
    pieces.append(text[cursor:])
    residue = "".join(pieces)
    if residue.strip() and _LETTER_RE.search(_RESIDUE_RE.sub(" ", residue)):
        # "2x faster", "70% less", "5.8x slower without warm-up": one figure and the direction it goes
        if len(figures) == 1 and figures[0].unit and _COMPARATIVE_RE.match(residue) and len(residue.split()) <= _MAX_COMPARATIVE_WORDS:
            return figures, True
        return figures, False
    return figures, True


def type_columns(table: Table, scopes: frozenset[tuple[str, ...]] = frozenset()) -> None:
    """Split the table's columns into label columns and numeric series.
    ``scopes``: what the document's universal words range over
    (:func:`~studygen.lint.restriction.scope_phrases`); a first column of
    numbers they name by its header is the table's key even over two rows."""
    numeric_columns: list[tuple[int, list, int]] = []
    label_texts: dict[int, list[str]] = {}
    # markdown-it pads every row to the header's cells: transpose once
    columns = list(zip(*[row.cells for row in table.rows])) if table.rows else [()] * len(table.headers)
    for column, header in enumerate(table.headers):
        unit = header_unit(header)
        texts = columns[column]
        cells = list(map(_parsed_cell, texts))
        if reads_suffixes(header, unit):  # "1.52K" under "Tokens/sec" is a figure, "4K" under "Context" a label
            cells = [(_suffixed(text), True) if cell[0] is None and cell[1] else cell for cell, text in zip(cells, texts)]
        nonempty = len(cells) - cells.count(_EMPTY)
        if nonempty == 0:
            continue
        parsed = [cell[0] for cell in cells]
        numeric = len(parsed) - parsed.count(None)
        # "TRT plugin" over figures, a speedup after it: the speedup's operand, not a label (studygen.lint.table_model)
        named_label = unit is None and is_label_header(header) and not (
            numeric == nonempty and (names_a_quantity(header) or precedes_derived(table.headers, column) or ratio_header(header)))
        # a first column the prose ranges over ("at every concurrency") is a key over two rows
        key_rows = 2 if column == 0 and names_scope(header, scopes) else 3
        keyed = unit is None and (_is_key_column(texts, key_rows) if column == 0 else _is_repeated_integers(texts))
        if named_label or numeric * 2 <= nonempty or keyed:
            if not is_text_header(header) and _short_cells(texts, LONG_LABEL_HEADER_RE.match(header) is not None):
                table.label_columns.append(column)
                label_texts[column] = texts
            continue
        lengths = {len(f) for f in parsed if f}
        spans = _range_rows(header, texts, parsed, lengths)
        if spans:
            parts = 1
        elif len(lengths) == 1:
            parts = lengths.pop()
        else:
            parts = Counter(len(f) for f in parsed if f).most_common(1)[0][0]
        numeric_columns.append((column, parsed, parts, spans))
    _label_rows(table, label_texts)
    split_labels: dict[int, list[str]] = {}
    for column, parsed, parts, _ in numeric_columns:
        if parts > 1:
            headers = _split_header(table.headers[column], parts)
            if headers is not None:
                split_labels.setdefault(parts, [varying for _, varying in headers])
    default_unit = table_unit(table)
    # "| Metric | Baseline | Candidate |": each row its own quantity, so a cell's unit ("60.1s") belongs to its row
    metric_rows = table.label_columns[:1] == [0] and bool(_METRIC_HEADER_RE.match(table.headers[0]))
    for column, parsed, parts, spans in numeric_columns:
        _add_series(table, column, parsed, parts, split_labels.get(parts), default_unit, metric_rows, spans)


def _range_rows(header: str, texts, parsed: list, lengths: set[int]) -> dict[int, tuple[Figure, Figure]]:
    """Row -> (low end, high end) of the cells of a column that hold ranges of
    values, when the column is read as one of values with ranges among them:
    beside single figures ("1.38" above "1.45–1.52"), or in every row when
    each is a dash or a note of repeats ("(3 jobs: 1.20 to 1.31)") and the
    header names no parts ("min / max", "fp16 to FP8") nor statistics. Empty
    otherwise: "0.073 to 0.409" in every row may be a before and after."""
    if 2 not in lengths or not lengths <= {1, 2}:
        return {}
    spans, separators = {}, set()
    for row, (text, figures) in enumerate(zip(texts, parsed)):
        if figures and len(figures) == 2:
            found = _range_cell(text)
            if found is None:
                return {}
            spans[row] = found[0]
            separators.add("note" if text.strip().startswith("(") else found[1])
    if 1 in lengths:
        return spans
    if "to" in separators or _split_header(header, 2) is not None or statistics_in(header) or _RANGE_HEADER_RE.search(header):
        return {}
    return spans


def _is_repeated_integers(texts) -> bool:
    """True for a column of a few integers repeated down the rows (a rank,
    a replica or GPU count: 0, 1, 0, 1), which labels rows."""
    present = [text for text in texts if not is_empty_cell(text)]
    if len(present) < 4 or not all(_PLAIN_INT_RE.fullmatch(text) for text in present):
        return False
    return len(set(present)) * 2 <= len(present)


def _is_key_column(texts, fewest: int = 3) -> bool:
    """True for a first column of at least ``fewest`` distinct integers in
    sorted order (batch sizes, token counts, concurrency levels: the sweep a
    table is keyed by), which labels rows rather than holding figures. Any two
    distinct numbers are in order, so two rows are a key only where the prose
    ranges over the column ("at every concurrency": :func:`type_columns`).
    A long table repeats each level once per variant (80, 80, 20, 20 beside
    vLLM, TensorRT-LLM, vLLM, TensorRT-LLM): sorted levels each held by the
    same number of rows, at least two levels and four rows, are a key too."""
    present = [text for text in texts if not is_empty_cell(text)]
    if len(present) < fewest or not all(_PLAIN_INT_RE.fullmatch(text) for text in present):
        return False
    values = [int(text) for text in present]
    if values != sorted(values) and values != sorted(values, reverse=True):
        return False
    # a long table keys each level by a run of rows, one per variant ("| 80 | vLLM |", "| 80 | TensorRT-LLM |",
    # "| 20 | vLLM |"): every level held by the same number of rows, two at least, is a key as distinct levels are
    runs = set(Counter(values).values())
    return runs == {1} or (len(runs) == 1 and len(set(values)) >= 2 and len(values) >= 4)


def _short_cells(texts, label_header: bool = False) -> bool:
    """True when the cells are short enough to be row labels (not notes):
    five words at most, eight under a header that names a machine or a run
    (``label_header``: :data:`~studygen.lint.label_headers.LONG_LABEL_HEADER_RE`, "GPU", "Job"), where a
    device's full name runs longer ("NVIDIA GeForce RTX 4060 Laptop GPU"; one
    such row once left the table without labels, its rows named by their lines)."""
    words = _MAX_NAMED_LABEL_WORDS if label_header else _MAX_LABEL_WORDS
    return any(texts) and max(text.count(" ") for text in texts) < words


def _label_rows(table: Table, label_texts: dict[int, list[str]]) -> None:
    """Label values per label column and each row's label (``B200 / 11.1 / 800 x 1067``)."""
    header_words = _words_of(table.headers)
    for column, texts in label_texts.items():
        by_text = _rows_by_text(texts, table.all_rows)
        runs: dict[str, list[list[int]]] = {}  # normalised value -> row lists of the texts that give it
        numbers = counted = 0
        for text, rows in by_text.items():
            if is_empty_cell(text):
                continue
            value = normalize(text)
            runs.setdefault(value, []).append(rows)
            counted += len(rows)
            if value.replace(".", "").isdigit():
                numbers += len(rows)
        # texts come in the order of their first row, so values do too; rows ascend within a value
        values = {value: lists[0] if len(lists) == 1 else sorted(chain.from_iterable(lists))
                  for value, lists in runs.items()}
        table.label_values[column] = values
        if values and numbers == counted:
            header_tokens = label_tokens(normalize(table.headers[column]))
            table.numeric_labels[column] = header_tokens[0] if header_tokens else ""
        elif len(values) > 1:
            parts = _label_parts(by_text, set(values), header_words)
            if parts:
                table.label_parts[column] = parts


def _rows_by_text(texts, row_indexes: list[int]) -> dict[str, list[int]]:
    """Cell text -> the rows holding it (ascending), texts in the order of
    their first row; ``row_indexes`` gives the int objects the lists share
    (a column of a million cells holds a million references, not a million
    ints per list that names rows)."""
    grouped: dict[str, list[int]] = {}
    for row_index, text in zip(row_indexes, texts):
        rows = grouped.get(text)
        if rows is None:
            grouped[text] = [row_index]
        else:
            rows.append(row_index)
    return grouped


_PART_SPLIT_RE = lazy_compile(r"[^a-z0-9µμ.+]+")


def _split_words(text: str) -> list[str]:
    """The words of ``text`` as label words are split (lower case, ``_``
    and ``-`` separate, dots kept inside: ``v0.2``, ``qwen2.5``)."""
    return [part.strip(".") for part in _PART_SPLIT_RE.split(text.lower().replace("×", "x"))]


def _words_of(texts) -> frozenset[str]:
    """The words of ``texts`` (and their stems), split as label words are."""
    return frozenset(word for text in texts for part in _split_words(text) if part for word in (part, stem(part)))


def _label_parts(by_text: dict[str, list[int]], values: set[str], header_words: frozenset[str] = frozenset()
                 ) -> dict[str, set[int]]:
    """Words of a label column's values that tell some rows from others
    (in some values, not all): ``deepep_decode`` / ``none_prefill`` give
    decode, prefill, deepep, none; ``First Inference (A)`` gives first,
    inference. Numbers, stop words, unit words and ``header_words`` (the
    table's own headers: a note "(tile size 64)" in one label of a table of
    "tile size" columns is about what the columns hold, and a text naming
    the columns' quantity names no row by it) are left out.
    ``by_text``: :func:`_rows_by_text` of the column; each distinct text
    is split once."""
    runs: dict[str, list[list[int]]] = {}  # word -> row lists of the texts holding it
    labelled = 0
    for text, rows in by_text.items():
        if is_empty_cell(text):
            continue
        labelled += len(rows)
        words: dict[str, None] = {}
        # the raw text: normalize() reads "_" as emphasis and would join "deepep_decode"
        for part in _split_words(text):
            if len(part) < 2 or part in STOPWORDS or part in UNIT_WORDS or part in header_words or not any(
                    ch.isalpha() for ch in part):
                continue
            for word in {part, stem(part)}:
                words[word] = None
        for word in words:
            runs.setdefault(word, []).append(rows)
    # the texts' row lists are disjoint: a word's row count is their sum
    return {word: set(chain.from_iterable(lists)) for word, lists in runs.items()
            if sum(map(len, lists)) < labelled and word not in values}


def _split_header(header: str, parts: int) -> list[tuple[str, str]] | None:
    """(display header, varying part) per figure position, when the header
    splits into ``parts`` pieces; shared words are borrowed from the longest
    piece (``fp16 ms 800x800 / 800x1067`` -> ``fp16 ms 800x800``,
    ``fp16 ms 800x1067``; ``min / max ms`` -> ``min ms``, ``max ms``)."""
    pieces = [p.strip() for p in _HEADER_SPLIT_RE.split(header)]
    if len(pieces) != parts or not all(pieces):
        return None
    words = [p.split() for p in pieces]
    first, last = len(words[0]), len(words[-1])
    result = []
    if first >= last:
        shared = words[0][: first - min(len(w) for w in words[1:])] if parts > 1 else []
        for i, piece_words in enumerate(words):
            own = piece_words[len(shared):] if i == 0 else piece_words
            full = piece_words if i == 0 else shared + piece_words
            result.append((" ".join(full), normalize(" ".join(own))))
    else:
        keep = last - min(len(w) for w in words[:-1])
        shared = words[-1][len(words[-1]) - keep:]
        for i, piece_words in enumerate(words):
            own = piece_words[: len(piece_words) - keep] if i == len(words) - 1 else piece_words
            full = piece_words if i == len(words) - 1 else piece_words + shared
            result.append((" ".join(full), normalize(" ".join(own))))
    return result


@lru_cache(maxsize=8192)
def _series_specs(header: str, parts: int, sibling_labels: tuple[str, ...] | None) -> tuple[tuple, ...]:
    """(display header, varying part, header unit, statistic, keywords) per
    figure position of a column; cached, since generated documents repeat
    their headers table after table."""
    unit = header_unit(header)
    split = _split_header(header, parts) if parts > 1 else None
    stats = [s[0] for s in statistics_in(header)]
    if parts == 2 and len(stats) != 2 and _RANGE_HEADER_RE.search(header):
        stats = ["min", "max"]
    specs = []
    for sub in range(parts):
        if split is not None:
            display, varying = split[sub]
        elif parts > 1:
            varying = sibling_labels[sub] if sibling_labels else f"#{sub + 1}"
            display = f"{header} {varying}" if sibling_labels else f"{header} (figure {sub + 1} of {parts})"
        else:
            display, varying = header, ""
        part_unit = header_unit(display) if split is not None else unit
        if part_unit is None:
            part_unit = unit
        if split is not None:
            stat_names = [s[0] for s in statistics_in(display)]
            stat = stat_names[0] if len(set(stat_names)) == 1 else None
        elif len(stats) == parts:
            stat = stats[sub]
        else:
            stat = stats[0] if parts == 1 and len(set(stats)) == 1 else None
        if stat and parts > 1 and split is None:
            display = f"{header}, {'median' if stat == 'p50' else stat}"
        specs.append((display, varying, part_unit, stat, cached_keywords(display)))
    return tuple(specs)


def _add_series(table: Table, column: int, parsed: list, parts: int, sibling_labels: list[str] | None, default_unit: str | None,
                metric_rows: bool = False, spans: dict[int, tuple[Figure, Figure]] | None = None) -> None:
    """Add the series of one numeric column (one per figure position of its
    cells); ``metric_rows`` when each row is its own quantity (a first column
    headed "Metric"): in a column of no unit, cells that print one are then
    kept, since the unit is the row's ("60.1s" beside "14,523" tokens), and
    cells printing two units or more, the most of them neither ``x`` nor
    ``%`` ("812.4 ms", "412.8 tok/s"), are all kept and give the series no
    unit, not even the table's heading's.
    ``spans``: rows whose cell holds a range (:func:`_range_rows`), kept as
    the series' :attr:`~studygen.lint.document.Series.spans`."""
    header = table.headers[column] or f"column {column + 1}"
    spans = spans or {}
    specs = _series_specs(header, parts, tuple(sibling_labels) if sibling_labels else None)
    unit = header_unit(header)
    made = []
    for sub, (display, varying, part_unit, stat, words) in enumerate(specs):
        if parts == 1:
            values = [None if row in spans else (f[0] if len(f) == 1 else _one_of_unit(f, unit)) if f else None
                      for row, f in enumerate(parsed)]
        else:
            values = [f[sub] if f and len(f) == parts else None for f in parsed]
        units_seen = {v.unit for v in values if v is not None}
        units_seen.discard(None)
        rows_own_units = False
        if units_seen:
            cell_units = Counter(v.unit for v in values if v is not None and v.unit)
            unit_of_most, with_unit = cell_units.most_common(1)[0]
            # "| Metric | ... |" rows printing "812.40 ms" and "412.77 tok/s": each row's unit is its own, none the column's
            rows_own_units = metric_rows and part_unit is None and unit_of_most not in RATIO_UNITS and len(units_seen) > 1
            # a unit printed in a minority of cells (an "Increase" row of x under throughputs) does not type the column
            if part_unit is None and not rows_own_units and with_unit * 2 >= sum(1 for v in values if v is not None):
                part_unit = unit_of_most
            if units_seen != {part_unit} and not (metric_rows and part_unit is None):
                values = [v if v is None or v.unit in (None, part_unit) else None for v in values]
        if part_unit is None and not ratio_header(display) and not rows_own_units:
            part_unit = default_unit  # "Throughput (images/s)" over a table: not the unit of its speedup column
        if spans or any(v is not None for v in values):
            made.append(Series(table, column, sub if parts > 1 else -1, parts, display, varying, part_unit, stat, words, values,
                               spans))
    own_split = parts > 1 and _split_header(header, parts) is not None
    if len(made) > 1 and not own_split and len({s.unit for s in made}) == len(made):
        # "931.3 (1.61x)": the figures of a cell differ by unit, and the unit names each ('+combine', '+combine, x');
        # another column's split ("prefill / decode") does not name them
        for position, series in enumerate(made):
            series.header = header if position == 0 else f"{header}, {series.unit or 'figure ' + str(position + 1)}"
            series.keywords = cached_keywords(series.header)
            series.varying = f"#{position + 1}"
    table.series.extend(made)


def _one_of_unit(figures, unit: str | None) -> Figure | None:
    """The one figure of ``unit`` in a cell holding several ("5.889 ms (1.01x)")."""
    chosen = [f for f in figures if f.unit == unit] if unit else []
    return chosen[0] if len(chosen) == 1 else None


def add_label_vocabulary(document: Document) -> None:
    """The document's label vocabulary: one-word labels, labels of several
    words, and the header words that introduce numeric labels."""
    vocab = set()
    multiword = set()
    numeric_words = set()
    for table in document.tables:
        for column, values in table.label_values.items():
            if column in table.numeric_labels:
                if table.numeric_labels[column]:
                    numeric_words.add(table.numeric_labels[column])
                continue
            for value in values:
                if is_single_token(value):
                    vocab.add(value)
                else:
                    multiword.add(value)
    document.label_vocab = frozenset(vocab)
    document.label_parts = frozenset(part for table in document.tables for part in table.part_words)
    document.multiword_labels = frozenset(multiword)
    document.header_parts = frozenset(
        part for table in document.tables for series in table.series
        for part in label_tokens(series.varying) if series.varying and not series.varying.startswith("#")
    )
    document.numeric_header_words = frozenset(numeric_words)


def columns_as_rows(table: Table) -> Table:
    """``table`` read the other way round, typed anew: row ``j`` of the view
    is column ``j + 1`` of ``table`` (its first cell the header), the view's
    headers the first column's cells; lines are the table's."""
    view = Table(table.order, table.section, table.line, table.end_line,
                 [table.headers[0]] + [row.cells[0] for row in table.rows], [], table.context)
    view.rows = [Row(column - 1, table.line, [table.headers[column]] + [row.cells[column] for row in table.rows], view)
                 for column in range(1, len(table.headers))]
    type_columns(view)
    return view
