"""COCO AP tables are indexed by GPU and TensorRT only where a variant has
two figures those tell apart. A new user's trial scored fp32 detections
from an H100's engine and fp16 ones from an RTX 6000 Ada's: indexed by GPU,
the two APs sat in two rows, each with a dash, and no difference column.
Figures made up; differences by hand below."""

from __future__ import annotations

from ..checks.studies import coco_ap, collected_provenance, latency, load, readme_lines, record, spec

GENERIC = '{% extends "studygen/generic.md.j2" %}\n'


def _ap_table(tmp_path, records) -> list[str]:
    lines = readme_lines(load(tmp_path, records=records, template=GENERIC, study=spec()))
    first = next(i for i in range(lines.index("### COCO AP"), len(lines)) if lines[i].startswith("| "))
    end = next(i for i in range(first, len(lines)) if not lines[i].startswith("| "))
    return lines[first:end]


def test_two_variants_scored_on_two_gpus_share_a_row_and_a_difference(tmp_path):
    records = [record("l4-fp32", [coco_ap("fp32", 0.5125)], collected_provenance(gpu="NVIDIA L4")),
               record("a10-fp16", [coco_ap("fp16", 0.4875)], collected_provenance(gpu="NVIDIA A10"))]
    table = _ap_table(tmp_path, records)
    # 0.4875 - 0.5125 = -0.025: -2.50 points
    assert [cell.strip() for cell in table[0].split("|")[1:-1]] == [
        "Batch", "fp32 (AP)", "fp16 (AP)", "fp16 minus fp32 (AP points)"]
    assert [cell.strip() for cell in table[2].split("|")[1:-1]] == ["1", "0.5125", "0.4875", "-2.50"]
    assert len(table) == 3


def test_a_variant_scored_on_two_gpus_keeps_the_gpu_column(tmp_path):
    # fp16 on the L4 and on the A10: the GPU tells its two figures apart
    records = [record("l4", [coco_ap("fp32", 0.5125), coco_ap("fp16", 0.5)], collected_provenance(gpu="NVIDIA L4")),
               record("a10", [coco_ap("fp16", 0.4875)], collected_provenance(gpu="NVIDIA A10"))]
    table = _ap_table(tmp_path, records)
    assert table[0].split("|")[1].strip() == "GPU"
    assert [[cell.strip() for cell in row.split("|")[1:-1]] for row in table[2:]] == [
        ["A10", "1", "—", "0.4875", "n/a"], ["L4", "1", "0.5125", "0.5", "-1.25"]]


def test_where_each_variant_was_scored_is_said_once_above_the_tables(tmp_path):
    records = [record("l4-fp32", [coco_ap("fp32", 0.5125)], collected_provenance(gpu="NVIDIA L4")),
               record("a10-fp16", [coco_ap("fp16", 0.4875)], collected_provenance(gpu="NVIDIA A10"))]
    lines = readme_lines(load(tmp_path, records=records, template=GENERIC, study=spec()))
    start = lines.index("### COCO AP")
    assert lines[start + 2] == (
        "fp32 from job l4-fp32 (NVIDIA L4, tensorrt=11.4.0.106, cuda=13.0) and fp16 from job a10-fp16 (NVIDIA A10, "
        "tensorrt=11.4.0.106, cuda=13.0) were scored on detections of different runs: a difference of two variants' figures "
        "includes whatever differs between those runs.")
    # one platform for every variant: nothing to say
    same = [record("l4", [coco_ap("fp32", 0.5125), coco_ap("fp16", 0.4875)], collected_provenance(gpu="NVIDIA L4"))]
    lines = readme_lines(load(tmp_path / "same", records=same, template=GENERIC, study=spec()))
    assert lines[lines.index("### COCO AP") + 2].startswith("AP: precision averaged")


def test_tensorrt_versions_apart_are_left_out_too_and_other_tables_keep_their_gpu(tmp_path):
    # from the mutation run's survivors: two TensorRT versions print a TensorRT column unless it too is left out;
    # a latency table (one variant per GPU) keeps its GPU column: only AP tables drop it
    records = [record("l4-fp32", [coco_ap("fp32", 0.5125), latency("fp32", 1.25, "800x800")],
                      collected_provenance(gpu="NVIDIA L4", tensorrt="10.16.1")),
               record("a10-fp16", [coco_ap("fp16", 0.4875), latency("fp16", 1.5, "800x800")],
                      collected_provenance(gpu="NVIDIA A10", tensorrt="10.14.1"))]
    assert [cell.strip() for cell in _ap_table(tmp_path, records)[0].split("|")[1:-1]] == [
        "Batch", "fp32 (AP)", "fp16 (AP)", "fp16 minus fp32 (AP points)"]
    lines = readme_lines(load(tmp_path / "again", records=records, template=GENERIC, study=spec()))
    header = next(line for line in lines if line.startswith("| ") and "fp32 (ms)" in line)
    assert [cell.strip() for cell in header.split("|")[1:4]] == ["GPU", "TensorRT", "Shape HxW"]
