"""A trace's ms figures are written with the digits its durations carry.

Case (a new user's AlexNet study): a group of 270 µs in a trace of whole-µs
durations was written 0.27 (a JSON float drops its trailing zero), read back
with 2 decimals beside neighbours of 3, and printed in the README a digit
short. Values below are read off the fixtures by hand (their ``dur`` texts).
"""

from __future__ import annotations

import pytest

from studygen.collect.trace_resolution import duration_decimals
from studygen.errors import ConflictError
from studygen.numbers import SourceFloat, source_decimals
from studygen.records.result import NewResult
from studygen.records.sources import refuse_changed_reading
from tests.collect.conftest import TORCH

ALEXNET = TORCH / "alexnet_kineto_trace.json.gz"
H100_BERT = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"


def ms_figures(result: dict) -> list:
    """Every ms figure of a kernel_time result, as loaded (SourceFloat)."""
    figures = [result["profiled_total_ms"], result["unclassified_ms"]]
    for group in result["groups"]:
        figures.append(group["time_ms"])
        figures.extend(kernel["time_ms"] for kernel in group.get("kernels", []))
    for entry in result.get("per_iteration", []):
        figures.append(entry["profiled_total_ms"])
        figures.extend(entry["groups"].values())
    return figures


def test_whole_us_trace_figures_keep_three_decimals(collect):
    done = collect("torch-profile", "--trace", ALEXNET, "--mode", "eager", "--variant", "fp32")
    assert done.exit_code == 0, done.err
    text = done.path.read_text(encoding="utf-8")
    # Conv: scudnn 2069 + xmma fprop 1814 + fft2d_c2r 290 + fft2d_r2c 137 + 130 µs = 4440 µs;
    # other 1200 µs; fft2d_c2r_32x32's two launches, "dur": 144 and 146 = 290 µs
    assert '"group": "Conv",\n          "time_ms": 4.440,' in text
    assert '"group": "other",\n          "time_ms": 1.200,' in text
    assert '"time_ms": 0.290,\n              "calls": 2' in text
    assert '"profiled_total_ms": 10.692,' in text and '"unclassified_ms": 0.008,' in text
    assert "times in ms to 3 decimals: the kernels' dur is in whole µs" in done.results[0]["note"]
    from studygen.records.load import load_record

    (result,) = load_record(done.path, "r").data["results"]
    assert {source_decimals(figure) for figure in ms_figures(result)} == {3}


def test_ns_trace_figures_keep_six_decimals(collect):
    # the H100 trace writes dur to the ns ("dur": 9.344), and drops trailing zeros itself:
    # the cutlass 256x128 GEMM's one launch is "dur": 41.28, i.e. 41.280 µs
    done = collect("torch-profile", "--trace", H100_BERT, "--mode", "eager", "--variant", "bf16")
    assert done.exit_code == 0, done.err
    text = done.path.read_text(encoding="utf-8")
    assert '"time_ms": 0.041280,\n              "calls": 1' in text
    from studygen.records.load import load_record

    (result,) = load_record(done.path, "r").data["results"]
    assert {source_decimals(figure) for figure in ms_figures(result)} == {6}
    assert "times in ms to 6 decimals: the kernels' dur is in µs to 3 decimals" in result["note"]


@pytest.mark.parametrize(("durations", "decimals"), [
    ([71, 290, 8], 0), ([71.0, 290], 0), ([9.344, 41.28, 12], 3), ([12.5], 1),
    ([4.1616069100000015], 3),  # float noise of a converted trace: no clock is finer than 1 ns
])
def test_duration_decimals(durations, decimals):
    assert duration_decimals(durations) == decimals


def test_recollecting_an_older_record_names_the_digits():
    recorded = {"kind": "kernel_time", "variant": "fp32", "source_locator": "alexnet_kineto_trace.json.gz",
                "groups": [{"group": "Pooling", "time_ms": SourceFloat("0.27")}], "note": "older"}
    new = dict(recorded, groups=[{"group": "Pooling", "time_ms": SourceFloat("0.270")}], note="newer")
    with pytest.raises(ConflictError) as raised:
        refuse_changed_reading(recorded, NewResult(new, "trace.json"), "r.json:/results/0", "r.json", str)
    assert ("reading it now gives other values of groups, note (the same values, which the collector now writes "
            "with other digits?)") in str(raised.value)
