"""``collect run`` on an image classifier, end to end, on this machine's GPU (``--cpu`` without one).

Builds, in a temporary folder, a project whose study measures a small ResNet
classifier (random weights under a fixed seed, saved with ``save_pretrained``
and loaded through ``AutoModelForImageClassification`` from that local
folder: nothing comes from a hub) in fp32, fp16 and bf16, eager and compiled,
at one shape (compiled by Inductor on a GPU, by the ``eager`` backend on the CPU), with two ``skimage.data`` photographs as the agreement set and
no calibration set (no FP8 variant). Runs ``studygen collect run`` and prints
each cell's median latency and profiled kernel total, and the agreement
figures (logit correlation, non-finite count) of fp16 and bf16 against fp32.

Usage: ``python benchmarks/classifier_run.py [--shape 224x224] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

STUDY = """\
schema_version: 1
family: classifier
title: a small ResNet classifier measured by collect run
template: studygen/generic.md.j2
model:
  id: benchmark-resnet-classifier
  hf_class: AutoModelForImageClassification
  weights: pretrained
  local_dir: checkpoints/resnet
variants:
  - {{name: fp32, precision: fp32}}
  - {{name: fp16, precision: fp16}}
  - {{name: bf16, precision: bf16}}
run:
  shapes: ["{shape}"]
  modes: [eager, compile]
  compile_backend: {backend}
  compilations: 1
  warmup_iterations: 10
  iterations: 30
  repeats: 3
  profile_iterations: 5
  agreement_set: held
decision: {{shipped: false, summary: a benchmark study}}
"""
# ResNet-18's stages (64 to 512 channels, two basic blocks each), 10 labels
CONFIG = {"hidden_sizes": [64, 128, 256, 512], "depths": [2, 2, 2, 2], "layer_type": "basic", "num_labels": 10}


def make_project(root: Path, shape: str, backend: str) -> Path:
    """The study (compiled with ``backend``), its checkpoint folder and the agreement set's definition under ``root``."""
    import torch
    import transformers

    from studygen.collect.run.images import skimage_dataset_definition
    from studygen.fsutil import atomic_write_text, dump_json

    (root / "families" / "classifier").mkdir(parents=True)
    (root / "families" / "classifier" / "study.yaml").write_text(STUDY.format(shape=shape, backend=backend), encoding="utf-8")
    torch.manual_seed(0)
    transformers.ResNetForImageClassification(transformers.ResNetConfig(**CONFIG)).save_pretrained(
        root / "checkpoints" / "resnet")
    held = skimage_dataset_definition("held", ["camera", "coins"], role="evaluation", selection="two photographs")
    atomic_write_text(root / "measurements" / "classifier" / "datasets" / "held.json", dump_json(held))
    return root


def main() -> int:
    import torch

    from studygen.cli import run

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="224x224")
    parser.add_argument("--keep", type=Path, default=None, help="build the project here and keep it")
    args = parser.parse_args()
    cuda = torch.cuda.is_available()
    # without a GPU, torch.compile's "eager" backend: a check of the path only (Inductor's C++ builds take minutes)
    root = make_project((args.keep or Path(tempfile.mkdtemp())) / "project", args.shape, "inductor" if cuda else "eager")
    argv = ["collect", "run", "--study", str(root / "families" / "classifier"), "--job", "bench", "--root", str(root),
            "--commit", "0" * 40, "--clean", "--quiet"]
    if not cuda:
        argv.append("--cpu")
    code = run(argv)
    if code:
        return code
    record = json.loads((root / "measurements" / "classifier" / "bench.json").read_text())
    print(f"device: {record['provenance']['gpu'] or 'CPU'}; torch {record['provenance']['software']['torch']}")
    for result in record["results"]:
        if result["kind"] == "latency":
            print(f"latency {result['mode']:7} {result['shape']} {result['variant']}: median {result['value_ms']:.4f} ms "
                  f"(cv {result['distribution']['cv'] * 100:.2f} %)")
        elif result["kind"] == "kernel_time":
            print(f"kernels {result['mode']:7} {result['shape']} {result['variant']}: "
                  f"{result['profiled_total_ms']:.4f} ms profiled")
        elif result["kind"] == "agreement":
            print(f"agreement {result['variant']} vs {result['reference_variant']}: {result['metric']} {result['value']}")
        elif result["kind"] == "not_measured":
            print(f"not measured {result['variant']} {result['metric']}: {result['reason']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
