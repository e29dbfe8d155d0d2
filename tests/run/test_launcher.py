"""``--shard auto``: the shard from a Slurm array's or torchrun's environment, the GPU of the
local rank (device count mocked: this machine has none), and what the record says of both."""

from __future__ import annotations

import pytest

from studygen.collect.run import launcher
from studygen.collect.run.launcher import (Placement, device_index, pin_cuda_device, placement_from_environment,
                                           placement_record, shard_option)
from studygen.records.jobs import job_id_for, shard_of_job
from studygen.errors import UsageError


def slurm(task_id, count, first=None, step=None) -> dict:
    env = {"SLURM_ARRAY_TASK_ID": str(task_id), "SLURM_ARRAY_TASK_COUNT": str(count)}
    if first is not None:
        env["SLURM_ARRAY_TASK_MIN"] = str(first)
    if step is not None:
        env["SLURM_ARRAY_TASK_STEP"] = str(step)
    return env


def torchrun(rank, world_size, local_rank=None) -> dict:
    env = {"RANK": str(rank), "WORLD_SIZE": str(world_size)}
    if local_rank is not None:
        env["LOCAL_RANK"] = str(local_rank)
    return env


@pytest.mark.parametrize("env, shard", [
    (slurm(0, 4, 0, 1), (1, 4)),       # sbatch --array=0-3, first task
    (slurm(3, 4, 0, 1), (4, 4)),       # its last task
    (slurm(2, 4, 0, 1), (3, 4)),
    (slurm(5, 4, 1, 2), (3, 4)),       # --array=1-7:2 runs 1, 3, 5, 7: task 5 is the third
    (slurm(7, 4, 1, 2), (4, 4)),
    (slurm(12, 3, 10, 1), (3, 3)),     # --array=10-12
    (slurm(1, 2), (2, 2)),             # no MIN/STEP (older Slurm): from 0 in steps of 1
    (slurm(0, 1, 0, 1), (1, 1)),       # an array of one
])
def test_a_slurm_array_task_is_shard_k_of_the_array_size(env, shard):
    placement = placement_from_environment(env)
    assert placement == Placement(shard=shard, launcher="slurm-array", local_rank=None)
    assert [type(n) for n in placement.shard] == [int, int]  # "job-shard3of4", never "job-shard3.0of4"


@pytest.mark.parametrize("env, shard, local_rank", [
    (torchrun(0, 2, 0), (1, 2), 0),
    (torchrun(1, 2, 1), (2, 2), 1),
    (torchrun(5, 8, 1), (6, 8), 1),    # two hosts of four GPUs: rank 5 is GPU 1 of the second host
    (torchrun(0, 1), (1, 1), None),
])
def test_a_torchrun_rank_is_shard_rank_plus_one_of_the_world_size(env, shard, local_rank):
    assert placement_from_environment(env) == Placement(shard=shard, launcher="torchrun", local_rank=local_rank)


def test_torchrun_inside_an_array_task_numbers_shards_across_both():
    # array task 1 of 0-2 (the second of three), rank 1 of two per task: shard (2 - 1) * 2 + 1 + 1 = 4 of 6
    env = {**slurm(1, 3, 0, 1), **torchrun(1, 2, 1)}
    assert placement_from_environment(env) == Placement(shard=(4, 6), launcher="slurm-array+torchrun", local_rank=1)
    first = {**slurm(0, 3, 0, 1), **torchrun(0, 2, 0)}
    last = {**slurm(2, 3, 0, 1), **torchrun(1, 2, 1)}
    assert placement_from_environment(first).shard == (1, 6) and placement_from_environment(last).shard == (6, 6)


@pytest.mark.parametrize("env, message", [
    ({}, "--shard auto: no launcher environment: expected SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT "
         "(sbatch --array) or RANK and WORLD_SIZE (torchrun); or give --shard K/N"),
    ({"SLURM_JOB_ID": "77", "LOCAL_RANK": "0"}, "no launcher environment"),
    ({"SLURM_ARRAY_TASK_ID": "3"}, "--shard auto: SLURM_ARRAY_TASK_COUNT is not set, but the other Slurm array variable is"),
    ({"SLURM_ARRAY_TASK_COUNT": "3"}, "--shard auto: SLURM_ARRAY_TASK_ID is not set, but the other"),
    ({"RANK": "0"}, "--shard auto: WORLD_SIZE is not set, but the other torchrun variable is"),
    ({"WORLD_SIZE": "2"}, "--shard auto: RANK is not set, but the other torchrun variable is"),
    (torchrun(2, 2), "--shard auto: RANK=2 is not below WORLD_SIZE=2"),
    (torchrun("one", 2), "--shard auto: RANK='one' is not an integer"),
    (torchrun(-1, 2), "--shard auto: RANK=-1 is below 0"),
    (torchrun(0, 0), "--shard auto: WORLD_SIZE=0 is below 1"),
    (torchrun(0, 2, -1), "--shard auto: LOCAL_RANK=-1 is below 0"),
    (slurm(4, 4, 1, 2), "--shard auto: array task 4 is not one of 4 tasks from 1 in steps of 2 "
                        "(SLURM_ARRAY_TASK_MIN/STEP/COUNT): submit the array as a range, sbatch --array=A-B[:S]"),
    (slurm(9, 4, 1, 2), "array task 9 is not one of 4 tasks from 1 in steps of 2"),  # past the end
    (slurm(4, 4, 0, 1), "array task 4 is not one of 4 tasks from 0 in steps of 1"),
    (slurm(0, 3, 1, 1), "array task 0 is not one of 3 tasks from 1"),             # before the start
    (slurm(1, 3, 0, 0), "SLURM_ARRAY_TASK_STEP=0 is below 1"),
    ({**slurm(0, 2), "SLURM_ARRAY_TASK_ID": "0x1"}, "SLURM_ARRAY_TASK_ID='0x1' is not an integer"),
])
def test_an_incomplete_or_inconsistent_environment_is_refused_in_one_line(env, message):
    with pytest.raises(UsageError) as caught:
        placement_from_environment(env)
    assert message in caught.value.message and "\n" not in caught.value.message


def test_blank_variables_count_as_unset():
    assert placement_from_environment({**torchrun(1, 2, 1), "SLURM_ARRAY_TASK_ID": " ", "SLURM_ARRAY_TASK_COUNT": ""}) \
        == Placement(shard=(2, 2), launcher="torchrun", local_rank=1)
    assert placement_from_environment({**slurm(1, 2), "LOCAL_RANK": " 1 ", "RANK": "", "WORLD_SIZE": ""}).shard == (2, 2)


def test_shard_option_reads_the_environment_only_for_auto(monkeypatch):
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "4")
    monkeypatch.setenv("LOCAL_RANK", "1")
    assert shard_option("3/4") == Placement(shard=(3, 4))
    assert shard_option(None) == Placement()
    assert shard_option("auto") == Placement(shard=(2, 4), launcher="torchrun", local_rank=1)
    assert shard_option("auto", torchrun(0, 2, 0)) == Placement(shard=(1, 2), launcher="torchrun", local_rank=0)
    with pytest.raises(UsageError, match="invalid --shard 'Auto'"):
        shard_option("Auto")


@pytest.mark.parametrize("local_rank, count, index", [(None, 1, 0), (None, 4, 0), (0, 2, 0), (1, 2, 1), (7, 8, 7)])
def test_the_local_rank_is_the_device_index(local_rank, count, index):
    assert device_index(local_rank, count) == index


def test_a_local_rank_without_its_gpu_is_refused(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")
    with pytest.raises(UsageError) as caught:
        device_index(1, 1)
    assert caught.value.message == ("--shard auto: LOCAL_RANK 1 needs device 1, but this process sees 1 CUDA device(s) "
                                    "(CUDA_VISIBLE_DEVICES=3): start at most one process per GPU")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    with pytest.raises(UsageError, match=r"LOCAL_RANK 2 needs device 2, but this process sees 2 CUDA device\(s\): start"):
        device_index(2, 2)
    with pytest.raises(UsageError, match="LOCAL_RANK 0 needs device 0, but this process sees 0 CUDA"):
        device_index(None, 0)


class FakeProperties:
    def __init__(self, uuid):
        self.uuid = uuid


@pytest.fixture
def two_gpus(monkeypatch):
    """torch.cuda as on a host with two GPUs: device count, current device, set_device, UUIDs."""
    import torch

    state = {"current": 0, "set": []}
    uuids = ["5c1e0d2a-1111-2222-3333-444455556666", "77b3f9e0-aaaa-bbbb-cccc-ddddeeeeffff"]

    def set_device(index):
        state["set"].append(index)
        state["current"] = index

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "set_device", set_device)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: state["current"])
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda index: FakeProperties(uuids[index]))
    return state


def test_each_local_rank_is_pinned_to_its_own_gpu(two_gpus):
    import torch

    assert pin_cuda_device(1) == torch.device("cuda", 1) and two_gpus["set"] == [1]
    assert pin_cuda_device(None) == torch.device("cuda", 0) and two_gpus["set"] == [1, 0]
    with pytest.raises(UsageError, match="LOCAL_RANK 2 needs device 2"):
        pin_cuda_device(2)
    assert two_gpus["set"] == [1, 0]  # nothing pinned on refusal


def test_select_device_pins_cuda_and_leaves_the_cpu_alone(two_gpus):
    import torch

    from studygen.collect.run.runner import select_device

    assert select_device(False, "families/x/study.yaml", 1) == torch.device("cuda", 1) and two_gpus["set"] == [1]
    assert select_device(True, "families/x/study.yaml", 1) == torch.device("cpu") and two_gpus["set"] == [1]


def test_the_record_names_the_gpu_its_uuid_and_cuda_visible_devices(two_gpus, monkeypatch):
    import torch

    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,3")
    placement = Placement(shard=(2, 2), launcher="torchrun", local_rank=1)
    assert placement_record(placement, torch.device("cuda", 1)) == {
        "shard": [2, 2], "launcher": "torchrun", "local_rank": 1, "gpu_index": 1,
        "gpu_uuid": "GPU-77b3f9e0-aaaa-bbbb-cccc-ddddeeeeffff", "cuda_visible_devices": "2,3"}
    two_gpus["current"] = 0  # a device without an index is the current one
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert placement_record(Placement(), torch.device("cuda")) == {
        "shard": [1, 1], "launcher": None, "local_rank": None, "gpu_index": 0,
        "gpu_uuid": "GPU-5c1e0d2a-1111-2222-3333-444455556666", "cuda_visible_devices": None}


def test_a_gpu_whose_properties_hold_no_uuid_is_recorded_without_one(two_gpus, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda index: object())  # torch before 2.1
    assert placement_record(Placement(), torch.device("cuda", 0))["gpu_uuid"] is None


def test_on_the_cpu_the_record_names_no_gpu(monkeypatch):
    import torch

    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    assert placement_record(Placement(shard=(1, 2), launcher="slurm-array"), torch.device("cpu")) == {
        "shard": [1, 2], "launcher": "slurm-array", "local_rank": None, "gpu_index": None, "gpu_uuid": None,
        "cuda_visible_devices": None}


@pytest.mark.parametrize("uuid, text", [(None, None), ("5c1e0d2a-11", "GPU-5c1e0d2a-11"), ("GPU-5c1e", "GPU-5c1e"),
                                        ("MIG-9a2b", "MIG-9a2b")])
def test_uuid_text(uuid, text):
    assert launcher._uuid_text(uuid) == text


@pytest.mark.parametrize("job_id, parsed", [
    ("h200-shard2of4", ("h200", (2, 4))), ("h200-shard2of2", ("h200", (2, 2))), ("h200-eager-shard1of2", ("h200-eager", (1, 2))),
    ("a-shard10of12", ("a", (10, 12))), ("h200", None), ("h200-shard3of2", None), ("h200-shard0of2", None),
    ("-shard1of2", None), ("h200-shard1of2.x", None), ("h200_shard1of2", None),
])
def test_shard_of_job_inverts_job_id_for(job_id, parsed):

    assert shard_of_job(job_id) == parsed
    if parsed is not None:
        assert job_id_for(parsed[0], parsed[1]) == job_id
