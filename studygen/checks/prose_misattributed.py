"""SG222 (misquoted figure) of a figure of another run: a figure quoted in the study file's prose with its unit that a measured figure of
the study gives, but none of the runs its clause names.

:mod:`.sg222_misquoted_figures` reports a figure that no measured figure gives and one a digit from it does; a
figure some row gives passes there, whichever row. Here the clause the figure stands in (its part, cut where a
comma joins another statement: :func:`~.prose_clauses.conjunct_bounds`) is read for the runs it names: GPU models,
variants or precisions and checkpoint revisions (:func:`~.prose_clauses.rows_named`), job ids, and then, narrowing
those runs' rows, the kernel groups and the statistic ("median", "mean", "p99") it names. The figure holds when one
of those rows' figures (value, range ends, and for a latency the statistics its record keeps, only the one named
where the clause names one) gives it, rounded or cut to its printed decimals. Not read:

- a clause that names no run, or whose names give no row (a GPU or variant no record was measured on: SG224's),
  unless it names a GPU in a study one of whose records states none, which SG224 leaves unread: "On a Jetson AGX
  Orin the layer total is 0.4704 ms" where 0.4704 ms is the TITAN RTX's is reported;
- a clause holding a second quoted figure of the unit ("0.3746 ms against 0.4413 ms for the other engine": the
  second is of a run it may not name);
- a clause that denies, defers, cites or supposes (:func:`~.prose_clauses.unread_clause`);
- a clause naming a GPU where a row that gives the figure states none (that run may have been on it: SG224 reads a
  study whose records state no GPU the same way);
- a figure no row gives (another source's, or a misquote, which SG222 proper reads), and one the README does not
  print.

Case (a new user's trial, session 29, on the exports NVIDIA's engine explorer ships for a QAT MobileNet at two
commits): "The 26210e92 engine spends 0.3746 ms per iteration in convolution layers." passed where that engine's
convolutions take 0.4413 ms and 0.3746 ms is the 7a07608d engine's; "The median GPU compute time of the 26210e92
engine is 0.4780 ms." passed where 0.4780 ms is the run's mean and its median 0.4480 ms.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..findings import Finding
from ..patterns import lazy_compile
from ..records.jsonpos import pointer_from_path
from ..records.load import yaml_text_line
from ..rules import code_of
from ..study.placeholders import claim_strings
from .prose_clauses import GPU_MODEL, clause_bounds, conjunct_bounds, rows_named, unread_clause
from .prose_figures import matches, names_in, quotations

# a statistic a clause names, as the records' statistics_ms keys it ("average" is the mean, "p99" and "99th
# percentile" one key)
_STATISTIC = lazy_compile(r"\b(median|mean|average|min(?:imum)?|max(?:imum)?|p(\d{2}(?:\.\d+)?)|(\d{2}(?:\.\d+)?)"
                        r"(?:th|st|nd|rd)\s+percentile)\b", re.IGNORECASE)
CODE = code_of("studygen.checks.sg222_misquoted_figures")  # the check this module reads prose for
_UNIT_OF = {"ms": ("ms", 1.0), "µs": ("ms", 1000.0), "μs": ("ms", 1000.0), "us": ("ms", 1000.0)}
_HINT = ("quote the figure of the run the sentence names (studygen rows prints each run's), or name the run the "
         "figure is of")


def statistic_named(said: str) -> str | None:
    """The one statistic the clause ``said`` names, as ``statistics_ms`` keys it (``median``, ``mean``, ``min``,
    ``max``, ``p99``); None where it names none or two."""
    named = set()
    for match in _STATISTIC.finditer(said):
        word = match.group(1).lower()
        percentile = match.group(2) or match.group(3)
        named.add(f"p{percentile}" if percentile else {"average": "mean", "minimum": "min",
                                                       "maximum": "max"}.get(word, word))
    return named.pop() if len(named) == 1 else None


def figures_of(row, statistic: str | None) -> list[float]:
    """The figures in ms a quote of ``row`` may give: its value and range ends, and a latency's kept statistics
    (``statistics_ms``); where ``statistic`` is named, of a row that states statistics, only that one."""
    kept = row.result.get("statistics_ms") or {}
    own = [float(v) for v in (row.value, row.value_min, row.value_max) if v is not None]
    if statistic is None or not (kept or row.statistic):
        return own + [float(v) for v in kept.values() if isinstance(v, (int, float))]
    chosen = [float(kept[statistic])] if isinstance(kept.get(statistic), (int, float)) else []
    return chosen + (own if row.statistic == statistic else [])


def _named_rows(study, rows: list, said: str) -> tuple[str, list | None]:
    """``(subject, rows)``: the runs ``said`` names (GPU, variant, precision, revision, then job id) as written,
    and their rows narrowed to the kernel groups it names; ("", None) where it names no run."""
    subject, about = rows_named(study, rows, said)
    jobs = sorted({row.job_id for row in rows if names_in(said, {row.job_id.lower()})})
    if jobs:
        subject = ", ".join(([subject] if subject else []) + ["job " + " and ".join(jobs)])
        about = [row for row in about if row.job_id in jobs]
    elif not subject:
        return "", None
    groups = {row.key.group for row in about if row.key.group and row.key.group != "total"
              and names_in(said, {row.key.group.lower()})}
    return subject, ([row for row in about if row.key.group in groups] if groups else about)


def check(study, readme: str | None, quoted: list | None = None) -> list[Finding]:
    """SG222 findings of figures of another run (see the module docstring), in the order the prose quotes them;
    ``quoted``: the study file's quotations (:func:`~.prose_figures.quotations`), read from it when not given."""
    quoted = [q for q in (quotations(study.spec) if quoted is None else quoted) if q[3] in _UNIT_OF]
    if not quoted:
        return []
    texts = dict(claim_strings(study.spec))
    rows = [row for row in study.rows if row.unit == "ms" and row.value is not None]
    gpuless = any(row.gpu is None for row in rows)  # SG224 reads no GPU named in such a study
    # each field's quoted offsets, ascending: a clause's figures are counted by bisection, and a clause of more than
    # one is left before its words are read (a field of 20,000 characters quoting '12.34 ms' 2,000 times in one clause
    # counted every quote again and read the whole clause for each: 37 s of CPU, quadratic; attack30)
    offsets: dict = {}
    for path, start, *_ in quoted:
        offsets.setdefault(path, []).append(start)
    for starts in offsets.values():
        starts.sort()
    printed: dict[str, bool] = {}  # number -> whether the README prints it, looked up once a number
    findings = []
    for path, start, number, unit, _ in quoted:
        text = texts.get(path)
        if text is None or (readme is not None and not printed.setdefault(number, number in readme)):
            continue
        begin, end = conjunct_bounds(text, clause_bounds(text, start), start)
        said = text[begin:end]
        factor = _UNIT_OF[unit][1]
        if bisect_left(offsets[path], end) - bisect_left(offsets[path], begin) > 1 or unread_clause(said):
            continue
        giving = [row for row in rows if any(matches(number, v * factor) for v in figures_of(row, None))]
        subject, named = _named_rows(study, rows, said) if giving else ("", None)
        gpu_named = GPU_MODEL.search(said) is not None
        # no run named, or a run that states no GPU gives it (it may have been on the GPU named); a clause whose
        # names give no row is read only where it names a GPU, which SG224 leaves to a study whose records all
        # state theirs
        if named is None or (gpu_named and any(row.gpu is None for row in giving)) or (
                not named and not (gpu_named and gpuless)):
            continue
        statistic = statistic_named(said)
        if any(matches(number, v * factor) for row in named for v in figures_of(row, statistic)):
            continue
        listed = "; ".join(dict.fromkeys(_described(row, number, factor) for row in giving[:3]))
        pointer = pointer_from_path(path)
        findings.append(Finding(
            CODE, f"{pointer} quotes {number} {unit} of {subject}, which none of its figures gives"
            f"{' as a ' + statistic if statistic else ''}: it is {listed}",
            study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, start), pointer=pointer,
            key=f"{pointer} {number} {unit} of another run", hint=_HINT))
    return findings


def _described(row, number: str, factor: float) -> str:
    """The figure of ``row`` that the quoted ``number`` gives, as a finding names it: its job, its group or timing,
    and its statistic (a kept one where that is what gives it: the mean beside a median)."""
    kept = row.result.get("statistics_ms") or {}
    own = any(matches(number, float(v) * factor) for v in (row.value, row.value_min, row.value_max) if v is not None)
    statistic = row.statistic if own else next((k for k, v in kept.items() if isinstance(v, (int, float))
                                                and matches(number, float(v) * factor)), row.statistic)
    what = " ".join(str(w) for w in (row.key.group or row.metric, statistic) if w)
    return f"job {row.job_id}'s {what} ({row.record.display_path}#{row.pointer})"
