"""``studygen check`` passes on every shipped family, on the committed tree,
run as users run it: the ``studygen`` command (``python -m studygen``, the
same ``cli.main``) in the repository, root found by walking up.

A render helper that drops a row from a range, takes a bound from the wrong
end or loses a restriction makes the committed README stale (SG201); a check
that starts to misfire on a shipped study shows here too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from studygen.study import family_dirs

from tests.conftest import REPO

FAMILIES = [path.name for path in family_dirs(REPO)]


def studygen(*argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), STUDYGEN_JOBS="1")
    return subprocess.run([sys.executable, "-m", "studygen", *argv], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_shipped_studies():
    # the two Deformable DETR studies, and three of public data (issue 22)
    assert FAMILIES == ["bert_small_h100_mi300x", "deformable_detr", "deformable_detr_h200_torch",
                        "hackathon_mnist_trtexec", "jetson_trt7_googlenet"]


@pytest.mark.parametrize("family", FAMILIES)
def test_check_of_a_shipped_family_finds_no_error(family):
    done = studygen("check", family)
    assert done.stderr == ""
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-1].startswith("0 error(s), "), done.stdout
    assert "SG201" not in done.stdout and "SG202" not in done.stdout


def test_check_of_every_family_finds_no_error_and_reads_both():
    done = studygen("check", "--format", "json")
    assert (done.returncode, done.stderr) == (0, "")
    findings = json.loads(done.stdout)
    assert [f for f in findings if f["severity"] == "error"] == []
    files = {f["file"] for f in findings}
    for family in FAMILIES:  # each study was checked: its records or README carry waived or warned findings
        assert any(name.startswith((f"measurements/{family}/", f"families/{family}/")) for name in files), family
