"""Small studies written to ``tmp_path`` for the check tests: a study file, run
records, dataset definitions and a template, laid out as a project
(``families/<f>/study.yaml``, ``measurements/<f>/``, ``templates/``).

Figures in these studies are made up for the tests (the family is ``toy``);
each test states the values it asserts.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import yaml

FAMILY = "toy"
REVISION = "0123456789abcdef0123456789abcdef01234567"

MINIMAL_TEMPLATE = """\
{{ generated_note }}

# {{ study.title }}

{{ study.decision.summary }}
"""


def spec(**overrides) -> dict:
    """A valid study file with fp32, fp16 and FP8 variants."""
    base = {
        "schema_version": 1,
        "family": FAMILY,
        "title": "Toy detector: FP8 study",
        "template": f"{FAMILY}.md.j2",
        "model": {"id": "example/toy-detector", "revision": REVISION, "weights": "pretrained"},
        "variants": [
            {"name": "fp32", "precision": "fp32", "label": "fp32"},
            {"name": "fp16", "precision": "fp16", "label": "fp16"},
            {"name": "fp8", "precision": "fp8", "recipe": "linears", "label": "FP8"},
        ],
        "recipes": {"linears": {"description": "FP8 linears", "calibration_set": "calib-4"}},
        "decision": {"shipped": False, "summary": "FP8 is not shipped."},
    }
    base.update(overrides)
    return base


def collected_provenance(gpu: str = "NVIDIA H200", tensorrt: str | None = "11.4.0.106", **overrides) -> dict:
    """Provenance of a collected record (collector, GPU, versions, revision, commit)."""
    provenance = {
        "gpu": gpu,
        "driver": "580.1",
        "software": {"tensorrt": tensorrt, "torch": "2.11.0", "cuda": "13.0"},
        "checkpoint": {"id": "example/toy-detector", "revision": REVISION, "weights": "pretrained"},
        "repository_commit": "abcdef1",
        "collected_at": "2025-06-01T12:00:00Z",
        "collector": {"name": "studygen-test", "version": "0"},
    }
    provenance.update(overrides)
    return provenance


def record(job_id: str, results: list[dict], provenance: dict | None = None, **extra) -> dict:
    doc = {"schema_version": 1, "job_id": job_id, "family": FAMILY,
           "provenance": provenance or collected_provenance(), "results": results}
    doc.update(extra)
    return doc


def latency(variant: str, value_ms: float, shape: str = "800x800", *, repeats=None, timing: str = "gpu_compute",
            method: dict | None = None, **extra) -> dict:
    """A TensorRT latency result; ``repeats`` are per-repeat medians (ms)."""
    result = {"kind": "latency", "variant": variant, "shape": shape, "batch": 1, "backend": "tensorrt",
              "mode": "engine", "timing": timing, "statistic": "median", "value_ms": value_ms,
              "method": method if method is not None else {"timer": "trtexec"}}
    if repeats is not None:
        result["distribution"] = {"repeats": len(repeats), "repeat_medians_ms": list(repeats)}
    if variant == "fp8" and "fp8_evidence" not in extra:
        result["fp8_evidence"] = {"kernels": [{"name": "sm90_xmma_gemm_e4m3f16_e4m3f32_f32_tn_n", "time_ms": 0.07}]}
    result.update(extra)
    return result


def coco_ap(variant: str, value: float, dataset: str = "val-8", **extra) -> dict:
    result = {"kind": "coco_ap", "variant": variant, "statistic": "AP", "value": value, "dataset": dataset,
              "batch": 1, "backend": "tensorrt", "mode": "engine"}
    result.update(extra)
    return result


def kernel_time(variant: str, groups: dict[str, float], shape: str = "800x1067", total: float | None = None,
                **extra) -> dict:
    result = {"kind": "kernel_time", "variant": variant, "shape": shape, "batch": 1, "backend": "tensorrt",
              "mode": "engine", "groups": [{"group": g, "time_ms": t} for g, t in groups.items()]}
    if total is not None:
        result["profiled_total_ms"] = total
    result.update(extra)
    return result


def dataset(dataset_id: str, role: str, count: int, *, ids=None, disjoint_from=(), **extra) -> dict:
    """A dataset definition; ``ids`` lists image ids (count and sha256 follow), else ids are unpublished."""
    from studygen.digests import image_ids_sha256

    doc = {"schema_version": 1, "dataset_id": dataset_id, "source": "toy images", "split": "val", "role": role,
           "selection": f"{count} toy images", "count": count, "disjoint_from": list(disjoint_from)}
    if ids is not None:
        doc.update(image_ids=list(ids), image_ids_sha256=image_ids_sha256(ids), count=len(ids))
    else:
        doc["ids_not_published"] = "not published by the toy source"
    doc.update(extra)
    return doc


DEFAULT_DATASETS = {
    "calib-4": dataset("calib-4", "calibration", 4, ids=[1, 2, 3, 4]),
    "val-8": dataset("val-8", "evaluation", 8, ids=[11, 12, 13, 14, 15, 16, 17, 18]),
}


def write_project(root: Path, *, records: list[dict], template: str = MINIMAL_TEMPLATE, datasets=None,
                  study: dict | None = None, extra_files: dict[str, str] | None = None) -> Path:
    """Write a one-family project under ``root``; return the study folder."""
    study = copy.deepcopy(study or spec())
    study_dir = root / "families" / FAMILY
    records_dir = root / "measurements" / FAMILY
    (records_dir / "datasets").mkdir(parents=True, exist_ok=True)
    study_dir.mkdir(parents=True, exist_ok=True)
    (root / "templates").mkdir(exist_ok=True)
    (study_dir / "study.yaml").write_text(yaml.safe_dump(study, sort_keys=False), encoding="utf-8")
    (root / "templates" / study["template"]).write_text(template, encoding="utf-8")
    for doc in records:
        (records_dir / f"{doc['job_id']}.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    for dataset_id, doc in (DEFAULT_DATASETS if datasets is None else datasets).items():
        (records_dir / "datasets" / f"{dataset_id}.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    for rel, text in (extra_files or {}).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return study_dir


def load(root: Path, **kwargs):
    """Write the project and load its study (studygen.study.load_study)."""
    from studygen.study import load_study

    study_dir = write_project(root, **kwargs)
    study = load_study(study_dir, root)
    assert not study.problems, study.problems
    return study


def readme_lines(study) -> list[str]:
    """The README as render makes it now (the text the checks read), as lines."""
    from studygen.checks import CheckContext

    context = CheckContext(study)
    assert context.render_error is None, context.render_error
    return context.rendered.readme.splitlines()


def line_of(study, needle: str) -> int:
    """1-based line of the first README line containing ``needle``."""
    lines = readme_lines(study)
    return next(i + 1 for i, line in enumerate(lines) if needle in line)


def codes(findings, code: str) -> list:
    return [f for f in findings if f.code == code]
