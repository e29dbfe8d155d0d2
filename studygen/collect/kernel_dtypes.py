"""The note ``collect torch-profile`` keeps on kernels whose names say they ran
on another 16-bit type than the variant declares (the spellings read and why:
:mod:`studygen.records.kernel_dtypes`). It is a note, never a refusal: the
figures are what the GPU did; check warns of them (SG226).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..records.kernel_dtypes import CONTRADICTING, sixteen_bit_types
from .inputs import significant
from .tf32 import counted_launches


def other_type_note(kernels: Iterable[tuple[str, float]], trace_name: str, variant: str,
                    precision: str) -> str | None:
    """One line for the record's provenance notes (and stderr) when some
    kernels name a 16-bit type the declared ``precision`` contradicts (bf16
    under fp16; fp16 under bf16; either under fp32 or tf32), and name no
    other 16-bit type; None otherwise, and for any other precision.

    ``kernels``: ``(name, duration in ms)`` per kernel launch read from the
    trace. Names the count of such launches of all, their time and share of
    the kernel time (3 significant digits) and the largest such kernel, each
    a lower bound (names that say nothing of their type are not counted)."""
    contradicting = CONTRADICTING.get(precision.lower())
    if not contradicting:
        return None
    launches = list(kernels)

    def contradicts(name: str) -> bool:
        types = sixteen_bit_types(name)
        return len(types) == 1 and types <= contradicting

    counted = counted_launches(launches, contradicts)
    if counted is None:
        return None
    count, total, spent, share, largest = counted
    named = " or ".join(sorted({kind for name, _ in launches if contradicts(name) for kind in sixteen_bit_types(name)}))
    return (f"{trace_name}: at least {count} of {total} kernel launches name {named} data "
            f"({significant(spent, 3):g} ms, {share} of the kernel time; largest: {largest}; a lower bound, counted "
            f"by the kernels' names, which not every kernel's says), while variant {variant!r} is declared "
            f"{precision.lower()}: these figures time {named} work in part; check the dtype the model was loaded "
            "in and any autocast around it")
