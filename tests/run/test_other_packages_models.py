"""A model of another package than transformers (a torchvision or timm network) named in
``model.hf_class``: the refusal says how to build it, and the way it names (transformers' timm
wrapper, random-init) builds a classifier offline. On the CPU; needs timm."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from studygen.collect.run.model import build_model
from studygen.errors import RecordError

pytest.importorskip("timm")


def spec(**over):
    base = {"id": "own/tiny-resnet", "revision": None, "weights": "random-init", "seed": 11,
            "hf_class": "TimmWrapperForImageClassification",
            "config": {"model_type": "timm_wrapper", "architecture": "resnet18", "num_labels": 7}}
    return dict(base, **over)


@pytest.mark.parametrize("name", ["torchvision.models.resnet50", "resnet50"])
def test_a_torchvision_name_is_refused_with_the_timm_wrapper_way(name):
    with pytest.raises(RecordError) as caught:
        build_model(spec(hf_class=name), root=Path("."), study_path="s.yaml")
    assert caught.value.where == "/model/hf_class"
    assert "hf_class: TimmWrapperForImageClassification" in str(caught.value)
    assert "architecture: resnet50" in str(caught.value)


def test_a_transformers_shaped_name_gets_no_hint():
    with pytest.raises(RecordError) as caught:
        build_model(spec(hf_class="NoSuchModel"), root=Path("."), study_path="s.yaml")
    assert "TimmWrapper" not in str(caught.value)


def test_the_timm_wrapper_builds_a_seeded_classifier_offline():
    model, checkpoint = build_model(spec(), root=Path("."), study_path="s.yaml")
    again, _ = build_model(spec(), root=Path("."), study_path="s.yaml")
    assert checkpoint["config"]["architecture"] == "resnet18"
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), again.state_dict().values()))
    logits = model(pixel_values=torch.zeros(2, 3, 64, 64)).logits
    assert tuple(logits.shape) == (2, 7)
