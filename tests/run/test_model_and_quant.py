"""Model building (random-init and a local checkpoint) and the FP8 recipe with ModelOpt, on the CPU.

Counts for the tiny model are worked out in tests/run/conftest.py's docstring.
"""

from __future__ import annotations

import copy
import warnings
from pathlib import Path

import pytest
import torch
import yaml

from studygen.collect.run.model import build_model, count_modules
from studygen.errors import InputError, RecordError

from .conftest import TINY_STUDY

warnings.filterwarnings("ignore")


def model_spec():
    return yaml.safe_load(TINY_STUDY)["model"]


@pytest.fixture(scope="module")
def tiny():
    model, checkpoint = build_model(model_spec(), root=Path("."), study_path="s.yaml")
    return model, checkpoint


def test_random_init_is_seeded_and_recorded(tiny):
    model, checkpoint = tiny
    assert type(model).__name__ == "DeformableDetrForObjectDetection"
    assert checkpoint["weights"] == "random-init" and checkpoint["seed"] == 7
    assert checkpoint["config"]["decoder_layers"] == 2
    again, _ = build_model(model_spec(), root=Path("."), study_path="s.yaml")
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), again.state_dict().values()))
    other_spec = dict(model_spec(), seed=8)
    other, _ = build_model(other_spec, root=Path("."), study_path="s.yaml")
    assert not torch.equal(model.class_embed[0].weight, other.class_embed[0].weight)
    assert count_modules(model, "Linear") == 35


def test_local_checkpoint_loads_without_a_hub(tiny, tmp_path):
    model, _ = tiny
    model.save_pretrained(tmp_path / "ckpt")
    spec = dict(model_spec(), weights="pretrained", local_dir="ckpt")
    loaded, checkpoint = build_model(spec, root=tmp_path, study_path="s.yaml")
    assert checkpoint["weights"] == "pretrained" and checkpoint["local_dir"] == "ckpt"
    assert torch.equal(loaded.class_embed[0].weight, model.class_embed[0].weight)
    with pytest.raises(InputError, match="no config.json"):
        build_model(dict(spec, local_dir="missing"), root=tmp_path, study_path="s.yaml")


def test_bad_model_entries_name_their_pointer():
    with pytest.raises(RecordError) as caught:
        build_model(dict(model_spec(), hf_class="NoSuchModel"), root=Path("."), study_path="s.yaml")
    assert caught.value.where == "/model/hf_class"
    config = dict(model_spec()["config"])
    del config["model_type"]
    with pytest.raises(RecordError) as caught:
        build_model(dict(model_spec(), config=config), root=Path("."), study_path="s.yaml")
    assert caught.value.where == "/model/config"
    with pytest.raises(RecordError) as caught:
        build_model(dict(model_spec(), seed=None), root=Path("."), study_path="s.yaml")
    assert caught.value.where == "/model/seed"


@pytest.fixture(scope="module")
def quantized(tiny):
    from studygen.collect.run.quant import quantize_fp8

    model, _ = tiny
    recipe = yaml.safe_load(TINY_STUDY)["recipes"]["linears"]
    fake = copy.deepcopy(model)
    batch = torch.randn(1, 3, 64, 96, generator=torch.Generator().manual_seed(0))
    report = quantize_fp8(fake, "linears", recipe, [batch])
    return model, fake, report, batch


def test_recipe_selects_20_of_35_linears_and_the_audit_disables_layer_norm_quantizers(quantized):
    from modelopt.torch.quantization.nn import TensorQuantizer

    _, fake, report, _ = quantized
    assert len(report.quantized) == 20 and report.total_linears == 35
    assert report.recipe_without_quantizer == []
    assert "model.decoder.layers.1.self_attn.o_proj" in report.quantized
    assert not any("sampling_offsets" in n or "attention_weights" in n or "embed" in n for n in report.quantized)
    # ModelOpt's FP8_DEFAULT_CFG also enables the LayerNorm input quantizers; the audit turned those 8 off
    assert report.disabled_outside_recipe == [
        "model.encoder.layers.0.self_attn_layer_norm.input_quantizer",
        "model.encoder.layers.0.final_layer_norm.input_quantizer",
        *[f"model.decoder.layers.{i}.{n}.input_quantizer" for i in (0, 1)
          for n in ("self_attn_layer_norm", "encoder_attn_layer_norm", "final_layer_norm")],
    ]
    enabled = [n for n, q in fake.named_modules() if isinstance(q, TensorQuantizer) and q.is_enabled]
    assert report.enabled_quantizers == len(enabled) == 40  # input and weight quantizer of each of the 20
    assert {n.rpartition(".")[0] for n in enabled} == set(report.quantized)
    assert report.inserted_quantizers > report.enabled_quantizers


def test_fake_quantization_changes_outputs_a_little(quantized):
    model, fake, _, batch = quantized
    with torch.no_grad():
        reference = model(pixel_values=batch).logits
        simulated = fake(pixel_values=batch).logits
    difference = float((reference - simulated).abs().max())
    assert 0 < difference < 0.1 * float(reference.abs().max())


def test_compression_on_cpu_finds_no_real_fp8_gemm_and_says_so(quantized):
    from modelopt.torch.quantization.backends.fp8_per_tensor_gemm import Fp8PerTensorLinear, _fp8_gemm_impl
    from modelopt.torch.quantization.backends.gemm_registry import gemm_registry

    from studygen.collect.run.quant import compress_fp8, real_path_report, transplant_fp8

    model, fake, report, batch = quantized
    compressed = copy.deepcopy(fake)
    with torch.no_grad():
        simulated = compressed(pixel_values=batch).logits
    compress_fp8(compressed)
    assert Fp8PerTensorLinear.apply in gemm_registry  # compress_fp8 registers ModelOpt's FP8 GEMM backend
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        compressed(pixel_values=batch)
    path = real_path_report(compressed, report.quantized)
    assert path.real_gemm_modules == [] and len(path.fallback_modules) == 20
    assert not path.complete
    assert path.reason.startswith("20 of 20 recipe Linears found no real FP8 GEMM backend")
    # the plain model with ModelOpt's FP8 weights and scales computes what fake quantization simulates
    plain = transplant_fp8(copy.deepcopy(model), compressed, report.quantized,
                           gemm=_fp8_gemm_impl._torchdynamo_orig_callable)
    assert type(plain.model.encoder.layers[0].mlp.fc1).__name__ == "_FP8Linear"
    assert plain.model.encoder.layers[0].mlp.fc1.weight_fp8.dtype == torch.float8_e4m3fn
    with torch.no_grad():
        real = plain(pixel_values=batch).logits
    assert float((real - simulated).abs().max()) < 1e-5 * float(simulated.abs().max())
