"""Lint's fast paths do the same work by a shorter way (issue 25 item 5):
each test pins the mechanism (the slow way is not taken) and the result
(what the slow way gives, on hand-written text). Timing is the benchmarks'
business (``benchmarks/family_check.py``), never a test's."""

from __future__ import annotations

import importlib
import re

import pytest

from studygen.lint import lint_text
from studygen.lint.vocabulary import ascii_folded


class _NoTranslate(str):
    """A text whose ``translate`` fails the test: the fold must not look up every character."""

    def translate(self, table):
        raise AssertionError("str.translate called")


def test_folding_a_text_without_the_four_letters_is_lower_casing_only():
    # Failed before: every text went through str.translate, a dictionary lookup per character.
    assert ascii_folded(_NoTranslate("FP8 is 1.9× faster — 3 µs")) == "fp8 is 1.9× faster — 3 µs"
    assert ascii_folded(_NoTranslate("PLAIN ASCII")) == "plain ascii"
    # one of the letters re.IGNORECASE reads as ASCII: folded to it, offsets kept (İ lower-cased alone is two characters)
    assert ascii_folded("Noiſe \u212aept SIGNIF\u0130CANT ı") == "noise kept significant i"
    assert len(ascii_folded("\u0130" * 5)) == 5


_TABLES = (
    "# Results\n\n"
    "| gpu | fp16 ms | note |\n|---|---:|---|\n"
    "| A100 | 7.21 | a \\| b |\n"          # an escaped pipe: three cells
    "| H100 | 5.10 | c | 9.9 |\n"          # four cells: one dropped
    "| --- | --- | --- |\n"                # a delimiter row inside the body
    "| L40S | 8.02 | d |\n"
)


def test_table_rows_are_split_without_markdown_its_character_loop(monkeypatch):
    # Failed before: the header row (markdown-it's table rule) and every body row SG104 reads went through
    # escapedSplit, a Python loop over every character of the line.
    table_module = importlib.import_module("markdown_it.rules_block.table")
    monkeypatch.setattr(table_module, "escapedSplit", lambda line: pytest.fail("markdown-it's splitter"))
    found = [(f.code, f.line, f.message[:40]) for f in lint_text(_TABLES, "t.md")]
    assert found == [
        ("SG104", 6, "table row has 4 cells but its header (li"),
        ("SG104", 7, "a delimiter row inside the body of the t"),
    ]


# --- SG106's sentence words: patterns run only on text that holds what they need ------------------------------------

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from studygen.lint import sg106_unmeasured, vocabulary  # noqa: E402

_FRAGMENTS = ("batch size", "bs", "BS16", "mbs=2", "micro-batch", "half precision", "half-precision", "Float16", "fp-16",
              "bfloat16", "bf-16", "float32", "single precision", "full-precision", "fp-32", "GPUs", "graphics cards",
              "gpu", "eight", "twenty-four", "a dozen", "half a dozen", "a couple of", "a pair of", "a single", "one",
              "a hundred and five", "ſix", "ſeventy-ſeven", "HALF A DOZEN", "Twenty", "if", "when", "whenever", "once", "as soon as", "provided that",
              "in case", "revisited", "unless", "no", "without", "except for", "but not", "other than", "apart from",
              "faster", "gain", "fp8", "H100", "1.9x", "800 x 800", "int8", "run", "and", "the", "-", ",", ".", ";", "(",
              ")", "'", "\n", "  ", "x", "a", "b", "7")
_TEXTS = st.lists(st.sampled_from(_FRAGMENTS), max_size=14).map(" ".join)


def _every_spelling_searched(text: str) -> str:
    """canonical_configuration as it was: every pattern run on every text."""
    for canonical, pattern, _ in vocabulary._CONFIGURATION_RES:
        text = pattern.sub(lambda m: canonical + " ", text)
    return text


def _number_terms_searched(text: str) -> set[str]:
    """number_terms as it was: the pattern, without its lookahead of first letters, run on every text."""
    import re

    found = set()
    for match in re.finditer(rf"(?<![\w-]){vocabulary.NUMBER_WORDS}(?![\w])", text, re.IGNORECASE):
        value = vocabulary.number_value(match.group(0))
        if value is not None and match.group(0).lower() not in ("one", "a single"):
            found.add(str(value))
    return found


_OLD_CONDITION_RE = r"\b(?:if|when|whenever|once|until|unless|as\s+soon\s+as|provided(?:\s+that)?|in\s+case|revisit(?:ed|ing)?)\b[^,;:.()\n]*"
_OLD_ABSENCE_RE = r"\b(?:no|without|except(?:\s+for)?|excluding|but\s+not|other\s+than|apart\s+from)\s+[^,;:.()\n]*"


def _unstated_searched(text: str) -> str:
    """_unstated as it was: both patterns, as written before, run on every text."""
    import re

    def blank(match):
        return " " * len(match.group())

    text = re.sub(_OLD_CONDITION_RE, blank, text, flags=re.IGNORECASE)
    outcome = sg106_unmeasured.OUTCOME_RE
    return re.sub(_OLD_ABSENCE_RE, lambda m: m.group() if outcome.search(m.group()) else blank(m), text, flags=re.IGNORECASE)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
@example("bs16 on eight GPUs, if batch size 2 is no faster than half-precision")
def test_gated_sentence_words_are_the_words_searched_everywhere(text):
    assert vocabulary.canonical_configuration(text) == _every_spelling_searched(text)
    assert vocabulary.number_terms(text) == _number_terms_searched(text)
    assert sg106_unmeasured._unstated(text) == _unstated_searched(text)


def test_spelling_heads_are_what_every_spelling_starts_with():
    assert [heads for _, _, heads in vocabulary._CONFIGURATION_RES] == [
        ("batch", "micro", "bs", "mbs"), ("half", "float16", "fp-16"), ("bfloat16", "bf-16"),
        ("float32", "single", "full", "fp-32"), ("gpus", "graphics")]
    assert vocabulary.spelling_head(r"gpus?") == "gpu"  # a quantified last letter is no part of it
    assert vocabulary.spelling_head(r"fp-?16") == "fp"
    assert vocabulary.spelling_head(r"bs*") == "b"
    assert vocabulary.spelling_head(r"batch{1,2}") == "batc"
    assert vocabulary.spelling_head(r"(?:a|b)c") == ""
    assert vocabulary.spelling_head(r"Tensor[\s-]?RT") == "tensor"


class _Unused:
    """A pattern that fails the test when it is run."""

    pattern = "unused"

    def __getattr__(self, name):
        raise AssertionError(f"pattern {name} called")


def test_sentence_words_run_no_pattern_on_text_without_their_words(monkeypatch):
    # Failed before: every sentence of a document with a declaration went through the five configuration
    # spellings, the number words and the two clause patterns, each tried at every character.
    monkeypatch.setattr(vocabulary, "_CONFIGURATION_RES",
                        tuple((c, _Unused(), heads) for c, _, heads in vocabulary._CONFIGURATION_RES))
    monkeypatch.setattr(vocabulary, "NUMBER_WORDS_RE", _Unused())
    monkeypatch.setattr(sg106_unmeasured, "_CONDITION_RE", _Unused())
    monkeypatch.setattr(sg106_unmeasured, "_ABSENCE_RE", _Unused())
    sentence = "FP8 is 1.9x faster than FP16 on the H100 at 800 x 800."
    assert sg106_unmeasured.word_tokens(sg106_unmeasured._unstated(sentence)) == {
        "fp8", "is", "1.9x", "faster", "than", "fp16", "on", "the", "h100", "at", "800x800"}


def test_a_tables_column_words_are_read_once_not_once_a_declaring_row(monkeypatch):
    # Failed before: each row with a "not measured" cell read every column of every row of its table again
    # (rows x rows x columns for a table of such rows).
    calls = []
    real = sg106_unmeasured._column_words
    monkeypatch.setattr(sg106_unmeasured, "_column_words", lambda table: calls.append(table.line) or real(table))
    text = ("# Latency\n\n| shape | fp16 (ms) | fp32 (ms) |\n|---|---:|---:|\n"
            "| 512 x 512 | 3.10 | 6.20 |\n| 640 x 640 | 4.10 | not measured |\n| 800 x 800 | 5.20 | 10.40 |\n"
            "| 1024 x 1024 | not run | 9.90 |\n| 1280 x 1280 | 8.00 | 16.10 |\n")
    from studygen.lint.parse import parse_document

    declared = sg106_unmeasured._declarations(parse_document(text, "t.md"))
    assert calls == [3]
    assert [(item.text, item.line) for item in declared] == [
        ("640 x 640 / fp32", 6), ("1024 x 1024 / fp16", 8)]


# --- SG107: a clause is searched for a comparison only where it holds one's words ------------------------------------

from studygen.lint import sg107_universal_claims, variant_pairs  # noqa: E402

_ALWAYS_SMALLER = ("# Engine files\n\n| model | batch | fp16 (MB) | int4 (MB) |\n|---|---:|---:|---:|\n"
                   "| small | 1 | 310 | 120 |\n| small | 8 | 330 | 345 |\n| large | 1 | 1210 | 520 |\n| large | 8 | 1240 | 1302 |\n\n"
                   "The engines were built on one machine; each build took minutes.\n\n"
                   "At batch 8 the int4 engines are always smaller than the fp16 engines; at batch 1 they are about a third "
                   "of the size.\n")


def test_clauses_without_a_verb_of_ranking_are_not_searched_for_one(monkeypatch):
    # Failed before: every clause of a block holding "than" (or "as ... as", "lead" ...) was searched for each
    # verb of ranking, a pattern tried at every character.
    monkeypatch.setattr(variant_pairs, "RANKING_VERB_RE", _Unused())
    monkeypatch.setattr(sg107_universal_claims, "RANKING_VERB_RE", _Unused())
    found = [(f.code, f.line) for f in lint_text(_ALWAYS_SMALLER, "t.md") if f.code == "SG107"]
    assert found == [("SG107", 12)]


def test_a_block_holding_only_at_least_as_fast_as_is_still_read():
    # the gate lets through a block with "least" and neither "than" nor a verb of ranking: a non-strict comparison
    text = ("# Latency\n\n| GPU | fp16 ms | int8 ms |\n|---|---:|---:|\n| A100 | 7.21 | 5.10 |\n| H100 | 5.30 | 6.40 |\n"
            "| L40S | 8.02 | 6.93 |\n\nThe int8 engine is at least as fast as fp16 on every GPU.\n")
    found = [(f.code, f.line, f.message) for f in lint_text(text, "t.md")]
    assert found == [("SG107", 9, "'The int8 engine is at least as fast as fp16 on every GPU' is contradicted by the table at "
                               "line 3 ('int8 ms' against 'fp16 ms', 3 rows named): row 'H100' has 6.40 against 5.30")]


# --- SG106: a sentence that cannot name a declared configuration is not tokenized --------------------------------------

from studygen.lint import configuration_terms  # noqa: E402


def test_a_configurations_anchor_is_its_longest_plain_term_less_a_letter():
    assert configuration_terms.term_anchor(frozenset({"b300", "tensorrt", "11.1"})) == "11."  # tensorrt: written anew
    assert configuration_terms.term_anchor(frozenset({"latency", "int8"})) == "latenc"  # "latencies" holds it too
    assert configuration_terms.term_anchor(frozenset({"fp8", "6-bit", "8", "a", "batch", "800x800"})) is None
    assert configuration_terms.term_anchor(frozenset({"gpus", "torch.compile"})) == "torch.compil"
    assert configuration_terms.sentence_probe("The **NVFP4** `GEMM`ſ") == "the nvfp4 gemms"


_SENTENCE_FRAGMENTS = ("NVFP4", "nv*fp4*", "**B300**", "TRT", "TensorRT 11.1", "trt-llm", "latencies", "latency", "Latency",
                       "batch size 8", "bs8", "eight", "six-bit integer", "bİt", "bıt", "4 bits", "half-precision", "GPUs",
                       "800 x 800", "800×800", "job a", "a", "b", "if", "no", "without", "faster", "deepep-ll", "DeepEP",
                       "torch.compile", "torch_compile", "ſcatter", "\u212aernel", "kernels", "H100's", "-", ".", ",", "(", ")")
_PHRASES = st.lists(st.sampled_from(_SENTENCE_FRAGMENTS), min_size=1, max_size=6).map(" ".join)


@settings(max_examples=500, deadline=None)
@given(_PHRASES, _PHRASES)
@example("TRT-LLM latency", "trt-llm latencies are lower")
@example("bıt", "4 bits")
def test_a_sentence_naming_a_configuration_holds_its_anchor(item, sentence):
    terms = sg106_unmeasured.item_terms(item)
    tokens = configuration_terms.stemmed(configuration_terms.word_tokens(sg106_unmeasured._unstated(sentence)))
    anchor = configuration_terms.term_anchor(terms)
    if terms and terms <= tokens and anchor is not None:
        assert anchor in configuration_terms.sentence_probe(sentence)
    # a row label's words (SG106's table figures) are of the same text, fewer of them
    if terms and terms <= configuration_terms.stemmed(configuration_terms.named_tokens(sentence)) and anchor is not None:
        assert anchor in configuration_terms.sentence_probe(sentence)


def test_sentences_without_a_declared_configurations_words_are_not_tokenized(monkeypatch):
    # Failed before: every sentence of a document that declares anything went through word_tokens (configuration
    # spellings, number words, formats in words, one-letter names), most of SG106's time.
    tokenized = []
    real = sg106_unmeasured.word_tokens
    monkeypatch.setattr(sg106_unmeasured, "word_tokens", lambda text, parts=True: tokenized.append(text) or real(text, parts))
    text = ("# Study\n\nNVFP4 was not measured.\n\n"
            "FP8 is 1.9x faster than FP16 on the H100. The H100 ran at 700 W. Batch 8 was used throughout.\n\n"
            "NVFP4 is 2x faster than FP8.\n")
    found = [(f.code, f.line) for f in lint_text(text, "t.md") if f.code == "SG106"]
    assert found == [("SG106", 7)]
    sentences = [t for t in tokenized if t != "NVFP4"]  # the declared item itself is read by item_terms
    assert sentences == ["NVFP4 was not measured.", "NVFP4 is 2x faster than FP8."]


# --- SG105: the verdict stems are found by str.find, the stem pattern matched only there ------------------------------

_STEM_FRAGMENTS = ("noise", "noisy", "jitter", "variation", "variance", "statistical\ntest", "statistically", "statistical ",
                   "real\u00a0gain", "real ", "really", "material ", "materially", "errorerror", "errerror", "spread",
                   "indistinguishable", "significant", "insignificant", "deviation", "the", " ", "\t", "x")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_STEM_FRAGMENTS), max_size=10).map("".join))
def test_stem_offsets_are_the_stem_patterns_matches(text):
    assert vocabulary.noise_stem_offsets(text) == [m.start() for m in vocabulary._STEM_RE.finditer(text)]


class _MatchOnly:
    """The stem pattern, whose scan over the whole text fails the test."""

    def __init__(self, pattern):
        self.match = pattern.match

    def finditer(self, *args):
        raise AssertionError("the stem pattern tried at every character")


def test_stem_offsets_match_the_pattern_only_where_a_stem_starts(monkeypatch):
    # Failed before: an alternation of 25 stems was tried at every character of the document (SG105, per document
    # and per block with a stem).
    monkeypatch.setattr(vocabulary, "_STEM_RE", _MatchOnly(vocabulary._STEM_RE))
    assert vocabulary.noise_stem_offsets("the spread and the noise, statistically real\ndifferences") == [4, 19, 26, 40]


# --- SG103: a formula is given up at the miss that leaves too few rows to fit it ----------------------------------------

from types import SimpleNamespace  # noqa: E402

from studygen.lint import derived  # noqa: E402
from studygen.lint.figures import Figure  # noqa: E402


def _figure(value: float, decimals: int = 2, unit: str | None = None) -> Figure:
    return Figure(value, f"{value:.{decimals}f}", decimals, unit, 0, 0)


_VALUES = st.lists(st.tuples(st.integers(1, 40), st.integers(1, 40), st.integers(-60, 60)), min_size=0, max_size=9)


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.sampled_from(sorted(derived.FORMULAS)))
def test_a_formula_given_up_early_is_one_that_would_not_be_taken(rows, formula):
    pairs = [(i, _figure(a / 4), _figure(b / 4)) for i, (a, b, _) in enumerate(rows)]
    target = SimpleNamespace(values=[_figure(c / 8, 1, "%") for _, _, c in rows])
    scored = derived._score(formula, target, pairs)
    taken = scored if scored and derived._enough(scored[0], len(pairs)) else None
    assert derived._score_enough(formula, target, pairs) == taken


def test_a_pair_of_columns_with_too_few_rows_is_passed_over_not_the_end_of_the_pool():
    first = SimpleNamespace(values=[_figure(v) for v in (2.0, 4.0, 6.0, 8.0)])
    sparse = SimpleNamespace(values=[_figure(1.0), None, None, None])
    second = SimpleNamespace(values=[_figure(1.0)] * 4)
    target = SimpleNamespace(values=[_figure(v, 1, "x") for v in (2.0, 4.0, 6.0, 8.0)])
    fits = [(fit.first is first, fit.second is second, fit.matched) for fit in derived.pair_fits(target, ("ratio",), [first, sparse, second])]
    assert fits == [(True, True, [0, 1, 2, 3])]


def test_a_formula_is_not_computed_past_the_miss_that_rules_it_out(monkeypatch):
    # Failed before: every row of every pair of columns was computed for every formula, though a definition fitting
    # fewer than two thirds of the rows is never taken (9 rows: the 4th miss rules it out).
    calls = []
    real = derived.fits
    monkeypatch.setattr(derived, "fits", lambda *args: calls.append(args[0]) or real(*args))
    first = SimpleNamespace(values=[_figure(v) for v in (2.0, 4.0, 6.0, 8.0, 3.0, 5.0, 7.0, 9.0, 1.0)])
    second = SimpleNamespace(values=[_figure(1.0)] * 9)
    target = SimpleNamespace(values=[_figure(9.0, 1, "x")] * 9)  # 9x fits only the last but one row
    assert list(derived.pair_fits(target, ("ratio",), [first, second])) == []
    assert calls == ["ratio"] * 4 * 2  # (first, second) and (second, first), four rows each


def test_row_labels_without_a_declared_configurations_words_are_not_tokenized(monkeypatch):
    # Failed before: every row label and header of every table of a document that declares anything was tokenized.
    read = []
    real = sg106_unmeasured._named_tokens
    monkeypatch.setattr(sg106_unmeasured, "_named_tokens", lambda text: read.append(text) or real(text))
    text = ("# Study\n\nNVFP4 on the B300 was not measured.\n\n| format | GPU | ms |\n|---|---|---:|\n"
            "| FP8 | B300 | 4.10 |\n| NVFP4 | B300 | 3.20 |\n| FP8 | H100 | 5.30 |\n| BF16 | H100 | 7.90 |\n")
    found = [(f.code, f.line, f.message.split(" gives")[0]) for f in lint_text(text, "t.md") if f.code == "SG106"]
    assert found == [("SG106", 8, "'NVFP4 on the B300' is declared not measured (line 3) but row 'NVFP4 / B300' (line 8)")]
    assert [t for t in read if "/" in t and "|" not in t] == ["format / GPU", "NVFP4 / B300"]  # label headers, the one row


@settings(max_examples=300, deadline=None)
@given(st.from_regex(re.compile(variant_pairs.RANKING_VERB_RE.pattern, variant_pairs.RANKING_VERB_RE.flags)))
def test_every_text_the_ranking_verb_pattern_matches_holds_one_of_its_stems(text):
    """SG107 searches a clause for a verb of ranking only where its folded text holds one of RANKING_STEMS;
    texts drawn from the pattern itself, so that a verb added to it without its stem fails here."""
    match = variant_pairs.RANKING_VERB_RE.search(text)
    assert match is not None
    assert any(stem in ascii_folded(match.group(0)) for stem in variant_pairs.RANKING_STEMS)
