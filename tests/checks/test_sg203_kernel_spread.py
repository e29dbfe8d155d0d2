"""Issue 26 acceptance (item 1): eager kernel times written by ``collect run`` keep each profiled forward
(``per_iteration``), so SG203 compares two jobs' kernel times against that spread instead of exact
agreement. A copy of a measured eager job with its GridSample times moved inside the spread of its
forwards adds no SG203 finding; moved beyond it, SG203 names each moved figure in the copy.

The measured job: measurements/deformable_detr_h200_torch/pinning/h200-eager-800x1067-pinned.json (one
H200, five profiled forwards per cell). Its fp32 GridSample forwards, read by hand: 3.866104, 3.859361,
3.875517, 3.882137, 3.85721 ms (range 0.024927 ms).
"""

from __future__ import annotations

import copy
import json

import pytest

from studygen.checks import CheckContext, sg203_reconcile
from studygen.study import load_study

from ..conftest import copy_project

FAMILY = "deformable_detr_h200_torch"
MEASURED = "h200-eager-800x1067-pinned"


def _moved(data: dict, job: str, fraction_of_range: float) -> dict:
    """``data`` as job ``job`` with each kernel_time's GridSample time and forwards moved up by
    ``fraction_of_range`` of the range of its forwards."""
    data = copy.deepcopy(data)
    data["job_id"] = job
    for result in data["results"]:
        if result["kind"] != "kernel_time":
            continue
        forwards = [forward["groups"]["GridSample"] for forward in result["per_iteration"]]
        shift = fraction_of_range * (max(forwards) - min(forwards))
        for forward in result["per_iteration"]:
            forward["groups"]["GridSample"] = round(forward["groups"]["GridSample"] + shift, 6)
        grid = next(group for group in result["groups"] if group["group"] == "GridSample")
        grid["time_ms"] = round(grid["time_ms"] + shift, 6)
        grid.pop("kernels", None)  # its kernels no longer sum to it (a record refuses that)
    return data


@pytest.fixture(scope="module")
def measured_pair(tmp_path_factory):
    root = copy_project(tmp_path_factory.mktemp("kernel-spread"), families=(FAMILY,))
    folder = root / "measurements" / FAMILY
    data = json.loads((folder / "pinning" / f"{MEASURED}.json").read_text())
    (folder / "h200-eager.json").unlink()  # two jobs only: the measured one and its copy
    (folder / f"{MEASURED}.json").write_text(json.dumps(data, indent=2) + "\n")
    return root, folder, data


def _findings(root, folder, data, job, fraction):
    (folder / f"{job}.json").write_text(json.dumps(_moved(data, job, fraction), indent=2) + "\n")
    try:
        study = load_study(root / "families" / FAMILY, root)
        assert study.problems == []
        return study, [f for f in sg203_reconcile.check(CheckContext(study)) if f.code == "SG203"]
    finally:
        (folder / f"{job}.json").unlink()


def test_kernel_times_moved_inside_the_forwards_spread_agree(measured_pair):
    study, findings = _findings(*measured_pair, "h200-eager-inside", 0.2)
    assert findings == []
    # the measured rows have a spread of their own: five forwards each
    from studygen.study.spread import spread_of

    rows = [r for r in study.rows if r.job_id == MEASURED and r.kind == "kernel_time"
            and r.group == "GridSample"]
    assert len(rows) == 4 and all(len(spread_of(r).values) == 5 for r in rows)


def test_kernel_times_moved_beyond_it_are_named(measured_pair):
    _, findings = _findings(*measured_pair, "h200-eager-beyond", 3.0)
    across = [f for f in findings if "disagrees across jobs" in f.message]
    # the four GridSample figures (fp32, fp16, bf16, fp8 at 800x1067), each placed in the moved copy
    assert len(across) == 4
    assert {f.file for f in across} == {f"measurements/{FAMILY}/h200-eager-beyond.json"}
    assert all("GridSample" in f.message and f.pointer.endswith("/time_ms") for f in across)
    # five forwards a job cannot decide it by bootstrap (2 / C(10, 5) = 0.0079, 0.23 after Holm's correction for
    # the pair's 29 comparisons): held to the spread of the forwards instead, a warning that says both
    assert {f.severity for f in across} == {"warning"}
    assert all("not decided by bootstrap: 5 against 5 profiled iterations allow no two-sided p below 0.0079 (2 of the "
               "252 ways to split them), none below 0.23 after Holm's correction for the 29 bootstrap comparisons"
               in f.message for f in across)
    assert all(" ms apart, beyond the spread of both jobs' samples (the wider: job " in f.message for f in across)
    fp32 = next(f for f in across if f.message.startswith("same measurement disagrees across jobs: fp32 "))
    # fp32 forwards 3.85721 .. 3.882137 ms moved by 3 x 0.024927 ms; the copy's forwards span the same
    assert ("0.0748 ms apart, beyond the spread of both jobs' samples (the wider: job h200-eager-800x1067-pinned's "
            "5 profiled iterations, 3.85721 to 3.882137 ms: 0.0249 ms) plus tolerance 0 and timer allowance 0.0010 ms"
            in fp32.message)
