"""SG219 at a shape of ``run.shapes``: the hint fits what is missing. A new
user's trial compiled one of two shapes; the hint said to add 224x224 under
not_measured, which says no mode of 224x224 was measured, and the measured
eager rows then drew 19 SG106 warnings."""

from __future__ import annotations

from studygen.checks import CheckContext, sg219_unmeasured_variant
from tests.checks.studies import latency, load, record, spec


def run_latency(variant: str, shape: str, mode: str) -> dict:
    return latency(variant, 5.0, shape, backend="pytorch", mode=mode, timing="gpu_compute",
                   method={"timer": "cuda-events"})


def hints(tmp_path, run: dict, results: list[dict]) -> dict[str, str]:
    variants = [{"name": "fp32", "precision": "fp32", "label": "fp32"}]
    study = load(tmp_path, study=spec(variants=variants, run=run), records=[record("a", results)])
    return {f.message: f.hint for f in sg219_unmeasured_variant.check(CheckContext(study))}


def test_a_shape_missing_only_its_compiled_cell_names_the_compiled_grid(tmp_path):
    found = hints(tmp_path, {"shapes": ["224x224", "160x160"], "modes": ["eager", "compile"]},
                  [run_latency("fp32", "224x224", "eager"), run_latency("fp32", "160x160", "eager"),
                   run_latency("fp32", "160x160", "compile")])
    assert found == {
        "variant fp32 is declared at shape 224x224 (run.shapes), but no record has a result for it there (compile) "
        "and not_measured does not name it":
        "collect fp32 at 224x224 in compile (collect run --variants fp32 --shapes 224x224 --modes compile), or leave "
        "the cell out of the compiled grid (run.compile_shapes and run.compile_variants name what is compiled); "
        "not_measured 224x224 would say no mode of 224x224 was measured"}


def test_a_shape_missing_its_eager_cell_asks_for_it_alone(tmp_path):
    found = hints(tmp_path, {"shapes": ["224x224"], "modes": ["eager", "compile"]},
                  [run_latency("fp32", "224x224", "compile")])
    assert list(found.values()) == [
        "collect fp32 at 224x224 in eager (collect run --variants fp32 --shapes 224x224 --modes eager); "
        "not_measured 224x224 would say no mode of 224x224 was measured"]


def test_a_shape_with_no_result_in_any_mode_keeps_the_not_measured_hint(tmp_path):
    found = hints(tmp_path, {"shapes": ["224x224", "160x160"], "modes": ["eager", "compile"]},
                  [run_latency("fp32", "160x160", "eager"), run_latency("fp32", "160x160", "compile")])
    assert list(found.values()) == [
        "collect fp32 at 224x224, add 224x224 under not_measured with the reason it was not measured, or remove it "
        "from run.shapes"]


def test_a_reference_that_other_variants_were_measured_against_has_results(tmp_path):
    # fp32 appears only as the reference of int8's agreement figures (a user's own agreement file): it ran
    variants = [{"name": "fp32", "precision": "fp32", "label": "fp32"},
                {"name": "int8", "precision": "int8", "label": "int8"},
                {"name": "fp16", "precision": "fp16", "label": "fp16"}]
    agreement = {"kind": "agreement", "variant": "int8", "reference_variant": "fp32", "metric": "top1_agreement",
                 "value": 0.9875, "backend": "other", "dataset": "held-80"}
    study = load(tmp_path, study=spec(variants=variants, run={"shapes": ["224x224"]}),
                 records=[record("a", [agreement, run_latency("int8", "224x224", "eager")])])
    found = sg219_unmeasured_variant.check(CheckContext(study))
    # fp16 has no result and is no reference; fp32 is asked for nothing, not even at run.shapes' 224x224
    assert [f.message for f in found] == [
        "variant fp16 is declared, but no record has a result for it and not_measured does not name it"]
