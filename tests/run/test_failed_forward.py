"""A forward that raises for one cell of the grid (a GPU trial: a ViT built
for 224x224 timed at 256x256 stopped the run as an internal error, exit 2,
naming neither the shape nor the variant): the cell is recorded as a
``not_measured`` latency naming the exception, the other cells are measured,
each failed cell is one line on stderr, the run exits 1, and the README lists
the cell under Runs without a figure.

The model is a tiny random-init ViT (image_size 32, patch 8, one layer of
width 16, 5 labels), which refuses any other input size the way the trial's
ViT did (transformers' ``ViTPatchEmbeddings``: "Input image size (48*48)
doesn't match model (32*32).").
"""

from __future__ import annotations

import json

from studygen.checks import CheckContext, sg219_unmeasured_variant
from studygen.study import load_study

from .conftest import make_tiny_project

VIT_STUDY = """\
schema_version: 1
family: tiny
title: tiny ViT on the CPU, at its own size and one it refuses
template: studygen/generic.md.j2
status: draft
model:
  id: tiny-vit
  revision: random-init-seed-5
  hf_class: AutoModelForImageClassification
  weights: random-init
  seed: 5
  config: {model_type: vit, image_size: 32, patch_size: 8, hidden_size: 16, num_hidden_layers: 1,
           num_attention_heads: 2, intermediate_size: 32, num_labels: 5}
variants:
  - {name: fp32, precision: fp32}
  - {name: fp16, precision: fp16}
agreement: {reference_variant: fp32}
run:
  shapes: ["32x32", "48x48"]
  modes: [eager]
  warmup_iterations: 1
  iterations: 2
  repeats: 3
  profile_iterations: 1
  agreement_set: held
decision: {shipped: false, summary: a test study}
"""

REASON = "the forward raised ValueError: Input image size (48*48) doesn't match model (32*32)."


def test_a_forward_that_refuses_one_shape_is_recorded_as_not_measured_and_the_run_exits_1(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project", VIT_STUDY)
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "vit", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert done.exit_code == 1, done.err
    assert done.err == (f"studygen: fp32 at 48x48 (eager) not measured: {REASON}\n"
                        f"studygen: fp16 at 48x48 (eager) not measured: {REASON}\n"
                        "studygen: 2 cells of the grid failed; the record holds them as not measured\n")
    results = json.loads((root / "measurements" / "tiny" / "vit.json").read_text())["results"]
    assert done.out == f"wrote measurements/tiny/vit.json: {len(results)} results\n"
    failed = [r for r in results if r["kind"] == "not_measured" and r["metric"] == "latency"]
    assert failed == [{"kind": "not_measured", "variant": name, "shape": "48x48", "batch": 1, "mode": "eager",
                       "backend": "pytorch", "metric": "latency", "reason": REASON} for name in ("fp32", "fp16")]
    timed = {(r["variant"], r["shape"]) for r in results if r["kind"] in ("latency", "kernel_time")}
    assert timed == {("fp32", "32x32"), ("fp16", "32x32")}

    assert run_cli("render", "--root", root, "tiny").exit_code == 0
    readme = (root / "families" / "tiny" / "README.md").read_text()
    section = readme.split("## Runs without a figure\n\n", 1)[1].split("\n\n", 1)[0]
    printed = REASON.replace("*", "\\*")  # Markdown's emphasis marker, escaped to print as written
    assert f"- Latency of fp32 and fp16 at 48 x 48 (eager) in job vit: {printed}" in section.splitlines()
    # the shape was tried: a not_measured result answers SG219 for it
    assert sg219_unmeasured_variant.check(CheckContext(load_study(root / "families" / "tiny", root))) == []
