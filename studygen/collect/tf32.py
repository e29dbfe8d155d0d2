"""Kernels of a Kineto trace whose names say they ran TF32 tensor-core math.

A variant declared fp32 is read by a study as full FP32 arithmetic, but on
Ampere and newer NVIDIA GPUs PyTorch lets cuDNN convolutions run in TF32 by
default (``torch.backends.cudnn.allow_tf32``), and matmuls where
``torch.backends.cuda.matmul.allow_tf32`` is set (its default before PyTorch
1.12) or ``torch.set_float32_matmul_precision("high")`` is called. The trace
does not record those settings; the kernels' names do. Two spellings were
seen on real traces:

- ``tf32`` in the name: cuDNN's and cuBLAS's xmma kernels
  (``sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_…``, in the
  HolisticTraceAnalysis AlexNet trace on an A100), and CUTLASS's
  (``cutlass_tensorop_s1688fprop_optimized_tf32_…``). ``3xtf32`` kernels are
  left out: they split each FP32 operand into three TF32 parts to keep FP32
  accuracy, which is the point of declaring fp32.
- a float-accumulating MMA of shape 16x8x8 or 16x8x4 (``s1688gemm``,
  ``s1684gemm``, also for ``fprop``/``dgrad``/``wgrad``) in a name that
  names no 16- or 8-bit input type: the only FP32-input tensor-core
  instructions of those shapes are TF32 ones. cuBLAS's embedded CUTLASS
  kernels are spelled so (``cutlass_80_tensorop_s1688gemm_128x128_32x5_…``,
  in HolisticTraceAnalysis's sampled DLRM trace on an A100); the same shape
  with FP16 or BF16 inputs says so (``ampere_s1688gemm_fp16_…``,
  ``turing_fp16_s1688gemm_fp16_…``) and is not TF32.

CUTLASS's own library names its kernels otherwise (``cutlass_tensorop_…``,
no architecture after ``cutlass``; cuDNN embeds kernels so named): a
TF32 kernel there names the type (``s1688tf32gemm`` for FP32 operands,
``_tf32_`` for TF32 ones), and ``cutlass_tensorop_s1688gemm_…`` of FP32
operands is the 3xTF32 kernel (``OpMultiplyAddFastF32``, as TVM's CUTLASS
back end writes one out), FP32 accuracy: the shape alone counts only in
names not of that library (cuBLAS's ``cutlass_80_…``, ``ampere_…``).

Names that say nothing of their math (``ampere_sgemm_…`` is FP32 SIMT,
``nvjet_…`` names no type) are never counted, so the note is a lower bound.
It is a note, never a refusal: the figures are what the GPU did.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .inputs import significant
from ..visible import shortened

TF32_WORD = re.compile("tf32")
# s + 1688/1684 + the operation: a float-accumulating m16n8k8/m16n8k4 tensor-core kernel
TF32_SHAPE = re.compile(r"(?<![a-z0-9])s168[48](?:gemm|fprop|dgrad|wgrad)", re.IGNORECASE)
# the same shape in CUTLASS's library naming (no architecture after "cutlass", an output type may come first),
# where it names no TF32: the 3xTF32 kernel of FP32 operands
LIBRARY_SHAPE = re.compile(r"(?<![a-z0-9])cutlass_(?:wmma_)?tensorop_(?:[a-z]+[0-9]*_)?s168[48](?:gemm|fprop|dgrad|wgrad)")
# an input type of 16 or 8 bits named as a token of the kernel's name (split at non-alphanumerics)
NARROW_INPUT = frozenset({"f16", "fp16", "h", "half", "bf16", "i8", "s8", "u8", "int8", "e4m3", "e5m2", "fp8"})
TOKEN = re.compile(r"[a-z0-9]+")
# characters of a kernel's name a note quotes: a note is held to 4000 characters by the record schema, and a
# trace is data (a templated kernel's name of 100 KB made the record its note went into invalid, so a
# trace collect could read was refused)
NAME_LIMIT = 200


def is_tf32_kernel(name: str) -> bool:
    """True when ``name`` (a kernel's name as the trace writes it) says the
    kernel ran TF32 tensor-core math, by the two spellings of the module
    docstring."""
    lowered = name.lower()
    if "3xtf32" in lowered:
        return False
    if TF32_WORD.search(lowered):
        return True
    if not TF32_SHAPE.search(lowered) or LIBRARY_SHAPE.search(lowered):
        return False
    return not any(token in NARROW_INPUT for token in TOKEN.findall(lowered))


def counted_launches(kernels: Iterable[tuple[str, float]], counts: Callable[[str], bool]) -> tuple | None:
    """``(count, launches, spent_ms, share, largest)`` of the kernel launches
    whose name ``counts``: how many of all launches, their time in ms, their
    share of the kernel time as text (``"17%"``; ``"no share"`` where the
    kernels took no time), and the name whose launches took the most (ties:
    the later name in sort order; shortened by :func:`quoted_name`); None when no launch counts. ``kernels``:
    ``(name, duration in ms)`` per launch. Shared by the notes on kernel
    names (:func:`tf32_note`, :func:`~studygen.collect.kernel_dtypes.other_type_note`)."""
    launches = list(kernels)
    spent_by_name: dict[str, float] = {}
    count = 0
    for name, dur_ms in launches:
        if counts(name):
            spent_by_name[name] = spent_by_name.get(name, 0.0) + dur_ms
            count += 1
    if not spent_by_name:
        return None
    spent = sum(spent_by_name.values())
    total = sum(dur for _, dur in launches)
    share = f"{spent / total:.0%}" if total else "no share"  # kernels of no time: no share to give
    largest = max(spent_by_name, key=lambda name: (spent_by_name[name], name))
    return count, len(launches), spent, share, quoted_name(largest)


def quoted_name(name: str) -> str:
    """``name`` as a note quotes it: whole up to :data:`NAME_LIMIT` characters, else its first
    ``NAME_LIMIT - 1`` and "…"."""
    return shortened(name, NAME_LIMIT)


def tf32_note(kernels: Iterable[tuple[str, float]], trace_name: str, variant: str, precision: str) -> str | None:
    """One line for the record's provenance notes (and stderr) when the
    variant is declared ``fp32`` and some kernels ran TF32; None otherwise.

    ``kernels``: ``(name, duration in ms)`` per kernel launch read from the
    trace; ``precision``: the variant's declared precision (the study
    file's, else the variant's name). Names the count of such launches of
    all, their time and share of the kernel time (3 significant digits) and
    the largest such kernel, each said to be at least that: a kernel whose
    name says nothing of its math (see the module docstring) may have run
    TF32 too, and is not counted."""
    if precision.lower() != "fp32":
        return None
    counted = counted_launches(kernels, is_tf32_kernel)
    if counted is None:
        return None
    count, launches, spent, share, largest = counted
    return (f"{trace_name}: at least {count} of {launches} kernel launches ran TF32 tensor-core math "
            f"({significant(spent, 3):g} ms, {share} of the kernel time; largest: {largest}; a lower bound, counted by "
            f"the kernels' names, which not every TF32 kernel's says), while variant {variant!r} is "
            "declared fp32: PyTorch lets cuDNN convolutions use TF32 by default on Ampere and newer GPUs "
            "(torch.backends.cudnn.allow_tf32), and matmuls where torch.backends.cuda.matmul.allow_tf32 is set "
            "(the default before PyTorch 1.12); these figures are not full-FP32 arithmetic")
