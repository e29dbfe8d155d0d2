"""What a ``collect run`` study must name: ``run.calibration_set`` only for a
run that may build a variant ModelOpt calibrates (FP8): without one, a study
of fp32/fp16/bf16 runs; with one, the refusal names the study file, its line,
the pointer and the variant. ``model.hf_class`` always, refused likewise."""

from __future__ import annotations

import json

from .conftest import TINY_STUDY, make_tiny_project, run_studygen

WITHOUT_CALIBRATION = TINY_STUDY.replace("  calibration_set: cal\n", "")
RUN_LINE = WITHOUT_CALIBRATION.splitlines().index("run:") + 2  # /run's node: its first entry, the line after "run:"


def test_a_run_with_an_fp8_variant_and_no_calibration_set_is_refused_naming_file_pointer_and_variant(tmp_path):
    root = make_tiny_project(tmp_path / "project", WITHOUT_CALIBRATION)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "nocal",
                                "--root", root, "--modes", "eager", "--quiet")
    assert code == 2 and "Traceback" not in output
    assert output == (f"studygen: families/tiny/study.yaml:{RUN_LINE}: run.calibration_set is not set (FP8 variant "
                      "'fp8' is calibrated on it): name a dataset definition under measurements/tiny/datasets/ "
                      "(/run)\n")
    assert list((root / "measurements" / "tiny").glob("*.json")) == []


def test_a_run_without_fp8_variants_needs_no_calibration_set(tmp_path):
    root = make_tiny_project(tmp_path / "project", WITHOUT_CALIBRATION)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "nocal",
                                "--root", root, "--variants", "fp32,fp16", "--modes", "eager", "--shapes", "64x96",
                                "--commit", "0" * 40, "--clean", "--quiet")
    assert code == 0, output
    results = json.loads((root / "measurements" / "tiny" / "nocal.json").read_text())["results"]
    assert sorted(r["variant"] for r in results if r["kind"] == "latency") == ["fp16", "fp32"]
    assert [r for r in results if r["kind"] == "quantization"] == []
    assert {(r["variant"], r["metric"]) for r in results if r["kind"] == "agreement"} == {
        ("fp16", m) for m in ("logit_correlation", "nonfinite_count", "precision", "recall")}


def test_the_calibrated_variants_are_the_fp8_ones_of_the_selection_in_every_shard():
    import yaml

    from studygen.collect.run.spec import build_plan

    spec = yaml.safe_load(TINY_STUDY)
    for shard in ((1, 2), (2, 2)):
        plan = build_plan(spec, study_path="families/tiny/study.yaml", shard=shard)
        assert plan.calibrated_variants() == ["fp8"]
    assert plan.calibrated_variants(["fp16", "fp8"]) == ["fp8"]
    assert plan.calibrated_variants(["fp32", "bf16"]) == []


def test_a_study_without_hf_class_is_refused_at_its_model_block(tmp_path):
    study = TINY_STUDY.replace("  hf_class: DeformableDetrForObjectDetection\n", "")
    root = make_tiny_project(tmp_path / "project", study)
    model_line = study.splitlines().index("model:") + 2  # /model's node: its first entry
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "nocls",
                                "--root", root, "--quiet")
    assert code == 2
    assert output == (f"studygen: families/tiny/study.yaml:{model_line}: model.hf_class is not set: name the "
                      "transformers class collect run builds, e.g. AutoModelForImageClassification or "
                      "DeformableDetrForObjectDetection (/model)\n")
    assert list((root / "measurements" / "tiny").glob("*.json")) == []
