"""SG226 kernels of another precision than the variant's: a kernel-time result
whose listed kernels' names say they ran on a 16-bit type the variant's
declared precision contradicts (bf16 kernels under fp16; fp16 under bf16;
either under fp32 or tf32), by the spellings of
:mod:`studygen.records.kernel_dtypes` (a PyTorch template argument
``c10::BFloat16``, a type word ``bf16bf16_bf16f32``). A warning at the result,
naming how many launches and how much of the listed kernel time, each a lower
bound: a name that says nothing of its type is not counted, and a name naming
both types neither. Variants of 8 or 4 bits are not read (their unquantized
parts run in 16 or 32 bits by design).

Why: the README's table heads those figures with the variant ("fp32 (ms)")
and its decision compares variants by them; a model loaded in its saved
dtype, or an autocast left on, times other work than the study says.

Case (a new user from the README, session 28): the H100 BERT trace collected
under variant fp32 rendered as fp32 kernel time and check said nothing,
where 58 of its 60 launches name bf16 (98 % of the kernel time); collect's
note sat among the provenance notes at the bottom of the README.
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from ..records.kernel_dtypes import CONTRADICTING, sixteen_bit_types
from ..records.kinds import Kind
from ..rules import code_of
from .base import row_finding

CODE = code_of("studygen.checks.sg226_kernel_dtypes")
HINT = ("check the dtype the model was loaded in and any autocast around it, then profile again; or declare the "
        "variant with the precision it ran in")


def contradicting_kernels(result: dict, precision: str) -> tuple[int, int, float, float, str] | None:
    """``(launches counted, launches listed, their time in ms, listed kernel time in ms, the 16-bit types
    named)`` of a kernel-time ``result``'s listed kernels (``groups[*].kernels[*]``: name, time_ms, calls;
    a schema-checked result)
    whose names contradict ``precision``; None where none does or the precision is not read."""
    contradicting = CONTRADICTING.get((precision or "").lower())
    if not contradicting:
        return None
    counted = listed = 0
    spent = total = 0.0
    named: set[str] = set()
    for group in result.get("groups") or ():
        for kernel in group.get("kernels") or ():
            # name and time_ms are required by the schema; a kernel listed without calls is one launch
            calls, time_ms = kernel.get("calls", 1), kernel["time_ms"]
            listed, total = listed + calls, total + time_ms
            types = sixteen_bit_types(kernel["name"])
            if len(types) == 1 and types <= contradicting:
                counted, spent = counted + calls, spent + time_ms
                named |= types
    return (counted, listed, spent, total, " or ".join(sorted(named))) if counted else None


def check(context) -> list[Finding]:
    findings, seen = [], set()
    for row in context.study.rows:
        if row.kind != Kind.KERNEL_TIME or id(row.result) in seen:
            continue
        seen.add(id(row.result))
        found = contradicting_kernels(row.result, row.precision)
        if found is None:
            continue
        counted, listed, spent, total, named = found
        share = f", {spent / total:.0%} of the listed kernel time" if total else ""
        findings.append(row_finding(
            CODE, row, f"kernel time of {row.variant} (declared {row.precision}, job {row.job_id}): at least {counted} of "
            f"the {listed} listed kernel launches name {named} data ({format_number(spent, 3)} ms{share}), so these figures "
            f"time {named} work in part", hint=HINT))
    return findings
