"""The built-in generic template (studygen/generic.md.j2): a study renders with
no template of its own, a family template extends it block by block, and the
name cannot be shadowed by a project file."""

from __future__ import annotations

import yaml

from studygen.render.engine import GENERIC_TEMPLATE, make_environment, render_markdown
from studygen.study import load_study

from ..checks.studies import FAMILY, coco_ap, collected_provenance, kernel_time, latency, record, write_project
from ..conftest import REPO
from .test_tables import cells

# Issue 14 item 2's sections, each one block of the generic template
SECTION_BLOCKS = {"header", "summary", "variants", "method", "image_sets", "results", "latency", "plan_size",
                  "quality", "agreement", "kernel_time", "spread", "side_findings", "runs_without_figure", "not_measured", "notes",
                  "known_gaps",
                  "revisit", "provenance"}


def generic_study(tmp_path, records):
    """A toy project whose study file names the built-in template (and no template file)."""
    study_dir = write_project(tmp_path, records=records)
    study_file = study_dir / "study.yaml"
    spec = yaml.safe_load(study_file.read_text())
    spec["template"] = GENERIC_TEMPLATE
    spec["decision"]["revisit_when"] = ["a TensorRT release fuses the FP8 casts"]
    study_file.write_text(yaml.safe_dump(spec, sort_keys=False))
    (tmp_path / "templates" / f"{FAMILY}.md.j2").unlink()
    return load_study(study_dir, tmp_path)


def tables_of(markdown: str) -> list[list[list[str]]]:
    blocks, current = [], []
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            blocks.append(cells("\n".join(current)))
            current = []
    return blocks


def test_a_study_renders_with_the_generic_template_alone(tmp_path):
    a = record("a", [latency("fp16", 5.0), latency("fp8", 4.0), latency("fp16", 8.0, "800x1067")])
    b = record("b", [latency("fp16", 5.5), latency("fp8", 4.4), coco_ap("fp16", 0.46), coco_ap("fp8", 0.455),
                     kernel_time("fp16", {"GEMM/MatMul": 0.4, "other": 0.2})],
               collected_provenance(gpu="NVIDIA B200"))
    text = render_markdown(generic_study(tmp_path, [a, b]))
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings == ["# Toy detector: FP8 study", "## Summary and decision", "## Variants", "### Recipe linears",
                        "## Image sets", "## Results", "### Latency (ms, median GPU compute time)", "### COCO AP",
                        "### Kernel time per group (ms)", "## When to revisit", "## Provenance"]
    tables = tables_of(text)
    latency_table, ap_table, kernel_table = tables[1], tables[2], tables[3]
    # columns only for variants with rows (no fp32), ratio against the first (fp16); GPU and shape as index
    # batch always when set (issue 22: "batch 4" was never said when every row shared it)
    assert latency_table == [["GPU", "Shape HxW", "Batch", "fp16 (ms)", "FP8 (ms)", "fp16 / FP8"],
                             ["H200", "800 x 800", "1", "5.0", "4.0", "1.25x"],
                             ["H200", "800 x 1067", "1", "8.0", "—", "n/a"],
                             ["B200", "800 x 800", "1", "5.5", "4.4", "1.25x"]]  # 5.5 / 4.4
    assert ap_table == [["GPU", "Batch", "fp16 (AP)", "FP8 (AP)", "FP8 minus fp16 (AP points)"],
                        ["B200", "1", "0.46", "0.455", "-0.50"]]  # 100 * (0.455 - 0.46)
    assert kernel_table == [["GPU", "Shape HxW", "Batch", "Kernel group", "fp16 (ms)"],
                            ["B200", "800 x 1067", "1", "GEMM/MatMul", "0.4"], ["B200", "800 x 1067", "1", "other", "0.2"]]
    assert "- a TensorRT release fuses the FP8 casts" in text
    assert "Calibration set: `calib-4`." in text


def test_index_fields_add_what_differs_between_rows(tmp_path):
    # TensorRT differs between the jobs, so it becomes an index column; mode does not. The flags are
    # stated: left to each version's defaults the two would be timed differently, a table each (SG212)
    method = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}
    a = record("a", [latency("fp16", 5.0, method=method)])
    b = record("b", [latency("fp16", 5.2, method=method)], collected_provenance(tensorrt="10.13.3.9"))
    text = render_markdown(generic_study(tmp_path, [a, b]))
    # each version as its record gives it: 10.13.3.9, not 10.13 (the logs and the study file name it so)
    assert tables_of(text)[1][:3] == [["GPU", "TensorRT", "Shape HxW", "Batch", "fp16 (ms)"],
                                      ["H200", "11.4.0.106", "800 x 800", "1", "5.0"],
                                      ["H200", "10.13.3.9", "800 x 800", "1", "5.2"]]


def test_the_generic_template_has_a_block_per_section():
    env = make_environment([])
    assert set(env.get_template(GENERIC_TEMPLATE).blocks) == SECTION_BLOCKS


def test_shipped_family_templates_extend_the_generic_one():
    for path in sorted((REPO / "templates").glob("*.md.j2")):
        assert path.read_text().splitlines()[0] == '{% extends "studygen/generic.md.j2" %}', path.name


def test_a_project_file_cannot_shadow_the_builtin_name(tmp_path):
    study = generic_study(tmp_path, [record("a", [latency("fp16", 5.0)])])
    shadow = tmp_path / "templates" / "studygen" / "generic.md.j2"
    shadow.parent.mkdir()
    shadow.write_text("shadowed\n")
    assert "shadowed" not in render_markdown(study)
