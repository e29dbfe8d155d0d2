"""Comparisons that print their figures beside their names
(studygen.lint.inline_comparisons): a comparative whose two figures go the
other way is SG103; figures in the right order, a denied comparison, a pair
in one parenthesis after the clause (its order is not said), a word about
another quantity ("more accurate") and figures that print alike stay quiet.
Sentences and figures of our own; the direction of each worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

WRONG = ("'{phrase}' goes the wrong way: {a} should be the {wanted} of the two figures, but {b}, the one it is "
         "compared with, is {wanted}")


def _sg103(sentence: str):
    return [(f.line, f.message) for f in lint_text(f"# Notes\n\n{sentence}\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, phrase, a, b, wanted", [
    ("int8 (2.84 ms) is faster than fp16 (2.61 ms) on the L4.", "faster than", "2.84 ms", "2.61 ms", "smaller"),
    ("int8 2.84 ms is faster than fp16 at 2.61 ms.", "faster than", "2.84 ms", "2.61 ms", "smaller"),
    ("int8 at 2.84 ms runs quicker than fp16 at 2.61 ms.", "quicker than", "2.84 ms", "2.61 ms", "smaller"),
    ("int8 (2.84 ms) is faster than fp16 at 512 x 512 (2.61 ms).", "faster than", "2.84 ms", "2.61 ms", "smaller"),
    ("int8 (3.9 ms) is slower than fp16 (4.2 ms).", "slower than", "3.9 ms", "4.2 ms", "larger"),
    # a rate: faster is the larger figure
    ("int8 (410 images/s) is faster than fp16 (455 images/s).", "faster than", "410 images/s", "455 images/s",
     "larger"),
    # a size word alone or before a quantity's name
    ("int8 (71 MB) needs less memory than fp16 (64 MB).", "less memory than", "71 MB", "64 MB", "smaller"),
    ("The int8 throughput (410 images/s) is higher than fp16 at 455 images/s.", "higher than", "410 images/s",
     "455 images/s", "larger"),
    # two words naming the quantity: "GPU memory" joined as written, read as memory
    ("int8 (71 MB) needs less GPU memory than fp16 (64 MB).", "less GPU memory than", "71 MB", "64 MB", "smaller"),
    # a capital X is no clause break in the reference's name
    ("int8 (2.84 ms) is faster than XNNPACK (2.61 ms).", "faster than", "2.84 ms", "2.61 ms", "smaller"),
    # the name's own parenthesis closes before the one holding its figure
    ("int8 (2.84 ms) is faster than fp16 (TensorRT) (median 2.61 ms).", "faster than", "2.84 ms", "2.61 ms",
     "smaller"),
    # a parenthesis right after a one-letter name: the comma inside it is no break of the name
    ("Config A (2.84 ms) is faster than B(fp16, 2.61 ms).", "faster than", "2.84 ms", "2.61 ms", "smaller"),
    # 40 characters from "than" to the figure, the most that is read
    ("int8 (2.84 ms) is faster than the fp16 engine that TensorRT built us (2.61 ms).", "faster than", "2.84 ms",
     "2.61 ms", "smaller"),
    # a comparison left unread before it does not stop the next one of the sentence
    ("int8 is more accurate than fp16, and int8 (2.84 ms) is faster than bf16 (2.61 ms).", "faster than", "2.84 ms",
     "2.61 ms", "smaller"),
    ("int8 is not faster than fp16, but int8 (2.84 ms) is faster than bf16 (2.61 ms).", "faster than", "2.84 ms",
     "2.61 ms", "smaller"),
    ("int8 is faster than fp16, and int8 (2.84 ms) is faster than bf16 (2.61 ms).", "faster than", "2.84 ms",
     "2.61 ms", "smaller"),
])
def test_figures_that_go_the_other_way_are_reported(sentence, phrase, a, b, wanted):
    assert _sg103(sentence) == [(3, WRONG.format(phrase=phrase, a=a, b=b, wanted=wanted))]


@pytest.mark.parametrize("sentence", [
    "int8 (2.61 ms) is faster than fp16 (2.84 ms) on the L4.",  # right way round
    "int8 (3.9 ms) is faster than fp16 (4.2 ms).",
    "int8 (455 images/s) is faster than fp16 (410 images/s).",
    "int8 (2.84 ms) is not faster than fp16 (2.61 ms).",  # denied
    "int8 (2.84 ms) isn't faster than fp16 (2.61 ms).",
    "int8 (0.412 AP) is more accurate than fp16 (0.418 AP).",  # "more" about accuracy, not the larger figure
    "int8 (71 MB) is less efficient than fp16 (64 MB).",
    "int8 (2.64 ms) is faster than fp16 (2.6 ms).",  # 2.6 prints 2.55 to 2.65: no order to go against
    # a pair in one parenthesis after the clause: writers list it in either order
    "On the L4, int8 is faster than fp16 (2.84 against 2.61 ms).",
    "int8 (2.84 ms) is faster than fp16 and bf16, both at 2.61 ms.",  # no figure right after the reference
    "int8 (2.84 ms) is faster than fp16 (455 images/s).",  # figures of two quantities
    "int8 (2.84 ms) is faster than fp16 (2.61 MB).",
    "int8 (2.84) is faster than fp16 (2.61).",  # no unit: nothing says what the figures measure
    "int8 (2.84 ms) is faster than fp16 by 0.23 ms.",  # "by": a difference, not the reference's figure
    "The warm-up (2.84 ms) ended and int8 is faster than fp16 (2.61 ms).",  # another thing's figure
    # a long way from "than" to the figure: a clause of its own may have come between
    "int8 (2.84 ms) is faster than what the vendor's older build took last year at 2.61 ms.",
    "int8 (2.84 ms) is faster than fp16, as the log says (2.61 ms).",
    "int8 (2.84 ms) is faster than the fp16 engine that TensorRT built for us (2.61 ms).",  # 44 characters
    # the first figure after "than" is the reference's: a count there leaves the comparison unread
    "int8 (2.84 ms) is faster than 4 parallel fp16 streams at 2.61 ms.",
    # a closed parenthesis in the name does not open the figure after it
    "int8 (2.84 ms) is faster than fp16 (TensorRT) by 0.23 ms.",
    # figures without a unit or of a ratio's: "higher" would otherwise take them as sizes
    "The int8 score (0.412) is higher than fp16 (0.418).",
    "The int8 share (12%) is higher than fp16 at 15%.",
    # a denial with a long word before the comparative
    "int8 (2.84 ms) neither substantially faster than fp16 (2.61 ms) nor smaller.",
])
def test_right_denied_or_unread_comparisons_stay_quiet(sentence):
    assert _sg103(sentence) == []


def test_a_ratio_before_the_comparative_is_left_to_the_inline_ratio_reading():
    ((_, message),) = _sg103("int8 (2.84 ms) is 1.09x faster than fp16 (2.61 ms).")
    assert message.startswith("1.09x goes the wrong way: 'faster' says the figure before it (2.84 ms)")


def test_the_finding_is_on_the_line_of_the_comparative():
    text = "# Notes\n\nOn the L4 at batch 8 the int8 engine\n(2.84 ms) is faster than fp16\n(2.61 ms).\n"
    assert [f.line for f in lint_text(text, "x.md") if f.code == "SG103"] == [4]


def test_a_change_is_reported_on_the_line_of_its_verb_with_its_hint():
    text = "# Notes\n\nThe int8 engine's latency on the L4\ndrops from 5.2 ms to 6.1 ms.\n"
    assert [(f.code, f.line, f.hint) for f in lint_text(text, "x.md")] == [
        ("SG103", 4, "swap the two figures or the verb")]


def test_a_paragraph_without_figures_does_not_end_the_reading():
    text = "# Notes\n\nNothing is measured here.\n\nint8 (2.84 ms) is faster than fp16 (2.61 ms).\n"
    assert [(f.code, f.line) for f in lint_text(text, "x.md")] == [("SG103", 5)]


def test_a_clause_joined_by_and_compares_the_sentence_subject():
    # the second clause's subject is A (400 ms), not B's figure before it
    assert _sg103("A (400 ms) is faster than B (2438 ms) and somewhat slower than C (568 ms).") == [
        (3, WRONG.format(phrase="slower than", a="400 ms", b="568 ms", wanted="larger"))]
    assert _sg103("A (400 ms) is faster than B (2438 ms) and slower than C (368 ms).") == []
    # no clause read before it: a joined clause names no subject figure of its own
    assert _sg103("We measured 12 ms and faster than C (568 ms) is out of reach.") == []


@pytest.mark.parametrize("sentence, expected", [
    ("AP50 drops from 0.8416 to 0.8936.", "'drops from' goes the wrong way: from 0.8416 to 0.8936 is a rise"),
    ("Latency falls from 5.2 ms to 6.1 ms with graphs.", "'falls from' goes the wrong way: from 5.2 ms to 6.1 ms is a rise"),
    ("Throughput increased from 410 to 385 images/s.",
     "'increased from' goes the wrong way: from 410 to 385 images/s is a fall"),
    ("The plan size grew by a lot from 91 MB to 57 MB.",
     "'grew by a lot from' goes the wrong way: from 91 MB to 57 MB is a fall"),
    ("Latency drops from about 5.2 to 6.1 ms.", "'drops from' goes the wrong way: from 5.2 to 6.1 ms is a rise"),
    ("Throughput drops from our best run of 410 to 455 images/s.",
     "'drops from' goes the wrong way: from 410 to 455 images/s is a rise"),
    # a change left unread before it (no figure after "to", denied, no unit) does not stop the next one
    ("Latency fell from 5.2 ms, as expected, while memory grew from 91 MB to 57 MB.",
     "'grew from' goes the wrong way: from 91 MB to 57 MB is a fall"),
    ("Latency did not fall from 5.2 ms to 6.1 ms, but memory grew from 91 MB to 57 MB.",
     "'grew from' goes the wrong way: from 91 MB to 57 MB is a fall"),
    ("Latency falls from batch 4 to 8 while memory grows from 91 MB to 57 MB.",
     "'grows from' goes the wrong way: from 91 MB to 57 MB is a fall"),
])
def test_a_change_whose_figures_go_the_other_way_than_its_verb(sentence, expected):
    assert _sg103(sentence) == [(3, expected)]


@pytest.mark.parametrize("sentence", [
    "AP50 rises from 0.8416 to 0.8936.",
    "Latency falls from 6.1 ms to 5.2 ms with graphs.",
    "Latency did not fall from 5.2 ms to 6.1 ms.",  # denied
    "Its share drops from 12% to 15%.",  # a percentage's sign is the writer's to choose
    "Memory grows from 900 MB to 1.2 GB.",  # two units: not compared
    "Latency falls from 5.2 ms, as expected, to 6.1 ms.",  # the second figure is not right after "to"
    "Latency falls from 5.2 to 5.2 ms.",
    "Latency falls from batch 4 to 8 by 2.1 ms.",  # figures without a unit: labels, not the quantity
    "Latency falls from where the first sweep of the week left it at 5.2 to 6.1 ms.",  # too far from "from"
    "Latency neither substantially fell from 5.2 ms to 6.1 ms nor rose.",  # denied, a long word between
])
def test_changes_that_agree_or_are_not_read_stay_quiet(sentence):
    assert _sg103(sentence) == []


def test_a_comparison_stating_its_figures_is_held_to_them_not_to_a_table():
    # the table pairs the two decoders by output size only, which the sentence does not name: SG107 used to say
    # the comparison "compares nothing" though the sentence prints both figures
    table = ("# Decoders\n\n| Decoder | Output size | Time (ms) |\n|---|---|---|\n| alpha | small | 27 |\n"
             "| beta | large | 33 |\n\n")
    right = table + "The alpha decoder (27 ms) is faster than beta (WASM, 33 ms) among all decoders.\n"
    assert [f.code for f in lint_text(right, "x.md")] == []
    wrong = table + "The alpha decoder (27 ms) is slower than beta (WASM, 33 ms) among all decoders.\n"
    assert [(f.code, f.line) for f in lint_text(wrong, "x.md")] == [("SG103", 8)]


def test_figures_are_quoted_as_the_document_prints_them():
    assert _sg103("Latency drops from 5 to 6 µs.") == [(3, "'drops from' goes the wrong way: from 5 to 6 µs is a rise")]
    assert _sg103("int8 (2.84ms) is faster than fp16 (2.61ms).") == [
        (3, WRONG.format(phrase="faster than", a="2.84ms", b="2.61ms", wanted="smaller"))]


def test_capitals_are_read_as_the_patterns_read_them():
    assert _sg103("int8 (2.84 ms) is FASTER THAN fp16 (2.61 ms).") == [
        (3, WRONG.format(phrase="FASTER THAN", a="2.84 ms", b="2.61 ms", wanted="smaller"))]
    assert _sg103("Latency DROPS FROM 5.2 ms to 6.1 ms.") == [
        (3, "'DROPS FROM' goes the wrong way: from 5.2 ms to 6.1 ms is a rise")]


_GPUS = ("# Runs\n\n| GPU | fp32 (ms) | fp16 (ms) |\n|---|---:|---:|\n| H100 PCIe | 0.03613 | 0.03882 |\n"
         "| GeForce RTX 3090 | 0.04395 | 0.04201 |\n\n{claim}\n")


@pytest.mark.parametrize("claim, expected", [
    # the table says whose each figure is, in either order in the parenthesis
    ("The H100 PCIe is slower than the GeForce RTX 3090 for fp32 (0.03613 ms against 0.04395 ms).",
     WRONG.format(phrase="slower than", a="0.03613 ms", b="0.04395 ms", wanted="larger")),
    ("The H100 PCIe is slower than the GeForce RTX 3090 for fp32 (0.04395 ms vs 0.03613 ms).",
     WRONG.format(phrase="slower than", a="0.03613 ms", b="0.04395 ms", wanted="larger")),
    ("On the H100 PCIe fp16 is faster than fp32 (0.03882 against 0.03613 ms).",
     WRONG.format(phrase="faster than", a="0.03882", b="0.03613 ms", wanted="smaller")),
    ("The H100 PCIe is faster than the GeForce RTX 3090 for fp32 (0.03613 ms against 0.04395 ms).", None),
    ("The H100 PCIe is faster than the GeForce RTX 3090 for fp32 (0.04395 ms against 0.03613 ms).", None),
    # a figure no cell prints, or names that tell the two cells apart nowhere: no order, not read
    ("The H100 PCIe is slower than the GeForce RTX 3090 for fp32 (0.03600 ms against 0.04395 ms).", None),
    ("fp32 is slower than it was (0.03613 ms against 0.04395 ms).", None),
    # the pair after "with", no parenthesis: read alike, to the sentence's end or a stop
    ("The H100 PCIe is slower than the GeForce RTX 3090 for fp32 with 0.03613 ms against 0.04395 ms.",
     WRONG.format(phrase="slower than", a="0.03613 ms", b="0.04395 ms", wanted="larger")),
    ("On the GeForce RTX 3090 fp32 is faster than fp16 with 0.04201 ms vs 0.04395 ms, as expected.",
     WRONG.format(phrase="faster than", a="0.04395 ms", b="0.04201 ms", wanted="smaller")),
    ("The H100 PCIe is faster than the GeForce RTX 3090 for fp32 with 0.03613 ms against 0.04395 ms.", None),
    # "with" opening other words: the parenthesis after them holds the pair
    ("On the H100 PCIe fp16 is faster than fp32 with its own kernels (0.03882 against 0.03613 ms).",
     WRONG.format(phrase="faster than", a="0.03882", b="0.03613 ms", wanted="smaller")),
    # a pair that does not end where "with" opened it says more than the comparison: not read
    ("The H100 PCIe is slower than the GeForce RTX 3090 with 0.03613 ms against 0.04395 ms at batch 1.", None),
])
def test_a_pair_after_the_clause_is_ordered_by_the_cells_that_print_it(claim, expected):
    found = [(f.line, f.message) for f in lint_text(_GPUS.format(claim=claim), "x.md") if f.code == "SG103"]
    assert found == ([(8, expected)] if expected else [])


def test_a_pair_whose_cells_tell_two_owners_apart_either_way_is_not_read():
    # 0.040 is printed twice (A100 fp16, H100 fp32): the sentence is right, and no reading may call it wrong
    table = ("# Runs\n\n| GPU | fp16 (ms) | fp32 (ms) |\n|---|---|---|\n| H100 | 0.030 | 0.040 |\n"
             "| A100 | 0.040 | 0.050 |\n\n")
    for claim in ("As on the A100, fp16 is faster than fp32 on the H100 (0.030 ms against 0.040 ms).",
                  "As on the A100, fp16 is faster than fp32 on the H100 (0.040 ms against 0.030 ms).",
                  "fp16 is faster than fp32 on the H100 and on the A100 (0.030 ms against 0.040 ms).",
                  # the subject's words name the A100 too: its 0.040 and the H100's 0.030 both fit "fp16"
                  "fp16 as on the A100 is faster than fp32 on the H100 (0.030 ms against 0.040 ms)."):
        assert [f.code for f in lint_text(table + claim + "\n", "x.md")] == [], claim
    # the subject is its own clause's: "fp16" after the comma, not the A100 before it, so the pair is read
    wrong = table + "As on the A100, fp16 is slower than fp32 on the H100 (0.030 ms against 0.040 ms).\n"
    assert [(f.code, f.line) for f in lint_text(wrong, "x.md")] == [("SG103", 8)]


@pytest.mark.parametrize("claim, expected", [
    # a place phrase names the side whose figure it follows: no table is needed to order the pair
    ("The L40S is faster than the A10G for int8 (0.6120 ms on the A10G against 2.905 ms on the L40S).",
     WRONG.format(phrase="faster than", a="2.905 ms", b="0.6120 ms", wanted="smaller")),
    ("The L40S is faster than the A10G for int8 (0.6120 ms on the A10G against 2.905 ms).",
     WRONG.format(phrase="faster than", a="2.905 ms", b="0.6120 ms", wanted="smaller")),
    ("The L40S is faster than the A10G for int8 (2.905 ms on the L40S against 0.6120 ms).",
     WRONG.format(phrase="faster than", a="2.905 ms", b="0.6120 ms", wanted="smaller")),
    # an article is no name: "on the A10G" names "A10G" written without one
    ("The L40S is faster than A10G for int8 (0.6120 ms on the A10G against 2.905 ms).",
     WRONG.format(phrase="faster than", a="2.905 ms", b="0.6120 ms", wanted="smaller")),
    ("The L40S is 4.75x faster than the A10G for int8 (0.6120 ms on the A10G against 2.905 ms on the L40S).",
     WRONG.format(phrase="faster than", a="2.905 ms", b="0.6120 ms", wanted="smaller")),
    ("The L40S is faster than the A10G for int8 with 0.6120 ms on the A10G against 2.905 ms on the L40S.",
     WRONG.format(phrase="faster than", a="2.905 ms", b="0.6120 ms", wanted="smaller")),
    # the right way round, in either order
    ("The A10G is faster than the L40S for int8 (0.6120 ms on the A10G against 2.905 ms on the L40S).", None),
    ("The A10G is faster than the L40S for int8 (2.905 ms on the L40S against 0.6120 ms).", None),
    ("The A10G is 4.75x faster than the L40S for int8 (0.6120 ms on the A10G against 2.905 ms on the L40S).", None),
    # phrases that name neither side ("batch 8" is in no name), or both the subject: no order, and no table here
    ("int8 is faster than fp16 on the L40S (2.905 ms with batch 8 against 0.6120 ms with batch 1).", None),
    ("The L40S with TensorRT is faster than the A10G (2.905 ms on the L40S against 0.6120 ms with TensorRT).", None),
    # a figure inside either phrase is no name: the parenthesis says more than one pair
    ("The L40S is faster than the A10G (0.6120 ms on the A10G at 1.5 GHz against 2.905 ms).", None),
    ("The L40S is faster than the A10G (0.6120 ms on the A10G against 2.905 ms on L40S at clock 1.5).", None),
])
def test_a_pair_after_the_clause_is_ordered_by_its_place_phrases(claim, expected):
    assert _sg103(claim) == ([(3, expected)] if expected else [])


def test_phrases_that_name_no_side_leave_the_order_to_the_table():
    table = ("# Runs\n\n| GPU | int8 (ms) | fp16 (ms) |\n|---|---:|---:|\n| L40S | 0.6120 | 0.8170 |\n\n")
    wrong = "int8 is slower than fp16 on the L40S (0.6120 ms with batch 8 against 0.8170 ms with batch 1)."
    right = "int8 is faster than fp16 on the L40S (0.6120 ms with batch 8 against 0.8170 ms with batch 1)."
    assert [(f.code, f.line) for f in lint_text(table + wrong + "\n", "x.md")] == [("SG103", 7)]
    assert lint_text(table + right + "\n", "x.md") == []


# the generic template's split tables: one per timing method, each headed by its "Timed as" line, so the two
# figures' cells differ in the GPU too, not only in the variant the sentence names
_SPLIT = ("# Runs\n\nTimed as TensorRT engine, CUDA graphs on:\n\n| GPU | Batch | fp16 (ms) |\n|---|---|---|\n"
          "| L4 | 8 | 1.214 |\n\nTimed as TensorRT engine, CUDA graphs off:\n\n| GPU | Batch | fp32 (ms) |\n"
          "|---|---|---|\n| L40S | 8 | 0.9530 |\n| L40S | 1 | 0.4410 |\n\n{claim}\n")


@pytest.mark.parametrize("claim, expected", [
    ("At batch 8, fp32 is slower than fp16 (1.214 ms against 0.9530 ms).",
     WRONG.format(phrase="slower than", a="0.9530 ms", b="1.214 ms", wanted="larger")),
    ("At batch 8, fp16 is faster than fp32 (0.9530 ms against 1.214 ms).",
     WRONG.format(phrase="faster than", a="1.214 ms", b="0.9530 ms", wanted="smaller")),
    ("At batch 8, fp32 is faster than fp16 (1.214 ms against 0.9530 ms).", None),
    # the subject names a word of each cell (fp32 of one, the L4 of the other): whose is whose is not told
    ("At batch 8, fp32 on the L4 is slower than fp16 (1.214 ms against 0.9530 ms).", None),
])
def test_a_pair_from_two_tables_is_ordered_by_the_words_that_tell_its_cells_apart(claim, expected):
    found = [(f.line, f.message) for f in lint_text(_SPLIT.format(claim=claim), "x.md") if f.code == "SG103"]
    assert found == ([(16, expected)] if expected else [])
