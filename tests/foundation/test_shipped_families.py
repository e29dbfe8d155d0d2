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
import shutil
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


def test_check_of_every_family_finds_no_error_and_reads_both(tmp_path):
    done = studygen("check", "--format", "json")
    assert (done.returncode, done.stderr) == (0, "")
    findings = json.loads(done.stdout)
    assert [f for f in findings if f["severity"] == "error"] == []
    files = {f["file"] for f in findings}
    for family in FAMILIES:
        if any(name.startswith((f"measurements/{family}/", f"families/{family}/")) for name in files):
            continue  # its records or README carry waived or warned findings: check read them
        # a family with nothing to report: show that check reads its README and its records
        root = tmp_path / family
        for folder in ("families", "measurements", "templates"):
            shutil.copytree(REPO / folder, root / folder)
        readme = root / "families" / family / "README.md"
        original = readme.read_bytes()
        readme.write_bytes(original + b"\nA line nobody rendered.\n")
        stale = studygen("check", "--root", str(root), family)
        assert stale.returncode == 1 and f"families/{family}/README.md" in stale.stdout and "SG201" in stale.stdout
        readme.write_bytes(original)
        record = sorted((root / "measurements" / family).glob("*.json"))[0]
        document = json.loads(record.read_text(encoding="utf-8"))
        # a figure the README prints (the generic template tables GPU compute time, not host latency)
        result = next(r for r in document["results"] if r.get("timing") == "gpu_compute")
        result["value_ms"] = result["value_ms"] * 2
        # its statistics with it: a value_ms its own statistics contradict is refused as edited (SG202), not stale
        result["statistics_ms"] = {name: figure * 2 for name, figure in result.get("statistics_ms", {}).items()}
        record.write_text(json.dumps(document, indent=2), encoding="utf-8")
        moved = studygen("check", "--root", str(root), family)
        assert moved.returncode == 1 and "SG201" in moved.stdout, (family, moved.stdout)
