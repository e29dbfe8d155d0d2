"""docs/launch/: the one-host launcher starts one shard per GPU through torchrun and ``--shard auto``
(here on the CPU, two ranks standing for two GPUs), and both scripts are valid bash."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import make_tiny_project

REPO = Path(__file__).resolve().parents[2]
LAUNCH = REPO / "docs" / "launch"


@pytest.mark.parametrize("script", ["one-host.sh", "slurm-array.sbatch"])
def test_the_scripts_parse_and_shard_automatically(script):
    text = (LAUNCH / script).read_text(encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(LAUNCH / script)], capture_output=True).returncode == 0
    assert "--shard auto" in text


@pytest.mark.skipif(shutil.which("torchrun", path=str(Path(sys.executable).parent)) is None, reason="no torchrun")
def test_one_host_launcher_writes_one_record_per_rank(tmp_path):
    root = make_tiny_project(tmp_path / "project")
    env = {key: value for key, value in os.environ.items()
           if key not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT")}
    env.update(GPUS="2", PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    done = subprocess.run(["bash", str(LAUNCH / "one-host.sh"), str(root / "families" / "tiny"), "x2", "--root", str(root),
                           "--cpu", "--variants", "fp32,fp16", "--modes", "eager", "--shapes", "64x96", "--quiet"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    records = sorted((root / "measurements" / "tiny").glob("*.json"))
    assert [p.name for p in records] == ["x2-shard1of2.json", "x2-shard2of2.json"]
    for index, (path, variant) in enumerate(zip(records, ("fp32", "fp16"))):
        document = json.loads(path.read_text())
        assert document["provenance"]["placement"] == {
            "shard": [index + 1, 2], "launcher": "torchrun", "local_rank": index, "gpu_index": None, "gpu_uuid": None,
            "cuda_visible_devices": None}
        assert [r["variant"] for r in document["results"] if r["kind"] == "latency"] == [variant]
