"""An ``--exportTimes`` array checked against itself: each iteration's
durations against its own timestamps, and the iterations in the order
trtexec wrote them.

trtexec writes every duration as the difference of two stamps of the same
iteration (``computeMs`` = ``endComputeMs`` − ``startComputeMs``), the host
latency as the sum of the H2D, compute and D2H durations, and sorts the
iterations by their H2D start (``sampleInference.cpp``, ``runInference``).
A duration off its stamps by more than the printing can explain (six
significant digits, :func:`printed_step`, of each of the three
figures) was not written by trtexec, and an H2D start earlier than the one
before it means iterations out of order: a file pasted twice into one array.
Either would reach the record's mean, max and coefficient of variation.

Which stamps a duration is the difference of, by key (checked where the
array has both stamps), as the fixtures show them (``../shared/fixtures``:
TensorRT 7 from Jetson and a ResNet-50 INT8 run, 8.x from TREx and
fuzzylabs, every iteration within half the allowance):

* ``computeMs``, ``h2dMs``, ``d2hMs``, ``outMs``: their own
  ``start…Ms``/``end…Ms`` pair;
* ``inMs``: ``startInMs``/``endInMs``, or TensorRT 7's swapped
  ``startEnqMs``/``endEnqMs`` (see :mod:`.times`);
* ``endToEndMs`` (TensorRT 7): from the input start, either stamp of the
  swap, to ``endOutMs``.
"""

from __future__ import annotations

import math

from ...errors import InputError
from ..inputs import is_number

PRINTED_DIGITS = 6  # std::ostream's default precision, what exportJSONTrace prints with

# duration key -> the (start, end) stamp pairs it may be the difference of; the first present pair that fits passes
STAMP_PAIRS = {
    "computeMs": (("startComputeMs", "endComputeMs"),),
    "h2dMs": (("startH2dMs", "endH2dMs"),),
    "d2hMs": (("startD2hMs", "endD2hMs"),),
    "inMs": (("startInMs", "endInMs"), ("startEnqMs", "endEnqMs")),
    "outMs": (("startOutMs", "endOutMs"),),
    "endToEndMs": (("startInMs", "endOutMs"), ("startEnqMs", "endOutMs")),
}
# latencyMs is the sum of one of these (8.2+ names, TensorRT 7 names)
LATENCY_PARTS = (("h2dMs", "computeMs", "d2hMs"), ("inMs", "computeMs", "outMs"))
# The stamps trtexec sorts the iterations by (its H2D start; TensorRT 7's writer may swap it with the enqueue
# start): iterations are out of order when every one of them the array holds goes backwards at once.
ORDER_KEYS = ("startH2dMs", "startEnqMs", "startInMs")


def printed_step(value: float) -> float:
    """The step of the last digit ``value`` was printed with: six significant
    digits (C++'s default, which drops trailing zeros, so ``3215`` may be
    3215.00), or more when the text shows more (``repr`` of the parsed
    float gives back its shortest source digits). 0 for 0 (no digit)."""
    if value == 0 or not math.isfinite(value):
        return 0.0
    mantissa = repr(abs(float(value))).lower().partition("e")[0].replace(".", "").lstrip("0")
    digits = max(PRINTED_DIGITS, len(mantissa.rstrip("0")) or 1)
    return 10.0 ** (math.floor(math.log10(abs(value))) - digits + 1)


def _allowance(*figures: float) -> float:
    """What printing ``figures`` with trtexec's digits may move their sum or difference by, in ms."""
    return sum(printed_step(figure) for figure in figures)


def _pair_misfit(item: dict, key: str) -> str | None:
    """Why the duration ``item[key]`` fits none of its stamp pairs, or None
    (it fits one, or the array holds no pair for it)."""
    duration = item[key]
    misfits = []
    for start_key, end_key in STAMP_PAIRS.get(key, ()):
        start, end = item.get(start_key), item.get(end_key)
        if not (is_number(start) and is_number(end)):
            continue
        allowed = _allowance(duration, start, end)
        if abs(duration - (end - start)) <= allowed:
            return None
        misfits.append(f"{end_key} − {start_key} is {end - start:.6g} ms")
    if not misfits:
        return None
    return f"{key} {duration:g} ms disagrees with its own stamps ({'; '.join(misfits)}, allowing {allowed:.3g} ms)"


def _latency_misfit(item: dict) -> str | None:
    """Why ``item``'s latencyMs is not the sum of its transfer and compute durations, or None."""
    latency = item.get("latencyMs")
    for parts in LATENCY_PARTS:
        values = [item.get(part) for part in parts]
        if is_number(latency) and all(is_number(value) for value in values):
            if abs(latency - sum(values)) <= _allowance(latency, *values):
                return None
            return (f"latencyMs {latency:g} ms is not {' + '.join(parts)} = {sum(values):.6g} ms "
                    f"(allowing {_allowance(latency, *values):.3g} ms)")
    return None


def check_iterations(items: list[dict], display: str, pointer: str) -> None:
    """Raise InputError, naming the file and the JSON pointer of the figure
    (``/3/computeMs``, under ``pointer``, the array's), at the first
    iteration of ``items`` (the objects of one array, durations already
    read as numbers) whose duration disagrees with its own stamps or whose
    latency is not the sum of its parts, or whose H2D start
    (:data:`ORDER_KEYS`) is earlier than the iteration's before it."""
    order_keys = [key for key in ORDER_KEYS if key in items[0]]
    for position, item in enumerate(items):
        for key in STAMP_PAIRS:
            if is_number(item.get(key)) and (misfit := _pair_misfit(item, key)):
                raise InputError(misfit, path=display, pointer=f"{pointer}/{position}/{key}")
        if misfit := _latency_misfit(item):
            raise InputError(misfit, path=display, pointer=f"{pointer}/{position}/latencyMs")
        if position and order_keys and all(_goes_back(items[position - 1], item, key) for key in order_keys):
            key = order_keys[0]
            raise InputError(f"{key} {item[key]:g} is before iteration {position - 1}'s {items[position - 1][key]:g}: "
                             "iterations out of order (a file repeated, or two runs joined into one array?)",
                             path=display, pointer=f"{pointer}/{position}/{key}")


def _goes_back(previous: dict, item: dict, key: str) -> bool:
    """True when ``item``'s stamp ``key`` is earlier than ``previous``'s (both numbers)."""
    before, now = previous.get(key), item.get(key)
    return is_number(before) and is_number(now) and now < before
