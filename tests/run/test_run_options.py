"""Per-job settings of ``collect run``: Inductor settings (study and --inductor), pinning, and how they are
recorded."""

from __future__ import annotations

import pytest

from studygen.collect.run.compiled import apply_inductor_config, compile_settings
from studygen.commands.collect_run import command_line, inductor_settings
from studygen.errors import UsageError
from studygen.records.load import load_record

from .conftest import TINY_STUDY, make_tiny_project, run_studygen


def test_inductor_settings_read_booleans_numbers_and_words():
    assert inductor_settings(["triton.autotune_pointwise=False", "coordinate_descent_tuning=true",
                              "compile_threads=4", "some.ratio=0.5", "realize_opcount_threshold=inf",
                              "name=abc"]) == {
        "triton.autotune_pointwise": False, "coordinate_descent_tuning": True, "compile_threads": 4,
        "some.ratio": 0.5, "realize_opcount_threshold": "inf", "name": "abc"}  # inf is no JSON number: kept as words
    assert inductor_settings([]) == {}
    for bad in ("triton.autotune_pointwise", "=1", "2fast=1", "a..b=1", "a.=1", "a b=1"):
        with pytest.raises(UsageError, match="NAME=VALUE"):
            inductor_settings([bad])


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
    assert code == 0, output
    refused = next(r for r in load_record(root / "measurements" / "tiny" / "bad.json").results
                   if r["kind"] == "not_measured" and r["metric"] == "latency")
    assert "torch._inductor.config has no setting 'triton.no_such_setting'" in refused["reason"]
