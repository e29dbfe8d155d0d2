"""SG224 GPU, precision, batch, shape or timing method named but not measured (warning): the study's title names a
GPU model that none of its records was measured on, as a README headline
does when a study file written for one machine is reused on another ("... on
one H200" over tables whose every row says H100 80GB HBM3); or a sentence of
its other prose states a result on such a GPU.

The title names the machine the study reports on: any unmeasured GPU in it
is reported (a denial before a colon, "Not shipped: FP8 on the H200",
denies nothing of it). A description or decision names other GPUs for context (the
fleet a decision is for, the card a study replaces, what FP8 needs), which an
attack showed in a dozen ordinary sentences: there a GPU is reported only
where its clause (the sentence, up to a colon or semicolon; each part joined
by a comma and "and", "but", "while", "whereas" or "yet" read alone:
:func:`conjunct_bounds`) states a result,
a time (``0.0800 ms``), a ratio (``1.4x``) or a speed comparative
(``faster``, ``slower``, ``speedup``: :data:`RESULT_WORDS`). Case (a new
user's trial, session 23): "On an RTX 3090 fp16 takes 0.0800 ms." and "On an
H100, bf16 would be faster than fp32." in the decision of a study measured
on one GTX 1070 passed check.

A GPU is named by its model as vendors write it (:data:`GPU_MODEL`, a list:
A100, H100, H200, B200, GB200, L4, L40S, T4, V100, RTX 3090, GTX 1070, RTX
A6000, MI300X, Jetson AGX Orin, ...; "H264" or "ViT-B16" name none); it is
measured when a record's ``gpu`` holds that model as a word, or as
neighbouring words joined ("RTX 3090" in "NVIDIA GeForce RTX 3090"), or a
word the named model begins (the title's "MI300" of an "MI300X"; a Jetson
by its module's name, "Orin" being what trtexec logs on a Jetson AGX
Orin). A record measured without a GPU (``collect run --cpu``) names none,
so a GPU in the title of a CPU study is reported. Not read:

- a study with a record that states no GPU at all (a publication's figures
  without their machine): the GPU named may be that record's;
- a study a file of which failed to load (SG202, ``Study.has_unread_files``):
  the run a clause names may be in it (a new user's trial: a broken fp32
  record drew "a precision no record measured" for fp32 beside its SG202);
- a title, or a clause of other prose, that denies or defers ("not", "no",
  "never", "without", "n't", "later", "next", "future", "plan"), says the
  run failed ("failed", "crashed", "errored") or cites
  another source ("published", "reported", or what
  :data:`~studygen.lint.unstated.SOURCE_RE` reads: "according to", "the
  vendor claims", a datasheet, spec sheet or paper, a citation with its
  year, a URL or a link);
- a clause of other prose that expects, plans or asks
  (:func:`~studygen.lint.unstated.states_no_result`: "we will rerun this on
  an A100", "whether the A100 is faster is unknown"); a supposition ("On an
  H100, bf16 would be faster") is still read: it asserts a result on a GPU
  no record was measured on. Case (an attack, session 23): seven sentences
  of these kinds were warned in a study measured on four other GPUs;
- prose that states no result of the study (a field of
  :data:`~studygen.study.placeholders.NOT_CLAIMS`: what was not measured, a
  waiver's reason, an explanation);
- a GPU the README does not print (a template that leaves its field out).

Case (a GPU trial, session 22): a study file titled "timm resnet18 on one
H200" was run on an H100; render printed the title over H100 tables and
check said nothing.

A precision (:data:`PRECISION`: fp32, tf32, bf16, fp16, fp8, nvfp4, fp4,
int8, int4, any case) is read the same way: measured when a row with a
figure has a variant of that precision, else reported in the title, or where
a clause of other prose states a result at it. Case (a new user's trial,
session 25): "fp8 on the H100 cuts the median to 0.02 ms." in a study of
fp32, fp16 and int8 runs passed; the H100 was measured, fp8 never.

A batch ("at batch 8", "batch size 16") is read per clause
(:func:`_batch_findings`): reported where none of the runs the clause names
(its GPUs, variants or precisions; every run where it names none) was
measured at it, in a clause stating a result or saying how a run was
measured ("was measured at batch 1"); a shape ("512 x 512") the same way.
An AP or a plan size states a result as a time does (:func:`states_result`).
Each is read in its part of the clause (:func:`conjunct_bounds`), a part
naming no run being about those its clause names ("fp16 takes 0.9 ms, and
it was measured at batch 4").

A timing method (CUDA graphs, data transfers; on or off: :data:`CUDA_GRAPHS`,
:data:`DATA_TRANSFERS`) is read as a batch is, where its clause says how a run
was done ("timed", "measured", "ran", "uses": :data:`_METHOD_VERBS`), the
method's own "without" or "no" denying nothing; held to the ``method`` of the
latency results of the runs the clause names (results stating no method say
nothing). A clause about every run ("All runs were timed with CUDA graphs")
holds only where each of them was. Case (a new user's trial, session 25):
that sentence passed a study five of whose seven records say
``cuda_graph: false``. The method's own verb says how the runs were done
("All runs used CUDA graphs", "skipped host copies"); a supposition or a
condition ("Had the A10G been timed with CUDA graphs, it would ...") says
how none was (an attack, session 27: the first passed, the second warned).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from typing import Callable, NamedTuple

from ..findings import Finding
from ..lint.unstated import SOURCE_RE, states_no_result
from ..patterns import lazy_compile
from ..records.keys import measured_without_gpu
from ..records.load import yaml_text_line
from ..study.placeholders import claim_strings
from .prose_figures import quoted_figures, sentence_bounds
from .sg222_misquoted_figures import names_in

CODE = "SG224"
GPU_MODEL = lazy_compile(
    r"(?<![\w.-])("
    r"G[BH]\d{3}|A(?:2|10G?|16|30|40|100|800)|H(?:20|100|200|800)|B(?:100|200|300)"  # NVIDIA data-centre parts
    r"|L(?:4|20|40S?)|T4|V100|P(?:4|40|100)|K80"
    r"|(?:RTX|GTX|TITAN)\s?(?:A\d{4}|\d{3,4})(?:\s?Ti|\s?SUPER)?"  # RTX 3090, GTX 1070, RTX A6000, RTX 4070 Ti
    r"|MI\d{3}[AX]?"  # AMD Instinct
    r"|Jetson\s+(?:AGX\s+|Orin\s+)?(?:Orin|Xavier|Nano|TX2)(?:\s+NX)?"
    r")s?(?![\w-])")
# A precision as a study's variants declare it (studygen new's list) and as prose writes it ("FP8", "int8")
PRECISION = lazy_compile(r"(?<![\w.-])(fp32|tf32|bf16|fp16|fp8|nvfp4|mxfp4|fp4|int8|int4)(?![\w-])", re.IGNORECASE)
# A batch a clause names ("at batch 8", "batch size 16", "a batch of 32", "batch=4"); not "batches 1-8"
BATCH = lazy_compile(r"\bbatch(?:\s+size)?(?:\s+of)?\s*[=:]?\s*(\d{1,6})(?![\w.]?\d|[\w-])", re.IGNORECASE)
# A shape a clause names ("512 x 512", "640x640", "800×1067"): two sizes of 2 to 5 digits, neither inside a longer
# figure or word
SHAPE = lazy_compile(r"(?<![\w.×-])(\d{2,5}\s?[x×]\s?\d{2,5})(?![\w.×-]?\d|[\w-])", re.IGNORECASE)
# What says a clause is about how a run was measured, a claim about the runs even without a figure ("the GTX 1070
# fp16 run was measured at batch 1")
MEASURED_WORDS = lazy_compile(r"\b(?:measured|timed|benchmarked|profiled|ran|run|runs)\b", re.IGNORECASE)
# words of a Jetson module's name that its GPU, as trtexec logs it, leaves out ("Orin" on a Jetson AGX Orin)
_MODULE_WORDS = re.compile(r"^(?:JETSON|AGX)")
# A sentence that names a machine without stating a result of this study on it: it denies, defers, says the run
# failed ("fp16 build failed": collect records such a run as not measured) or cites one published or reported (the
# other sources a clause cites: lint.unstated.SOURCE_RE)
ELSEWHERE = lazy_compile(r"\b(?:not|no|never|without|later|next|future|plans?|planned|published|reported|failed|"
                         r"crashed|errored)\b|n't\b", re.IGNORECASE)
# What states a result of a clause beside its GPU: a ratio ("1.4x", "2×"; not a shape's "1333 x 800"), a percentage
# ("64% of its kernel time") or a speed comparative; a time is a figure with a unit (prose_figures.quoted_figures)
RESULT_WORDS = lazy_compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:[x×](?![\w-])(?!\s?\d)|%)|\b(?:faster|slower|quicker|speed-?ups?|slow-?downs?|outperform(?:s|ed)?)\b",
    re.IGNORECASE)
# Where a comma joins two statements of one clause (conjunct_bounds)
_CONJUNCTION = lazy_compile(r",\s+(?:and|but|while|whereas|yet)\s+", re.IGNORECASE)
# The item of a list that a conjunction ends ("the H100, the H200, and the B200"): a comma, then up to four words
# not beginning "and" or "or" (which end a list already: "bf16, fp32, or fp8, and ...") before the conjunction
_LIST_ITEM = lazy_compile(r",\s+(?!(?:and|or)\b)[^\s,;:]+(?:\s+[^\s,;:]+){0,3}\s*$", re.IGNORECASE)
# Where a clause ends inside a sentence: a colon before a space ("Not shipped: on the A100 ..."), not one in "10:30"
_CLAUSE_END = re.compile(r":(?=\s)")


def model_key(text: str) -> str:
    """A model as compared: upper case, spaces and hyphens dropped (``RTX 3090`` -> ``RTX3090``)."""
    return re.sub(r"[\s-]+", "", text).upper()


def measured_models(study) -> set[str] | None:
    """The models the records were measured on, each word of a record's
    ``gpu`` and each two neighbouring words joined (:func:`model_key`); None
    when a record states no GPU and does not say it had none."""
    found: set[str] = set()
    for record in study.records:
        gpu = record.provenance.get("gpu")
        if not gpu:
            if measured_without_gpu(record.provenance):
                continue
            return None
        found |= model_words(gpu)
    return found


def is_measured(key: str, measured: set[str]) -> bool:
    """Whether the model ``key`` (:func:`model_key`) names a GPU of ``measured``
    (:func:`measured_models`): the same word, a word it begins with letters
    after ("MI300" of "MI300X"; not "A10" of "A100"), or, for a Jetson, its
    module's last word ("ORIN")."""
    bare = key
    while (stripped := _MODULE_WORDS.sub("", bare)) != bare:
        bare = stripped
    return any(word == key or (word.startswith(key) and word[len(key):].isalpha()) or (bare != key and word == bare)
               for word in measured)


def measured_precisions(study) -> set[str]:
    """The precisions (lower case) of the variants that a row with a figure gives: what the study measured; and
    ``tf32`` where a kernel-time result of an fp32 variant lists a kernel whose name says it ran TF32 tensor-core
    math (:data:`_TF32_KERNEL`), which PyTorch allows cuDNN by default on Ampere and newer GPUs and collect
    notes. Case (a new user's trial, session 26): "On the A100, 6 of 79 kernel launches ran TF32 tensor-core
    math" was warned as a result at a precision no record measured, where the record's own kernels and note
    say so."""
    found = {row.precision for row in study.rows if row.precision and row.value is not None}
    if "tf32" not in found and any(_TF32_KERNEL.search(str(kernel.get("name", "")))
                                   for row in study.rows if row.precision == "fp32" and row.kind == "kernel_time"
                                   for group in row.result.get("groups") or () for kernel in group.get("kernels") or ()):
        found.add("tf32")
    return found


# a kernel name that says it ran TF32 math ("..._tf32f32_tf32f32_f32_..."); a 3xTF32 kernel keeps FP32 accuracy
_TF32_KERNEL = lazy_compile(r"(?<!3x)tf32", re.IGNORECASE)


def _unmeasured(text: str, measured: set[str] | None, precisions: set[str]):
    """(name as written, offset, whether a precision) of each GPU model (when ``measured`` is not None) and each
    precision of ``text`` that no record measured, in order."""
    found = [] if measured is None else [(m.group(1), m.start(), False) for m in GPU_MODEL.finditer(text)
                                         if not is_measured(model_key(m.group(1)), measured)]
    found += [(m.group(1), m.start(), True) for m in PRECISION.finditer(text) if m.group(1).lower() not in precisions]
    return sorted(found, key=lambda item: item[1])


def check(context) -> list[Finding]:
    study = context.study
    if not study.records or study.has_unread_files:
        return []  # a run SG202 names (a record that failed to load) may be the one a clause names
    measured, precisions = measured_models(study), measured_precisions(study)
    readme, findings = context.rendered_readme, []
    shown = done = None
    printed: dict[str, bool] = {}  # GPU or precision as written -> whether the README prints it
    row_settings: dict[str, dict] = {}  # batch or shape -> {row: its value}, for every field (_setting_findings)
    for path, text in claim_strings(study.spec):
        in_title = path == ("title",)
        # clause (begin, end) -> whether it names a GPU without a result of its own: read once a clause, since a
        # clause naming thousands of GPUs was read again for each, minutes a 200 KB field
        unread: dict[tuple[int, int], bool] = {}
        # (clause, name) already reported: a clause naming one GPU or precision twice ("the fp16 log stops early, and
        # fp16 is 2.5x slower") states one result of it, one finding (a new user's trial, s26: two, one per line)
        reported: set[tuple[tuple[int, int], str]] = set()
        for named, start, precision in _unmeasured(text, measured, precisions):
            bounds = clause_bounds(text, start)
            part = conjunct_bounds(text, bounds, start)
            if part not in unread:
                # other prose: a result stated, and not as expected, planned, cited or asked (a supposition is a claim)
                # a source cited anywhere in the clause is the source of each part ("According to NVIDIA, the H100 is
                # 3x faster, and the B200 5x"): a part is read alone for its own denials, plans and questions
                unread[part] = _unread(text[part[0]:part[1]], in_title) or part != bounds and _cites(text, *bounds)
            if unread[part] or (bounds, named.lower()) in reported:
                continue
            reported.add((bounds, named.lower()))
            if readme is not None and printed.setdefault(named, named in readme) is False:
                continue  # a field the README does not print publishes nothing
            pointer = "/" + "/".join(map(str, path))
            if precision:
                done = done or ", ".join(sorted(precisions)) or "none"
                message = (f"{pointer} {'names' if in_title else 'states a result at'} {named}, a precision no "
                           f"record measured (precisions measured: {done})")
                hint = ("name the precisions the records measured, or say that this one was not measured" if in_title
                        else "measure that precision, cite where the result comes from, or leave it out")
            else:
                shown = shown or ", ".join(sorted({str(r.provenance.get("gpu") or "no GPU") for r in study.records}))
                message = (f"{pointer} names the {named}, which no record was measured on (records: {shown})"
                           if in_title else
                           f"{pointer} states a result on the {named}, which no record was measured on (records: {shown})")
                hint = ("name the GPU the records were measured on, or say that the study did not run on this one"
                        if in_title else "measure it on that GPU, cite where the result comes from, or leave it out")
            findings.append(Finding(CODE, message, study.rel(study.study_path),
                                    line=yaml_text_line(study.spec_text, path, start), pointer=pointer,
                                    key=f"{pointer} {named}", hint=hint))
        findings += _batch_findings(study, path, text, readme, printed, row_settings)
    return findings


def _batch_findings(study, path: tuple, text: str, readme: str | None, printed: dict,
                    row_settings: dict) -> list[Finding]:
    """A batch (:data:`BATCH`) that the clause naming it states a result at
    (as GPUs are read: :func:`_unread`), or says a run was measured at
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
    return [finding for setting in (_BATCH_SETTING, _SHAPE_SETTING, _GRAPH_SETTING, _TRANSFER_SETTING)
            for finding in _setting_findings(study, path, text, readme, printed, setting, row_settings)]


def _setting_findings(study, path: tuple, text: str, readme: str | None, printed: dict, setting,
                      row_settings: dict) -> list[Finding]:
    """The findings of :func:`_batch_findings` for one ``setting`` (:class:`_Setting`: batch or shape);
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
        if _cites(text, *bounds):
            continue  # a source cited in the clause is cited in each part
        if setting.method:  # a method's own "without" or "no" denies nothing: the part is read without methods' words
            if _NEGATED_ITEM.search(text, max(part[0], match.start() - 100), match.start()):
                continue  # "without CUDA graphs or --noDataTransfers": the "without" holds both, the flag not used
            if part not in unread:
                unread[part] = _method_unread(*_method_probe(text, part), in_title)
        elif part not in unread:  # a clause that says how a run was measured states something of the runs too
            unread[part] = _unread(said, in_title) and not (
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
        if not about or (all if every else any)(settings[row] == value for row in about):
            continue
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
        if every:
            records = {id(row.record): row.record for row in about}
            other = {id(row.record) for row in about if settings[row] != value}
            said_of = (f"says every run{which} was timed with {shown}, which {len(other)} of its {len(records)} "
                       f"records were not")
        else:
            said_of = (f"{'names' if in_title else 'states a result ' + setting.preposition} {shown}{which}, which "
                       f"{'none of its records' if subject else 'no record'} measured")
        found.append(Finding(
            CODE, f"{pointer} {said_of} ({setting.plural} measured{which}: {measured})",
            study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, match.start()), pointer=pointer,
            key=f"{pointer} {shown}", hint=_setting_hint(setting, in_title)))
    return found


def _rows_said(study, rows: list, said: str, method: bool) -> tuple[str, list]:
    """:func:`rows_named` of ``said``; for a ``method``, of ``said`` up to a comparison's reference."""
    reference = _REFERENCE.search(said) if method else None
    return rows_named(study, rows, said[:reference.start()] if reference else said)


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
    states nothing of this study's runs: it denies, defers, cites or asks (as :func:`_unread` reads a clause),
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
    hold a "without" or "no" of their own and say how a run was measured."""

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
    re.IGNORECASE)
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
    lambda written, readme: written.lower() in readme.lower(), "with", True)
_TRANSFER_SETTING = _Setting(
    "data transfer setting", "data transfer settings", DATA_TRANSFERS, lambda m: m.group("on") is not None,
    _method_flag("data_transfers"), lambda on: f"data transfers {_on_off(on)}", _on_off,
    lambda written, readme: written.lower() in readme.lower(), "with", True)


def _shape_key_all(text: str) -> str:
    """``text`` with every shape written as :func:`_shape_key` writes it, lower case."""
    return SHAPE.sub(lambda m: _shape_key(m.group(1)), text.lower())


def unread_clause(said: str) -> bool:
    """Whether the clause ``said`` denies, defers, cites or asks, so that it
    states no result of this study whatever figure it prints (:func:`_unread`
    without its test for a timing result): SG225 reads kernel-time shares by it."""
    return bool(ELSEWHERE.search(said) or SOURCE_RE.search(said)) or states_no_result(said, hypothetical=True)


def _unread(said: str, in_title: bool) -> bool:
    """Whether the clause ``said`` states no result of this study: it denies, defers or cites one, or (outside the
    title) states no timing result or one only as a question or condition."""
    return bool(ELSEWHERE.search(said) or SOURCE_RE.search(said)) or not in_title and (
        not states_result(said) or states_no_result(said, hypothetical=True))


def rows_named(study, rows: list, said: str) -> tuple[str, list]:
    """``(subject, rows)``: the GPUs, then the variants or precisions, the clause ``said`` names, as written and
    joined ("the GTX 1070, fp16"), and the ``rows`` of them (each kind named narrows them); ("", rows) where it
    names neither. A name no row has gives no rows."""
    words, about = [], rows
    gpus = [m.group(1) for m in GPU_MODEL.finditer(said)]
    if gpus:
        words.append("the " + " and the ".join(gpus))
        # each GPU and variant tested once, not once a row (a study of 10,000 records has a few of each)
        named_gpus = {gpu for gpu in {row.gpu for row in rows}
                      if gpu and any(is_measured(model_key(g), model_words(gpu)) for g in gpus)}
        about = [row for row in about if row.gpu in named_gpus]
    variants = {variant for variant in {row.variant for row in rows}
                if names_in(said, {name.lower() for name in (variant, str(study.variant_label(variant))) if name})}
    precisions = {m.group(1).lower() for m in PRECISION.finditer(said)}
    if variants or precisions:
        words.append(", ".join(sorted(variants | precisions)))
        about = [row for row in about if row.variant in variants or (row.precision or "") in precisions]
    return ", ".join(words), about


def model_words(gpu: str) -> set[str]:
    """One GPU's words as :func:`measured_models` keys them (each word and each two neighbours joined)."""
    words = [model_key(word) for word in re.split(r"[\s-]+", gpu) if word]
    return set(words) | {a + b for a, b in zip(words, words[1:])}


def clause_bounds(text: str, start: int) -> tuple[int, int]:
    """``(begin, end)`` offsets in ``text`` of the clause around offset
    ``start``: its sentence cut at a colon before and after it ("Not
    shipped:" denies nothing of what follows),
    from the sentence's bounds and the text's colons, each listed once a
    text (a colon at the sentence's last character ends no clause: a
    sentence end follows it, not a space)."""
    sentence_begin, sentence_end = sentence_bounds(text, start)
    colons = _colons(text)  # offsets of each clause-ending colon, ascending
    # a colon opens the clause when the space after it lies before start; the first at or after start ends it
    before = bisect_left(colons, start - 1)
    begin = colons[before - 1] + 1 if before and colons[before - 1] >= sentence_begin else sentence_begin
    after = bisect_left(colons, start, before)
    end = colons[after] if after < len(colons) and colons[after] < sentence_end - 1 else sentence_end
    return begin, end


def conjunct_bounds(text: str, bounds: tuple[int, int], start: int) -> tuple[int, int]:
    """``(begin, end)`` of the part of the clause at ``bounds`` in ``text`` that holds offset ``start``, the clause
    cut where a comma joins another statement (", and", ", but", ", while", ", whereas", ", yet"): a denial or a plan
    in one part says nothing of the other. Case (a new user's trial, session 26, left then): "The fp8 build was not
    tried, and on the H100 fp16 takes 0.08 ms" passed, the whole sentence read as a denial. Not cut: a conjunction
    inside a quotation, or after a list's item ("the V100, the P100, and the K80 are 3x slower": one subject; an
    attack, session 27, found the first two unreported)."""
    cuts = _cuts(text, *bounds)
    at = bisect_left(cuts, (start,))  # the first cut at or after start
    before = at
    while before and cuts[before - 1][1] > start:
        before -= 1  # a cut whose words hold start (a name is never one of them): neither bound
    return (cuts[before - 1][1] if before else bounds[0]), (cuts[at][0] if at < len(cuts) else bounds[1])


@lru_cache(maxsize=64)
def _cites(text: str, begin: int, end: int) -> bool:
    """Whether the clause ``text[begin:end]`` cites a source (:data:`~studygen.lint.unstated.SOURCE_RE`), read once
    a clause, not once a name or setting of it."""
    return SOURCE_RE.search(text, begin, end) is not None


@lru_cache(maxsize=64)
def _cuts(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each conjunction that cuts the clause ``text[begin:end]`` (:func:`conjunct_bounds`),
    ascending: found once a clause, where each name of a clause holding thousands of parts read it again."""
    cuts: list[tuple[int, int]] = []
    straight = opened = closed = 0  # quotation marks before the conjunction, counted as the clause is read
    seen, part = begin, begin
    for match in _CONJUNCTION.finditer(text, begin, end):
        between = text[seen:match.start()]
        straight, opened, closed = (straight + between.count('"'), opened + between.count("\u201c"),
                                    closed + between.count("\u201d"))
        seen = match.start()
        if straight % 2 or opened > closed:
            continue  # inside a quotation: a quoted passage is one statement
        comma = text.rfind(",", part, match.start())
        if comma >= 0 and _LIST_ITEM.match(text, comma, match.start()):
            continue  # after a list's item: "the H100, the H200, and the B200 are ..." is one subject
        cuts.append((match.start(), match.end()))
        part = match.end()
    return cuts


@lru_cache(maxsize=8)
def _colons(text: str) -> list[int]:
    return [match.start() for match in _CLAUSE_END.finditer(text)]


def states_result(clause: str) -> bool:
    """Whether ``clause`` states a result: a time (a figure in ms or µs), an
    AP (``AP 0.5806``, ``0.58 AP``, AP points) or a plan size in MiB, a ratio,
    a percentage or a speed comparative (:data:`RESULT_WORDS`). Case (a new user's trial,
    session 26): "The fp16 run reaches AP 0.5806." passed in a study of fp32
    and bf16 runs, an AP being no timing. A size in GB or MB is not read: a
    GPU's memory is written so ("H100 80GB")."""
    return RESULT_WORDS.search(clause) is not None or any(
        unit in _RESULT_UNITS for _number, unit, _offset in quoted_figures(clause))


# the units of quoted_figures whose figure states a result of a run beside the GPU, precision or batch it names
_RESULT_UNITS = ("ms", "µs", "μs", "us", "AP", "MiB", "point", "points")
