"""The run plan: shapes, shards, compiled cells, agreement ownership, bad study entries."""

from __future__ import annotations

import pytest
import yaml

from studygen.collect.run.spec import Cell, build_plan, parse_shape, parse_shard, shard_cells
from studygen.errors import RecordError, UsageError

from .conftest import TINY_STUDY


def spec():
    return yaml.safe_load(TINY_STUDY)


def test_parse_shape_and_shard():
    assert parse_shape("800x1067") == (800, 1067)
    assert parse_shard("2/4") == (2, 4)
    assert parse_shard(None) == (1, 1)
    for bad in ("800", "800x", "0x5", "a x b"):
        with pytest.raises(UsageError, match="invalid shape"):
            parse_shape(bad)
    for bad in ("3/2", "0/2", "1-2", "2"):
        with pytest.raises(UsageError, match="invalid --shard"):
            parse_shard(bad)


def test_shards_are_contiguous_cover_the_grid_and_differ_by_at_most_one():
    cells = [Cell("eager", "8x8", f"v{i}") for i in range(7)]
    parts = [shard_cells(cells, (k, 3)) for k in (1, 2, 3)]
    assert [len(p) for p in parts] == [2, 2, 3]
    assert [c for p in parts for c in p] == cells  # in order, no overlap, nothing lost
    # more shards than cells: some shards are empty, the cell is in exactly one
    assert shard_cells(cells[:1], (1, 2)) == [] and shard_cells(cells[:1], (2, 2)) == cells[:1]


def test_grid_compiles_only_the_declared_variants_and_shapes():
    plan = build_plan(spec(), study_path="s.yaml")
    eager = [(c.shape, c.variant) for c in plan.cells if c.mode == "eager"]
    compiled = [(c.shape, c.variant) for c in plan.cells if c.mode == "compile"]
    assert len(eager) == 2 * 4
    assert compiled == [("64x96", "fp32"), ("64x96", "fp16")]
    assert plan.groups()[0] == ("eager", "64x96", ["fp32", "fp16", "bf16", "fp8"])
    assert plan.agreement_variants() == ["fp16", "bf16", "fp8"]


def test_each_agreement_is_owned_by_exactly_one_shard():
    owners = {}
    for k in (1, 2, 3, 4):
        plan = build_plan(spec(), study_path="s.yaml", shard=(k, 4))
        for name in plan.agreement_variants():
            owners.setdefault(name, []).append(k)
        if plan.agreement_variants():
            assert "fp32" in plan.variants_in_shard()  # the reference is built where agreement is computed
    # 10 cells (8 eager, 2 compiled) in 4 slices at 0, 2, 5, 7: eager 64x96 fp32, fp16 | bf16, fp8, ...
    assert owners == {"fp16": [1], "bf16": [2], "fp8": [2]}


def test_selection_restricts_the_grid():
    plan = build_plan(spec(), study_path="s.yaml", variants=["fp16"], shapes=["96x64"], modes=["eager"])
    assert plan.cells == [Cell("eager", "96x64", "fp16")]
    with pytest.raises(UsageError, match="unknown variant 'int4'"):
        build_plan(spec(), study_path="s.yaml", variants=["int4"])


def test_bad_study_entries_name_their_pointer():
    broken = spec()
    del broken["variants"][3]["recipe"]
    with pytest.raises(RecordError) as caught:
        build_plan(broken, study_path="families/tiny/study.yaml")
    assert caught.value.where == "/variants/3/recipe"
    broken = spec()
    broken["variants"][0]["precision"] = "int8"
    with pytest.raises(RecordError) as caught:
        build_plan(broken, study_path="families/tiny/study.yaml")
    assert caught.value.where == "/variants/0/precision"
    broken = spec()
    broken["run"]["shapes"] = ["64by96"]
    with pytest.raises(RecordError) as caught:
        build_plan(broken, study_path="families/tiny/study.yaml")
    assert caught.value.where == "/run/shapes/0"


def test_whole_number_counts_written_as_floats_are_counts():
    # JSON Schema's integer takes 2.0, which then stopped a run mid-way (range() of a float)
    study = spec()
    study["run"].update(batch=2.0, repeats=3.0, iterations=7.0, unstable_cv=0.1, compilations="auto")
    settings = build_plan(study, study_path="s.yaml").settings
    assert [(settings[key], type(settings[key])) for key in ("batch", "repeats", "iterations")] == [
        (2, int), (3, int), (7, int)]
    assert (settings["unstable_cv"], settings["compilations"], settings["pin_timing"]) == (0.1, "auto", True)
