"""Per-job settings of ``collect run``: Inductor settings (study and --inductor), pinning, and how they are
recorded."""

from __future__ import annotations

import pytest
from pathlib import Path

from studygen.collect.run.compiled import apply_inductor_config, compile_settings
from studygen.commands.collect_run import command_line, inductor_settings
from studygen.errors import UsageError
from studygen.records.load import load_record

from .conftest import TINY_STUDY, make_tiny_project, run_studygen


def test_inductor_settings_read_booleans_and_numbers_and_refuse_words():
    assert inductor_settings(["triton.autotune_pointwise=False", "coordinate_descent_tuning=true",
                              "compile_threads=4", "some.ratio=0.5"]) == {
        "triton.autotune_pointwise": False, "coordinate_descent_tuning": True, "compile_threads": 4,
        "some.ratio": 0.5}
    assert inductor_settings([]) == {}
    for bad in ("triton.autotune_pointwise", "=1", "2fast=1", "a..b=1", "a.=1", "a b=1"):
        with pytest.raises(UsageError, match="NAME=VALUE|is not a torch._inductor.config name"):
            inductor_settings([bad])
    # a word, a path or a number JSON cannot hold is no setting value (it could name a program); nor is a
    # debug, trace or program setting, whatever its value
    for bad, words in (("cpp.cxx=/tmp/evil.sh", "'cpp.cxx' is a debug, trace, file, folder or program setting"),
                       ("trace.enabled=true", "'trace.enabled' is a debug, trace"),
                       ("realize_opcount_threshold=inf", "the value is true/false, a whole number or a number"),
                       ("worker_start_method=fork", "the value is true/false, a whole number or a number")):
        with pytest.raises(UsageError) as refused:
            inductor_settings([bad])
        assert str(refused.value).startswith(f"--inductor {bad!r}: {words}")


def test_inductor_settings_are_set_for_the_process_and_an_unknown_one_is_refused():
    import torch._inductor.config as config

    before = (config.triton.autotune_pointwise, config.coordinate_descent_tuning)
    try:
        apply_inductor_config({"triton.autotune_pointwise": not before[0], "coordinate_descent_tuning": not before[1]})
        assert (config.triton.autotune_pointwise, config.coordinate_descent_tuning) == (not before[0], not before[1])
        with pytest.raises(ValueError, match="no setting 'triton.no_such_setting'"):
            apply_inductor_config({"triton.no_such_setting": 1})
        with pytest.raises(ValueError, match="no setting 'no_such_group.x'"):
            apply_inductor_config({"no_such_group.x": 1})
    finally:
        config.triton.autotune_pointwise, config.coordinate_descent_tuning = before


def test_only_switches_and_numbers_of_torch_s_own_type_are_set_and_a_refusal_sets_nothing():
    import os

    import torch._inductor.config as config

    cxx, threads, pointwise = config.cpp.cxx, config.compile_threads, config.triton.autotune_pointwise
    refusals = {
        # the attack: a program for Inductor to run as its C++ compiler
        "cpp.cxx": ("/tmp/evil.sh", "'cpp.cxx' is a debug, trace, file, folder or program setting ('cxx')"),
        # a module the config imports is no setting (setattr on it would change os itself)
        "os.sep": (1, "torch._inductor.config has no setting 'os.sep'"),
        # torch holds a whole number: a boolean (True == 1) is no count of threads
        "compile_threads": (True, "'compile_threads' holds int in torch._inductor.config, and is given bool True"),
        # torch holds text (or nothing) here: a study cannot set it, whatever the value
        "worker_start_method": (True, "'worker_start_method' holds str in torch._inductor.config"),
    }
    try:
        for name, (value, words) in refusals.items():
            with pytest.raises(ValueError) as refused:
                apply_inductor_config({"triton.autotune_pointwise": not pointwise, name: value})
            assert words in str(refused.value)
            assert config.triton.autotune_pointwise == pointwise  # nothing set before the refusal
        assert (config.cpp.cxx, config.compile_threads, os.sep) == (cxx, threads, "/")
        apply_inductor_config({"compile_threads": threads + 1})
        assert config.compile_threads == threads + 1
    finally:
        config.compile_threads, config.triton.autotune_pointwise = threads, pointwise


def test_compile_settings_keep_the_study_settings_and_inductor_variables_but_the_cache_folder():
    environ = {"TORCHINDUCTOR_CACHE_DIR": "/tmp/x", "TORCHINDUCTOR_DETERMINISTIC": "1", "TRITON_CACHE_DIR": "/tmp/y",
               "TORCHINDUCTOR_COORDINATE_DESCENT_TUNING": "1", "HOME": "/root"}
    assert compile_settings({"inductor_config": {"triton.autotune_pointwise": False}}, environ) == {
        "inductor_config": {"triton.autotune_pointwise": False},
        "inductor_environment": {"TORCHINDUCTOR_COORDINATE_DESCENT_TUNING": "1", "TORCHINDUCTOR_DETERMINISTIC": "1"}}
    assert compile_settings({"inductor_config": {}}, {"TORCHINDUCTOR_CACHE_DIR": "/tmp/x"}) == {}


def test_the_command_line_keeps_the_job_settings():
    params = {"study": "families/f", "job": "j", "pin_timing": False, "time_limit": 480.0,
              "inductor": ("triton.autotune_pointwise=false",), "dirty": None, "quiet": True}
    assert command_line(params) == ("studygen collect run --study families/f --job j --no-pin-timing "
                                    "--time-limit 480.0 --inductor triton.autotune_pointwise=false")
    assert "--pin-timing" in command_line({**params, "pin_timing": True})
    assert "pin-timing" not in command_line({**params, "pin_timing": None})


def test_a_job_compiled_with_an_inductor_setting_and_timed_unpinned_records_both(tmp_path):
    study = TINY_STUDY.replace("  compile_backend: eager\n", "  compile_backend: eager\n"
                                                             "  inductor_config: {coordinate_descent_tuning: false}\n")
    root = make_tiny_project(tmp_path / "project", study)
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "set",
                                "--root", root, "--modes", "compile", "--variants", "fp16", "--quiet",
                                "--inductor", "triton.autotune_pointwise=false", "--no-pin-timing")
    assert code == 0, output
    record = load_record(root / "measurements" / "tiny" / "set.json")
    latency = next(r for r in record.results if r["kind"] == "latency")
    # the study's setting and the job's, together
    assert latency["compile"]["inductor_config"] == {"coordinate_descent_tuning": False,
                                                     "triton.autotune_pointwise": False}
    assert latency["compilation_rule"] == {"compilations": 1, "count": 1, "stopped": "fixed count"}
    assert "--no-pin-timing" in record.provenance["collector"]["command"]
    # an unknown setting fails the compilation, saying which
    code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", "bad",
                                "--root", root, "--modes", "compile", "--variants", "fp16", "--quiet",
                                "--inductor", "triton.no_such_setting=1")
    assert code == 1, output  # a failed cell: recorded as not measured, named on stderr, the run exits 1
    assert ("studygen: fp16 at 64x96 (compile) not measured: compilation 1 of 1: torch.compile failed: ValueError: "
            "torch._inductor.config has no setting 'triton.no_such_setting'") in output.splitlines()
    refused = next(r for r in load_record(root / "measurements" / "tiny" / "bad.json").results
                   if r["kind"] == "not_measured" and r["metric"] == "latency")
    assert "torch._inductor.config has no setting 'triton.no_such_setting'" in refused["reason"]


def _run_params(study, root=None):
    """click's parsed options of ``collect run --study STUDY --job j`` (the rest at their defaults)."""
    from studygen.commands.collect_run import run_command

    context = run_command.make_context("run", ["--study", str(study), "--job", "j"]
                                       + (["--root", str(root)] if root else []))
    return context.params


def test_a_study_given_as_a_path_runs_in_its_own_project(tmp_path, monkeypatch):
    """A new user ran collect run from one project on a study of another (--study other/families/tiny): the
    working directory's project was taken, whose datasets/ lacked the study's dataset files, and the records
    would have gone into its measurements/. The study's own project is taken, as check and render take it."""
    from studygen.commands.collect_run import run_options

    here, other = make_tiny_project(tmp_path / "here"), make_tiny_project(tmp_path / "other")
    monkeypatch.chdir(here)
    for given in (other / "families" / "tiny", other / "families" / "tiny" / "study.yaml",
                  Path("../other/families/tiny")):
        options = run_options(_run_params(given))
        assert (options.root, options.study_dir) == (other.resolve(), (other / "families" / "tiny").resolve())
    assert run_options(_run_params(Path("families/tiny"))).root == here.resolve()
    # --root naming another project than the study's is refused, not written into
    with pytest.raises(UsageError, match="a study of the project .*, not of --root"):
        run_options(_run_params(other / "families" / "tiny", root=here))


def test_a_dataset_definition_takes_only_the_roles_its_schema_names():
    """A new user wrote their agreement set with role="agreement": the file was written and refused only by
    collect run on the GPU machine; the function refuses it where it is called."""
    from studygen.collect.run.images import skimage_dataset_definition

    with pytest.raises(ValueError, match="role 'agreement' is none of calibration, evaluation, reference"):
        skimage_dataset_definition("agree-2", ["astronaut", "coffee"], role="agreement", selection="two photographs")
    assert skimage_dataset_definition("agree-2", ["astronaut", "coffee"], role="evaluation",
                                      selection="two photographs")["role"] == "evaluation"
    # any other field the schema refuses is refused here too, with its pointer (an attack's id and selection)
    with pytest.raises(ValueError, match=r"dataset definition 'bad id/\.\.': .* \(/dataset_id\)"):
        skimage_dataset_definition("bad id/..", ["astronaut"], role="evaluation", selection="one photograph")
    with pytest.raises(ValueError, match=r"\(/selection\)"):
        skimage_dataset_definition("agree-1", ["astronaut"], role="evaluation", selection="")
