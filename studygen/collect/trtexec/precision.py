"""What precisions a trtexec run let the builder use, and whether a
variant's declared precision fits them.

Sources (TensorRT's ``samples/common/sampleOptions.cpp``, printPrecision,
and the logs in ../shared/fixtures): the Build Options' ``Precision:``
line, ``FP32`` then ``+FP16``, ``+BF16``, ``+INT8``, ``+FP8``, ``+INT4``
for each precision flag (an ``FP4`` token or ``--fp4`` flag, where a
release has one, is read as the study's nvfp4), perhaps followed by a
constraint mode in parentheses (``(obey precision constraints)``, ``(strict
types)``), or ``Strongly Typed`` for ``--stronglyTyped``, where each layer
takes its type from the network and no flag says which. A log without that
line (captured part way) is read from the command's flags instead
(``--fp16``, ``--bf16``, ``--int8``, ``--fp8``, ``--int4``, ``--fp4``,
``--best``, which TensorRT 8 printed as FP32+FP16+INT8, ``--stronglyTyped``,
``--noTF32``).

Only a run that built its engine says anything: one that loaded a plan
(``--loadEngine``, or ``Format: *`` in the Model Options)
prints its default ``Precision: FP32`` whatever the plan holds (the
TensorRT 8.6 ResNet-50 INT8 fixture does).

The rule a declared precision P must meet: the build allowed P, and
besides FP32 only precisions wider than P (a fallback for the layers P
does not cover: FP16 beside INT8 or FP8 is common); a precision as narrow
as P or narrower (INT8 beside FP16, BF16 beside FP16) would let the engine
run layers below what the variant claims. TF32 is FP32 with TF32 kernels,
which ``--noTF32`` turns off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import InputError, UsageError
from .figures import shown
from .runs import TrtexecLog, TrtexecRun

# A precision's width in bits: what "wider" and "narrower" compare.
WIDTH = {"fp32": 32, "tf32": 32, "fp16": 16, "bf16": 16, "int8": 8, "fp8": 8, "int4": 4, "fp4": 4}
# The study's precision names that the builder spells otherwise.
BUILDER_NAME = {"tf32": "fp32", "nvfp4": "fp4"}
FLAG_PRECISIONS = {"--fp16": {"fp16"}, "--bf16": {"bf16"}, "--int8": {"int8"}, "--fp8": {"fp8"},
                   "--int4": {"int4"}, "--fp4": {"fp4"}, "--best": {"fp16", "int8"}}
CONSTRAINT = re.compile(r"\s*\(.*\)\s*$")
STRONGLY_TYPED = "Strongly Typed"


@dataclass(frozen=True)
class BuildPrecision:
    """What a run's build allowed: ``allowed`` (lower-case names, fp32
    included) or ``strongly_typed``, ``no_tf32``, and ``evidence`` (the
    printed line or the flags, for messages)."""

    allowed: frozenset[str]
    strongly_typed: bool
    no_tf32: bool
    evidence: str

    @property
    def shown(self) -> str:
        """``FP32+FP16`` (widest first), as trtexec prints it."""
        return "+".join(sorted((p.upper() for p in self.allowed), key=lambda p: (-WIDTH[p.lower()], p)))


def loaded_engine(run: TrtexecRun) -> bool:
    """True when the run loaded its engine rather than building it: its
    command has ``--loadEngine`` (trtexec then loads the plan whatever model
    flag is given too), or its Model Options print ``Format: *``."""
    return plan_load_evidence(run) is not None


def plan_load_evidence(run: TrtexecRun) -> str | None:
    """Where the log shows that ``run`` loaded a built plan, in words for a
    note: its command's ``--loadEngine`` flag and the line holding that
    command, else its ``Format: *`` line; None when it built its engine."""
    engine = run.flag("--loadEngine")
    if engine is not None:
        return f"line {run.command_line_number} {'--loadEngine=' + engine if engine else '--loadEngine'!r}"
    if run.model_format == "*":
        return f"line {run.model_format_line} 'Format: *'"
    return None


def loaded_plan_note(log: TrtexecLog, run: TrtexecRun, variant: str, declared: str) -> str | None:
    """The note for a run that loaded a built plan (None for one that built
    its engine): nothing in the log shows the plan's precision, so the
    variant's declared precision is the collector's word, not a reading."""
    evidence = plan_load_evidence(run)
    if evidence is None:
        return None
    printed = (f"; its line {run.precision_line} 'Precision: {run.precision}' is trtexec's builder default, "
               "not the plan's" if run.precision is not None else "")
    return (f"{log.basename} {run.label}: loads a built plan ({evidence}), which shows no precision{printed}: that "
            f"variant {variant!r} is {declared} rests on the collector's word, not on the log")


def build_precision(run: TrtexecRun) -> BuildPrecision | None:
    """What the run's build allowed, or None when it built nothing (a loaded
    engine) or neither its ``Precision:`` line nor its command says."""
    if loaded_engine(run):
        return None
    no_tf32 = run.flag("--noTF32") is not None
    if run.precision is not None:
        evidence = f"line {run.precision_line} 'Precision: {run.precision}'"
        printed = CONSTRAINT.sub("", run.precision)
        if printed == STRONGLY_TYPED:
            return BuildPrecision(frozenset(), True, no_tf32, evidence)
        names = {part.strip().lower() for part in printed.split("+")}
        if not names or not names <= WIDTH.keys():
            return None  # a spelling this reader does not know says nothing it can check
        return BuildPrecision(frozenset(names | {"fp32"}), False, no_tf32, evidence)
    if not run.command:
        return None
    named = (*FLAG_PRECISIONS, "--stronglyTyped", "--noTF32")
    flags = list(dict.fromkeys(name for name, _ in run.options if name in named))
    allowed = {"fp32"}.union(*(FLAG_PRECISIONS.get(flag, set()) for flag in flags))
    evidence = "its flags " + (" ".join(flags) or "(no precision flag)")
    return BuildPrecision(frozenset(allowed), "--stronglyTyped" in flags, no_tf32, evidence)


def contradiction(declared: str, build: BuildPrecision) -> str | None:
    """Why a variant declared ``declared`` (a study precision) cannot be
    this build, in words, or None when it fits (see the module docstring)."""
    if build.strongly_typed:
        return None
    wanted = BUILDER_NAME.get(declared, declared)
    if declared == "tf32" and build.no_tf32:
        return "--noTF32 turns TF32 off, so the engine is fp32"
    if wanted not in build.allowed:
        return f"the build allowed no {wanted.upper()}"
    narrower = sorted(p.upper() for p in build.allowed - {"fp32", wanted} if WIDTH[p] <= WIDTH[wanted])
    if narrower:
        if wanted == "fp32":
            return f"an engine of {declared} allows no other precision"
        return f"{' and '.join(narrower)} {'is' if len(narrower) == 1 else 'are'} not wider than {declared}, " \
               f"so layers may run below the variant's precision"
    return None


def check_declared(log: TrtexecLog | None, variant: str, declared: str | None, study_display: str | None,
                   override: str | None = None) -> list[str]:
    """Refuse (InputError at the log's ``Precision:`` line, else the run's
    first line) a log with a run whose build contradicts ``declared``, the
    precision the study file gives ``variant`` (None: no study, nothing to
    check), unless ``override`` gives a reason (UsageError when it is blank),
    which is returned as a note; also notes a strongly typed build and a
    loaded plan, whose precision the log cannot show, and an fp32 build
    that left TF32 on (:func:`tf32_note`)."""
    if override is not None and not override.strip():
        raise UsageError("--override-precision needs a reason (why the declared precision is right for this log)")
    if log is None or declared is None:
        return []
    notes = []
    for run in log.every_run:  # a failed build is recorded under the variant too (not measured)
        build = build_precision(run)
        if build is None:
            notes.extend(filter(None, [loaded_plan_note(log, run, variant, declared)]))
            continue
        if build.strongly_typed:
            notes.append(f"{log.basename} {run.label}: strongly typed build ({build.evidence}): each layer's precision "
                         f"comes from the model's own types, which the log does not show, so {declared} is not checked")
            continue
        why = contradiction(declared, build)
        if why is None:
            notes.extend(filter(None, [tf32_note(log, run, variant, declared, build)]))
            continue
        if override is not None:
            notes.append(f"precision: variant {variant!r} is declared {declared} but {log.basename} {run.label} allowed "
                         f"{build.shown}; recorded as declared: {' '.join(override.split())}")
            continue
        raise InputError(f"variant {variant!r} is declared {declared} in {study_display}, but {run.label} of "
                         f"{log.basename} built its engine allowing {build.shown} ({build.evidence}): {why}; collect it "
                         "under a variant of that precision, or give --override-precision REASON",
                         path=log.display, line=run.precision_line or run.line)
    return notes


def tf32_note(log: TrtexecLog, run: TrtexecRun, variant: str, declared: str, build: BuildPrecision) -> str | None:
    """A note when a variant declared ``fp32`` was built without
    ``--noTF32`` on a GPU where TensorRT runs FP32 layers with TF32 tactics
    (its default since 7.1 on Ampere and newer): the run's log says so
    (TensorRT 10: ``TF32 is enabled by default``) or prints a compute
    capability of 8.0 or above. None otherwise, also where the log names
    no compute capability (the GPU may predate TF32; a compute capability
    line it prints otherwise than ``MAJOR.MINOR`` gets a note saying that
    whether TF32 could run is not known), and where the run's
    compute capability is below 8.0 even under TensorRT 10's line: trtexec
    prints that line as it reads its options, before it knows the GPU, and
    a Turing or older GPU has no TF32 to run. A note, not a refusal: the
    builder chose each layer's tactic and the log does not show which were
    TF32."""
    if declared != "fp32" or build.no_tf32:
        return None
    if run.compute_capability is not None and run.compute_capability < (8, 0):
        return None
    if run.tf32_default_line is not None:
        evidence = f"line {run.tf32_default_line}: 'TF32 is enabled by default'"
    elif run.compute_capability is not None and run.compute_capability >= (8, 0):
        evidence = f"compute capability {'.'.join(map(str, run.compute_capability))}, no --noTF32"
    elif run.compute_capability is None and run.compute_capability_unread is not None:
        line, text = run.compute_capability_unread
        return (f"{log.basename} {run.label}: variant {variant!r} is declared fp32, and the build has no --noTF32, "
                f"but its compute capability line (line {line}, {shown(text)}) is not MAJOR.MINOR: whether the GPU "
                "could run FP32 convolutions and GEMMs with TF32 tactics (compute capability 8.0 and above) is not "
                "known, so these figures may not be full-FP32 arithmetic")
    else:
        return None
    return (f"{log.basename} {run.label}: variant {variant!r} is declared fp32, but the build left TF32 on "
            f"({evidence}): TensorRT may run FP32 convolutions and GEMMs with TF32 tactics, so these figures are "
            "not full-FP32 arithmetic unless the engine is built with --noTF32")
