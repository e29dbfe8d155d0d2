"""Noise verdicts and AP differences as the view prints them.

Repeat medians are chosen so that the bootstrap interval follows by hand: with
one side constant and the other {4.9, 5.0, 5.1}, a resample's median is one of
the three values, each with probability at least 7/27 (two or three of three
draws), so the 2.5 and 97.5 percentiles are the extreme differences.
"""

from __future__ import annotations

import json

import pytest

from studygen.errors import TemplateError
from studygen.render.view import StudyView

from ..checks.studies import coco_ap, kernel_time, latency, load, record, spec
from .views import places, printed

SPREAD = [4.9, 5.0, 5.1]


def view(tmp_path, results, study=None, jobs=None, files=None) -> StudyView:
    records = [record("main", results)] + [record(job, rows) for job, rows in (jobs or {}).items()]
    return StudyView(load(tmp_path, records=records, study=study, extra_files=files))


def timings(fp16_repeats, fp8_repeats, shapes=("800x800",)):
    """fp16 and FP8 latencies with repeat medians at each shape, and a kernel time of each (not a latency)."""
    rows = []
    for shape in shapes:
        rows += [latency("fp16", sorted(fp16_repeats)[len(fp16_repeats) // 2], shape, repeats=fp16_repeats),
                 latency("fp8", sorted(fp8_repeats)[len(fp8_repeats) // 2], shape, repeats=fp8_repeats)]
    return rows + [kernel_time("fp16", {"GEMM/MatMul": 0.4}, shape=shapes[0]),
                   kernel_time("fp8", {"GEMM/MatMul": 0.3}, shape=shapes[0])]


def test_beyond_noise_with_sign_spread_and_interval(tmp_path):
    study = view(tmp_path, timings(SPREAD, [5.2, 5.2, 5.2]))
    text, recorded = printed(study.noise_verdict, "fp16", "fp8")
    # medians 5.0 and 5.2; resampled differences 0.1, 0.2, 0.3
    assert text == ("FP8 minus fp16: +0.200 ms (median of repeat medians; fp16 4.900 to 5.100 ms over 3 repeats, "
                    "FP8 5.200 to 5.200 ms over 3 repeats); 95% bootstrap interval of the median difference "
                    "+0.100 to +0.300 ms (10000 resamples, seed 0): beyond run-to-run noise")
    entry = recorded[-1]
    assert entry.kind == "verdict" and entry.text == text
    assert places(entry.rows) == [("main", "/results/0/value_ms"), ("main", "/results/1/value_ms")]


def test_within_noise_when_the_interval_holds_zero(tmp_path):
    study = view(tmp_path, timings(SPREAD, [5.0, 5.0, 5.0]))
    text = study.noise_verdict("fp16", "fp8")
    assert "FP8 minus fp16: 0.000 ms" in text
    assert "median difference -0.100 to +0.100 ms" in text
    assert text.endswith(": within run-to-run noise")


def test_filters_select_the_shape_and_print_as_restriction(tmp_path):
    study = view(tmp_path, timings(SPREAD, [4.7, 4.7, 4.7], shapes=("800x800", "800x1067")))
    text = study.noise_verdict("fp16", "fp8", shape="800x1067")
    assert text.startswith("FP8 minus fp16 (at 800 x 1067 only): -0.300 ms")
    with pytest.raises(TemplateError, match="expected one figure for .*'kind': 'latency', 'variant': 'fp16'.*found 2"):
        study.noise_verdict("fp16", "fp8")  # two shapes: the filters must pick one latency a side


def test_study_file_sets_resamples_and_seed(tmp_path):
    study = view(tmp_path, timings(SPREAD, [5.2, 5.2, 5.2]), study=spec(bootstrap={"resamples": 200, "seed": 5}))
    text = study.noise_verdict("fp16", "fp8")
    assert text.endswith("+0.100 to +0.300 ms (200 resamples, seed 5): beyond run-to-run noise")


@pytest.mark.parametrize(("fp16_repeats", "fp8_repeats"), [([5.0, 5.1], SPREAD), (SPREAD, [5.2, 5.2])])
def test_fewer_than_three_repeats_on_either_side_give_no_verdict(tmp_path, fp16_repeats, fp8_repeats):
    study = view(tmp_path, timings(fp16_repeats, fp8_repeats))
    text, recorded = printed(study.noise_verdict, "fp16", "fp8")
    assert text == (f"no noise verdict for FP8 against fp16: {len(fp16_repeats)} and {len(fp8_repeats)} repeat medians "
                    "recorded, at least 3 a side are needed")
    assert recorded[-1].kind == "no_verdict"
    assert places(recorded[-1].rows) == [("main", "/results/0/value_ms"), ("main", "/results/1/value_ms")]


def test_three_repeats_a_side_are_enough(tmp_path):
    assert view(tmp_path, timings(SPREAD, [5.0, 5.0, 5.0])).noise_verdict("fp16", "fp8").endswith("noise")


def ap_rows(fp16: float, fp8: float) -> list[dict]:
    """AP and AP50 of fp16 and FP8, and AP differences stated as such (neither picked by ap_difference)."""
    return [coco_ap("fp16", fp16), coco_ap("fp8", fp8),
            coco_ap("fp16", 0.65, statistic="AP50"), coco_ap("fp8", 0.64, statistic="AP50"),
            {"kind": "coco_ap_delta", "variant": "fp8", "reference_variant": "fp16", "statistic": "AP", "delta_points": -0.2},
            {"kind": "coco_ap_delta", "variant": "fp16", "reference_variant": "fp32", "statistic": "AP", "delta_points": -0.1}]


def test_ap_difference_with_each_figures_spread_over_jobs(tmp_path):
    study = view(tmp_path, ap_rows(0.4644, 0.4625), jobs={"rerun": ap_rows(0.4639, 0.4637)})
    text, recorded = printed(study.ap_difference, "fp16", "fp8", job_id="main")
    # 0.4625 - 0.4644 = -0.0019 AP = -0.19 points
    assert text == ("FP8 minus fp16: -0.19 points (fp16 0.4644 (2 jobs: 0.4639 to 0.4644), FP8 0.4625 "
                    "(2 jobs: 0.4625 to 0.4637)); no per-image results, so no bootstrap interval")
    entry = recorded[-1]
    assert entry.kind == "ap_difference" and entry.text == text
    assert places(entry.rows) == [("main", "/results/0/value"), ("main", "/results/1/value")]
    with pytest.raises(TemplateError, match="found 2"):
        study.ap_difference("fp16", "fp8")  # two jobs report AP: the filters must pick one


def test_ap_difference_sign_and_study_precision(tmp_path):
    study = view(tmp_path, ap_rows(0.4625, 0.4644), study=spec(precision={"ap_delta_points": 1}))
    assert study.ap_difference("fp16", "fp8").startswith("FP8 minus fp16: +0.2 points (fp16 0.4625, FP8 0.4644)")


def test_ap_difference_of_another_statistic(tmp_path):
    study = view(tmp_path, ap_rows(0.4644, 0.4625))
    assert study.ap_difference("fp16", "fp8", statistic="AP50").startswith("FP8 minus fp16: -1.00 points (fp16 0.65, FP8 0.64)")


def per_image_files(n_fp16: int, n_fp8: int) -> dict[str, str]:
    from studygen.render.stats import per_image_from_cocoeval

    from ..checks.coco_toy import evaluate, toy_coco

    files = {}
    for variant, n_images in (("fp16", n_fp16), ("fp8", n_fp8)):
        gt, dets = toy_coco(seed=1, n_images=n_images)
        files[f"measurements/toy/per_image/{variant}.json"] = json.dumps(per_image_from_cocoeval(evaluate(gt, dets)))
    return files


def test_per_image_results_on_one_side_only_give_no_interval(tmp_path):
    results = [coco_ap("fp16", 0.5, per_image="per_image/fp16.json"), coco_ap("fp8", 0.49)]
    study = view(tmp_path, results, files=per_image_files(10, 10))
    assert study.ap_difference("fp16", "fp8").endswith("; no per-image results, so no bootstrap interval")


def test_per_image_results_of_different_images_are_a_template_error(tmp_path):
    results = [coco_ap("fp16", 0.5, per_image="per_image/fp16.json"), coco_ap("fp8", 0.49, per_image="per_image/fp8.json")]
    study = view(tmp_path, results, files=per_image_files(10, 8))
    with pytest.raises(TemplateError) as raised:
        study.ap_difference("fp16", "fp8")
    assert raised.value.message == \
        "ap_difference('fp16', 'fp8'): per-image results cover different images (10 and 8 images)"


def test_malformed_per_image_results_name_the_file_and_line(tmp_path):
    results = [coco_ap("fp16", 0.5, per_image="per_image/fp16.json"), coco_ap("fp8", 0.49, per_image="per_image/fp8.json")]
    files = per_image_files(10, 10)
    files["measurements/toy/per_image/fp8.json"] = '{"format": "studygen-per-image-ap",\n "version": 1,,}'
    study = view(tmp_path, results, files=files)
    with pytest.raises(TemplateError) as raised:
        study.ap_difference("fp16", "fp8")
    assert raised.value.message == ("per-image results measurements/toy/per_image/fp8.json:2: malformed JSON: "
                                    "Expecting property name enclosed in double quotes (column 15)")


@pytest.mark.parametrize("text, message", [
    ("[" * 5000 + "]" * 5000, ":1: malformed JSON: nested too deeply to read (the limit is 100 levels)"),
    ('{"format": "studygen-per-image-ap", "images": ["\\ud800"]}',
     ":/images/0: a lone surrogate (\\ud800) in a string: not a Unicode character, so not writable as UTF-8"),
], ids=["deep", "surrogate"])
def test_deep_or_surrogate_per_image_results_are_a_template_error_naming_the_place(tmp_path, text, message):
    # issue 24: json.loads raised RecursionError here, which check reported as a template error of the wrong file
    results = [coco_ap("fp16", 0.5, per_image="per_image/fp16.json"), coco_ap("fp8", 0.49, per_image="per_image/fp8.json")]
    files = per_image_files(10, 10)
    files["measurements/toy/per_image/fp8.json"] = text
    study = view(tmp_path, results, files=files)
    with pytest.raises(TemplateError) as raised:
        study.ap_difference("fp16", "fp8")
    assert raised.value.message == f"per-image results measurements/toy/per_image/fp8.json{message}"


def test_per_image_files_are_read_once_per_view(tmp_path):
    results = [coco_ap("fp16", 0.5, per_image="per_image/fp16.json"), coco_ap("fp8", 0.49, per_image="per_image/fp8.json")]
    study = view(tmp_path, results, files=per_image_files(10, 10), study=spec(bootstrap={"ap_resamples": 100, "seed": 2}))
    first = study.ap_difference("fp16", "fp8")
    assert "(100 resamples of 10 images, seed 2)" in first
    (tmp_path / "measurements/toy/per_image/fp8.json").write_text("not json")
    assert study.ap_difference("fp16", "fp8") == first


def test_per_image_interval_with_default_settings_and_signs(tmp_path):
    from studygen.render.stats import PerImageAP, ap_difference, per_image_from_cocoeval

    from ..checks.coco_toy import evaluate, toy_coco

    gt, dets = toy_coco(seed=1, n_images=8)
    _, worse = toy_coco(seed=1, n_images=8, shift=12.0)
    evals = {"fp16": evaluate(gt, worse), "fp8": evaluate(gt, dets)}  # FP8 the better one: a positive difference
    files = {f"measurements/toy/per_image/{v}.json": json.dumps(per_image_from_cocoeval(e)) for v, e in evals.items()}
    results = [coco_ap(v, round(float(e.stats[0]), 4), per_image=f"per_image/{v}.json") for v, e in evals.items()]
    text = view(tmp_path, results, files=files).ap_difference("fp16", "fp8")
    expected = ap_difference(*(PerImageAP(per_image_from_cocoeval(evals[v])) for v in ("fp16", "fp8")), resamples=1000, seed=0)
    assert expected.low > 0
    assert text.endswith(f"; 95% per-image bootstrap interval +{100 * expected.low:.2f} to +{100 * expected.high:.2f} "
                         "points (1000 resamples of 8 images, seed 0)")


def test_a_missing_per_image_file_is_named(tmp_path):
    from studygen.errors import InputError

    results = [coco_ap("fp16", 0.5, per_image="per_image/fp16.json"), coco_ap("fp8", 0.49, per_image="per_image/fp8.json")]
    files = per_image_files(10, 10)
    del files["measurements/toy/per_image/fp8.json"]
    study = view(tmp_path, results, files=files)
    with pytest.raises(InputError) as raised:
        study.ap_difference("fp16", "fp8")
    assert (raised.value.path, raised.value.message) == ("measurements/toy/per_image/fp8.json", "no such file")
