"""studygen diff when a job's provenance is corrected: its figures are re-keyed, not removed and new.

A made-up edge study (the toy family of tests/checks/studies.py) committed twice in a git
repository: job edge-a measured fp16 and fp32 latencies (4.20 and 7.85 ms) and an fp16 AP
(0.412) on a GPU first named "Jetson" with no TensorRT version; job bench-b one fp16 latency
(3.10 ms) on an L4 that no commit touches. Each test changes edge-a and reads diff's report.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studygen.commands.diff import DiffOptions, run_diff
from studygen.compare.report import exit_code
from tests.checks.studies import coco_ap, collected_provenance, latency, record, write_project
from tests.workflow.test_diff import commit, git, line_of

RECORDS = Path("measurements") / "toy"
TIMING = "latency timing: CUDA graphs unknown -> off, data transfers unknown -> on, spin-wait unknown -> off"


def edge_study(gpu: str, tensorrt: str | None, fp32_ms: float = 7.85, job: str = "edge-a") -> list[dict]:
    return [record(job, [latency("fp16", 4.20), latency("fp32", fp32_ms), coco_ap("fp16", 0.412)],
                   collected_provenance(gpu=gpu, tensorrt=tensorrt)),
            record("bench-b", [latency("fp16", 3.10)], collected_provenance(gpu="NVIDIA L4", tensorrt="10.3.0"))]


@pytest.fixture
def repo(tmp_path) -> Path:
    repo = tmp_path / "repo"
    write_project(repo, records=edge_study("Jetson", None))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "edge-a on a GPU named 'Jetson', no TensorRT version")
    return repo


def family_lines(out: str) -> list[str]:
    """The report's lines of the toy family's figures, without the findings (SG209 goes with the version)."""
    return [line for line in out.splitlines()[2:-1] if not line.startswith("  finding ")]


def test_a_corrected_gpu_name_and_tensorrt_version_re_key_the_jobs_figures_and_exit_0(repo, run_cli):
    # before: 3 "removed" and 3 "new" figures with the same values, and nothing said the provenance changed
    write_project(repo, records=edge_study("Jetson AGX Orin", "8.5.2"))
    commit(repo, "edge-a: the GPU's full name and its TensorRT version")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 0, result.out + result.err
    gpu_line = line_of(repo / RECORDS / "edge-a.json", '"gpu": "Jetson AGX Orin"', 0)
    assert family_lines(result.out) == [
        f"  provenance changed: job edge-a: GPU 'Jetson' -> 'Jetson AGX Orin', tensorrt not stated -> 8.5.2; {TIMING}; "
        f"3 figures re-keyed, values unchanged [{RECORDS}/edge-a.json:{gpu_line}]"]
    assert result.out.splitlines()[-1].startswith(
        "0 figures beyond their spread, 0 verdict changes; 0 within spread, 0 new, 0 removed, 1 unchanged, "
        "3 re-keyed (1 job whose provenance changed), 0 sentences changed, findings:")
    report = run_diff(DiffOptions("HEAD~1", "HEAD", root=repo))
    assert [exit_code(report, fail_on) for fail_on in ("beyond-spread", "verdict", "never")] == [0, 0, 0]

    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md").out.splitlines()
    at = markdown.index("Provenance changed (figures re-keyed, values unchanged):")
    assert markdown[at + 2] == ("- toy: job edge-a: GPU 'Jetson' → 'Jetson AGX Orin', tensorrt not stated → 8.5.2; "
                                "latency timing: CUDA graphs unknown → off, data transfers unknown → on, spin-wait "
                                "unknown → off; 3 figures re-keyed, values unchanged")
    assert "<summary>Re-keyed figures (3)</summary>" in markdown
    assert "- toy, job edge-a: fp32 median GPU compute time, 800 x 800, engine, Jetson AGX Orin: 7.85 ms" in markdown
    assert not any(line.startswith("Removed figures") for line in markdown)

    github = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "github").out.splitlines()
    assert github[0] == (f"::notice file={RECORDS}/edge-a.json,line={gpu_line},title=studygen diff%3A provenance "
                         "changed::toy: job edge-a: GPU 'Jetson' -> 'Jetson AGX Orin', tensorrt not stated -> 8.5.2; "
                         f"{TIMING}; 3 figures re-keyed, values unchanged")
    assert not any("studygen diff%3A removed" in line or "studygen diff%3A new" in line for line in github)


def test_the_json_report_gives_the_provenance_change_and_its_re_keyed_figures(repo, run_cli):
    write_project(repo, records=edge_study("Jetson AGX Orin", "8.5.2"))
    commit(repo, "edge-a: the GPU's full name and its TensorRT version")

    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    summary = data["summary"]
    assert (summary["re-keyed"], summary["provenance changes"], summary["new"], summary["removed"],
            summary["unchanged"]) == (3, 1, 0, 0, 1)
    (toy,) = data["families"]
    assert toy["figures"] == [] and toy["unchanged_figures"] == 1  # bench-b's latency
    (change,) = toy["provenance"]
    assert (change["job"], change["re_keyed"], change["value_changed"]) == ("edge-a", 3, 0)
    assert change["fields"] == [{"name": "GPU", "base": "Jetson", "head": "Jetson AGX Orin"},
                                {"name": "tensorrt", "base": "not stated", "head": "8.5.2"}]
    assert change["timing"] == [{"flag": "CUDA graphs", "base": "unknown", "head": "off"},
                                {"flag": "data transfers", "base": "unknown", "head": "on"},
                                {"flag": "spin-wait", "base": "unknown", "head": "off"}]
    assert (change["file"], change["pointer"]) == (f"{RECORDS}/edge-a.json", "/provenance/gpu")
    assert change["line"] == line_of(repo / RECORDS / "edge-a.json", '"gpu": "Jetson AGX Orin"', 0)
    fp32 = next(f for f in change["figures"] if f["what"].startswith("fp32"))
    assert fp32 == {"what": "fp32 median GPU compute time, 800 x 800, engine, Jetson AGX Orin",
                    "old_key": "toy|0123456|fp32||latency|gpu_compute|median||800x800|b1|tensorrt|engine|Jetson|"
                               "cuda=13.0|",
                    "new_key": "toy|0123456|fp32||latency|gpu_compute|median||800x800|b1|tensorrt|engine|"
                               "Jetson AGX Orin|tensorrt=8.5.2,cuda=13.0|",
                    "values": ["7.85"], "unit": "ms"}
    assert sorted(f["values"][0] for f in change["figures"]) == ["0.412", "4.2", "7.85"]


def test_a_figure_whose_value_changed_with_the_gpu_name_stays_removed_and_new(repo, run_cli):
    # the fp32 latency was re-measured (7.85 -> 7.60 ms) in the same commit: under another GPU's key the base's
    # spread does not bound it, so it is no move; the other two figures are re-keyed
    write_project(repo, records=edge_study("Jetson AGX Orin", "8.5.2", fp32_ms=7.60))
    commit(repo, "edge-a: the GPU's full name, and fp32 re-measured")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 0, result.out + result.err
    record_path = repo / RECORDS / "edge-a.json"
    gpu_line = line_of(record_path, '"gpu": "Jetson AGX Orin"', 0)
    fp32_line = line_of(record_path, '"value_ms": 7.6', 0)
    assert family_lines(result.out) == [
        f"  provenance changed: job edge-a: GPU 'Jetson' -> 'Jetson AGX Orin', tensorrt not stated -> 8.5.2; {TIMING}; "
        f"2 figures re-keyed, values unchanged; 1 figure changed value too, listed as removed and new "
        f"[{RECORDS}/edge-a.json:{gpu_line}]",
        f"  new: fp32 median GPU compute time, 800 x 800, engine, Jetson AGX Orin: 7.6 ms (job edge-a) "
        f"[{RECORDS}/edge-a.json:{fp32_line}]",
        f"  removed: fp32 median GPU compute time, 800 x 800, engine, Jetson: was 7.85 ms (job edge-a) "
        f"[{RECORDS}/edge-a.json:{fp32_line}]"]
    assert ", 1 new, 1 removed, 1 unchanged, 2 re-keyed (1 job whose provenance changed)," in result.out


def test_a_job_replaced_by_another_with_equal_values_is_not_re_keyed(repo, run_cli):
    # edge-a's record removed and edge-c's added, equal values, the new GPU name: another job id is another run
    git(repo, "rm", "-q", str(RECORDS / "edge-a.json"))
    write_project(repo, records=edge_study("Jetson AGX Orin", "8.5.2", job="edge-c"))
    commit(repo, "edge-a replaced by edge-c")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 0, result.out + result.err
    lines = [line.rsplit(" [", 1)[0] for line in family_lines(result.out)]
    assert lines == [
        "  new: fp16 AP coco, engine, Jetson AGX Orin, val-8: 0.412 (job edge-c)",
        "  new: fp16 median GPU compute time, 800 x 800, engine, Jetson AGX Orin: 4.2 ms (job edge-c)",
        "  new: fp32 median GPU compute time, 800 x 800, engine, Jetson AGX Orin: 7.85 ms (job edge-c)",
        "  removed: fp16 AP coco, engine, Jetson, val-8: was 0.412 (job edge-a)",
        "  removed: fp16 median GPU compute time, 800 x 800, engine, Jetson: was 4.2 ms (job edge-a)",
        "  removed: fp32 median GPU compute time, 800 x 800, engine, Jetson: was 7.85 ms (job edge-a)"]
    assert "re-keyed" not in result.out and "provenance changed" not in result.out
    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    assert data["families"][0]["provenance"] == [] and data["summary"]["re-keyed"] == 0
