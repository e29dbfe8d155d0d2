"""``collect run --shard auto``: the shard and the GPU of this process, from its launcher.

A study is sharded by its launcher, not by studygen: a Slurm job array runs
one task per shard, ``torchrun`` one process per GPU of a host. This module
reads what they set and pins the process to its GPU:

* Slurm job arrays (``sbatch --array=A-B[:S]``): ``SLURM_ARRAY_TASK_ID``,
  ``SLURM_ARRAY_TASK_COUNT``, ``SLURM_ARRAY_TASK_MIN`` and
  ``SLURM_ARRAY_TASK_STEP`` (Slurm's job_array documentation): shard
  K = (ID - MIN) / STEP + 1 of N = COUNT. Slurm hands each task its own GPUs
  (``--gres``, through ``CUDA_VISIBLE_DEVICES``), so the task uses the first
  device it sees.
* torchrun (``torch.distributed.run``): ``RANK``, ``WORLD_SIZE`` and
  ``LOCAL_RANK``: shard RANK + 1 of WORLD_SIZE on device LOCAL_RANK of the
  host.
* both (torchrun inside each task of an array): array task t of T and rank r
  of W give shard (t - 1) * W + r + 1 of T * W.

The record names the device it measured on (:func:`placement_record`):
torch's index in this process, the GPU's UUID and ``CUDA_VISIBLE_DEVICES``.
Nothing here imports torch at module level.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import UsageError
from .spec import parse_shard



@dataclass(frozen=True)
class Placement:
    """Where this process sits in a sharded run: ``shard`` (K, N), 1-based;
    ``launcher`` (``"slurm-array"``, ``"torchrun"``, ``"slurm-array+torchrun"``,
    or None for a shard given by hand); ``local_rank``: the device index on
    this host to pin to, None to use the first visible one."""

    shard: tuple[int, int] = (1, 1)
    launcher: str | None = None
    local_rank: int | None = None


def shard_option(text: str | None, environ: Mapping[str, str] | None = None) -> Placement:
    """The placement for ``--shard``: ``K/N`` as given, ``auto`` from the
    launcher's environment (``environ``, default ``os.environ``), None for
    the whole grid. Raises UsageError."""
    if text != "auto":
        return Placement(shard=parse_shard(text))
    return placement_from_environment(os.environ if environ is None else environ)


def placement_from_environment(environ: Mapping[str, str]) -> Placement:
    """Shard and local rank from a Slurm array's and/or torchrun's variables
    (module docstring). Raises UsageError when neither launcher set its
    variables, one of them is incomplete or not a number, or they name no
    shard of the array (an index list that is not a range with one step)."""
    array = _slurm_array(environ)
    ranks = _torchrun(environ)
    if array is None and ranks is None:
        raise UsageError("--shard auto: no launcher environment: expected SLURM_ARRAY_TASK_ID and "
                         "SLURM_ARRAY_TASK_COUNT (sbatch --array) or RANK and WORLD_SIZE (torchrun); "
                         "or give --shard K/N")
    if ranks is None:
        return Placement(shard=array, launcher="slurm-array")
    rank, world_size, local_rank = ranks
    if array is None:
        return Placement(shard=(rank + 1, world_size), launcher="torchrun", local_rank=local_rank)
    task, tasks = array
    return Placement(shard=((task - 1) * world_size + rank + 1, tasks * world_size),
                     launcher="slurm-array+torchrun", local_rank=local_rank)


def _integer(environ: Mapping[str, str], name: str, *, minimum: int) -> int | None:
    """``environ[name]`` as an integer >= ``minimum``; None when unset. Raises UsageError."""
    text = environ.get(name)
    if text is None or text.strip() == "":
        return None
    try:
        value = int(text.strip())
    except ValueError:
        raise UsageError(f"--shard auto: {name}={text!r} is not an integer") from None
    if value < minimum:
        raise UsageError(f"--shard auto: {name}={value} is below {minimum}")
    return value


def _pair(environ: Mapping[str, str], first: tuple[str, int], second: tuple[str, int], launcher: str):
    """The integers of two variables a launcher sets together (``(name, minimum)`` each), None when
    neither is set. Raises UsageError when only one is, or as :func:`_integer`."""
    values = [_integer(environ, name, minimum=minimum) for name, minimum in (first, second)]
    if values == [None, None]:
        return None
    if None in values:
        missing = (first if values[0] is None else second)[0]
        raise UsageError(f"--shard auto: {missing} is not set, but the other {launcher} variable is")
    return tuple(values)


def _slurm_array(environ: Mapping[str, str]) -> tuple[int, int] | None:
    """``(K, N)`` of this array task, None outside a job array."""
    pair = _pair(environ, ("SLURM_ARRAY_TASK_ID", 0), ("SLURM_ARRAY_TASK_COUNT", 1), "Slurm array")
    if pair is None:
        return None
    task_id, count = pair
    first = _integer(environ, "SLURM_ARRAY_TASK_MIN", minimum=0)
    first = 0 if first is None else first
    step = _integer(environ, "SLURM_ARRAY_TASK_STEP", minimum=1) or 1
    offset = task_id - first
    if offset < 0 or offset % step or offset // step >= count:
        raise UsageError(f"--shard auto: array task {task_id} is not one of {count} tasks from {first} in steps of "
                         f"{step} (SLURM_ARRAY_TASK_MIN/STEP/COUNT): submit the array as a range, "
                         "sbatch --array=A-B[:S]")
    return offset // step + 1, count


def _torchrun(environ: Mapping[str, str]) -> tuple[int, int, int | None] | None:
    """``(rank, world size, local rank)`` of a torchrun process, None outside torchrun."""
    pair = _pair(environ, ("RANK", 0), ("WORLD_SIZE", 1), "torchrun")
    if pair is None:
        return None
    rank, world_size = pair
    if rank >= world_size:
        raise UsageError(f"--shard auto: RANK={rank} is not below WORLD_SIZE={world_size}")
    return rank, world_size, _integer(environ, "LOCAL_RANK", minimum=0)


def device_index(local_rank: int | None, device_count: int) -> int:
    """The CUDA device index (in this process's numbering) for ``local_rank``
    among ``device_count`` visible devices: the local rank itself, 0 without
    one. Raises UsageError when there is no such device (two shards must not
    share a GPU by accident)."""
    index = 0 if local_rank is None else local_rank
    if index >= device_count:
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        shown = f" (CUDA_VISIBLE_DEVICES={visible})" if visible is not None else ""
        raise UsageError(f"--shard auto: LOCAL_RANK {index} needs device {index}, but this process sees "
                         f"{device_count} CUDA device(s){shown}: start at most one process per GPU")
    return index


def pin_cuda_device(local_rank: int | None):
    """Make CUDA device :func:`device_index` the current one
    (``torch.cuda.set_device``, so ``"cuda"`` means it for every stage) and
    return its ``torch.device``. Raises UsageError as :func:`device_index`."""
    import torch

    index = device_index(local_rank, torch.cuda.device_count())
    torch.cuda.set_device(index)
    return torch.device("cuda", index)


def placement_record(placement: Placement, device) -> dict:
    """The record's ``provenance.placement``: the shard, its launcher and local
    rank, and the device measured on (``device``, a torch.device): torch's
    index in this process, the GPU's UUID (``GPU-…``, as nvidia-smi prints
    it; None when torch does not report one) and ``CUDA_VISIBLE_DEVICES`` as
    the process inherited it (None when unset). On the CPU the three are None."""
    index = uuid = None
    if device.type == "cuda":
        import torch

        index = device.index if device.index is not None else torch.cuda.current_device()
        uuid = _uuid_text(getattr(torch.cuda.get_device_properties(index), "uuid", None))
    return {"shard": list(placement.shard), "launcher": placement.launcher, "local_rank": placement.local_rank,
            "gpu_index": index, "gpu_uuid": uuid,
            "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES") if device.type == "cuda" else None}


def _uuid_text(uuid) -> str | None:
    """torch's ``_CudaDeviceProperties.uuid`` (a UUID-like object) as ``GPU-<uuid>``."""
    if uuid is None:
        return None
    text = str(uuid)
    return text if text.startswith(("GPU-", "MIG-")) else f"GPU-{text}"

