"""A tiny project for ``collect run`` on the CPU: a Deformable DETR of the same
class as the study (DeformableDetrForObjectDetection) with a small ResNet
backbone from transformers (no timm download), 1 encoder and 2 decoder layers
(transformers 5.17 refuses fewer than 2 decoder layers), d_model 32, 10
queries, 5 labels; photographs from skimage.data resized to 64x96 and 96x64.

Tiny model, recipe counts (read off the architecture by hand):
  Linears: encoder 1 layer x 6 (sampling_offsets, attention_weights, value_proj,
  output_proj, fc1, fc2) + decoder 2 layers x 10 (q/k/v/o_proj, sampling_offsets,
  attention_weights, value_proj, output_proj, fc1, fc2) + reference_points 1 +
  class_embed 2 + bbox_embed 2 x 3 = 6 + 20 + 1 + 2 + 6 = 35.
  Recipe: encoder value_proj, output_proj, fc1, fc2 (4) + decoder q/k/v/o_proj,
  value_proj, output_proj, fc1, fc2 (2 x 8 = 16) = 20 FP8 Linears.
  LayerNorms with an input quantizer that ModelOpt enables outside the recipe:
  encoder 2 + decoder 2 x 3 = 8.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

TINY_STUDY = """\
schema_version: 1
family: tiny
title: tiny Deformable DETR on the CPU
template: tiny.md.j2
model:
  id: tiny-deformable-detr
  hf_class: DeformableDetrForObjectDetection
  weights: random-init
  seed: 7
  config:
    model_type: deformable_detr
    use_timm_backbone: false
    backbone_config:
      model_type: resnet
      embedding_size: 8
      hidden_sizes: [8, 16, 32, 64]
      depths: [1, 1, 1, 1]
      layer_type: basic
      out_features: [stage2, stage3, stage4]
    encoder_layers: 1
    decoder_layers: 2
    d_model: 32
    encoder_ffn_dim: 64
    decoder_ffn_dim: 64
    encoder_attention_heads: 2
    decoder_attention_heads: 2
    num_queries: 10
    num_labels: 5
variants:
  - {name: fp32, precision: fp32}
  - {name: fp16, precision: fp16}
  - {name: bf16, precision: bf16}
  - {name: fp8, precision: fp8, recipe: linears}
recipes:
  linears:
    quantize:
      - "model.encoder.layers.*.self_attn.value_proj"
      - "model.encoder.layers.*.self_attn.output_proj"
      - "model.encoder.layers.*.mlp.fc1"
      - "model.encoder.layers.*.mlp.fc2"
      - "model.decoder.layers.*.self_attn.[qkvo]_proj"
      - "model.decoder.layers.*.encoder_attn.value_proj"
      - "model.decoder.layers.*.encoder_attn.output_proj"
      - "model.decoder.layers.*.mlp.fc1"
      - "model.decoder.layers.*.mlp.fc2"
    keep_high_precision: ["*sampling_offsets*", "*attention_weights*", "*class_embed*", "*bbox_embed*",
                          "*backbone*", "*input_proj*", "*reference_points*"]
    disable_module_types: [nn.Conv2d]
    modelopt_config: FP8_DEFAULT_CFG
agreement: {reference_variant: fp32, score_threshold: 0.0, iou_threshold: 0.5, top_k: 5}
run:
  shapes: ["64x96", "96x64"]
  modes: [eager, compile]
  compile_variants: [fp32, fp16]
  compile_shapes: ["64x96"]
  compile_backend: eager
  compilations: 1  # one compilation, in the measuring process (test_compilations.py runs several)
  warmup_iterations: 1
  iterations: 3
  repeats: 3
  profile_iterations: 2
  calibration_set: cal
  agreement_set: held
decision: {shipped: false, summary: a test study}
"""

CALIBRATION = ["astronaut", "coffee"]
HELD_OUT = ["camera", "coins"]


def make_tiny_project(root: Path, study_text: str = TINY_STUDY) -> Path:
    """Write families/tiny/study.yaml and the two skimage.data dataset definitions under ``root``."""
    from studygen.collect.run.images import skimage_dataset_definition
    from studygen.fsutil import atomic_write_text, dump_json

    (root / "families" / "tiny").mkdir(parents=True)
    (root / "families" / "tiny" / "study.yaml").write_text(study_text, encoding="utf-8")
    datasets = root / "measurements" / "tiny" / "datasets"
    for doc in (skimage_dataset_definition("cal", CALIBRATION, role="calibration", selection="two colour photographs"),
                skimage_dataset_definition("held", HELD_OUT, role="evaluation", selection="two grey photographs")):
        atomic_write_text(datasets / f"{doc['dataset_id']}.json", dump_json(doc))
    return root


@pytest.fixture
def tiny_project(tmp_path) -> Path:
    return make_tiny_project(tmp_path / "project")


def run_studygen(*argv) -> tuple[int, str]:
    """``studygen`` in-process; returns (exit code, stderr+stdout text). ``collect run`` gets ``--cpu``."""
    import contextlib
    import io

    from studygen.cli import run

    if argv[:2] == ("collect", "run"):
        argv = (*argv, "--cpu")  # the tiny test studies run on this CPU-only machine, explicitly
    buffer = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stderr(buffer), contextlib.redirect_stdout(buffer):
        warnings.simplefilter("ignore")
        code = run([str(a) for a in argv])
    return code, buffer.getvalue()


@pytest.fixture(scope="session", autouse=True)
def one_torch_thread():
    """The tiny model's operators are too small to gain from threads; on a shared 2-core machine
    one thread is faster and steadier."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def full_run(tmp_path_factory):
    """One full run of the tiny study (every variant, both shapes, eager and compile) shared by the tests."""
    root = make_tiny_project(tmp_path_factory.mktemp("full") / "project")
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cpu",
                                "--root", root, "--commit", "0123456789abcdef0123456789abcdef01234567", "--clean")
    assert code == 0, output
    return root, root / "measurements" / "tiny" / "cpu.json", output
