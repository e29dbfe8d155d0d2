"""studygen diff on a git repository built from the shipped H200 family (issue 27's acceptance).

Each test commits a change to a copy of families/deformable_detr_h200_torch,
measurements/deformable_detr_h200_torch and templates, then runs
``studygen diff`` in-process. Expected figures are read off the committed
records here, by hand, never through studygen's loaders.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from studygen.commands.diff import DiffOptions, run_diff
from studygen.compare.report import exit_code
from tests.conftest import copy_project

FAMILY = "deformable_detr_h200_torch"
RECORDS = Path("measurements") / FAMILY
STUDY = Path("families") / FAMILY / "study.yaml"


def git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", HOME=str(repo.parent))
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def base_repo(tmp_path_factory) -> Path:
    repo = copy_project(tmp_path_factory.mktemp("diff-base") / "repo", families=(FAMILY,))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "the shipped H200 study")
    return repo


@pytest.fixture
def repo(base_repo, tmp_path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(base_repo, copy, symlinks=True)
    return copy


def read_record(repo: Path, job: str) -> dict:
    return json.loads((repo / RECORDS / f"{job}.json").read_text())


def write_record(repo: Path, job: str, record: dict) -> None:
    (repo / RECORDS / f"{job}.json").write_text(json.dumps(record, indent=2) + "\n")


def latency_index(record: dict, variant: str, shape: str) -> int:
    return next(i for i, r in enumerate(record["results"])
                if r["kind"] == "latency" and r["variant"] == variant and r["shape"] == shape)


def shift_latency(result: dict, ms: float) -> None:
    """Every timing of a latency result moved by ``ms``: a re-run that measured the same spread a little later."""
    result["value_ms"] = round(result["value_ms"] + ms, 6)
    for name in result["statistics_ms"]:
        if name != "std":
            result["statistics_ms"][name] = round(result["statistics_ms"][name] + ms, 6)
    distribution = result["distribution"]
    distribution["repeat_medians_ms"] = [round(v + ms, 6) for v in distribution["repeat_medians_ms"]]
    for name in ("median_ms", "mean_ms", "p90_ms", "p99_ms"):
        distribution[name] = round(distribution[name] + ms, 6)
    for compilation in result.get("compilations", []):
        compilation["median_ms"] = round(compilation["median_ms"] + ms, 6)
        compilation["repeat_medians_ms"] = [round(v + ms, 6) for v in compilation["repeat_medians_ms"]]


def line_of(path: Path, text: str, occurrence: int) -> int:
    """1-based line of the ``occurrence``-th (0-based) line holding ``text``."""
    hits = [number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return hits[occurrence]


def figure_count(results: list[dict]) -> int:
    """Figures a list of results gives, counted by hand: a latency, an agreement, a module count one
    each; a kernel time one per group and one for its profiled total; a not-measured result none."""
    count = 0
    for result in results:
        if result["kind"] == "kernel_time":
            count += len(result["groups"]) + ("profiled_total_ms" in result)
        elif result["kind"] != "not_measured":
            count += 1
    return count


def test_a_latency_moved_inside_its_repeat_spread_is_within_spread_and_exits_0(repo, run_cli):
    record = read_record(repo, "h200-compile-800x800")
    index = latency_index(record, "fp16", "800x800")
    repeats = record["results"][index]["distribution"]["repeat_medians_ms"]
    assert max(repeats) - min(repeats) == pytest.approx(0.659136)  # 8.220016 to 8.879152 ms
    shift_latency(record["results"][index], 0.03)
    write_record(repo, "h200-compile-800x800", record)
    commit(repo, "fp16 800x800 re-run, 0.03 ms later")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--fail-on", "beyond-spread")
    assert result.exit_code == 0, result.out + result.err
    line = line_of(repo / RECORDS / "h200-compile-800x800.json", '"value_ms"', 0)  # the first latency result
    # +0.03 / 8.304952 = +0.36 %
    assert (f"  within spread: fp16 median CUDA-event time per forward, 800 x 800, compile, H200, skimage-heldout-6: "
            f"8.305 ms -> 8.335 ms (+0.030 ms, +0.36 %); within 0.659 ms spread of 30 repeat medians in base "
            f"(8.220 to 8.879 ms) [{RECORDS}/h200-compile-800x800.json:{line}]") in result.out.splitlines()
    assert "beyond spread:" not in result.out
    # the README was not rendered again: check's staleness finding appears, and is listed
    assert f"finding appeared: families/{FAMILY}/README.md" in result.out and "SG201" in result.out


def test_each_revision_is_loaded_and_checked_with_the_garbage_collector_paused(repo, monkeypatch):
    # diff pauses collection around loading and checking each side, as check does (loaded_and_checked itself does not)
    import gc

    from studygen.commands import diff

    collecting = []
    loaded_and_checked = diff.loaded_and_checked

    def watched(study_dir, root):
        collecting.append(gc.isenabled())
        return loaded_and_checked(study_dir, root)

    monkeypatch.setattr(diff, "loaded_and_checked", watched)
    record = read_record(repo, "h200-compile-800x800")
    shift_latency(record["results"][latency_index(record, "fp16", "800x800")], 0.03)
    write_record(repo, "h200-compile-800x800", record)
    commit(repo, "fp16 800x800 re-run, 0.03 ms later")
    assert gc.isenabled()
    run_diff(DiffOptions(base="HEAD~1", head="HEAD", root=repo))
    assert collecting == [False, False] and gc.isenabled()  # base and head, each paused


def test_a_latency_moved_beyond_its_spread_names_the_spread_and_its_source_and_exits_1(repo, run_cli):
    record = read_record(repo, "h200-compile-800x1067")
    index = latency_index(record, "fp16", "800x1067")
    result_before = record["results"][index]
    repeats = result_before["distribution"]["repeat_medians_ms"]
    compilations = [c["median_ms"] for c in result_before["compilations"]]
    # 30 repeat medians 12.542608 to 12.640608 (0.098 ms) are wider than 6 compilations (0.091136 ms)
    assert (min(repeats), max(repeats)) == (12.542608, 12.640608)
    assert max(compilations) - min(compilations) < max(repeats) - min(repeats)
    shift_latency(record["results"][index], 0.5)
    write_record(repo, "h200-compile-800x1067", record)
    commit(repo, "fp16 800x1067 half a millisecond slower")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 1
    # +0.5 / 12.607392 = +3.97 %
    assert ("  beyond spread: fp16 median CUDA-event time per forward, 800 x 1067, compile, H200, skimage-heldout-6: "
            "12.607 ms -> 13.107 ms (+0.500 ms, +3.97 %); more than 0.098 ms spread of 30 repeat medians in base "
            "(12.543 to 12.641 ms)") in result.out
    assert result.out.splitlines()[-1].startswith("1 figure beyond its spread, 0 verdict changes, 2 new error findings;")
    report = run_diff(DiffOptions("HEAD~1", "HEAD", root=repo))  # the same path from Python
    assert [exit_code(report, fail_on) for fail_on in ("beyond-spread", "verdict", "never")] == [1, 0, 0]


def test_a_re_run_55_percent_slower_is_beyond_the_base_spread_however_its_own_repeats_scatter(repo, run_cli):
    # the GPU trial's case: a re-run of fp16 800 x 1067 whose median is 55 % slower and whose repeats scatter from
    # the old times to 7 ms above them. Before, its own 7.098 ms repeat spread was the widest and held the
    # 6.934 ms move: within spread, exit 0. The base's 30 repeat medians span 0.098 ms
    record = read_record(repo, "h200-compile-800x1067")
    result = record["results"][latency_index(record, "fp16", "800x1067")]
    repeats = result["distribution"]["repeat_medians_ms"]
    assert (result["value_ms"], min(repeats), max(repeats)) == (12.607392, 12.542608, 12.640608)
    slower = round(12.607392 * 1.55, 6)  # 19.541458
    shift_latency(result, slower - 12.607392)
    result["distribution"]["repeat_medians_ms"] = repeats[:10] + [round(v + 7.0, 6) for v in repeats[10:]]
    head_repeats = result["distribution"]["repeat_medians_ms"]
    assert max(head_repeats) - min(head_repeats) > slower - 12.607392  # 7.098 > 6.934: what made it "within"
    write_record(repo, "h200-compile-800x1067", record)
    commit(repo, "fp16 800x1067 re-run, 55 % slower, scattered")

    out = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert out.exit_code == 1, out.out + out.err
    # +6.934066 / 12.607392 = +55.00 %
    assert ("  beyond spread: fp16 median CUDA-event time per forward, 800 x 1067, compile, H200, skimage-heldout-6: "
            "12.607 ms -> 19.541 ms (+6.934 ms, +55.00 %); more than 0.098 ms spread of 30 repeat medians in base "
            "(12.543 to 12.641 ms)") in out.out
    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    (figure,) = [f for f in data["families"][0]["figures"] if f["verdict"] == "beyond spread"]
    assert (figure["farthest"], figure["points"], figure["spread"]["side"]) == ("h200-compile-800x1067", None, "base")
    assert figure["relative"] == pytest.approx(0.55) and figure["delta"] == pytest.approx(6.934066)


def test_a_new_job_is_judged_on_its_own_move_and_an_ap_change_reads_in_points(tmp_path, run_cli):
    """A toy project: jobs a and b at 10.0 and 10.2 ms and AP 0.4644; a third job c, 55 % slower, joins, and
    job a's AP drops to 0.4600. Before, the head's three jobs gave a median of 10.2 (+0.1 ms from 10.1) held to
    their own 5.5 ms spread: within spread, exit 0; the AP change read -0.09 %."""
    from tests.checks.studies import coco_ap, latency, record, spec, write_project

    repo = tmp_path / "repo"
    jobs = [record("a", [latency("fp16", 10.0), coco_ap("fp16", 0.4644)]),
            record("b", [latency("fp16", 10.2), coco_ap("fp16", 0.4644)])]
    write_project(repo, records=jobs, study=spec(tolerances={"coco": 0.01}))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "jobs a and b")
    jobs[0]["results"][1]["value"] = 0.46
    write_project(repo, records=[*jobs, record("c", [latency("fp16", 15.5)])], study=spec(tolerances={"coco": 0.01}))
    commit(repo, "job c; job a's AP re-measured")

    out = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert out.exit_code == 1, out.out + out.err
    lines = out.out.splitlines()
    c_line = line_of(repo / "measurements" / "toy" / "c.json", '"value_ms"', 0)
    a_line = line_of(repo / "measurements" / "toy" / "a.json", '"value": 0.46', 0)
    # c moved from the base's median 10.1 to 15.5: +5.4 ms, +53.47 %, past the base's two jobs' 0.2 ms
    assert ("  beyond spread: fp16 median GPU compute time, 800 x 800, engine, H200: 10.0, 10.2 ms (jobs a, b) -> "
            "10.0, 10.2, 15.5 ms (jobs a, b, c) (job c is new, +5.4 ms, +53.47 % from the base); more than 0.2 ms spread of "
            f"2 jobs in base (10.0 to 10.2 ms) [measurements/toy/c.json:{c_line}]") in lines
    # job a's AP: 0.4644 -> 0.46 is -0.44 points, within the base's tolerance 0.01 AP, which is 1 point
    assert ("  within spread: fp16 AP coco, engine, H200, val-8: 0.4644, 0.4644 (jobs a, b) -> 0.46, 0.4644 (jobs a, b) "
            f"(-0.44 points, job a moved most); within tolerance 0.0100 (study file): 1.00 points "
            f"[measurements/toy/a.json:{a_line}]"
            ) in lines
    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    figures = {f["verdict"]: f for f in data["families"][0]["figures"]}
    assert (figures["beyond spread"]["farthest"], figures["beyond spread"]["points"]) == ("c", None)
    assert figures["beyond spread"]["delta"] == pytest.approx(5.4)
    assert (figures["within spread"]["farthest"], figures["within spread"]["relative"]) == ("a", None)
    assert figures["within spread"]["points"] == pytest.approx(-0.44)


def test_a_new_job_on_another_gpu_gives_new_figures(repo, run_cli):
    record = read_record(repo, "h200-eager")
    record["job_id"] = "h100-eager"
    record["provenance"]["gpu"] = "NVIDIA H100 80GB HBM3"
    write_record(repo, "h100-eager", record)
    commit(repo, "the eager job again on an H100")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 0, result.out
    new = [line for line in result.out.splitlines() if line.startswith("  new: ")]
    # 8 latencies, 8 kernel-time results of 5 or 6 groups and a total (50), 12 agreements, 1 module count
    assert len(new) == figure_count(record["results"]) == 71
    assert all("H100 80GB HBM3" in line and line.endswith(f"[{RECORDS}/h100-eager.json:{line.rsplit(':', 1)[1]}")
               for line in new)
    assert ("  new: bf16 median CUDA-event time per forward, 800 x 1067, eager, H100 80GB HBM3, skimage-heldout-6: 43.963 ms "
            "(job h100-eager)") in "\n".join(line.rsplit(" [", 1)[0] for line in new)
    assert "beyond spread:" not in result.out and "removed:" not in result.out


def test_a_removed_variant_gives_removed_figures(repo, run_cli):
    record = read_record(repo, "h200-eager")
    bf16 = [r for r in record["results"] if r["variant"] == "bf16"]
    record["results"] = [r for r in record["results"] if r["variant"] != "bf16"]
    write_record(repo, "h200-eager", record)
    # bf16 stays declared: the pinning comparison's records still hold bf16 results, and a head whose records
    # name an undeclared variant cannot be read (SG202), so nothing of it would be compared
    commit(repo, "bf16 dropped")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert "unreadable:" not in result.out
    removed = [line for line in result.out.splitlines() if line.startswith("  removed: ")]
    assert len(removed) == figure_count(bf16) == 18  # 2 latencies, 2 x (5 groups + total), 4 agreements
    assert all(line.startswith("  removed: bf16 ") for line in removed)
    assert ("  removed: bf16 median CUDA-event time per forward, 800 x 800, eager, H200, skimage-heldout-6: was 41.377 ms "
            "(job h200-eager)") in "\n".join(line.rsplit(" [", 1)[0] for line in removed)
    assert "new:" not in result.out and "beyond spread:" not in result.out


def test_a_changed_decision_sentence_is_a_verdict_change(repo, run_cli):
    study = (repo / STUDY).read_text()
    assert "the FP8 recipe is no faster than fp16" in study
    (repo / STUDY).write_text(study.replace("the FP8 recipe is no faster than fp16", "the FP8 recipe is faster than fp16"))
    assert run_cli("render", FAMILY, "--root", repo).exit_code == 0
    commit(repo, "decision reworded")

    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 1, result.out
    readme = (repo / "families" / FAMILY / "README.md").read_text().splitlines()
    line = next(n for n, text in enumerate(readme, 1) if "the FP8 recipe is faster than fp16" in text)
    lines = result.out.splitlines()
    at = lines.index(f"  verdict changed: families/{FAMILY}/README.md:{line} (no faster, slower -> faster, slower)")
    assert lines[at + 1].startswith("      - Compiled with CUDA graphs, where a forward's latency is almost all kernel "
                                    "time, the FP8 recipe is no faster than fp16 over six")
    assert lines[at + 2].startswith("      + Compiled with CUDA graphs, where a forward's latency is almost all kernel "
                                    "time, the FP8 recipe is faster than fp16 over six")
    assert lines[-1].startswith("0 figures beyond their spread, 1 verdict change;")
    report = run_diff(DiffOptions("HEAD~1", "HEAD", root=repo))
    assert [exit_code(report, fail_on) for fail_on in ("beyond-spread", "verdict", "never")] == [1, 1, 0]
    # the README was rendered with the study file: no finding appears or goes
    assert "finding appeared" not in result.out and "finding gone" not in result.out


def test_nothing_changed_says_so_and_exits_0(repo, run_cli):
    (repo / "notes.txt").write_text("a file outside the study folders\n")
    commit(repo, "notes")
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 0
    first = git(repo, "rev-parse", "HEAD~1").strip()[:12]
    last = git(repo, "rev-parse", "HEAD").strip()[:12]
    assert result.out.splitlines() == [
        f"studygen diff: HEAD~1 ({first}) -> HEAD ({last})",
        f"{FAMILY}: inputs unchanged",
        f"nothing changed between HEAD~1 ({first}) and HEAD ({last})",
    ]
    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md")
    assert markdown.exit_code == 0 and f"Nothing changed between `HEAD~1 ({first})` and `HEAD ({last})`." in markdown.out


def test_without_arguments_the_working_tree_is_compared_with_the_merge_base_of_main(repo, run_cli):
    git(repo, "checkout", "-q", "-b", "feature")
    record = read_record(repo, "h200-compile-800x1067")
    shift_latency(record["results"][latency_index(record, "fp16", "800x1067")], 0.5)
    write_record(repo, "h200-compile-800x1067", record)  # not committed: the working tree
    result = run_cli("diff", "--root", repo)
    base = git(repo, "rev-parse", "main").strip()[:12]
    assert result.out.splitlines()[0] == f"studygen diff: {base} (merge base of HEAD and main) -> the working tree"
    assert "beyond spread: fp16 median CUDA-event time per forward, 800 x 1067" in result.out and result.exit_code == 1
    assert git(repo, "status", "--porcelain") == f" M {RECORDS}/h200-compile-800x1067.json\n"  # nothing else written


def test_unknown_revision_is_one_line_and_exit_2(repo, run_cli):
    result = run_cli("diff", "no-such-revision", "--root", repo)
    assert result.exit_code == 2 and result.out == ""
    assert result.err.strip().splitlines() == [
        f"studygen: unknown revision 'no-such-revision' (no commit of that name in {repo})"]
    option_like = run_cli("diff", "--root", repo, "--", "--output=x", "HEAD")
    assert option_like.exit_code == 2 and option_like.err == "studygen: unknown revision '--output=x'\n"
    assert not (repo / "x").exists()


def test_a_path_outside_a_git_repository_is_one_line_and_exit_2(tmp_path, run_cli):
    project = copy_project(tmp_path / "not-a-repository", families=(FAMILY,))
    result = run_cli("diff", "--root", project)
    assert result.exit_code == 2 and result.out == ""
    assert result.err.strip().splitlines() == [
        f"studygen: {project} is not inside a git repository (studygen diff compares git revisions)"]


def test_a_shallow_clone_without_base_is_one_line_and_exit_2(repo, tmp_path, run_cli):
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "notes.txt").write_text("feature work\n")
    commit(repo, "feature")
    git(repo, "checkout", "-q", "main")
    (repo / "other.txt").write_text("main moved on\n")
    commit(repo, "main")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo}", str(clone)],
                   check=True, capture_output=True)
    git(clone, "checkout", "-q", "feature")
    result = run_cli("diff", "--root", clone)
    assert result.exit_code == 2 and result.out == ""
    assert result.err.strip().splitlines() == [
        "studygen: shallow clone: the merge base of HEAD and origin/main is not in the fetched history; name BASE, "
        "or fetch the whole history (git fetch --unshallow; actions/checkout: fetch-depth: 0)"]
    # with BASE named, the same clone compares
    named = run_cli("diff", "origin/main", "--root", clone)
    assert named.exit_code == 0 and "nothing changed" in named.out

    single = tmp_path / "single"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{repo}", str(single)],
                   check=True, capture_output=True)
    result = run_cli("diff", "--root", single)
    assert result.exit_code == 2 and result.err.strip().startswith(
        "studygen: shallow clone without a default branch (origin/HEAD, main or master): name BASE")


def test_the_formats_of_one_change_beyond_spread_and_one_verdict_change(repo, run_cli):
    record = read_record(repo, "h200-compile-800x1067")
    index = latency_index(record, "fp16", "800x1067")
    shift_latency(record["results"][index], 0.5)
    write_record(repo, "h200-compile-800x1067", record)
    study = (repo / STUDY).read_text()
    (repo / STUDY).write_text(study.replace("the FP8 recipe is no faster than fp16", "the FP8 recipe is faster than fp16"))
    assert run_cli("render", FAMILY, "--root", repo).exit_code == 0
    commit(repo, "a slower fp16 and a reworded decision")
    value_line = line_of(repo / RECORDS / "h200-compile-800x1067.json", '"value_ms"', 0)  # fp16 is its first latency
    readme = (repo / "families" / FAMILY / "README.md").read_text().splitlines()
    decision_line = next(n for n, text in enumerate(readme, 1) if "the FP8 recipe is faster than fp16" in text)

    markdown = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "md")
    assert markdown.exit_code == 1
    lines = markdown.out.splitlines()
    assert lines[0].startswith("### studygen diff: `HEAD~1 (") and lines[2].startswith(
        "**1 figure beyond its spread, 1 verdict change; ")
    assert "| deformable\\_detr\\_h200\\_torch |" not in markdown.out  # cells are escaped, not Markdown-escaped
    assert (f"| {FAMILY} | fp16 median CUDA-event time per forward, 800 x 1067, compile, H200, skimage-heldout-6 | 12.607 ms | "
            "13.107 ms | +0.500 ms, +3.97 % | 0.098 ms spread of 30 repeat medians in base (12.543 to 12.641 ms) |"
            ) in lines
    verdict = lines.index("Verdict changes:")
    assert lines[verdict + 2] == (f"- {FAMILY}, `families/{FAMILY}/README.md` line {decision_line}: "
                                  "no faster, slower → faster, slower")
    assert lines.index("Beyond their spread:") < verdict < lines.index("<details>")
    assert markdown.out.count("<details>") == markdown.out.count("</details>") == 2  # figures, sentences

    data = json.loads(run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "json").out)
    assert data["summary"]["beyond spread"] == 1 and data["summary"]["verdict changes"] == 1
    (figure,) = [f for f in data["families"][0]["figures"] if f["verdict"] == "beyond spread"]
    assert (figure["old"], figure["new"], figure["file"], figure["line"]) == (
        ["12.607"], ["13.107"], f"{RECORDS}/h200-compile-800x1067.json", value_line)
    assert figure["delta"] == pytest.approx(0.5) and figure["spread"]["source"] == "repeat medians"
    (sentence,) = [s for s in data["families"][0]["sentences"] if s["kind"] == "verdict changed"]
    assert sentence["old"]["verdicts"] == ["no faster", "slower"] and sentence["new"]["verdicts"] == ["faster", "slower"]

    github = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "github").out.splitlines()
    assert (f"::error file={RECORDS}/h200-compile-800x1067.json,line={value_line},title=studygen diff%3A beyond spread::"
            f"{FAMILY}: fp16 median CUDA-event time per forward, 800 x 1067, compile, H200, skimage-heldout-6: 12.607 ms -> 13.107 ms "
            "(+0.500 ms, +3.97 %25); more than 0.098 ms spread of 30 repeat medians in base (12.543 to 12.641 ms)"
            ) in github  # % escaped as workflow commands need
    flagged = [line for line in github if line.startswith(f"::error file=families/{FAMILY}/README.md,line={decision_line},")]
    assert len(flagged) == 1 and "verdict changed (no faster, slower -> faster, slower)%0Abefore: " in flagged[0]
    never = run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--format", "github", "--fail-on", "never")
    assert never.exit_code == 0 and "::error" not in never.out and never.out.count("::warning file=") == 2


def test_record_folders_outside_the_study_folders_and_a_family_left_as_it_was(tmp_path, run_cli):
    """A study file naming its records elsewhere (``measurements: data/toy``); a family before it in
    name order that does not change. Toy figures: 10.0 ms with repeat medians 9.9 to 10.1 moves to 10.5."""
    from tests.checks.studies import latency, record, spec, write_project

    repo = tmp_path / "repo"
    def project(fp16_ms):
        records = [record("main", [latency("fp16", fp16_ms, repeats=[fp16_ms - 0.1, fp16_ms, fp16_ms + 0.1])])]
        write_project(repo, records=records, study=spec(measurements="data/toy"))
        if (repo / "measurements" / "toy").is_dir():
            shutil.rmtree(repo / "data" / "toy", ignore_errors=True)
            (repo / "data").mkdir(exist_ok=True)
            (repo / "measurements" / "toy").rename(repo / "data" / "toy")
    project(10.0)
    shutil.copytree(repo / "families" / "toy", repo / "families" / "atoy")  # the same study under another name
    study = (repo / "families" / "atoy" / "study.yaml").read_text()
    (repo / "families" / "atoy" / "study.yaml").write_text(study.replace("family: toy", "family: atoy").replace(
        "measurements: data/toy", "measurements: data/atoy"))
    shutil.copytree(repo / "data" / "toy", repo / "data" / "atoy")
    for path in (repo / "data" / "atoy").glob("*.json"):
        path.write_text(path.read_text().replace('"family": "toy"', '"family": "atoy"'))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "two toy families")
    project(10.5)  # only data/toy changes

    result = run_cli("diff", "HEAD", "--root", repo)
    lines = result.out.splitlines()
    assert lines[1] == "atoy: inputs unchanged"
    assert lines[2] == "toy"
    assert lines[3].startswith("  beyond spread: fp16 median GPU compute time, 800 x 800, engine, H200: 10.0 ms -> 10.5 ms "
                               "(+0.5 ms, +5.00 %); more than 0.2 ms spread of 3 repeat medians in base (9.9 to 10.1 ms), "
                               "the scatter inside one run of job main: another process may move further "
                               "(spread_sources, source job, declares how far) [data/toy/main.json:")
    commit(repo, "toy re-measured")
    assert run_cli("diff", "HEAD~1", "HEAD", "--root", repo).out.splitlines()[3] == lines[3]


def test_a_trtexec_figure_one_timer_step_lower_is_within_spread_and_exits_0(tmp_path, run_cli):
    # the published GTX 1070 / TensorRT 8.0.3 log's fp16 device-to-host median, 0.00219727 ms, is 9 steps of
    # 2**-12 ms (the step of a default-length trtexec run); a re-collect one step lower, 0.00195312 ms (8 steps),
    # is no change its timer can express: within 2**-12 + 0.000000005 + 0.000000005 = 0.00024415 ms, as SG203
    # allows two jobs. Before, with no repeats, no other job and no tolerance, diff called it beyond spread, exit 1
    family, job = "hackathon_mnist_trtexec", "gtx1070-trt8.0.3"
    repo = copy_project(tmp_path / "repo", families=(family,))
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "the shipped hackathon study")
    path = repo / "measurements" / family / f"{job}.json"
    record = json.loads(path.read_text())
    (index,) = [i for i, r in enumerate(record["results"]) if r["kind"] == "latency" and r["timing"] == "d2h"
                and r["statistic"] == "median"]
    result = record["results"][index]
    assert (result["value_ms"], result["statistics_ms"]["median"], result["method"]["timer"]) == (
        0.00219727, 0.00219727, "trtexec")
    result["value_ms"] = result["statistics_ms"]["median"] = 0.00195312
    path.write_text(json.dumps(record, indent=2) + "\n")
    commit(repo, "d2h median one timer step lower")

    out = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert out.exit_code == 0, out.out + out.err
    # figures as the README prints them (the study file's latency precision, 6 decimals)
    line = line_of(path, '"value_ms": 0.00195312', 0)
    assert (f"  within spread: fp16 allowed median device-to-host copy time, 28 x 28, engine, batch 4, GeForce GTX 1070, tensorrt=8.0.3: "
            f"0.002197 ms -> 0.001953 ms (-0.000244 ms, -11.11 %); within timer resolution 0.00024415 ms (one step "
            f"of the timer, plus print rounding) [measurements/{family}/{job}.json:{line}]") in out.out.splitlines()
    assert "beyond spread:" not in out.out


def test_a_head_whose_records_name_a_variant_the_study_file_renamed_is_unreadable_and_fails(repo, run_cli):
    # a new user renamed a variant: check gave SG202 errors, render refused, diff said "11 unchanged", exit 0
    study = (repo / STUDY).read_text()
    assert study.count("  - name: fp8\n") == 1
    (repo / STUDY).write_text(study.replace("  - name: fp8\n", "  - name: fp8-recipe\n"))
    commit(repo, "fp8 renamed in the study file only")
    # every result naming fp8, counted by hand over the family's record files (its comparison folders too)
    named = {path.relative_to(repo).as_posix(): sum(r["variant"] == "fp8" for r in json.loads(path.read_text())["results"])
             for path in sorted((repo / RECORDS).rglob("*.json")) if "results" in json.loads(path.read_text())}
    files = [path for path, count in named.items() if count]
    result = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert result.exit_code == 1, result.out + result.err
    lines = result.out.splitlines()
    assert lines[2].startswith(f"  unreadable: the head could not be read: {sum(named.values())} SG202 errors in "
                               f"{files[0]}, ")
    assert lines[2].endswith("; its figures and findings are not compared") and all(path in lines[2] for path in files)
    assert "variant 'fp8' is not declared" in lines[2]
    assert not any(line.startswith(("  within spread:", "  removed:", "  new:")) for line in lines)
    assert lines[-1].startswith("1 family unreadable at head, 0 figures beyond their spread, 0 verdict changes; "
                                "0 within spread, 0 new, 0 removed, 0 unchanged,")
    assert run_cli("diff", "HEAD~1", "HEAD", "--root", repo, "--fail-on", "never").exit_code == 0
    repaired = run_cli("diff", "HEAD", "HEAD~1", "--root", repo)  # the change back repairs the base: it passes
    assert repaired.out.splitlines()[2].startswith("  unreadable: the base could not be read: ")
    assert repaired.exit_code == 0, repaired.out + repaired.err
