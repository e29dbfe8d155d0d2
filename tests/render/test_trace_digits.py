"""A trace's kernel time prints with the digits of the trace in the README.

Case (a new user's AlexNet study, kernel groups of their own): the record
held 0.29 for a group of 290 µs, which the README printed ``0.29`` beside
``0.915``, and ``studygen rows`` gave it 2 decimals against 3 for its
neighbours. Figures read off the fixture: fft2d_c2r_32x32 "dur" 144 and
146 µs; max_pool_forward_nchw 644 and adaptive_average_pool 271 µs.
"""

from __future__ import annotations

import re

from tests.conftest import FIXTURES

ALEXNET = FIXTURES / "torch_profiler" / "alexnet_kineto_trace.json.gz"
GROUPS = """kernel_groups:
- {pattern: 'sgemm', group: GEMM}
- {pattern: 'fft2d_c2r', group: inverse FFT}
- {pattern: 'cudnn|xmma_fprop|fft2d|gcgemm|nchwToNhwc|computeOffsets', group: convolution}
- {pattern: 'pool', group: pooling}
- {pattern: 'elementwise|dropout|epilogue', group: elementwise}
"""


def test_trace_groups_print_every_digit(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "alexnet", "--variants", "fp32", "--backend", "pytorch").exit_code == 0
    study = tmp_path / "families" / "alexnet" / "study.yaml"
    study.write_text(study.read_text(encoding="utf-8") + GROUPS, encoding="utf-8")
    done = run_cli("collect", "torch-profile", "--family", "alexnet", "--job", "a100", "--variant", "fp32",
                   "--trace", ALEXNET, "--mode", "eager")
    assert done.exit_code == 0, done.err
    assert run_cli("render", "alexnet").exit_code == 0
    readme = (tmp_path / "families" / "alexnet" / "README.md").read_text(encoding="utf-8")
    cells = dict(re.findall(r"^\| A100-PG509-200 \| (\w[\w ]*?) +\| ([\d.]+) +\|$", readme, re.M))
    # 290 µs, and convolution 2069 + 1814 + 137 + 130 + 646 + 277 + 8 = 5081 µs, each with 3 decimals
    assert cells["inverse FFT"] == "0.290" and cells["convolution"] == "5.081" and cells["pooling"] == "0.915"
    rows = run_cli("rows", "alexnet")
    assert rows.exit_code == 0
    # the same in every row: listed once above the table, not as a column
    assert "the same in every row:" in rows.out and "\n  decimals: 3\n" in rows.out
