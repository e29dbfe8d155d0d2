"""SG101 reads a range printed in one unit against a column printed in another unit of the same
dimension (seconds against milliseconds, GB against MB): a write-up of first-token times that prints
its tables in ms often summarises them in seconds. Figures worked out by hand; a printed figure stands
for its rounding interval in its own unit (8.5 s is 8450 to 8550 ms)."""

from __future__ import annotations

from studygen.lint import lint_text
from studygen.lint.figures import Figure, Range, commensurable_units, in_unit

_TTFT = """# First-token time, 14B model

The three fastest desktop processors answer in {range}.

| ttft (ms) | processor |
|---:|---|
| 8170 | EPYC 9454P |
| 10270 | EPYC 9135 |
| 11600 | Ryzen 9 9950X3D |
"""


def _sg101(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


def test_a_range_in_seconds_is_read_against_a_column_in_milliseconds():
    # 8.2 s stands for 8150 to 8250 ms, 10.3 s for 10250 to 10350 ms: 11600 ms is left out (fails before: no finding)
    assert _sg101(_TTFT.format(range="8.2 to 10.3 seconds")) == [
        (3, "range 8.2 to 10.3 seconds leaves out row 'Ryzen 9 9950X3D' (11600 ms) of 'ttft (ms)' in the table at line 5")]
    # 8.2 to 11.6 s covers all three; so does 8.17 to 11.60 s
    assert _sg101(_TTFT.format(range="8.2 to 11.6 seconds")) == []
    assert _sg101(_TTFT.format(range="8.17 to 11.60 s")) == []


def test_the_rounding_of_the_range_is_kept_in_the_other_unit():
    # 8 to 12 s stands for 7500 to 12500 ms: it covers every row
    assert _sg101(_TTFT.format(range="8 to 12 s")) == []
    # 8.2 to 11.5 s reaches 11550 ms only: 11600 ms is left out
    (finding,) = _sg101(_TTFT.format(range="8.2 to 11.5 s"))
    assert "leaves out row 'Ryzen 9 9950X3D' (11600 ms)" in finding[1]


def test_a_size_range_in_gb_is_read_against_a_column_in_mb():
    table = "# Memory\n\nPeak memory stays between 2.9 and 4.5 GB.\n\n| impl | VRAM MB |\n|---|---|\n| a | 4712 |\n| b | 2930 |\n| c | 4520 |\n"
    assert _sg101(table) == [(3, "range between 2.9 and 4.5 GB leaves out row 'a' (4712 MB) of 'VRAM MB' in the table at line 5")]


def test_in_unit_scales_the_value_and_the_rounding():
    second = Figure(8.5, "8.5", 1, "s", 0, 3)
    rng = Range(second, Figure(10.25, "10.25", 2, "s", 7, 12), "s", "range", False, 0, 12, "8.5 to 10.25 s")
    converted = in_unit(rng, "ms")
    assert converted.unit == "ms" and converted.source == "8.5 to 10.25 s"
    assert (converted.lo.value, converted.lo.half_step) == (8500.0, 50.0)
    assert (converted.hi.value, converted.hi.half_step) == (10250.0, 5.0)
    assert in_unit(rng, "us").lo.value == 8_500_000.0
    assert in_unit(rng, "GB") is None and in_unit(rng, "s") is rng
    gigabytes = Range(Figure(1.5, "1.5", 1, "GB", 0, 3), Figure(2.0, "2.0", 1, "GB", 7, 10), "GB", "range", False, 0, 10, "")
    assert in_unit(gigabytes, "MB").hi.value == 2000.0 and in_unit(gigabytes, "MiB") is None
    assert in_unit(gigabytes, "MB").hi.half_step == 50.0 and in_unit(gigabytes, "KB").hi.half_step == 50_000.0
    # binary sizes are not converted: 1024 is no power of ten
    mebibytes = Range(Figure(512.0, "512", 0, "MiB", 0, 3), Figure(768.0, "768", 0, "MiB", 7, 10), "MiB", "range", False, 0, 10, "")
    assert in_unit(mebibytes, "GiB") is None and commensurable_units("MiB") == ()
    assert commensurable_units("ms") == ("ns", "us", "s") and commensurable_units("GB") == ("KB", "MB")
    assert commensurable_units(None) == () and commensurable_units("x") == ()


_KERNEL_US = """# Kernel sweep

| tok/rank | compute µs | e2e µs |
|---:|---:|---:|
| 512 | 2651.1 | 2901.9 |
| 32768 | 71412.4 | 74709.9 |

## Overhead

The overhead is {range}.
"""


def test_a_range_read_in_another_unit_needs_both_endpoints_or_most_of_its_own_sections_column():
    # 2.9 ms is 2850 to 2950 us: it finds e2e's 2901.9 at one end only, and covers one row of two: no summary of it
    assert _sg101(_KERNEL_US.replace("## Overhead\n\n", "").format(range="2.3 to 2.9 ms at 512 and 32768 tok/rank")) == []
    # another section: one endpoint is not enough either, even with the quantity named
    assert _sg101(_KERNEL_US.format(range="between 2.6 and 3.0 ms of compute")) == []
    # both endpoints found in another section's column (2.7 ms ~ 2651.1, 71.4 ms ~ 71412.4): read, and it covers it
    assert _sg101(_KERNEL_US.format(range="2.7 to 71.4 ms of compute")) == []
    # both endpoints of e2e found (2.9 ms, 74.7 ms), but compute's 2651.1 us lies below 2.85 ms: not e2e's summary...
    assert _sg101(_KERNEL_US.format(range="2.9 to 74.7 ms of e2e time")) == []
    # one endpoint (2.7 ms) in another section's column: not read
    assert _sg101(_KERNEL_US.format(range="2.7 to 70.0 ms of compute")) == []
    # both endpoints found in another section, a third row left out: read and reported
    third = _KERNEL_US.replace("| 32768 | 71412.4 | 74709.9 |", "| 32768 | 71412.4 | 74709.9 |\n| 65536 | 80100.0 | 84000.0 |")
    assert _sg101(third.format(range="2.7 to 71.4 ms of compute")) == [
        (11, "range 2.7 to 71.4 ms leaves out row '65536' (80100.0 us) of 'compute µs' in the table at line 3")]


def test_a_figure_of_the_sentence_in_the_range_unit_states_a_row_left_out_in_the_column_unit():
    cards = ("# Cards\n\nTheir ttft is 2.4 to 5.0 seconds{tail}.\n\n| card | ttft (ms) |\n|---|---:|\n"
             "| a | 2410 |\n| b | 4940 |\n| c | 3530 |\n| d | 27010 |\n")
    assert _sg101(cards.format(tail=", plus one outlier at 27 seconds")) == []
    # 26 s stands for 25500 to 26500 ms: it does not state 27010 ms
    assert _sg101(cards.format(tail=", plus one outlier at 26 seconds")) == [
        (3, "range 2.4 to 5.0 seconds leaves out row 'd' (27010 ms) of 'ttft (ms)' in the table at line 5")]


def test_figure_in_unit_refuses_units_that_do_not_convert():
    import pytest

    from studygen.lint.figures import figure_in_unit

    assert figure_in_unit(Figure(27.0, "27", 0, "s", 0, 2), "ms").value == 27000.0
    assert figure_in_unit(Figure(27.0, "27", 0, None, 0, 2), "ms", "s").half_step == 500.0
    with pytest.raises(ValueError, match="MiB does not convert to MB"):
        figure_in_unit(Figure(27.0, "27", 0, "MiB", 0, 2), "MB")
