"""The prose helpers of studygen.lint.text, each on its own: plural stems,
quantity keywords, label spelling, sentence splitting and figure scopes.

Every expected value below was worked out by hand from the rules in the
module's docstrings (the checks that use them are tested in test_cases.py).
"""

from __future__ import annotations

import pytest

from studygen.lint.text import (cached_keywords, figure_scope, join_shapes, keywords, label_tokens, measure_words,
                                normalize, opening_phrase, split_sentences, stem)


def test_stem_strips_plural_endings_only_on_long_enough_words():
    assert stem("GEMMs") == "gemm"
    assert stem("latencies") == "latency"
    assert stem("ties") == "tie"  # four letters: "ies" kept as a plain s
    assert stem("runs") == "run"
    assert stem("class") == "class"  # a double s is no plural
    assert stem("gas") == "gas"  # three letters: left alone
    assert stem("Kernel") == "kernel"


def test_keywords_leave_out_stop_words_units_and_shapes():
    assert keywords("GEMM ms fp16") == {"gemm", "fp16"}
    assert keywords("b GEMM the ms") == {"gemm"}  # one letter, a stop word, a unit
    # a shape is no word: without its removal "x1067" would count
    assert keywords("800x1067 latency") == {"latency"}
    assert keywords("800 × 1067 latencies") == {"latency"}
    # snake_case names also give their parts (units and stop words left out)
    assert keywords("e2e_latency_ms") == {"e2e_latency_m", "e2e", "latency"}
    assert keywords("time_of_x") == {"time_of_x", "time"}
    assert keywords("AP of fp16") == {"ap", "fp16"}  # two letters are a word
    assert cached_keywords("GEMM ms fp16") == {"gemm", "fp16"}


def test_join_shapes_writes_each_shape_as_one_word_and_keeps_the_rest():
    # normalize and SG106's qualifiers share it: "FP16 at 1024 x 1024" declares FP16 at 1024x1024
    assert join_shapes("FP16 at 1024 x 1024 and 800×1067, 2 x 3 x 4") == "FP16 at 1024x1024 and 800x1067, 2x3x4"
    assert join_shapes("x 800 and 800 x") == "x 800 and 800 x"  # an x with a digit on one side only
    assert join_shapes("B200 X 2") == "B200 X 2"  # a capital X is no shape's x


def test_normalize_spells_labels_one_way():
    assert normalize("**TRT** 800 × 1067  ms") == "tensorrt 800x1067 ms"
    assert normalize("_fp8_ `B200` ~old~") == "fp8 b200 old"
    assert normalize("strt 2 x 3") == "strt 2x3"  # "trt" only as a whole word
    assert normalize("trt-llm on TRT. trt8") == "tensorrt-llm on tensorrt. trt8"  # a word: a digit joins, - and . part
    assert normalize("Batch  1\n x 2") == "batch 1x2"


def test_label_tokens_drop_trailing_dots_and_map_synonyms():
    assert label_tokens("on tensorrt 11.4.") == ("on", "tensorrt", "11.4")
    assert label_tokens("trt fp8- x") == ("tensorrt", "fp8", "x")
    assert label_tokens("µs 5.8") == ("µs", "5.8")


def test_split_sentences_at_end_marks_but_not_after_abbreviations():
    text = "FP8 is faster. It ships! Done"
    assert split_sentences(text) == [(0, 14), (15, 24), (25, 29)]
    assert [text[s:e] for s, e in split_sentences(text)] == ["FP8 is faster.", "It ships!", "Done"]
    text = "Faster vs. fp16 here, e.g. at (cf. 2) batch 1. Next one."
    assert [text[s:e] for s, e in split_sentences(text)] == ["Faster vs. fp16 here, e.g. at (cf. 2) batch 1.", "Next one."]
    assert split_sentences("Why? Because.  ") == [(0, 4), (5, 13)]
    assert split_sentences("   ") == []
    assert split_sentences("? What") == [(0, 1), (2, 6)]  # an end mark with nothing before it


def _scope(text: str, figure: str) -> str:
    start = text.index(figure)
    scope_start, scope_end = figure_scope(text, start, start + len(figure))
    return text[scope_start:scope_end]


def test_figure_scope_ends_at_punctuation_and_clause_conjunctions():
    assert _scope("On B200 the fp16 GEMMs take 0.19 to 0.21 ms, and FP8 saves 0.04 ms.", "0.19 to 0.21") == \
        "On B200 the fp16 GEMMs take 0.19 to 0.21 ms"
    assert _scope("Latency is flat and FP8 takes 0.2 ms", "0.2") == "FP8 takes 0.2 ms"
    assert _scope("Latency is flat; FP8 takes 0.2 ms", "0.2") == "FP8 takes 0.2 ms"
    assert _scope("FP8 takes 0.2 ms but fp16 takes 0.3 ms", "0.3") == "fp16 takes 0.3 ms"
    assert _scope("FP8 takes 0.2 ms here and it ships", "0.2") == "FP8 takes 0.2 ms here"


def test_figure_scope_offsets():
    assert figure_scope("FP8 takes 0.2 ms", 10, 13) == (0, 16)
    assert figure_scope("On B300, FP8 takes 0.2 ms; fp16 0.3 ms", 19, 22) == (9, 25)


def test_figure_scope_a_comma_ends_it_even_between_labels():
    assert _scope("On B200, FP8 takes 0.2 ms", "0.2") == "FP8 takes 0.2 ms"


@pytest.mark.parametrize("conjunction", ["and", "but", "while", "whereas"])
def test_figure_scope_a_conjunction_between_two_labels_joins_them(conjunction):
    # both neighbours hold a digit: one subject of two labels, the scope goes on to the sentence start
    text = f"Not B200 {conjunction} H200 FP8 takes 0.2 ms"
    assert _scope(text, "0.2") == text
    text = f"It is flat {conjunction} FP8 takes 0.2 ms"
    assert _scope(text, "0.2") == "FP8 takes 0.2 ms"


def test_figure_scope_keeps_label_lists_ranges_and_a_trailing_parenthesis():
    # "and" between two words with digits joins labels, not clauses
    assert _scope("The INT8 and FP8 kernels take 0.2 ms", "0.2") == "The INT8 and FP8 kernels take 0.2 ms"
    assert _scope("FP8 takes 0.2 ms on TensorRT 11.4 and 11.1, not more", "0.2") == \
        "FP8 takes 0.2 ms on TensorRT 11.4 and 11.1"
    # "and" before a digit joins the ends of a range
    assert _scope("Latency is between 2.1 and 9.7 ms", "9.7") == "Latency is between 2.1 and 9.7 ms"
    # the parenthesis after the unit is the figure's restriction, commas and all
    assert _scope("latency is 8.377 to 8.664 ms (mode compile, at 800 x 800 only), else more", "8.377 to 8.664") == \
        "latency is 8.377 to 8.664 ms (mode compile, at 800 x 800 only)"


def test_figure_scope_of_a_figure_inside_a_parenthesis_ends_at_its_close():
    text = "FP8 is slower at batch 1 (0.97x to 0.99x) and faster at batch 8"
    assert _scope(text, "0.97x to 0.99x") == "FP8 is slower at batch 1 (0.97x to 0.99x)"
    assert _scope("A (b) and FP8 takes 0.2 ms and more", "0.2") == "FP8 takes 0.2 ms"  # a closed one before it
    assert _scope("Results (a) differ (FP8 takes 0.2 ms) and B200 wins", "0.2") == "Results (a) differ (FP8 takes 0.2 ms)"


def test_a_range_in_a_parenthesis_is_not_compared_with_rows_named_after_it():
    # before the fix: "leaves out 2 rows: '8 / B200' (1.20x), '8 / H200' (1.25x)"
    from studygen.lint import lint_text

    text = ("FP8 is slower at batch 1 (0.97x to 0.99x) and faster at batch 8.\n\n"
            "| batch | GPU | FP8 speedup x |\n|---:|---|---:|\n| 1 | B200 | 0.97 |\n| 1 | H200 | 0.99 |\n"
            "| 8 | B200 | 1.20 |\n| 8 | H200 | 1.25 |\n")
    assert lint_text(text, "x.md") == []
    (finding,) = lint_text(text.replace("0.99x)", "0.98x)"), "x.md")
    assert finding.code == "SG101" and "leaves out row '1 / H200' (0.99x)" in finding.message


def test_opening_phrase_is_a_leading_restriction_up_to_six_words():
    assert opening_phrase("On TensorRT 11.4, FP8 is 3% faster") == "On TensorRT 11.4"
    assert opening_phrase("At 800 x 1067 on B200 the FP8 engine is faster") == "At 800 x 1067 on B200"
    assert opening_phrase("Except on H100; FP8 wins: yes") == "Except on H100"
    assert opening_phrase("Apart from B300: all") == "Apart from B300"
    assert opening_phrase("On B200, FP8 wins, mostly") == "On B200"  # up to the first stop
    assert opening_phrase("On B200 FP8 wins") == "On B200 FP8 wins"  # no stop: the words as they are
    assert opening_phrase("FP8 is faster on B200") == ""
    assert opening_phrase("Online, FP8 is faster") == ""  # "on" must be a whole word


def test_measure_words_drop_precision_and_variant_names():
    words = frozenset({"fp16", "latency", "int8", "nvfp4", "w4a16", "bf16", "gemm", "fp"})
    assert measure_words(words) == {"latency", "gemm", "fp"}
