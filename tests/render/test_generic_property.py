"""Property (issue 22 item 3): for generated studies (random variant sets,
GPUs, modes, batches, missing cells, one or several jobs, trtexec-like and
torch-like records; :mod:`.generic_studies`), the README the generic
template renders never draws a finding from ``lint`` or ``check`` that its
own generated text caused.

The README is also an mdformat fixpoint: check does not format a README
equal to render's output again (SG104, :mod:`studygen.checks.readme_markdown`).

A finding the README's text caused is one placed in the README (every lint
finding, and a check finding at a README line), except SG213: it marks a
comparison built on a timing its record flags unstable, which is what the
README's known gaps say of that record; it is the data's finding, printed
wherever that timing is compared. Findings placed in a record (SG207
cross-GPU anomalies, SG208 precision inversions, SG209 provenance, SG210
coverage) are the data's and are not counted.

Profiles (tests/conftest.py): "ci" runs 50 examples; ``pytest
--hypothesis-profile=long`` 1000.
"""

from __future__ import annotations

from hypothesis import given

from studygen.checks import run_checks
from studygen.markdown_format import format_markdown
from studygen.render.engine import render_study, write_rendered
from studygen.study import load_study

from .generic_studies import FAMILY, REVISION, studies, write_study

# Check findings at README lines that the data causes, not the README's text (see the module docstring).
DATA_CODES = {"SG213"}


def own_findings(root, spec, records) -> tuple[str, list]:
    """Render the generated study with the generic template and check it:
    ``(README, findings its own text caused)``."""
    study_dir = write_study(root, spec, records)
    study = load_study(study_dir, root)
    assert not study.problems, study.problems
    rendered = render_study(study)
    # check skips SG104's formatting pass for a README equal to render's output (checks/readme_markdown.py)
    assert format_markdown(rendered.readme) == rendered.readme, "render's output is no mdformat fixpoint"
    write_rendered(rendered)
    readme = study.rel(study.readme_path)
    findings = [f for f in run_checks(load_study(study_dir, root))
                if f.file == readme and f.code not in DATA_CODES]
    return rendered.readme, findings


@given(generated=studies())
def test_the_generic_readme_draws_no_finding_of_its_own(tmp_path_factory, generated):
    root = tmp_path_factory.getbasetemp() / "generic-property"
    spec, records = generated
    readme, findings = own_findings(root, spec, records)
    assert findings == [], "\n".join(f"{f.line}: {f.code} {f.message}" for f in findings) + "\n\n" + readme


def _trtexec_job(job_id: str, figures: dict[str, float], method: dict | None = None) -> dict:
    """A one-log trtexec-like job: the median GPU compute time (ms) of each variant at 224x224, batch 1, on an
    H100 PCIe with TensorRT 10.3.0 (made-up figures, no spread of their own)."""
    provenance = {"gpu": "NVIDIA H100 PCIe", "software": {"tensorrt": "10.3.0"},
                  "checkpoint": {"id": "example/gen", "revision": REVISION, "weights": "pretrained"},
                  "repository_commit": "abcdef1", "collected_at": "2025-06-01T12:00:00Z",
                  "collector": {"name": "studygen collect trtexec", "version": "0"}}
    results = [{"kind": "latency", "variant": variant, "backend": "tensorrt", "mode": "engine", "batch": 1,
                "shape": "224x224", "timing": "gpu_compute", "statistic": "median", "value_ms": value,
                "method": method or {"timer": "trtexec"}} for variant, value in figures.items()]
    return {"schema_version": 1, "job_id": job_id, "family": FAMILY, "provenance": provenance, "results": results}


def _table_rows(readme: str) -> list[list[str]]:
    """The cells of every table line of ``readme``, stripped."""
    return [[cell.strip() for cell in line.strip()[1:-1].split("|")] for line in readme.splitlines()
            if line.startswith("|")]


def _two_variant_spec(**extra) -> dict:
    return {"schema_version": 1, "family": FAMILY, "title": "Generated study", "template": "studygen/generic.md.j2",
            "description": "Two variants, two jobs of one cell.",
            "model": {"id": "example/gen", "revision": REVISION, "weights": "pretrained"},
            "variants": [{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"}],
            "decision": {"shipped": False, "summary": "Nothing is shipped."}, **extra}


def test_a_ratio_of_one_job_inside_the_job_to_job_spread_prints_its_range_over_jobs(tmp_path):
    # job-1 measured fp32 2.004 and fp16 2.001 ms (2.004 / 2.001 = 1.0015, "1.00x", a difference of 0.003 ms);
    # job-2 measured fp16 alone, 2.09 ms: fp16's job-to-job spread is 0.089 ms, wider than that difference.
    # The ratio column printed the job-1 pair alone ("1.00x") and SG203 called it a difference finer than the
    # spread (hypothesis seed 2212). It now carries its range over every job's figures: 2.004 / 2.09 = 0.9589.
    records = [_trtexec_job("job-1", {"fp32": 2.004, "fp16": 2.001}), _trtexec_job("job-2", {"fp16": 2.09})]
    for tolerances in ({"gpu_compute": 0.5}, None):  # the jobs agree within a tolerance, or they disagree (exact)
        spec = _two_variant_spec(**({"tolerances": tolerances} if tolerances else {}))
        readme, findings = own_findings(tmp_path / str(bool(tolerances)), spec, records)
        assert findings == [], "\n".join(f"{f.line}: {f.code} {f.message}" for f in findings)
        assert ["H100 PCIe", "224 x 224", "1", "2.004", "2.001 to 2.09 (2 jobs: job-1, job-2)",
                "1.00x (2 jobs: 0.96x to 1.00x)"] in _table_rows(readme)


def test_a_ratio_every_job_measured_both_ways_keeps_its_paired_range(tmp_path):
    # both jobs measured both variants: the same-job ratios 2.004 / 2.001 = 1.0015 and 2.1 / 2.09 = 1.0048 are
    # the ratio's spread over jobs, and every figure of the cell is in them
    records = [_trtexec_job("job-1", {"fp32": 2.004, "fp16": 2.001}), _trtexec_job("job-2", {"fp32": 2.1, "fp16": 2.09})]
    readme, findings = own_findings(tmp_path, _two_variant_spec(tolerances={"gpu_compute": 0.5}), records)
    assert findings == [], "\n".join(f"{f.line}: {f.code} {f.message}" for f in findings)
    assert ["H100 PCIe", "224 x 224", "1", "2.004 to 2.1 (2 jobs: job-1, job-2)", "2.001 to 2.09 (2 jobs: job-1, job-2)",
            "1.00x"] in _table_rows(readme)


def test_a_figure_timed_otherwise_in_another_job_is_no_job_to_job_spread(tmp_path):
    # job-2 timed fp32 with CUDA graphs on (2.5 ms), job-1 with them off: the same measurement key, but not one
    # measurement (SG212); the README prints them in two tables. Job-1's 2.004 / 2.001 = "1.00x" is no
    # difference inside a job-to-job spread: SG203 read 2.004 to 2.5 as fp32's spread (hypothesis, random seed).
    records = [_trtexec_job("job-1", {"fp32": 2.004, "fp16": 2.001}, {"timer": "trtexec", "cuda_graph": False}),
               _trtexec_job("job-2", {"fp32": 2.5}, {"timer": "trtexec", "cuda_graph": True})]
    readme, findings = own_findings(tmp_path, _two_variant_spec(), records)
    assert findings == [], "\n".join(f"{f.line}: {f.code} {f.message}" for f in findings)
    rows = _table_rows(readme)
    assert rows[rows.index(["GPU", "Shape HxW", "Batch", "fp32 (ms)", "fp16 (ms)", "fp32 / fp16"]) + 2][-1] == "1.00x"


def test_a_ratio_no_job_measured_both_ways_is_its_range_over_every_pair(tmp_path):
    # job-1 measured fp32 alone (4.0 ms), job-2 and job-3 fp16 alone (2.0 and 2.5 ms): no job gives a ratio of its
    # own. The cell led with job-1 / job-2 (4.0 / 2.0 = "2.00x") as if that pairing were the figure, and counted
    # jobs where it meant pairs: "2.00x (3 jobs: 1.60x to 2.00x)". A new user's AP delta read so
    # ("-12.26 (3 jobs: -14.68 to -12.26)"), the smaller loss first by the order the jobs were collected in.
    records = [_trtexec_job("job-1", {"fp32": 4.0}), _trtexec_job("job-2", {"fp16": 2.0}),
               _trtexec_job("job-3", {"fp16": 2.5})]
    readme, findings = own_findings(tmp_path, _two_variant_spec(tolerances={"gpu_compute": 1.0}), records)
    assert ["H100 PCIe", "224 x 224", "1", "4.0", "2.0 to 2.5 (2 jobs: job-2, job-3)",
            "1.60x to 2.00x (2 pairs across 3 jobs; no job measured both)"] in _table_rows(readme)
