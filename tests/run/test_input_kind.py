"""collect run feeds images only (``model(pixel_values=...)``): a model whose
forward takes other inputs is refused in one line at the study file's
``model.hf_class`` before the record is opened, instead of an internal error
from its first forward (a new user's random-init LlamaForCausalLM, session 29:
"internal error: ValueError: You must specify exactly one of input_ids or
inputs_embeds")."""

from __future__ import annotations

import torch

from studygen.collect.run.model import image_input_problem

from .conftest import make_tiny_project

LM_STUDY = """\
schema_version: 1
family: tiny
title: a two-layer decoder-only language model of width 16
template: studygen/generic.md.j2
status: draft
model:
  id: tiny-lm
  revision: random-init-seed-3
  hf_class: LlamaForCausalLM
  weights: random-init
  seed: 3
  config: {model_type: llama, hidden_size: 16, intermediate_size: 24, num_hidden_layers: 2, num_attention_heads: 2,
           num_key_value_heads: 1, vocab_size: 40}
variants:
  - {name: fp32, precision: fp32}
  - {name: bf16, precision: bf16}
agreement: {reference_variant: fp32}
run:
  shapes: ["2x64"]
  modes: [eager]
  warmup_iterations: 1
  iterations: 2
  repeats: 3
  profile_iterations: 1
  agreement_set: held
decision: {shipped: false, summary: a test study}
"""


def test_a_language_model_is_refused_at_its_class_before_anything_is_measured(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project", LM_STUDY)
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "lm", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert done.exit_code == 2, done.err
    # the parameters after input_ids are transformers' own and differ between its releases
    head, _, tail = done.err.partition("...): ")
    assert head.startswith("studygen: families/tiny/study.yaml:9: LlamaForCausalLM takes no pixel_values (its forward "
                           "takes input_ids, ")
    assert tail == ("collect run feeds images only, as model(pixel_values=BATCH x 3 x H x W) at each run.shapes HxW; "
                    "time a model of other inputs with a script of your own under the PyTorch profiler and record its "
                    "trace with collect torch-profile (/model/hf_class)\n")
    assert not (root / "measurements" / "tiny" / "lm.json").exists()


class _Pixels(torch.nn.Module):
    def forward(self, pixel_values, labels=None):
        return pixel_values


class _Tokens(torch.nn.Module):
    def forward(self, input_ids, attention_mask=None, **kwargs):
        return input_ids


class _Anything(torch.nn.Module):
    def forward(self, **kwargs):
        return kwargs


def test_only_a_forward_that_names_other_inputs_and_no_pixel_values_is_refused():
    assert image_input_problem(_Pixels(), "Pixels") is None
    assert image_input_problem(_Anything(), "Anything") is None  # nothing says what it reads: its forward decides
    assert image_input_problem(_Tokens(), "Tokens").startswith(
        "Tokens takes no pixel_values (its forward takes input_ids, attention_mask): ")
