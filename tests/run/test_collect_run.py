"""``studygen collect run`` end to end on the CPU with the tiny study: the record, its figures'
consistency, resume, shards, an interrupted run, and refusals of bad input."""

from __future__ import annotations

import json
import math
import re

import pytest

from studygen.records.load import load_record

from .conftest import TINY_STUDY, make_tiny_project, run_studygen


def results(path, kind=None, **where):
    found = [r for r in json.loads(path.read_text())["results"] if kind is None or r["kind"] == kind]
    return [r for r in found if all(r.get(k) == v for k, v in where.items())]


def test_the_record_validates_and_holds_every_cell(full_run):
    root, path, output = full_run
    record = load_record(path)  # schema-checked
    assert record.job_id == "cpu" and record.data["family"] == "tiny"
    provenance = record.provenance
    assert provenance["checkpoint"]["weights"] == "random-init" and provenance["checkpoint"]["seed"] == 7
    assert provenance["repository_commit"] == "0123456789abcdef0123456789abcdef01234567"
    assert provenance["repository_dirty"] is False
    assert provenance["collector"]["name"] == "studygen collect run"
    assert provenance["gpu"] is None and provenance["run_wall_s"] > 0
    assert provenance["placement"] == {"shard": [1, 1], "launcher": None, "local_rank": None, "gpu_index": None,
                                       "gpu_uuid": None, "cuda_visible_devices": None}
    cells = {(r["mode"], r["shape"], r["variant"]) for r in results(path, "latency")}
    assert cells == {("eager", s, v) for s in ("64x96", "96x64") for v in ("fp32", "fp16", "bf16")} | {
        ("compile", "64x96", "fp32"), ("compile", "64x96", "fp16")}
    assert "wrote measurements/tiny/cpu.json" in output


def test_latency_statistics_are_consistent(full_run):
    _, path, _ = full_run
    for latency in results(path, "latency"):
        d = latency["distribution"]
        assert (d["repeats"], d["iterations_per_repeat"], d["samples"], d["warmup_iterations"]) == (3, 3, 9, 1)
        assert len(d["repeat_medians_ms"]) == 3 and len(d["repeat_iqr_ms"]) == 3
        assert latency["value_ms"] == d["median_ms"] == latency["statistics_ms"]["median"]
        stats = latency["statistics_ms"]
        assert stats["min"] <= stats["median"] <= stats["p90"] <= stats["p99"] <= stats["max"]
        assert d["cv"] == pytest.approx(d["std_ms"] / d["mean_ms"], rel=1e-4, abs=1e-6)
        assert latency["unstable"] == ("unstable_reason" in latency)
        if latency["unstable"]:
            assert d["cv"] > 0.05 or max(d["repeat_medians_ms"]) - min(d["repeat_medians_ms"]) > max(d["repeat_iqr_ms"])
        assert latency["method"] == {"timer": "perf-counter", "cuda_graph": False, "data_transfers": False,
                                     "separate_profile_run": True, "interleaved": True,
                                     "intra_op_threads": 1}  # the session's one torch thread (conftest)
        assert latency["timing"] == "end_to_end"  # the host clock, not CUDA events, on a CPU
    compiled = results(path, "latency", mode="compile")
    assert all(r["compile_s"] > 0 and r["compile"] == {"backend": "eager", "mode": "default", "dynamic": False}
               for r in compiled)


def test_kernel_groups_add_up_to_the_profiled_total(full_run):
    _, path, _ = full_run
    kernel_results = results(path, "kernel_time")
    assert len(kernel_results) == 8
    for result in kernel_results:
        total = math.fsum(g["time_ms"] for g in result["groups"])
        assert total == pytest.approx(result["profiled_total_ms"], rel=1e-6, abs=1e-5)
        assert result["iterations"] == 2 and "CPU operator self time" in result["profiler"]
        names = {g["group"] for g in result["groups"]}
        assert {"GEMM/MatMul", "GridSample", "Conv"} <= names


def test_fp8_is_quantized_checked_for_agreement_and_its_fake_latency_refused(full_run):
    _, path, _ = full_run
    [quant] = results(path, "quantization")
    assert quant["quantized_modules"] == 20 and quant["total_modules"] == 35
    assert len(quant["disabled_outside_recipe"]) == 8 and quant["enabled_quantizers"] == 40
    assert quant["dataset"] == "cal" and quant["calibration_images"] == 2
    refused = results(path, "not_measured", variant="fp8", metric="latency")
    assert {r["shape"] for r in refused} == {"64x96", "96x64"}
    assert all("only on ModelOpt's real FP8 path" in r["reason"] for r in refused)
    assert results(path, "latency", variant="fp8") == []
    assert results(path, "kernel_time", variant="fp8") == []


def test_agreement_against_the_fp32_reference(full_run):
    _, path, _ = full_run
    agreement = results(path, "agreement")
    assert {(r["variant"], r["metric"]) for r in agreement} == {
        (v, m) for v in ("fp16", "bf16", "fp8") for m in ("logit_correlation", "nonfinite_count", "precision", "recall")}
    by = {(r["variant"], r["metric"]): r for r in agreement}
    assert all(r["reference_variant"] == "fp32" and r["images"] == 2 and r["dataset"] == "held" for r in agreement)
    for variant in ("fp16", "bf16", "fp8"):
        assert 0.99 < by[(variant, "logit_correlation")]["value"] <= 1.0
        assert by[(variant, "nonfinite_count")]["value"] == 0
        assert 0 <= by[(variant, "precision")]["value"] <= 1 and by[(variant, "precision")]["iou_threshold"] == 0.5
    # fp16 keeps more of fp32's logits than fake FP8 does
    assert by[("fp16", "logit_correlation")]["value"] > by[("fp8", "logit_correlation")]["value"]
    assert "fake quantization" in by[("fp8", "logit_correlation")]["note"]
    # top 5 detections of each of the 2 images
    assert by[("fp16", "recall")]["note"].endswith("of 10 reference detections")


def test_no_ap_without_coco_images_and_the_record_says_why(full_run):
    _, path, _ = full_run
    skipped = results(path, "not_measured", metric="coco_ap")
    assert {r["variant"] for r in skipped} == {"fp32", "fp16", "bf16", "fp8"}
    assert all("no COCO image folder" in r["reason"] and "random" in r["reason"] for r in skipped)


def test_an_existing_record_is_never_overwritten_and_resume_adds_nothing_twice(full_run):
    root, path, _ = full_run
    before = path.read_bytes()
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cpu",
                                "--root", root, "--quiet")
    assert code == 2 and "already exists" in output and "Traceback" not in output
    assert path.read_bytes() == before
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "cpu",
                                "--root", root, "--resume", "--quiet")
    assert code == 0, output
    assert json.loads(path.read_text())["results"] == json.loads(before)["results"]


def test_shards_split_the_grid_and_write_their_own_records(tmp_path):
    root = make_tiny_project(tmp_path / "project")
    for shard in ("1/2", "2/2"):
        code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "split",
                                    "--root", root, "--shard", shard, "--variants", "fp32,fp16",
                                    "--modes", "eager", "--shapes", "64x96", "--quiet")
        assert code == 0, output
    first = root / "measurements" / "tiny" / "split-shard1of2.json"
    second = root / "measurements" / "tiny" / "split-shard2of2.json"
    assert load_record(first).job_id == "split-shard1of2"
    assert [r["variant"] for r in results(first, "latency")] == ["fp32"]
    assert [r["variant"] for r in results(second, "latency")] == ["fp16"]
    # agreement needs the eager cell at the agreement shape: only shard 2 holds fp16 (and builds the fp32 reference)
    assert results(first, "agreement") == []
    assert {r["variant"] for r in results(second, "agreement")} == {"fp16"}


def test_shard_auto_takes_the_shard_from_torchrun_and_the_record_says_so(tmp_path, monkeypatch):
    root = make_tiny_project(tmp_path / "project")
    for name in ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "CUDA_VISIBLE_DEVICES"):
        monkeypatch.delenv(name, raising=False)
    args = ("collect", "run", "--study", root / "families" / "tiny", "--job", "auto", "--root", root,
            "--shard", "auto", "--variants", "fp32,fp16", "--modes", "eager", "--shapes", "64x96", "--quiet")
    code, output = run_studygen(*args)
    assert code == 2 and "studygen: --shard auto: no launcher environment" in output and "Traceback" not in output
    assert list((root / "measurements" / "tiny").glob("*.json")) == []
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("LOCAL_RANK", "1")
    code, output = run_studygen(*args)
    assert code == 0, output
    assert "wrote measurements/tiny/auto-shard2of2.json" in output
    path = root / "measurements" / "tiny" / "auto-shard2of2.json"
    record = load_record(path)
    assert [r["variant"] for r in results(path, "latency")] == ["fp16"]  # the same cells as --shard 2/2
    assert record.provenance["placement"] == {"shard": [2, 2], "launcher": "torchrun", "local_rank": 1,
                                              "gpu_index": None, "gpu_uuid": None, "cuda_visible_devices": None}
    assert "--shard auto" in record.provenance["collector"]["command"]


def test_an_interrupted_run_keeps_its_results_and_resume_finishes_it(tmp_path, monkeypatch):
    import studygen.collect.run.runner as runner

    root = make_tiny_project(tmp_path / "project")
    args = ("collect", "run", "--study", root / "families" / "tiny", "--job", "cut", "--root", root,
            "--variants", "fp32,fp16", "--modes", "eager", "--quiet")
    original = runner.time_group
    groups_done = []

    def interrupt_second_group(*a, **k):
        if groups_done:
            raise KeyboardInterrupt
        groups_done.append(1)
        return original(*a, **k)

    monkeypatch.setattr(runner, "time_group", interrupt_second_group)
    code, output = run_studygen(*args)
    assert code != 0  # click turns the interrupt into an abort
    path = root / "measurements" / "tiny" / "cut.json"
    kept = load_record(path)
    assert {(r["shape"], r["variant"]) for r in kept.results if r["kind"] == "latency"} == {
        ("64x96", "fp32"), ("64x96", "fp16")}
    monkeypatch.setattr(runner, "time_group", original)
    code, output = run_studygen(*args, "--resume")
    assert code == 0, output
    done = load_record(path)
    latencies = [(r["shape"], r["variant"]) for r in done.results if r["kind"] == "latency"]
    assert sorted(latencies) == sorted([("64x96", "fp32"), ("64x96", "fp16"), ("96x64", "fp32"), ("96x64", "fp16")])
    first_part = [r for r in kept.results]
    assert done.results[:len(first_part)] == first_part  # kept results untouched


@pytest.mark.parametrize("extra, message", [
    (("--variants", "int4"), "unknown variant 'int4'"),
    (("--shard", "3/2"), "invalid --shard '3/2'"),
    (("--shapes", "64by96"), "studygen: --shapes: invalid shape '64by96'"),
    (("--shapes", "0x0"), "studygen: --shapes: invalid shape '0x0'"),
    (("--job", "../escape"), "invalid --job"),
    (("--job", "j\n"), "invalid --job 'j\\n': use letters"),  # accepted before issue 24 (re.match's $)
    (("--job", "con"), "invalid --job 'con': con names a device on Windows"),
])
def test_bad_options_are_one_line_and_write_nothing(tiny_project, extra, message):
    args = ["collect", "run", "--study", tiny_project / "families" / "tiny", "--root", tiny_project, "--quiet"]
    if "--job" not in extra:
        args += ["--job", "bad"]
    code, output = run_studygen(*args, *extra)
    assert code == 2 and message in output and "Traceback" not in output
    assert list((tiny_project / "measurements" / "tiny").glob("*.json")) == []


def test_a_missing_or_altered_dataset_is_refused_before_measuring(tiny_project):
    datasets = tiny_project / "measurements" / "tiny" / "datasets"
    definition = json.loads((datasets / "held.json").read_text())
    definition["images"][0]["sha256"] = "f" * 64
    (datasets / "held.json").write_text(json.dumps(definition, indent=2))
    args = ("collect", "run", "--study", tiny_project / "families" / "tiny", "--job", "bad", "--root", tiny_project,
            "--quiet")
    code, output = run_studygen(*args)
    assert code == 2 and "measurements/tiny/datasets/held.json:/images/0/sha256:" in output
    (datasets / "held.json").unlink()
    code, output = run_studygen(*args)
    assert code == 2 and re.match(r"studygen: families/tiny/study\.yaml:\d+: run\.agreement_set names 'held', "
                                  r"but no dataset definition .* exists \(/run/agreement_set\)\n", output), output
    assert list((tiny_project / "measurements" / "tiny").glob("*.json")) == []


def test_a_study_without_a_recipe_for_fp8_is_refused(tmp_path):
    root = make_tiny_project(tmp_path / "project", TINY_STUDY.replace("recipe: linears", "recipe: missing"))
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "x",
                                "--root", root, "--quiet")
    line = next(i for i, text in enumerate((root / "families/tiny/study.yaml").read_text().splitlines(), start=1)
                if "recipe: missing" in text)
    assert (code, output) == (2, f"studygen: families/tiny/study.yaml:{line}: FP8 variant 'fp8' needs a recipe "
                                 "defined under recipes (/variants/3/recipe)\n")


def test_a_bad_kernel_group_pattern_is_refused_before_anything_is_measured(tmp_path):
    study = TINY_STUDY.replace("run:\n", "kernel_groups:\n  - {pattern: \"gemm(\", group: GEMM}\nrun:\n")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "x",
                                "--root", root, "--quiet")
    line = next(i for i, text in enumerate(study.splitlines(), start=1) if "gemm(" in text)
    assert code == 2 and output.startswith(f"studygen: families/tiny/study.yaml:{line}: invalid regular expression "
                                           "'gemm(': missing ), unterminated subpattern"), output
    assert output.endswith(" (/kernel_groups/0/pattern)\n") and "Traceback" not in output
    assert list((root / "measurements" / "tiny").glob("*.json")) == []
