"""SG217: a stated cause in a kernel group the recipe changes, where the profiles put the difference
elsewhere; and the attribution it reads (studygen.study.attribution), on figures made up here.

Compiled toy cells at 800x800, three compilations each (ms):
  fp16 medians 8.20, 8.16, 8.24 (value 8.20); GridSample 6.36, 6.38, 6.37; GEMM 0.85; norm 0.60, 0.62, 0.61
  fp8  medians 9.45, 8.98, 9.49 (value 9.45); GridSample 7.56, 7.06, 7.60; GEMM 0.80; casts 0.31;
       norm 0.45, 0.46, 0.44
FP8 minus fp16, medians over compilations: latency +1.25 = GridSample +1.19 (7.56 - 6.37), casts +0.31,
GEMM -0.05, norm -0.16 (0.45 - 0.61), unattributed -0.04. Resolved: 1.25 exceeds both spreads
(0.08 and 0.51). FP8's slowest (9.49, compilation 3) minus fastest (8.98, compilation 2): +0.51 =
GridSample +0.54, norm -0.02, unattributed -0.01.
"""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg217_unchanged_group_cause
from studygen.findings import ERROR
from studygen.study.attribution import attribute, median_groups, recipe_pairs
from studygen.study.compilations import pooled_cell

from .studies import line_of, load, record

GROUPS = ("GridSample", "GEMM/MatMul", "Quantize/Dequantize", "normalization and elementwise")


def compiled(variant, medians, groups_per_compilation, shape="800x800", value=None):
    """A compiled latency and its kernel_time, each keeping its compilations."""
    latency = {"kind": "latency", "variant": variant, "shape": shape, "batch": 1, "backend": "pytorch",
               "mode": "compile", "timing": "gpu_compute", "statistic": "median",
               "value_ms": value if value is not None else sorted(medians)[len(medians) // 2],
               "method": {"timer": "cuda-events", "cuda_graph": True},
               "compilations": [{"compilation": k, "median_ms": m, "repeat_medians_ms": [m, m, m]}
                                for k, m in enumerate(medians, 1)]}
    middle = sorted(range(len(medians)), key=lambda i: medians[i])[(len(medians) - 1) // 2]
    kernel = {"kind": "kernel_time", "variant": variant, "shape": shape, "batch": 1, "backend": "pytorch",
              "mode": "compile",
              "groups": [{"group": g, "time_ms": t} for g, t in groups_per_compilation[middle].items()],
              "compilations": [{"compilation": k, "profiled_total_ms": round(sum(g.values()), 6), "groups": g}
                               for k, g in enumerate(groups_per_compilation, 1)]}
    return [latency, kernel]


def eager(variant, value, groups):
    latency = {"kind": "latency", "variant": variant, "shape": "800x800", "batch": 1, "backend": "pytorch",
               "mode": "eager", "timing": "gpu_compute", "statistic": "median", "value_ms": value,
               "method": {"timer": "cuda-events", "cuda_graph": False}}
    kernel = {"kind": "kernel_time", "variant": variant, "shape": "800x800", "batch": 1, "backend": "pytorch",
              "mode": "eager", "groups": [{"group": g, "time_ms": t} for g, t in groups.items()]}
    return [latency, kernel]


FP16 = compiled("fp16", [8.20, 8.16, 8.24], [
    {"GridSample": 6.36, "GEMM/MatMul": 0.85, "normalization and elementwise": 0.60},
    {"GridSample": 6.38, "GEMM/MatMul": 0.85, "normalization and elementwise": 0.62},
    {"GridSample": 6.37, "GEMM/MatMul": 0.85, "normalization and elementwise": 0.61}])
FP8 = compiled("fp8", [9.45, 8.98, 9.49], [
    {"GridSample": 7.56, "GEMM/MatMul": 0.80, "Quantize/Dequantize": 0.31, "normalization and elementwise": 0.45},
    {"GridSample": 7.06, "GEMM/MatMul": 0.80, "Quantize/Dequantize": 0.31, "normalization and elementwise": 0.46},
    {"GridSample": 7.60, "GEMM/MatMul": 0.80, "Quantize/Dequantize": 0.31, "normalization and elementwise": 0.44}])


def study_with(tmp_path, sentence, results=None):
    template = "{{ generated_note }}\n\n# {{ study.title }}\n\n" + sentence + "\n"
    return load(tmp_path, records=[record("toy-compile", results or FP16 + FP8)], template=template)


def test_attribution_splits_the_difference_by_group_with_the_rest():
    a = attribute(8.20, 9.45, {"GridSample": 6.37, "GEMM/MatMul": 0.85, "normalization and elementwise": 0.61},
                  {"GridSample": 7.56, "GEMM/MatMul": 0.80, "Quantize/Dequantize": 0.31,
                   "normalization and elementwise": 0.45})
    assert a.latency_delta_ms == pytest.approx(1.25)
    assert [g for g, _ in a.groups] == ["GridSample", "Quantize/Dequantize", "normalization and elementwise",
                                         "GEMM/MatMul"]  # largest absolute difference first
    assert dict(a.groups) == pytest.approx({"GridSample": 1.19, "Quantize/Dequantize": 0.31,
                                            "normalization and elementwise": -0.16, "GEMM/MatMul": -0.05})
    assert a.unattributed_ms == pytest.approx(-0.04)
    assert a.dominant == "GridSample" and a.share("GridSample") == pytest.approx(1.19 / 1.25)
    faster = attribute(9.0, 8.5, {"GEMM/MatMul": 1.0, "GridSample": 6.0}, {"GEMM/MatMul": 0.4, "GridSample": 6.2})
    assert faster.dominant == "GEMM/MatMul"  # the group that moved the latency's way, not the larger |delta| against it
    assert attribute(5.0, 5.0, {"GEMM/MatMul": 1.0}, {"GEMM/MatMul": 1.1}).dominant is None


def test_median_groups_count_a_missing_group_as_zero():
    assert median_groups([{"A": 1.0, "B": 2.0}, {"A": 3.0}, {"A": 2.0, "B": 4.0}]) == {"A": 2.0, "B": 2.0}


def test_the_study_pairs_the_recipe_variant_with_its_reference_at_medians_over_compilations(tmp_path):
    study = study_with(tmp_path, "No claim here.")
    [(base, row, attribution)] = recipe_pairs(study)
    assert (base.variant, row.variant, row.mode, row.shape) == ("fp16", "fp8", "compile", "800x800")
    assert attribution.latency_delta_ms == pytest.approx(1.25)
    assert dict(attribution.groups)["GridSample"] == pytest.approx(1.19)
    assert row.compilation_medians() == [9.45, 8.98, 9.49]
    fastest, slowest, spread = pooled_cell([row]).between()  # compilations 2 (8.98 ms) and 3 (9.49 ms)
    assert (fastest.number, slowest.number) == (2, 3)
    assert spread.latency_delta_ms == pytest.approx(0.51)
    assert dict(spread.groups) == pytest.approx({"GridSample": 0.54, "GEMM/MatMul": 0.0, "Quantize/Dequantize": 0.0,
                                                 "normalization and elementwise": -0.02})
    assert spread.unattributed_ms == pytest.approx(-0.01)


def test_a_cause_in_the_recipe_groups_is_flagged_where_the_profiles_put_it_in_grid_sampling(tmp_path):
    sentence = "Compiled, FP8 is slower than fp16 because its FP8 input casts cost more than the GEMMs save."
    study = study_with(tmp_path, sentence)
    [finding] = sg217_unchanged_group_cause.check(CheckContext(study))
    assert finding.code == "SG217" and finding.severity == ERROR
    assert finding.line == line_of(study, "because its FP8 input casts")
    assert finding.message.startswith("the sentence gives GEMM/MatMul, Quantize/Dequantize as a cause, but the "
                                      "profiles put +1.190 ms of the +1.250 ms difference between FP8 and fp16 "
                                      "(compile, 800x800) in GridSample, a group the recipe does not change")


def test_a_cause_where_the_profiles_put_it_passes(tmp_path):
    sentence = "Compiled, FP8 is slower than fp16 because Inductor's grid-sampling kernels take longer in its graph."
    assert sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path, sentence))) == []


def test_no_cause_wording_or_no_difference_passes(tmp_path):
    facts = ("Compiled, FP8 saves 0.05 ms of GEMM time and adds 0.31 ms of casts. "
             "Compiled FP8 calls the FP8 GEMM because TorchDynamo cannot trace the wrappers.")
    assert sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path, facts))) == []


def test_a_difference_within_the_spread_between_compilations_is_not_judged(tmp_path):
    # FP8 at 9.30 with compilations 8.50 to 9.90: the 1.10 ms difference is within FP8's 1.40 ms spread
    fp8 = compiled("fp8", [9.30, 8.50, 9.90], [g for g in (FP8[1]["compilations"][i]["groups"] for i in range(3))])
    sentence = "Compiled, FP8 is slower than fp16 because its FP8 input casts cost more than the GEMMs save."
    assert sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path, sentence, FP16 + fp8))) == []


def test_an_eager_difference_outside_every_group_is_flagged_and_a_sentence_about_another_mode_is_not(tmp_path):
    results = eager("fp16", 20.0, {"GEMM/MatMul": 1.15, "GridSample": 2.9}) + eager(
        "fp8", 54.0, {"GEMM/MatMul": 1.10, "GridSample": 2.9, "Quantize/Dequantize": 0.29})
    sentence = "In eager mode FP8 is slower than fp16 because of its FP8 GEMMs."
    [finding] = sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path, sentence, results)))
    assert "+33.760 ms of the +34.000 ms difference" in finding.message
    assert "outside every kernel group (unattributed: host time, gaps)" in finding.message
    compiled_sentence = "Compiled, FP8 is slower than fp16 because of its FP8 GEMMs."
    assert sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path / "b", compiled_sentence, results))) == []


def _faster_fp8(grid_ms, gemm_ms):
    """FP8 compiled at 7.50 ms (compilations 7.48 to 7.52) against fp16's 8.20: 0.70 ms faster."""
    groups = {"GridSample": grid_ms, "GEMM/MatMul": gemm_ms, "Quantize/Dequantize": 0.05,
              "normalization and elementwise": 0.61}
    return compiled("fp8", [7.50, 7.48, 7.52], [groups, groups, groups])


def test_a_faster_variant_is_judged_by_the_group_that_moved_its_way(tmp_path):
    sentence = "Compiled, FP8 is faster than fp16 because of its FP8 GEMMs."
    # the saving sits in GridSample: 5.77 - 6.37 = -0.60 of -0.70 (GEMM -0.05, casts +0.05)
    [finding] = sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path / "a", sentence,
                                                                          FP16 + _faster_fp8(5.77, 0.80))))
    assert "put -0.600 ms of the -0.700 ms difference" in finding.message and "in GridSample" in finding.message
    # the saving sits in the GEMMs: 0.25 - 0.85 = -0.60 of -0.70: the cause holds
    assert sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path / "b", sentence,
                                                                     FP16 + _faster_fp8(6.37, 0.25)))) == []


def test_a_sentence_about_another_shape_is_not_held_against_this_one(tmp_path):
    sentence = "At 800 x 1067, FP8 is slower than fp16 because its FP8 input casts cost more than the GEMMs save."
    assert sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path, sentence))) == []
    same_shape = sentence.replace("800 x 1067", "800 x 800")
    assert len(sg217_unchanged_group_cause.check(CheckContext(study_with(tmp_path / "b", same_shape)))) == 1


def test_the_cause_sentence_is_read_alone_when_it_follows_another_on_its_line(tmp_path):
    sentence = "Compiled, FP8 is slower than fp16 because its FP8 input casts cost more than the GEMMs save."
    study = study_with(tmp_path, "These are medians. " + sentence + " See the table.")
    [finding] = sg217_unchanged_group_cause.check(CheckContext(study))
    assert finding.message.endswith(f'sentence: "{sentence}"')
    assert finding.hint == ("state where the profiles put the difference (study.attribution_sentence(a, b, ...)), "
                            "or name the cause the kernel groups support")
