"""studygen.lint.vocabulary: the field's words shared by lint and check
(repeat counts, evidence, formats and counts written in words)."""

from __future__ import annotations

from studygen.lint.vocabulary import format_aliases, format_mentions, has_evidence, number_terms, repeat_counts


def test_repeat_counts_allow_one_word_between_count_and_noun():
    assert [c for c, _, _ in repeat_counts("across four timed runs")] == [4]
    assert repeat_counts("over five of the cold runs") == []  # three words between: not a count of runs


def test_two_repeats_are_evidence_one_is_not():
    assert has_evidence("medians of two runs")
    assert has_evidence("over 2 repeats")
    assert not has_evidence("from a single run")
    assert not has_evidence("from 1 run")


def test_format_mentions_with_their_places():
    # "six-bit integer" is characters 2 to 17, "8-bit floating point" 26 to 46, "four-bit" 48 to 56
    text = "a six-bit integer format, 8-bit floating point, four-bit weights and a 128-bit bus"
    assert format_mentions(text) == [("int6", 2, 17), ("6-bit", 2, 17), ("fp8", 26, 46), ("8-bit", 26, 46),
                                     ("4-bit", 48, 56)]
    # 64 bits is still a format width, 65 is none; later mentions are read past a wide one
    assert format_aliases("a 65-bit word, then a 64-bit float") == {"fp64", "64-bit"}
    assert format_aliases("4-bit normal-float weights") == {"nf4", "4-bit"}
    assert format_aliases("a 4-bit microscaling format") == {"mxfp4", "4-bit"}


def test_number_terms_give_digits_for_counts_in_words():
    assert number_terms("eight GPUs and a dozen nodes, one host, a single rack") == {"8", "12"}
    assert number_terms("no numbers here") == set()
