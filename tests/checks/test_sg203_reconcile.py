"""SG203: the same measurement in two jobs; variant differences inside the job-to-job spread;
the spread and the per-image bootstrap interval in the README."""

from __future__ import annotations

import json

from studygen.checks import CheckContext, sg203_reconcile
from studygen.findings import ERROR

from .studies import coco_ap, codes, latency, load, readme_lines, record, spec

# The seed's B200 / TensorRT 11.4 AP figures: main job and per-part job.
MAIN = [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625)]
PER_PART = [coco_ap("fp16", 0.4639), coco_ap("fp8", 0.4637)]
TOLERANCES = {"coco": 0.0002}


def seed_like(tmp_path, tolerances=TOLERANCES, per_part=PER_PART, template=None):
    kwargs = {"template": template} if template else {}
    return load(tmp_path, records=[record("main", MAIN), record("per-part", per_part)],
                study=spec(tolerances=tolerances), **kwargs)


def test_same_key_beyond_tolerance_is_an_error_naming_both_jobs(tmp_path):
    study = seed_like(tmp_path)
    findings = codes(sg203_reconcile.check(CheckContext(study)), "SG203")
    across = [f for f in findings if "disagrees across jobs" in f.message]
    assert len(across) == 2
    fp16 = next(f for f in across if f.message.startswith("same measurement disagrees across jobs: fp16"))
    assert fp16.severity == ERROR
    assert fp16.file == "measurements/toy/per-part.json"
    assert fp16.pointer == "/results/0/value"
    text = (tmp_path / "measurements/toy/per-part.json").read_text().splitlines()
    assert '"value": 0.4639' in text[fp16.line - 1]
    assert "0.4644 in job main" in fp16.message and "0.4639 in job per-part" in fp16.message
    assert "spread 0.0005" in fp16.message and "tolerance 0.0002" in fp16.message
    assert fp16.key is not None and fp16.key.startswith("toy|0123456|fp16|")
    fp8 = next(f for f in across if "FP8 AP" in f.message)
    assert "0.4625 in job main" in fp8.message and "0.4637 in job per-part" in fp8.message and "spread 0.0012" in fp8.message


def test_difference_inside_the_spread_is_an_error(tmp_path):
    study = seed_like(tmp_path)
    below = [f for f in sg203_reconcile.check(CheckContext(study)) if "smaller than the job-to-job spread" in f.message]
    # per-part job: 0.4637 - 0.4639 = -0.0002, inside the FP8 spread 0.4625..0.4637 (0.0012);
    # main job: 0.4625 - 0.4644 = -0.0019, outside it, so not reported.
    assert len(below) == 1
    finding = below[0]
    assert finding.file == "measurements/toy/per-part.json" and finding.pointer == "/results/1/value"
    assert "FP8 minus fp16 in job per-part is -0.0002 (0.4637 vs 0.4639)" in finding.message
    assert "spread 0.0012" in finding.message and "0.4625 in job main to 0.4637 in job per-part" in finding.message


def test_within_tolerance_and_single_jobs_pass(tmp_path):
    study = seed_like(tmp_path, tolerances={"coco": 0.002})
    assert [f for f in sg203_reconcile.check(CheckContext(study)) if "disagrees" in f.message] == []
    single = load(tmp_path / "single", records=[record("main", MAIN)], study=spec(tolerances=TOLERANCES))
    assert sg203_reconcile.check(CheckContext(single)) == []


def test_tolerance_lookup_by_metric_kind_and_unit(tmp_path):
    rows_a = [latency("fp16", 5.889), latency("fp8", 5.850)]
    rows_b = [latency("fp16", 5.920), latency("fp8", 5.790)]
    records = [record("a", rows_a), record("b", rows_b)]
    loose = load(tmp_path / "loose", records=records, study=spec(tolerances={"latency_ms": 0.1}))
    assert [f for f in sg203_reconcile.check(CheckContext(loose)) if "disagrees" in f.message] == []
    strict = load(tmp_path / "strict", records=records, study=spec(tolerances={"latency": 0.01}))
    messages = [f.message for f in sg203_reconcile.check(CheckContext(strict)) if "disagrees" in f.message]
    # json.dumps writes 5.92 for 5.920: figures print with the digits their record carries.
    assert any("5.889 in job a; 5.92 in job b" in m and "spread 0.031" in m and "tolerance 0.010" in m for m in messages)
    assert any("5.85 in job a; 5.79 in job b" in m and "spread 0.06" in m for m in messages)


def test_readme_shows_the_job_to_job_spread_next_to_the_figure(tmp_path):
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n"
                "{{ study.table(index=('job_id',), variants=('fp16', 'fp8'), kind='coco_ap') }}\n")
    study = seed_like(tmp_path, template=template)
    lines = readme_lines(study)
    main = next(line for line in lines if line.startswith("| main"))
    assert "0.4644 (2 jobs: 0.4639 to 0.4644)" in main and "0.4625 (2 jobs: 0.4625 to 0.4637)" in main


def _per_image_project(tmp_path, shift_b: float):
    """Two variants evaluated by pycocotools on the same 30 toy images; per-image files next to the records."""
    from studygen.render.stats import per_image_from_cocoeval

    from .coco_toy import evaluate, toy_coco

    gt, dets_a = toy_coco(seed=1)
    _, dets_b = toy_coco(seed=1, shift=shift_b)
    eval_a, eval_b = evaluate(gt, dets_a), evaluate(gt, dets_b)
    files = {
        "measurements/toy/per_image/fp16.json": json.dumps(per_image_from_cocoeval(eval_a)),
        "measurements/toy/per_image/fp8.json": json.dumps(per_image_from_cocoeval(eval_b)),
    }
    results = [coco_ap("fp16", round(float(eval_a.stats[0]), 4), per_image="per_image/fp16.json"),
               coco_ap("fp8", round(float(eval_b.stats[0]), 4), per_image="per_image/fp8.json")]
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n"
                "AP change: {{ study.ap_difference('fp16', 'fp8', job_id='main') }}.\n")
    study = load(tmp_path, records=[record("main", results)], template=template,
                 study=spec(bootstrap={"seed": 7, "ap_resamples": 200}), extra_files=files)
    return study, eval_a, eval_b


def test_ap_difference_prints_a_seeded_per_image_bootstrap_interval(tmp_path):
    from studygen.render.stats import PerImageAP, ap_difference, per_image_from_cocoeval

    study, eval_a, eval_b = _per_image_project(tmp_path, shift_b=12.0)
    line = next(line for line in readme_lines(study) if line.startswith("AP change:"))
    a, b = PerImageAP(per_image_from_cocoeval(eval_a)), PerImageAP(per_image_from_cocoeval(eval_b))
    # The per-image results reproduce pycocotools' AP exactly on the full image list.
    assert abs(a.ap() - eval_a.stats[0]) < 1e-12 and abs(b.ap() - eval_b.stats[0]) < 1e-12
    result = ap_difference(a, b, resamples=200, seed=7)
    points = lambda v: f"{100 * v:+.2f}"  # noqa: E731
    assert f"FP8 minus fp16: {points(round(eval_b.stats[0], 4) - round(eval_a.stats[0], 4))} points" in line
    assert f"95% per-image bootstrap interval {points(result.low)} to {points(result.high)} points" in line
    assert "(200 resamples of 30 images, seed 7)" in line
    # Shifting every box by 12 px costs AP on every resample: the interval lies below 0.
    assert result.high < 0 and result.low <= result.difference <= result.high
    assert readme_lines(study) == readme_lines(study)  # seeded: the same text every render


def test_ap_difference_of_identical_detections_is_zero_with_zero_width(tmp_path):
    study, eval_a, _ = _per_image_project(tmp_path, shift_b=0.0)
    line = next(line for line in readme_lines(study) if line.startswith("AP change:"))
    assert "FP8 minus fp16: 0.00 points" in line and "interval 0.00 to 0.00 points" in line


def test_resampled_ap_equals_cocoeval_on_the_duplicated_image_list():
    """A bootstrap resample (images repeated) gives the AP pycocotools gives on that list."""
    import numpy as np

    from studygen.render.stats import PerImageAP, per_image_from_cocoeval

    from .coco_toy import evaluate, toy_coco

    gt, dets = toy_coco(seed=3, n_images=20)
    per_image = PerImageAP(per_image_from_cocoeval(evaluate(gt, dets)))
    counts = np.bincount(np.random.default_rng(5).integers(0, 20, 20), minlength=20)
    images, annotations, detections = [], [], []
    for index, image_id in enumerate(sorted(im["id"] for im in gt["images"])):
        for copy in range(counts[index]):
            new_id = image_id * 100 + copy  # copies sort next to their original, as the resample orders them
            images.append({"id": new_id, "width": 640, "height": 480})
            for a in gt["annotations"]:
                if a["image_id"] == image_id:
                    annotations.append({**a, "id": len(annotations) + 1, "image_id": new_id})
            detections += [{**d, "image_id": new_id} for d in dets if d["image_id"] == image_id]
    duplicated = evaluate({**gt, "images": images, "annotations": annotations}, detections)
    assert abs(per_image.ap(counts) - duplicated.stats[0]) < 1e-12
