"""SG106 reads the scope of a declaration as a reader would (issue 22 and
issue 26 follow-ups):

- a qualifier after "not measured on/at/with/for ..." (a GPU, a shape, a
  TensorRT version, a batch) scopes the declaration to it: figures of the
  same variant elsewhere are measured ones, figures on the qualifier are a
  conflict; a reason, a document place or an unspecific word ("in this
  study", "for lack of time", "on any GPU") scopes nothing;
- a table figure states what its row and its column name together ("fp16"
  row, "A10 ms" column); a row's "not measured" cells declare their own
  columns, not the row's other figures;
- a one-letter job id ("a", "e") is a name: the declaration keeps it, and
  the article "a" of a sentence never stands for job a.

Documents, lines and messages are ours, worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint import sg106_unmeasured


def _sg106(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG106"]


def _lines(text: str) -> list[int]:
    return [line for line, _ in _sg106(text)]


GPU_TABLE = """| GPU  | Variant | Median ms |
| ---- | ------- | --------- |
| H200 | fp32    | 6.40      |
| H200 | bf16    | 4.10      |
| L40S | fp32    | 11.20     |
| L40S | bf16    | 7.90      |
"""


def test_a_gpu_qualifier_scopes_the_declaration_to_that_gpu():
    # line 3 declares, rows are lines 7-10, the prose lines 12 and 14
    text = ("# BF16 on two GPUs\n\nBF16 was not measured on the L40S.\n\n" + GPU_TABLE
            + "\nOn the H200, BF16 is 1.6x faster than FP32.\n\nBF16 on the L40S is 1.4x faster than FP32.\n")
    assert _sg106(text) == [
        (10, "'BF16 on L40S' is declared not measured (line 3) but row 'L40S / bf16' (line 10) gives it figures: "
             "'Median ms' 7.90"),
        (14, "'BF16 on L40S' is declared not measured (line 3) but line 14 states an outcome for it: "
             "'BF16 on the L40S is 1.4x faster than FP32.'")]


@pytest.mark.parametrize("declaration", [
    "BF16 was not measured.",
    "BF16 was not measured in this study.",
    "BF16 was not measured for lack of time.",
    "BF16 was not measured on any GPU.",
    "BF16 was not measured, as Section 5 explains.",
    "BF16 was not measured in Section 5.",
    "BF16 has not been benchmarked on these machines.",
])
def test_an_unqualified_declaration_still_conflicts_with_every_bf16_row(declaration):
    text = "# BF16\n\n" + declaration + "\n\n" + GPU_TABLE + "\nOn the H200, BF16 is 1.6x faster than FP32.\n"
    assert _lines(text) == [8, 10, 12]


@pytest.mark.parametrize("declaration, lines", [
    # two GPUs joined by "or" and by a comma list: both scoped, H200 untouched
    ("BF16 was not measured on an A2 or the L40S, because neither was free.", [10]),
    ("BF16 was not measured on the A2, L40S and T4.", [10]),
    # what follows the GPU is a new clause, not a second GPU
    ("BF16 was not measured on the L40S, the H200 figures are from May.", [10]),
    # the object form: the qualifier after the object scopes it too
    ("We did not measure BF16 on the L40S.", [10]),
    ("We did not measure BF16 on the H200 because the queue was full.", [8, 12]),
    # the object after a participle, and a measuring verb of the shared list (MEASURING_VERBS)
    ("We have not measured BF16 on the L40S.", [10]),
    ("BF16 was not collected on the L40S.", [10]),
])
def test_qualifiers_in_several_wordings(declaration, lines):
    text = "# BF16\n\n" + declaration + "\n\n" + GPU_TABLE + "\nOn the H200, BF16 is 1.6x faster than FP32.\n"
    assert _lines(text) == lines


def test_a_shape_qualifier_scopes_to_that_shape_however_it_is_spaced():
    table = ("| Shape HxW   | Variant | Median ms |\n| ----------- | ------- | --------- |\n"
             "| 640 x 360   | int8    | 1.15      |\n| 1280 x 720  | int8    | 3.90      |\n")
    for declaration in ("We did not benchmark INT8 at 1280x720.", "INT8 was never profiled at 1280 × 720."):
        assert _sg106("# INT8\n\n" + declaration + "\n\n" + table) == [
            (8, "'INT8 at 1280x720' is declared not measured (line 3) but row '1280 x 720 / int8' (line 8) gives it "
                "figures: 'Median ms' 3.90")]


def test_a_version_qualifier_reads_the_version_column():
    # row "10.7 / fp8" is another TensorRT version; row "10.3 / fp8" under the "TensorRT" column is the declared one
    table = ("| TensorRT | Variant | Median ms |\n| -------- | ------- | --------- |\n"
             "| 10.3     | fp16    | 2.75      |\n| 10.7     | fp8     | 2.05      |\n| 10.3     | fp8     | 2.31      |\n")
    text = "# FP8 across versions\n\nFP8 has not been tried with TensorRT 10.3.\n\n" + table
    assert _sg106(text) == [
        (9, "'FP8 with TensorRT 10.3' is declared not measured (line 3) but row '10.3 / fp8' (line 9) gives it figures: "
            "'Median ms' 2.31")]
    # the same versions without the qualifier: both FP8 rows conflict
    assert _lines(text.replace(" with TensorRT 10.3", "")) == [8, 9]


def test_a_column_header_completes_the_configuration_its_row_names_part_of():
    # "A10" and "A100" are different GPUs; only the A10 column of the INT8 row states INT8 on the A10
    table = ("| Variant | A100 ms | A10 ms |\n| ------- | ------- | ------ |\n"
             "| fp16    | 1.90    | 6.10   |\n| int8    | 1.30    | 4.40   |\n")
    text = "# INT8\n\nINT8 was not profiled on the A10.\n\n" + table
    assert _sg106(text) == [
        (8, "'INT8 on A10' is declared not measured (line 3) but row 'int8' (line 8) gives it figures: 'A10 ms' 4.40")]
    empty = text.replace("| 4.40   |", "| —      |")
    assert _sg106(empty) == []


def test_not_measured_cells_declare_their_columns_not_the_whole_row():
    kernels = ("| Shape HxW | Group | fp32 (ms)    | fp16 (ms) |\n| --------- | ----- | ------------ | --------- |\n"
               "| 640 x 640 | conv  | not measured | 1.20      |\n| 640 x 640 | total | not measured | 4.20      |\n")
    latency = ("| Shape HxW | Variant | Median ms | Kernel total ms |\n| --------- | ------- | --------- | --------------- |\n"
               "| 640 x 640 | fp16    | 4.50      | 4.20            |\n")
    # the fp16 kernel total is measured: no finding for the latency table's fp16 row
    assert _sg106("# K\n\n" + kernels + "\n" + latency) == []
    # an fp32 kernel total at 640 x 640 is what the kernel table declares not measured
    fp32 = latency + "| 640 x 640 | fp32    | 9.90      | 9.00            |\n"
    assert _sg106("# K\n\n" + kernels + "\n" + fp32) == [
        (11, "'640 x 640 / total / fp32' is declared not measured (line 6) but row '640 x 640 / fp32' (line 11) gives "
             "it figures: 'Kernel total ms' 9.00")]


JOBS = """| Job | Variant | Median ms |
| --- | ------- | --------- |
| a   | fp16    | not run   |
| b   | fp16    | 3.10      |
| b   | fp32    | 5.00      |
"""


def test_a_one_letter_job_id_in_a_table_is_a_name():
    # row a declares job a's fp16 (line 5); job b's fp16 row and sentences about job b are measured figures
    text = "# Jobs\n\n" + JOBS + "\nOn job b, fp16 is 1.6x faster than fp32.\n\nfp16 takes a 3.10 ms median on job b.\n"
    assert _sg106(text) == []
    # a sentence naming job a as a name states an outcome for it
    for sentence in ("Job a: fp16 is 1.2x faster.", "For job a, fp16 is 1.2x faster.", "fp16 of job `a` is 1.2x faster."):
        assert _sg106("# Jobs\n\n" + JOBS + "\n" + sentence + "\n") == [
            (9, "'a / fp16' is declared not measured (line 5) but line 9 states an outcome for it: "
                f"'{sentence.replace('`', '')}'")]


def test_a_one_letter_job_id_in_a_sentence_is_a_name():
    table = ("| Job | Variant | Median ms |\n| --- | ------- | --------- |\n"
             "| d   | fp16    | 3.10      |\n| e   | fp16    | 3.35      |\n")
    text = "# Jobs\n\nJob `e` was never profiled.\n\n" + table + "\nJob d is 8% faster than the baseline.\n\nJob e is 3% slower.\n"
    assert _sg106(text) == [
        (8, "'Job e' is declared not measured (line 3) but row 'e / fp16' (line 8) gives it figures: 'Median ms' 3.35"),
        (12, "'Job e' is declared not measured (line 3) but line 12 states an outcome for it: 'Job e is 3% slower.'")]
    # job a: the article "a" in "a 3.10 ms median" or "a 2x gain" is no name of it
    declared_a = "# Jobs\n\nJob a was not timed.\n\nfp16 takes a 3.10 ms median on job b.\n\nJob c shows a 2x gain.\n"
    assert _sg106(declared_a) == []
    assert _lines(declared_a + "\nJob a is 2x faster than job c.\n") == [9]


@pytest.mark.parametrize("text, letters", [
    ("job a was not run", {"a"}),
    ("a / fp16", {"a"}),
    ("slower than a.", {"a"}),
    ("jobs b and c", {"b", "c"}),
    ("fp16 is a 2x speedup", set()),
    ("a fp16 engine", set()),
    ("the H100's fp8", set()),
    ("an a-b split, e.g. this one", set()),
    ("a per-GPU figure", set()),
    ("a 2x speedup over job b", {"b"}),  # the article is passed over, not the end of the search
])
def test_identifier_letters(text, letters):
    assert sg106_unmeasured.identifier_letters(text) == letters


@pytest.mark.parametrize("after, items", [
    (" on an Orin.", ["FP16 on Orin"]),
    (" yet on the Jetson Orin module", ["FP16 on Jetson Orin"]),
    (" with TensorRT 10.3 on the A100.", ["FP16 with TensorRT 10.3 A100"]),
    (" at batch 32", ["FP16 at batch 32"]),
    (" at 1024 x 1024.", ["FP16 at 1024x1024"]),
    (" on Orin, Xavier and Thor.", ["FP16 on Orin", "FP16 on Xavier", "FP16 on Thor"]),
    (" for batches above 16", ["FP16"]),
    (" in Figure 3 and on the A100", ["FP16"]),
    (" in this study", ["FP16"]),
    (" because the Orin was busy", ["FP16"]),
    (", on the Orin", ["FP16"]),
])
def test_qualified_items(after, items):
    assert sg106_unmeasured.qualified("FP16", after) == items


def test_a_shape_in_a_declared_row_is_no_letter_x():
    # "1024 x 576" is the shape 1024x576 however it is spaced: the x between the sides is no name
    table = ("| Shape | Variant | Median ms |\n| ----- | ------- | --------- |\n"
             "| 1024 x 576 | fp8  | not measured |\n| 1024 x 576 | fp16 | 2.20 |\n")
    assert _sg106("# S\n\n" + table + "\nFP8 at 1024x576 is 1.3x faster.\n") == [
        (8, "'1024 x 576 / fp8' is declared not measured (line 5) but line 8 states an outcome for it: "
            "'FP8 at 1024x576 is 1.3x faster.'")]
    # a figure's "x" is a unit, not a name
    assert sg106_unmeasured.identifier_letters("1.9 x faster than job b") == {"b"}


def test_a_never_run_cell_alone_declares_its_row():
    # "never run" is the document's only declaration word; the row's figures elsewhere are not results
    table = ("| Variant | Median ms |\n| ------- | --------- |\n| fp16 | 2.40 |\n| sparse int4 | never run |\n")
    assert _sg106("# N\n\n" + table + "\nSparse INT4 is 2x faster.\n") == [
        (8, "'sparse int4' is declared not measured (line 6) but line 8 states an outcome for it: 'Sparse INT4 is 2x faster.'")]


def test_a_reason_ends_the_qualifier_whatever_mark_follows_it():
    assert sg106_unmeasured.qualified("FP16", " on the Orin since, like the A100 and H20, it was lent") == ["FP16 on Orin"]
    assert sg106_unmeasured.qualified("FP16", " on the Orin because the A100 was busy") == ["FP16 on Orin"]


def test_an_untested_cell_alone_declares_its_row():
    table = ("| Variant | Median ms |\n| ------- | --------- |\n| fp16 | 2.40 |\n| w4a8 | untested |\n")
    assert _lines("# U\n\n" + table + "\nW4A8 is 2x faster.\n") == [8]


def test_a_leading_qualifier_carries_only_to_one_word_items():
    # "eager bf16" names its own mode: "compiled" does not carry to it, so eager bf16 alone is declared
    text = "# Q\n\nNot measured: compiled fp32 and eager bf16.\n\nEager bf16 is 1.3x faster than fp32.\n"
    assert _sg106(text) == [
        (5, "'eager bf16' is declared not measured (line 3) but line 5 states an outcome for it: "
            "'Eager bf16 is 1.3x faster than fp32.'")]


# new-user trial (GTX 1070 and RTX 3090 logs): a GPU named with a vendor word in the declaration and
# without one in the result, or the other way round, is the same GPU
@pytest.mark.parametrize("declared, stated", [
    ("fp32 was not measured on the GeForce RTX 3090.", "fp32 on the RTX 3090 runs at 0.0612 ms."),
    ("fp32 was not measured on the GeForce RTX 3090.", "On the RTX 3090, fp32 was slower than fp16."),
    ("fp32 was not measured on the RTX 3090.", "On the NVIDIA GeForce RTX 3090, fp32 was slower than fp16."),
])
def test_a_gpu_vendor_word_is_optional_on_either_side(declared, stated):
    text = f"# Study\n\n{declared}\n\n{stated}\n"
    assert _lines(text) == [5]
    assert sg106_unmeasured.item_terms("fp32 on the GeForce RTX 3090") == {"fp32", "rtx", "3090"}


def test_a_vendor_word_alone_stays_the_configuration():
    assert sg106_unmeasured.item_terms("NVIDIA") == {"nvidia"}
    assert _lines("# Study\n\nThe fp32 run on the GTX 1070 took 0.2113 ms; fp32 was not measured on the RTX 3090.\n\n"
                  "On the GTX 1070, fp32 was slower than fp16.\n") == []


@pytest.mark.parametrize("base, done", sg106_unmeasured.MEASURING_VERBS)
def test_every_measuring_verb_declares_in_both_voices(base, done):
    # one vocabulary for lint and for the README check (SG206 reads the same list): each verb, in either voice
    table = "| Variant | Median ms |\n| ------- | --------- |\n| fp32    | 6.40      |\n| int8    | 4.10      |\n"
    expected = [(8, "'INT8' is declared not measured (line 3) but row 'int8' (line 8) gives it figures: 'Median ms' 4.10")]
    for declaration in (f"INT8 was not {done}.", f"We did not {base} INT8.", f"We have not {done} INT8."):
        assert _sg106("# INT8\n\n" + declaration + "\n\n" + table) == expected, declaration



# A "not tested" cell of one table (unseen document 08: the Linux table's tsv-join) speaks for its own
# table's row and column; another table with a caption or heading of its own (the MacOS table, the size
# tables) measures the same row and column for itself.
HEADER = "| Build | Decoder ms | Encoder ms |\n| ----- | ---------- | ---------- |\n"


def _tables(declaring: str, first: str = "**Orin**\n\n", second: str = "**Thor**\n\n") -> str:
    """Two tables of one layout under ``# Latency``, each after its caption
    ``first`` / ``second``: the first table's eager row declares its encoder
    cell with ``declaring`` (line 7 with both captions), the second's eager
    row (line 14) gives an encoder figure of 3.90."""
    orin = HEADER + f"| eager | 8.10 | {declaring} |\n| graphs | 6.30 | 4.10 |\n"
    thor = HEADER + "| eager | 5.20 | 3.90 |\n| graphs | 4.40 | 2.80 |\n"
    return f"# Latency\n\n{first}{orin}\n{second}{thor}"


@pytest.mark.parametrize("declaring", ["not tested", "not measured", "untested", "not run", "Not benchmarked"])
def test_a_declaring_cell_leaves_another_captioned_table_measured(declaring):
    assert _sg106(_tables(declaring)) == []


def test_a_declaring_cell_leaves_a_table_under_another_heading_measured():
    # no captions; the second table under a heading of its own ("## Sizes" over a sizes table in document 08)
    assert _sg106(_tables("not tested", "", "## Jetson Thor\n\n")) == []


@pytest.mark.parametrize("declaring", ["not tested on any platform", "not measured anywhere", "not run in this study",
                                       "Not measured on every board"])
def test_a_declaring_cell_naming_a_wider_scope_holds_every_table(declaring):
    assert _sg106(_tables(declaring)) == [
        (14, "'eager / encoder' is declared not measured (line 7) but row 'eager' (line 14) gives it figures: 'Encoder ms' 3.90")]


def test_a_declaring_cell_still_holds_its_own_slice_and_prose():
    # two tables under one heading, neither with a caption of its own, are one slice: the second one's figure conflicts
    assert _sg106(_tables("not tested", "", "")) == [
        (10, "'eager / encoder' is declared not measured (line 5) but row 'eager' (line 10) gives it figures: 'Encoder ms' 3.90")]
    # a sentence naming the declared row and column states an outcome, whatever table is near it
    sentence = "\nThe eager encoder is 1.4x faster on the Thor.\n"
    assert _sg106(_tables("not tested") + sentence) == [
        (17, "'eager / encoder' is declared not measured (line 7) but line 17 states an outcome for it: "
             "'The eager encoder is 1.4x faster on the Thor.'")]
    # a declaration in prose names no table: both tables' eager rows are held to it
    prose = _tables("3.00").replace("# Latency\n\n", "# Latency\n\nThe eager encoder was not measured.\n\n", 1)
    assert _lines(prose) == [9, 16]
