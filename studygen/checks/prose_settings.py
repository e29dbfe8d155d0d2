"""How SG224 reads a setting of the runs named in a clause of a study
file's prose (no check of its own): a batch (:data:`BATCH`), a shape
(:data:`SHAPE`), a timing method (CUDA graphs, data transfers:
:data:`CUDA_GRAPHS`, :data:`DATA_TRANSFERS`) and a TensorRT version
(:data:`TENSORRT_VERSION`), each held to the rows of the
runs its clause names (:func:`setting_findings`; the module docstring of
:mod:`.sg224_unmeasured_gpu` states the rule and its cases). Moved out of
that module (session 27) when these readings took it to 600 lines.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from ..findings import Finding
from ..lint.unstated import SOURCE_RE, states_no_result
from ..patterns import lazy_compile
from ..records.load import yaml_text_line
from .prose_clauses import (ELSEWHERE, GPU_MODEL, clause_bounds, clause_unread, cites, conjunct_bounds, is_measured,
                            model_key, model_words, rows_named, states_result)

# A batch a clause names ("at batch 8", "batch size 16", "a batch of 32", "batch=4"); not "batches 1-8"
BATCH = lazy_compile(r"\bbatch(?:\s+size)?(?:\s+of)?\s*[=:]?\s*(\d{1,6})(?![\w.]?\d|[\w-])", re.IGNORECASE)


# A shape a clause names ("512 x 512", "640x640", "800×1067"): two sizes of 2 to 5 digits, neither inside a longer
# figure or word
SHAPE = lazy_compile(r"(?<![\w.×-])(\d{2,5}\s?[x×]\s?\d{2,5})(?![\w.×-]?\d|[\w-])", re.IGNORECASE)


# What says a clause is about how a run was measured, a claim about the runs even without a figure ("the GTX 1070
# fp16 run was measured at batch 1")
MEASURED_WORDS = lazy_compile(r"\b(?:measured|timed|benchmarked|profiled|ran|run|runs)\b", re.IGNORECASE)


def setting_findings(study, path: tuple, text: str, readme: str | None, printed: dict,
                     row_settings: dict, code: str) -> list[Finding]:
    """A batch (:data:`BATCH`) that the clause naming it states a result at
    (as GPUs are read: :func:`clause_unread`), or says a run was measured at
    (:data:`MEASURED_WORDS`), while none of the rows it is about
    was measured at it: the rows of the GPUs and the variants or precisions
    the clause names (each kind it names narrows them), every row with a
    batch where it names none. A clause naming only what no row measured is
    left to the GPU and precision readings. Case (a new user's trial,
    session 25): a study file said a GTX 1070's fp16 run was measured at
    batch 1, where that run was at batch 4 and batch 1 was another GPU's.
    A shape (:data:`SHAPE`, "512 x 512", "640x640") is read the same way
    (:func:`_setting_findings`). Case (a new user's trial, session 26): "The
    512 x 512 H100 trace spends 64% of its kernel time in GEMMs." passed where
    every run of the study was at 224 x 224."""
    return [finding for setting in (_BATCH_SETTING, _SHAPE_SETTING, _GRAPH_SETTING, _TRANSFER_SETTING, _VERSION_SETTING)
            for finding in _setting_findings(study, path, text, readme, printed, setting, row_settings, code)]


def _setting_findings(study, path: tuple, text: str, readme: str | None, printed: dict, setting,
                      row_settings: dict, code: str) -> list[Finding]:
    """The findings of :func:`setting_findings` for one ``setting`` (:class:`_Setting`: batch or shape);
    ``row_settings``: the study's ``{setting word: {row: its value}}`` of the rows with a figure and that
    setting, in row order, filled on first need (a shape key per row, clause and field was 12 substitutions a
    record at scale)."""
    if not setting.pattern.search(text):
        return []  # most prose names no batch or shape
    if setting.word not in row_settings:
        row_settings[setting.word] = {row: value for row in study.rows
                                      if row.value is not None and (value := setting.of(row)) is not None}
    settings = row_settings[setting.word]
    rows = list(settings)
    found, in_title, unread, reported = [], path == ("title",), {}, set()
    for match in setting.pattern.finditer(text) if rows else ():
        value, bounds = setting.read(match), clause_bounds(text, match.start())
        # the part of the clause naming it (conjunct_bounds): a denial in the other part says nothing of it
        part = conjunct_bounds(text, bounds, match.start())
        said = text[part[0]:part[1]]
        if cites(text, *bounds):
            continue  # a source cited in the clause is cited in each part
        if setting.method:  # a method's own "without" or "no" denies nothing: the part is read without methods' words
            if _NEGATED_ITEM.search(text, max(part[0], match.start() - 100), match.start()):
                continue  # "without CUDA graphs or --noDataTransfers": the "without" holds both, the flag not used
            if part not in unread:
                unread[part] = _method_unread(*_method_probe(text, part), in_title)
        elif part not in unread:  # a clause that says how a run was measured states something of the runs too
            unread[part] = clause_unread(said, in_title) and not (
                MEASURED_WORDS.search(said) and not ELSEWHERE.search(said) and not states_no_result(said, hypothetical=True))
        if unread.get(part):
            continue
        # a method is said of the runs a comparison compares, not of those it is compared with ("... faster than the
        # A10G run"); a part naming no run is said of those its clause names ("fp16 takes 0.9 ms, and it was timed ...")
        subject, about = _rows_said(study, rows, said, setting.method)
        if not subject and part != bounds:
            subject, about = _rows_said(study, rows, text[bounds[0]:bounds[1]], setting.method)
        # "All runs were timed with CUDA graphs": a method said of every run named holds only where each has it
        every = setting.method and _EVERY.search(text, part[0], match.start()) and not states_result(said)
        if not about:
            continue
        if setting.unstated_unknown and _names_unstated(study, setting, said, text[bounds[0]:bounds[1]], part != bounds):
            continue  # a run the clause names states no such setting: what it ran on is not known, so not denied
        if (all if every else any)(settings[row] == value for row in about):
            # one batch or shape for the whole clause: a result between the GPUs it names, each held to it
            alone = {setting.read(other) for other in setting.pattern.finditer(said)} == {value}
            side = _side_without(said, about, settings, value) if alone and setting.sides else None
            if side is None:
                continue
            subject, about = side
        shown = setting.shown(value)
        if (bounds, shown) in reported:
            continue  # "with data transfers, host-to-device copies included": one setting said twice, one finding
        reported.add((bounds, shown))
        mark = match.group(0) if setting.method else value  # a method as written: the README prints it or not
        if readme is not None and printed.setdefault(mark if setting.method else shown,
                                                     setting.printed(mark, readme)) is False:
            continue  # a field the README does not print publishes nothing
        pointer = "/" + "/".join(map(str, path))
        measured = ", ".join(map(setting.listed, sorted({setting.of(row) for row in about})))
        which = f" for {subject}" if subject else ""
        said_of = _said_of(setting, shown, which, in_title,
                           [settings[row] != value for row in about] if every else None, about)
        found.append(Finding(
            code, f"{pointer} {said_of} ({setting.plural} measured{which}: {measured})",
            study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, match.start()), pointer=pointer,
            key=f"{pointer} {shown}", hint=_setting_hint(setting, in_title)))
    return found


def _said_of(setting, shown: str, which: str, in_title: bool, otherwise: list[bool] | None, about: list) -> str:
    """What a finding says the clause said: of every run (``otherwise``: whether each row of ``about`` has another
    value; None when the clause is not about every run), how a run was timed (a method), or a result at a setting
    (``which``: " for the H100, fp16" or "")."""
    if otherwise is not None:
        records = {id(row.record) for row in about}
        other = {id(row.record) for row, differs in zip(about, otherwise) if differs}
        return (f"says every run{which} was timed with {shown}, which {len(other)} of its {len(records)} "
                f"records {'was' if len(other) == 1 else 'were'} not")
    nothing = "none of its records" if which else "no record"
    if setting.method and not in_title:  # how a run was done, no result: said as such
        return f"says a run{which} was timed with {shown}, which {nothing} was"
    return f"{'names' if in_title else 'states a result ' + setting.preposition} {shown}{which}, which {nothing} measured"


def _side_without(said: str, about: list, settings: dict, value) -> tuple[str, list] | None:
    """``(the GPU as a finding names it, its rows)`` of the first GPU a clause naming two or more (``said``, naming
    one batch or shape, ``value``) whose rows among ``about`` none was measured at ``value`` (``settings``: row ->
    its batch or shape), else None: a result at a batch or shape set between GPUs holds only where each was
    measured at it. Case (a new user's study,
    session 27): "The RTX 3090 is 1.22x slower than the H100 at batch 1." passed, the H100's batch-1 run standing for
    both, where the RTX 3090 ran batch 4 only."""
    names = list(dict.fromkeys(match.group(1) for match in GPU_MODEL.finditer(said)))
    if len(names) < 2:
        return None
    for name in names:
        key = model_key(name)
        mine = [row for row in about if row.gpu and is_measured(key, model_words(row.gpu))]
        if mine and not any(settings[row] == value for row in mine):
            return f"the {name}", mine
    return None


def _rows_said(study, rows: list, said: str, method: bool) -> tuple[str, list]:
    """:func:`rows_named` of ``said``; for a ``method``, of ``said`` up to a comparison's reference, narrowed
    further to the batches, shapes and jobs it names where some of those rows have them (:func:`_narrowed`)."""
    if not method:
        return rows_named(study, rows, said)
    reference = _REFERENCE.search(said)
    said = said[:reference.start()] if reference else said
    subject, about = rows_named(study, rows, said)
    return _narrowed(said, subject, about)


def _narrowed(said: str, subject: str, about: list) -> tuple[str, list]:
    """``(subject, about)`` narrowed to the batches (:data:`BATCH`), shapes (:data:`SHAPE`) and jobs ``said`` names,
    each where a row of ``about`` has one of them (one no row has narrows nothing: the batch and shape readings
    report it), the subject saying so ("the H100, batch 1"). Case (a new user's study, session 27): "The H100 run
    at batch 1 was timed with --noDataTransfers." passed because the H100's batch-4 run was timed so."""
    words = [subject] if subject else []
    tests = (
        ({int(m.group(1)) for m in BATCH.finditer(said)}, lambda row: row.batch,
         lambda batch: f"batch {batch}"),
        ({_shape_key(m.group(1)) for m in SHAPE.finditer(said)}, lambda row: _shape_key(row.shape or ""),
         lambda shape: shape.replace("x", " x ")),
        ({job for job in {row.job_id for row in about} if job and re.search(
            rf"(?<![\w-]){re.escape(job)}(?![\w-])", said, re.IGNORECASE)}, lambda row: row.job_id,
         lambda job: f"job {job}"))
    for named, of, word in tests:
        kept = [row for row in about if of(row) in named] if named else []
        if kept:
            about = kept
            words.append(", ".join(word(value) for value in sorted(named, key=str) if any(of(r) == value for r in kept)))
    return ", ".join(words), about


def _setting_hint(setting, in_title: bool) -> str:
    if setting.method:
        return (f"state the {setting.word} the records were timed with, or time the runs that way, cite where the "
                f"result comes from, or leave it out")
    return (f"name the {setting.word} the records were measured at, or measure that {setting.word}" if in_title
            else f"measure that {setting.word}, cite where the result comes from, or leave it out")


def _method_probe(text: str, part: tuple[int, int]) -> tuple[str, str]:
    """``(the part of text at part without any timing method's words, those words)``: "The A10G was timed with CUDA
    graphs and without data transfers" denies neither (an attack, session 27: the transfers' "without" denied the
    graphs, and each method named was read against all the part's words again, seconds a long clause)."""
    kept, words, at = [], [], part[0]
    for match in sorted((*CUDA_GRAPHS.finditer(text, *part), *DATA_TRANSFERS.finditer(text, *part)),
                        key=lambda match: match.start()):
        if match.start() >= at:  # "--noDataTransfers" is one method's words
            kept.append(text[at:match.start()])
            words.append(match.group(0))
            at = match.end()
    return " ".join([*kept, text[at:part[1]]]), " ".join(words)


def _method_unread(probe: str, method: str, in_title: bool) -> bool:
    """Whether a clause naming a timing method (``probe``: the clause without ``method``, the method's own words)
    states nothing of this study's runs: it denies, defers, cites or asks (as :func:`clause_unread` reads a clause),
    supposes or sets a condition ("Had the A10G been timed with CUDA graphs, it would ...", "if it used ...": a run
    timed otherwise, or none), or, outside the title, does not say how a run was done (:data:`_METHOD_VERBS`:
    "timed", "uses"; the method's own verb counts: "All runs used CUDA graphs", "excluded data transfers")."""
    if ELSEWHERE.search(probe) or SOURCE_RE.search(probe) or states_no_result(probe) or _CONDITION.search(probe):
        return True
    # a result alone is not enough: in "runs with CUDA graphs are faster than the A10G's" the method picks runs
    return not (in_title or _METHOD_VERBS.search(probe) or _METHOD_VERBS.search(method))


class _Setting(NamedTuple):
    """How a clause names one setting of a run and how a row holds it: ``pattern`` finds it, ``read`` gives its
    value from a match, ``of`` a row's value (None: the row states none), ``shown`` the value as a finding names it,
    ``listed`` as it lists the measured ones, ``printed`` whether the README prints it; ``preposition`` what a
    finding puts before it ("at batch 4", "with CUDA graphs on"); ``method``: a timing method, whose words may
    hold a "without" or "no" of their own and say how a run was measured; ``sides`` and ``unstated_unknown`` as
    their comments say."""

    word: str
    plural: str
    pattern: re.Pattern
    read: Callable
    of: Callable
    shown: Callable
    listed: Callable
    printed: Callable
    preposition: str = "at"
    method: bool = False
    # whether a result at one value set between the GPUs a clause names is held to each (a batch, a shape)
    sides: bool = True
    # whether a clause naming a run whose record states no such setting is not read (a version a log never printed)
    unstated_unknown: bool = False


def _shape_key(text: str) -> str:
    """``512x512`` of "512 x 512", "512×512", "512x512"."""
    return re.sub(r"\s*[x×]\s*", "x", text.strip().lower())


_BATCH_SETTING = _Setting(
    "batch", "batches", BATCH, lambda m: int(m.group(1)), lambda row: row.batch, lambda b: f"batch {b}", str,
    lambda b, readme: f"batch {b}" in readme.lower())


_SHAPE_SETTING = _Setting(
    "shape", "shapes", SHAPE, lambda m: _shape_key(m.group(1)),
    lambda row: _shape_key(row.shape) if row.shape else None, lambda s: s.replace("x", " x "),
    lambda s: s.replace("x", " x "),
    lambda s, readme: s in _shape_key_all(readme))


# How a clause says a latency was timed, on or off: CUDA graphs ("timed with CUDA graphs", "--useCudaGraph",
# "without CUDA graphs") and data transfers ("--noDataTransfers", "excluding host-to-device copies", "with data
# transfers"); each held to the records' method (TensorRT's and collect run's flags of one name). Case (session 25's
# trial, left then): "all runs timed with CUDA graphs" passed a study whose every record says cuda_graph false.
_GRAPHS = r"(?:CUDA[\s-]?graphs?|graph[\s-]replays?)"  # "graph replay": PyTorch's word for a CUDA graph run


# "with CUDA graphs disabled", "with data transfers omitted": the word after the method turns it off
# "CUDA graphs were used", "data transfers were skipped": the method before its verb (not "excluded" or "included",
# which say what a time holds)
_BE = r"(?:(?:is|are|was|were|been)\s+)?"


_NOT_OFF = r"(?!\s+(?:off|disabled|excluded|skipped|omitted)\b)"


CUDA_GRAPHS = lazy_compile(
    rf"(?P<off>\b(?:without|no)\s+(?:a\s+|the\s+)?{_GRAPHS}\b|\b{_GRAPHS}\s+{_BE}(?:off|disabled)\b)"
    rf"|(?P<on>\b(?:with|using|uses?|used|under|via|through)\s+(?:a\s+|the\s+)?{_GRAPHS}\b{_NOT_OFF}"
    rf"|\b{_GRAPHS}\s+{_BE}(?:on|enabled|used)\b"
    r"|--useCudaGraph\b)", re.IGNORECASE)


# not "the latency includes / excludes H2D copies": a GPU compute time excludes them whatever trtexec's flag, so the
# verb says what a figure holds, not how the run was done
_TRANSFERS = r"(?:data|host|host[\s-]?to[\s-]?device|H2D(?:\s?/\s?D2H)?|PCIe)\s+(?:transfers?|copies)"


DATA_TRANSFERS = lazy_compile(
    rf"(?P<off>--noDataTransfers\b|\b(?:without|no|excluding|skip(?:s|ped|ping)?|omit(?:s|ted|ting)?)\s+"
    rf"(?:the\s+|any\s+)?{_TRANSFERS}\b|\b{_TRANSFERS}\s+(?:excluded|{_BE}(?:off|disabled|skipped|omitted))\b)"
    rf"|(?P<on>\b(?:with|including)\s+(?:the\s+)?{_TRANSFERS}\b{_NOT_OFF}"
    rf"|\b{_TRANSFERS}\s+(?:included|{_BE}(?:on|enabled))\b)",
    re.IGNORECASE, needs=("transfer", "copies"))


# where a comparison's reference begins ("faster than the A10G run", "against fp32")
_REFERENCE = lazy_compile(r"\b(?:than|against|vs\.?|versus|compared)\b", re.IGNORECASE)


# a clause about every run ("All runs were timed with ...", "each latency uses ...", "Both GPUs used ...")
_EVERY = lazy_compile(r"\b(?:all|every|each|both)\b", re.IGNORECASE)


# a verb that says how a run was done, beside a method named ("fp16 was timed with", "fp16 uses CUDA graphs"); not
# MEASURED_WORDS' "run", which as a noun is the subject of a comparison ("runs with CUDA graphs are faster")
_METHOD_VERBS = lazy_compile(r"\b(?:measured|timed|benchmarked|profiled|ran|use[sd]?|captured|replayed|enabled|"
                             r"disabled|skip(?:s|ped)?|omit(?:s|ted)?|(?:is|are|was|were|be|been)\s+run)\b",
                             re.IGNORECASE)


# the words before a method that a denial's "or" or "nor" joins to one before it ("without CUDA graphs or ")
_NEGATED_ITEM = lazy_compile(r"\b(?:without|no|not|never)\b[^,;:.]*\b(?:or|nor)\s+$", re.IGNORECASE)


# a condition: a method named in one says how no run was timed ("if the A10G used CUDA graphs, ...")
_CONDITION = lazy_compile(r"\b(?:if|unless)\b", re.IGNORECASE)


def _method_flag(name: str) -> Callable:
    """A row's timing-method flag ``name`` (``cuda_graph``, ``data_transfers``): True or False where its result
    states it (the schema gives a ``method`` to latency results only, each flag a boolean or null), else None."""
    return lambda row: (row.result.get("method") or {}).get(name)


def _on_off(value: bool) -> str:
    return "on" if value else "off"


_GRAPH_SETTING = _Setting(
    "CUDA graph setting", "CUDA graph settings", CUDA_GRAPHS, lambda m: m.group("on") is not None,
    _method_flag("cuda_graph"), lambda on: f"CUDA graphs {_on_off(on)}", _on_off,
    lambda written, readme: written.lower() in readme.lower(), "with", True, False)


_TRANSFER_SETTING = _Setting(
    "data transfer setting", "data transfer settings", DATA_TRANSFERS, lambda m: m.group("on") is not None,
    _method_flag("data_transfers"), lambda on: f"data transfers {_on_off(on)}", _on_off,
    lambda written, readme: written.lower() in readme.lower(), "with", True, False)


# A TensorRT version a clause names ("TensorRT 8.2.3", "TRT 8.6", "TensorRT 7"): held to the version each row's
# record states, a shorter version naming the longer ones it begins (8.6 of 8.6.1). Case (a new user's trial, session
# 28): "fp16 on TensorRT 8.2.3 runs at 0.15 ms on the GTX 1070." passed where the 8.2.3 fp16 build failed (a
# not_measured result) and the only fp16 figure on that GPU is TensorRT 8.0.3's
TENSORRT_VERSION = lazy_compile(r"\b(?:TensorRT|TRT)[\s-]?v?(\d{1,2}(?:\.\d{1,3}){0,3})(?![\w.]?\d)", re.IGNORECASE)


class _Version(str):
    """A version as a clause or a record gives it, equal to another where one begins the other at a dot ("8.6" and
    "8.6.1"; not "8.6" and "8.61"), so that a clause's shorter version names the records' longer one."""

    __slots__ = ()

    def __eq__(self, other) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        short, long = sorted((str(self), str(other)), key=len)
        return long == short or long.startswith(short + ".")

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = str.__hash__


def _row_version(row) -> _Version | None:
    version = row.tensorrt
    return _Version(version) if version else None


_VERSION_SETTING = _Setting(
    "TensorRT version", "TensorRT versions", TENSORRT_VERSION, lambda m: _Version(m.group(1)), _row_version,
    lambda v: f"TensorRT {v}", str, lambda v, readme: v in readme, "on", sides=False, unstated_unknown=True)


def _names_unstated(study, setting, said: str, clause: str, in_part: bool) -> bool:
    """Whether the part ``said`` (else its whole ``clause``, where the part names no run and is one, ``in_part``)
    names a run with a figure whose row states no ``setting`` (a log that printed no TensorRT version)."""
    rows = [row for row in study.rows if row.value is not None]
    subject, about = rows_named(study, rows, said)
    if not subject and in_part:
        subject, about = rows_named(study, rows, clause)
    return bool(subject) and any(setting.of(row) is None for row in about)


def _shape_key_all(text: str) -> str:
    """``text`` with every shape written as :func:`_shape_key` writes it, lower case."""
    return SHAPE.sub(lambda m: _shape_key(m.group(1)), text.lower())
