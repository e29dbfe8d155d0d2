"""A ``collect run`` in progress: its options, its inputs, where results go, and what it built.

* :class:`RunOptions`: the command-line options (one field per flag of
  :mod:`studygen.commands.collect_run`);
* :class:`RunInputs`: what the command resolved from the study file, as plain
  data (the run plan with its kernel-group rules, the image-set definitions,
  the COCO setup, the measurements folder);
* :class:`RecordStore` / :class:`ResultSink`: the records layer's side, made
  by the command (``studygen.collect.run.record``): a sink per record that
  persists each result as it is measured and answers resume questions;
* :class:`RunContext`: one run's state, handed to every stage instead of
  long parameter lists.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Protocol

from ...errors import RecordError, UsageError
from ...records.kinds import Kind
from .coco_ap import CocoSetup, detections_path
from .images import Photo, load_image_set, to_pixel_values
from .launcher import pin_cuda_device
from .progress import Progress
from .quant import QuantReport, RealPathReport
from .spec import Cell, RunPlan, parse_shape


@dataclass
class RunOptions:
    """Command-line options of ``collect run`` (see :mod:`studygen.commands.collect_run`)."""

    root: Path
    study_dir: Path
    job: str
    variants: list[str] | None = None
    shapes: list[str] | None = None
    modes: list[str] | None = None
    shard: tuple[int, int] = (1, 1)
    resume: bool = False
    measurements: Path | None = None
    commit: str | None = None
    dirty: bool | None = None
    command: str = ""
    quiet: bool = False
    merge_ap: int | None = None
    cpu: bool = False  # measure on the CPU (test configs); else a CUDA device is required
    launcher: str | None = None  # what set the shard with --shard auto (launcher.Placement)
    local_rank: int | None = None  # the launcher's LOCAL_RANK: the CUDA device index to pin to
    deadline: float | None = None  # --time-limit: time.monotonic() by which compilations must have ended
    pin_timing: bool | None = None  # --pin-timing/--no-pin-timing: overrides run.pin_timing (None: the study's)
    inductor: dict = field(default_factory=dict)  # --inductor NAME=VALUE: added to run.inductor_config


@dataclass(frozen=True)
class ImageSetDefinition:
    """A validated dataset definition the study names (``run.calibration_set``,
    ``run.agreement_set``): its id, display path and JSON document."""

    dataset_id: str
    display: str
    definition: dict

    @property
    def revision(self) -> str | None:
        return self.definition.get("revision")


@dataclass(frozen=True)
class ImageSet:
    """An image set's photographs, loaded and checked against their sha256."""

    dataset_id: str
    photos: list[Photo]
    revision: str | None

    @classmethod
    def load(cls, image_set: ImageSetDefinition) -> "ImageSet":
        """Load the photographs (:func:`~studygen.collect.run.images.load_image_set`;
        raises RecordError when a shipped file's sha256 differs)."""
        photos = load_image_set(image_set.definition, image_set.display)
        return cls(image_set.dataset_id, photos, image_set.revision)

    @classmethod
    def load_if_named(cls, image_set: ImageSetDefinition | None) -> "ImageSet | None":
        """:meth:`load` for a set the run uses; None for one it does not
        (``run.calibration_set`` of a run without an FP8 variant)."""
        return None if image_set is None else cls.load(image_set)


@dataclass(frozen=True)
class RunInputs:
    """What a run measures, resolved by the command from the study file.

    ``study_path`` is the study file's display path (errors point into it);
    ``measurements`` the records folder (``measurements/<family>/`` or
    ``--measurements``); ``description`` the study's title for a new record;
    ``coco`` None when the study gives no COCO images. The image sets are
    None for ``--merge-ap``, which measures nothing; the calibration set is
    None too when no variant the run may build is calibrated (no FP8).
    """

    plan: RunPlan
    study_path: str
    measurements: Path
    description: str | None = None
    coco: CocoSetup | None = None
    calibration_set: ImageSetDefinition | None = None
    agreement_set: ImageSetDefinition | None = None


class ResultSink(Protocol):
    """One record being written: each :meth:`add` persists at once (an
    interrupted run keeps what it finished)."""

    display: str

    def has(self, kind: str, variant: str, shape: str | None = None, mode: str | None = None,
            metric: str | None = None, batch: int | None = None) -> bool:
        """True when the record holds such a result, or a not_measured for it (resume)."""

    def add(self, *results: dict) -> None:
        """Persist ``results``; refuses one whose identity the record already holds."""

    def set_wall_time(self, seconds: float) -> None:
        """Add this invocation's wall time (s) to the record's provenance."""

    def add_notes(self, notes: list[str]) -> None:
        """Add ``notes`` the record's provenance does not hold yet."""

    def note_failures(self, failures: list["CellFailure"]) -> None:
        """Keep the cells of this invocation whose measurement raised (their
        ``not_measured`` results are already added), for the command to report."""


class RecordStore(Protocol):
    """The records a job writes, as the command set them up (folder, family, ``--resume``)."""

    def open(self, job_id: str, provenance: dict) -> ResultSink:
        """The sink of record ``<job_id>.json``: new, or resumed when allowed."""

    def ensure_ap_dataset(self, dataset_id: str, ground_truth) -> None:
        """Verify the AP dataset definition against the annotations, or write it when there is none."""

    def merged_shard_provenance(self, job: str, count: int) -> dict:
        """The provenance the ``count`` shard records of ``job`` share (they must agree)."""


@dataclass
class Variant:
    """A variant on the device: its eager ``model``, input ``dtype``, FP8 state."""

    name: str
    precision: str
    model: object
    dtype: object
    real_path: RealPathReport | None = None  # FP8, after compression
    quant: QuantReport | None = None  # FP8
    compiled: dict = field(default_factory=dict)
    compile_model: object = None  # FP8: the plain model with ModelOpt's FP8 GEMMs transplanted (compile mode)
    compile_note: str | None = None

    @property
    def real_fp8_ready(self) -> bool:
        """FP8 compressed onto ModelOpt's real FP8 path for every recipe module."""
        return self.real_path is not None and self.real_path.complete


@dataclass
class ApContext:
    """COCO AP settings of a run: the study's setup (None: no images), where detections go, this shard."""

    setup: CocoSetup | None
    measurements: Path
    job: str
    shard: tuple[int, int]
    variants: list[str]
    root: Path

    def pending(self, sink: ResultSink) -> list[str]:
        """Variants whose AP (or, for a shard, whose detections file) is still
        missing, and that the record does not say were not measured (a model
        without boxes)."""
        if self.setup is None:
            return []
        if self.shard == (1, 1):
            return [v for v in self.variants if not sink.has(Kind.COCO_AP, v, self.setup.shape, "eager", "AP")]
        return [v for v in self.variants
                if not detections_path(self.measurements, self.job, v, self.shard).is_file()
                and not sink.has(Kind.COCO_AP, v, self.setup.shape, "eager", Kind.COCO_AP)]


@dataclass(frozen=True)
class CellFailure:
    """A cell of the grid whose measurement raised (its forward, its compilation):
    the record holds it as a ``not_measured`` latency with ``reason``, and the
    command names it on stderr and exits 1 (:meth:`line`)."""

    cell: Cell
    reason: str

    def line(self) -> str:
        """``fp16 at 256x256 (eager) not measured: the forward raised ValueError: …``."""
        return f"{self.cell.variant} at {self.cell.shape} ({self.cell.mode}) not measured: {self.reason}"


@dataclass
class RunContext:
    """One run in progress, handed to every stage: what it measures (``inputs``),
    how (``options``), on which ``device`` (a torch.device), where results go
    (``sink``), the fp32 ``base_model`` every variant copies, the image sets,
    the variants built so far, and the cells that failed."""

    inputs: RunInputs
    options: RunOptions
    device: object
    progress: Progress
    sink: ResultSink
    store: RecordStore
    base_model: object
    calibration: ImageSet | None  # None when no variant of the run is calibrated (no FP8)
    agreement: ImageSet
    variants: dict[str, Variant] = field(default_factory=dict)
    # cells whose measurement raised, in the order they failed (a copy made by dataclasses.replace shares the list)
    failures: list[CellFailure] = field(default_factory=list)

    @property
    def plan(self) -> RunPlan:
        return self.inputs.plan

    @property
    def settings(self) -> dict:
        return self.inputs.plan.settings

    @property
    def cuda(self) -> bool:
        return self.device.type == "cuda"

    @property
    def agreement_hw(self) -> tuple[int, int]:
        """Height and width (pixels) of the agreement shape."""
        return parse_shape(self.plan.agreement_shape)

    @cached_property
    def ap(self) -> ApContext:
        return ApContext(setup=self.inputs.coco, measurements=self.inputs.measurements, job=self.options.job,
                         shard=self.plan.shard, variants=self.options.variants or list(self.plan.variants),
                         root=self.options.root)

    def pixel_values(self, photo: Photo, height: int, width: int, dtype):
        """``photo`` as model input on the run's device: ``(1, 3, height, width)`` in ``dtype``."""
        return to_pixel_values(photo, height, width).to(device=self.device, dtype=dtype)

    def inputs_at(self, height: int, width: int, dtype) -> list:
        """The agreement set's photographs as model inputs at ``height x width``
        for timing and profiling, in batches of ``run.batch`` photographs:
        :func:`batched_photos`. Each is ``(batch, 3, height, width)`` in ``dtype``
        on the run's device. (Every input was one photograph before, while the
        record said ``batch: 8``: a batch-1 time published as batch 8's.)"""
        import torch

        photos, inputs = self.agreement.photos, []
        for indices in batched_photos(len(photos), self.settings["batch"]):
            # filled image by image: a list of images joined by torch.cat held every input twice
            batch = torch.empty((len(indices), 3, height, width), dtype=dtype, device=self.device)
            for place, index in enumerate(indices):
                batch[place] = self.pixel_values(photos[index], height, width, dtype)[0]
            inputs.append(batch)
        return inputs

    def latency_pending(self, cell: Cell) -> bool:
        """No latency (nor a not_measured for it) recorded yet for ``cell``."""
        return not self.sink.has(Kind.LATENCY, cell.variant, cell.shape, cell.mode, "median", self.settings["batch"])

    def agreement_pending(self, name: str) -> bool:
        return not self.sink.has(Kind.AGREEMENT, name, self.plan.agreement_shape, "eager", "logit_correlation")


def select_device(cpu: bool, study_path: str, local_rank: int | None = None):
    """The torch device to measure on: the CPU when asked (``--cpu``), else
    the CUDA device of ``local_rank`` (the first visible one without it),
    made current (:func:`~studygen.collect.run.launcher.pin_cuda_device`).
    Raises UsageError when no CUDA device exists and ``--cpu`` is not given
    (a study times GPU compute, and CPU wall times are no substitute), or
    when ``local_rank`` names a device this process does not see."""
    import torch

    if cpu:
        return torch.device("cpu")
    if not torch.cuda.is_available():
        raise UsageError(f"no CUDA device on this machine: {study_path} is timed on a GPU; "
                         "give --cpu to time it on the CPU (host-clock timings, named as such)")
    return pin_cuda_device(local_rank)


def batched_photos(photo_count: int, batch: int) -> list[list[int]]:
    """Which photographs (indices into a set of ``photo_count``) make each
    timing input of ``batch`` images: ``ceil(photo_count / batch)`` inputs
    (at least one), taking the photographs in order and starting the set
    again where a batch needs more than are left, so that every photograph
    is in some input and every input holds ``batch`` images. Batch 1 gives
    one input per photograph, as before batches were made: ``(6, 1)`` ->
    ``[[0], [1], ... [5]]``; ``(6, 4)`` -> ``[[0, 1, 2, 3], [4, 5, 0, 1]]``.
    Raises ValueError for a count or batch below 1."""
    if photo_count < 1 or batch < 1:
        raise ValueError(f"{photo_count} photographs in batches of {batch}: both must be 1 or more")
    inputs = -(-photo_count // batch)
    return [[(first * batch + offset) % photo_count for offset in range(batch)] for first in range(inputs)]


# bytes per value of the widest input a run builds (float32; fp16 and bf16 inputs take half)
INPUT_VALUE_BYTES = 4


def input_bytes(photo_count: int, batch: int, height: int, width: int) -> int:
    """Bytes the timing inputs of one shape take (:func:`batched_photos`
    inputs of ``batch`` images, 3 x ``height`` x ``width`` values of
    :data:`INPUT_VALUE_BYTES` each), the model's own memory aside."""
    return -(-photo_count // batch) * batch * 3 * height * width * INPUT_VALUE_BYTES


def refuse_oversized_inputs(settings: dict, shapes: list[str], photo_count: int, free_bytes: int | None,
                            where: str, study_path: str) -> None:
    """Raise RecordError at ``/run/batch`` when the inputs of the largest of
    ``shapes`` (:func:`input_bytes`) exceed ``free_bytes`` (the memory free on
    the device that runs them; None: not known, nothing refused), before any
    record is opened: a batch of 2**20 (the schema's limit) filled the memory
    of a 23 GB machine in 18 s without a word, a half-written record left."""
    if free_bytes is None or not shapes:
        return
    height, width = max((parse_shape(shape) for shape in shapes), key=lambda hw: hw[0] * hw[1])
    needed = input_bytes(photo_count, settings["batch"], height, width)
    if needed > free_bytes:
        raise RecordError(f"run.batch {settings['batch']} at {height}x{width}: the timing inputs take "
                          f"{needed / 2**30:.1f} GiB ({settings['batch']} images of 3 x {height} x {width} "
                          f"float32 values per input), more than the {free_bytes / 2**30:.1f} GiB free on {where}",
                          path=study_path, pointer="/run/batch")


def free_memory(device) -> tuple[int | None, str]:
    """``(bytes free, words naming where)`` on the torch ``device`` the
    inputs go to: the CUDA device's free memory (``torch.cuda.mem_get_info``),
    or for the CPU the memory Linux reports available (``MemAvailable`` of
    ``/proc/meminfo``: :func:`meminfo_available`; elsewhere ``sysconf
    SC_AVPHYS_PAGES``); None where it cannot be read."""
    if device.type == "cuda":
        import torch

        return torch.cuda.mem_get_info(device)[0], f"the GPU ({device})"
    try:
        with open("/proc/meminfo", encoding="ascii", errors="replace") as meminfo:
            available = meminfo_available(meminfo.read())
    except OSError:  # no /proc (macOS, Windows)
        available = None
    if available is not None:
        return available, "this machine"
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), "this machine"
    except (AttributeError, OSError, ValueError):  # no sysconf (Windows), or no such name (macOS)
        return None, "this machine"


def meminfo_available(text: str) -> int | None:
    """Bytes of the ``MemAvailable:`` line of Linux's ``/proc/meminfo`` text
    (kB: what can be allocated without swapping, page cache that can be
    dropped included; Linux 3.14+, proc(5)); None without such a line.
    ``sysconf SC_AVPHYS_PAGES`` gives MemFree, which leaves the page cache
    out: on a machine whose cache held 6 GB it was 18.1 GiB against 24.1 GB
    available, and refused batches that fit."""
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name == "MemAvailable":
            amount = value.split()
            return int(amount[0]) * 1024 if amount and amount[0].isdigit() and len(amount[0]) < 20 else None
    return None
