"""Compiled cells over their compilations, differences by kernel group and host time, against
figures read by hand from the shipped H200 records (h200-compile-800x800.json, h200-eager.json).

h200-compile-800x800.json, compilations[*].median_ms: fp16 8.841216, 8.319216, 8.220528, 8.873408, 8.235072,
8.290688 (value 8.304952, the mean of the middle two 8.290688 and 8.319216); fp8 8.999696, 9.02336, 9.559872,
9.483376, 10.13552, 8.90512 (value 9.253368, the mean of the middle two 9.02336 and 9.483376).
Kernel time compilations[*].groups.GridSample: fp16 7.056938, 6.419763, 6.356912, 7.098933, 6.390695,
6.407668 (median (6.407668 + 6.419763) / 2 = 6.4137155); fp8 7.107003, 7.068475, 7.720528, 7.626136,
8.227956, 7.0458 (median (7.107003 + 7.626136) / 2 = 7.3665695).
"""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError

from .views import H200, printed, view_of


@pytest.fixture(scope="module")
def h200():
    return view_of(H200)


def test_compilation_table_gives_the_median_the_range_and_the_ratio_range(h200):
    text, (*_, entry) = printed(h200.compilation_table, "fp16", "fp8", mode="compile")
    lines = text.splitlines()
    assert [cell.strip() for cell in lines[0].split("|")[1:-1]] == [
        "Shape HxW", "fp16 ms", "FP8 recipe (72 linears) ms", "fp16 / FP8 recipe (72 linears)"]
    (row,) = [cells for cells in ([cell.strip() for cell in line.split("|")[1:-1]] for line in lines[2:])
              if cells[0] == "800 x 800"]
    # ratio 8.304952 / 9.253368 = 0.898; over every pair: 8.220528 / 10.13552 = 0.811, 8.873408 / 8.90512 = 0.996
    assert row == ["800 x 800", "8.305 (6 compilations: 8.221 to 8.873)", "9.253 (6 compilations: 8.905 to 10.136)",
                   "0.90x (0.81x to 1.00x)"]
    assert entry.kind == "table" and len(entry.rows) == 4


def test_attribution_sentence_names_the_groups_that_carry_the_difference(h200):
    text = h200.attribution_sentence("fp16", "fp8", mode="compile", shape="800x800")
    # 9.253368 - 8.304952 = 0.948416; GridSample 7.3665695 - 6.4137155 = 0.952854
    assert text.startswith("FP8 recipe (72 linears) minus fp16, by kernel group (mode compile, at 800 x 800 only): "
                           "at 800 x 800 +0.948 ms (GridSample +0.953 ms, ")
    assert "unattributed" in text


def test_attribution_table_splits_each_difference_and_the_spread_between_compilations(h200):
    text = h200.attribution_table("fp16", "fp8", mode="compile", shape="800x800")
    header = [cell.strip() for cell in text.splitlines()[0].split("|")[1:-1]]
    assert header[:3] == ["Shape HxW", "Difference", "Latency ms"] and header[-1] == "Unattributed ms"
    grid = header.index("GridSample")
    rows = {cells[1]: cells for cells in ([c.strip() for c in line.split("|")[1:-1]]
                                          for line in text.splitlines()[2:])}
    def latency_and_grid(name):
        return [rows[name][2], rows[name][grid]]

    assert latency_and_grid("FP8 recipe (72 linears) minus fp16") == ["+0.948", "+0.953"]
    # FP8's slowest compilation (5, 10.13552) minus its fastest (6, 8.90512) = 1.2304;
    # GridSample 8.227956 - 7.0458 = 1.182156
    assert latency_and_grid("FP8 recipe (72 linears): slowest minus fastest compilation") == ["+1.230", "+1.182"]
    # fp16: compilation 4 (8.873408) minus 3 (8.220528) = 0.65288; GridSample 7.098933 - 6.356912 = 0.742021
    assert latency_and_grid("fp16: slowest minus fastest compilation") == ["+0.653", "+0.742"]


def test_compilation_count_and_host_table(h200):
    assert h200.compilation_count(kind="latency", mode="compile") == 6
    assert h200.compilation_count(kind="latency", mode="eager") == 1
    text = h200.host_table(kind="latency", mode="eager", variant="fp16", shape="800x800")
    # h200-eager.json /results/19: host_issue_ms_per_forward 38.600987, host_ms_per_forward 38.601407,
    # cv 0.218873, pinned_cores 8..15
    row = [cell.strip() for cell in text.splitlines()[2].split("|")[1:-1]]
    assert row == ["h200-eager", "eager", "800 x 800", "fp16", "39.037", "38.601", "38.601", "21.9%", "8-15"]


def test_group_change_says_less_or_more_never_a_negative_saving(h200):
    # kernel_time compilations[*].groups["GEMM/MatMul"], read from the records:
    # 800x800 fp16 0.8599, 1.006245, 0.99973, 0.84681, 0.94491, 0.843932; fp8 0.799545, 0.897762, 0.851026,
    #   0.800832, 0.84033, 0.803766: FP8 minus fp16 over every pair -0.2067 (0.799545 - 1.006245) to +0.0538
    #   (0.897762 - 0.843932)
    # 800x1067 fp16 0.977608, 1.18535, 0.986845, 1.179584, 0.979916, 1.18445; fp8 0.909601, 0.97297, 0.918903,
    #   0.913221, 0.912863, 0.976413: -0.2757 (0.909601 - 1.18535) to -0.0012 (0.976413 - 0.977608)
    both, (entry,) = printed(h200.group_change, "GEMM/MatMul", "fp16", "fp8", mode="compile")
    assert both == "from 0.276 ms less to 0.054 ms more (mode compile only)"
    assert entry.kind == "range" and len(entry.rows) == 4
    assert {(a.job_id, b.job_id) for a, b in entry.compared} == {("h200-compile-800x800",) * 2,
                                                                ("h200-compile-800x1067",) * 2}
    assert h200.group_change("GEMM/MatMul", "fp16", "fp8", mode="compile", shape="800x1067") == \
        "0.001 to 0.276 ms less (mode compile, at 800 x 1067 only)"
    # the other way round every difference changes sign
    assert h200.group_change("GEMM/MatMul", "fp8", "fp16", mode="compile", shape="800x1067") == \
        "0.001 to 0.276 ms more (mode compile, at 800 x 1067 only)"
    # FP8's casts: fp16 has no Quantize/Dequantize group (0 ms), so every pair is more
    casts = h200.group_change("Quantize/Dequantize", "fp16", "fp8", mode="compile", shape="800x800")
    assert casts.endswith(" ms more (mode compile, at 800 x 800 only)") and not casts.startswith("from")
    with pytest.raises(TemplateError, match="no profiled pair"):
        h200.group_change("GEMM/MatMul", "fp16", "fp8", mode="eager", shape="640x640")


def test_kernel_changes_name_the_grid_sampling_kernels_that_changed_launch(h200):
    # h200-compile-800x800.json, fp16 kernel_time compilations 3 (fastest, 8.220528 ms) and 4 (slowest,
    # 8.873408 ms): GridSample 6.356912 and 7.098933 ms (+0.742021). Of the ten grid-sampling kernels each lists,
    # one 1.284926 ms pointwise kernel of 26588 blocks x 256 threads became 13294 x 128 at 1.960716 ms (+0.67579)
    text, recorded = printed(h200.kernel_changes, "GridSample", mode="compile")
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in text.splitlines()[2:]]
    fp16 = [row for row in rows if row[:2] == ["800 x 800", "fp16"]]
    assert fp16[0] == ["800 x 800", "fp16", "all GridSample kernels",
                       "compilation 3 of job h200-compile-800x800 (8.221 ms)",
                       "compilation 4 of job h200-compile-800x800 (8.873 ms)", "+0.742"]
    assert fp16[1][3:] == ["26588 blocks x 256 threads, 1.285 ms", "13294 blocks x 128 threads, 1.961 ms", "+0.676"]
    assert fp16[1][2].startswith("pointwise kernel 2 of 8: triton_poi_fused_addmm_bitwise_not_grid_sampler")
    assert fp16[-1][2:] == ["every other kernel of the group", "", "", "+0.011"]
    # the changed kernels and the rest add up to the group's difference (0.742021 ms), to rounding
    assert abs(sum(float(row[5]) for row in fp16[1:]) - 0.742021) < 0.002
    # each variant of each shape comes once, shapes by size, variants in the study file's order
    assert list(dict.fromkeys((row[0], row[1]) for row in rows)) == [
        ("800 x 800", "fp16"), ("800 x 800", "FP8 recipe (72 linears)"),
        ("800 x 1067", "fp16"), ("800 x 1067", "FP8 recipe (72 linears)")]
    # at 800 x 1067 fp16's GridSample did not differ between its compilations, so no kernels were kept
    assert [row[2] for row in rows if row[:2] == ["800 x 1067", "fp16"]] == [
        "GridSample kernels not kept for both compilations"]
    assert recorded[-1].kind == "table" and len(recorded[-1].rows) == 4


def test_inductor_settings_say_what_each_record_kept(h200):
    # schema_version 2 records whose compile block names no setting: the defaults
    assert h200.inductor_settings() == "Inductor's defaults"
    # the side job (inductor-settings/h200-compile-800x800-fixed-pointwise.json) switched pointwise autotuning off
    assert h200.comparison("fixed-pointwise").inductor_settings() == "triton.autotune_pointwise = False"
    assert h200.inductor_settings(shape="640x640") == "no compiled figure"


def test_the_sentence_keeps_b_minus_a_whatever_a_variant_is_called():
    # the sentence leaves out the slowest-minus-fastest lines by what they are, not by words a label may hold too
    view = view_of(H200)
    fp8 = next(variant for variant in view._study.spec["variants"] if variant["name"] == "fp8")
    fp8["label"] = "FP8 (slowest minus fastest recipe)"
    text = view.attribution_sentence("fp16", "fp8", mode="compile", shape="800x800")
    assert text.startswith("FP8 (slowest minus fastest recipe) minus fp16, by kernel group (mode compile, at 800 x 800 "
                           "only): at 800 x 800 +0.948 ms (GridSample +0.953 ms, ")
    assert text.count("at 800 x 800 +") == 1  # the compilations' own spread stays in the table


def test_jobs_timed_two_ways_are_two_cells_never_pooled(tmp_path):
    # compiled fp16 and FP8 in job a with the host waiting for each forward (5.0 and 4.0 ms) and in job b with
    # forwards queued back to back (3.0 and 2.0 ms): one key, two measurements. Before, one cell each pooled both
    # jobs, "4.000 (2 jobs: 3.000 to 5.000)", and the ratio range paired job a's fp16 with job b's FP8: 0.75x to 2.50x
    from studygen.render.view import StudyView
    from studygen.study.compilations import pooled_cells, pooled_pairs

    from ..checks.studies import coco_ap, latency, load, record

    def compiled(variant, value, host_sync):
        method = {"timer": "cuda_event", "cuda_graph": False, "data_transfers": False, "host_sync": host_sync}
        return latency(variant, value, backend="pytorch", mode="compile", method=method,
                       repeats=[value, value + 0.01, value - 0.01])

    records = [record("a", [compiled("fp16", 5.0, "per_forward"), compiled("fp8", 4.0, "per_forward"),
                            coco_ap("fp16", 0.46)]),  # no latency: in no cell
               record("b", [compiled("fp16", 3.0, "per_repeat"), compiled("fp8", 2.0, "per_repeat")])]
    study = load(tmp_path, records=records)
    fp16 = [row for row in study.rows if row.variant == "fp16"]
    assert [[row.job_id for row in cell.rows] for cell in pooled_cells(study.rows)] == [["a"], ["a"], ["b"], ["b"]]
    pairs = pooled_pairs(fp16, [row for row in study.rows if row.variant == "fp8"])
    assert [(a.first.job_id, a.first.value, b.first.job_id, b.first.value) for a, b in pairs] == [
        ("a", 5.0, "a", 4.0), ("b", 3.0, "b", 2.0)]
    view = StudyView(study)
    assert view.pooled_ratio_span("fp16", "fp8", mode="compile") == "1.25x to 1.50x (mode compile only)"
    table = view.compilation_table("fp16", "fp8", mode="compile").splitlines()
    assert [[cell.strip() for cell in line.split("|")[2:-1]] for line in table[2:]] == [
        ["5.0", "4.0", "1.25x"], ["3.0", "2.0", "1.50x"]]
