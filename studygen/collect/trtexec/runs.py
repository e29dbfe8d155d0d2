"""What a trtexec console log says about one run, once read (:mod:`.log`
reads it): the run's summary, ``--dumpProfile`` table, settings, the batch
it ran with and the version-dependent defaults of its timing method.

Rules taken from the logs in ../shared/fixtures/trtexec and TensorRT's
``samples/common`` sources:

* The version is ``TensorRT version: X`` or decoded from ``[TensorRT
  vNNNNNN]`` (``v101601`` → 10.16.1, ``v8600`` → 8.6.0); a version line
  printed as the bare number (``TensorRT version: 8003``, as early 8.0
  releases did) is decoded the same way (8.0.3).
* The input shapes, from the first of: the printed inference shapes
  (``Input inference shape : x=4x1x28x28``), the ``--shapes=x:4x1x28x28``
  flag, the optimisation shape of the printed build shapes (``Input build
  shape: x=1x1x28x28+4x1x28x28+8x1x28x28``, min+opt+max) and the
  ``--optShapes`` flag (trtexec runs inference at the optimisation shapes
  when no ``--shapes`` is given; without ``--optShapes`` it takes the
  ``--maxShapes``, else the ``--minShapes``, as ``processShapes`` in
  sampleOptions.cpp broadcasts them), and last the shape trtexec chose for a
  dynamic input given none (``Dynamic dimensions required for input: x,
  but no shapes were provided. Automatically overriding shape to:
  1x1x28x28``: each free dimension set to 1, so batch 1; TensorRT's
  ``samples/common`` prints it once per such input). Where the log gives none of
  these (``Input inference shapes: model``), the dimensions trtexec bound each
  input with (``Created input binding for images with dimensions
  1x3x640x640`` in TensorRT 8.0-8.6.0, ``Input binding for images with
  dimensions 1x3x640x640 is created.`` in 8.6.1-10.14, with ``and type
  fp32`` before ``is created`` in 10.16: the fixture logs' versions, the
  wordings of samples/common/sampleInference.cpp), but only when an image
  input is among them (see the HxW rule below): with an implicit batch
  trtexec binds an input without its batch dimension, so a binding of no
  image input (``1x900x256``) is not taken to lead with the batch. A tensor
  name may hold colons (``x:0``: the dimensions follow the last one) and
  single quotes, which trtexec drops.
* The batch: for explicit-batch runs, the leading dimension its input
  shapes share (inputs of fewer than two dimensions say nothing about it,
  and inputs that disagree leave the batch unstated), else the implicit
  batch (``--batch=N``, ``Batch: N``; TensorRT 7 and 8).
* The input shape HxW: of the four-dimensional inputs whose channels are
  first (N, C, H, W) or last (N, H, W, C), C being 1 to 4 (grey, colour,
  with alpha), when each such input reads one way only and all give the
  same HxW; otherwise none is stated (a feature map of 64 channels is no
  image, and 1x4x3x3 reads as 3x3 or 4x3).
* Timing settings (CUDA graph, data transfers, spin-wait, separate profile
  run) as the log prints them under Inference Options; when it does not,
  the command line's flags decide, and a missing flag means the pre-11
  default only when the version is known to be below 11 (TensorRT 11 made
  CUDA graphs, spin-wait, no data transfers and a separate profile run the
  defaults).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .command import arguments, options
from .exports import LayerKernel

# Flags that change what is measured (precision, shapes, batch, timing method).
MEASURED_NAMES = (
    "fp16", "bf16", "int8", "fp8", "int4", "fp4", "best", "noTF32", "stronglyTyped", "precisionConstraints",
    "layerPrecisions", "layerOutputTypes", "shapes", "optShapes", "minShapes", "maxShapes", "batch", "maxBatch",
    "useCudaGraph", "noDataTransfers", "useSpinWait", "separateProfileRun", "infStreams", "streams", "threads",
    "exposeDMA", "useDLACore", "allowGPUFallback", "sparsity", "builderOptimizationLevel", "useManagedMemory",
    "noCudaGraph", "dataTransfers", "spinWait")
MEASURED_FLAGS = re.compile(rf"^--(?:{'|'.join(MEASURED_NAMES)})(?:=.*)?$")
# Every option this reader takes a value from: one the command gives twice, differently, is refused (.log)
READ_FLAGS = frozenset({f"--{name}" for name in MEASURED_NAMES} | {"--loadEngine", "--saveEngine", "--exportProfile",
                                                                   "--skipInference", "--buildOnly"})
CHANNELS = range(1, 5)  # image channels: grey, two-channel, colour, colour with alpha
DIMS = re.compile(r"^[1-9]\d*(?:x[1-9]\d*)*$")
# The timing flags as (flag, method field, value when given); their defaults
# changed in TensorRT 11 (see ../shared/fixtures/SOURCES.md), so a missing
# flag means the pre-11 default only when the version is known to be < 11.
TIMING_FLAGS = (("--useCudaGraph", "cuda_graph", True), ("--noDataTransfers", "data_transfers", False),
                ("--useSpinWait", "spin_wait", True), ("--separateProfileRun", "separate_profile_run", True))
PRE11_DEFAULTS = {"cuda_graph": False, "data_transfers": True, "spin_wait": False, "separate_profile_run": False}


def decode_version_tag(code: str) -> str:
    """``[TensorRT vNNNN]`` → ``X.Y.Z``: six digits are MMmmpp (``101601`` →
    10.16.1), four are Mmpp (``8600`` → 8.6.0, ``7103`` → 7.1.3), after
    NV_TENSORRT_VERSION in NvInferVersion.h."""
    number = int(code)
    if len(code) >= 6:
        return f"{number // 10000}.{(number // 100) % 100}.{number % 100}"
    return f"{number // 1000}.{(number // 100) % 10}.{number % 100}"


def version_of_line(text: str) -> str:
    """The version a ``TensorRT version:`` line states: dotted as printed
    (``8.6.1``), or a bare NV_TENSORRT_VERSION number decoded (``8003`` →
    8.0.3, ``101601`` → 10.16.1)."""
    if "." not in text and 4 <= len(text) <= 6:
        return decode_version_tag(text)
    return text


def major_version(version: str | None) -> int | None:
    """``"10.16.1"`` → 10; None when unknown."""
    if not version:
        return None
    return int(version.split(".")[0])


def shape_batch(shapes: list[tuple[str, str]]) -> int | None:
    """The leading dimension that every input of two or more dimensions
    shares (``[("x", "4x1x28x28")]`` → 4); None when none has two
    dimensions, a shape is not all positive integers, or they disagree."""
    leading = set()
    for _, dims in shapes:
        if not DIMS.match(dims):
            return None
        parts = dims.split("x")
        if len(parts) >= 2:
            leading.add(int(parts[0]))
    return leading.pop() if len(leading) == 1 else None


def split_shapes(text: str, separator: str) -> list[tuple[str, str]]:
    """``"x=4x1x28x28, y=4x3"`` (``=``, as trtexec prints them) or
    ``"x:4x1x28x28,y:4x3"`` (``:``, the ``--shapes`` flag) → ``[(name, dims)]``;
    the name is what precedes the last separator (names may hold one), its
    single quotes dropped as trtexec drops them (``'input:0':1x3x8x8``)."""
    out = []
    for item in text.split(","):
        name, found, dims = item.strip().rpartition(separator)
        if found:
            out.append((name.replace("'", ""), dims.strip()))
    return out


def optimisation_shapes(shapes: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Printed build shapes ``[(name, "min+opt+max")]`` → ``[(name, opt)]``
    (a single shape stays as it is)."""
    out = []
    for name, dims in shapes:
        parts = dims.split("+")
        out.append((name, parts[1] if len(parts) == 3 else dims))
    return out


def image_shape(shapes: list[tuple[str, str]]) -> tuple[str, str] | None:
    """``(HxW, layout)`` of the image inputs among ``shapes`` (see the module
    docstring: four dimensions, channels first or last, one reading each,
    one HxW for all), layout ``channels first`` or ``channels last``; None
    when there is no such input, one reads both ways, or they disagree."""
    found: dict[str, str] = {}
    for _, dims in shapes:
        if not DIMS.match(dims):
            return None
        parts = [int(part) for part in dims.split("x")]
        if len(parts) != 4:
            continue
        readings = {}
        if parts[1] in CHANNELS:
            readings[f"{parts[2]}x{parts[3]}"] = "channels first"
        if parts[3] in CHANNELS:
            readings.setdefault(f"{parts[1]}x{parts[2]}", "channels last")
        if len(readings) > 1:
            return None  # 1x4x3x3: channels first or last cannot be told apart
        found.update(readings)
    return next(iter(found.items())) if len(found) == 1 else None


@dataclass
class Summary:
    """One timing of a run's performance summary: statistics in ms as the log
    prints them (``min``, ``max``, ``mean``, ``median``, ``p90`` …) and the line."""

    timing: str
    statistics_ms: dict[str, float]
    line: int


@dataclass
class ProfileTable:
    """``--dumpProfile`` table: ``iterations``; rows ``(layer, avg_ms,
    median_ms | None, total_ms)``; the Total row's per-iteration average;
    ``layout`` ``layer-last`` (TensorRT 8.6+) or ``layer-first`` (before)."""

    iterations: int
    rows: list[tuple[str, float, float | None, float]]
    total_avg_ms: float
    line: int
    layout: str = "layer-last"


@dataclass
class TrtexecRun:
    """One ``&&&& RUNNING`` block of a console log."""

    index: int
    line: int
    command: str | None = None
    command_line_number: int | None = None  # the line the command was read from (opening, else closing line)
    tensorrt_version: str | None = None
    version_line: int | None = None
    device: str | None = None
    device_line: int | None = None
    compute_capability: tuple[int, int] | None = None  # "Compute Capability: 8.6" of the Device Information
    compute_capability_unread: tuple[int, str] | None = None  # (line, text): a compute capability line not MAJOR.MINOR
    tf32_default_line: int | None = None  # TensorRT 10's "TF32 is enabled by default. Add --noTF32 ..." line
    model_format: str | None = None  # "Format:" of the Model Options ("*": the engine was loaded)
    model_format_line: int | None = None
    precision: str | None = None  # "Precision:" of the Build Options, as printed
    precision_line: int | None = None
    status: str | None = None
    status_line: int | None = None
    batch: int | None = None
    batch_line: int | None = None  # the line of "Batch: N"
    explicit_batch: bool = False
    settings: dict[str, bool] = field(default_factory=dict)
    input_shapes: str | None = None
    build_shapes: str | None = None
    overridden_shapes: str | None = None  # "x=1x1x28x28": the shapes trtexec chose for inputs given none
    # [(name, dims)] of the input binding lines ("Input binding for NAME with dimensions DIMS ..."), each pair once,
    # and their lines
    bound_inputs: list[tuple[str, str]] = field(default_factory=list)
    binding_lines: list[int] = field(default_factory=list)
    warmup_queries: int | None = None
    warmup_ms: float | None = None
    timed_queries: int | None = None
    trace_line: int | None = None  # "Timing trace has N queries"
    # (line, what) of figures printed as 0 because trtexec multiplied them by a zero batch (.log), not recorded
    zeroed: list[tuple[int | None, str]] = field(default_factory=list)
    graph_ignored_line: int | None = None  # "[W] The specified --useCudaGraph flag has been ignored" (.log)
    throughput_qps: float | None = None
    throughput_line: int | None = None
    summary: dict[str, Summary] = field(default_factory=dict)
    summary_line: int | None = None
    summary_complete: bool = False
    unstable_cv_percent: float | None = None
    unstable_line: int | None = None
    engine_built_line: int | None = None  # "Engine built in N sec."
    # (line, message) of each line saying inference was skipped: "Skip inference: Enabled", "Skipped inference phase …"
    skipped_inference: list[tuple[int, str]] = field(default_factory=list)
    engine_size_mib: float | None = None
    engine_size_line: int | None = None
    profile: ProfileTable | None = None
    profile_open_line: int | None = None
    no_e2e_line: int | None = None
    # the Reporting Options' "Export profile to JSON file:" line: the file as printed ("" when empty) and its line
    profile_export: str | None = None
    profile_export_line: int | None = None
    warnings: list[tuple[int, str]] = field(default_factory=list)
    # (line, what): summary labels and statistics this reader does not know, left unread (never guessed at)
    unread: list[tuple[int, str]] = field(default_factory=list)
    last_line: int | None = None
    last_text: str | None = None
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line, message) of each [E] line of the run
    # layer name -> (line, what it ran) of the layers the log prints (.printed_layers); the
    # last print of a layer wins: --dumpLayerInfo, after the build's verbose list, may name its tactic
    printed_layers: dict[str, tuple[int, LayerKernel]] = field(default_factory=dict)

    @property
    def flags(self) -> list[str]:
        """Arguments of the command line that change what is measured,
        verbatim (:func:`.command.arguments`: quoted names kept whole)."""
        return [argument for argument in arguments(self.command) if MEASURED_FLAGS.match(argument)]

    @property
    def options(self) -> list[tuple[str, str]]:
        """``[(name, value)]`` of each ``--name[=value]`` argument of the
        command line, in order (:func:`.command.options`)."""
        return options(self.command)

    def flag(self, name: str) -> str | None:
        """The value the command line gives the option ``name`` (``--shapes``):
        what follows its first ``=``, ``''`` when it has none; the first
        copy's when it is given twice (a run that passed has no two that
        differ: :func:`.log.parse_log` refuses them); None when absent or
        the log prints no command (:mod:`.command`)."""
        return next((value for option, value in self.options if option == name), None)

    def wrote_profile(self) -> tuple[bool | None, str]:
        """``(whether the run exported a per-layer profile, where the log says
        so)``: its ``Export profile to JSON file:`` line (empty: none), else
        its command line (an ``--exportProfile`` flag with a file: trtexec
        writes none for an empty value); ``(None, "")`` when the log says
        neither (a log captured part way)."""
        if self.profile_export is not None:
            printed = repr(self.profile_export) if self.profile_export else "nothing"
            return bool(self.profile_export), f"its 'Export profile to JSON file:' line {self.profile_export_line} " \
                                              f"names {printed}"
        if self.command:
            flagged = bool(self.flag("--exportProfile"))
            return flagged, f"its command line {'has' if flagged else 'has no'} --exportProfile"
        return None, ""

    @property
    def label(self) -> str:
        return f"run {self.index + 1} (line {self.line})"

    def stated_shapes(self) -> tuple[list[tuple[str, str]], str | None]:
        """``([(name, dims)], as the log writes them)`` of the first source
        that gives the run's input shapes (see the module docstring), or
        ``([], None)``."""
        if self.input_shapes:
            return split_shapes(self.input_shapes, "="), self.input_shapes
        flag = self.flag("--shapes")
        if flag:
            return split_shapes(flag, ":"), flag
        if self.build_shapes:
            return optimisation_shapes(split_shapes(self.build_shapes, "=")), f"{self.build_shapes} (min+opt+max)"
        for name in ("--optShapes", "--maxShapes", "--minShapes"):  # without opt, trtexec takes max, else min
            flag = self.flag(name)
            if flag:
                broadcast = "" if name == "--optShapes" else " (no --optShapes: trtexec optimises and runs at these)"
                return split_shapes(flag, ":"), f"{name}={flag}{broadcast}"
        if self.overridden_shapes:
            return split_shapes(self.overridden_shapes, "="), f"{self.overridden_shapes} (set by trtexec: no shapes given)"
        if image_shape(self.bound_inputs) is not None:
            bound = ", ".join(f"{name}={dims}" for name, dims in self.bound_inputs)
            lines = ", ".join(str(number) for number in self.binding_lines)
            return list(self.bound_inputs), f"{bound} (input binding, line{'s' * (len(self.binding_lines) > 1)} {lines})"
        return [], None

    def stated_shape(self) -> tuple[str | None, str | None]:
        """``(HxW, where the log states it)`` of the run's image inputs
        (:func:`image_shape`), or ``(None, None)``."""
        shapes, shown = self.stated_shapes()
        found = image_shape(shapes)
        if found is None:
            return None, None
        return found[0], f"its input shapes {shown}, {found[1]}"

    def stated_batch(self) -> tuple[int | None, str | None]:
        """``(batch, where the log states it)``: the leading dimension of the
        explicit input shapes (:meth:`stated_shapes`), else the implicit
        batch (``--batch=N`` or ``Batch: N``); ``(None, None)``, also when
        the shapes are the input bindings and lead with another batch than
        a printed ``Batch: N``."""
        shapes, shown = self.stated_shapes()
        batch = shape_batch(shapes)
        if batch is not None and self.batch not in (None, batch) and shapes == self.bound_inputs:
            return None, None  # "Batch: N" but bound as M: an implicit-batch binding has no batch dimension to read
        if batch is not None:
            return batch, f"the leading dimension of its input shapes {shown}"
        if shapes:
            return None, None
        if self.batch is not None:
            return self.batch, f"its implicit batch ('Batch: {self.batch}')"
        flag = self.flag("--batch")
        if flag is not None and re.fullmatch(r"\d+", flag):
            return int(flag), f"its --batch={int(flag)} flag"
        return None, None

    def unread_batch(self) -> str | None:
        """Why :meth:`stated_batch` reads no batch from a log that prints
        two (its ``Batch: N`` and an input binding leading with another
        figure), in words for a note; None otherwise."""
        shapes, shown = self.stated_shapes()
        batch = shape_batch(shapes)
        if batch is not None and self.batch not in (None, batch) and shapes == self.bound_inputs:
            return (f"its 'Batch: {self.batch}' and the leading dimension {batch} of its input shapes {shown} "
                    "disagree (an implicit-batch binding has no batch dimension, an explicit-batch one leads with it)")
        return None

    def _queries_per_iteration(self) -> int:
        """trtexec counts *queries*, which with an implicit batch (TensorRT 7
        ``--batch=N``) are iterations × N."""
        return self.batch if self.batch and not self.explicit_batch else 1

    def timed_iterations(self) -> int | None:
        """Timed iterations (``Timing trace has N queries`` over the implicit batch)."""
        if self.timed_queries is None:
            return None
        per = self._queries_per_iteration()
        return self.timed_queries // per if self.timed_queries % per == 0 else self.timed_queries

    def warmup_iterations(self) -> int | None:
        """Warm-up iterations (``Warmup completed N queries`` over the implicit batch)."""
        if self.warmup_queries is None:
            return None
        per = self._queries_per_iteration()
        return self.warmup_queries // per if self.warmup_queries % per == 0 else self.warmup_queries


@dataclass
class TrtexecLog:
    """A parsed console log: the runs whose figures are read (``runs``), and
    those trtexec closed with ``&&&& FAILED`` (``failed``: nothing of them
    is a figure), each in log order."""

    display: str
    runs: list[TrtexecRun]
    failed: list[TrtexecRun] = field(default_factory=list)

    @property
    def basename(self) -> str:
        return Path(self.display).name

    @property
    def every_run(self) -> list[TrtexecRun]:
        """Passed and failed runs together, in log order (for what a run states
        about the machine and the build, not for figures)."""
        return sorted([*self.runs, *self.failed], key=lambda run: run.index)


def graph_ignored_before_summary(run: TrtexecRun) -> bool:
    """True when trtexec says it ignored ``--useCudaGraph`` before the run's
    performance summary (or in a run with none): the timed inference ran
    without a CUDA graph whatever the options say. trtexec profiles a
    ``--separateProfileRun`` after printing the summary, so a warning after
    it concerns the profiling run only."""
    line = run.graph_ignored_line
    return line is not None and (run.summary_line is None or line < run.summary_line)


def measured_settings(run: TrtexecRun) -> dict[str, bool | None]:
    """CUDA graph, data transfers, spin-wait and separate profile run: as the
    log prints them under Inference Options, else from the flags (a missing
    flag means the default only when the version is known to be < 11); the
    CUDA graph off where trtexec says it ignored ``--useCudaGraph`` before
    the summary (:func:`graph_ignored_before_summary`)."""
    major = major_version(run.tensorrt_version)
    out = {}
    for flag, name, given in TIMING_FLAGS:
        if name == "cuda_graph" and graph_ignored_before_summary(run):
            out[name] = False
        elif name in run.settings:
            out[name] = run.settings[name]
        elif run.flag(flag) is not None:
            out[name] = given
        elif major is not None and major < 11:
            out[name] = PRE11_DEFAULTS[name]
        else:
            out[name] = None
    return out
