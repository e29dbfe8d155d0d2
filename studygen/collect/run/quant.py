"""FP8 with NVIDIA ModelOpt: the recipe as a quantization config, an audit of
every quantizer, and the real FP8 path.

A recipe (study file, ``recipes.<name>``) is data:

* ``quantize``: fnmatch patterns over module names; the ``nn.Linear`` modules
  they match (and no ``keep_high_precision`` pattern matches) run FP8.
* ``keep_high_precision``: fnmatch patterns; appended to ModelOpt's config as
  ``{"quantizer_name": PATTERN, "enable": False}``.
* ``disable_module_types``: e.g. ``nn.Conv2d``; appended as
  ``{"quantizer_name": "*", "parent_class": TYPE, "enable": False}``.
* ``modelopt_config``: the base config name (``FP8_DEFAULT_CFG``).

ModelOpt inserts quantizers wherever its config matches, including on modules
no recipe names (with transformers 5.17 and ModelOpt 0.47 the LayerNorm inputs
of Deformable DETR get enabled ``input_quantizer``s). :func:`quantize_fp8`
therefore audits **every** enabled quantizer after insertion and before any
calibration data flows: a quantizer that is not the input or weight quantizer
of a recipe module is disabled and named in the record.

``mtq.quantize`` alone is fake quantization (values are rounded to FP8 and
computed in fp16): it serves agreement only. :func:`compress_fp8` runs
``mtq.compress``, which stores FP8 weights and routes the recipe's Linears to
ModelOpt's FP8 per-tensor GEMM backend (``torch._scaled_mm``, Hopper or newer);
:func:`real_path_report` then says whether every recipe module found that
backend. Latency of an FP8 variant is taken only on that path.
"""

from __future__ import annotations

import copy
import fnmatch
import importlib
from dataclasses import dataclass, field

QUANTIZER_ROLES = ("input_quantizer", "weight_quantizer")


@dataclass
class QuantReport:
    """What quantization did: module names in FP8 (``quantized``), the Linear
    count (``total_linears``), enabled quantizers after the audit, and the
    quantizers ModelOpt enabled outside the recipe that the audit disabled."""

    recipe_name: str
    quantized: list[str]
    total_linears: int
    enabled_quantizers: int
    inserted_quantizers: int
    disabled_outside_recipe: list[str] = field(default_factory=list)
    recipe_without_quantizer: list[str] = field(default_factory=list)
    modelopt_config: str = "FP8_DEFAULT_CFG"


@dataclass
class RealPathReport:
    """After ``mtq.compress`` and one forward: modules on the FP8 GEMM backend,
    recipe modules that fell back (with the reason), enabled fake quantizers left."""

    real_gemm_modules: list[str]
    fallback_modules: list[str]
    fake_quantizers: list[str]
    reason: str | None = None

    @property
    def complete(self) -> bool:
        return self.reason is None


def _matches(name: str, patterns) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns or [])


def recipe_modules(model, recipe: dict) -> list[str]:
    """Names of the ``nn.Linear`` modules the recipe puts in FP8: matched by a
    ``quantize`` pattern and by no ``keep_high_precision`` pattern, in model order."""
    import torch

    keep = recipe.get("keep_high_precision") or []
    return [name for name, module in model.named_modules()
            if isinstance(module, torch.nn.Linear) and _matches(name, recipe["quantize"]) and not _matches(name, keep)]


def modelopt_config(recipe: dict) -> dict:
    """The ModelOpt quantization config for ``recipe``: a deep copy of the base
    config (``modelopt_config``, default ``FP8_DEFAULT_CFG``) with the keep and
    module-type exclusions appended (later entries win in ModelOpt 0.47)."""
    import modelopt.torch.quantization as mtq

    base_name = recipe.get("modelopt_config") or "FP8_DEFAULT_CFG"
    config = copy.deepcopy(getattr(mtq, base_name))
    entries = config["quant_cfg"]
    for pattern in recipe.get("keep_high_precision") or []:
        entries.append({"quantizer_name": pattern, "enable": False})
    for type_name in recipe.get("disable_module_types") or []:
        entries.append({"quantizer_name": "*", "parent_class": type_name, "enable": False})
    return config


def _quantizers(model):
    from modelopt.torch.quantization.nn import TensorQuantizer

    return [(name, module) for name, module in model.named_modules() if isinstance(module, TensorQuantizer)]


def audit_quantizers(model, allowed_modules: set[str]) -> list[str]:
    """Disable every enabled quantizer that is not the input or weight quantizer
    of a module in ``allowed_modules``; return their names (model order)."""
    disabled = []
    for name, quantizer in _quantizers(model):
        owner, _, role = name.rpartition(".")
        if quantizer.is_enabled and not (owner in allowed_modules and role in QUANTIZER_ROLES):
            quantizer.disable()
            disabled.append(name)
    return disabled


def quantize_fp8(model, recipe_name: str, recipe: dict, calibration_batches: list) -> QuantReport:
    """Quantize ``model`` in place (fake quantization) with ``recipe``; calibrate
    static per-tensor activation scales (ModelOpt ``max``) on ``calibration_batches``
    (pixel_values tensors already on the model's device and dtype).

    The audit (:func:`audit_quantizers`) runs inside the forward loop, after
    ModelOpt inserted its quantizers and before the first calibration batch.
    """
    import modelopt.torch.quantization as mtq
    import torch

    wanted = recipe_modules(model, recipe)
    wanted_set = set(wanted)
    total_linears = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    report = QuantReport(recipe_name=recipe_name, quantized=[], total_linears=total_linears, enabled_quantizers=0,
                         inserted_quantizers=0, modelopt_config=recipe.get("modelopt_config") or "FP8_DEFAULT_CFG")

    def forward_loop(quantized_model):
        report.inserted_quantizers = len(_quantizers(quantized_model))
        report.disabled_outside_recipe = audit_quantizers(quantized_model, wanted_set)
        with torch.no_grad():
            for pixel_values in calibration_batches:
                quantized_model(pixel_values=pixel_values)

    mtq.quantize(model, modelopt_config(recipe), forward_loop)
    enabled = [(n, q) for n, q in _quantizers(model) if q.is_enabled]
    report.enabled_quantizers = len(enabled)
    with_weight = {n.rpartition(".")[0] for n, _ in enabled if n.endswith(".weight_quantizer")}
    report.quantized = [name for name in wanted if name in with_weight]
    report.recipe_without_quantizer = [name for name in wanted if name not in with_weight]
    return report


def compress_fp8(model) -> None:
    """``mtq.compress``: FP8 weights in place, real-quant GEMM switched on for the quantized Linears.

    ModelOpt 0.47's ``backends`` package registers only its NVFP4 GEMM on import;
    the FP8 per-tensor GEMM (``torch._scaled_mm``) registers itself when its module
    is imported, so it is imported here. Without it every RealQuantLinear finds no
    backend and falls back to fake quantization (seen on an H200).
    """
    import modelopt.torch.quantization as mtq

    importlib.import_module("modelopt.torch.quantization.backends.fp8_per_tensor_gemm")  # registers the backend
    mtq.compress(model)


def real_path_report(model, quantized: list[str]) -> RealPathReport:
    """After compression **and one forward pass** (the backend is matched on the
    first call): which recipe modules run ModelOpt's real FP8 GEMM, which fall
    back to fake quantization, and which fake quantizers are still enabled.

    A module is on the real path when it is a RealQuantLinear with
    ``_use_real_quant_gemm`` set and a matched ``_real_quant_gemm_impl``.
    ``reason`` is None only when every recipe module is on it and no enabled
    quantizer fake-quantizes anything (input quantizers of real-path modules are
    read for their scale only; weight quantizers no longer fake-quantize).
    """
    modules = dict(model.named_modules())
    real, fallback = [], []
    for name in quantized:
        module = modules.get(name)
        on_path = (module is not None and getattr(module, "_use_real_quant_gemm", False)
                   and getattr(module, "_real_quant_gemm_impl", None) is not None)
        (real if on_path else fallback).append(name)
    real_set = set(real)
    fake = []
    for name, quantizer in _quantizers(model):
        owner, _, role = name.rpartition(".")
        if not quantizer.is_enabled:
            continue
        if owner in real_set and role in QUANTIZER_ROLES:
            continue
        fake.append(name)
    reason = None
    if fallback:
        reason = (f"{len(fallback)} of {len(quantized)} recipe Linears found no real FP8 GEMM backend in ModelOpt "
                  f"(first: {fallback[0]}); they would run fake quantization")
    elif fake:
        reason = f"{len(fake)} enabled quantizers would still fake-quantize (first: {fake[0]})"
    return RealPathReport(real_gemm_modules=real, fallback_modules=fallback, fake_quantizers=fake, reason=reason)


def fp8_linear_class():
    """``FP8Linear(weight_fp8, scale_a, scale_b, bias)``: a plain ``nn.Module`` whose
    forward is ModelOpt's FP8 per-tensor GEMM (``_fp8_gemm_impl``: cast the input
    to E4M3 with ``scale_a``, ``torch._scaled_mm`` with the E4M3 weight, output in
    the input's dtype), i.e. exactly what ModelOpt's RealQuantLinear runs, without
    ModelOpt's dynamic-module wrapper (which TorchDynamo cannot trace)."""
    import torch

    class _FP8Linear(torch.nn.Module):
        def __init__(self, weight_fp8, scale_a, scale_b, bias, gemm=None):
            super().__init__()
            self.register_buffer("weight_fp8", weight_fp8)
            self.register_buffer("scale_a", scale_a)
            self.register_buffer("scale_b", scale_b)
            self.register_buffer("bias", bias)
            self.gemm = gemm

        def forward(self, x):
            from modelopt.torch.quantization.backends.fp8_per_tensor_gemm import _fp8_gemm_impl

            gemm = self.gemm or _fp8_gemm_impl
            if x.dtype == torch.float32:  # _scaled_mm takes no bias with fp32 output (as ModelOpt does)
                out = gemm(x, self.weight_fp8, scale_a=self.scale_a, scale_b=self.scale_b, bias=None)
                return out + self.bias if self.bias is not None else out
            return gemm(x, self.weight_fp8, scale_a=self.scale_a, scale_b=self.scale_b, bias=self.bias)

    return _FP8Linear


def transplant_fp8(plain_model, compressed_model, quantized: list[str], gemm=None):
    """Put ModelOpt's FP8 Linears into ``plain_model`` (a high-precision copy of the
    same network without ModelOpt wrappers): each recipe module becomes an
    :func:`fp8_linear_class` module holding the E4M3 weight ``mtq.compress`` stored,
    and the scales ModelOpt's GEMM uses (its cached ``_scale_a``/``_scale_b`` after a
    forward on the real path, else amax / 448 as ModelOpt computes them).
    Returns ``plain_model``."""
    import torch
    from modelopt.torch.quantization.backends.fp8_per_tensor_gemm import _to_fp8

    fp8_linear = fp8_linear_class()
    modules = dict(compressed_model.named_modules())
    for name in quantized:
        source = modules[name]
        scale_a = getattr(source, "_scale_a", None)
        if scale_a is None:
            scale_a = source.input_quantizer.amax.float() / 448.0
        scale_b = getattr(source, "_scale_b", None)
        if scale_b is None:
            scale_b = source.weight_quantizer.amax.float() / 448.0
        weight = source.weight
        if weight.dtype == torch.float8_e4m3fn:
            weight_fp8 = weight.data
        else:
            weight_fp8 = _to_fp8(weight, scale_b)
        bias = source.bias.detach().clone() if source.bias is not None else None
        device = next(plain_model.parameters()).device
        plain_model.set_submodule(name, fp8_linear(weight_fp8.detach().clone().to(device), scale_a.detach().clone().to(device),
                                                   scale_b.detach().clone().to(device),
                                                   bias.to(device) if bias is not None else None, gemm))
    return plain_model
