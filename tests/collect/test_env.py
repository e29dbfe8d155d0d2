"""``studygen collect env``: this machine's provenance block, printed and merged.

This machine has no GPU and no TensorRT: those must be reported as missing,
not crash and not be invented.
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import socket
import subprocess

import pytest

from studygen.collect.env import collect_env, cpu_model, git_state
from tests.collect.conftest import TRTEXEC
from tests.conftest import REPO


def installed(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def head_commit(repo):
    """The HEAD commit read from .git files (not through git). In a linked
    worktree ``.git`` is a file naming the worktree's git folder
    (``gitdir: …``), whose ``commondir`` holds the shared refs."""
    git = repo / ".git"
    if git.is_file():
        git = (repo / git.read_text().strip().removeprefix("gitdir: ")).resolve()
    common = git
    if (git / "commondir").is_file():
        common = (git / (git / "commondir").read_text().strip()).resolve()
    head = (git / "HEAD").read_text().strip()
    if not head.startswith("ref: "):
        return head
    ref = head[5:]
    loose = common / ref
    if loose.exists():
        return loose.read_text().strip()
    for line in (common / "packed-refs").read_text().splitlines():
        if line.endswith(" " + ref):
            return line.split()[0]
    raise AssertionError("no HEAD")


def test_env_block_on_this_machine(workdir):
    block = collect_env(workdir, with_torch=False)
    assert block["software"]["python"] == platform.python_version()
    assert block["software"]["torch"] == installed("torch")
    assert block["software"]["transformers"] == installed("transformers")
    assert block["software"]["modelopt"] == installed("nvidia-modelopt")
    assert block["software"]["tensorrt"] is None  # not installable here: known absent
    assert "tensorrt: not installed" in block["notes"]
    # no GPU: NVML (nvidia-ml-py is installed) cannot load its library
    assert block["gpu"] is None and block["gpu_count"] == 0 and block["driver"] is None
    assert any(note.startswith("GPUs and driver: NVML unavailable") for note in block["notes"])
    # workdir is no git work tree
    assert block["repository_commit"] is None and block["repository_dirty"] is None
    assert any(note.startswith("repository: not a git work tree") for note in block["notes"])


def test_git_commit_and_dirty_flag_of_the_project():
    commit, dirty, problem = git_state(REPO)
    assert problem is None
    assert commit == head_commit(REPO)
    changed = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=REPO).returncode != 0
    assert dirty is changed  # a tracked file changed, staged or not; an untracked one is no change of the commit's


def test_env_with_torch_reports_its_cuda(workdir):
    import torch

    block = collect_env(workdir, with_torch=True)
    assert block["software"]["cuda"] == torch.version.cuda  # None for this CPU build
    assert block["gpu"] is None


def test_env_prints_json(run_cli, workdir):
    done = run_cli("collect", "env", "--no-torch")
    assert done.exit_code == 0, done.err
    block = json.loads(done.out)
    assert block["software"]["python"] == platform.python_version()
    assert "cuda" not in block["software"]  # not asked to import torch


def test_env_merge_needs_role_and_both_ids(run_cli, workdir):
    done = run_cli("collect", "env", "--family", "demo", "--no-torch")
    assert done.exit_code == 2 and "give both --family and --job" in done.err
    done = run_cli("collect", "env", "--family", "demo", "--job", "j", "--no-torch")
    assert done.exit_code == 2 and "give --role measuring" in done.err
    assert not (workdir / "measurements").exists()


def test_env_merge_as_measuring_machine_into_a_record_without_a_gpu(run_cli, workdir):
    # a record whose input names no GPU and no TensorRT (a plan file only): env fills in this machine
    (workdir / "model.plan").write_bytes(b"\0" * 1234)
    first = run_cli("collect", "trtexec", "--family", "demo", "--job", "gpu-node", "--variant", "v", "--plan",
                    workdir / "model.plan", "--measurements", workdir / "measurements")
    assert first.exit_code == 0, first.err
    done = run_cli("collect", "env", "--family", "demo", "--job", "gpu-node", "--role", "measuring", "--no-torch",
                   "--measurements", workdir / "measurements")
    assert done.exit_code == 0, done.err
    record = json.loads((workdir / "measurements" / "demo" / "gpu-node.json").read_text())
    provenance = record["provenance"]
    assert [r["value_bytes"] for r in record["results"]] == [1234]
    assert provenance["collector"]["name"] == "studygen collect trtexec"
    assert any(n.startswith("also collected by studygen collect env") for n in provenance["notes"])
    assert provenance["software"]["python"] == platform.python_version()
    assert provenance["software"]["tensorrt"] is None
    assert "env: tensorrt: not installed" in provenance["notes"]


def test_env_merge_refuses_another_measuring_machine(run_cli, workdir):
    measurements = workdir / "measurements"
    first = run_cli("collect", "trtexec", "--family", "demo", "--job", "h100", "--log",
                    TRTEXEC / "trt10.16_build-and-run.log", "--measurements", measurements)
    assert first.exit_code == 0, first.err
    path = measurements / "demo" / "h100.json"
    before = path.read_bytes()
    done = run_cli("collect", "env", "--family", "demo", "--job", "h100", "--role", "measuring", "--no-torch",
                   "--measurements", measurements)
    # the log measured on an H100; this machine has no GPU (gpu_count 0): not the measuring machine
    assert done.exit_code == 2
    assert "h100.json:/provenance/gpu: the record was measured on NVIDIA H100 PCIe; this machine has no GPU" in done.err
    assert path.read_bytes() == before


def test_env_merge_as_conversion_machine_fills_in(run_cli, workdir):
    measurements = workdir / "measurements"
    run_cli("collect", "trtexec", "--family", "demo", "--job", "h100", "--log", TRTEXEC / "trt10.16_build-and-run.log",
            "--measurements", measurements)
    done = run_cli("collect", "env", "--family", "demo", "--job", "h100", "--role", "conversion", "--no-torch",
                   "--measurements", measurements)
    assert done.exit_code == 0, done.err
    provenance = json.loads((measurements / "demo" / "h100.json").read_text())["provenance"]
    machine = provenance["conversion_machine"]
    assert machine["hostname"] == socket.gethostname()
    assert machine["software"]["pycocotools"] == installed("pycocotools")
    assert provenance["gpu"] == "NVIDIA H100 PCIe"  # the measuring GPU is untouched


def cpu_record(workdir, job: str, software: dict):
    """Write a collect run --cpu record of ``job`` (no GPU, gpu_count 0, no CPU named, one host-clock latency,
    collected at a commit the checkout has since left) stating ``software``; its path."""
    record = {"schema_version": 1, "job_id": job, "family": "demo", "provenance": {
        "gpu": None, "gpu_count": 0, "driver": None, "software": software,
        "checkpoint": {"id": "org/tiny", "revision": "0000001", "weights": "random-init", "seed": 7},
        "repository_commit": "8431bb881c3ef89e6322586b8c02de228916dd1e", "repository_dirty": False,
        "collector": {"name": "studygen collect run", "version": "0.1.0"}},
        "results": [{"kind": "latency", "variant": "fp32", "shape": "64x64", "batch": 1, "backend": "pytorch",
                     "mode": "eager", "timing": "end_to_end", "statistic": "median", "value_ms": 0.445,
                     "method": {"timer": "perf-counter", "cuda_graph": False, "data_transfers": False}}]}
    path = workdir / "measurements" / "demo" / f"{job}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path


# ---- the CPU model (trial s21: a collect run --cpu record could name no machine) ------------------------------

def cpuinfo_models() -> str | None:
    """This machine's CPU model as /proc/cpuinfo's ``model name`` lines give it (distinct ones joined)."""
    try:
        lines = open("/proc/cpuinfo", encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return None
    names = [" ".join(line.split(":", 1)[1].split()) for line in lines if line.split(":")[0].strip() == "model name"]
    return " + ".join(dict.fromkeys(names)) or None


def test_env_block_names_this_machines_cpu(workdir):
    expected = cpuinfo_models()
    if expected is None:
        pytest.skip("no model name in /proc/cpuinfo on this machine")
    block = collect_env(workdir, with_torch=False)
    assert block["cpu"] == expected  # "AMD EPYC" on the machine these tests were written on
    assert list(block)[:4] == ["gpu", "gpu_count", "cpu", "driver"]


def test_cpu_model_joins_distinct_models_and_says_why_none_was_found(tmp_path, monkeypatch):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Intel(R)  Core(TM) i9-13900K\n\nprocessor\t: 1\n"
                       "model name\t: Intel(R) Core(TM) i9-13900K\nprocessor\t: 2\nmodel name\t: Other  Core\n")
    assert cpu_model(cpuinfo) == ("Intel(R) Core(TM) i9-13900K + Other Core", None)
    cpuinfo.write_text("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n")  # an Arm kernel's listing
    monkeypatch.setattr(platform, "system", lambda: "Linux")
    monkeypatch.setattr(platform, "processor", lambda: "")
    assert cpu_model(cpuinfo) == (None, f"CPU model: not found in {cpuinfo} or platform.processor()")
    monkeypatch.setattr(platform, "processor", lambda: "aarch64")
    assert cpu_model(tmp_path / "missing") == ("aarch64", None)


def test_env_merge_names_the_cpu_of_a_record_timed_without_a_gpu(run_cli, workdir):
    expected = cpuinfo_models()
    if expected is None:
        pytest.skip("no model name in /proc/cpuinfo on this machine")
    # a collect run --cpu record made before provenance.cpu, at a commit the checkout has since left
    path = cpu_record(workdir, "cpu-1", collect_env(workdir, with_torch=False)["software"])
    done = run_cli("collect", "env", "--family", "demo", "--job", "cpu-1", "--role", "measuring", "--no-torch",
                   "--measurements", workdir / "measurements")
    assert done.exit_code == 0, done.err
    assert "wrote measurements/demo/cpu-1.json: no new result, provenance filled in" in done.out
    provenance = json.loads(path.read_text())["provenance"]
    assert provenance["cpu"] == expected
    assert (provenance["repository_commit"], provenance["repository_dirty"]) == (
        "8431bb881c3ef89e6322586b8c02de228916dd1e", False)  # the code that measured it, kept


# ---- correcting the record's measuring machine (its conflict message told collect env's user to give --replace) --

def _cpu_record_stating_python(workdir, python_version: str):
    """A CPU record (no GPU) whose provenance states ``python_version``; its path."""
    return cpu_record(workdir, "cpu-2", {"python": python_version})


def test_env_merge_corrects_a_version_typed_wrong_with_replace(run_cli, workdir):
    path = _cpu_record_stating_python(workdir, "3.1.4")
    before = path.read_bytes()
    merge = ("collect", "env", "--family", "demo", "--job", "cpu-2", "--role", "measuring", "--no-torch",
             "--measurements", workdir / "measurements")
    refused = run_cli(*merge)
    assert refused.exit_code == 2
    assert (f"cpu-2.json:/provenance/software/python: the record says python 3.1.4, the new input says "
            f"{platform.python_version()}; use another --job; collect with --replace REASON") in refused.err
    assert path.read_bytes() == before
    done = run_cli(*merge, "--replace", "typed by hand")
    assert done.exit_code == 0, done.err
    provenance = json.loads(path.read_text())["provenance"]
    assert provenance["software"]["python"] == platform.python_version()
    note = f"provenance.software.python corrected from 3.1.4 to {platform.python_version()}: typed by hand"
    assert note in provenance["notes"] and f"note: {note}" in done.out
    assert "wrote measurements/demo/cpu-2.json: no new result, provenance corrected\n" in done.out
    assert len(json.loads(path.read_text())["results"]) == 1  # no result dropped


@pytest.mark.parametrize(("extra", "words"), [
    (("--role", "conversion", "--replace", "why"), "--replace corrects the measuring machine of a record"),
    (("--role", "measuring", "--replace", "  "), "--replace needs a reason"),
])
def test_env_replace_is_for_the_measuring_machine_with_a_reason(run_cli, workdir, extra, words):
    path = _cpu_record_stating_python(workdir, "3.1.4")
    before = path.read_bytes()
    done = run_cli("collect", "env", "--family", "demo", "--job", "cpu-2", "--no-torch",
                   "--measurements", workdir / "measurements", *extra)
    assert done.exit_code == 2 and words in done.err
    assert path.read_bytes() == before


def test_a_gpu_log_into_a_job_measured_without_a_gpu_is_refused(run_cli, workdir):
    # attack: a trtexec log collected into a --cpu job filled in its GPU, and the job's CPU latency was then
    # keyed and printed under the H100
    path = _cpu_record_stating_python(workdir, platform.python_version())
    before = path.read_bytes()
    log = ("--log", TRTEXEC / "trt10.16_build-and-run.log", "--measurements", workdir / "measurements",
           "--commit", "8431bb881c3ef89e6322586b8c02de228916dd1e")
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "cpu-2", *log)
    assert done.exit_code == 2
    assert ("cpu-2.json:/provenance/gpu: the record was measured without a GPU (gpu_count 0), the new input names "
            "'NVIDIA H100 PCIe': one job is one measuring machine; use another --job") in done.err
    assert path.read_bytes() == before



def test_a_gpu_log_into_a_cpu_job_under_replace_is_one_correction_with_one_note(run_cli, workdir):
    # before: refused as invalid ("None is not of type 'integer' (/provenance/gpu_count)": the log names a GPU, no
    # count); once written, two notes for one change, "provenance.gpu filled in: NVIDIA H100 PCIe" and
    # "provenance.gpu corrected from None to 'NVIDIA H100 PCIe': ..."
    path = _cpu_record_stating_python(workdir, platform.python_version())
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "cpu-2", "--log",
                   TRTEXEC / "trt10.16_build-and-run.log", "--measurements", workdir / "measurements",
                   "--commit", "8431bb881c3ef89e6322586b8c02de228916dd1e", "--replace", "the log is this job's GPU run")
    assert done.exit_code == 0, done.err
    gpu_notes = [line for line in done.out.splitlines() if "provenance.gpu" in line]
    assert gpu_notes == ["  note: provenance.gpu corrected from no GPU (gpu_count 0) to 'NVIDIA H100 PCIe' "
                         "(gpu_count not stated): the log is this job's GPU run"]
    provenance = json.loads(path.read_text())["provenance"]
    assert provenance["gpu"] == "NVIDIA H100 PCIe" and "gpu_count" not in provenance
    assert [note for note in provenance["notes"] if "provenance.gpu" in note] == [gpu_notes[0][len("  note: "):]]

def test_env_on_a_machine_without_a_gpu_is_no_measuring_machine_of_gpu_timings(run_cli, workdir):
    # attack: a TensorRT 7 log names no GPU; env on a CPU machine took the job over, its rows keyed under the CPU
    measurements = workdir / "measurements"
    first = run_cli("collect", "trtexec", "--family", "demo", "--job", "t7", "--variant", "int8", "--log",
                    TRTEXEC / "trt7_resnet50-int8_console.log", "--measurements", measurements)
    assert first.exit_code == 0, first.err
    path = measurements / "demo" / "t7.json"
    assert json.loads(path.read_text())["provenance"]["gpu"] is None
    before = path.read_bytes()
    done = run_cli("collect", "env", "--family", "demo", "--job", "t7", "--role", "measuring", "--no-torch",
                   "--measurements", measurements)
    assert done.exit_code == 2
    assert ("t7.json:/provenance/gpu: the record holds results a GPU measured (TensorRT, GPU compute time or CUDA "
            "events); this machine has no GPU: one job is one measuring machine") in done.err
    assert path.read_bytes() == before


def test_env_replace_without_a_record_to_merge_into_is_refused(run_cli, workdir):
    done = run_cli("collect", "env", "--role", "measuring", "--replace", "why", "--no-torch")
    assert done.exit_code == 2 and "--replace corrects the measuring machine of a record" in done.err
