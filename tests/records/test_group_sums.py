"""A kernel-time group states its time beside the kernels it lists: where
the list is complete (fewer than the collectors' 20, in a result whose rows
are listed) the time is their sum to within the rounding of the printed
figures, and a longer list never sums past it. A hand edit (a group's 0.915
made 0.815, its kernels still summing to 0.915) loaded with no finding
before; it is refused at the group's ``time_ms``. The figures are invented."""

from __future__ import annotations

import json
import random

import pytest

from studygen.collect.kernel_groups import KernelItem, compile_rules, group_times, groups_for_record
from studygen.errors import RecordError
from studygen.records.group_sums import KERNELS_LISTED_PER_GROUP, group_sum_disagreement
from studygen.records.load import load_record
from tests.checks.studies import kernel_time, latency, record

# three kernels printed to 3 decimals: 0.915 ms, ±0.002 ms with the group's own 3 decimals
KERNELS = [{"name": "gemm_a", "time_ms": 0.402}, {"name": "gemm_b", "time_ms": 0.311},
           {"name": "gemm_c", "time_ms": 0.202}]


def profile(gemm_ms: float, kernels: list[dict] | None = None, **fields) -> dict:
    """A kernel_time result whose first group (GEMM, ``gemm_ms``) lists
    ``kernels`` (KERNELS by default) and whose second lists one kernel."""
    result = kernel_time("int8", {"GEMM": gemm_ms, "softmax": 0.084}, total=0.999, rows_listed=True)
    result["groups"][0]["kernels"] = [dict(k) for k in (KERNELS if kernels is None else kernels)]
    result["groups"][1]["kernels"] = [{"name": "softmax_kernel", "time_ms": 0.084}]
    result.update(fields)
    return result


def written(tmp_path, result: dict) -> tuple:
    """``(path, text)`` of a record whose second result is ``result`` (a
    latency result first shifts the pointer)."""
    text = json.dumps(record("job", [latency("int8", 1.2), result]), indent=2) + "\n"
    path = tmp_path / "job.json"
    path.write_text(text)
    return path, text


def refusal(tmp_path, result: dict, gemm_ms: float) -> str:
    path, text = written(tmp_path, result)
    with pytest.raises(RecordError) as caught:
        load_record(path, "job.json")
    lines = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == f'"time_ms": {gemm_ms!r},']
    assert len(lines) == 1, lines
    assert caught.value.place.pointer == "/results/1/groups/0/time_ms"
    assert caught.value.place.line == lines[0]
    return str(caught.value)


def test_a_group_equal_to_its_kernels_loads(tmp_path):
    path, _ = written(tmp_path, profile(0.915))
    assert load_record(path, "job.json").results[1]["groups"][0]["time_ms"] == 0.915


def test_an_edited_group_time_is_refused_at_its_figure(tmp_path):
    text = refusal(tmp_path, profile(0.815), 0.815)
    line = text.split(":")[1]
    assert text == (f"job.json:{line}: groups/0/time_ms 0.815 ms is not the sum of its 3 listed kernels, 0.915 ms "
                    "(a complete list: fewer than 20), beyond the ±0.002 ms their printed digits allow "
                    "(the record was edited?) (/results/1/groups/0/time_ms)")


def test_a_group_ten_times_its_kernels_is_refused(tmp_path):
    # the user's second edit, which SG210 alone warned of
    assert "groups/0/time_ms 9.15 ms is not the sum of its 3 listed kernels, 0.915 ms" in refusal(
        tmp_path, profile(9.15), 9.15)


@pytest.mark.parametrize("gemm_ms", [0.917, 0.913])
def test_a_time_at_the_edge_of_the_printed_digits_loads(gemm_ms):
    # 3 addends and the group, each ±0.0005: exactly 0.002 off passes (in binary, 0.917 - 0.915 is above 0.002)
    assert group_sum_disagreement(profile(gemm_ms)) is None


@pytest.mark.parametrize("gemm_ms, off", [(0.918, "0.918 ms"), (0.912, "0.912 ms"), (0.91701, "0.91701 ms")])
def test_a_time_just_past_the_edge_is_refused(gemm_ms, off):
    # 0.91701: one more printed digit narrows the group's own share to ±0.000005 (0.001505 in all)
    found = group_sum_disagreement(profile(gemm_ms))
    assert found is not None and found[0] == "groups/0/time_ms"
    assert found[1].startswith(f"groups/0/time_ms {off} is not the sum of its 3 listed kernels, 0.915 ms")


def test_the_tolerance_follows_each_figure_s_printed_digits():
    # kernels to 1 decimal (±0.05 each): 0.9 ± 0.15 beside a group of 1 decimal, ± 0.105 beside one of 2
    coarse = [{"name": "a", "time_ms": 0.4}, {"name": "b", "time_ms": 0.5}]
    assert group_sum_disagreement(profile(1.0, coarse)) is None
    assert group_sum_disagreement(profile(0.8, coarse)) is None
    assert group_sum_disagreement(profile(1.005, coarse))[1].endswith("beyond the ±0.1005 ms their printed digits allow")
    assert group_sum_disagreement(profile(1.01, coarse))[1].endswith("beyond the ±0.105 ms their printed digits allow")


def capped(extra_ms: float) -> list[dict]:
    """KERNELS_LISTED_PER_GROUP kernels of 0.01 ms, the first ``extra_ms`` longer."""
    kernels = [{"name": f"k{n}", "time_ms": 0.01} for n in range(KERNELS_LISTED_PER_GROUP)]
    kernels[0]["time_ms"] = round(0.01 + extra_ms, 6)
    return kernels


def test_a_full_list_may_leave_kernels_out_but_not_sum_past_its_group():
    # 20 listed (0.2 ms): the group's time may cover kernels past the 20 largest
    assert KERNELS_LISTED_PER_GROUP == 20
    assert group_sum_disagreement(profile(0.35, capped(0.0))) is None
    assert group_sum_disagreement(profile(0.2, capped(0.0))) is None
    # 20 addends of 2 decimals and a group of 1: ±0.15
    assert group_sum_disagreement(profile(0.2, capped(0.15))) is None
    found = group_sum_disagreement(profile(0.2, capped(0.16)))
    assert found == ("groups/0/time_ms", "groups/0/time_ms 0.2 ms is below the sum of its 20 largest kernels, "
                     "0.36 ms, beyond the ±0.15 ms their printed digits allow (a group's time covers all its "
                     "kernels)")


def test_nineteen_kernels_are_a_complete_list():
    kernels = capped(0.0)[1:]
    assert group_sum_disagreement(profile(0.19, kernels)) is None
    assert group_sum_disagreement(profile(0.35, kernels))[1].startswith(
        "groups/0/time_ms 0.35 ms is not the sum of its 19 listed kernels, 0.19 ms")


@pytest.mark.parametrize("fields", [{"rows_listed": False}, {"rows_listed": None}])
def test_a_result_that_does_not_list_its_rows_is_not_compared(tmp_path, fields):
    result = profile(0.815, **fields)
    if fields["rows_listed"] is None:
        del result["rows_listed"]
    path, _ = written(tmp_path, result)
    assert load_record(path, "job.json").results[1]["groups"][0]["time_ms"] == 0.815


def test_a_group_without_kernels_or_without_a_time_is_not_compared():
    result = profile(0.815)
    del result["groups"][0]["kernels"]
    assert group_sum_disagreement(result) is None
    ranged = profile(0.815)
    del ranged["groups"][0]["time_ms"]
    ranged["groups"][0]["time_ms_range"] = {"min": 0.1, "max": 0.2, "over": "rows the source does not list"}
    assert group_sum_disagreement(ranged) is None


def test_the_later_group_is_named(tmp_path):
    result = profile(0.915)
    result["groups"][1]["time_ms"] = 0.094
    found = group_sum_disagreement(result)
    assert found[0] == "groups/1/time_ms"
    assert found[1].startswith("groups/1/time_ms 0.094 ms is not the sum of its 1 listed kernels, 0.084 ms")


def test_what_the_collectors_write_always_agrees():
    # collect run rounds each kernel to 1 ns, torch_profile to 12 significant digits; the groups are their clean_sum
    rng = random.Random(16)
    capped_groups = 0
    rules = compile_rules([("gemm", "GEMM")])
    for trial in range(300):
        digits = rng.choice([3, 6, 12])
        items = [KernelItem(f"{rng.choice(['gemm', 'relu'])}_{n}", round(rng.uniform(0, 3) ** 3, digits), 1)
                 for n in range(rng.randint(1, 45))]
        grouped = group_times(items, rules)
        result = {"kind": "kernel_time", "rows_listed": True, "groups": groups_for_record(grouped)}
        assert group_sum_disagreement(result) is None, (trial, result)
        capped_groups += any(len(g.get("kernels", [])) == KERNELS_LISTED_PER_GROUP for g in result["groups"])
    assert capped_groups > 30  # the longer lists were read too


def test_trailing_zeros_a_record_prints_are_digits_of_the_tolerance(tmp_path):
    # 19 kernels printed 0.100000 (as collectors write trace figures): each is known to half of 1e-6 ms, not to
    # the 0.05 its shortest repr "0.1" would allow; read so, 1.000000 beside their 1.900000 passed
    kernels = ",".join(f'{{"name": "k{n}", "time_ms": 0.100000}}' for n in range(19))
    text = json.dumps(record("job", [latency("int8", 1.2), profile(1.0)]), indent=2)
    document = json.loads(text)
    document["results"][1]["groups"][0]["kernels"] = "KERNELS"
    text = json.dumps(document, indent=2).replace('"time_ms": 1.0,', '"time_ms": 1.000000,', 1)
    text = text.replace('"KERNELS"', f"[{kernels}]")
    path = tmp_path / "job.json"
    path.write_text(text)
    with pytest.raises(RecordError) as caught:
        load_record(path, "job.json")
    assert caught.value.message == (
        "groups/0/time_ms 1.000000 ms is not the sum of its 19 listed kernels, 1.900000 ms (a complete list: fewer "
        "than 20), beyond the ±0.00001 ms their printed digits allow (the record was edited?)")
    # the same figures printed to their exact sum load
    path.write_text(text.replace('"time_ms": 1.000000,', '"time_ms": 1.900000,', 1))
    assert load_record(path, "job.json").results[1]["groups"][0]["time_ms"] == 1.9
