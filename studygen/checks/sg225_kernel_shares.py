"""SG225 kernel-time share not given: a share of kernel time in the study file's prose ("GEMMs take 54%
of the step's kernel time") that no profile the sentence is about gives.

A share printed without its two operands ("54%", where "0.1741 of 0.3883 ms,
45%" prints them) is left alone by SG103, which derives a figure only from
figures in its own sentence; the README's kernel-time table prints each
group's time and one total row per profile, so a reader checks it by hand.
Here each percentage followed by "of" and, within its clause, words for a
profile's time (:data:`_KERNEL_WHOLE`: "kernel time", "the profiled step",
"GPU time", "the trace", "the total", a TensorRT profile's "layer time"), with no figure of a unit between them
(an operand, SG103's and SG212's to read), is a share claim.
It is about:

- the kernel group the sentence names (a group name of the study's kernel-time
  rows as whole words, any case; the nearest before the percentage, else the
  nearest after it): a sentence naming none is not read;
- the profiles of the runs the sentence names (their GPU model, variant,
  precision or checkpoint revision, as SG224 reads a clause:
  :func:`~.prose_clauses.rows_named`, or their job id), every kernel-time
  profile where it names none; only those that have the named group.

A share in words ("a quarter of the step's kernel time", "under half of",
"two thirds of": :data:`_FRACTIONS`) is read the same way, held within
:data:`WORD_TOLERANCE` of its fraction (twice that after a hedge), or to
its side after a bound.

Its share in a profile is the group's time over the profile's total
(``profiled_total_ms``), in %. The percentage holds when one of those
profiles' shares rounds or is cut to it at its printed decimals; after a
hedge (:data:`_HEDGE`: "about", "around", "roughly", "nearly", "~") when one
lies within one unit of its last printed digit; after a bound (:data:`_AT_LEAST`,
:data:`_AT_MOST`: "over", "more than", "under", "less than") when one lies on
its side. A percentage no profile gives is an SG225 error at its line, naming
each profile's share. A clause that denies, defers, cites or supposes
(as SG224 reads it: :func:`~.prose_clauses.unread_clause`), and a
percentage the README does not print, are not read.

A multiple of one group's time between two runs, written without their
times ("attention on the MI300X takes 2.5x the H100's", "doubles", "three
times as long"; :data:`_MULTIPLE`), is read the same way: the sentence names
two GPU models, else two variants (then at most one GPU, which narrows both),
else two job ids or two checkpoint revisions (two runs of one engine), and a kernel group, else the runs' kernel
time as a whole (the profiles' totals); it holds when the group's time in a profile of one side over its
time in one of the other, of the same span (:func:`~studygen.records.profile_spread.kernel_span`:
a whole trace's total is no step's), either way round, gives the figure at
its printed decimals (one unit after a hedge), or for a multiple in words
lies within :data:`WORD_TOLERANCE` of it (twice that after a hedge). A
sentence that prints a time is left to SG103, which reads a ratio against
its own figures. A difference of the two runs' times written as the one time
of the sentence ("0.05 ms less", "about 20 µs slower"; :data:`_DIFFERENCE`)
is read the same way, held to the difference of the two profiles' times at
its printed decimals in its unit (one unit after a hedge). So is a change
written as a percentage ("27% less", "fell by 27%", "a cut of 27%":
:data:`_CHANGE`), held to its base: a fall is of the larger time, a rise
of the smaller, "faster" or "slower" of either (:func:`_change_bases`); a bounded one ("over 15% less") is
not read. Case (a new user's trial, session 29): "Profiled layer time fell by 37.6% from the 26210e92 engine to
the 7a07608d engine." passed where 0.6471 ms fell to 0.4704 ms, 27.3 % (37.6 % is the rise from the smaller).

A range of kernel times ("from 0.3072 to 0.3500 ms", "between 0.6 and 2.2
ms": :data:`_RANGE`) in a sentence saying it is a range, of the group it
names (the total where it names only kernel time), is held to every profile
of the runs it names, of the span of the profile an end of it gives: its
ends must give the least and the largest, in either order ("falls from 0.06 to
0.004 ms" spans what its reverse does: :func:`_range_finding`). A range
neither end of which a profile gives is another source's, not read.

A best-of over every group said of one GPU model ("the H100 is the fastest
GPU in every kernel group", "slowest in all groups": :data:`_EVERY_GROUP`)
is held to each named group (``other`` aside) of its profiles against those of
the other GPUs of the same variant and span: every group where another GPU
spends less time (more, for "slowest") is named.

Case (a new user's trial, session 26): "On the MI300X, GEMM and conv kernels
take 54% of the step's kernel time." passed check where the profile gives
0.17413 of 0.388344 ms, 44.8 %; "On the A100, elementwise kernels take 26%
of the kernel time." passed where that trace gives 16.0 %; "The MI300X doubles
the H100's elementwise time." passed where the two steps give 0.047652 against
0.027807 ms, 1.71x; "The MI300X spends 0.05 ms less per step in GEMM and conv
kernels than the H100." passed where the steps differ by 0.0235 ms; "The H100
is the fastest GPU in every kernel group." passed where the MI300X's GEMMs take
0.17413 ms against the H100's 0.197598; "Per-step kernel time ranges from 0.3072
to 0.3500 ms across the GPUs." passed where the MI300X's step totals 0.388344 ms.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache, partial

from ..findings import Finding
from ..numbers import format_number
from ..patterns import lazy_compile
from ..records.kinds import Kind
from ..records.load import yaml_text_line
from ..study.placeholders import claim_strings, prose_strings
from .prose_figures import decimals_of, matches, printed_as, sentence_bounds, sentence_text
from .sg222_misquoted_figures import names_in
from ..records.profile_spread import kernel_span
from .prose_clauses import (GPU_MODEL, clause_bounds, is_measured, model_key, model_words, revisions_named, rows_named,
                            unread_at)

CODE = "SG225"
# a percentage and the "of" after it: group 1 the figure, group 2 the words that may bound it before
_SHARE = lazy_compile(r"(?:\b(about|around|roughly|nearly|almost|approximately|some|over|more\s+than|above|"
                      r"at\s+least|under|less\s+than|below|at\s+most|up\s+to)\s+|~\s*)?"
                      r"(?<![\w.])(?:(\d{1,3}(?:\.\d+)?)\s?%|(half|(?:a|one)\s+(?:quarter|third|fifth|tenth)|"
                      r"(?:two|2)\s+thirds|(?:three|3)\s+quarters))\s+of\s+", re.IGNORECASE)
# a share in words (group 3 of _SHARE) as a percentage: "a quarter of the step's kernel time" is 25 %
_FRACTIONS = {"half": 50.0, "quarter": 25.0, "third": 100 / 3, "fifth": 20.0, "tenth": 10.0, "thirds": 200 / 3,
              "quarters": 75.0}
# what names a profile's whole time after "N% of": the share is of a kernel-time profile's total
# (a TensorRT profile times layers: "the profiled layer time", "the layer total" name its whole as well)
_KERNEL_WHOLE = lazy_compile(r"\b(?:kernel[\s-]time|kernel\s+total|gpu\s+(?:kernel\s+)?time|profiled\s+"
                             r"(?:total|time|step|iteration)|(?:profiled\s+)?layer[\s-](?:time|total)|"
                             r"(?:profiled\s+)?steps?\b|trace\b|total\b)", re.IGNORECASE)
# a figure with a unit between the percentage and that whole: its operand is printed (SG103 and SG212 read it)
# (a figure stands alone: "L40S" holds none)
_FIGURE = lazy_compile(r"(?<![\w.])\d+(?:\.\d+)?\s*(?:ms|µs|μs|us|s)\b", re.IGNORECASE)
_REACH = 60  # characters from "of" to the words naming the whole, within the clause
_HEDGE = ("about", "around", "roughly", "nearly", "almost", "approximately", "some", "~")
_AT_LEAST = ("over", "more than", "above", "at least")
_AT_MOST = ("under", "less than", "below", "at most", "up to")
_HINT = ("quote the share the profile gives (the group's time over its profiled total), name the run it is of, "
         "or print its two figures beside it")


def profile_times(study) -> list[tuple[object, dict[str, float]]]:
    """``(total row, {group: time in ms})`` of each kernel-time profile of
    ``study`` with a positive profiled total, in row order; the groups hold
    ``total`` too."""
    profiles: dict[int, dict] = {}
    for row in study.rows:
        if row.kind == Kind.KERNEL_TIME and row.value is not None and row.group:
            profiles.setdefault(id(row.result), {})[row.group] = row
    return [(groups["total"], {group: float(row.value) for group, row in groups.items()})
            for groups in profiles.values() if "total" in groups and groups["total"].value > 0]


def profile_shares(study) -> list[tuple[object, dict[str, float]]]:
    """``(total row, {group: share in %})`` of each kernel-time profile of
    ``study`` (:func:`profile_times`); each group's share is its time over
    the profile's total x 100."""
    return [(total, {group: 100.0 * time / times["total"] for group, time in times.items() if group != "total"})
            for total, times in profile_times(study)]


def holds(text: str, bound: str, share: float) -> bool:
    """Whether ``share`` (%) gives the percentage printed as ``text`` after
    the words ``bound`` (lower case, '' for none; see the module docstring).
    A share in words (``text`` "a quarter", "two thirds": :data:`_FRACTIONS`)
    holds within :data:`WORD_TOLERANCE` of it (twice that after a hedge), as
    a multiple in words does, or on its side after a bound."""
    if not text[0].isdigit():
        value = _FRACTIONS[text.split()[-1].lower()]
        if bound in _AT_LEAST:
            return share >= value
        if bound in _AT_MOST:
            return share <= value
        return abs(share / value - 1) <= WORD_TOLERANCE * (2 if bound in _HEDGE else 1) + 1e-9
    decimals = decimals_of(text)
    unit, value = 10.0 ** -decimals, float(text)
    if bound in _AT_LEAST:
        return share >= value - unit / 2
    if bound in _AT_MOST:
        return share <= value + unit / 2
    if bound in _HEDGE:
        return abs(share - value) <= unit * (1 + 1e-9)
    return text in printed_as(share, decimals)


def _group_names(group: str, groups: set[str]) -> list[str]:
    """The words that name ``group`` in prose: its name, and each of the alternatives a slash joins in it
    ("GEMM/MatMul": "GEMM", "MatMul"), the default rules' way of naming one kind of work two libraries spell
    differently, unless another group of ``groups`` has that name. A sentence says "GEMMs take 12%", not
    "GEMM/MatMul takes 12%" (a new user's trial: no share, multiple or range of that group was read)."""
    others = {other.lower() for other in groups if other != group}
    parts = [part.strip() for part in group.split("/")] if "/" in group else []
    return [group, *(part for part in parts if part and part.lower() not in others)]


def _named_group(sentence: str, offset: int, groups: set[str]) -> str | None:
    """The group of ``groups`` named in ``sentence`` (:func:`_group_names`, each also in the plural: "GEMMs")
    nearest before ``offset``, else nearest after it; None for none. A longer name found at the same place wins
    ("GEMM and conv" over "GEMM")."""
    # the part of the sentence between contrasts ("but", "while", "whereas") that holds the figure first: in "less
    # time in GEMMs but about three times as long in attention" the multiple is attention's
    cuts = _contrast_cuts(sentence)
    part = next((low, high) for low, high in zip(cuts, cuts[1:]) if low <= offset <= high)
    for low, high in (part, (0, len(sentence))):
        starts, found = _group_places(sentence, frozenset(groups), low, high)
        if found:
            before = bisect_right(starts, offset)  # the names at or before offset come first, the nearest of them
            return found[bisect_left(starts, starts[before - 1]) if before else 0][2]
    return None


@lru_cache(maxsize=256)
def _group_places(sentence: str, groups: frozenset, low: int, high: int) -> tuple[list[int], list[tuple]]:
    """``(starts, places)``: each name of a group of ``groups`` in ``sentence[low:high]`` as ``(start, -length,
    group)`` in the sentence, ascending (the longer name first at one start), and their starts; found once a part
    of a sentence, where each claim of a sentence of thousands looked for every name in it again (attack30)."""
    found = sorted((low + match.start(), -len(name), group) for group in groups for name in _group_names(group, set(groups))
                   for match in re.finditer(rf"(?<![\w-]){re.escape(name)}{_ending(name)}(?![\w-])", sentence[low:high],
                                            re.IGNORECASE))
    return [place[0] for place in found], found


def _ending(name: str) -> str:
    """A regular expression of what may follow a group's ``name`` in a word naming it: a plural ("GEMMs"); where
    the name's last word has four letters or more, and so may be one cut short ("conv", "norm", "pool", "attn"),
    any letters ("convolutions" of "residual-block conv", "normalization" of "norm"); a shorter last word ("mm",
    "qkv") takes only the plural, and ``other`` only the plural too, since its longer words ("otherwise") name
    no group. Case (a new user's trial, session 28):
    "Residual-block convolutions take 60% of the RTX 3080's batch-1 kernel time." was not read against the group
    "residual-block conv", which takes 92.6 % of that profile."""
    last = re.split(r"[\s/-]+", name)[-1]
    if len(last) >= 4 and last.isalpha() and name.lower() != "other":
        return "[a-z]*"
    return "(?:e?s)?"


_CONTRAST = lazy_compile(r"\b(?:but|while|whereas)\b", re.IGNORECASE)
_contrast_cuts = lru_cache(maxsize=64)(lambda sentence: [0, *(m.end() for m in _CONTRAST.finditer(sentence)), len(sentence)])


def check(context) -> list[Finding]:
    """SG225 findings of kernel-time shares and multiples in the study file's prose (see the module docstring)."""
    study = context.study
    profiles = times = None
    readme, findings = context.rendered_readme, []
    for path, text in _read_strings(study.spec):
        for pattern, read in _TIME_READERS:  # claims about the profiles' times, read once the text holds one
            for match in pattern.finditer(text):
                if times is None:
                    times = profile_times(study)
                finding = read(study, path, text, match, times, readme) if times else None
                if finding is not None:
                    findings.append(finding)
        for match in _SHARE.finditer(text):
            at = 2 if match.group(2) is not None else 3  # a percentage, else a share in words
            begin, end = clause_bounds(text, match.start(at))
            whole = _KERNEL_WHOLE.search(text, match.end(), min(end, match.end() + _REACH))
            if whole is None or _FIGURE.search(text, match.end(), whole.start()):
                continue
            if profiles is None:
                profiles = profile_shares(study)
            if not profiles or unread_at(text, begin, end):
                continue
            number = re.sub(r"\s+", " ", match.group(at))
            if readme is not None and (f"{number}%" not in readme and f"{number} %" not in readme if at == 2
                                       else number not in readme):
                continue  # a field the README does not print
            s_begin, s_end = sentence_bounds(text, match.start(at))
            sentence = text[s_begin:s_end]
            group = _named_group(sentence, match.start(at) - s_begin, {g for _, shares in profiles for g in shares})
            if group is None:
                continue
            named, about = _profiles_named(study, profiles, sentence)
            shares = [(total, share[group]) for total, share in about if group in share]
            bound = re.sub(r"\s+", " ", (match.group(1) or ("~" if match.group(0).startswith("~") else "")).lower())
            if not shares or any(holds(number, bound, share) for _, share in shares):
                continue
            pointer = "/" + "/".join(map(str, path))
            listed = "; ".join(f"{format_number(share, 1)}% in job {total.job_id} ({total.variant}"
                               f"{', ' + total.gpu if total.gpu else ''})" for total, share in shares)
            written = f"{match.group(1) + ' ' if match.group(1) else ''}{number}{'%' if at == 2 else ''}"
            findings.append(Finding(
                CODE, f"{pointer} gives {group} {written} of the kernel time, which no profile {'it names ' if named else ''}"
                f"gives: {listed}", study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, match.start(at)),
                pointer=pointer, key=f"{pointer} {group} {number}{'%' if at == 2 else ''}", hint=_HINT))
    _SIDES_READ.clear()  # the memo serves one check: no study or profile is held once it has returned
    return findings


def _read_strings(spec):
    """The study file's claims (:func:`~studygen.study.placeholders.claim_strings`) and its explanations' text:
    an explanation is printed under Known gaps, and a share or multiple it gives of the study's own profiles
    ("GEMMs take 12% of the MI300X step's kernel time", 1.8 % in a trial's profile) is a claim like any other;
    one it cites from elsewhere is a clause :func:`~.prose_clauses.unread_clause` leaves unread."""
    yield from claim_strings(spec)
    yield from ((path, text) for path, text in prose_strings(spec) if path[0] == "explanations")


def _profiles_named(study, profiles: list, sentence: str) -> tuple[bool, list]:
    """``(named, profiles)``: the ``profiles`` of the runs ``sentence`` names, by job id, else by GPU model,
    variant or precision (:func:`~.prose_clauses.rows_named`), ``named`` True; all of them, ``named``
    False, where it names none."""
    by_job = [p for p in profiles if names_in(sentence, {p[0].job_id.lower()})]
    if by_job:
        return True, by_job
    subject, rows = rows_named(study, [total for total, _ in profiles], sentence)
    if not subject:
        return False, profiles
    kept = {id(row) for row in rows}
    return True, [p for p in profiles if id(p[0]) in kept]


# A multiple: "2.5x", "3 times", "twice", "doubles", "half"; group 1 a hedge before it, 2 a figure, 3 a word
_MULTIPLE = lazy_compile(
    r"(?:\b(about|around|roughly|nearly|almost|approximately|some)\s+|~\s*)?(?:(?<![\w.])(\d+(?:\.\d+)?)\s?"
    r"(?:x|×|times)(?![\w-])(?!\s*\d)|\b(twice|doubles?|doubled|doubling|triples?|tripled|half|halves|halved|"
    r"(?:two|three|four|five|ten)\s+times)\b)", re.IGNORECASE)
_WORD_MULTIPLES = {"twice": 2.0, "double": 2.0, "doubles": 2.0, "doubled": 2.0, "doubling": 2.0, "triple": 3.0,
                   "triples": 3.0, "tripled": 3.0, "half": 0.5, "halves": 0.5, "halved": 0.5, "two times": 2.0,
                   "three times": 3.0, "four times": 4.0, "five times": 5.0, "ten times": 10.0}
# A difference of two runs' times: "0.05 ms less", "about 20 µs slower"; group 1 a hedge, 2 the figure, 3 its unit
_DIFFERENCE = lazy_compile(
    r"(?:\b(about|around|roughly|nearly|almost|approximately|some)\s+|~\s*)?(?<![\w.])(\d+(?:\.\d+)?)\s?"
    r"(ms|µs|μs|us)\s+(?:less|more|faster|slower|longer|shorter|lower|higher)\b", re.IGNORECASE)
_PER_MS = {"ms": 1.0, "µs": 1000.0, "μs": 1000.0, "us": 1000.0}  # the factor from the rows' ms to a unit
# A change of two runs' times as a percentage: "27% less", "fell by 27%", "a cut of 27%"; the words of a fall
# (group "down") or a rise ("up") before the figure, a hedge, the figure, the comparative after it
_CHANGE = lazy_compile(
    r"(?:\b(?:(?P<down>fell|falls?|drops?|dropped|shrinks?|shrank|shrunk|cuts?|reduced?|reduces|decreased?|"
    r"decreases|saves?|saved)|(?P<up>rises?|rose|grows?|grew|increased?|increases))\s+(?:by\s+)?|"
    r"\b(?:a|an)\s+(?:(?P<down_noun>cut|drop|fall|reduction|decrease|saving)|(?P<up_noun>rise|increase|growth))"
    r"\s+of\s+)?(?:\b(?P<hedge>about|around|roughly|nearly|almost|approximately|some)\s+|~\s*)?"
    r"(?<![\w.])(?P<figure>\d+(?:\.\d+)?)\s?%(?:\s+(?:(?P<less>less|lower|below|shorter|smaller)|"
    r"(?P<more>more|higher|above|longer|larger|greater)|(?P<either>faster|slower|quicker))\b)?", re.IGNORECASE,
    needs=("%",))
_BOUNDED = lazy_compile(r"\b(?:over|under|more\s+than|less\s+than|at\s+(?:least|most)|up\s+to|above|below)\s+$",
                        re.IGNORECASE)
_SHARE_NEXT = lazy_compile(r"\s+of\b")  # "27% of": a share, which the share reader reads
# characters before a bound's whitespace it is looked for in ("more than", room for spacing inside): searched from
# the text's start, each percentage scanned all before it (quadratic; attack30)
_BOUND_REACH = 40


def _bounded(text: str, figure: int) -> bool:
    """Whether a bounding word (:data:`_BOUNDED`) and whitespace come right before offset ``figure`` of ``text``."""
    space = figure
    while space and text[space - 1].isspace():
        space -= 1
    return space < figure and _BOUNDED.search(text, max(0, space - _BOUND_REACH), figure) is not None


@lru_cache(maxsize=64)
def _figure_starts(text: str, begin: int, end: int) -> tuple[int, ...]:
    """Offsets in ``text`` of each time figure (:data:`_FIGURE`) of ``text[begin:end]``, found once a sentence."""
    return tuple(begin + m.start() for m in _FIGURE.finditer(text[begin:end]))


# how far a multiple in words may lie from the ratio it states ("doubles" of 1.9x to 2.1x); after a hedge, twice that
WORD_TOLERANCE = 0.1
# the profile's whole time, where a multiple names no group ("the MI300X's kernel time is 1.3x the H100's")
_TOTAL_WORDS = lazy_compile(r"\b(?:kernel[\s-]time|layer[\s-]time|total|profiled\s+(?:step|time))\b", re.IGNORECASE)
_names_total = lru_cache(maxsize=64)(lambda sentence: _TOTAL_WORDS.search(sentence) is not None)  # once a sentence

_SIDES_READ: dict = {}  # (study, times, sentence) ids -> (study, times, sides): see _sides_once


def _sides_once(study, times: list, sentence: str) -> tuple[list[str], list[list]] | None:
    """:func:`_sides` once a sentence of one check (study and profiles held, so their ids stay theirs)."""
    key = (id(study), id(times), sentence)
    held = _SIDES_READ.get(key)
    if held is None or held[0] is not study or held[1] is not times:
        if len(_SIDES_READ) >= 64:
            _SIDES_READ.clear()
        held = _SIDES_READ[key] = (study, times, _sides(study, times, sentence))
    return held[2]


def _sides(study, times: list, sentence: str) -> tuple[list[str], list[list]] | None:
    """``(names, [profiles of the first, of the second])``: the two GPU models the sentence names, else its two
    variants (narrowed to the one GPU it names, if any), each with the profiles of ``times`` that are of it; None
    where it names neither two GPUs nor two variants."""
    gpus = list(dict.fromkeys(m.group(1) for m in GPU_MODEL.finditer(sentence)))
    if len({model_key(g) for g in gpus}) == 2:
        return gpus, [[p for p in times if p[0].gpu and is_measured(model_key(g), model_words(p[0].gpu))]
                      for g in gpus]
    variants = [name for name in study.variants
                if names_in(sentence, {n.lower() for n in (name, str(study.variant_label(name))) if n})]
    if len(variants) != 2:
        return _runs_sides(times, sentence)
    if len(gpus) == 1:
        times = [p for p in times if p[0].gpu and is_measured(model_key(gpus[0]), model_words(p[0].gpu))]
    return variants, [[p for p in times if p[0].variant == v] for v in variants]


def _runs_sides(times: list, sentence: str) -> tuple[list[str], list[list]] | None:
    """``(names, [profiles of the first, of the second])`` of a sentence that sets two runs of one GPU and variant
    side by side by their job ids, else by two checkpoint revisions (:func:`~.prose_clauses.revisions_named`: "the
    7a07608d engine ... the 26210e92 one"), the multiple being read either way round; None where it names neither
    two jobs nor two revisions."""
    jobs = sorted({p[0].job_id for p in times if names_in(sentence, {p[0].job_id.lower()})})
    if len(jobs) == 2:
        return jobs, [[p for p in times if p[0].job_id == job] for job in jobs]
    revisions = sorted(revisions_named(sentence, {p[0].revision for p in times}))
    if len(revisions) != 2:
        return None
    return revisions, [[p for p in times if p[0].revision == rev] for rev in revisions]


def _difference_holds(match, gap_ms: float) -> bool:
    """Whether ``gap_ms`` (a difference of two profiles' times, either way round) gives the difference ``match``
    (:data:`_DIFFERENCE`) prints, at its decimals in its unit (one unit of its last digit after a hedge)."""
    hedged = match.group(1) is not None or match.group(0).startswith("~")
    return holds(match.group(2), "about" if hedged else "", abs(gap_ms) * _PER_MS[match.group(3).lower()])


def _change_bases(match) -> tuple[bool, bool] | None:
    """``(of the larger, of the smaller)``: the base(s) a percentage change (:data:`_CHANGE`) may be of. A fall
    ("less", "fell by", "a cut of") is of the larger time, which it falls from; a rise ("more", "grew by") of the
    smaller; "faster" or "slower" of either (a time's change or a speed's). None where it says no change (a bare
    percentage) or bounds its figure ("over 30% less")."""
    down = bool(match.group("down") or match.group("down_noun") or match.group("less"))
    up = bool(match.group("up") or match.group("up_noun") or match.group("more"))
    if match.group("either") or down and up:
        return True, True
    return (down, up) if down or up else None


def _change_holds(match, ratio: float) -> bool:
    """Whether ``ratio`` (either way round) gives the percentage change ``match`` (:data:`_CHANGE`) prints, of
    the base(s) :func:`_change_bases` allows, at its printed decimals (one unit after a hedge)."""
    larger, smaller = _change_bases(match)
    big = max(ratio, 1.0 / ratio)
    changes = ([100.0 * (1.0 - 1.0 / big)] if larger else []) + ([100.0 * (big - 1.0)] if smaller else [])
    return any(holds(match.group("figure"), "about" if match.group("hedge") else "", change) for change in changes)


def _multiple_holds(match, ratio: float) -> bool:
    """Whether ``ratio`` (either way round) gives the multiple ``match`` prints (see the module docstring)."""
    hedged = match.group(1) is not None or match.group(0).startswith("~")
    for value in (ratio, 1.0 / ratio):
        if match.group(2) is not None:
            if holds(match.group(2), "about" if hedged else "", value):
                return True
        elif abs(value / _WORD_MULTIPLES[re.sub(r"\s+", " ", match.group(3).lower())] - 1) <= \
                WORD_TOLERANCE * (2 if hedged else 1) + 1e-9:
            return True
    return False


def _multiple_finding(study, path: tuple, text: str, match, times: list, readme: str | None,
                      difference: bool = False, change: bool = False) -> Finding | None:
    """The SG225 finding of the multiple ``match`` in ``text`` (a prose field at ``path``): the sentence names two
    runs (:func:`_sides`) and a kernel group (or their kernel time as a whole), prints no time of its own (that is
    SG103's to read) and states a result; the multiple holds when the ratio of the group's time between any
    profile of one side and any of the other, of one span, gives it either way round. None where it holds or is
    not read."""
    if change and (_change_bases(match) is None or _bounded(text, match.start("figure"))
                   or _SHARE_NEXT.match(text, match.end())):
        return None  # a bare or bounded percentage, or a share ("27% of the kernel time": the share reader's)
    s_begin, s_end = sentence_bounds(text, match.start())
    begin, end = clause_bounds(text, match.start())
    # a multiple: no time printed; a difference: none but its own
    printed = _figure_starts(text, s_begin, s_end)
    if (len(printed) > 1 or printed and (not difference or printed[0] != match.start(2))) or unread_at(text, begin, end):
        return None
    sentence = sentence_text(text, s_begin, s_end)
    sides = _sides_once(study, times, sentence)
    if sides is None:
        return None
    names, (first, second) = sides
    group = _named_group(sentence, match.start() - s_begin, {g for _, t in times for g in t if g != "total"})
    if group is None:
        group = "total" if _names_total(sentence) else None
    pairs = [(a, b) for a in first for b in second if group in a[1] and group in b[1] and a[1][group] > 0
             and b[1][group] > 0 and kernel_span(a[0].record, a[0].result) == kernel_span(b[0].record, b[0].result)]
    if group is None or not pairs or any(
            _difference_holds(match, a[1][group] - b[1][group]) if difference
            else _change_holds(match, a[1][group] / b[1][group]) if change
            else _multiple_holds(match, a[1][group] / b[1][group]) for a, b in pairs):
        return None
    written = match.group(0).strip()
    if readme is not None and written not in readme:
        return None  # a field the README does not print
    pointer = "/" + "/".join(map(str, path))
    if difference:
        factor = _PER_MS[match.group(3).lower()]
        listed = "; ".join(f"{format_number(abs(a[1][group] - b[1][group]) * factor, decimals_of(match.group(2)) + 1)} "
                           f"{match.group(3)} (job {a[0].job_id} against {b[0].job_id})" for a, b in pairs)
    elif change:
        listed = "; ".join(f"{format_number(100 * (1 - min(a[1][group], b[1][group]) / max(a[1][group], b[1][group])), 1)}"
                           f"% less or {format_number(100 * (max(a[1][group], b[1][group]) / min(a[1][group], b[1][group]) - 1), 1)}"
                           f"% more (job {a[0].job_id} against {b[0].job_id})" for a, b in pairs)
    else:
        listed = "; ".join(f"{format_number(a[1][group] / b[1][group], 2)}x (job {a[0].job_id} against {b[0].job_id})"
                           for a, b in pairs)
    what = "kernel time" if group == "total" else f"{group} time"
    return Finding(CODE, f"{pointer} says '{written}' of the {what} of {names[0]} and {names[1]}, which the "
                   f"profiles give as {listed}", study.rel(study.study_path),
                   line=yaml_text_line(study.spec_text, path, match.start()), pointer=pointer,
                   key=f"{pointer} {group} {written}", hint=_MULTIPLE_HINT)


_MULTIPLE_HINT = ("quote the ratio of the two profiles' times, or print the two times beside it (lint's derived-figure rule then "
                  "checks it)")


# A best-of over every kernel group: "the H100 is the fastest GPU in every kernel group", "slowest in all groups";
# group 1 the superlative
_EVERY_GROUP = lazy_compile(r"\b(fastest|quickest|slowest)\b[^.;:]{0,60}?\b(?:in|across|for)\s+(?:every|each|all)"
                            r"(?:\s+(?:of\s+)?the)?\s+(?:kernel[\s-])?groups?\b", re.IGNORECASE,
    needs=("fastest", "quickest", "slowest"))


def _best_finding(study, path: tuple, text: str, match, times: list, readme: str | None) -> Finding | None:
    """The SG225 finding of a best-of over every kernel group (:data:`_EVERY_GROUP`) said of the one GPU model its
    sentence names: each group where a profile of another GPU, of the same span and variant, spends less time
    (more, for "slowest") than every profile of the named one. None where it holds, names no one GPU, or is not
    read (a denial, a citation, a field the README does not print)."""
    s_begin, s_end = sentence_bounds(text, match.start())
    sentence = text[s_begin:s_end]
    begin, end = clause_bounds(text, match.start())
    gpus = list(dict.fromkeys(model_key(m.group(1)) for m in GPU_MODEL.finditer(sentence)))
    if len(gpus) != 1 or unread_at(text, begin, end):
        return None
    named = [p for p in times if p[0].gpu and is_measured(gpus[0], model_words(p[0].gpu))]
    others = [p for p in times if p not in named]
    slowest = match.group(1).lower() == "slowest"
    beaten = []
    for profile in named:
        span = kernel_span(profile[0].record, profile[0].result)
        for group, time in profile[1].items():
            if group in ("total", "other"):
                continue  # a group of kernels no rule named is no group a reader compares
            for rival in others:
                theirs = rival[1].get(group)
                if theirs is None or rival[0].variant != profile[0].variant or \
                        kernel_span(rival[0].record, rival[0].result) != span:
                    continue
                if (theirs > time) if slowest else (theirs < time):
                    beaten.append((group, time, theirs, rival[0]))
    if not named or not beaten:
        return None
    written = match.group(0)
    if readme is not None and match.group(1) not in readme:
        return None  # a field the README does not print
    pointer = "/" + "/".join(map(str, path))
    listed = "; ".join(f"{group}: {format_number(time)} ms against {format_number(theirs)} ms on {rival.gpu} "
                       f"(job {rival.job_id})" for group, time, theirs, rival in beaten)
    return Finding(CODE, f"{pointer} says '{written}', which the profiles do not give: {listed}",
                   study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, match.start()),
                   pointer=pointer, key=f"{pointer} {match.group(1).lower()} every group",
                   hint="name the groups where it holds, or say where another GPU is faster")


# A range of times: "from 0.3072 to 0.3883 ms", "between 0.31 and 0.39 ms", "0.3072-0.3883 ms"; groups 1 and 3 the
# ends, 2 and 4 their units (the first may be left out)
_RANGE = lazy_compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(ms|µs|μs|us)?\s*(?:to|and|–|-)\s*(\d+(?:\.\d+)?)\s*"
                      r"(ms|µs|μs|us)\b", re.IGNORECASE)
# what says a sentence states a range over runs, not a pair it compares
_RANGE_WORDS = lazy_compile(r"\b(?:ranges?|ranging|spans?|from|between|varies|vary)\b", re.IGNORECASE)


def _range_finding(study, path: tuple, text: str, match, times: list, readme: str | None) -> Finding | None:
    """The SG225 finding of a range of kernel times (:data:`_RANGE`) that leaves out a profile's figure or reaches
    past them all: the group the sentence names (its profiles' total where it names none but their kernel time),
    over the profiles of the runs it names of the span of the profiles an end gives (an end that no profile's
    figure gives at its digits anchors nothing: a range of no end measured is not read). It holds when its low end
    gives the least of those figures and its high end the largest, each rounded or cut to its printed decimals."""
    s_begin, s_end = sentence_bounds(text, match.start())
    sentence = text[s_begin:s_end]
    begin, end = clause_bounds(text, match.start())
    if not _RANGE_WORDS.search(sentence) or unread_at(text, begin, end):
        return None
    group = _named_group(sentence, match.start() - s_begin, {g for _, t in times for g in t if g != "total"})
    if group is None:
        group = "total" if _names_total(sentence) else None
    if group is None:
        return None
    low, high, unit = match.group(1), match.group(3), match.group(4).lower()
    factor = _PER_MS[unit]
    _, about = _profiles_named(study, times, sentence)
    about = [p for p in about if group in p[1]]
    anchors = {kernel_span(p[0].record, p[0].result) for p in about
               if matches(low, p[1][group] * factor) or matches(high, p[1][group] * factor)}
    if len(anchors) != 1:
        return None
    span = anchors.pop()
    values = sorted(p[1][group] for p in about if kernel_span(p[0].record, p[0].result) == span)
    # the ends in either order: "from 0.06234 down to 0.004068 ms" spans the same profiles as its reverse
    if len(values) < 2 or any(matches(a, values[0] * factor) and matches(b, values[-1] * factor)
                              for a, b in ((low, high), (high, low))):
        return None
    if readme is not None and high not in readme:
        return None  # a field the README does not print
    pointer = "/" + "/".join(map(str, path))
    what = "kernel time" if group == "total" else f"{group} time"
    shown = max(decimals_of(low), decimals_of(high))  # the profiles' ends at the digits the range is printed with
    return Finding(CODE, f"{pointer} gives the {what} from {low} to {high} {match.group(4)}, but the "
                   f"{len(values)} profiles it is about range from {format_number(values[0] * factor, shown)} to "
                   f"{format_number(values[-1] * factor, shown)} {match.group(4)}", study.rel(study.study_path),
                   line=yaml_text_line(study.spec_text, path, match.start()), pointer=pointer,
                   key=f"{pointer} {group} {low} to {high}",
                   hint="give the range over every profile it is about, or name the runs it covers")


# each claim about kernel times with no share in it, and its reader: a multiple, a range, a best-of over every
# group, a difference (a multiple's reader with difference=True)
_TIME_READERS = (
    (_MULTIPLE, _multiple_finding),
    (_RANGE, _range_finding),
    (_EVERY_GROUP, _best_finding),
    (_DIFFERENCE, partial(_multiple_finding, difference=True)),
    (_CHANGE, partial(_multiple_finding, change=True)),
)
