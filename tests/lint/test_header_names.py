"""The one matcher between a name in prose and a table header or label cell
(studygen/lint/header_names.py): case, plural, a closing unit in
parentheses, hyphen and space; and the rules that map prose to a column
through it (SG107 over columns and over row labels). Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.header_names import mention, name_words, phrase_at, prose_words


@pytest.mark.parametrize("header, words", [
    ("Latency (ms)", ("latency",)),
    ("FP16 Latencies (ms)", ("fp16", "latency")),
    ("Throughput (images/s)", ("throughput",)),
    ("Plan size [MiB]", ("plan", "size")),
    ("Time (in ms)", ("time",)),
    ("Mixed-precision", ("mixed", "precision")),
    ("**CUDA graphs**", ("cuda", "graph")),
    ("int8+sq", ("int8+sq",)),
    ("TensorRT 11.4", ("tensorrt", "11.4")),
    ("Latency (p50)", ("latency", "p50")),  # a statistic in parentheses is a word, not a unit
])
def test_name_words(header, words):
    assert name_words(header) == words


def test_prose_words_give_offsets_in_the_normalised_text():
    # "the **FP16** run" normalises to "the fp16 run": fp16 at 4 to 8
    assert prose_words("the **FP16** run") == ((0, 3, "the"), (4, 8, "fp16"), (9, 12, "run"))


def test_mention_needs_every_word_and_gives_the_first():
    text = "full-precision latencies trail the mixed ones"
    assert mention(text, frozenset({"latency", "full"})) == 0
    assert mention(text, frozenset({"mixed"})) == 35
    assert mention(text, frozenset({"mixed", "fp8"})) is None
    assert mention(text, frozenset()) is None
    assert mention("int8+sq is ahead", frozenset({"int8"})) is None


def test_phrase_at_needs_the_words_in_order():
    assert phrase_at("mixed precision beats fp32", ("mixed", "precision")) == (0, 15)
    assert phrase_at("precision, mixed", ("mixed", "precision")) is None
    assert phrase_at("the full-precision rows", ("full", "precision")) == (4, 18)
    assert phrase_at("anything", ()) is None


def _sg107(text: str) -> list[str]:
    return [f.message for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_hyphen_and_space_name_the_same_column():
    # Mixed-precision against Full precision: Nano 4.10 < 4.50 bears "faster" out, Orin 9.30 > 9.10 does not
    table = ("| Board | Mixed-precision (ms) | Full precision (ms) |\n|---|---:|---:|\n"
             "| Nano | 4.10 | 4.50 |\n| Orin | 9.30 | 9.10 |\n\n")
    (message,) = _sg107(table + "Mixed precision is faster than full-precision on every board.\n")
    assert "'Mixed-precision (ms)' against 'Full precision (ms)'" in message
    assert "row 'Orin' has 9.30 against 9.10" in message and "Nano" not in message


def test_a_plural_names_a_column_of_three():
    # CUDA graph against Eager: Nano 3.3 < 4.2, Orin 7.7 > 7.5 (against "faster")
    table = ("| Board | Eager (ms) | CUDA graph (ms) | Compiled (ms) |\n|---|---:|---:|---:|\n"
             "| Nano | 4.2 | 3.3 | 3.1 |\n| Orin | 7.5 | 7.7 | 6.8 |\n\n")
    (message,) = _sg107(table + "CUDA graphs are faster than eager on every board.\n")
    assert "'CUDA graph (ms)' against 'Eager (ms)'" in message and "row 'Orin' has 7.7 against 7.5" in message


def test_a_row_label_named_with_a_space_for_its_hyphen():
    # Mixed-precision rows against FP32 rows, paired by model: tiny 2.9 < 3.6, base 6.4 > 6.1
    table = ("| Model | Precision | Latency (ms) |\n|---|---|---:|\n"
             "| tiny | FP32 | 3.6 |\n| tiny | Mixed-precision | 2.9 |\n"
             "| base | FP32 | 6.1 |\n| base | Mixed-precision | 6.4 |\n\n")
    (message,) = _sg107(table + "Mixed precision has lower latency than FP32 for every model.\n")
    assert "of the mixed-precision rows against the fp32 rows, 2 pairs" in message
    assert "row 'base / Mixed-precision' has 6.4 against 6.1" in message
