"""Regressions from the hostile-user trial (B7): ``collect run`` on a machine
with no CUDA device is refused up front unless ``--cpu`` is given; a failure
inside ModelOpt calibration is one line naming the stage and the variant; a
run that fails before its first result leaves no record."""

from __future__ import annotations

import pytest

from studygen.collect.run.variants import calibrate
from studygen.errors import StudygenError


def test_no_cuda_without_cpu_option_is_refused_and_writes_nothing(tiny_project, run_cli):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA device")
    done = run_cli("collect", "run", "--study", tiny_project / "families" / "tiny" / "study.yaml", "--job", "cpu-try",
                   "--root", tiny_project, "--quiet")
    assert done.exit_code == 2
    assert done.err == ("studygen: no CUDA device on this machine: families/tiny/study.yaml is timed on a GPU; "
                        "give --cpu to time it on the CPU (host-clock timings, named as such)\n")
    assert not (tiny_project / "measurements" / "tiny" / "cpu-try.json").exists()


def test_calibration_failure_is_one_line_naming_stage_and_variant():
    def fails():
        # what ModelOpt raises for a NaN amax (modelopt/torch/quantization/nn/modules/tensor_quantizer.py)
        assert False, "detected nan values in amax"

    with pytest.raises(StudygenError) as raised:
        calibrate("fp8", "fp8-linears", fails)
    assert raised.value.exit_code == 2
    assert raised.value.line() == ("variant fp8: FP8 quantization with ModelOpt (recipe fp8-linears, calibration) "
                                   "failed: AssertionError: detected nan values in amax")

