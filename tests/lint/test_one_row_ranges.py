"""SG101 reads a range said of one row ("the large model keeps 97-98% word match") against that row's figure in
the one column the sentence names: the column readers need two values and left it unread. Seen on a speech
benchmark (session 24's unseen set): a recommendation table gave the recommended model "98-99% word
similarity" where its row prints 95.95%. Documents and figures of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = """\
# Transcriber sizes

| Model | Time (s) | Word match |
|---|---|---|
| base | 40.2 | 93.10% |
| large | 61.5 | 96.40% |
| huge | 90.8 | 97.20% |

"""


def _sg101(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "w.md") if f.code == "SG101"]


def test_a_range_said_of_one_row_that_misses_its_figure_is_reported():
    # fails before: no finding (one row's figure is no column to summarise)
    assert _sg101(TABLE + "The large model keeps 97-98% word match.\n") == [
        (9, "range 97-98% is said of row 'large' alone, whose 'Word match' in the table at line 3 is 96.40%")]


def test_a_summary_cells_range_for_the_configuration_its_header_names_is_reported():
    summary = "## Pick\n\n| Criterion | Large model |\n|---|---|\n| Quality | 97-98% word match |\n| Speed | fast |\n"
    assert _sg101(TABLE + summary) == [
        (13, "range 97-98% is said of row 'large' alone, whose 'Word match' in the table at line 3 is 96.40%")]


@pytest.mark.parametrize("sentence", [
    "The large model keeps 96-97% word match.",          # 96.40 inside
    "The large model keeps about 97-98% word match.",    # hedged: not read as the row's own figure
    "The large and huge models keep 96-98% word match.",  # two rows: the column reader's (covered)
    "The large model is 2-3% more accurate in word match than base.",  # a range of differences
    "The large model keeps 97-98% accuracy.",            # no column named: 'accuracy' heads none
])
def test_a_range_that_holds_its_row_or_is_no_one_rows_figure_is_quiet(sentence):
    assert _sg101(TABLE + sentence + "\n") == []


def test_a_row_named_outside_the_ranges_clause_or_a_metric_row_is_not_read():
    # the row is the other clause's subject: the range counts launches of something else
    assert _sg101(TABLE + "The large model splits into 40 stages of 2-3 ms each, and its word match suffers.\n") == []
    # rows of metrics ("Mean time"): a range beside one names no configuration's figure
    metrics = "| Metric | Run A |\n|---|---|\n| Mean time | 31.0 ms |\n| Tail time | 33.1 ms |\n\n"
    assert _sg101(metrics + "Run B's mean time is likely 10-15 ms, well below Run A.\n") == []


def test_a_row_left_by_a_part_of_its_job_label_alone_is_no_row_named():
    # Found by the full suite on generated READMEs (session 28): "mode compile only ... in fp16" names two rows;
    # the word "compile" is also a part of one row's job id, which left that row alone, and its kernel total was
    # held to a kernel group's range. Figures of our own.
    table = ("| Job | Mode | Variant | Profiled kernel total ms |\n|---|---|---|---|\n"
             "| second | compile | fp16 | 8.030 |\n| run-compile-1067 | compile | fp16 | 12.698 |\n"
             "| run-eager | eager | fp16 | 10.121 |\n\n")
    sentence = ("Compiled, GEMM kernels take 0.860 to 1.185 ms (mode compile only) per forward in fp16, out of a "
                "profiled kernel total of 8.030 to 12.698 ms.\n")
    assert _sg101(table + sentence) == []
    # the row named whole still is one row
    assert _sg101(table + "The run-compile-1067 fp16 row's profiled kernel total is 11.5-12.0 ms.\n") == [
        (7, "range 11.5-12.0 ms is said of row 'run-compile-1067 / compile / fp16' alone, whose 'Profiled kernel "
            "total ms' in the table at line 1 is 12.698 ms")]


def test_a_column_named_only_after_the_next_figure_is_not_the_ranges():
    # Found by the property test of generated READMEs (session 28): one compiled fp16 row; the GEMM kernels'
    # range was held to the 'Profiled kernel total ms' column, whose words name the figure after it. Ours.
    table = ("| Job | Mode | Variant | Median latency ms | Profiled kernel total ms |\n|---|---|---|---|---|\n"
             "| only | compile | fp16 | 12.000 | 12.106 |\n| only | compile | fp8 | 12.000 | 12.095 |\n\n")
    sentence = ("Compiled, GEMM kernels take 0.978 to 1.185 ms (mode compile only) per forward in fp16, out of an "
                "fp16 profiled kernel total of 12.106 to 12.113 ms.\n")
    assert _sg101(table + sentence) == []
    # the column's own words before the range name it
    assert _sg101(table + "In fp16 the profiled kernel total is 11.2-11.5 ms.\n") == [
        (6, "range 11.2-11.5 ms is said of row 'only / compile / fp16' alone, whose 'Profiled kernel total ms' in "
            "the table at line 1 is 12.106 ms")]
