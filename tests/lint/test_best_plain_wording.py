"""SG107 best-of claims in two plain wordings (studygen/lint/best_wording.py): a superlative after a copula
with no article ("kx is fastest"), and a claim followed by its cause ("... due to its paged cache", "thanks to
...", "because ..."), which explains the ranking and names no rows. Documents and figures of our own."""

from __future__ import annotations

from studygen.lint import lint_text

from .test_best_unquoted import ENGINES as ENGINES_TABLE

# three serving engines (the best-of tests' table): "mx" is the fastest on both quantities, "kx" second, "qr" the slowest
ENGINES = "# Engines\n\n" + ENGINES_TABLE


def _sg107(prose: str) -> list:
    return [f for f in lint_text(ENGINES + prose + "\n", "engines.md") if f.code == "SG107"]


def test_a_superlative_after_a_bare_copula_is_read():
    (finding,) = _sg107("kx is fastest.")
    assert finding.line == 9
    assert "'kx is fastest' is contradicted by the table at line 3" in finding.message
    assert "'mx' is faster than it" in finding.message
    assert "row 'kx' has 12.0, row 'mx' 10.5" in finding.message


def test_a_bare_superlative_with_an_adverb_and_a_closing_word_is_read():
    (finding,) = _sg107("kx is still slowest overall.")
    assert "'kx is still slowest overall' is contradicted" in finding.message
    assert "'qr' is slower than it" in finding.message


def test_a_bare_superlative_that_holds_is_no_finding():
    assert _sg107("mx is fastest.") == []
    assert _sg107("qr is slowest.") == []


def test_a_bare_best_that_recommends_is_not_read():
    # "best suited", "best for" recommend a row for a use; they rank no figure
    assert _sg107("kx is best suited to batch jobs.") == []
    assert _sg107("kx is best for long prompts.") == []


def test_a_bare_superlative_over_a_named_subset_is_not_read():
    assert _sg107("kx is fastest for long prompts.") == []


def test_a_cause_after_a_figure_less_claim_does_not_hide_it():
    (finding,) = _sg107("kx is the fastest engine due to its paged cache.")
    assert finding.line == 9
    # the claim is quoted without its cause
    assert "'kx is the fastest engine' is contradicted" in finding.message
    (finding,) = _sg107("kx is fastest because it batches requests.")
    assert "'kx is fastest' is contradicted" in finding.message


def test_a_cause_after_a_quoted_figure_does_not_hide_it():
    (finding,) = _sg107("kx is the fastest at 12.0 ms thanks to its paged cache.")
    assert finding.line == 9
    assert "names row 'kx' the smallest 'latency (ms)' of 3 rows" in finding.message
    assert "row 'mx' has 10.5" in finding.message


def test_a_cause_does_not_restrict_the_rows_to_the_labels_it_names():
    # the cause names "qr"; the claim still ranks kx over all three rows
    (finding,) = _sg107("kx is fastest thanks to qr's old scheduler being replaced.")
    assert "'mx' is faster than it" in finding.message


def test_a_true_claim_with_a_cause_is_no_finding():
    assert _sg107("mx is the fastest engine due to its paged cache.") == []
    assert _sg107("mx is the fastest at 10.5 ms thanks to its paged cache.") == []


def test_a_restriction_before_the_cause_still_keeps_the_claim_unread():
    # "for long prompts" names a set no label resolves, whatever the cause after it
    assert _sg107("kx is the fastest engine for long prompts due to its paged cache.") == []
