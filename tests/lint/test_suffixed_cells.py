"""Table cells printed with a thousands suffix (studygen.lint.suffixed_figures).

A throughput column printed as "2.48K" was a column of labels: SG107 never saw that one variant beat another in
it, and every other table rule skipped it. Under a header naming a rate or a count of served work such cells are
figures at the resolution their digits give (2.48K: 2480 to the nearest 10); under a configuration header
("Context", "Input length", "Parameters") they stay labels. Figures of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.suffixed_figures import reads_suffixes, suffixed_cell, suffixed_figure


@pytest.mark.parametrize("text, value, decimals, unit", [
    ("2.48K", 2480.0, -1, None),
    ("12.3k", 12300.0, -2, None),
    ("905k", 905000.0, -3, None),
    ("3.07M", 3070000.0, -4, None),
    ("1.2 G", 1200000000.0, -8, None),
    ("4.5K tok/s", 4500.0, -2, "tokens/s"),
    (" 7.25k ", 7250.0, -1, None),
])
def test_a_suffixed_cell_reads_as_its_value_at_its_printed_resolution(text, value, decimals, unit):
    figure = suffixed_figure(text)
    assert (figure.value, figure.decimals, figure.unit) == (value, decimals, unit)
    assert figure.half_step == 0.5 * 10 ** -decimals
    assert (figure.text, figure.start, figure.end) == (text.strip(), 0, len(text.strip()))


def test_a_cell_is_its_suffixed_figure_or_none():
    assert suffixed_cell("3.07M") == (suffixed_figure("3.07M"),)
    assert suffixed_cell("n/a") is None
    assert suffixed_cell("70B") is None


@pytest.mark.parametrize("text", ["7B", "1.5m", "~2.4K", "2.4K-3.1K", "K80", "4K context", "-3K", "2.4KB"])
def test_other_cells_are_no_suffixed_figure(text):
    assert suffixed_figure(text) is None


@pytest.mark.parametrize("header, unit, reads", [
    ("Tokens/sec", "tokens/s", True),
    ("Output tok/s", "tokens/s", True),  # a rate is never a setting, though "output" is one
    ("Throughput", None, True),
    ("Peak throughput (batch 64)", None, True),
    ("Requests served", None, True),
    ("Tokens generated", None, True),
    ("Context", None, False),
    ("Input Length", None, False),
    ("Max tokens", None, False),
    ("Batch size (tokens)", None, False),
    ("Parameters", None, False),
    ("Model", None, False),
    ("Latency (ms)", "ms", False),
    ("F16", None, False),
])
def test_the_header_decides_whether_a_column_reads_suffixes(header, unit, reads):
    assert reads_suffixes(header, unit) is reads


_TABLE = """# Serving

| Batch | Engine | Tokens/sec | p95 (ms) |
| ---: | --- | ---: | ---: |
| 16 | alpha | 2.48K | 41 |
| 16 | beta | 905 | 88 |
| 16 | gamma | 1.31K | 70 |
| 64 | alpha | 6.10K | 30 |
| 64 | beta | 2.02K | 95 |
| 64 | gamma | 1.95K | 99 |

"""


@pytest.mark.parametrize("sentence", [
    "beta remains the slowest at every batch size.",
    "Across all batch sizes, beta is always the slowest engine.",
])
def test_a_universal_claim_contradicted_only_in_a_suffixed_column_is_reported(sentence):
    found = [f for f in lint_text(_TABLE + sentence + "\n", "x.md") if f.code == "SG107"]
    assert len(found) == 1
    # at batch 64 gamma is slower than beta in both columns: 1.95K < 2.02K tokens/s, 99 > 95 ms
    assert "'Tokens/sec': row '64 / beta' has 2.02K, row '64 / gamma' 1.95K" in found[0].message


def test_the_suffixed_column_is_a_series_of_its_values():
    document = parse_document(_TABLE, "x.md")
    table = document.tables[0]
    assert 2 not in table.label_columns
    series = next(s for s in table.series if s.column == 2)
    assert [v.value for v in series.values] == [2480.0, 905.0, 1310.0, 6100.0, 2020.0, 1950.0]
    assert series.unit == "tokens/s"


@pytest.mark.parametrize("header, cells", [
    ("Context", ["4K", "32K", "128K"]),
    ("Input length", ["2k", "8k", "16k"]),
    ("Parameters", ["270M", "1.3G", "2.7G"]),
])
def test_a_configuration_column_of_suffixed_cells_stays_labels(header, cells):
    rows = "".join(f"| {cell} | {ms} |\n" for cell, ms in zip(cells, ("12.0", "30.5", "96.1")))
    document = parse_document(f"| {header} | TTFT (ms) |\n| --- | ---: |\n{rows}", "x.md")
    table = document.tables[0]
    assert table.label_columns == [0]
    assert [s.column for s in table.series] == [1]


def test_a_bound_over_suffixed_cells_prints_whole_differences():
    # decimals -1 once stopped lint with "Format specifier missing precision" on the difference's format
    document = ("| Engine | Throughput (tokens/s) |\n| --- | ---: |\n| alpha | 2.48K |\n| beta | 2.60K |\n"
                "| gamma | 3.10K |\n\nAll engines stay within 50 tokens/s of alpha.\n")
    (found,) = [f for f in lint_text(document, "x.md") if f.code == "SG101"]
    assert "'beta' (2.60K tokens/s against 2.48K tokens/s: 120 tokens/s)" in found.message
    assert "'gamma' (3.10K tokens/s against 2.48K tokens/s: 620 tokens/s)" in found.message


def test_a_sum_of_suffixed_parts_prints_whole_units():
    from studygen.lint.stated_sums import _printed

    assert _printed(5080.0, [suffixed_figure("2.48K"), suffixed_figure("2.60K")]) == "5080"
    assert _printed(5.25, [suffixed_figure("2.48K"), suffixed_figure("2.60K")._replace(decimals=2)]) == "5.25"
