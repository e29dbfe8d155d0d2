"""Every shipped family renders, in memory, to exactly its committed README and
charts: any change to what a helper prints shows up here, for the PyTorch
family as well as the TensorRT one."""

from __future__ import annotations

import pytest

from studygen.render.engine import render_study
from studygen.study import family_dirs, load_study

from ..conftest import REPO

FAMILIES = family_dirs(REPO)


def test_the_shipped_studies():
    # the two Deformable DETR studies, and three of public data (issue 22)
    assert [d.name for d in FAMILIES] == ["bert_small_h100_mi300x", "deformable_detr", "deformable_detr_h200_torch",
                                          "hackathon_mnist_trtexec", "jetson_trt7_googlenet"]


@pytest.mark.parametrize("study_dir", FAMILIES, ids=lambda d: d.name)
def test_family_renders_to_its_committed_files(study_dir):
    study = load_study(study_dir, REPO)
    assert not study.problems
    rendered = render_study(study)
    assert rendered.files[study.readme_path] == study.readme_path.read_bytes()
    committed_charts = sorted((study_dir / "figures").glob("*.svg"))
    assert sorted(rendered.charts) == committed_charts
    for path, chart in rendered.charts.items():
        assert chart.is_current(path.read_bytes()), f"{path.relative_to(REPO)} is stale"


@pytest.mark.parametrize("study_dir", FAMILIES, ids=lambda d: d.name)
def test_the_rendered_readme_is_an_mdformat_fixpoint(study_dir):
    # check does not format a README again when it equals render's output (checks/readme_markdown.py): that
    # output must be what SG104's formatting pass leaves as it is
    from studygen.markdown_format import format_markdown

    readme = render_study(load_study(study_dir, REPO)).readme
    assert format_markdown(readme) == readme


def test_a_re_run_job_renders_with_its_spread(tmp_path, run_cli):
    """Issue 14: a second eager job on the H200 (a copy of h200-eager with every
    latency 2 % higher) renders; the eager table shows each cell with the spread
    over both jobs, e.g. fp16 at 800 x 800."""
    import json

    from ..conftest import copy_project

    project = copy_project(tmp_path / "project", families=("deformable_detr_h200_torch",))
    records = project / "measurements" / "deformable_detr_h200_torch"
    data = json.loads((records / "h200-eager.json").read_text())
    data["job_id"] = "h200-eager-2"
    first = next(r for r in data["results"] if r["kind"] == "latency" and r["variant"] == "fp16"
                 and r["shape"] == "800x800")
    before = first["value_ms"]
    for result in data["results"]:
        if result["kind"] == "latency":
            result["value_ms"] = round(result["value_ms"] * 1.02, 3)
            # its statistics with it: a value_ms its own statistics contradict is refused as edited
            result["statistics_ms"] = {name: round(figure * 1.02, 3) for name, figure in result["statistics_ms"].items()}
            result.pop("repeat_medians_ms", None)
    (records / "h200-eager-2.json").write_text(json.dumps(data, indent=2) + "\n")
    result = run_cli("render", "--root", project, "deformable_detr_h200_torch")
    assert result.exit_code == 0, result.err
    readme = (project / "families" / "deformable_detr_h200_torch" / "README.md").read_text()
    # printed at the study's latency precision (3 decimals); the range over both jobs, each named (the cell
    # headlined h200-eager-2's figure before, the first in record order, as if it were the table's)
    low, high = f"{before:.3f}", f"{round(before * 1.02, 3):.3f}"
    eager = next(line for line in readme.splitlines() if line.startswith("| 800 x 800 ") and "2 jobs" in line)
    assert f"| {low} to {high} (2 jobs: h200-eager-2, h200-eager) |" in eager, eager


def test_the_h200_readme_embeds_its_charts_and_words_its_labels():
    readme = (REPO / "families" / "deformable_detr_h200_torch" / "README.md").read_text()
    assert "](figures/latency.svg)" in readme and "](figures/kernel_time.svg)" in readme
    # metric names in words, a count as an integer (h200 records: nonfinite_count 0 for every variant)
    agreement = next(line for line in readme.splitlines() if line.startswith("| non-finite outputs (count)"))
    assert [c.strip() for c in agreement.strip("|").split("|")] == ["non-finite outputs (count)", "800 x 800", "0", "0", "0"]
    assert "logit_correlation" not in readme and "nonfinite_count" not in readme


def test_every_variant_column_of_the_h200_grids_names_its_unit():
    from studygen.render.produced import recording

    study = load_study(REPO / "families" / "deformable_detr_h200_torch", REPO)
    with recording() as produced:
        render_study(study)
    labels = {v["label"] for v in study.spec["variants"]}
    for table in (e for e in produced if e.kind == "table"):
        for header in table.headers:
            ratio = " / " in header  # a ratio column: its cells carry the x
            if not ratio and any(header.startswith(label + " ") or header == label for label in labels):
                assert header.endswith(("(ms)", " ms", "(unit in Metric)")), header
