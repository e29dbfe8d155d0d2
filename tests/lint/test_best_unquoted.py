"""SG107 best-of claims without a figure (studygen/lint/best_unquoted.py): "int8 is the fastest", "the H100
gives the highest throughput", "GEMM dominates the kernel time", read against the one table they can speak
of. Documents and figures of our own."""

from __future__ import annotations


import pytest

from studygen.lint import lint_text

from .own_calls import own_calls

# three serving engines, one label column: "mx" is the fastest on both quantities, "qr" the slowest
ENGINES = """\
| engine | latency (ms) | throughput (tok/s) |
|---|---:|---:|
| kx | 12.0 | 900 |
| mx | 10.5 | 1,050 |
| qr | 14.1 | 780 |

"""
# GPUs as rows, metrics as columns: the G2 leads on throughput and TTFT
GPUS = """\
| GPU | tokens/s | TTFT (ms) |
|---|---:|---:|
| G1 | 2,310 | 95 |
| G2 | 3,870 | 61 |
| G3 | 1,640 | 120 |

"""
# variants as columns, one row per GPU, a ratio column: int8 is the fastest on every row, fp32 the slowest
VARIANTS = """\
| GPU | fp32 (ms) | fp16 (ms) | int8 (ms) | fp32/int8 |
|---|---:|---:|---:|---:|
| T4 | 9.80 | 4.10 | 2.95 | 3.32x |
| A10 | 5.20 | 2.30 | 1.70 | 3.06x |
| L4 | 4.40 | 1.90 | 1.35 | 3.26x |

"""
# kernel groups of two precisions, a total and an "other" row: Conv holds the most time in both
KERNELS = """\
| kernel group | tf32 time (ms) | tf32 share | fp16 time (ms) | fp16 share |
|---|---:|---:|---:|---:|
| GEMM/MatMul | 41.2 | 31.0% | 18.3 | 24.4% |
| Conv | 58.7 | 44.2% | 30.1 | 40.1% |
| Elementwise | 20.4 | 15.4% | 17.9 | 23.9% |
| Other | 12.5 | 9.4% | 8.7 | 11.6% |
| Total | 132.8 | 100.0% | 75.0 | 100.0% |

"""
# variants as the rows of a long table, two batches: int8 is the fastest at batch 1, fp16 at batch 8
LONG = """\
| batch | precision | latency (ms) |
|---:|---|---:|
| 1 | fp16 | 3.40 |
| 1 | int8 | 2.80 |
| 8 | fp16 | 11.9 |
| 8 | int8 | 12.6 |

"""


def _sg107(sentence: str, table: str) -> list[str]:
    return [f.message for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG107"]


def test_a_row_claim_contradicted_on_every_quantity_of_speed():
    assert _sg107("kx is the fastest engine.", ENGINES) == [
        "'kx is the fastest engine' is contradicted by the table at line 1: 'mx' is faster than it in each of "
        "the 2 comparisons the table makes of the two: 'latency (ms)': row 'kx' has 12.0, row 'mx' 10.5; "
        "'throughput (tok/s)': row 'kx' has 900, row 'mx' 1,050"]


@pytest.mark.parametrize(("sentence", "rival"), [
    ("kx gives the highest throughput.", "'mx' is higher than it in the one comparison"),
    ("qr has the lowest latency.", "'mx' is lower than it in the one comparison"),
    ("mx is the slowest engine.", "'qr' is slower than it in each of the 2 comparisons"),
    ("kx has the best throughput.", "'mx' is better than it"),
    ("mx has the worst latency.", "'qr' is worse than it"),
])
def test_the_word_and_the_quantity_say_which_way_the_rows_go(sentence, rival):
    (message,) = _sg107(sentence, ENGINES)
    assert rival in message


@pytest.mark.parametrize("sentence", [
    "mx is the fastest engine.",  # true on both quantities
    "mx gives the highest throughput.",
    "qr has the highest latency.",  # the largest time, as said
    "qr is the slowest engine.",
])
def test_true_claims_pass(sentence):
    assert _sg107(sentence, ENGINES) == []


@pytest.mark.parametrize("sentence", [
    "kx is usually the fastest engine.",  # hedged
    "kx is often the fastest engine.",
    "In most cases kx is the fastest engine.",  # words no label resolves
    "kx is the fastest engine for small prompts.",
    "According to the vendor, kx is the fastest engine.",  # another source
    "kx is claimed to be the fastest engine.",
    "kx is not the fastest engine.",  # denied
    "kx can be the fastest engine.",
    "kx would be the fastest engine if tuned.",
    "kx is the fastest engine in 3 of 4 runs.",  # a number no label holds
    "kx is the fastest engine, faster than qr.",  # a comparison of its own
    "kx has the smallest memory footprint.",  # a quantity the table does not hold
    "kx is the best.",  # "best" naming no quantity
    "kx is the largest.",
    "kx is one of the fastest engines.",
    "Among kx and qr, kx is the fastest engine.",  # a restricted set
])
def test_hedged_restricted_sourced_or_other_claims_are_not_read(sentence):
    assert _sg107(sentence, ENGINES) == []


@pytest.mark.parametrize(("sentence", "rival"), [
    ("The fastest engine is kx.", "'mx' is faster than it in each of the 2 comparisons"),
    ("The highest throughput comes from qr.", "'mx' is higher than it in the one comparison"),
    ("The lowest latency is qr's.", "'mx' is lower than it in the one comparison"),
    ("Overall, the slowest engine is mx.", "'qr' is slower than it in each of the 2 comparisons"),
    ("The fastest engine is mx.", None),
    ("The lowest latency is mx's.", None),
    ("The fastest engine is kx for short prompts.", None),  # a restriction no label resolves
    ("The fastest engine is kx or mx.", None),
    ("The fastest engine is not kx.", None),
    ("The fastest engine tested by the vendor is kx.", None),
])
def test_the_subject_after_the_verb(sentence, rival):
    found = _sg107(sentence, ENGINES)
    assert (rival in found[0]) if rival else found == []
    assert len(found) == (1 if rival else 0)


def test_a_claim_quoting_its_figure_is_left_to_best_rows():
    (message,) = _sg107("kx is the fastest engine at 12.0 ms.", ENGINES)
    assert message.startswith("'kx is the fastest engine at 12.0 ms' names row 'kx' the smallest")


def test_gpu_rows_and_metric_columns():
    (message,) = _sg107("The G1 gives the highest throughput.", GPUS)
    assert message == ("'The G1 gives the highest throughput' is contradicted by the table at line 1: 'G2' is "
                       "higher than it in the one comparison the table makes of the two: 'tokens/s': row 'G1' has "
                       "2,310, row 'G2' 3,870")
    (message,) = _sg107("The G3 has the lowest TTFT.", GPUS)  # a serving metric's name is its quantity
    assert "'G2' is lower than it" in message and "'TTFT (ms)': row 'G3' has 120, row 'G2' 61" in message
    assert _sg107("The G2 is the fastest GPU.", GPUS) == []
    assert _sg107("The G2 gives the highest throughput.", GPUS) == []
    assert _sg107("The G1 is the fastest GPU at batch 1.", GPUS) == []  # a batch the table does not label


def test_variants_as_columns_are_ranked_within_each_row():
    assert _sg107("fp16 is the fastest.", VARIANTS) == [
        "'fp16 is the fastest' is contradicted by the table at line 1: 'int8 (ms)' is faster than 'fp16 (ms)' in "
        "each of the 3 rows both fill: row 'T4' has 4.10 against 2.95; row 'A10' has 2.30 against 1.70; "
        "row 'L4' has 1.90 against 1.35"]
    (message,) = _sg107("On the T4, fp16 is the fastest.", VARIANTS)  # a row the clause names
    assert "in the one row both fill: row 'T4' has 4.10 against 2.95" in message
    (message,) = _sg107("int8 is the slowest.", VARIANTS)
    assert "'fp32 (ms)' is slower than 'int8 (ms)' in each of the 3 rows" in message
    assert _sg107("int8 is the fastest.", VARIANTS) == []
    assert _sg107("fp32 is the slowest.", VARIANTS) == []  # (the ratio column is no peer)


def test_dominance_over_a_kernel_share_table():
    (message,) = _sg107("GEMM/MatMul dominates the tf32 profile.", KERNELS)
    # the tf32 columns only: "tf32" is a header word some of the time columns hold
    assert message == (
        "'GEMM/MatMul dominates the tf32 profile' is contradicted by the table at line 1: 'Conv' is larger than "
        "it in each of the 2 comparisons the table makes of the two: 'tf32 time (ms)': row 'GEMM/MatMul' has 41.2, "
        "row 'Conv' 58.7; 'tf32 share': row 'GEMM/MatMul' has 31.0, row 'Conv' 44.2")
    (message,) = _sg107("GEMM/MatMul takes the bulk of the kernel time.", KERNELS)
    assert "each of the 4 comparisons" in message
    (message,) = _sg107("Elementwise has the largest share of the fp16 time.", KERNELS)
    assert "'fp16 share': row 'Elementwise' has 23.9, row 'Conv' 40.1" in message
    # true claims; the total row (and an "other" row) is never a rival
    assert _sg107("Conv dominates the tf32 profile.", KERNELS) == []
    assert _sg107("Conv accounts for most of the GPU time.", KERNELS) == []
    # "most of the time" as "usually" is no dominance
    assert _sg107("GEMM/MatMul is faster most of the time.", KERNELS) == []


def test_a_rival_ahead_in_some_groups_only_is_no_contradiction():
    # int8 wins at batch 1 and loses at batch 8: "fastest" may mean either
    assert _sg107("fp16 is the fastest precision.", LONG) == []
    assert _sg107("int8 is the fastest precision.", LONG) == []
    # the batch the clause names keeps its rows
    (message,) = _sg107("At batch 1, fp16 is the fastest precision.", LONG)
    assert "'int8' is faster than it in the one comparison" in message
    assert _sg107("At batch 8, fp16 is the fastest precision.", LONG) == []


def test_a_tie_within_the_digits_is_no_contradiction():
    table = "| engine | latency (ms) |\n|---|---:|\n| a | 10.5 |\n| b | 10.50 |\n| c | 13.0 |\n\n"
    assert _sg107("a is the fastest engine.", table) == []
    assert _sg107("b is the fastest engine.", table) == []
    (message,) = _sg107("c is the fastest engine.", table)
    assert "faster than it" in message


def test_two_tables_that_could_back_it_leave_it_unread_unless_one_is_in_its_section():
    other = ENGINES.replace("| kx | 12.0 | 900 |", "| kx | 9.0 | 1,200 |")
    assert _sg107("kx is the fastest engine.", ENGINES + other) == []
    document = f"# A\n\n{ENGINES}# B\n\n{other}"
    assert _sg107("kx is the fastest engine.", document) == []  # section B: kx's 9.0 leads there
    assert len(_sg107("kx is the fastest engine.", f"# B\n\n{other}# A\n\n{ENGINES}")) == 1


def test_the_subject_after_a_comma_and_a_restriction_before_it():
    (message,) = _sg107("On the A10, fp32 is the fastest.", VARIANTS)
    # fp16 and int8 both beat it: the first of the peers is named
    assert "'fp16 (ms)' is faster than 'fp32 (ms)' in the one row both fill: row 'A10' has 5.20 against 2.30" in message


def _claims_over_a_long_table(count: int) -> str:
    """A table of ``count`` kernels and one claim a kernel, each naming a kernel two rows below the fastest."""
    rows = "".join(f"| k{i} | {10 + i / 100:.2f} |\n" for i in range(count))
    body = "\n\n".join(f"k{i} is the fastest kernel." for i in range(0, count, 2))
    return "| kernel | time (ms) |\n|---|---:|\n" + rows + "\n" + body + "\n"


def test_many_claims_over_a_long_table_stay_linear():
    # each claim ranks its kernel against the table's leaders, read once, not against every row
    findings = [f for f in lint_text(_claims_over_a_long_table(40), "t.md") if f.code == "SG107"]
    assert len(findings) == 19  # every claim but k0's
    assert own_calls(_claims_over_a_long_table(800)) / own_calls(_claims_over_a_long_table(400)) < 2.5


@pytest.mark.parametrize("sentence", [
    "The G1 has the lowest latency per token.",  # "per token": another quantity than the TTFT column's
    "The G1 has the lowest latency.",  # a generic latency over a column of one serving metric
    "The G1 gives the highest throughput per watt.",
    "The G1 is the fastest GPU per dollar.",
])
def test_a_quantity_other_than_the_columns_is_not_read(sentence):
    assert _sg107(sentence, GPUS) == []


def test_a_claim_naming_a_metric_reads_that_metrics_column_only():
    table = ("| engine | TTFT (ms) | TPOT (ms) |\n|---|---:|---:|\n| a | 80 | 30.5 |\n| b | 95 | 21.0 |\n"
             "| c | 110 | 25.2 |\n\n")
    assert _sg107("b has the lowest TTFT.", table)[0].endswith("'TTFT (ms)': row 'b' has 95, row 'a' 80")
    assert _sg107("b has the lowest TPOT.", table) == []
    assert _sg107("a has the lowest TTFT.", table) == []
    assert _sg107("b is the fastest engine.", table) == []  # a leads on TTFT, b on TPOT: no one rival


@pytest.mark.parametrize("sentence", [
    "kx dominates on latency.",  # it wins: a time that wins is the smallest, not the bulk
    "mx dominates at every latency.",
    "kx dominates.",
    "kx takes most of the memory.",
])
def test_dominance_that_names_no_share_of_time_is_not_read(sentence):
    assert _sg107(sentence, ENGINES) == []


def test_a_lead_in_before_a_colon():
    (message,) = _sg107("Conclusion: kx is the fastest engine.", ENGINES)
    assert message.startswith("'kx is the fastest engine' is contradicted by the table at line 1: 'mx'")
    assert _sg107("Vendor claim: kx is the fastest engine.", ENGINES) == []
    assert _sg107("Expected: kx is the fastest engine.", ENGINES) == []


# a post of our own: engines, GPUs and batches as label columns, a kernel table with a share column
POST = '''\
# Serving benchmark

We compare three engines on two GPUs. Our earlier post found that Lumen is the fastest engine; this post revisits that.

## Setup

Each engine serves the same 8B model. Lumen is the newest engine. The H200 has the largest memory.

## Throughput

| GPU | engine | batch | throughput (tok/s) | p50 latency (ms) |
|---|---|---:|---:|---:|
| H100 | Lumen | 1 | 142 | 7.1 |
| H100 | Strata | 1 | 155 | 6.4 |
| H100 | Quill | 1 | 131 | 7.6 |
| H100 | Lumen | 32 | 3,020 | 10.6 |
| H100 | Strata | 32 | 2,880 | 11.1 |
| H100 | Quill | 32 | 2,410 | 13.3 |
| H200 | Lumen | 1 | 160 | 6.2 |
| H200 | Strata | 1 | 171 | 5.8 |
| H200 | Quill | 1 | 150 | 6.6 |
| H200 | Lumen | 32 | 3,510 | 9.1 |
| H200 | Strata | 32 | 3,300 | 9.7 |
| H200 | Quill | 32 | 2,790 | 11.5 |

Strata is the fastest engine at batch 1. Lumen is the fastest engine at batch 32. Quill is the slowest engine. The H200 gives the highest throughput. Strata gives the highest throughput. Lumen is the fastest engine in the large-batch regime. Quill has the highest p50 latency.

At batch 1, Lumen is the fastest engine. On the H200, Quill gives the highest throughput.

## Kernel breakdown (H100, batch 32)

| kernel | Lumen (ms) | Strata (ms) | share of Lumen time |
|---|---:|---:|---:|
| attention | 4.1 | 4.4 | 38.7% |
| GEMM | 5.0 | 5.2 | 47.2% |
| sampling | 0.9 | 0.8 | 8.5% |
| other | 0.6 | 0.7 | 5.7% |

GEMM dominates the Lumen time. Attention takes the bulk of the Lumen time. Sampling is the smallest. Strata is the slowest at attention.
'''


def test_a_post_of_true_and_false_figure_less_claims():
    # true: Strata at batch 1, Lumen at batch 32, Quill the slowest, the H200 ahead of the H100 in every group,
    # GEMM the bulk of Lumen's time, Strata the slowest at attention; unread: "Strata gives the highest
    # throughput" (it wins batch 1 only), "in the large-batch regime", "Our earlier post found that ..."
    found = [(f.line, f.message.split(" is contradicted")[0], f.message.split(": ", 1)[1].split(" than it")[0])
             for f in lint_text(POST, "t.md") if f.code == "SG107"]
    assert found == [
        (28, "'At batch 1, Lumen is the fastest engine'", "'Strata' is faster"),
        (28, "'On the H200, Quill gives the highest throughput'", "'Strata' is higher"),
        (39, "'Attention takes the bulk of the Lumen time'", "'GEMM' is larger"),
    ]


@pytest.mark.parametrize("bound", ["Roofline", "Ideal", "Theoretical peak", "All others", "Other kernels"])
def test_a_row_that_bounds_or_pools_the_others_is_no_rival(bound):
    table = f"| engine | latency (ms) |\n|---|---:|\n| kx | 12.0 |\n| mx | 13.5 |\n| {bound} | 8.0 |\n\n"
    assert _sg107("kx is the fastest engine.", table) == []
    (message,) = _sg107("mx is the fastest engine.", table)
    assert "'kx' is faster than it" in message


def test_a_column_that_bounds_the_others_is_no_peer():
    table = "| GPU | fp16 (ms) | int8 (ms) | ideal (ms) |\n|---|---:|---:|---:|\n| T4 | 4.10 | 2.95 | 1.20 |\n\n"
    assert _sg107("int8 is the fastest.", table) == []


def _sections_each_with_a_claim(count: int) -> str:
    """``count`` sections, each a table of two engines and a claim its table contradicts."""
    return "".join(f"## S{i}\n\n| engine | latency (ms) |\n|---|---:|\n| a{i} | 12.0 |\n| b{i} | 10.0 |\n\n"
                   f"a{i} is the fastest engine.\n\n" for i in range(count))


def test_many_tables_each_with_a_claim_stay_linear():
    # each claim reads its 64 nearest tables, found by bisection (sorting every table for each claim grew 2.7x)
    assert len([f for f in lint_text(_sections_each_with_a_claim(100), "t.md") if f.code == "SG107"]) == 100
    assert own_calls(_sections_each_with_a_claim(800)) / own_calls(_sections_each_with_a_claim(400)) < 2.3


# engines where the fastest (q8) fails a quality bar the prose sets: claims about "the fastest that passes" are
# restricted by words no label resolves
GATED = """\
| engine | prompt | ttft_p50_ms | decode_tps | perplexity |
|---|---:|---:|---:|---:|
| eager | 128 | 410.2 | 15.1 | 21.30 |
| graph | 128 | 350.7 | 18.4 | 21.30 |
| q8 | 128 | 160.3 | 39.8 | 30.75 |

"""


@pytest.mark.parametrize("sentence", [
    "graph is the fastest engine that passes the quality gate.",
    "graph is the fastest engine with full accuracy.",
    "graph is the fastest engine at equal perplexity.",
    "It is the fastest engine.",  # a pronoun: no label
    "graph is the fastest engine, once quality is weighed.",
])
def test_a_claim_restricted_by_a_condition_in_words_is_not_read(sentence):
    assert _sg107(sentence, GATED) == []


def test_the_same_table_read_without_a_condition():
    (message,) = _sg107("graph is the fastest engine.", GATED)
    assert "'q8' is faster than it in the one comparison" in message and "'ttft_p50_ms'" in message
    assert _sg107("graph has the lowest perplexity.", GATED) == []  # a tie with eager as printed
    (message,) = _sg107("q8 has the lowest perplexity.", GATED)
    assert "'eager' is lower than it" in message


def test_a_tie_of_whole_cells_is_no_rival_beating_the_subject():
    # attack 24: 'a' and 'b' both at 2 ms (whole cells of a few units are exact, so each reached the other's end)
    # were reported as 'b' faster than 'a', and 'a' slower than 'b'; 'c' at 3 ms still beats 'b' to the slowest
    page = ("| Engine | Latency (ms) |\n|---|---|\n| a | 2 |\n| b | 2 |\n| c | 3 |\n\n"
            "a is the fastest engine. b is the fastest engine. b is the slowest engine.\n")
    messages = [f.message for f in lint_text(page, "p.md") if f.code == "SG107"]
    assert messages == ["'b is the slowest engine' is contradicted by the table at line 1: 'c' is slower than it in "
                        "the one comparison the table makes of the two: 'Latency (ms)': row 'b' has 2, row 'c' 3"]
    zeros = "| Engine | Latency (ms) |\n|---|---|\n| a | 0 |\n| b | 0 |\n\na is the fastest engine.\n"
    assert [f for f in lint_text(zeros, "z.md") if f.code == "SG107"] == []


def test_a_spread_row_under_the_runs_is_no_rival():
    # attack 24: 'r1 is the fastest run' was contradicted by a Std row's 0.3 ms (the runs' spread, not a run)
    table = "| Run | Latency (ms) |\n|---|---|\n| r1 | 4.0 |\n| r2 | 4.4 |\n| Std | 0.3 |\n\n"
    assert [f for f in lint_text(table + "r1 is the fastest run.\n", "p.md") if f.code == "SG107"] == []
    assert len([f for f in lint_text(table + "r2 is the fastest run.\n", "p.md") if f.code == "SG107"]) == 1
