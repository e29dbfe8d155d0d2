"""The measuring machine's provenance for a ``collect run`` record.

GPU model and count (torch.cuda), the CPU model
(:func:`studygen.collect.env.cpu_model`: what measured a run without a CUDA
device), driver (NVML through
:func:`studygen.collect.env.nvml_gpus`), versions of torch, CUDA,
transformers, ModelOpt, timm and scikit-image (installed package metadata),
the repository commit, the time collected (UTC) and the collector's own
name, version and command line. A value that cannot be read is None, never
guessed.
"""

from __future__ import annotations

import datetime as _dt
import platform
from pathlib import Path

from ...records.unstated import RUN_COLLECTOR
from ..env import collector_block, cpu_model, git_state, nvml_gpus, package_version

# provenance.software name -> distribution names
DISTRIBUTIONS = {"transformers": ("transformers",), "modelopt": ("nvidia-modelopt",),
                 "timm": ("timm",), "scikit-image": ("scikit-image",)}


def collect_provenance(*, root: Path, checkpoint: dict, commit: str | None, command: str, dataset_revision: str | None,
                       dirty: bool | None = None, on_gpu: bool = True) -> dict:
    """The record's ``provenance`` block (schemas/run_record.schema.json).

    ``on_gpu`` False (``--cpu``): the run is timed on the CPU, so the record
    names no GPU (``gpu`` None, ``gpu_count`` 0) and its figures are keyed
    and shown under the CPU model, also on a machine with a CUDA device (a
    note names the device left unused): a CPU latency recorded under the
    machine's GPU read as that GPU's.

    ``commit`` and ``dirty`` when given (a checkout without .git), else
    ``git rev-parse HEAD`` and ``git status`` in ``root``, read once: the
    collector's version comes from the same reading when studygen runs from
    that checkout (:func:`studygen.collect.env.collector_block`);
    ``checkpoint`` as :func:`~studygen.collect.run.model.build_model` returns it.
    """
    import torch

    cuda = torch.cuda.is_available()
    unused_gpu = torch.cuda.get_device_name() if cuda and not on_gpu else None
    gpu = torch.cuda.get_device_name() if cuda and on_gpu else None  # the current (pinned) device
    software = {
        # a --cpu run ran no CUDA: torch.version.cuda names only the toolkit torch was built with
        "torch": torch.__version__, "cuda": torch.version.cuda if on_gpu else None,
        "transformers": package_version(DISTRIBUTIONS["transformers"]),
        "modelopt": package_version(DISTRIBUTIONS["modelopt"]), "timm": package_version(DISTRIBUTIONS["timm"]),
        "python": platform.python_version(), "scikit-image": package_version(DISTRIBUTIONS["scikit-image"]),
        "tensorrt": None,
    }
    if commit is None:
        commit, dirty = git_commit(root)
    cpu, cpu_problem = cpu_model()
    provenance = {
        "gpu": gpu,
        "gpu_count": torch.cuda.device_count() if gpu else 0,
        "cpu": cpu,
        "driver": nvml_gpus()[1] if gpu else None,  # None when NVML is absent or fails
        "software": software,
        "checkpoint": checkpoint,
        "dataset_revision": dataset_revision,
        "repository_commit": commit,
        "repository_dirty": dirty,
        "collected_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "collector": collector_block(RUN_COLLECTOR, root, reading=(commit, dirty), command=command),
    }
    if gpu:
        provenance["notes"] = [f"torch.backends.cuda.matmul.allow_tf32={torch.backends.cuda.matmul.allow_tf32}, "
                               f"torch.backends.cudnn.allow_tf32={torch.backends.cudnn.allow_tf32} (fp32 convolutions may use TF32)"]
    elif unused_gpu:
        provenance["notes"] = [f"--cpu: timed with the host clock and profiled CPU operators; this machine's CUDA "
                               f"device ({unused_gpu}) was not used"]
    else:
        provenance["notes"] = ["no CUDA device: timed with the host clock, profiled CPU operators"]
    if cpu_problem:
        provenance["notes"].append(cpu_problem)
    return provenance


def git_commit(root: Path) -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the work tree at ``root`` (see
    :func:`studygen.collect.env.git_state`: a changed tracked file makes it
    dirty, an untracked one does not); None where git cannot tell."""
    commit, dirty, _ = git_state(root)
    return commit, dirty
