"""A prose ratio or percent change between two rows of a nearby table (SG103).

"FP16 is 3.1x faster than FP32", "fp16 gives a 3.1x speedup over fp32",
"fp16 cuts latency by 70% relative to fp32": the clause names two rows of a
table by their labels, not the figures. When the clause holds

- exactly one figure, a ratio (``x``) or a percentage, neither hedged
  ("up to", "about", "~", "≥") nor denied nor part of a range, and no other
  figure;
- exactly two row labels of one table, matched whole-word and
  case-insensitively, each label naming one row only (a label inside a longer
  matched label, "int8" in "int8+sq", counts as the longer one), and no third;
- one measured column to read: the single column the clause names by its
  header words, else the table's only column of a time or throughput unit
  (ms, s, us, ns, tokens/s, images/s; or a header saying latency, time or
  throughput) when the clause speaks of speed ("faster", "speedup",
  "latency" …); a clause naming two columns, or a ratio column, is skipped;

the figure is recomputed both ways round: ``a / b`` and ``b / a`` for a
ratio, ``(a - b) / a``, ``(a - b) / b`` and ``a / b`` in either order and
either sign for a percentage. Only when none fits to the printed digits
(truncation allowed, :func:`studygen.lint.derived.fits`) is it reported.

The table is the nearest one above the paragraph in its section or the
nearest one below; when both give such a reading, one fitting clears it,
and a finding needs exactly one table to read (cases
``sg103_pos_row_ratio``, ``sg103_neg_row_ratio``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..patterns import lazy_compile
from .derived import derivation, fits, formulas_for
from .document import Document, Sentence, Series, Table
from .figures import RATIO_UNITS, Figure, with_unit
from .text import keywords, normalize

HINT = "recompute the ratio or percentage from the two rows it compares (to their printed digits), or name the run it comes from"

_TIME_UNITS = frozenset({"ms", "s", "us", "ns", "tokens/s", "images/s"})
_TIME_WORDS = frozenset({"latency", "time", "throughput", "fps", "qps", "runtime", "duration"})
_SPEED_RE = lazy_compile(
    r"\b(?:faster|slower|quicker|speed-?ups?|slowdowns?|latency|latencies|throughput|runtime|speed)\b", re.IGNORECASE)
_HEDGE_RE = lazy_compile(
    r"(?:~|≈|≥|≤|>|<|\bup\s*to|\bover|\bmore\s+than|\bat\s+least|\bat\s+most|\babout|\baround|\broughly|\bnearly|"
    r"\balmost|\bapprox(?:imately|\.)?|\bunder|\bbelow|\babove|\bless\s+than|\bclose\s+to|\bsome|\bsay|"
    r"\bnot|\bno|\bnever|\bif|\bwould|\bcould|\bexpect(?:ed)?|\btarget)\s*$",
    re.IGNORECASE,
)
_HEDGE_AFTER_RE = lazy_compile(r"^\s*(?:\+|or\s+(?:more|so|less)|at\s+(?:most|best|least))", re.IGNORECASE)
_HEDGE_WINDOW = 16
_CLAUSE_BREAKS = ",;()"


@dataclass
class _Reading:
    """One table's reading of a clause: the column, the two rows and whether
    any formula fits."""

    table: Table
    series: Series
    rows: tuple[int, int]
    fits: bool


def _clause(sentence: Sentence, figure: Figure) -> tuple[int, int]:
    text = sentence.block.text
    start = max([text.rfind(c, sentence.start, figure.start) for c in _CLAUSE_BREAKS] + [sentence.start - 1]) + 1
    ends = [text.find(c, figure.end, sentence.end) for c in _CLAUSE_BREAKS]
    return start, min([e for e in ends if e != -1] + [sentence.end])


def _label_of(cell: str) -> str:
    # cells are plain text already (markup removed by the parser): only case and spacing vary
    return " ".join(cell.lower().split())


def _labelled_rows(table: Table) -> dict[str, list[int]]:
    """Label -> rows of the table's one label column (labels of two characters
    or more with a letter); kept on the table, which clauses read repeatedly."""
    cached = table.pair_cache.get("labelled rows")
    if cached is None:
        column = table.label_columns[0]
        cached = {}
        for row in table.rows:
            label = _label_of(row.cells[column])
            if len(label) >= 2 and any(c.isalpha() for c in label):
                cached.setdefault(label, []).append(row.index)
        table.pair_cache["labelled rows"] = cached
    return cached


def _named_rows(table: Table, clause: str) -> tuple[int, int] | None:
    """The two rows the clause names by their labels, or None (not two, a
    label shared by several rows, or a label column that is not one)."""
    if len(table.label_columns) != 1:
        return None
    rows_of = _labelled_rows(table)
    spans = []
    lowered = clause.lower()
    for label, rows in rows_of.items():
        if label not in lowered:
            continue  # the whole-word search below only where the text holds the label at all
        for match in re.finditer(r"(?<![\w.+-])" + re.escape(label) + r"(?![\w+]|-\w)", lowered):
            spans.append((match.start(), match.end(), label))
    # a label inside a longer one ("int8" in "int8+sq") is the longer one
    kept = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and (o[1] - o[0]) > (s[1] - s[0]) for o in spans)]
    labels = {label for _, _, label in kept}
    if len(labels) != 2 or any(len(rows_of[label]) != 1 for label in labels):
        return None
    first, second = sorted(labels, key=lambda label: min(s[0] for s in kept if s[2] == label))
    return rows_of[first][0], rows_of[second][0]


def _is_time(series: Series) -> bool:
    return series.unit in _TIME_UNITS or bool(_TIME_WORDS & series.keywords)


def _column(table: Table, clause: str) -> Series | None:
    """The measured column the clause is about (see the module docstring)."""
    numeric = [s for s in table.series if s.column not in table.label_columns]
    if not numeric:
        return None
    words = keywords(normalize(clause))
    shared = frozenset.intersection(*(s.keywords for s in numeric)) if len(numeric) > 1 else frozenset()
    # the label column's header ("engine") names the rows, not a column ("engine size")
    shared |= keywords(normalize(" ".join(table.headers[c] for c in table.label_columns)))
    named = {id(s): s for s in numeric if (s.keywords - shared - {"x"}) & words}
    speed = bool(_SPEED_RE.search(clause))
    if len(named) > 1:
        return None
    if named:
        series = next(iter(named.values()))
        # "halves the engine size and is 3.0x faster": a speed figure in a clause naming another column
        return series if series.unit not in RATIO_UNITS and (not speed or _is_time(series)) else None
    if not speed:
        return None
    timed = [s for s in numeric if s.unit not in RATIO_UNITS and _is_time(s)]
    return timed[0] if len(timed) == 1 else None


def _negated(figure: Figure) -> Figure:
    return figure._replace(value=-figure.value)


def _reading(table: Table, clause: str, figure: Figure) -> _Reading | None:
    rows = _named_rows(table, clause)
    if rows is None:
        return None
    series = _column(table, clause)
    if series is None:
        return None
    a, b = series.values[rows[0]], series.values[rows[1]]
    if a is None or b is None:
        return None
    targets = (figure,) if figure.unit == "x" else (figure, _negated(figure))
    verdicts = [fits(f, x, y, t) for f in formulas_for(figure.unit, False) for x, y in ((a, b), (b, a)) for t in targets]
    if all(v is None for v in verdicts):
        return None
    return _Reading(table, series, rows, any(verdicts))


def _nearby(document: Document, block) -> list[Table]:
    """The nearest table above the paragraph in its section and the nearest below."""
    order = block.order
    tables = document.tables_by_section.get(block.section, ())
    above = [t for t in tables if t.order < order]
    below = [t for t in tables if t.order > order]
    return ([max(above, key=lambda t: t.order)] if above else []) + ([min(below, key=lambda t: t.order)] if below else [])


def row_ratio_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each prose ratio or percent change between two
    named rows that the rows' figures do not give (see the module docstring)."""
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        # the tables a clause of this block may read: one label column is what names two rows
        if not any(len(t.label_columns) == 1 for t in _nearby(document, block)):
            continue
        text = block.text
        for sentence in block.sentences:
            tables = None
            figures = [t.figure for t in sentence.tokens if t.figure is not None]
            in_ranges = sentence.range_ends
            for figure in figures:
                if figure.unit not in RATIO_UNITS or figure.start in in_ranges:
                    continue
                start, end = _clause(sentence, figure)
                # "3.1x over FP32 (4.20 ms vs 1.90 ms)": the parenthesis after the clause states its operands
                operands_end = text.find(")", end, sentence.end) if text.startswith("(", end) else end
                operands_end = sentence.end if operands_end == -1 else operands_end
                if any(other is not figure and start <= other.start < operands_end for other in figures):
                    continue  # other figures: the clause states its operands (the pair check's to read)
                if _HEDGE_RE.search(text, max(start, figure.start - _HEDGE_WINDOW), figure.start) or \
                        _HEDGE_AFTER_RE.match(text[figure.end:end]):
                    continue
                if tables is None:
                    tables = _nearby(document, sentence.block)
                clause = text[start:end]
                readings = [r for r in (_reading(t, clause, figure) for t in tables) if r is not None]
                if len(readings) != 1 or readings[0].fits:
                    continue
                found.append(_finding(sentence, figure, readings[0]))
    return found


def _finding(sentence: Sentence, figure: Figure, reading: _Reading) -> tuple[int, str, str]:
    table, series = reading.table, reading.series
    first, second = (table.rows[i] for i in reading.rows)
    a, b = series.values[reading.rows[0]], series.values[reading.rows[1]]
    formula = formulas_for(figure.unit, False)[0]
    options = " or ".join(derivation(formula, x, y, figure) for x, y in ((a, b), (b, a)))
    return (
        sentence.line_at(figure.start),
        f"{with_unit(figure.text, figure.unit)} between {first.name()} and {second.name()} does not follow from "
        f"'{series.header}' of the table at line {table.line}: {options}",
        HINT,
    )


__all__ = ["row_ratio_findings"]
