"""SG107 best-of claims (studygen/lint/best_rows.py): a sentence that says its quoted figure is the peak,
the highest, the fastest or the best of a column, read against the rows its clause means. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# speedup of three runtimes over two batch sizes; the "fused" rows peak at batch 8 (3.10x), batch 1 is 2.45x
SWEEP = """\
| batch | runtime | latency (ms) | speedup |
|---:|---|---:|---:|
| 1 | eager | 9.80 | 1.00x |
| | fused | 4.00 | 2.45x |
| | graph | 3.50 | 2.80x |
| 8 | eager | 62.0 | 1.00x |
| | fused | 20.0 | 3.10x |
| | graph | 22.1 | 2.81x |

"""


def _sg107(sentence: str, table: str = SWEEP) -> list[str]:
    return [f.message for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG107"]


def test_a_peak_is_read_over_the_subjects_rows_with_its_address_left_out():
    (message,) = _sg107("fused peaks at 2.45x (batch 1).")
    assert "names row '1 / fused' the largest 'speedup' of 2 rows" in message
    assert "row '8 / fused' has 3.10" in message and "graph" not in message


def test_a_winner_is_read_over_the_rows_of_the_same_conditions():
    # at batch 1 graph (3.50 ms) beats fused (4.00 ms); batch 8's rows are other conditions
    (message,) = _sg107("fused is the fastest at 4.00 ms.")
    assert "names row '1 / fused' the smallest 'latency (ms)' of 3 rows" in message
    assert "row '1 / graph' has 3.50" in message and "8 /" not in message
    assert _sg107("fused is the fastest at 20.0 ms.") == []  # batch 8: fused is


@pytest.mark.parametrize("sentence", [
    "fused leads at 2.45x.",  # a speedup column: higher is better
    "The best speedup is fused's 2.45x.",
])
def test_better_goes_the_way_of_the_columns_kind(sentence):
    (message,) = _sg107(sentence)
    assert "row '1 / fused' the largest 'speedup' of 3 rows" in message and "row '1 / graph' has 2.80" in message
    assert _sg107(sentence.replace("fused", "graph").replace("2.45", "2.80")) == []


@pytest.mark.parametrize("sentence", [
    "fused is one of the fastest at 4.00 ms.",
    "fused is among the best at 2.45x.",
    "fused is nearly the fastest at 4.00 ms.",
    "fused could be the fastest at 4.00 ms.",
    "fused is not the fastest at 4.00 ms.",
    "fused peaks at about 2.45x.",
    "fused peaks at 2.46x.",  # no cell prints it
    "graph is the second-best at 2.80x.",
    "For batch 1 and batch 8 fused is the fastest at 4.00 ms, except graph.",
])
def test_hedged_denied_or_unresolved_claims_are_not_read(sentence):
    assert _sg107(sentence) == []


def test_a_bound_the_clause_names_restricts_a_peak():
    assert _sg107("For batch <= 1, fused peaks at 2.45x at batch 1.") == []
    (message,) = _sg107("Up to batch 8, fused peaks at 2.45x at batch 1.")
    assert "row '8 / fused' has 3.10" in message


def test_a_tie_as_printed_is_no_contradiction():
    table = "| backend | throughput (tok/s) |\n|---|---:|\n| a | 1,085 |\n| b | 1,085 |\n| c | 640 |\n\n"
    assert _sg107("The highest throughput is a's 1,085 tok/s.", table) == []
    (message,) = _sg107("The highest throughput is c's 640 tok/s.", table)
    assert "row 'a' has 1,085; row 'b' has 1,085" in message


def test_the_column_header_holding_the_word_is_each_rows_own_statistic():
    table = "| run | peak memory (GB) |\n|---|---:|\n| a | 5.9 |\n| b | 7.3 |\n\n"
    assert _sg107("Run a has a peak memory of 5.9 GB.", table) == []
    assert _sg107("Run a reaches its peak at 5.9 GB.", table) == []


def test_rows_that_label_quantities_are_not_ranked():
    table = "| Metric | A | B |\n|---|---|---|\n| Mean latency | 7.3 ms | 7.5 ms |\n| P95 latency | 6.9 ms | 10.1 ms |\n\n"
    assert _sg107("Lowest latency: 7.3 ms mean latency.", table) == []


# step time of three kernels, one label column: k2 is the fastest
STEPS = "| kernel | step time (ms) |\n|---|---:|\n| k1 | 12.4 |\n| k2 | 11.8 |\n| k3 | 13.0 |\n\n"
K1_NOT_FASTEST = ("names row 'k1' the smallest 'step time (ms)' of 3 rows of the table at line 1, "
                  "but row 'k2' has 11.8")
# throughput of two kernels over three thread counts: striped peaks at 128 threads (433), blocked at 128 (502)
THREADS = """\
| kernel | threads | throughput (img/s) |
|---|---:|---:|
| striped | 64 | 410 |
| | 128 | 433 |
| | 256 | 392 |
| blocked | 64 | 470 |
| | 128 | 502 |
| | 256 | 481 |

"""


def _sg107_at(document: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(document, "t.md") if f.code == "SG107"]


def test_the_whole_message_quotes_the_claim_and_lists_the_rows_beyond_it_largest_first():
    # v4, v2 and v5 print more than v1's 820: shown in the order of their excess, not of their rows
    table = ("| variant | throughput (tok/s) |\n|---|---:|\n| v1 | 820 |\n| v2 | 905 |\n| v3 | 760 |\n"
             "| v4 | 990 |\n| v5 | 870 |\n| v6 | 640 |\n\n")
    assert _sg107("v1 is the best at 820 tok/s.", table) == [
        "'v1 is the best at 820 tok/s' names row 'v1' the largest 'throughput (tok/s)' of 6 rows of the table at "
        "line 1, but row 'v4' has 990; row 'v2' has 905; row 'v5' has 870"]
    # four rows beyond v3's 760: three are shown, the fourth (v1) counted
    assert _sg107("The highest throughput is v3's 760 tok/s.", table) == [
        "'The highest throughput is v3's 760 tok/s' names row 'v3' the largest 'throughput (tok/s)' of 6 rows of "
        "the table at line 1, but row 'v4' has 990; row 'v2' has 905; row 'v5' has 870 and 1 more"]


@pytest.mark.parametrize(("sentence", "message"), [
    # "minimum" and "lowest" want the smallest figure whatever the column holds; "slowest" a time's largest
    ("Striped reaches its minimum throughput of 433 img/s at 128 threads.",
     "'Striped reaches its minimum throughput of 433 img/s at 128 threads' names row 'striped / 128' the smallest "
     "'throughput (img/s)' of 3 rows of the table at line 1, but row 'striped / 256' has 392; row 'striped / 64' has 410"),
    ("The lowest throughput at 128 threads is striped's 433 img/s.", None),
    ("Striped peaks at 410 img/s (64 threads).",
     "'Striped peaks at 410 img/s (64 threads)' names row 'striped / 64' the largest 'throughput (img/s)' of 3 rows "
     "of the table at line 1, but row 'striped / 128' has 433"),
])
def test_the_superlative_word_says_which_end_of_the_column_is_claimed(sentence, message):
    assert _sg107(sentence, THREADS) == ([message] if message else [])


def test_lowest_and_slowest_read_a_time_column_their_own_way():
    assert _sg107("The lowest step time is k3's 13.0 ms.", STEPS) == [
        "'The lowest step time is k3's 13.0 ms' names row 'k3' the smallest 'step time (ms)' of 3 rows of the table "
        "at line 1, but row 'k2' has 11.8; row 'k1' has 12.4"]
    assert _sg107("k1 is the slowest at 12.4 ms.", STEPS) == [
        "'k1 is the slowest at 12.4 ms' names row 'k1' the largest 'step time (ms)' of 3 rows of the table at line 1, "
        "but row 'k3' has 13.0"]


def test_a_column_of_no_known_kind_has_no_best():
    table = "| run | hit rate |\n|---|---:|\n| a | 91.2% |\n| b | 88.0% |\n| c | 93.5% |\n\n"
    assert _sg107("Run c is the best at 93.5%.", table) == []
    assert _sg107("Run b is the lowest at 88.0%.", table) == []  # "lowest" needs no kind: b is the lowest


def test_a_metric_rows_column_of_no_unit_reads_its_header():
    # "Metric" rows each print their own unit, so the column has none: its header says which way is better
    speedup = "| Metric | speedup |\n|---|---:|\n| alpha | 2.1x |\n| beta | 1.8 |\n| gamma | 1.5 |\n\n"
    assert _sg107("Alpha is the worst at 2.1x.", speedup) == [
        "'Alpha is the worst at 2.1x' names row 'alpha' the smallest 'speedup' of 3 rows of the table at line 1, "
        "but row 'gamma' has 1.5; row 'beta' has 1.8"]
    assert _sg107("Alpha is the worst at 2.1x.", speedup.replace("speedup", "slowdown")) == []
    latency = "| Metric | latency |\n|---|---:|\n| alpha | 4.1 ms |\n| beta | 3.0 |\n| gamma | 2.0 |\n\n"
    assert _sg107("Alpha is the fastest at 4.1 ms.", latency) == [
        "'Alpha is the fastest at 4.1 ms' names row 'alpha' the smallest 'latency' of 3 rows of the table at line 1, "
        "but row 'gamma' has 2.0; row 'beta' has 3.0"]


@pytest.mark.parametrize("sentence", [
    "k1 is the fastest and the best at 12.4 ms.",  # two superlatives: which one the figure answers is unclear
    "Next to k2, the fastest step time is 12.4 ms.",  # the clause names another row than the figure's own
])
def test_two_superlatives_or_another_row_named_are_not_read(sentence):
    assert _sg107(sentence, STEPS) == []


@pytest.mark.parametrize("document", [
    STEPS + "k1 is the fastest at 12.4 ms; k3 is the slowest at 13.0 ms.\n",  # only the first clause is wrong
    STEPS + "k1 is the fastest at 12.4 ms. Building k3 takes 9 s, while k2 builds faster.\n",
    STEPS + "k1 is the fastest at 12.4 ms. That may change.\n",  # a hedge in the next sentence is not this one's
    STEPS + "Setup: each run took 40 s. k1 is the fastest at 12.4 ms.\n",  # an earlier sentence's colon
    STEPS + "Results follow.\n\nk1 is the fastest at 12.4 ms.\n",  # a paragraph without a claim before it
    STEPS + "The kernels ran on one GPU,\nand k1 is the fastest at 12.4 ms.\n",  # the word on the second line
])
def test_each_clause_is_read_on_its_own(document):
    ((line, message),) = _sg107_at(document)
    assert line == len(document.splitlines())
    claim = "k1 is the fastest at 12.4 ms"
    assert message == f"'{claim}' {K1_NOT_FASTEST}"


@pytest.mark.parametrize(("sentence", "claim"), [
    # the lead-in before a colon names the topic when a superlative follows it ...
    ("**Fastest kernel:** k1 leads at 12.4 ms.", "k1 leads at 12.4 ms"),
    ("Run 2, step time: k1 leads at 12.4 ms.", "k1 leads at 12.4 ms"),
    ("Run 2: step time: k1 leads at 12.4 ms.", "k1 leads at 12.4 ms"),
    ("**Fastest kernel:** k1 leads at 12.4 ms. Notes: one GPU.", "k1 leads at 12.4 ms"),  # a later sentence's colon
    ("Fastest kernel:k1 leads at 12.4 ms.", "k1 leads at 12.4 ms"),  # no space after the colon
    # ... and is the claim's own superlative when none follows it
    ("Fastest step time: k1 with 12.4 ms. The slowest is k3.", "Fastest step time: k1 with 12.4 ms"),
    ("12.4 ms is the lowest step time, k1's.", "12.4 ms is the lowest step time, k1's"),  # the figure first
    ("The fastest kernel takes 12.4 ms.", "The fastest kernel takes 12.4 ms"),  # no row named: the table's rows
    ("k1 is the fastest at 12.4 ms on GPU-X.", "k1 is the fastest at 12.4 ms on GPU-X"),
])
def test_the_claim_is_quoted_as_read(sentence, claim):
    assert _sg107(sentence, STEPS) == [f"'{claim}' {K1_NOT_FASTEST}"]


def test_a_per_run_peak_is_no_claim_about_rows_but_a_highest_use_is():
    table = "| run | batch | memory (GB) |\n|---|---:|---:|\n| a | 1 | 3.1 |\n| | 8 | 5.9 |\n| | 16 | 9.0 |\n\n"
    assert _sg107("Run a reaches a peak memory of 5.9 GB at batch 8.", table) == []
    assert _sg107("Run a's highest memory use is 5.9 GB (batch 8).", table) == [
        "'Run a's highest memory use is 5.9 GB (batch 8)' names row 'a / 8' the largest 'memory (GB)' of 3 rows of "
        "the table at line 1, but row 'a / 16' has 9.0"]


def test_a_peak_header_makes_each_rows_figure_its_own_peak():
    table = "| run | batch | {} (tok/s) |\n|---|---:|---:|\n| a | 1 | 310 |\n| | 8 | 1,240 |\n| | 16 | 1,510 |\n\n"
    assert _sg107("Run a peaks at 1,240 tok/s at batch 8.", table.format("Peak throughput")) == []
    assert _sg107("Run a peaks at 1,240 tok/s at batch 8.", table.format("throughput")) == [
        "'Run a peaks at 1,240 tok/s at batch 8' names row 'a / 8' the largest 'throughput (tok/s)' of 3 rows of the "
        "table at line 1, but row 'a / 16' has 1,510"]


def test_a_best_case_figure_is_hedged():
    assert _sg107("fused has the best-case speedup of 2.45x.") == []


def test_rows_labelled_with_plural_quantities_are_not_ranked():
    table = "| phase | A | B |\n|---|---:|---:|\n| prefill latencies | 41 ms | 22 ms |\n| decode latencies | 9 ms | 5 ms |\n\n"
    assert _sg107("B is the fastest at 22 ms.", table) == []


def test_an_empty_label_of_the_only_label_column_continues_no_label():
    # the unlabelled 4.0 ms row is no run a row
    table = "| run | time (ms) |\n|---|---:|\n| a | 5.0 |\n| a | 5.5 |\n| | 4.0 |\n\n"
    assert _sg107("Run a's best is 5.5 ms.", table) == [
        "'Run a's best is 5.5 ms' names row 'a' the smallest 'time (ms)' of 2 rows of the table at line 1, "
        "but row 'a' has 5.0"]


def test_a_figure_two_tables_print_is_read_in_the_one_whose_rows_the_clause_names():
    # 410 img/s is printed by both tables; the clause names striped and L4, which only the first table restricts
    kernels = ("| kernel | gpu | throughput (img/s) |\n|---|---|---:|\n| striped | L4 | 410 |\n| striped | A10 | 433 |\n"
               "| blocked | L4 | 470 |\n| blocked | A10 | 502 |\n\n")
    models = "| model | L4 throughput (img/s) |\n|---|---:|\n| m1 | 410 |\n| m2 | 300 |\n\n"
    assert _sg107("Striped peaks at 410 img/s on L4.", kernels + models) == [
        "'Striped peaks at 410 img/s on L4' names row 'striped / L4' the largest 'throughput (img/s)' of 2 rows of "
        "the table at line 1, but row 'striped / A10' has 433"]
    assert _sg107("Throughput peaks at 410 img/s.", kernels + models) == []  # neither table is named: unclear


def test_only_the_64_tables_nearest_the_claim_are_searched():
    far = "| run | time (ms) |\n|---|---:|\n| a | 7.25 |\n| b | 6.50 |\n\n"
    near = "".join(f"| run | time (ms) |\n|---|---:|\n| a | {n}.0 |\n| b | {n}.5 |\n\n" for n in range(10, 74))
    sentence = "Run a is the fastest at 7.25 ms."
    assert _sg107(sentence, far + near) == []
    assert len(_sg107(sentence, far + near[near.index("\n\n") + 2:])) == 1


# fp16 is neither the fastest (int8) nor the slowest (fp32) of three precisions
PRECISIONS = """\
| variant | latency (ms) | memory (GB) |
|---|---:|---:|
| fp32 | 10.0 | 6.2 |
| fp16 | 5.5 | 3.4 |
| int8 | 3.1 | 2.1 |

"""


def test_fastest_ranks_a_time_or_a_rate_and_best_any_kind():
    assert _sg107("fp16 is the fastest at 3.4 GB.", PRECISIONS) == []
    (message,) = _sg107("fp16 is the best at 3.4 GB.", PRECISIONS)
    assert message.endswith("the smallest 'memory (GB)' of 3 rows of the table at line 1, but row 'int8' has 2.1")


@pytest.mark.parametrize(("header", "found"), [
    ("min", False), ("best of 5", False), ("peak", False), ("max", False),
    ("mean", True), ("p50", True),  # a typical figure of each row: the rows are ranked by it
])
def test_a_column_of_each_rows_own_extreme_is_not_ranked(header, found):
    table = f"| variant | {header} (ms) |\n|---|---:|\n| a | 3.20 |\n| b | 2.60 |\n\n"
    assert bool(_sg107("a is the fastest at 3.20 ms.", table)) == found
    assert _sg107("The fastest iteration of a took 3.20 ms.", table) == []


def test_a_winner_whose_column_names_other_rows_too_is_not_read():
    assert _sg107("fp16 is the fastest at 5.5 ms after int8.", PRECISIONS) == []
    assert len(_sg107("fp16 is the fastest at 5.5 ms.", PRECISIONS)) == 1


# five integer times: a figure of no decimals stands for half a millisecond either side
INTEGERS = ("| run | time (ms) |\n|---|---:|\n| v1 | 1 |\n| v2 | 2 |\n| v3 | 3 |\n| v4 | 4 |\n| v5 | 5 |\n\n")


def test_a_row_whose_figure_only_touches_the_quoted_ones_digits_is_counted():
    # v4's 4 stands for at most 4.5 ms, v5's 5 for at least 4.5: v4 is beyond it, the fourth one
    assert _sg107("v5 is the fastest at 5 ms.", INTEGERS) == [
        "'v5 is the fastest at 5 ms' names row 'v5' the smallest 'time (ms)' of 5 rows of the table at line 1, "
        "but row 'v1' has 1; row 'v2' has 2; row 'v3' has 3 and 1 more"]


def test_claims_over_one_table_each_read_their_own_rows_and_direction():
    document = INTEGERS + "v2 is the slowest at 2 ms. v5 is the fastest at 5 ms.\n"
    messages = [f.message for f in lint_text(document, "t.md") if f.code == "SG107"]
    assert sorted(message.split(" but ")[1] for message in messages) == [
        "row 'v1' has 1; row 'v2' has 2; row 'v3' has 3 and 1 more",
        "row 'v5' has 5; row 'v4' has 4; row 'v3' has 3"]
    # two peaks over one table: each keeps its own subject's rows
    document = THREADS + "Striped peaks at 410 img/s (64 threads). Blocked peaks at 470 img/s (64 threads).\n"
    messages = [f.message for f in lint_text(document, "t.md") if f.code == "SG107"]
    assert sorted(message.split(" but ")[1] for message in messages) == [
        "row 'blocked / 128' has 502; row 'blocked / 256' has 481", "row 'striped / 128' has 433"]


def test_a_cell_rounding_to_the_quoted_figure_from_below_its_integer_prints_it():
    table = "| run | time (ms) |\n|---|---:|\n| a | 2.6 |\n| b | 1.9 |\n| c | 4.0 |\n\n"
    assert _sg107("Run a is the fastest at 3 ms.", table) == [
        "'Run a is the fastest at 3 ms' names row 'a' the smallest 'time (ms)' of 3 rows of the table at line 1, "
        "but row 'b' has 1.9"]
    negative = "| run | delta (ms) |\n|---|---:|\n| a | -3.1 |\n| b | -4.2 |\n\n"
    assert len(_sg107("Run a is the lowest at -3.1 ms.", negative)) == 1


def test_a_row_within_the_quoted_figures_digits_is_not_shown():
    # 5.45 lies within what 5.5 stands for (5.45 to 5.55): no faster than it as printed
    table = "| run | time (ms) |\n|---|---:|\n| a | 5.5 |\n| b | 5.45 |\n| c | 3.0 |\n\n"
    assert _sg107("Run a is the fastest at 5.5 ms.", table) == [
        "'Run a is the fastest at 5.5 ms' names row 'a' the smallest 'time (ms)' of 3 rows of the table at line 1, "
        "but row 'c' has 3.0"]


def test_each_table_of_a_document_is_read_on_its_own():
    # three tables, one claim each: the rows, labels and rankings read for one are not another's
    metrics = "| Metric | A | B |\n|---|---|---|\n| Mean latency | 7.3 ms | 7.5 ms |\n| P95 latency | 6.9 ms | 10.1 ms |\n\n"
    document = (metrics + STEPS + INTEGERS + "Lowest latency: 7.3 ms mean latency.\n\nk1 is the fastest at 12.4 ms.\n\n"
                "v5 is the fastest at 5 ms.\n")
    messages = [f.message for f in lint_text(document, "t.md") if f.code == "SG107"]
    assert messages == [
        f"'k1 is the fastest at 12.4 ms' {K1_NOT_FASTEST.replace('line 1', 'line 6')}",
        "'v5 is the fastest at 5 ms' names row 'v5' the smallest 'time (ms)' of 5 rows of the table at line 12, "
        "but row 'v1' has 1; row 'v2' has 2; row 'v3' has 3 and 1 more"]


def test_empty_and_endless_cells_and_a_unit_no_table_prints_are_read_past():
    # k4's cell is empty, k5's a number too long for a float (infinite): neither is a row's figure to rank
    table = STEPS.rstrip("\n") + "\n| k4 | |\n| k5 | 1" + "0" * 400 + " |\n\n"
    (message,) = _sg107("k1 is the fastest at 12.4 ms.", table)
    assert message.endswith("of 5 rows of the table at line 1, but row 'k2' has 11.8")
    assert _sg107("k1 leads at 12.4 GB/s.", table) == []


@pytest.mark.parametrize("sentence", [
    "Among the float kernels, k3 is the slowest. k1 is the fastest at 12.4 ms.",  # a restricted sentence before
    "k3 is slower than k2. k1 is the fastest at 12.4 ms.",  # a comparison in the sentence before the clause
])
def test_a_sentence_before_the_claim_does_not_change_its_reading(sentence):
    assert _sg107(sentence, STEPS) == [f"'k1 is the fastest at 12.4 ms' {K1_NOT_FASTEST}"]


# the images per second of two models (columns) on three boards (rows): beta is the faster model on each board
BOARDS = """\
| board | alpha (img/s) | beta (img/s) |
|---|---:|---:|
| Orin | 900 | 1,040 |
| Xavier | 410 | 455 |
| Nano | 88 | 97 |

"""


@pytest.mark.parametrize("sentence", [
    "On the Xavier, beta leads at 455 img/s.",
    "beta is the fastest at 97 img/s on the Nano.",
    "Nano: beta is the fastest, 97 img/s.",
])
def test_a_winner_named_by_a_column_header_is_ranked_within_its_row_not_read(sentence):
    # read down the beta column, 455 and 97 lose to Orin's 1,040; said of models, both are the board's best
    assert _sg107(sentence, BOARDS) == []


def test_a_column_of_models_still_has_its_own_peak():
    assert _sg107("beta peaks at 1,040 img/s.", BOARDS) == []
    assert _sg107("alpha peaks at 410 img/s.", BOARDS) == [
        "'alpha peaks at 410 img/s' names row 'Xavier' the largest 'alpha (img/s)' of 3 rows of the table at line 1, "
        "but row 'Orin' has 900"]


# two boards, two precisions, two batch sizes: int8 at batch 32 is each board's peak
GRID = """\
| board | precision | batch | throughput (img/s) |
|---|---|---:|---:|
| Orin | fp16 | 4 | 610 |
| Orin | fp16 | 32 | 1,330 |
| Orin | int8 | 4 | 980 |
| Orin | int8 | 32 | 2,270 |
| Xavier | fp16 | 4 | 300 |
| Xavier | fp16 | 32 | 640 |
| Xavier | int8 | 4 | 470 |
| Xavier | int8 | 32 | 1,090 |

"""


@pytest.mark.parametrize("sentence", [
    "fp16 peaks at 640 img/s on the Xavier.",  # boards and batches vary: the board the address names restricts
    "fp16 throughput peaks at 640 img/s on the Xavier (batch 32).",
    "Throughput peaks at 1,090 img/s (Xavier, int8, batch 32).",
    "Throughput peaks at 1,090 img/s for int8 on the Xavier.",
    "X-avier int8 throughput peaks at 1,090 img/s.",  # a label no reading names, letters and digits alone
])
def test_a_peaks_address_naming_no_sweep_point_restricts_its_rows(sentence):
    assert _sg107(sentence, GRID) == []


def test_a_peak_the_address_restricts_is_still_read_over_the_rest():
    # the Xavier's fp16 rows are batches 4 and 32: 300 is no peak of them
    assert _sg107("fp16 peaks at 300 img/s on the Xavier.", GRID) == [
        "'fp16 peaks at 300 img/s on the Xavier' names row 'Xavier / fp16 / 4' the largest 'throughput (img/s)' of 2 "
        "rows of the table at line 1, but row 'Xavier / fp16 / 32' has 640"]
    # the batch the address names is where the peak lies: the Xavier's int8 rows of every batch are ranked
    (message,) = _sg107("On the Xavier, int8 peaks at 470 img/s at batch 4.", GRID)
    assert "of 2 rows" in message and "row 'Xavier / int8 / 32' has 1,090" in message


@pytest.mark.parametrize("sentence", [
    "Ahead of the rewrite, k1 was the fastest at 12.4 ms.",  # a leading phrase judging the set
    "For memory-bound jobs, k1 is the fastest at 12.4 ms.",
    "In the pilot run, k1 was the fastest at 12.4 ms.",
    "k1 is the fastest at 12.4 ms once warm-up is counted.",  # a trailing qualifier
    "k1 is the fastest at 12.4 ms that compiles in one pass.",
    "k1 is the fastest at 12.4 ms, while using half the memory.",
    "k1 is the fastest at 12.4 ms and keeping its accuracy.",
])
def test_words_around_the_claim_that_restrict_or_judge_its_rows_leave_it_unread(sentence):
    assert _sg107(sentence, STEPS) == []


@pytest.mark.parametrize(("sentence", "claim"), [
    ("On the k-series, k1 is the fastest at 12.4 ms.", None),  # "k-series" is no label of the table
    ("Across every kernel, k1 is the fastest at 12.4 ms.", "Across every kernel, k1 is the fastest at 12.4 ms"),
    ("Overall, k1 is the fastest at 12.4 ms.", "Overall, k1 is the fastest at 12.4 ms"),
    ("k1 is the fastest at 12.4 ms step time.", "k1 is the fastest at 12.4 ms step time"),  # the header's words
    ("k1 is the fastest at 12.4 ms on a busy node, which surprised us.",
     "k1 is the fastest at 12.4 ms on a busy node, which surprised us"),
])
def test_plain_words_around_the_claim_keep_it_read(sentence, claim):
    assert _sg107(sentence, STEPS) == ([] if claim is None else [f"'{claim}' {K1_NOT_FASTEST}"])


# each variant's latency over fp32's (an "x" unit on a time): the smaller the faster
NORMALIZED = "| variant | normalized latency |\n|---|---:|\n| fp32 | 1.00x |\n| fp16 | 0.62x |\n| int8 | 0.41x |\n\n"


def test_a_ratio_of_times_is_better_smaller():
    assert _sg107("int8 is the fastest at 0.41x.", NORMALIZED) == []
    assert _sg107("fp32 is the slowest at 1.00x.", NORMALIZED) == []
    assert _sg107("fp16 is the fastest at 0.62x.", NORMALIZED) == [
        "'fp16 is the fastest at 0.62x' names row 'fp16' the smallest 'normalized latency' of 3 rows of the table at "
        "line 1, but row 'int8' has 0.41"]
    # a gain in time is a speedup: the larger the better
    gain = NORMALIZED.replace("normalized latency", "latency speedup")
    assert _sg107("int8 is the fastest at 0.41x.", gain) != [] and _sg107("fp32 is the fastest at 1.00x.", gain) == []


# GPUs as rows, metrics as columns headed by a unit alone or a serving metric's name: G2 leads on both
GPU_METRICS = "| GPU | tokens/s | TTFT (ms) |\n|---|---:|---:|\n| G1 | 2,310 | 95 |\n| G2 | 3,870 | 61 |\n| G3 | 1,640 | 120 |\n\n"


@pytest.mark.parametrize(("sentence", "message"), [
    # a header that is a unit alone ("tokens/s") or a metric's name ("TTFT (ms)") names no variant: the claim
    # ranks the column's rows, not the row's cells (both went unread)
    ("The G1 delivers the highest throughput at 2,310 tokens/s.",
     "'The G1 delivers the highest throughput at 2,310 tokens/s' names row 'G1' the largest 'tokens/s' of 3 rows "
     "of the table at line 1, but row 'G2' has 3,870"),
    ("The G1 has the lowest TTFT at 95 ms.",
     "'The G1 has the lowest TTFT at 95 ms' names row 'G1' the smallest 'TTFT (ms)' of 3 rows of the table at "
     "line 1, but row 'G2' has 61"),
    ("The G3 is the slowest at 120 ms.", None),
    ("The G2 delivers the highest throughput at 3,870 tokens/s.", None),
])
def test_best_of_across_gpu_rows_under_metric_columns(sentence, message):
    assert _sg107(sentence, GPU_METRICS) == ([message] if message else [])


# one variant column over GPUs, each GPU's job on its own TensorRT release, a batch sweep on one GPU: the P7
# runs batch 1 in 0.512 ms, the Q3 in 0.307 ms (a new user's trial: "The RTX 3080 is the fastest int8 GPU in this
# study at 0.2754 ms" passed over a faster RTX 2000 Ada row on another release, named without its vendor word)
GPU_RELEASES = """\
| GPU | TensorRT | Batch | int8 (ms) |
|---|---|---:|---:|
| Zephyr K7 | 9.2.1 | 1 | 0.512 |
| Zephyr K7 | 9.2.1 | 8 | 2.940 |
| Q3 | 8.4.7 | 1 | 0.307 |
| NVIDIA T9 | 9.0.2 | 1 | 0.655 |

"""


@pytest.mark.parametrize("sentence", [
    "The Zephyr K7 is the fastest int8 GPU at 0.512 ms.",  # the variant's header inside the superlative's phrase
    "The Zephyr K7 posts the lowest int8 time, 0.512 ms.",
    "The Zephyr K7 is the fastest GPU in this study at 0.512 ms.",  # a phrase naming the whole set
    "The Zephyr K7 gives the lowest int8 latency of all, 0.512 ms.",
])
def test_a_winner_ranks_every_gpu_whatever_release_each_ran(sentence):
    (message,) = _sg107(sentence, GPU_RELEASES)
    # the release varies with the GPU, the batch stays at the figure's: three rows, the Q3's beats it
    assert "names row 'Zephyr K7 / 9.2.1 / 1' the smallest 'int8 (ms)' of 3 rows" in message
    assert "row 'Q3 / 8.4.7 / 1' has 0.307" in message and "2.940" not in message


def test_a_gpu_named_without_its_vendor_word_is_its_row():
    (message,) = _sg107("The T9 is the fastest GPU at 0.655 ms.", GPU_RELEASES)
    assert "names row 'NVIDIA T9 / 9.0.2 / 1' the smallest 'int8 (ms)' of 3 rows" in message
    assert "row 'Q3 / 8.4.7 / 1' has 0.307" in message


@pytest.mark.parametrize("sentence", [
    "The Q3 is the fastest int8 GPU at 0.307 ms.",  # true
    "The Q3 is the fastest GPU in this study at 0.307 ms.",
    "The Zephyr K7 is the fastest int8 GPU at batch 8 at 2.940 ms.",  # the only batch-8 row
    "The Zephyr K7 is the fastest GPU in the datacenter at 0.512 ms.",  # a set no label names
    "The Zephyr K7 is the fastest int8 GPU of the Zephyr line at 0.512 ms.",
])
def test_near_misses_of_a_winner_over_gpus_stay_quiet(sentence):
    assert _sg107(sentence, GPU_RELEASES) == []


def test_a_release_column_that_differs_within_a_gpu_is_kept():
    # the K7 ran two releases: the release no longer follows from the GPU, so the claim keeps the figure's own
    two = GPU_RELEASES.replace("| Zephyr K7 | 9.2.1 | 8 | 2.940 |", "| Zephyr K7 | 9.3.0 | 1 | 0.498 |")
    assert _sg107("The Zephyr K7 is the fastest GPU at 0.512 ms.", two) == []


# ---- the cells printing a quoted figure, looked up by value at the quoted digits (session 26: a claim read every
# cell of its integer part, so 2,000 "the fastest engine is engineK at 10.xx ms" claims over 2,000 rows of 10.00 to
# 10.49 ms made 4 million comparisons)

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from studygen.lint.best_rows import _printed_as, _Reading  # noqa: E402
from studygen.lint.parse import parse_document  # noqa: E402

# a cell as printed: digits 0 to 4 after the point, some negative, some with their own unit, a few far out
_PRINTED = st.one_of(
    st.tuples(st.integers(min_value=-2000, max_value=200000), st.integers(min_value=0, max_value=4),
              st.sampled_from(["", " ms", " s"])).map(lambda t: f"{t[0] / 10 ** t[1]:.{t[1]}f}{t[2]}"),
    st.sampled_from(["1e300", "0.0", "-0.0", "12.245", "12.25", "0.005"]),
)


@given(cells=st.lists(_PRINTED, min_size=1, max_size=30), picks=st.lists(
    st.tuples(st.integers(min_value=0, max_value=29), st.integers(min_value=0, max_value=4)), min_size=1, max_size=8),
    others=st.lists(_PRINTED, max_size=3))
def test_the_cells_printing_a_figure_are_those_a_cell_by_cell_reading_finds(cells, picks, others):
    # the figures quoted: cells rounded to some digits, in ms (most print at least one cell), and a few of their own
    quoted = [f"{float(cells[i % len(cells)].split()[0]):.{digits}f} ms" for i, digits in picks] + others
    half = len(cells) // 2 + 1
    rows = "".join(f"| r{i} | {a} | {b} |\n" for i, (a, b) in enumerate(zip(cells[:half], cells[half:] + ["-"] * half)))
    text = "| Row | time (ms) | other (ms) |\n|---|---|---|\n" + rows + "\n| q |\n|---|\n" + "".join(
        f"| {q} |\n" for q in quoted)
    document = parse_document(text, "p.md")
    table, figures = document.tables[0], [f for s in document.tables[1].series for f in s.values if f is not None]
    reading = _Reading(document)
    for figure in figures:
        every_cell = {(series.column, row) for series in table.series for row, value in enumerate(series.values)
                      if value is not None and _printed_as(value, series.unit, figure)}
        found = {(series.column, row) for series, row in reading.printing(table, figure)}
        assert found == every_cell


def test_a_figure_quoted_to_fewer_digits_finds_the_cells_that_round_to_it():
    # 10.254, 10.2549 and 10.246 print 10.25 to two decimals; 10.2, printed to one, cannot print it
    text = "| Row | time (ms) |\n|---|---|\n| a | 10.254 |\n| b | 10.2549 |\n| c | 10.2 |\n| d | 10.246 |\n\nq 10.25 ms\n"
    document = parse_document(text, "p.md")
    table = document.tables[0]
    quoted = parse_document("| q |\n|---|\n| 10.25 ms |\n", "q.md").tables[0].series[0].values[0]
    rows = sorted(row for _, row in _Reading(document).printing(table, quoted))
    assert rows == [0, 1, 3]
