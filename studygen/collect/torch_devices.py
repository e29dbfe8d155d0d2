"""Which device's kernels a Kineto trace's kernel time is read from.

A kernel time per group is the time one GPU spent in each group per
iteration. A trace holding the kernels of several devices (one process
driving two GPUs, or traces of two ranks merged into one file) holds one
such figure per device: summing them would record the attention of a step
run on GPU 0 and on GPU 1 as one GPU spending twice as long, which no GPU
did. So a trace whose kernels ran on more than one device (``args.device``;
a kernel naming none counts as a device of its own, "not stated") is
refused unless ``--device N`` names the one to read; then only that
device's kernels are read, and a note says how many of how many launches,
and which devices the trace holds. Never a sum across devices.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable

from ..errors import InputError, UsageError


def _device_words(device: int | None) -> str:
    return "device not stated" if device is None else f"device {device}"


def _counts_words(counts: collections.Counter) -> str:
    """``device 0 (60 kernel launches), device 1 (60 kernel launches)``, by device index, "not stated" last."""
    order = sorted(counts, key=lambda device: (device is None, device or 0))
    return ", ".join(f"{_device_words(device)} ({counts[device]} kernel launches)" for device in order)


def one_device(kernel_events: list[tuple], device: int | None, display: str) -> tuple[list[tuple], str | None]:
    """The kernels of one device, and a note when others were left out.

    ``kernel_events``: ``(name, dur µs, ts µs, device or None, correlation)``
    per kernel launch, as :func:`studygen.collect.torch_profile.parse_trace`
    collects them; ``device``: the ``--device`` index, None when not given.
    Returns them all when they ran on one device and none was named.
    Raises InputError (the file named) when they ran on several and none was
    named, UsageError when the named device ran none of them."""
    counts = collections.Counter(event[3] for event in kernel_events)
    if device is None:
        if len(counts) > 1:
            raise InputError(f"its kernels ran on {len(counts)} devices: {_counts_words(counts)}; a kernel time "
                             "per group is one GPU's and is never summed across devices: name the one to read "
                             "with --device N", path=display)
        return kernel_events, None
    kept = [event for event in kernel_events if event[3] == device]
    if not kept:
        raise UsageError(f"--device {device}: no kernel of {display} ran on it; its kernels ran on "
                         f"{_counts_words(counts)}")
    if len(counts) == 1:
        return kept, None
    return kept, (f"kernels of device {device} only (--device {device}): {len(kept)} of {len(kernel_events)} kernel "
                  f"launches; the trace holds {_counts_words(counts)}")


# The top-level key a trace lists its devices under: Kineto writes
# "deviceProperties"; traces of 2021 (the kineto tb_plugin test input, a V100
# DGX) wrote the same list as "computeProperties". A trace may carry both, the
# newer one empty (a writer that emits the key before it knows any device): the
# first key whose list names a device is read, so an empty list never hides a
# model the other key names; and where the kernels' devices are known, the first
# whose list names every one of them, so a list naming other devices never hides
# the one that names theirs.
DEVICE_LIST_KEYS = ("deviceProperties", "computeProperties")


def _entries(listed) -> list[dict]:
    return [entry for entry in listed if isinstance(entry, dict)] if isinstance(listed, list) else []


def _named(entries: list[dict]) -> dict[int, str]:
    return {entry["id"]: entry["name"] for entry in entries
            if isinstance(entry.get("id"), int) and not isinstance(entry.get("id"), bool)
            and isinstance(entry.get("name"), str)}


def device_list_key(top: dict, kernel_devices: Iterable[int | None] = ()) -> str | None:
    """The key of :data:`DEVICE_LIST_KEYS` the trace's devices are read
    from: the first whose list names every device of ``kernel_devices``
    (the devices the kernels ran on; None, a kernel naming none, is left
    out), else the first whose list names a device (an entry with an integer
    ``id`` and a string ``name``), else the first holding any object, else
    None. A present but empty ``deviceProperties`` (``[]``) so gives way to
    a ``computeProperties`` that names the GPU, and a ``deviceProperties``
    naming device 0 alone to a ``computeProperties`` naming device 1, where
    the kernels ran."""
    ran_on = {device for device in kernel_devices if device is not None}
    if ran_on:
        key = next((key for key in DEVICE_LIST_KEYS if ran_on <= _named(_entries(top.get(key))).keys()), None)
        if key is not None:
            return key
    for wanted in (_named, _entries):
        key = next((key for key in DEVICE_LIST_KEYS if wanted(_entries(top.get(key)))), None)
        if key is not None:
            return key
    return None


def device_entries(top: dict) -> list[dict]:
    """The device objects a trace lists (``[{"id": 0, "name": "NVIDIA H100",
    …}, …]``), under :func:`device_list_key`; entries that are not objects
    are left out. Empty when none is listed."""
    key = device_list_key(top)
    return _entries(top[key]) if key else []


def device_names(top: dict, kernel_devices: Iterable[int | None] = ()) -> dict[int, str]:
    """Device index to model name, of the entries under
    :func:`device_list_key` (given ``kernel_devices``) whose ``id`` is an
    integer and ``name`` a string."""
    key = device_list_key(top, kernel_devices)
    return _named(_entries(top[key])) if key else {}


def distributed_info(top: dict) -> dict | None:
    """The rank of a distributed job a trace was recorded in, from Kineto's
    top-level ``distributedInfo`` (``{"backend": "nccl", "rank": 0,
    "world_size": 8, …}``): ``{"rank", "world_size"}`` and ``backend`` when
    named. None when the trace states no rank and world size as integers
    (the AlexNet fixture writes ``{"rank": 0}`` alone) or the world is one
    rank: then no other rank's work is in its figures."""
    info = top.get("distributedInfo")
    if not isinstance(info, dict):
        return None
    rank, world_size = info.get("rank"), info.get("world_size")
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (rank, world_size)) \
            or world_size < 2 or not 0 <= rank < world_size:
        return None
    found = {"rank": rank, "world_size": world_size}
    if isinstance(info.get("backend"), str) and info["backend"].strip():
        found["backend"] = info["backend"].strip()
    return found
