"""Kernels of a Kineto trace whose names say they ran on another 16-bit type
than the variant declares.

A variant declared fp16 is read by a study as FP16 arithmetic, but the trace
is whatever the model did: a checkpoint loaded in its saved dtype, an
autocast context left at its default (bfloat16 on CPU, and on GPU where a
script passes ``dtype=torch.bfloat16``) or a ``.half()`` forgotten in one
branch gives kernels of another type, and the figures then time bf16 work
labelled fp16 (a trial's ROCm traces of a model declared fp16 held only
bf16 kernels; nothing said so). The kernels' names often say which type
they ran on. Spellings read, each seen on real traces:

- a PyTorch kernel's template argument: ``c10::BFloat16`` (bf16),
  ``c10::Half``, ``__half`` and ``__half2`` (fp16), as in
  ``vectorized_layer_norm_kernel<c10::BFloat16, float>`` (an H100 and an
  MI300X trace of a small BERT) and ``FillFunctor<c10::Half>``, and CUTLASS's
  ``cutlass::bfloat16_t`` and ``cutlass::half_t`` (the H100 trace's flash
  attention kernels);
- a name's type word, a part of it between non-alphanumerics made of type
  names only: ``bf16`` in ``cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_…``
  and MIOpen's ``igemm_fwd_gtcx3_nhwc_bf16_…``, ``bf16bf16`` and ``bf16f32``
  (inputs bf16, accumulation f32) in cuBLAS's xmma kernels
  (``sm90_xmma_gemm_bf16bf16_bf16f32_f32_…``), ``fp16`` in
  ``ampere_fp16_s16816gemm_fp16_…``, ``f16f16`` in ``…_f16f16_f16f32_…``;
  a lone ``f16`` is not read: cuDNN's generated attention kernel
  ``…_flash_fprop_wgmma_f16_knob_…`` ran in the H200 study's bf16 forwards.

Names that name no type (Triton's ``triton_poi_fused_…``, rocBLAS's Tensile
``Cijk_…`` codes, ``nvjet_…``) are never counted, nor are names naming both
16-bit types, so the note is a lower bound. Variants of 8 or 4 bits are not
read: their models run their unquantized parts in 16 or 32 bits by design.
collect torch-profile notes such kernels (:mod:`studygen.collect.kernel_dtypes`) and check warns of them
(SG226): the figures are what the GPU did, not what the variant says.
"""

from __future__ import annotations

import re

# PyTorch's C++ scalar types as kernels' template arguments name them
_TEMPLATE_TYPES = {"c10::bfloat16": "bf16", "c10::half": "fp16", "__half": "fp16", "__half2": "fp16",
                   "__nv_bfloat16": "bf16", "__nv_bfloat162": "bf16", "cutlass::bfloat16_t": "bf16",
                   "cutlass::half_t": "fp16"}
_TEMPLATE_TYPE = re.compile("|".join(re.escape(name) for name in _TEMPLATE_TYPES) + r"(?![a-z0-9_])")
# a type word: one or more type names run together, nothing else (bf16 before f16: "bf16" is not "b" + "f16")
_TYPE_ATOM = r"(?:bf16|fp16|f16|fp32|f32|tf32|e4m3|e5m2|fp8|int8|i8|s8|u8|f64)"
_TYPE_WORD = re.compile(rf"(?<![a-z0-9]){_TYPE_ATOM}+(?![a-z0-9])")
_ATOM = re.compile(_TYPE_ATOM)
_SIXTEEN_BIT = {"bf16": "bf16", "fp16": "fp16", "f16": "fp16"}
# declared precision -> the 16-bit types whose kernels contradict it (a variant of 8 or 4 bits runs its unquantized
# parts in 16 or 32 bits by design: not read)
CONTRADICTING = {"fp16": {"bf16"}, "bf16": {"fp16"}, "fp32": {"bf16", "fp16"}, "tf32": {"bf16", "fp16"}}


def sixteen_bit_types(name: str) -> frozenset[str]:
    """The 16-bit types (``"bf16"``, ``"fp16"``) a kernel's ``name`` (as the
    trace writes it) says it ran on, by the spellings of the module
    docstring; empty for a name that says none."""
    lowered = name.lower()
    if "16" not in lowered and "half" not in lowered:
        return frozenset()  # each spelling above holds one or the other: the scans would find nothing (half of a study's names)
    found = {_TEMPLATE_TYPES[match.group(0)] for match in _TEMPLATE_TYPE.finditer(lowered)}
    for word in _TYPE_WORD.finditer(lowered):
        atoms = _ATOM.findall(word.group(0))
        if atoms == ["f16"]:
            continue  # a lone "f16" may name the 16-bit family: cuDNN's sdpa "wgmma_f16" kernel ran under bf16 too
        found.update(_SIXTEEN_BIT[atom] for atom in atoms if atom in _SIXTEEN_BIT)
    return frozenset(found)
