"""What the check speed-ups (issue 7, scale) must not change: the scale
benchmark's synthetic project holds only its deliberate findings; latency
points drawn one call per run of alike jobs give the same pixels as one call
per job; the fast JSON and path helpers answer as the slow ones did.
Times are printed by benchmarks/check_scale.py, never asserted here."""

from __future__ import annotations

import gc
import importlib.util
import io
import json
import os
from collections import Counter

import pytest

from studygen.commands.check import CheckOptions, run_check
from studygen.lint.parse import collector_paused
from studygen.errors import RecordError
from studygen.textio import parse_json
from studygen.numbers import SourceFloat
from studygen.fsutil import shown_path, shown_paths_in
from studygen.study import load_study
from tests.conftest import REPO


def _benchmark():
    spec = importlib.util.spec_from_file_location("check_scale", REPO / "benchmarks" / "check_scale.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def synthetic_project(tmp_path_factory):
    """One synthetic family of 80 records (the benchmark's generator: 20
    platforms x 2 shapes x batch 1 and 2), rendered; every 20th record has an
    FP8 engine slower than fp16 (``INVERSION_EVERY`` 20)."""
    from studygen.cli import run

    bench = _benchmark()
    bench.INVERSION_EVERY = 20
    root = tmp_path_factory.mktemp("scale")
    assert bench.generate(root, 1, 80) == 80
    assert run(["render", "--root", str(root)]) == 0
    return root


def test_synthetic_project_has_only_its_deliberate_findings(synthetic_project):
    findings = run_check(CheckOptions(root=synthetic_project))
    codes = Counter(f.code for f in findings)
    # the dataset without published ids (SG205, a warning) and the four deliberate inversions (SG208)
    assert codes["SG205"] == 1 and codes["SG208"] == 4
    inverted = {f"measurements/synthetic_000/job-{i:05d}.json" for i in (19, 39, 59, 79)}
    assert {f.file for f in findings if f.code == "SG208"} == inverted
    # an inverted FP8 latency may also stand out against the other platforms (SG207); nothing else does
    assert {f.file for f in findings if f.code == "SG207"} <= inverted
    assert set(codes) <= {"SG205", "SG207", "SG208"}
    records = sorted((synthetic_project / "measurements" / "synthetic_000").glob("*.json"))
    assert all(json.loads(p.read_text())["synthetic"] is True for p in records)


def _latency_png(study, monkeypatch, one_call_per_row: bool) -> bytes:
    """The latency figure drawn to PNG (Agg), with alike jobs grouped or one call per job."""
    from studygen.render import charts, drawing

    def png(fig) -> bytes:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()

    monkeypatch.setattr(drawing, "_svg_bytes", png)
    if one_call_per_row:  # the drawing before grouping: every job its own scatter/vlines/hlines call
        grouped = drawing._same_look_runs
        monkeypatch.setattr(drawing, "_same_look_runs",
                            lambda picked, x: [[item] for run in grouped(picked, x) for item in run])
    out = charts.latency_chart(study).drawing()
    monkeypatch.undo()
    return out


def test_grouped_latency_points_draw_the_same_pixels(synthetic_project, monkeypatch):
    import matplotlib.image

    study = load_study(synthetic_project / "families" / "synthetic_000", synthetic_project)
    # each job label has two rows per panel and variant (batch 1 and 2): repeats for
    # whole labels (runs of two with repeats), for one batch of another GPU (a run split
    # by the look), none for the rest (runs of two single points)
    for row in study.rows:
        if row.kind == "latency" and (row.gpu in ("NVIDIA B200", "NVIDIA H200")
                                      or (row.gpu == "NVIDIA B300" and row.batch == 1)):
            # a latency result is one row: its repeats are read from the result it holds
            row.result.setdefault("distribution", {})["repeat_medians_ms"] = [row.value * f for f in (0.98, 1.0, 1.03)]
    grouped = _latency_png(study, monkeypatch, one_call_per_row=False)
    per_row = _latency_png(study, monkeypatch, one_call_per_row=True)
    grouped_pixels = matplotlib.image.imread(io.BytesIO(grouped))
    per_row_pixels = matplotlib.image.imread(io.BytesIO(per_row))
    assert grouped_pixels.shape == per_row_pixels.shape
    assert (grouped_pixels == per_row_pixels).all()

    from studygen.render import charts

    chart = charts.latency_chart(study)
    svg = chart.svg.decode()
    latency_rows = sum(1 for r in study.rows if r.kind == "latency")
    # issue 22: a job's batch 1 and batch 2 points are told apart by their labels ("... batch 2"), so they
    # are two series, no longer one run drawn by one artist; never more artists than points
    labels = [label for points in chart.draw.args[1].values() for label, _, _ in points]
    assert len(labels) == latency_rows and len(set(labels)) < len(labels)
    assert any(" batch 2" in label for label in labels)
    assert svg.count('<g id="PathCollection_') <= latency_rows


def test_parse_json_still_refuses_what_reads_as_infinity():
    near_limit = "9" * 99 + ".5e99"  # below the prefilter: read without the per-float test, and finite
    assert parse_json(f'{{"a": {near_limit}}}', "x.json")["a"] == pytest.approx(1e198)
    for literal in ("1e400", "1E+400", "1" * 400 + ".0", "0.5e0309"):
        with pytest.raises(RecordError, match="out of range"):
            parse_json(f'{{"note": "tilesize128", "a": {literal}}}', "x.json")
    value = parse_json('{"kernel": "sm100_gemm_e4m3_tilesize128", "ms": 0.4090}', "x.json")["ms"]
    assert isinstance(value, SourceFloat) and value.source == "0.4090"
    with pytest.raises(RecordError, match="duplicate key 'b'"):
        parse_json('{"a": {"b": 1, "c": 2, "b": 3}}', "x.json")


def test_shown_paths_in_equals_shown_path(tmp_path):
    root = tmp_path / "project"
    records = root / "measurements" / "toy"
    records.mkdir(parents=True)
    (records / "job-1.json").write_text("{}")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "real.json").write_text("{}")
    os.symlink(elsewhere / "real.json", records / "linked.json")
    for folder in (records, root / "measurements" / ".." / "measurements" / "toy", elsewhere):
        shown = shown_paths_in(folder, root)
        for path in sorted(folder.glob("*.json")):
            assert shown(path) == shown_path(path, root)
    assert shown_paths_in(records, root)(records / "job-1.json") == "measurements/toy/job-1.json"
    # a link is shown where it lies (the target is outside the root): attack round, it was shown by its absolute path
    assert shown_paths_in(records, root)(records / "linked.json") == "measurements/toy/linked.json"


def test_the_collector_is_paused_while_a_study_is_checked_and_restored_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner block leaves it as the outer one set it
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # off before: still off after
    finally:
        gc.enable()
