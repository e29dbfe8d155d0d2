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
:func:`~.prose_clauses.conjunct_bounds`) states a result,
a time (``0.0800 ms``), a ratio (``1.4x``) or a speed comparative
(``faster``, ``slower``, ``speedup``: :data:`~.prose_clauses.RESULT_WORDS`). Case (a new
user's trial, session 23): "On an RTX 3090 fp16 takes 0.0800 ms." and "On an
H100, bf16 would be faster than fp32." in the decision of a study measured
on one GTX 1070 passed check.

A GPU is named by its model as vendors write it (:data:`~.prose_clauses.GPU_MODEL`, a list:
A100, H100, H200, B200, GB200, L4, L40S, T4, V100, RTX 3090, GTX 1070, TITAN RTX, RTX
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

A precision (:data:`~.prose_clauses.PRECISION`: fp32, tf32, bf16, fp16, fp8, nvfp4, fp4,
int8, int4, any case) is read the same way: measured when a row with a
figure has a variant of that precision, else reported in the title, or where
a clause of other prose states a result at it. Case (a new user's trial,
session 25): "fp8 on the H100 cuts the median to 0.02 ms." in a study of
fp32, fp16 and int8 runs passed; the H100 was measured, fp8 never.

A batch ("at batch 8", "batch size 16") is read per clause
(:func:`~.prose_settings.setting_findings`): reported where none of the runs the clause names
(its GPUs, variants or precisions; every run where it names none) was
measured at it, in a clause stating a result or saying how a run was
measured ("was measured at batch 1"); a shape ("512 x 512") the same way.
A TensorRT version ("TensorRT 8.2.3", "TRT 8.6": :data:`~.prose_settings.TENSORRT_VERSION`) is read the
same way, a shorter version naming the longer ones it begins, never between GPUs a clause sets side by side,
and not where a run the clause names states no version (a log that printed none). Case (a new user's trial,
session 28): "fp16 on TensorRT 8.2.3 runs at 0.15 ms on the GTX 1070." passed where that build failed and the
only fp16 figure on the GTX 1070 was TensorRT 8.0.3's.
An AP or a plan size states a result as a time does (:func:`~.prose_clauses.states_result`); one stated
where no record of the study holds a figure of its kind is reported too (:func:`_unmeasured_kinds`).
Each is read in its part of the clause (:func:`~.prose_clauses.conjunct_bounds`), a part
naming no run being about those its clause names ("fp16 takes 0.9 ms, and
it was measured at batch 4").

A timing method (CUDA graphs, data transfers; on or off: :data:`~.prose_settings.CUDA_GRAPHS`,
:data:`~.prose_settings.DATA_TRANSFERS`) is read as a batch is, where its clause says how a run
was done ("timed", "measured", "ran", "uses": :data:`~.prose_settings._METHOD_VERBS`), the
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

from ..findings import Finding
from ..patterns import lazy_compile
from ..records.keys import measured_without_gpu
from ..records.kinds import Kind
from ..records.load import yaml_text_line
from ..study.placeholders import claim_strings
from .prose_clauses import (GPU_MODEL, PRECISION, RESULT_WORDS, cites, clause_bounds, clause_unread, conjunct_bounds,
                            is_measured, model_key, model_words)
from .prose_figures import quoted_figures
from .prose_settings import setting_findings

CODE = "SG224"




def measured_models(study, timing: bool = False) -> set[str] | None:
    """The models the records were measured on, each word of a record's
    ``gpu`` and each two and three neighbouring words joined (:func:`~.prose_clauses.model_key`); None
    when a record states no GPU and does not say it had none, unless ``timing`` (the clause read states a
    timing: :func:`_states_timing`) and that record holds no timed result (:data:`_TIMED_KINDS`), since a
    timing on a GPU cannot be a record's that times nothing. Case (a new user's trial, session 28): a
    hand-written record of agreement figures computed on a CPU, stating no GPU, silenced every GPU of the
    study's prose ("The int8 engine takes 0.21 ms at batch 1 on an A100." passed beside four GPU records)."""
    gpus: set[str] = set()  # a study's records name a few GPUs: each one's words are made once, not once a record
    for record in study.records:
        gpu = record.provenance.get("gpu")
        if not gpu:
            if measured_without_gpu(record.provenance):
                continue
            if timing and not any(result.get("kind") in _TIMED_KINDS for result in record.data.get("results") or ()):
                continue
            return None
        gpus.add(gpu)
    return set().union(*map(model_words, gpus))


# The result kinds that time something on a machine: a record stating no GPU that holds one may be the GPU's a
# clause stating a timing names
_TIMED_KINDS = frozenset({Kind.LATENCY, Kind.KERNEL_TIME, Kind.KERNEL_TIME_DELTA})


def _states_timing(clause: str) -> bool:
    """Whether ``clause`` states a timing: a time in ms or µs, a ratio or percentage, or a speed comparative
    (:data:`~.prose_clauses.RESULT_WORDS`); an AP or a plan size alone is no timing."""
    return RESULT_WORDS.search(clause) is not None or any(
        unit in ("ms", "µs", "μs", "us") for _number, unit, _offset in quoted_figures(clause))




def measured_precisions(study) -> set[str]:
    """The precisions (lower case) of the variants that a row with a figure gives: what the study measured; and
    ``tf32`` where a kernel-time result of an fp32 variant lists a kernel whose name says it ran TF32 tensor-core
    math (:data:`_TF32_KERNEL`), which PyTorch allows cuDNN by default on Ampere and newer GPUs and collect
    notes. Case (a new user's trial, session 26): "On the A100, 6 of 79 kernel launches ran TF32 tensor-core
    math" was warned as a result at a precision no record measured, where the record's own kernels and note
    say so."""
    found = {row.precision for row in study.rows if row.precision and row.value is not None}
    if "tf32" not in found and any(_TF32_KERNEL.search(str(kernel.get("name", "")))
                                   for row in study.rows if row.precision == "fp32" and row.kind == Kind.KERNEL_TIME
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
    measured_kinds = {str(row.kind) for row in study.rows if row.value is not None}
    # where a record stating no GPU times nothing, a clause stating a timing is still held to the GPUs measured
    timed_measured = measured_models(study, timing=True) if measured is None else measured
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
        found = _unmeasured(text, measured, precisions)
        if measured is None and timed_measured is not None and not in_title:
            found = sorted(found + [item for item in _unmeasured(text, timed_measured, set())
                                    if not item[2] and _states_timing(text[slice(*conjunct_bounds(
                                        text, clause_bounds(text, item[1]), item[1]))])], key=lambda item: item[1])
        for named, start, precision in found:
            bounds = clause_bounds(text, start)
            part = conjunct_bounds(text, bounds, start)
            if part not in unread:
                # other prose: a result stated, and not as expected, planned, cited or asked (a supposition is a claim)
                # a source cited anywhere in the clause is the source of each part ("According to NVIDIA, the H100 is
                # 3x faster, and the B200 5x"): a part is read alone for its own denials, plans and questions
                unread[part] = clause_unread(text[part[0]:part[1]], in_title) or part != bounds and cites(text, *bounds)
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
        findings += setting_findings(study, path, text, readme, printed, row_settings, CODE)
        findings += _unmeasured_kinds(study, path, text, readme, measured_kinds)
    return findings


# a figure's unit as quoted_figures gives it -> the result kind it states and what a finding calls it; a size in
# MB or GB is read only beside "plan" or "engine" (a GPU's memory is written so: "H100 80GB")
_KIND_OF_UNIT = {**dict.fromkeys(("MiB", "MB", "GiB", "GB"), (Kind.PLAN_SIZE, "an engine plan size")),
                 "AP": (Kind.COCO_AP, "a COCO AP")}
_PLAN_WORDS = lazy_compile(r"\b(?:plans?|engines?)\b", re.IGNORECASE)


def _unmeasured_kinds(study, path: tuple, text: str, readme: str | None, measured_kinds: set[str]) -> list[Finding]:
    """A plan size or an AP that a clause of other prose states as a result (not denied, deferred, cited or
    asked: :func:`~.prose_clauses.clause_unread`) where no record of the study holds a figure of that kind: the
    figure is from elsewhere, or from a log line the collector does not read. Case (a new user's trial, session
    28): "The int8 plan is 27 MiB against 12 MiB for fp32." passed in a study with no plan-size result (the two
    figures were TensorRT 8's 'Loaded engine size' lines of two other networks' logs)."""
    found, reported = [], set()
    for number, unit, start in quoted_figures(text):
        kind, words = _KIND_OF_UNIT.get(unit, (None, ""))
        if kind is None or kind in measured_kinds:
            continue
        bounds = clause_bounds(text, start)
        said = text[bounds[0]:bounds[1]]
        if bounds in reported or (kind == "plan_size" and not _PLAN_WORDS.search(said)) or clause_unread(said, False):
            continue
        if readme is not None and number not in readme:
            continue  # a field the README does not print publishes nothing
        reported.add(bounds)
        pointer = "/" + "/".join(map(str, path))
        found.append(Finding(CODE, f"{pointer} states {words} ({number} {unit}), which no record of the study measured "
                             f"(no {kind} result)", study.rel(study.study_path),
                             line=yaml_text_line(study.spec_text, path, start), pointer=pointer,
                             key=f"{pointer} {kind} {number}",
                             hint="collect the figure (collect trtexec --plan for a plan's size), cite where it comes "
                                  "from, or leave it out"))
    return found


















































