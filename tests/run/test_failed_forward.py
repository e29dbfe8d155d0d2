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

from .conftest import make_tiny_project, run_studygen

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


def collect_vit(run_cli, root):
    """``collect run`` of the ViT study on the CPU: exit 1, stderr naming the two 48x48 cells it could not measure."""
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "vit", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert done.exit_code == 1, done.err
    assert done.err == (f"studygen: fp32 at 48x48 (eager) not measured: {REASON}\n"
                        f"studygen: fp16 at 48x48 (eager) not measured: {REASON}\n"
                        "studygen: 2 cells of the grid failed; the record holds them as not measured\n")
    return done


def test_a_forward_that_refuses_one_shape_is_recorded_as_not_measured_and_the_run_exits_1(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project", VIT_STUDY)
    done = collect_vit(run_cli, root)
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


def test_a_shape_the_model_refuses_under_compile_is_the_models_refusal_not_a_compile_failure(tmp_path, run_cli):
    # compiled at 48x48 only, which the 32x32 ViT refuses while Dynamo traces it; two compilations in
    # worker processes (the GPU trial's setting), Dynamo's eager backend so that nothing is generated
    study = VIT_STUDY.replace("  modes: [eager]\n", "  modes: [eager, compile]\n  compile_shapes: [\"48x48\"]\n"
                              "  compile_variants: [fp16]\n  compile_backend: eager\n  compilations: 2\n")
    root = make_tiny_project(tmp_path / "project", study)
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "vit", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu", "--modes", "compile")
    assert done.exit_code == 1, done.err
    # the eager mode's words, led by the compilation: no 'torch.compile failed', no traceback
    assert done.err == (f"studygen: fp16 at 48x48 (compile) not measured: compilation 1 of 2: {REASON}\n"
                        "studygen: 1 cell of the grid failed; the record holds it as not measured\n")
    results = json.loads((root / "measurements" / "tiny" / "vit.json").read_text())["results"]
    assert [r["reason"] for r in results if r["kind"] == "not_measured" and r["metric"] == "latency"] == [
        f"compilation 1 of 2: {REASON}"]
    # one compilation, in the measuring process, whose stderr this test reads: the same line, no traceback
    study_file = root / "families" / "tiny" / "study.yaml"
    study_file.write_text(study.replace("compilations: 2", "compilations: 1"), encoding="utf-8")
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "vit-1", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu", "--modes", "compile")
    assert done.err == (f"studygen: fp16 at 48x48 (compile) not measured: compilation 1 of 1: {REASON}\n"
                        "studygen: 1 cell of the grid failed; the record holds it as not measured\n")


def test_failed_cells_close_their_progress_bars_and_print_no_empty_timing_line(tmp_path, monkeypatch):
    # the H100 trial's stderr: "compilation 1 of 2 at 256x256: timing ()" for compilations with nothing to time,
    # and "time eager 256x256 0/10 0:01:33" for bars of failed cells, still counting when the run ended
    monkeypatch.setenv("COLUMNS", "300")  # each log line whole
    study = VIT_STUDY.replace("  modes: [eager]\n", "  modes: [eager, compile]\n  compile_shapes: [\"48x48\"]\n"
                              "  compile_variants: [fp16]\n  compile_backend: eager\n  compilations: 2\n")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "bars",
                                "--root", root, "--commit", "0" * 40, "--clean")
    assert code == 1, output
    assert "timing ()" not in output
    # at 48x48 fp32 fails on the first bar, fp16 on the bar that times it alone; each bar says so and stops
    bars = [line.split("  ")[0] for line in output.splitlines() if line.startswith("time eager 48x48")]
    assert bars == ["time eager 48x48 (fp32 failed)", "time eager 48x48 (fp16 failed)"]
    assert [line for line in output.splitlines() if line.startswith("time eager 32x32")][0].split()[-2] == "6/6"


def test_eager_failure_tells_the_models_refusal_from_a_model_that_runs():
    import torch

    from studygen.collect.run.latency_stage import eager_failure
    from studygen.collect.run.spec import Cell

    refuses = torch.nn.Linear(4, 2)

    def forward(pixel_values):
        return refuses(pixel_values)

    cell = Cell("compile", "1x3", "fp16")
    assert eager_failure(cell, forward, torch.zeros(1, 4), variants_on_device=2) is None
    said = eager_failure(cell, forward, torch.zeros(1, 3), variants_on_device=2)
    assert said == "the forward raised RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x3 and 4x2)"


ILLEGAL_ADDRESS = ("CUDA error: an illegal memory access was encountered\n"
                   "CUDA kernel errors might be asynchronously reported at some other API call")


def test_a_cuda_error_that_loses_the_device_stops_the_run_in_one_line_naming_the_cell(tmp_path, run_cli, monkeypatch):
    # the fp16 forward raises what PyTorch raises after an illegal address (a CPU stand-in: no CUDA here)
    from studygen.collect.run import latency_stage

    real = latency_stage.forward_call

    def fp16_loses_the_device(forward, inputs, cuda_graphs):
        call = real(forward, inputs, cuda_graphs)
        if inputs[0].dtype != torch.float16:
            return call

        def lost(i):
            raise RuntimeError(ILLEGAL_ADDRESS)
        return lost

    import torch

    monkeypatch.setattr(latency_stage, "forward_call", fp16_loses_the_device)
    root = make_tiny_project(tmp_path / "project", VIT_STUDY)
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "lost", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert done.exit_code == 1, done.err
    assert done.err == ("studygen: fp16 at 32x32 (eager): the forward raised RuntimeError: CUDA error: an illegal "
                        "memory access was encountered; the CUDA device is unusable after such an error, so the run "
                        "stopped here and the record keeps only what was finished before (collect run --resume, in "
                        "a new process, measures the rest)\n")
    # what was finished before the timing stage is kept; no cell of the grid is recorded as measured or failed
    results = json.loads((root / "measurements" / "tiny" / "lost.json").read_text())["results"]
    assert sorted({r["kind"] for r in results}) == ["agreement", "not_measured"]
    assert {r["metric"] for r in results if r["kind"] == "not_measured"} == {"coco_ap"}


def test_a_first_shape_the_model_refuses_leaves_agreement_unmeasured_and_times_the_rest(tmp_path, run_cli):
    # The agreement figures are computed at the study's first shape; the ViT refuses 48x48 there too. Before, the
    # agreement stage's forward stopped the run as an internal error, exit 2, with no record at all.
    study = VIT_STUDY.replace('shapes: ["32x32", "48x48"]', 'shapes: ["48x48", "32x32"]')
    root = make_tiny_project(tmp_path / "project", study)
    collect_vit(run_cli, root)
    results = json.loads((root / "measurements" / "tiny" / "vit.json").read_text())["results"]
    unmeasured = [r for r in results if r["kind"] == "not_measured" and r["metric"] == "logit_correlation"]
    assert unmeasured == [{"kind": "not_measured", "variant": "fp16", "metric": "logit_correlation",
                           "reason": f"at the agreement shape 48x48, the reference variant fp32 failed: {REASON}",
                           "shape": "48x48", "mode": "eager"}]
    timed = {(r["variant"], r["shape"]) for r in results if r["kind"] in ("latency", "kernel_time")}
    assert timed == {("fp32", "32x32"), ("fp16", "32x32")}
