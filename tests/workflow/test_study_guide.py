"""Issue 14 item 7: the study guide's walk from ``studygen new`` to a clean
``check``, run exactly as the guide prints it (the commands between the
``study-guide walk`` markers of docs/study-guide.md), in a fresh project with
``../shared`` beside it."""

from __future__ import annotations

import json
import re
import shlex

from ..conftest import REPO, SHARED

GUIDE = REPO / "docs" / "study-guide.md"
WALK = re.compile(r"<!-- study-guide walk: begin -->\n```sh\n(.*?)```\n<!-- study-guide walk: end -->", re.S)


def guide_commands() -> list[list[str]]:
    (block,) = WALK.findall(GUIDE.read_text(encoding="utf-8"))
    return [shlex.split(line) for line in block.splitlines() if line.strip()]


def test_the_walk_is_new_collect_rows_render_check():
    commands = guide_commands()
    assert [c[:2] for c in commands] == [["studygen", "new"], ["studygen", "collect"], ["studygen", "rows"],
                                         ["studygen", "render"], ["studygen", "check"]]
    # the guide walks the shipped fixture, by the path a reader at the project root types
    assert "../shared/fixtures/trtexec/trt10.16_build-and-run.log" in commands[1]


def _walk(tmp_path, run_cli, monkeypatch, commands):
    project = tmp_path / "work" / "project"
    project.mkdir(parents=True)
    (tmp_path / "work" / "shared").symlink_to(SHARED, target_is_directory=True)
    monkeypatch.chdir(project)
    results = []
    for argv in commands:
        assert argv[0] == "studygen"
        results.append(run_cli(*argv[1:]))
    return project, results


def test_the_walk_up_to_render_collects_what_the_log_says(tmp_path, run_cli, monkeypatch):
    project, results = _walk(tmp_path, run_cli, monkeypatch, guide_commands()[:3])
    assert [r.exit_code for r in results] == [0, 0, 0], [r.err for r in results]
    record = json.loads((project / "measurements/demo/h100-a.json").read_text())
    gpu_compute = next(r for r in record["results"] if r["kind"] == "latency" and r["timing"] == "gpu_compute")
    # trt10.16_build-and-run.log: "GPU Compute Time: min = ..., median = 0.0361328 ms"
    assert gpu_compute["value_ms"] == 0.0361328
    assert record["provenance"]["gpu"] == "NVIDIA H100 PCIe" and record["provenance"]["software"]["tensorrt"] == "10.16.1"
    assert "gpu_compute" in results[2].out and "0.0361328" in results[2].out


def test_the_guide_walk_ends_in_a_clean_check(tmp_path, run_cli, monkeypatch):
    project, results = _walk(tmp_path, run_cli, monkeypatch, guide_commands())
    assert [r.exit_code for r in results] == [0] * 5, [r.err for r in results]
    readme = (project / "families/demo/README.md").read_text()
    # the log's GPU compute median (ms), 0.0361328, to the 4 significant digits the guide states; the record keeps 0.0361328
    assert "| H100 PCIe | 28 x 28 | 1 | 0.03613 |" in [" ".join(line.split()) for line in readme.splitlines()]
    assert "0.0361328" not in readme
    assert "0 error(s)" in results[4].out


def test_pr_body_of_the_walked_family_uses_the_builtin_template(tmp_path, run_cli, monkeypatch):
    # `studygen new` writes template: studygen/generic.md.j2; --pr-body must find it as render does
    project, results = _walk(tmp_path, run_cli, monkeypatch, guide_commands()[:2])
    assert [r.exit_code for r in results] == [0, 0], [r.err for r in results]
    body = run_cli("render", "--pr-body", "demo")
    assert body.exit_code == 0, body.err
    assert body.out.startswith("Study: `families/demo/study.yaml`; records: `measurements/demo/`.\n\n## Summary and decision\n")
    assert "## Results\n" in body.out
    # the log's GPU compute median (ms) and plan size: 13185316 bytes / 2**20 = 12.5744 MiB, each to 4 significant digits;
    # the plan size names the TensorRT release that built the engine, as the log gives it
    rows = [" ".join(line.split()) for line in body.out.splitlines()]
    assert "| H100 PCIe | 28 x 28 | 1 | 0.03613 |" in rows and "| H100 PCIe | 10.16.1 | 28 x 28 | 1 | 12.57 |" in rows
    assert not (project / "families/demo/README.md").exists()  # --pr-body prints, writes nothing


def test_a_second_job_after_the_walk_still_checks_clean(tmp_path, run_cli, monkeypatch):
    # the guide's next step: more collect runs. The same log again under a second job is one run shown as two
    # (found by a new user), so it is refused; another run (the log of another trtexec run on the same H100 and
    # TensorRT 10.16.1) goes into the second job.
    same = ["studygen", "collect", "trtexec", "--family", "demo", "--job", "h100-b", "--variant", "fp32",
            "--log", "../shared/fixtures/trtexec/trt10.16_build-and-run.log", "--commit", "353a4d73"]
    second = same[:-3] + ["../shared/fixtures/trtexec/trt10.16_no-data-transfers.log", "--commit", "353a4d73"]
    project, results = _walk(tmp_path, run_cli, monkeypatch, guide_commands() + [
        same, second, ["studygen", "render", "demo"], ["studygen", "check", "demo"]])
    assert [r.exit_code for r in results] == [0] * 5 + [2] + [0] * 3, [r.err for r in results]
    assert "is already recorded in job h100-a" in results[5].err
    assert "0 error(s)" in results[-1].out
    readme = (project / "families/demo/README.md").read_text()
    # two runs, two figures: GPU compute median 0.0361328 ms (h100-a, batch 1) and 0.0388184 ms (h100-b, the
    # no-data-transfers log's line 549, batch 4); as their batches differ, no table of one measurement in two jobs
    assert "0.03613" in readme and "0.03882" in readme  # to 4 significant digits
    assert "### Same measurement in several jobs" not in readme


ONE_CHECKPOINT = re.compile(r"\*\*One family, one model\.\*\* .*?`collect` refuses a `--checkpoint` whose id "
                            r"names another model than the study file's \(`(?P<message>[^`]*) …`, nothing written\)")


def test_the_guide_says_a_family_is_one_checkpoint_and_collect_refuses_another(tmp_path, run_cli, monkeypatch):
    # the guide's words, quoted from the refusal a reader meets; the walk's family then refuses a second checkpoint
    match = ONE_CHECKPOINT.search(GUIDE.read_text(encoding="utf-8"))
    assert match, "the study guide no longer says that one family measures one model"
    commands = guide_commands()[:2]
    project, results = _walk(tmp_path, run_cli, monkeypatch, commands)
    assert [r.exit_code for r in results] == [0, 0], [r.err for r in results]
    record = project / "measurements/demo/h100-a.json"
    before = record.read_bytes()
    other = [*commands[1][1:], "--job", "h100-b", "--checkpoint", "other/model"]
    refused = run_cli(*other)
    assert refused.exit_code == 2
    assert refused.err.startswith(f"studygen: {match['message']} NVIDIA/trt-samples-for-hackathon-cn/model-trained.onnx")
    assert record.read_bytes() == before and not (project / "measurements/demo/h100-b.json").exists()
    # what the guide says to do instead: a family of its own for the other checkpoint
    own = run_cli("new", "demo-other", "--variants", "fp32", "--model", "other/model", "--revision", "1234567")
    assert own.exit_code == 0, own.err
    again = run_cli(*[arg if arg != "demo" else "demo-other" for arg in other])
    assert again.exit_code == 0, again.err
