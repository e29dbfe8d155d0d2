"""lint never raises on odd input: every document yields findings or none."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from studygen.lint import lint_text

CELLS = st.sampled_from([
    "", "-", "n/a", "B200", "11.4", "800 x 800", "5.889", "5.889 / 14.747", "0.409 → 0.073", "83.0 to 75.8",
    "1.01x", "8%", "-8.7%", "`a \\| b`", "**5.1**", "5.3 ± 0.2", "0", "0.0", "1e9", "−3", "min", "p99", "not measured",
    "[link](https://example.org/2119)", "<br>", "1,024", "∞", "NaN",
])
HEADERS = st.sampled_from(["GPU", "TensorRT", "shape", "fp16 ms", "FP8 ms", "x", "min / max ms", "median ms", "p99 ms",
                           "saving ms", "plan MiB fp16 to FP8", "AP fp16 / FP8", "note", "", "speedup", "%"])
PROSE = st.sampled_from([
    "GEMMs take 0.19 to 0.21 ms.", "FP8 saves 0.04 to 0.11 ms on TensorRT 11.4.", "between 0 and 0 ms",
    "Except on B200, it is 8% to 9% smaller.", "within noise", "NVFP4 was not tried.", "NVFP4 gives no gain.",
    "median 5.3 ms, p90 5.5 ms and p99 5.2 ms", "14.75 vs 0 ms, 1.05x", "from 0 to 0 (0%)", "1.15x-1.2x faster",
    "```", "| a |", "Not measured: H100, GB300.",
])


@st.composite
def documents(draw):
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        parts.append(" ".join(draw(st.lists(PROSE, min_size=1, max_size=4))))
        width = draw(st.integers(1, 5))
        headers = draw(st.lists(HEADERS, min_size=width, max_size=width))
        rows = draw(st.lists(st.lists(CELLS, min_size=draw(st.integers(0, width + 1)), max_size=width + 1), max_size=6))
        table = ["| " + " | ".join(headers) + " |", "|" + "---|" * width]
        table += ["| " + " | ".join(row) + " |" for row in rows]
        parts.append("\n".join(table))
    return "\n\n".join(parts) + "\n"


@given(documents())
def test_lint_never_raises_on_generated_documents(text):
    for finding in lint_text(text, "generated.md"):
        assert finding.line >= 1 and finding.message and finding.hint


@given(st.text(max_size=400))
def test_lint_never_raises_on_any_text(text):
    lint_text(text, "any.md")


def test_crlf_line_numbers_match_lf():
    text = "# T\r\n\r\nThe GEMMs take 0.19 to 0.21 ms.\r\n\r\n| GPU | GEMM ms |\r\n|---|---|\r\n| B200 | 0.19 |\r\n| B300 | 0.409 |\r\n"
    findings = lint_text(text, "crlf.md")
    assert [(f.code, f.line) for f in findings] == [("SG101", 3)]


def test_rounding_keys_of_a_figure_with_hundreds_of_decimals():
    """Found by the long hypothesis run: a record value of 5e-324 printed in full overflowed float arithmetic."""
    from studygen.lint.figures import rounding_keys

    assert rounding_keys(5e-324, 324) == (5,)
    assert rounding_keys(5.85, 2) == (585,)


def test_a_figure_past_the_largest_float_is_no_figure_and_raises_nothing():
    # 400 digits read as infinity by float(); rounding an infinite figure raised OverflowError (an internal error)
    from studygen.lint import lint_text
    from studygen.lint.figures import figures_of

    huge = "9" * 400
    assert [f.value for f in figures_of(f"from 1 to {huge} ms, then 2.5 ms")] == [1.0, 2.5]
    assert [f.value for f in figures_of(f"-{huge}.5 and 7 ms")] == [7.0]
    table = "| Batch | Latency (ms) |\n|---|---|\n| 1 | {cell} |\n| 2 | 3 |\n| 4 | 5 |\n"
    for cell in (f"{huge}.5", f"2 / {huge}", f"{huge} ms"):
        text = "# T\n\n" + table.format(cell=cell) + f"\nLatency ranges from 3 to {huge} ms.\n"
        assert lint_text(text, "huge.md") == []
    # the overflowing row is left out, not the column: a range missing a measured row is still reported
    text = "# T\n\n" + table.format(cell=f"{huge}.5") + "\nLatency ranges from 3 to 4 ms.\n"
    assert [f.message[:40] for f in lint_text(text, "huge.md")] == ["range 3 to 4 ms leaves out row '4' (5 ms"]
