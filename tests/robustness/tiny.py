"""A tiny study written from Python: one family, one job, one dataset, a
small template. Robustness tests build it in ``tmp_path`` and vary the
strings a record carries (notes, dataset selection) or the template."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

FAMILY = "tiny"
JOB_ID = "job-a"
DATASET_ID = "tiny-val-8"

TEMPLATE = """\
{{ generated_note }}

# {{ study.title }}

{{ study.decision.summary }}

## Latency

{{ study.table(index=("gpu", "tensorrt", "shape"), variants=("fp16", "fp8"), kind="latency", derived=[("ratio", "fp16", "fp8", "fp16 / FP8")]) }}

{{ study.list_table(study.figures(kind="latency"), columns=("job_id", "variant", "note", "value"), value_header="Latency (ms)") }}

## Image sets

{{ study.dataset_table() }}

## Provenance

{{ study.provenance_table() }}
"""


def study_spec(family: str = FAMILY, template: str = f"{FAMILY}.md.j2") -> dict:
    """A minimal valid study file (schemas/study.schema.json)."""
    return {
        "schema_version": 1,
        "family": family,
        "title": f"{family}: fp16 against FP8 on one shape",
        "template": template,
        "model": {"id": "example/tiny-detector", "revision": "0123456789abcdef0123456789abcdef01234567",
                  "weights": "pretrained"},
        "variants": [{"name": "fp16", "precision": "fp16", "label": "fp16"},
                     {"name": "fp8", "precision": "fp8", "label": "FP8"}],
        "decision": {"shipped": False, "summary": "FP8 is not shipped for this family."},
    }


def latency_result(variant: str, value_ms: float, note: str | None = None) -> dict:
    result = {"kind": "latency", "variant": variant, "shape": "640x640", "batch": 1, "backend": "tensorrt",
              "mode": "engine", "timing": "gpu_compute", "statistic": "median", "value_ms": value_ms,
              "method": {"timer": "trtexec", "cuda_graph": False, "data_transfers": False, "spin_wait": True}}
    if note is not None:
        result["note"] = note
    return result


def run_record(family: str = FAMILY, job_id: str = JOB_ID, note: str | None = None,
               latencies=(("fp16", 2.5), ("fp8", 2.75))) -> dict:
    """A valid run record (schemas/run_record.schema.json) from a collector."""
    return {
        "schema_version": 1,
        "job_id": job_id,
        "family": family,
        "description": "TensorRT latency of the tiny detector (test data, not a measurement).",
        "provenance": {
            "gpu": "NVIDIA H100 80GB HBM3",
            "driver": "570.86.15",
            "software": {"tensorrt": "10.8.0.43", "cuda": "12.8"},
            "checkpoint": {"id": "example/tiny-detector", "revision": "0123456789abcdef0123456789abcdef01234567",
                           "weights": "pretrained"},
            "repository_commit": "0123abcd",
            "collected_at": "2025-01-01T00:00:00Z",
            "collector": {"name": "studygen-collect-trtexec", "version": "0.1.0"},
        },
        "results": [latency_result(variant, value, note) for variant, value in latencies],
    }


def dataset(selection: str = "the first 8 images by id") -> dict:
    """A valid dataset definition whose ids were not published."""
    return {"schema_version": 1, "dataset_id": DATASET_ID, "source": "example images", "split": "validation",
            "role": "evaluation", "selection": selection, "count": 8,
            "ids_not_published": "test data: no image list exists"}


def write_json(path: Path, document) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def make_tiny_project(root: Path, *, family: str = FAMILY, note: str | None = None,
                      selection: str = "the first 8 images by id", template: str = TEMPLATE,
                      records: list[dict] | None = None) -> Path:
    """Write a project holding one tiny family under ``root``; return ``root``."""
    study_dir = root / "families" / family
    study_dir.mkdir(parents=True, exist_ok=True)
    (study_dir / "study.yaml").write_text(yaml.safe_dump(study_spec(family), sort_keys=False), encoding="utf-8")
    (root / "templates").mkdir(parents=True, exist_ok=True)
    (root / "templates" / f"{family}.md.j2").write_text(template, encoding="utf-8")
    measurements = root / "measurements" / family
    for record in records if records is not None else [run_record(family, note=note)]:
        write_json(measurements / f"{record['job_id']}.json", record)
    write_json(measurements / "datasets" / f"{DATASET_ID}.json", dataset(selection))
    return root
