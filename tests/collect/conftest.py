"""Fixtures for the collector tests: the shared input files, and a runner
that calls ``studygen collect …`` in a temporary folder and loads the record.

Inputs come from ../shared/fixtures (never copied into the repository); each
test writes into its own tmp_path (``--measurements``), never the project.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

TRTEXEC = FIXTURES / "trtexec"
TORCH = FIXTURES / "torch_profiler"


@dataclass
class Collected:
    exit_code: int
    out: str
    err: str
    measurements: Path
    family: str
    job: str

    @property
    def path(self) -> Path:
        return self.measurements / self.family / f"{self.job}.json"

    @property
    def record(self) -> dict:
        return json.loads(self.path.read_text(encoding="utf-8"))

    @property
    def results(self) -> list[dict]:
        return self.record["results"]

    def latency(self, timing: str, batch: int | None = None) -> dict:
        found = [r for r in self.results if r["kind"] == "latency" and r["timing"] == timing and r.get("batch") == batch]
        assert len(found) == 1, f"{len(found)} {timing} results for batch {batch}"
        return found[0]

    def kind(self, kind: str) -> list[dict]:
        return [r for r in self.results if r["kind"] == kind]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A working directory outside any project (no families/ above it)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def collect(workdir, run_cli):
    """``collect(sub, *args, family=, job=)`` runs ``studygen collect sub --family F --job J
    --measurements <tmp>/measurements *args`` in-process."""

    def invoke(sub: str, *args, family: str = "demo", job: str = "job1", measurements: Path | None = None) -> Collected:
        target = measurements or workdir / "measurements"
        result = run_cli("collect", sub, "--family", family, "--job", job, "--measurements", target, *args)
        return Collected(result.exit_code, result.out, result.err, target, family, job)

    return invoke


def assert_refused(done: Collected, *fragments: str) -> None:
    """``done`` exited 2 with one line on stderr (no traceback, no internal
    error) holding every fragment, and wrote no record and no dataset
    definition."""
    assert done.exit_code == 2, done.out + done.err
    assert done.err.count("\n") == 1 and "Traceback" not in done.err and "internal error" not in done.err, done.err
    for fragment in fragments:
        assert fragment in done.err, done.err
    assert not done.path.exists()
    assert not (done.measurements / done.family / "datasets").exists()


def gpu_groups(result: dict) -> dict[str, float]:
    """``{group: time_ms}`` of a kernel_time result."""
    return {g["group"]: g["time_ms"] for g in result["groups"]}
