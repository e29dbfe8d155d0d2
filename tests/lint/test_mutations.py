"""One wrong figure in a clean study gives exactly the finding it should.

The clean study (tests/cases/lint/clean_fp8_study.md) lints clean; each
mutation below changes one figure or phrase, and lint must then report
exactly one finding with the code, line and figures given.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

from .cases import CASES

CLEAN = (CASES / "clean_fp8_study.md").read_text(encoding="utf-8")

MUTATIONS = [
    # (what changes, into what, code, line, fragments of the message)
    ("On TensorRT 11.1 the fp16 GEMMs take 0.20 to 0.409 ms", "On TensorRT 11.1 the fp16 GEMMs take 0.20 to 0.21 ms",
     "SG101", 17, ["0.20 to 0.21 ms", "B200 / 11.1 / 800 x 1067", "0.409 ms"]),
    ("FP8 saves between 0.04 and 0.336 ms there", "FP8 saves between 0.04 and 0.11 ms there",
     "SG101", 17, ["between 0.04 and 0.11 ms", "0.409 - 0.073 = 0.336 ms"]),
    ("the plan is 8% to 9% smaller", "the plan is 8% to 8.5% smaller",
     "SG101", 15, ["8% to 8.5%", "B200 / 11.4", "8.67%"]),
    ("FP8 latency at 800 x 800 is 5.764 to 5.850 ms", "FP8 latency at 800 x 800 is 5.764 to 5.845 ms",
     "SG101", 30, ["5.764 to 5.845 ms", "B200 / 11.4", "5.850 ms"]),
    ("| B200 | 11.1 | 5.889 / 14.766 | 5.841 / 15.223 | 1.01 / 0.97 |", "| B200 | 11.1 | 5.889 / 14.766 | 5.841 / 15.223 | 1.01 / 0.99 |",
     "SG103", 28, ["0.99x", "14.766 / 15.223 = 0.97x"]),
    ("(three jobs, one run each, spread 0.00 to 0.01), which is within run-to-run noise",
     "which is within run-to-run noise", None, None, None),  # "Across the three jobs" still states a repeat count
    ("Across the three jobs the FP8 over fp16 ratio moves by at most 0.01 (three jobs, one run each, spread 0.00 to 0.01)",
     "The FP8 over fp16 ratio barely moves", "SG105", 31, ["within run-to-run noise"]),
    ("We expect NVFP4 to give no end-to-end gain either, because the linears are a small share of the engine time; this is an expectation, not a measurement.",
     "NVFP4 gives no end-to-end gain either.", "SG106", 49, ["NVFP4", "(line 48)"]),
]


@pytest.mark.parametrize("before, after, code, line, fragments", MUTATIONS, ids=[m[1][:40] for m in MUTATIONS])
def test_mutation(before, after, code, line, fragments):
    assert before in CLEAN, before
    findings = lint_text(CLEAN.replace(before, after), "study.md")
    if code is None:
        return
    assert [(f.code, f.line) for f in findings] == [(code, line)], [f"{f.line}: {f.code} {f.message}" for f in findings]
    for fragment in fragments:
        assert fragment in findings[0].message


def test_missing_cell_is_sg104():
    row = "| B300 | 11.4 | 800 x 800 | 7.5 | 0.19 → 0.14 | 2.2 | 4.4 | |"
    findings = lint_text(CLEAN.replace(row, "| B300 | 11.4 | 800 x 800 | 7.5 | 0.19 → 0.14 | 2.2 |"), "study.md")
    assert [(f.code, f.line) for f in findings] == [("SG104", 41)]
    assert "6 cells" in findings[0].message and "has 8" in findings[0].message


def test_clean_study_is_clean():
    assert lint_text(CLEAN, "study.md") == []


def test_dropping_the_restriction_exposes_the_tensorrt_11_1_row():
    """Without "On TensorRT 11.4" every range of the sentence must cover the 11.1 rows too."""
    text = CLEAN.replace("On TensorRT 11.4 the GEMMs need", "The GEMMs need")
    findings = lint_text(text, "study.md")
    assert [(f.code, f.line) for f in findings] == [("SG101", 16)] * 3
    messages = " | ".join(f.message for f in findings)
    for fragment in ("0.19 to 0.21 ms", "(0.409 ms)", "0.409 - 0.073 = 0.336 ms", "7.4 to 14.9 ms", "(16.2 ms)"):
        assert fragment in messages
    assert all("B200 / 11.1 / 800 x 1067" in f.message for f in findings)
