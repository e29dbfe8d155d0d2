"""``collect run`` on an image classifier (no ``pred_boxes``): timed like a
detector, its agreement read from the class logits alone.

The model is a tiny ResNet classifier (2 stages of 8 and 16 channels, 5
labels, random weights under seed 11) saved to a local folder and loaded
through ``AutoModelForImageClassification`` with ``weights: pretrained``;
nothing comes from a hub. Its output holds ``logits`` (1, 5) and no boxes.
"""

from __future__ import annotations

import json
import math

import pytest

from .conftest import make_tiny_project, run_studygen

CLASSIFIER_STUDY = """\
schema_version: 1
family: tiny
title: tiny ResNet classifier on the CPU
template: tiny.md.j2
model:
  id: tiny-resnet-classifier
  hf_class: AutoModelForImageClassification
  weights: pretrained
  local_dir: checkpoints/tiny-resnet
variants:
  - {name: fp32, precision: fp32}
  - {name: fp16, precision: fp16}
  - {name: bf16, precision: bf16}
agreement: {reference_variant: fp32}
run:
  shapes: ["32x48"]
  modes: [eager, compile]
  compile_variants: [fp32]
  compile_backend: eager
  compilations: 1
  warmup_iterations: 1
  iterations: 3
  repeats: 3
  profile_iterations: 2
  agreement_set: held
decision: {shipped: false, summary: a test study}
"""

CONFIG = {"embedding_size": 8, "hidden_sizes": [8, 16], "depths": [1, 1], "layer_type": "basic", "num_labels": 5}


def tiny_classifier(seed: int = 11):
    import torch
    import transformers

    torch.manual_seed(seed)
    return transformers.ResNetForImageClassification(transformers.ResNetConfig(**CONFIG)).eval()


@pytest.fixture(scope="module")
def classifier_run(tmp_path_factory):
    root = make_tiny_project(tmp_path_factory.mktemp("classifier") / "project", CLASSIFIER_STUDY)
    tiny_classifier().save_pretrained(root / "checkpoints" / "tiny-resnet")
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cls",
                                "--root", root, "--commit", "0" * 40, "--clean")
    assert code == 0, output
    return root, json.loads((root / "measurements" / "tiny" / "cls.json").read_text())["results"]


def of_kind(results, kind, **where):
    return [r for r in results if r["kind"] == kind and all(r.get(k) == v for k, v in where.items())]


def test_every_cell_of_a_classifier_is_timed_and_profiled(classifier_run):
    _, results = classifier_run
    cells = {(r["mode"], r["variant"]) for r in of_kind(results, "latency", shape="32x48")}
    assert cells == {("eager", "fp32"), ("eager", "fp16"), ("eager", "bf16"), ("compile", "fp32")}
    assert all(r["value_ms"] > 0 and r["distribution"]["samples"] == 9 for r in of_kind(results, "latency"))
    kernel_results = of_kind(results, "kernel_time")
    assert len(kernel_results) == 4
    for result in kernel_results:
        assert math.fsum(g["time_ms"] for g in result["groups"]) == pytest.approx(result["profiled_total_ms"],
                                                                                  rel=1e-6, abs=1e-5)
        assert "Conv" in {g["group"] for g in result["groups"]}  # a ResNet: convolutions, no grid sampling


def test_a_classifier_agrees_by_its_logits_and_claims_no_detections(classifier_run):
    import numpy as np
    import torch

    from studygen.collect.run.images import load_photo, to_pixel_values

    _, results = classifier_run
    agreement = of_kind(results, "agreement")
    assert {(r["variant"], r["metric"]) for r in agreement} == {
        (v, m) for v in ("fp16", "bf16") for m in ("logit_correlation", "nonfinite_count", "top1_agreement")}
    by = {(r["variant"], r["metric"]): r for r in agreement}
    model = tiny_classifier()
    photos = [load_photo(name) for name in ("camera", "coins")]  # the held set of conftest.py
    for name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        low = tiny_classifier().to(dtype)
        with torch.no_grad():
            reference = np.concatenate([model(pixel_values=to_pixel_values(p, 32, 48)).logits.double().numpy().ravel()
                                        for p in photos])
            variant = np.concatenate([low(pixel_values=to_pixel_values(p, 32, 48).to(dtype)).logits.double().numpy()
                                      .ravel() for p in photos])
        assert by[(name, "logit_correlation")]["value"] == pytest.approx(np.corrcoef(reference, variant)[0, 1], abs=1e-9)
        assert by[(name, "logit_correlation")]["images"] == 2
        assert "no boxes" in by[(name, "logit_correlation")]["note"]
        assert by[(name, "nonfinite_count")]["value"] == 0
        top_classes = (reference.reshape(2, 5).argmax(axis=1), variant.reshape(2, 5).argmax(axis=1))
        assert by[(name, "top1_agreement")]["value"] == (top_classes[0] == top_classes[1]).mean()
        assert by[(name, "top1_agreement")]["images"] == 2
    assert of_kind(results, "not_measured", metric="precision") == []
    assert len(of_kind(results, "not_measured", metric="coco_ap")) == 3


def test_random_init_builds_an_auto_class_from_its_config():
    import torch

    from studygen.collect.run.model import build_model

    model, checkpoint = build_model({"id": "tiny", "hf_class": "AutoModelForImageClassification",
                                     "weights": "random-init", "seed": 11,
                                     "config": {"model_type": "resnet", **CONFIG}},
                                    root=None, study_path="families/tiny/study.yaml")
    expected = tiny_classifier()
    assert type(model).__name__ == "ResNetForImageClassification"
    assert checkpoint["seed"] == 11 and checkpoint["config"]["model_type"] == "resnet"
    for (name, value), (_, wanted) in zip(model.state_dict().items(), expected.state_dict().items(), strict=True):
        assert torch.equal(value, wanted), name


def test_coco_ap_of_a_classifier_is_not_measured_and_says_why(tmp_path):
    from .test_coco_ap import coco_project

    root = coco_project(tmp_path, CLASSIFIER_STUDY)
    tiny_classifier().save_pretrained(root / "checkpoints" / "tiny-resnet")
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cls-ap",
                                "--root", root, "--variants", "fp32", "--modes", "eager", "--quiet")
    assert code == 0, output
    results = json.loads((root / "measurements" / "tiny" / "cls-ap.json").read_text())["results"]
    [skipped] = of_kind(results, "not_measured", metric="coco_ap")
    assert skipped == {"kind": "not_measured", "variant": "fp32", "metric": "coco_ap", "shape": "64x96",
                       "mode": "eager", "reason": "the model's output (ImageClassifierOutputWithNoAttention) holds no "
                       "pred_boxes: COCO AP needs a detector's boxes"}
    assert of_kind(results, "coco_ap") == [] and len(of_kind(results, "latency")) == 1
    assert not (root / "measurements" / "tiny" / "detections" / "cls-ap" / "fp32.json").exists()
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cls-ap",
                                "--root", root, "--variants", "fp32", "--modes", "eager", "--resume", "--quiet")
    assert code == 0, output  # nothing measured twice
    assert json.loads((root / "measurements" / "tiny" / "cls-ap.json").read_text())["results"] == results
