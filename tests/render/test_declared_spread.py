"""Issue 26 item 1: job-to-job spread (``source: job`` in the study file's ``spread_sources``) is a
declared source like ``compilation``, and render shows every declared source, with its bound, in the
method, whatever modes the records measured (an eager-only study shows it too)."""

from __future__ import annotations

from ..conftest import copy_project

FAMILY = "deformable_detr_h200_torch"
README = f"families/{FAMILY}/README.md"
JOB_REASON = "Eager jobs run in another session or on another machine of the same model differ by more than the repeats inside one job."


def _declare_job_source(root) -> None:
    study = root / "families" / FAMILY / "study.yaml"
    text = study.read_text()
    assert text.rstrip().endswith("bounds what a compiled figure can resolve.")  # spread_sources is the last key
    study.write_text(text.rstrip() + f"\n  - source: job\n    reason: {JOB_REASON}\n    up_to_percent: 3.5\n")


def _sources(lines: list[str]) -> list[str]:
    start = lines.index("Sources of spread between jobs that the study file declares (check holds two jobs' figures "
                        "of one cell against them):")
    end = next(i for i in range(start + 2, len(lines)) if not lines[i].startswith("- "))
    # the list sits in the method, before the image sets
    assert lines.index("## Method") < start < lines.index("## Image sets")
    return lines[start + 2:end]


def test_a_declared_job_source_is_shown_with_its_bound(tmp_path, run_cli):
    root = copy_project(tmp_path, families=(FAMILY,))
    _declare_job_source(root)
    assert run_cli("render", "--root", root).exit_code == 0
    sources = _sources((root / README).read_text().splitlines())
    assert [line.split(" (")[0] for line in sources] == ["- independent compilations", "- independent jobs"]
    assert sources[1] == f"- independent jobs (up to 3.5 % of their mean): {JOB_REASON}"


def test_an_eager_only_study_shows_its_declared_sources(tmp_path, run_cli):
    root = copy_project(tmp_path, families=(FAMILY,))
    _declare_job_source(root)
    for job in ("h200-compile-800x800", "h200-compile-800x1067"):
        (root / "measurements" / FAMILY / f"{job}.json").unlink()
    assert run_cli("render", "--root", root).exit_code == 0
    lines = (root / README).read_text().splitlines()
    assert not any(line.startswith("### Latency with torch.compile") for line in lines)
    assert _sources(lines)[1] == f"- independent jobs (up to 3.5 % of their mean): {JOB_REASON}"
    linted = run_cli("lint", root / README)
    assert linted.out.strip().splitlines()[-1] == "0 error(s), 0 warning(s)", linted.out
