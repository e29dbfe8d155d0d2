"""Measurement keys: what a figure measures, whichever job measured it.

A **measurement key** identifies what a figure measures, independently of
which job measured it: family, checkpoint revision, variant and recipe,
metric and statistic, shape, batch, GPU, the software versions that matter
for its backend, and dataset. Two jobs reporting the same key measured the
same thing (SG203 compares them). The **configuration key** drops GPU and
software versions, so the same metric of the same configuration can be
compared across GPUs and TensorRT versions (SG207).
"""

from __future__ import annotations

import operator
from typing import NamedTuple

from .checkpoints import short_revision

# Software versions that change what a backend measures.
BACKEND_SOFTWARE = {
    "tensorrt": ("tensorrt", "cuda"),
    "pytorch": ("torch", "cuda", "transformers", "modelopt"),
    "onnxruntime": ("onnxruntime", "cuda"),
}
QUALITY_SOFTWARE = ("torch", "transformers", "modelopt", "tensorrt")


class MeasurementKey(NamedTuple):
    """What a figure measures, independently of the job that measured it.

    Two rows with equal keys measured the same thing (SG203 compares them);
    :meth:`config` leaves out the GPU and the software versions (SG207
    compares a configuration across them). ``revision`` is the checkpoint
    revision as :meth:`studygen.records.checkpoints.Revisions.key` gives it
    (a hash lower-cased and cut to 7 digits, longer where two commits in
    view share them; a tag or branch whole), so every spelling of one commit
    makes one key; ``software`` the signature of the versions that
    matter for the backend (:func:`software_signature`). The key stays a
    tuple of values; :meth:`text` is its readable string, for waivers and
    messages only.
    """

    family: str | None
    revision: str | None
    variant: str | None
    recipe: str | None
    kind: str | None
    metric: str | None
    statistic: str | None
    group: str | None
    shape: str | None
    batch: int | None
    backend: str | None
    mode: str | None
    gpu: str | None
    software: str | None
    dataset: str | None

    @classmethod
    def of(cls, **parts) -> "MeasurementKey":
        """The key of ``parts`` (every field by name), the revision in its key form with no other
        revision in view (:func:`studygen.records.checkpoints.short_revision`)."""
        return cls(**{**parts, "revision": short_revision(parts["revision"])})

    def text(self) -> str:
        """A readable key such as ``deformable_detr|83ecd26|fp16||latency|gpu_compute|median||800x800|b1|``
        ``tensorrt|engine|NVIDIA B200|tensorrt=11.4.0.106|`` (one string, cut here to fit): what a study
        file's waiver or explanation names (``key:``). Empty parts stay empty so that positions keep their
        meaning."""
        return "|".join([_key_part(name, value) for name, value in zip(FIELDS, self)])

    def config(self) -> tuple:
        """The configuration key: this key without GPU and software versions."""
        return _config_parts(self)

    def config_text(self) -> str:
        """:meth:`config` as a readable string (the parts of :meth:`text` it keeps)."""
        return "|".join([_key_part(name, value) for name, value in zip(CONFIG_FIELDS, self.config())])


FIELDS = MeasurementKey._fields
CONFIG_FIELDS = tuple(f for f in FIELDS if f not in ("gpu", "software"))
_CONFIG_INDEXES = tuple(FIELDS.index(name) for name in CONFIG_FIELDS)
_config_parts = operator.itemgetter(*_CONFIG_INDEXES)  # the configuration key's parts as a tuple, picked in C


def blanking(*names: str):
    """A function giving a key with the fields ``names`` set to None, as
    ``key._replace(name=None, ...)`` gives it: picked in C from the key and a
    None (``operator.itemgetter``) in about half ``_replace``'s time (0.087
    against 0.185 s for 200,000 keys), where
    grouping rows makes one a row. Raises ValueError for a name that is no
    field of :data:`FIELDS`."""
    blank = {FIELDS.index(name) for name in names}
    pick = operator.itemgetter(*(len(FIELDS) if index in blank else index for index in range(len(FIELDS))))
    make = MeasurementKey._make
    return lambda key: make(pick(key + (None,)))


# What names a CPU as a record's measuring machine (:func:`measuring_machine`), before its model.
CPU_PREFIX = "CPU "


def measured_without_gpu(provenance: dict) -> bool:
    """Whether a record states that it was measured without a GPU:
    ``gpu_count`` 0 and no ``gpu`` (``collect run --cpu``, whether or not
    the machine had a CUDA device, or ``collect env --role measuring`` run
    on a machine without one). A record that leaves ``gpu_count`` out says
    nothing of the kind."""
    return provenance.get("gpu_count") == 0 and not provenance.get("gpu")


def measuring_machine(provenance: dict) -> str | None:
    """The machine a record's figures were measured on, as its measurement
    key and README name it: the GPU model (``NVIDIA H100 80GB HBM3``); for a
    record measured without a GPU (:func:`measured_without_gpu`) that names
    its CPU, ``CPU`` and the model (``CPU AMD EPYC 7763 64-Core Processor``),
    so that figures of two CPUs are two measurements; else None. A record
    stating no ``cpu`` (every one written before the field) keeps the key it
    had."""
    gpu = provenance.get("gpu")
    if gpu:
        return gpu
    cpu = provenance.get("cpu")
    return CPU_PREFIX + cpu if cpu and measured_without_gpu(provenance) else None


def stated_software(provenance: dict) -> dict:
    """``provenance.software`` less what its figures did not run on: for a
    record measured without a GPU (:func:`measured_without_gpu`), the
    ``cuda`` entry, which names only the CUDA toolkit torch was built with
    (``torch.version.cuda``; the torch version says as much, ``2.14.1+cu130``).
    Case (a new user's ``collect run --cpu``): the Software column of its
    CPU row read ``cuda 13.0`` and its figures were keyed under it, as if a
    GPU had run them."""
    versions = dict(provenance.get("software") or {})
    if measured_without_gpu(provenance):
        versions.pop("cuda", None)
    return versions


def software_signature(provenance: dict, backend: str | None) -> str:
    """``tensorrt=11.4.0.106`` style signature of the versions that matter
    (:func:`stated_software`: no CUDA version for a record measured without a GPU)."""
    versions = stated_software(provenance)
    names = BACKEND_SOFTWARE.get(backend or "", QUALITY_SOFTWARE)
    return ",".join(f"{n}={versions[n]}" for n in names if versions.get(n))


def _key_part(name: str, value) -> str:
    if value is None or value != value:  # None or NaN
        return ""
    if name == "batch" and value != "":
        return f"b{int(value)}"
    return str(value)
