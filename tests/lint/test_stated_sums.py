"""SG103 and a sum of table rows stated in prose (studygen.lint.stated_sums).

A new user's README said two kernels "together" made a share of the kernel
time that their two share cells did not add up to, and that two kernels took
a time "between them" that their rows did not give; neither was read. Our own
profiles below: conv 38.2 % + matmul 29.5 % = 67.7 %; softmax 0.84 ms +
layernorm 0.57 ms = 1.41 ms; the memory table's weights 6.40 GB + KV cache
3.25 GB = 9.65 GB.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

SHARES = """# Encoder profile

| Kernel | Time (ms) | Share (%) |
|---|---:|---:|
| conv | 3.82 | 38.2 |
| matmul | 2.95 | 29.5 |
| softmax | 0.84 | 8.4 |
| layernorm | 0.57 | 5.7 |
| other | 1.82 | 18.2 |

{sentence}
"""

MEMORY = """# Memory at batch 16

| Part | Memory (GB) |
|---|---:|
| weights | 6.40 |
| KV cache | 3.25 |
| activations | 1.10 |

{sentence}
"""

# variants as columns: the first column names quantities
COLUMNS = """# Stage timings

| Metric | tokenize | prefill | decode | detokenize |
|---|---:|---:|---:|---:|
| Time (ms) | 0.6 | 14.2 | 31.5 | 0.4 |

{sentence}
"""

# a combined configuration as a row: "fusion and graphs together" may name it
COMBINED = """# Optimisations

| Variant | Latency (ms) |
|---|---:|
| baseline | 2.40 |
| fusion | 1.90 |
| graphs | 1.75 |
| fusion + graphs | 1.30 |

{sentence}
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_share_sum_the_rows_do_not_give_is_reported():
    assert _sg103(SHARES.format(sentence="Conv and matmul together are 80% of the kernel time.")) == [
        (11, "80% is not the sum of the 'conv', 'matmul' rows of 'Share (%)' in the table at line 3: "
             "38.2% + 29.5% = 67.7%")]


@pytest.mark.parametrize("sentence", [
    "Conv is slow; matmul and softmax are 40% together.",  # the clause after ';' names its own rows
    "Conv and matmul together are 40% of the kernel time, 1.2 ms more than last week.",  # the comma ends the sum's clause
])
def test_sum_in_a_clause_of_its_own_is_reported(sentence):
    found = _sg103(SHARES.format(sentence=sentence))
    assert [(line, message.split(" in the table")[0]) for line, message in found] == [(11, (
        "40% is not the sum of the 'matmul', 'softmax' rows of 'Share (%)'" if "softmax" in sentence
        else "40% is not the sum of the 'conv', 'matmul' rows of 'Share (%)'"))]


def test_time_sum_between_them_is_reported():
    assert _sg103(SHARES.format(sentence="Softmax and layernorm take 1.9 ms between them.")) == [
        (11, "1.9 ms is not the sum of the 'softmax', 'layernorm' rows of 'Time (ms)' in the table at line 3: "
             "0.84 ms + 0.57 ms = 1.41 ms")]


def test_three_rows_in_a_list_are_summed():
    assert _sg103(SHARES.format(sentence="Softmax, layernorm and conv combined take 6.0 ms.")) == [
        (11, "6.0 ms is not the sum of the 'softmax', 'layernorm', 'conv' rows of 'Time (ms)' in the table at "
             "line 3: 0.84 ms + 0.57 ms + 3.82 ms = 5.23 ms")]


def test_size_sum_is_reported():
    assert _sg103(MEMORY.format(sentence="The weights and the KV cache together use 11.2 GB.")) == [
        (9, "11.2 GB is not the sum of the 'weights', 'KV cache' rows of 'Memory (GB)' in the table at line 3: "
            "6.40 GB + 3.25 GB = 9.65 GB")]


def test_columns_as_rows_are_summed():
    assert _sg103(COLUMNS.format(sentence="Prefill and decode add up to 52.1 ms.")) == [
        (7, "52.1 ms is not the sum of the 'prefill', 'decode' rows of 'Time (ms)' in the table at line 3: "
            "14.2 ms + 31.5 ms = 45.7 ms")]


@pytest.mark.parametrize("text", [
    SHARES.format(sentence="Conv and matmul together are 67.7% of the kernel time."),
    SHARES.format(sentence="Conv and matmul together are 68% of the kernel time."),
    SHARES.format(sentence="Conv and matmul together are 67% of the kernel time."),  # truncated
    SHARES.format(sentence="Softmax and layernorm take 1.41 ms between them."),
    SHARES.format(sentence="Softmax and layernorm take 1.4 ms between them."),
    SHARES.format(sentence="Softmax, layernorm and conv combined take 5.23 ms."),
    MEMORY.format(sentence="The weights and the KV cache together use 9.65 GB."),
    COLUMNS.format(sentence="Prefill and decode add up to 45.7 ms."),
])
def test_sum_the_rows_give_is_quiet(text):
    assert _sg103(text) == []


@pytest.mark.parametrize("text", [
    SHARES.format(sentence="Conv and matmul together are about 80% of the kernel time."),  # hedged
    SHARES.format(sentence="Conv and matmul together are over 80% of the kernel time."),  # a bound
    SHARES.format(sentence="Fusing conv and matmul together cut the kernel time by 20%."),  # a change
    SHARES.format(sentence="Conv and matmul together are faster than 9 ms."),  # a comparison
    SHARES.format(sentence="Conv beats matmul, and together they take 9 ms."),  # names not a list
    COMBINED.format(sentence="Fusion and graphs together reach 1.30 ms."),  # the combined row
    COMBINED.format(sentence="Fusion and graphs together reach 3.0 ms."),  # a table with a joined row is not read
    MEMORY.format(sentence="Weights and KV cache together stay below 12 GB."),  # a bound
    MEMORY.format(sentence="Weights and activations together take fewer than 9 GB."),
    SHARES.format(sentence="Softmax and layernorm together stay within 5 ms."),
    SHARES.format(sentence="Conv and matmul run together in 5 streams."),  # no unit the column holds
    SHARES.format(sentence="Conv and matmul show a 9% gap between them."),  # a difference, not a sum
    SHARES.format(sentence="Conv and matmul differ by 9% between them."),
])
def test_what_is_not_a_stated_sum_is_quiet(text):
    assert _sg103(text) == []


def test_time_no_larger_than_a_part_is_not_read_as_a_sum():
    # "conv and matmul together reach 3.5 ms" states a combined run, below conv's own 3.82 ms
    assert _sg103(SHARES.format(sentence="Conv and matmul together reach 3.5 ms.")) == []


def test_ratio_and_difference_columns_are_not_summed():
    table = """| Kernel | Speedup (%) | Saving (%) |
|---|---:|---:|
| conv | 12.0 | 10.0 |
| matmul | 8.0 | 7.0 |
| softmax | 3.0 | 2.0 |

Conv and matmul together are 30% faster.
Conv and matmul together give 30%.
"""
    assert _sg103(table) == []


GROUPS = """# Decoder step

| Kernel | Time (ms) |
|---|---:|
| attention prefill | 1.35 |
| attention decode | 0.92 |
| gemm | 4.10 |
| sampling | 0.30 |

{sentence}
"""


def test_rows_named_by_a_count_and_a_shared_word_are_summed():
    assert _sg103(GROUPS.format(sentence="The two attention kernels take 2.9 ms between them.")) == [
        (10, "2.9 ms is not the sum of the 'attention prefill', 'attention decode' rows of 'Time (ms)' in the table "
             "at line 3: 1.35 ms + 0.92 ms = 2.27 ms")]


@pytest.mark.parametrize("sentence", [
    "The two attention kernels take 2.27 ms between them.",
    "Both attention kernels together take 2.3 ms.",
    "The three attention kernels take 2.9 ms between them.",  # two labels hold the word, not three
    "The two gemm kernels take 9.0 ms between them.",  # one label holds it
])
def test_counted_rows_the_table_gives_or_cannot_name_are_quiet(sentence):
    assert _sg103(GROUPS.format(sentence=sentence)) == []


def test_percent_columns_that_do_not_add_are_not_summed():
    # utilisation of each kernel: 41 + 33 = 74, but no whole is shared between them; the rows sum to 93
    table = """| Kernel | SM util (%) |
|---|---:|
| conv | 41.0 |
| matmul | 33.0 |
| softmax | 19.0 |

Conv and matmul together reach 80%.
"""
    assert _sg103(table) == []


@pytest.mark.parametrize("header", ["Share", "% of total", "Time (%)", "Kernel time (%)", "GPU time share", "%"])
def test_share_headers_are_summed(header):
    table = f"""| Kernel | {header} |
|---|---:|
| conv | 41.0% |
| matmul | 33.0% |
| softmax | 19.0% |

Conv and matmul together are 80%.
"""
    assert [message.split(" in the table")[0] for _, message in _sg103(table)] == [
        f"80% is not the sum of the 'conv', 'matmul' rows of '{header}'"]
