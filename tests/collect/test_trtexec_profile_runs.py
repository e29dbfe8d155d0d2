"""``collect trtexec --profile`` with a ``--log``: each profile array belongs to
the log run that wrote it (:func:`studygen.collect.trtexec.common.profile_runs`).
A run that wrote no profile (its ``Export profile to JSON file:`` line is empty,
or its command has no ``--exportProfile``) cannot own one: the kernel time and
FP8 evidence would be another run's figures recorded as this run's."""

from __future__ import annotations

import json

import pytest

from studygen.collect import trtexec
from studygen.collect.kernel_groups import default_rules
from studygen.collect.trtexec.common import ResultLabels, profile_runs
from studygen.collect.trtexec.fp8 import fp8_evidence_by_run
from studygen.errors import InputError
from tests.collect.conftest import TRTEXEC, assert_refused
from tests.collect.trtexec_logs import log_text, write

RESNET_LOG = TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log"
RESNET_PROFILE = TRTEXEC / "trt8.6_resnet50-int8_profile.json"
NO_PROFILE_LOG = TRTEXEC / "trt10.16_build-and-run.log"  # line 98: "Export profile to JSON file:" (nothing)


def test_a_profile_matched_to_a_run_that_wrote_none_is_refused(collect):
    done = collect("trtexec", "--log", NO_PROFILE_LOG, "--profile", RESNET_PROFILE)
    assert_refused(done, f"{RESNET_PROFILE}:1: array 1 is matched to run 1 (line 1) of {NO_PROFILE_LOG}, which "
                         "wrote no profile (its 'Export profile to JSON file:' line 98 names nothing): a profile of "
                         "another run? nothing recorded")


def test_the_run_that_wrote_it_takes_it(collect):
    # line 80 of the log: "Export profile to JSON file: ../../result/resnet50/resnet50-int8.engine.profile.json";
    # {"count": 6402} and 59 layers
    done = collect("trtexec", "--log", RESNET_LOG, "--profile", RESNET_PROFILE)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert kernel["iterations"] == 6402 and kernel["source_locator"] == "trt8.6_resnet50-int8_profile.json:line 1"
    inputs = trtexec.read_inputs(RESNET_LOG, None, RESNET_PROFILE, None, None)
    (run,) = profile_runs(inputs)
    assert run.wrote_profile() == (True, "its 'Export profile to JSON file:' line 80 names "
                                         "'../../result/resnet50/resnet50-int8.engine.profile.json'")


def test_every_run_of_a_concatenated_log_wrote_its_array(collect):
    # TensorRT 7 on a Jetson: six runs, each printing "Export profile to JSON file: profile_..._N.json"
    log = TRTEXEC / "trt7_resnet50-int8_console.log"
    profile = TRTEXEC / "trt7_resnet50-int8_profile-concatenated.json"
    inputs = trtexec.read_inputs(log, None, profile, None, None)
    runs = profile_runs(inputs)
    assert [run.profile_export for run in runs][:2] == ["profile_ResNet50_N2_None_int8_10_1.json",
                                                         "profile_ResNet50_N2_None_int8_10_4.json"]
    assert [run.profile_export_line for run in runs][:2] == [48, 225]


def _inputs(tmp_path, command: str | None, *messages: str, running: bool = True):
    log = write(tmp_path, log_text(command, *messages, running=running))
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps([{"count": 10}, {"name": "conv1", "timeMs": 1.0, "averageMs": 0.1,
                                                   "medianMs": 0.1, "percentage": 100.0}]))
    return trtexec.read_inputs(log, None, profile, None, None), log, profile


def test_without_the_reporting_line_the_command_line_tells(tmp_path):
    inputs, log, profile = _inputs(tmp_path, "trtexec --loadEngine=a.plan --dumpProfile")
    with pytest.raises(InputError) as refused:
        profile_runs(inputs)
    assert str(refused.value) == (f"{profile}:1: array 1 is matched to run 1 (line 1) of {log}, which wrote no "
                                  "profile (its command line has no --exportProfile): a profile of another run? "
                                  "nothing recorded")
    # the FP8 evidence reads the same arrays: refused alike
    labels = ResultLabels(variant="v", shape=None, batch=None, rules=default_rules(), precision="fp8")
    with pytest.raises(InputError, match="wrote no profile"):
        fp8_evidence_by_run(inputs, labels)
    written, _, _ = _inputs(tmp_path, "trtexec --loadEngine=a.plan --exportProfile=p.json")
    assert profile_runs(written)[0].wrote_profile() == (True, "its command line has --exportProfile")


def test_the_printed_line_wins_over_the_command_and_a_partial_log_is_taken(tmp_path):
    inputs, _, _ = _inputs(tmp_path, "trtexec --loadEngine=a.plan", "Export profile to JSON file: p.json")
    assert profile_runs(inputs)[0].wrote_profile() == (True, "its 'Export profile to JSON file:' line 2 names 'p.json'")
    # captured part way: no command, no reporting options; nothing says the run wrote none
    partial, _, _ = _inputs(tmp_path, None, running=False)
    assert profile_runs(partial)[0].wrote_profile() == (None, "")
