"""Best-of claims over variants as columns (SG107, read from
:mod:`.best_rows`): "fp32 is the fastest at 0.1536 ms" over a table with a
row per configuration (GPU / shape / batch) and a column per variant
(``fp32 (ms)``, ``fp16 (ms)``, then ratio columns), when another variant's
cell of the quoted figure's row beats it.

:mod:`.best_rows` ranks a claim down a column, over rows; a winner named by
a column's header rather than a row's label is a claim across a row. It is
read here only after every test :mod:`.best_rows` makes of the clause has
passed (one unhedged superlative said of the subject, one figure with a unit
printed in one cell, or in one row the clause names, a plain frame, labels
that leave the figure's row in), and only when

- the clause names exactly one variant column (:func:`variant_columns`: a
  header whose part before its parenthesis names no quantity, statistic or
  ratio: ``fp16 (ms)`` named "fp16"), and that column is the one printing the
  figure ("fp16 is the fastest at 0.1536 ms" with 0.1536 under ``fp32 (ms)``
  says something else and is not read);
- the superlative is a winner's ("is the fastest", "leads", "the lowest
  latency is fp16's"), not a peak ("fp16 peaks at ...", "fp16's best"), which
  keeps the column and ranges over its rows, as :mod:`.best_rows` reads it.

The figure is ranked against the row's cells in its *peers*: the table's
other variant columns holding the same quantity, that is of the same unit (a
time in seconds is not ranked against milliseconds), one figure a cell (a
cell of two figures, "2.95 / 3.80", says not which is the variant's). A
ratio, percentage, count or note column is of another unit or none and never
a peer; nor is a column whose header names a quantity or a statistic ("host
latency (ms)", "p99 (ms)": no variant), the subject's own variant ("fp16
saves (ms)", "int8-bf16 (ms)") or a change ("delta (ms)", "overhead (ms)"):
those are derived from the variants, not one of them. A peer cell holding a
range of values (the generic template's "1.398 to 1.458 (2 jobs: a, b)")
beats the figure only where both its ends do.

The claim is contradicted when a peer's cell lies beyond the quoted figure's
printed digits the other way (:func:`.ratio_direction.goes_against`); a tie
within the digits is not. A row where no peer holds a figure ranks nothing.
The finding names the claimed column, the row, and the peers that beat it.

Case (a new user's trial): "fp32 is the fastest at 0.1536 ms" passed under a
row ``| GTX 1070 / 28 x 28 / 1 | 0.1536 | 0.1526 | 1.01x |`` of headers
``fp32 (ms)`` and ``fp16 (ms)``: :mod:`.best_rows` skipped every winner
named by a column. Cases: ``tests/lint/test_best_columns.py``.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Series, Table
from .figures import Figure, statistic_of
from .ratio_direction import goes_against
from .text import label_tokens, names_whole, normalize, ratio_header, stem
from .variant_pairs import QUANTITY_WORDS, metric_kinds

# a column derived from the variants rather than one of them: a difference, a change, a saving
DERIVED_RE = lazy_compile(
    r"\b(?:diff\w*|delta|gap|minus|change[sd]?|overhead|saved|saves?|savings?|reduc\w*|gain|speed-?ups?|"
    r"slow-?downs?|vs\.?|versus|over|relative|penalty|regression)\b|[Δ%±]|\s[-−–]\s", re.IGNORECASE)
# a header naming each row's own extreme over its runs ("min (ms)", "best of 5", "peak memory"): no row's rank,
# nor a variant's
PER_ROW_EXTREME_RE = lazy_compile(
    r"\b(?:min|max|minimum|maximum|best|worst|peaks?|top|fastest|quickest|slowest|lowest|highest|largest|biggest|"
    r"smallest|fewest)\b", re.IGNORECASE)

HINT = "quote the variant whose figure is the smallest (or largest) of its row, or name the variants the claim holds for"


def names_quantity(label: str) -> bool:
    """True for a label or header that names a quantity or a statistic ("mean latency", "p95", "throughput")."""
    return any(token in QUANTITY_WORDS or stem(token) in QUANTITY_WORDS or statistic_of(token) is not None
               for token in label_tokens(label))


def _variant_name(series: Series) -> str | None:
    """The normalised part of ``series``'s header before its parenthesis when it names a variant, not a
    quantity, a statistic, a serving metric, its unit alone or a ratio (``fp16`` of ``fp16 (ms)``, none for
    ``latency (ms)``, ``TTFT (ms)``, ``tokens/s``, ``fp32 / fp16``)."""
    main = normalize(series.header.split("(", 1)[0]).strip()
    tokens = label_tokens(main)
    if not tokens or ratio_header(series.header) or any(names_quantity(token) for token in tokens):
        return None
    # a serving metric's name ("TTFT (ms)") or the unit alone ("tokens/s"): a quantity, measured per row
    if metric_kinds(main) or (series.unit is not None and main == normalize(series.unit)):
        return None
    return main


def variant_columns(normalized: str, table: Table) -> list[Series]:
    """The value columns of ``table`` that the normalised clause ``normalized`` names by a variant header
    (:func:`_variant_name`), in the table's order: a table of variants (or models) as columns."""
    return [series for series in table.series
            if (name := _variant_name(series)) is not None and names_whole(normalized, name)]


def peers(series: Series) -> list[Series]:
    """The other variant columns of ``series``'s table holding its quantity: the same unit (so the same kind;
    a variant header names no statistic), one figure a cell, no ratio, derived or per-row extreme header (see the module's docstring)."""
    peers = []
    for other in series.table.series:
        if other is series or other.parts != 1 or other.unit != series.unit:
            continue
        if _variant_name(other) is None:
            continue
        if DERIVED_RE.search(other.header) or PER_ROW_EXTREME_RE.search(other.header):
            continue
        if series.keywords & other.keywords:
            continue  # "fp16 saves (ms)", "fp32 - fp16 (ms)": names the subject's variant, derived from it
        peers.append(other)
    return peers


def _beats(figure: Figure, ends: tuple[Figure, ...], want: int) -> bool:
    """True when every figure of a peer's cell (its value, or both ends of a range) lies beyond ``figure``'s
    printed digits the way ``want`` says the quoted one should be (a peer's cells are in the figure's unit:
    its column's, which a cell of another unit leaves empty)."""
    return all(goes_against(figure, end, want) for end in ends)


def finding(claim: str, series: Series, row: int, figure: Figure, want: int, named: list[Series]) -> str | None:
    """The message for a winner ``claim`` naming the ``named`` variant columns, whose ``figure`` is ``series``'s
    cell of ``row``, when a peer's cell of that row beats it (``want`` +1: a larger one); None when the claim
    is not one this module reads or no peer beats it."""
    if len(named) != 1 or named[0] is not series:
        # two variants named, or the figure in another column than the one named ("fp16 is the fastest at 2.95
        # ms" over cells "2.95 / 3.80" names both figures' series): no claim read here
        return None
    ranked = [(peer, peer.ends(row)) for peer in peers(series)]
    ranked = [(peer, ends) for peer, ends in ranked if ends]  # (none: a set of one, nothing beats it)
    beaten = [(peer, ends) for peer, ends in ranked if _beats(figure, ends, want)]
    if not beaten:
        return None
    table = series.table
    extreme = "largest" if want > 0 else "smallest"
    shown = "; ".join(f"'{peer.header}' has {' to '.join(end.text for end in ends)}" for peer, ends in beaten)
    return (f"'{claim}' names '{series.header}' the {extreme} of {len(ranked) + 1} variant columns in "
            f"{table.rows[row].name()} of the table at line {table.line}, but {shown}")


__all__ = ["DERIVED_RE", "HINT", "PER_ROW_EXTREME_RE", "finding", "names_quantity", "peers", "variant_columns"]
