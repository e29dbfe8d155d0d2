"""Kernel groups in a kernel-time table: by where each first came, but the
catch-all ``other`` and the ``total`` close each profile's rows. A new
user's trial put the MI300X's Conv, a group only the second profile had,
after that profile's total (the shipped H200 study did the same with
Quantize/Dequantize). Profiles made up for these tests."""

from __future__ import annotations

from ..checks.studies import collected_provenance, kernel_time, load, readme_lines, record, spec

GENERIC = '{% extends "studygen/generic.md.j2" %}\n'


def _groups_in_table(tmp_path, profiles) -> list[tuple[str, str]]:
    records = [record(job, [kernel_time("fp16", groups, total=total)], collected_provenance(gpu=gpu))
               for job, gpu, groups, total in profiles]
    lines = readme_lines(load(tmp_path, records=records, template=GENERIC, study=spec()))
    start = lines.index("### Kernel time per group (ms)")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("#"))
    table = [line.split("|") for line in lines[start:end] if line.startswith("| ")]
    group = [cell.strip() for cell in table[0]].index("Kernel group")
    return [(cells[1].strip(), cells[group].strip()) for cells in table[2:]]


def test_a_group_only_a_later_profile_has_comes_before_its_other_and_total(tmp_path):
    # records load in job order: the L4's first, so softmax first comes after its other and total
    profiles = (("a-l4", "NVIDIA L4", {"GEMM": 1.25, "other": 0.5}, 1.75),
                ("b-a10", "NVIDIA A10", {"GEMM": 1.0, "softmax": 0.25, "other": 0.5}, 1.75))
    assert _groups_in_table(tmp_path, profiles) == [
        ("L4", "GEMM"), ("L4", "other"), ("L4", "total"),
        ("A10", "GEMM"), ("A10", "softmax"), ("A10", "other"), ("A10", "total")]


def test_groups_keep_the_order_they_first_came_in(tmp_path):
    # no other: the named groups as the first profile lists them, then the one the second adds, then total
    profiles = (("l4-run", "NVIDIA L4", {"softmax": 0.25, "GEMM": 1.25}, 1.5),
                ("l4b-run", "NVIDIA L40S", {"softmax": 0.5, "GEMM": 1.0, "copy": 0.25}, 1.75))
    assert [group for _, group in _groups_in_table(tmp_path, profiles)] == [
        "softmax", "GEMM", "total", "softmax", "GEMM", "copy", "total"]
