"""studygen.lint.prose_tables: a share stated as a reduction, and a prose ratio
against two named columns (SG103). Documents of our own; every expected
figure worked out by hand next to its assertion."""

from __future__ import annotations

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.prose_tables import RATIO_HINT, SHARE_HINT, ratio_findings, share_findings


def sg103(text: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.message, f.hint) for f in lint_text(text, "doc.md") if f.code == "SG103"]


SHARES = """# Footprint

We ran 3 seeds of each recipe.

| Model | Variant | KV bytes (% of FP16) | Step time (% of baseline) |
|---|---|---:|---:|
| Alpha | INT8 | 51% | 88% |
| Alpha | INT4 | 27% | 45% |
| Beta | INT4 | 30% | 41% |

After 3 tries, for Alpha with INT4
the 27% KV bytes reduction is what we ship.

For Beta with INT4 the 41% step time reduction holds.
"""


def test_a_share_column_repeated_as_a_reduction_is_reported_with_the_reduction_it_gives():
    found = share_findings(parse_document(SHARES, "doc.md"))
    # "27%" sits on the paragraph's second line (line 12); 100 - 27 = 73
    assert found[0] == (
        12,
        "27% is stated as a reduction of 'KV bytes', but 'KV bytes (% of FP16)' of row 'Alpha / INT4' (line 8) "
        "gives it at 27% of FP16: a share of 27% is a reduction of 73%",
        SHARE_HINT,
    )
    # the second share column is found after the first one is passed over (quantity "step time", not "KV bytes");
    # its reference ("% of baseline") is a word of its own header
    assert found[1][0] == 14
    assert "'Step time (% of baseline)' of row 'Beta / INT4' (line 9) gives it at 41% of baseline" in found[1][1]
    assert "a reduction of 59%" in found[1][1]
    assert len(found) == 2
    assert SHARE_HINT.startswith("state the share") and "(100 - P%)" in SHARE_HINT


def test_a_reduction_of_another_quantity_or_one_a_named_row_also_holds_is_not_a_share():
    text = SHARES.replace("the 27% KV bytes reduction", "the 27% memory reduction")
    assert all("memory" not in message for _, message, _ in share_findings(parse_document(text, "doc.md")))
    # Alpha's rows hold 51% and 27%; a 49% reduction (100 - 51) in the same rows makes 51% ambiguous
    both = SHARES.replace("| Alpha | INT4 | 27% | 45% |", "| Alpha | INT4 | 49% | 45% |").replace(
        "the 27% KV bytes reduction", "the 51% KV bytes reduction").replace("for Alpha with INT4", "for Alpha")
    assert [line for line, _, _ in share_findings(parse_document(both, "doc.md"))] == [14]


def test_a_saving_column_and_a_hedged_or_whole_reduction_are_not_shares():
    saving = """| Model | Memory saving (% of FP16) |
|---|---:|
| Alpha | 30% |
| Beta | 35% |

For Alpha the 30% memory saving holds.

| Model | Weights (% of FP16) |
|---|---:|
| Gamma | 100% |
| Delta | 25% |

For Gamma the 100% weights reduction is impossible; for Delta about 25% weights reduction is the estimate.
"""
    assert share_findings(parse_document(saving, "doc.md")) == []


PROSE = """# Step time

On 4 GPUs the fused kernel's step time is at 61% of FP16.

Only 2 runs: fusing the epilogue reduces the step time by 61%.

Its launch time is at 51% of `BF16`, and its queue time is at 50% of BF16.

Elsewhere the 51% launch time reduction and the 50% queue time reduction look good.

The bandwidth stays at 64% of peak, and the 64% bandwidth reduction is another matter.
"""


def test_a_prose_share_repeated_as_a_reduction_in_other_words():
    found = share_findings(parse_document(PROSE, "doc.md"))
    # "reduces the step time by 61%" (line 5) repeats "at 61% of FP16" (line 3): 100 - 61 = 39
    assert found[0] == (
        5, "61% is stated as a reduction of 'the step time', but line 3 gives it at 61% of FP16: a share of 61% is a "
           "reduction of 39%", SHARE_HINT)
    # 51% of `BF16` (markup stripped) is flagged, 50% is not (a 50% share is a 50% reduction), "of peak" is no variant
    assert found[1][0] == 9 and "at 51% of BF16: a share of 51% is a reduction of 49%" in found[1][1]
    assert len(found) == 2


def test_a_small_share_is_still_a_share():
    text = "The sync time is at 0.8% of FP16.\n\nSo the 0.8% sync time reduction is a misreading.\n"
    assert [(line, "99.2%" in message) for line, message, _ in share_findings(parse_document(text, "d.md"))] == [(3, True)]


RATIOS = """# Decode step, ms (ratio vs fp16 in parens)

| batch | fp16 | int8 | int8+sq |
|---:|---:|---:|---:|
| 1 | 10.40 | 8.10 (1.28x) | 7.95 (1.31x) |
| 8 | 21.60 | 15.20 (1.42x) | 14.10 (1.53x) |
| 32 | 70.50 | 44.30 (1.59x) | 40.10 (1.76x) |

Over 3 seeds the picture holds; at batch 32
`int8+sq` reaches 1.85x vs fp16.

At batch 8, int8 runs 1.40-1.52x faster than fp16 and 1.52x faster than fp16 at peak.
"""


def test_a_ratio_no_table_gives_is_reported_with_the_nearest_readings():
    found = ratio_findings(parse_document(RATIOS, "doc.md"))
    # 70.50 / 40.10 = 1.758, printed 1.76x in the cell: neither is 1.85x; the figure is on line 10
    assert found[0] == (
        10, "1.85x vs fp16 does not follow from the table at line 3: at row '32', 'int8+sq' prints 1.76x; "
            "70.50 / 40.10 = 1.758x", RATIO_HINT)
    # the range "1.40-1.52x" is SG101's; the single 1.52x at batch 8 (21.60 / 15.20 = 1.421) is reported
    assert found[1][0] == 12 and found[1][1].startswith("1.52x vs fp16 does not follow from the table at line 3: at row '8'")
    assert len(found) == 2
    assert RATIO_HINT.startswith("recompute the ratio")


TWO_TABLES = """# GPU-A, ms

| batch | eager | fused |
|---:|---:|---:|
| 4 | 12.20 | 9.40 |
| 16 | 40.80 | 29.70 |

# GPU-B, ms

| batch | eager | fused |
|---:|---:|---:|
| 4 | 9.90 | 7.10 |
| 16 | 33.00 | 21.20 |

At batch 16 fused is 1.56x faster than eager.

At batch 16 fused is 1.90x faster than eager.

At batch 16, fused is ~1.90x faster than eager, not 2.50x faster than eager.
"""


def test_a_ratio_one_table_gives_is_clear_and_one_none_gives_names_the_tables_checked():
    found = ratio_findings(parse_document(TWO_TABLES, "doc.md"))
    # 33.00 / 21.20 = 1.557 (GPU-B) clears 1.56x; 1.90x fits neither 40.80 / 29.70 = 1.374 nor 1.557.
    # The nearest table is GPU-B (line 10, the one right above); its two readings nearest 1.90x come first.
    assert found == [(
        17, "1.90x vs eager does not follow from the table at line 10: at row '16', 33.00 / 21.20 = 1.557x "
            "(1.556x to 1.557x within the printed digits); 21.20 / 33.00 = 0.642x (0.642x to 0.643x within the printed "
            "digits) (2 tables with both columns checked, none gives it)", RATIO_HINT)]  # 32.995 / 21.205 to 33.005 / 21.195


def test_only_a_column_named_as_the_subject_is_a_variant():
    text = TWO_TABLES.split("At batch 16")[0] + "At batch 16 (2.10x vs eager, 0.50x vs fused) nothing holds.\n"
    # fused is named only as the second ratio's reference and eager only as the first's: no variant for either
    assert ratio_findings(parse_document(text, "doc.md")) == []
    assert sg103(text) == []


MORE_SHARES = """# Serving

Nothing here holds a figure.

Of the runs, 12% failed; at 800 x 800 the decode step is at 61% of FP16
on every GPU.

Decode is steady, and the prefill is at 47% of FP16.

For Beta with INT4 a 25-30% KV bytes reduction is expected.

Here the 50% queue time reduction and, about 20% of it aside, the 61% decode step reduction
were measured twice, and the 47% decode reduction too.
"""


def test_shares_after_other_figures_blocks_and_clauses():
    text = SHARES + "\n" + MORE_SHARES
    found = [(line, message.split(",")[0]) for line, message, _ in share_findings(parse_document(text, "doc.md"))]
    # 61%: its share sits after a block without "%", after a figure that is no share (12%) and a shape (800 x 800);
    # it is on the paragraph's first line (27), after a 50% reduction (never a contradiction) and a hedged 20%.
    # 47% decode: the share's clause names the prefill only ("Decode is steady, and the prefill is at 47%").
    # The range 25-30% is SG101's: Beta's 30% share is not read as a 30% reduction.
    assert found[2:] == [(27, "61% is stated as a reduction of 'decode step'")]


RATIOS_MORE = """# Decode step, ms

No figures in this paragraph at all.

| batch | fp16 step | int8 step | int8+sq step |
|---:|---:|---:|---:|
| 1 | 10.40 | 8.10 (1.28x) | 7.95 (1.31x) |
| 16 | 40.20 | 30.10 (1.34x) | 21.70 (1.90x) |
| 32 | 70.50 | 44.30 (1.59x) | 40.10 (1.76x) |
| 64 | 90.00 | — | 50.00 (1.80x) |

`int8+sq` wins (1.2-1.9x vs fp16 at 1-32; 1.90x vs fp16 at 32) and it
is also good at 16.

int8: 1.40x vs fp16 at batch 32, and int8 takes 44.30 ms vs fp16's 70.50 ms at batch 32.

At batch 16, int8+sq is ~1.5x faster than fp16 and 1.92x faster than fp16, int8 1.34x vs fp16.

int8+sq: ~1.3x vs fp16 at 1. At batch 64, int8 is 1.80x vs fp16.
"""


def test_ratios_scoped_by_their_own_clause_and_the_cells_they_may_repeat():
    found = ratio_findings(parse_document(RATIOS_MORE, "doc.md"))
    # 1.90x at 32: its own clause names batch 32 only (not the span 1-32 nor the 16 after the parenthesis, where
    # int8+sq prints 1.90x); 70.50 / 40.10 = 1.758 and the cell's 1.76x are the two readings nearest, the cell first.
    # The header word every column shares ("step") is no variant word. The finding is on the paragraph's first line.
    assert found[0] == (
        12, "1.90x vs fp16 does not follow from the table at line 5: at row '32', 'int8+sq step' prints 1.76x; "
            "70.50 / 40.10 = 1.758x", RATIO_HINT)
    # "int8: 1.40x": the sentence names only the variant itself; 70.50 / 44.30 = 1.591. "44.30 ms vs fp16" is no ratio.
    assert found[1][0] == 15 and "at row '32', 'int8 step' prints 1.59x; 70.50 / 44.30 = 1.591x" in found[1][1]
    # the hedged ~1.5x is passed over, 1.92x is not (40.20 / 21.70 = 1.853; the cell prints 1.90x); int8 1.34x fits
    assert found[2][0] == 17 and found[2][1].startswith("1.92x vs fp16 does not follow from the table at line 5: at row '16'")
    # "~1.3x" right after "int8+sq: " is hedged; int8 has no value at batch 64 (its 1.80x reads nothing)
    assert len(found) == 3


def test_a_reduction_repeats_a_share_only_at_its_printed_value():
    # the column prints 54.4% of BF16; "a 54% slope reduction" is not that figure (54 is not 54.4)
    text = ("| model | ITL slope (% of BF16) |\n|---|---|\n| 8B | 54.4% |\n| 70B | 61.0% |\n\n"
            "On 8B, FP8 brings a 54% slope reduction.\n")
    assert share_findings(parse_document(text, "x.md")) == []
    assert share_findings(parse_document(text.replace("54.4%", "54%"), "x.md"))
