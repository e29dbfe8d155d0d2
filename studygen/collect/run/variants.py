"""The variants of a run on the device: cast copies of the fp32 model, FP8 by ModelOpt.

fp32, fp16 and bf16 are copies of the base model cast to their dtype. FP8 is a
fp16 copy whose recipe modules ModelOpt quantizes (fake quantization,
calibrated on the calibration set at the agreement shape: the ``quantization``
result), then compresses to real FP8 weights before it is timed
(:func:`compress`); compiled FP8 times a transplanted plain model
(:func:`prepare_fp8_compile`).
"""

from __future__ import annotations

import copy
import time

from ...errors import StudygenError
from ...records.kinds import Kind
from .context import RunContext, Variant
from .quant import RealPathReport, compress_fp8, quantize_fp8, real_path_report, transplant_fp8

DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp8": "float16"}


def build_variant(run: RunContext, name: str) -> Variant:
    """Variant ``name`` on the run's device; FP8 quantized and calibrated, its
    ``quantization`` result recorded unless the record already holds it."""
    import torch

    precision = run.plan.precision(name)
    dtype = getattr(torch, DTYPES[precision])
    model = copy.deepcopy(run.base_model).to(device=run.device, dtype=dtype).eval()
    variant = Variant(name=name, precision=precision, model=model, dtype=dtype)
    if precision == "fp8":
        _quantize(run, variant)
    return variant


def _quantize(run: RunContext, variant: Variant) -> None:
    recipe_name = run.plan.variants[variant.name]["recipe"]
    height, width = run.agreement_hw
    batches = [run.pixel_values(photo, height, width, variant.dtype) for photo in run.calibration.photos]
    began = time.perf_counter()
    variant.quant = calibrate(variant.name, recipe_name,
                              lambda: quantize_fp8(variant.model, recipe_name, run.plan.recipes[recipe_name], batches))
    quant = variant.quant
    run.progress.log(f"{variant.name}: {len(quant.quantized)} of {quant.total_linears} Linears in FP8; "
                     f"{len(quant.disabled_outside_recipe)} quantizers outside the recipe disabled; "
                     f"calibrated on {len(batches)} images in {time.perf_counter() - began:.1f} s")
    if not run.sink.has(Kind.QUANTIZATION, variant.name, run.plan.agreement_shape):
        run.sink.add(quantization_result(variant.name, quant, run.calibration.dataset_id, len(batches),
                                         run.plan.agreement_shape))


def quantization_result(name: str, quant, dataset_id: str, calibration_images: int, shape: str) -> dict:
    """The ``quantization`` result of FP8 variant ``name`` from its
    :class:`~studygen.collect.run.quant.QuantReport`."""
    result = {
        "kind": Kind.QUANTIZATION, "variant": name, "quantized_modules": len(quant.quantized),
        "total_modules": quant.total_linears, "module_type": "Linear", "module_names": quant.quantized,
        "enabled_quantizers": quant.enabled_quantizers, "inserted_quantizers": quant.inserted_quantizers,
        "disabled_outside_recipe": quant.disabled_outside_recipe, "recipe": quant.recipe_name,
        "modelopt_config": quant.modelopt_config, "calibration_images": calibration_images,
        "dataset": dataset_id, "shape": shape,
    }
    if quant.recipe_without_quantizer:
        result["note"] = ("recipe modules left without an enabled weight quantizer: "
                          + ", ".join(quant.recipe_without_quantizer))
    return result


def calibrate(name: str, recipe_name: str, calibrate_now):
    """``calibrate_now()`` (ModelOpt quantization and calibration of variant
    ``name``) with any exception it raises turned into one StudygenError line
    naming the stage and the variant (ModelOpt reports a NaN amax, for one, as
    a bare AssertionError)."""
    try:
        return calibrate_now()
    except StudygenError:
        raise
    except Exception as exc:  # noqa: BLE001 -- any failure inside ModelOpt ends the run in one line
        first_line = (str(exc).strip().splitlines() or [""])[0]
        reason = f"{type(exc).__name__}: {first_line}" if first_line else type(exc).__name__
        raise StudygenError(f"variant {name}: FP8 quantization with ModelOpt (recipe {recipe_name}, calibration) "
                            f"failed: {reason}") from None


def compress(run: RunContext, variant: Variant) -> None:
    """``mtq.compress`` the FP8 variant, run one forward (the GEMM backend is
    matched on the first call) and audit its real FP8 path into ``variant.real_path``."""
    compress_fp8(variant.model)
    height, width = run.agreement_hw
    pixel_values = run.pixel_values(run.agreement.photos[0], height, width, variant.dtype)
    try:
        variant.model(pixel_values=pixel_values)
    except Exception as exc:  # noqa: BLE001 - recorded as the reason FP8 latency was not measured
        variant.real_path = RealPathReport([], list(variant.quant.quantized), [],
                                           reason=f"the compressed model failed its first forward: {type(exc).__name__}: {exc}")
        return
    variant.real_path = real_path_report(variant.model, variant.quant.quantized)
    report = variant.real_path
    run.progress.log(f"{variant.name}: after mtq.compress {len(report.real_gemm_modules)} Linears on the real FP8 GEMM, "
                     f"{len(report.fallback_modules)} fell back, {len(report.fake_quantizers)} fake quantizers enabled")


def prepare_fp8_compile(run: RunContext, variant: Variant) -> None:
    """TorchDynamo (torch 2.11) cannot trace ModelOpt's dynamic modules (AttributeError in
    ``modelopt.torch.opt.dynamic._FoldedCallback``), so compiled FP8 runs a plain fp16 copy of the
    model whose recipe Linears call ModelOpt's FP8 GEMM with the weights and scales ``mtq.compress``
    produced (:func:`~studygen.collect.run.quant.transplant_fp8`). Its logits are compared with
    ModelOpt's own real path on one image before it is used."""
    if variant.compile_model is not None:
        return
    plain = copy.deepcopy(run.base_model).to(device=run.device, dtype=variant.dtype).eval()
    plain = transplant_fp8(plain, variant.model, variant.quant.quantized)
    height, width = run.agreement_hw
    pixel_values = run.pixel_values(run.agreement.photos[0], height, width, variant.dtype)
    reference = variant.model(pixel_values=pixel_values).logits.float()
    transplanted = plain(pixel_values=pixel_values).logits.float()
    difference = float((reference - transplanted).abs().max())
    variant.compile_model = plain
    variant.compile_note = (f"compiled FP8 runs a plain fp16 copy of the model whose {len(variant.quant.quantized)} recipe "
                            f"Linears call ModelOpt's FP8 GEMM (_fp8_gemm_impl: E4M3 cast, torch._scaled_mm) with the "
                            f"weights and scales mtq.compress produced, because TorchDynamo cannot trace ModelOpt's "
                            f"module wrappers; its logits differ from ModelOpt's eager real path by at most "
                            f"{difference:.3g} on one image at {height}x{width}")
    run.progress.log(f"{variant.name}: transplanted FP8 model, max |logit difference| vs ModelOpt real path {difference:.3g}")
