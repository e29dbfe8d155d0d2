"""studygen.compare.sentences: verdicts read from a sentence, and sentences paired across two READMEs.

The documents are written here for the tests (made-up studies, their figures invented)."""

from __future__ import annotations

import pytest

from studygen.compare.sentences import compare_sentences, verdicts_of
from studygen.render.stats import BEYOND_NOISE, NOISE_VERDICT


@pytest.mark.parametrize("sentence, verdicts", [
    ("INT8 is no faster than fp16 at batch 4.", {"no faster"}),
    ("INT8 is not any faster than fp16.", {"no faster"}),
    ("INT8 isn't faster than fp16 on the L4.", {"no faster"}),
    ("INT8 is never slower than fp16.", {"no slower"}),
    ("INT8 is faster than fp16 at batch 4.", {"faster"}),
    ("The pruned engine runs slower on the A10.", {"slower"}),
    ("The pruned engine takes less memory than the dense one.", {"less"}),
    ("The plan is 40 % smaller than fp16's.", {"smaller"}),
    ("The plan takes more or less the same memory.", set()),  # "more" compares nothing here
    ("More images were evaluated this time.", set()),
    ("A ratio above one would mean INT8 is faster.", set()),  # an expectation, not a result
    ("We expect INT8 to be faster once the kernels land, but today it is slower.", {"slower"}),
    ("Today INT8 is slower, but it should be faster once the kernels land.", {"slower"}),
    ("The difference stays within run-to-run noise.", {"within noise"}),
    ("The two are indistinguishable over five repeats.", {"within noise"}),
    ("The gap lies beyond the repeat-to-repeat spread.", {"beyond noise"}),
    ("fp16 at 8.2 ms, INT8 at 7.9 ms.", set()),
    # "not" negates its clause's verb, however many words stand between it and the direction word
    ("FP8 does not make the engine faster.", {"no faster"}),
    ("The new plan doesn't make batch 8 any slower on the A10.", {"no slower"}),
    # ... but not across a clause break, and "no" only qualifies the words right after it
    ("FP8 is not shipped, but the engine is faster.", {"faster"}),
    ("With no calibration set at all the engine is faster.", {"faster"}),
])
def test_verdicts_of_a_sentence(sentence, verdicts):
    assert verdicts_of(sentence) == frozenset(verdicts)


def test_render_noise_verdicts_read_as_verdicts():
    assert verdicts_of(f"fp8 minus fp16: +0.1 ms: {NOISE_VERDICT}") == {"within noise"}
    assert verdicts_of(f"fp8 minus fp16: +0.9 ms: {BEYOND_NOISE}") == {"beyond noise"}


OLD = """# A study

## Summary

Ship nothing yet. INT8 is no faster than fp16 on the L4: both take about 3 ms.

- INT8 over fp16 latency is 0.97x to 1.02x over both batches.
- The INT8 plan is 41 % smaller than fp16's.
- Calibration used 512 images.

## Side findings

- bf16 is slower than fp16 at batch 1: 3.40 ms against 3.10 ms.
- bf16 is slower than fp16 at batch 8: 9.80 ms against 9.10 ms.
"""


def changes(old: str, new: str):
    return compare_sentences(old, new, "README.md")


def test_the_same_document_has_no_change():
    assert changes(OLD, OLD) == []


def test_figures_that_moved_pair_each_sentence_with_itself():
    new = OLD.replace("0.97x to 1.02x", "0.95x to 1.01x").replace("9.80 ms against 9.10", "9.85 ms against 9.05")
    found = changes(OLD, new)
    assert [(c.old.text, c.new.text) for c in found] == [
        ("INT8 over fp16 latency is 0.97x to 1.02x over both batches.",
         "INT8 over fp16 latency is 0.95x to 1.01x over both batches."),
        ("bf16 is slower than fp16 at batch 8: 9.80 ms against 9.10 ms.",
         "bf16 is slower than fp16 at batch 8: 9.85 ms against 9.05 ms.")]
    assert not any(c.verdict_changed for c in found)
    assert [c.new.line for c in found] == [7, 14]


def test_a_flipped_verdict_is_a_verdict_change():
    new = OLD.replace("INT8 is no faster than fp16 on the L4", "INT8 is faster than fp16 on the L4")
    (change,) = changes(OLD, new)
    assert change.verdict_changed
    assert (change.old.verdicts, change.new.verdicts) == ({"no faster"}, {"faster"})
    assert change.new.line == 5 and change.new.heading == "Summary"


def test_a_sentence_without_verdict_or_range_is_not_reported():
    assert changes(OLD, OLD.replace("512 images", "1024 images")) == []


def test_reordered_bullets_pair_by_what_they_compare_not_by_position():
    new = OLD.replace("- bf16 is slower than fp16 at batch 1: 3.40 ms against 3.10 ms.\n"
                      "- bf16 is slower than fp16 at batch 8: 9.80 ms against 9.10 ms.\n",
                      "- bf16 is slower than fp16 at batch 8: 9.70 ms against 9.10 ms.\n"
                      "- bf16 is slower than fp16 at batch 1: 3.45 ms against 3.10 ms.\n")
    found = changes(OLD, new)
    assert sorted((c.old.text[:40], c.new.text[:40]) for c in found) == [
        ("bf16 is slower than fp16 at batch 1: 3.4", "bf16 is slower than fp16 at batch 1: 3.4"),
        ("bf16 is slower than fp16 at batch 8: 9.8", "bf16 is slower than fp16 at batch 8: 9.7")]


def test_a_sentence_whose_counterpart_is_taken_is_removed_not_paired_with_another_comparison():
    new = OLD.replace("- bf16 is slower than fp16 at batch 1: 3.40 ms against 3.10 ms.\n",
                      "- INT8 is slower than bf16 at batch 1: 3.50 ms against 3.40 ms.\n"
                      "- bf16 is slower than fp16 at batch 1: 3.40 ms against 3.15 ms.\n")
    found = changes(OLD, new)
    kinds = [(c.old is not None, c.new is not None) for c in found]
    assert kinds == [(False, True), (True, True)]
    assert found[0].new.text.startswith("INT8 is slower than bf16")


def test_added_and_removed_sentences_with_verdicts():
    new = OLD.replace("- The INT8 plan is 41 % smaller than fp16's.\n", "") + \
        "\nThe INT8 engine builds faster than the fp16 engine.\n"
    found = changes(OLD, new)
    assert [(c.old and c.old.text, c.new and c.new.text) for c in found] == [
        (None, "The INT8 engine builds faster than the fp16 engine."),
        ("The INT8 plan is 41 % smaller than fp16's.", None)]
    assert not any(c.verdict_changed for c in found)
    assert changes(None, OLD)[0].old is None and changes(OLD, None)[-1].new is None


def test_a_sentence_moved_elsewhere_with_new_figures_is_paired():
    moved = "- bf16 is slower than fp16 at batch 8: 9.80 ms against 9.10 ms.\n"
    new = OLD.replace(moved, "").replace("## Summary\n\n", "## Summary\n\n" + moved.replace("9.80", "9.95")[2:] + "\n")
    (change,) = changes(OLD, new)
    assert change.old.text == "bf16 is slower than fp16 at batch 8: 9.80 ms against 9.10 ms."
    assert change.new.text == "bf16 is slower than fp16 at batch 8: 9.95 ms against 9.10 ms."
    assert (change.old.heading, change.new.heading) == ("Side findings", "Summary")


def test_a_sentence_half_rewritten_is_still_one_sentence_edited():
    old = "Intro.\n\nINT8 is no faster than fp16 on the L4, because its casts cost what its GEMMs save.\n\nEnd.\n"
    new = "Intro.\n\nINT8 is faster than fp16 on the L4 once the casts are fused into the GEMM kernels.\n\nEnd.\n"
    (change,) = changes(old, new)
    assert change.old is not None and change.new is not None and change.verdict_changed


def test_pairing_holds_at_exactly_the_pairing_ratio():
    import difflib

    from studygen.compare.sentences import PAIRING_RATIO
    old_sentence = "alpha beta gamma is faster than " + " ".join(f"old{i}" for i in range(13)) + " end"
    new_sentence = "alpha beta gamma is slower than " + " ".join(f"new{i}" for i in range(13)) + " end"
    ratio = difflib.SequenceMatcher(None, old_sentence.split(), new_sentence.split()).ratio()
    assert ratio == PAIRING_RATIO  # 2 x 6 shared words / 40 words
    (change,) = changes(f"One.\n\n{old_sentence}.\n", f"One.\n\n{new_sentence}.\n")
    assert change.verdict_changed


def test_a_new_sentence_whose_counterpart_is_taken_is_added_not_paired_with_another_comparison():
    old = ("- fp16 is slower than fp32 at batch 8: 9.10 ms against 9.00 ms.\n"
           "- FP8 recipe (linears) is slower than fp16 at batch 1: 3.50 ms against 3.10 ms.\n")
    new = ("- fp16 is slower than fp32 at batch 8: 9.20 ms against 9.00 ms.\n"
           "- bf16 is slower than fp32 at batch 8: 9.60 ms against 9.00 ms.\n")
    found = changes(old, new)
    assert [(c.old and c.old.text[:12], c.new and c.new.text[:12]) for c in found] == [
        ("fp16 is slow", "fp16 is slow"), (None, "bf16 is slow"), ("FP8 recipe (", None)]


def test_a_candidate_passed_over_does_not_end_the_pairing():
    """Best first: A-A' (1.0), then A-B' (0.91, A is taken: passed over), then B-B' (0.88) still pairs."""
    a = "INT8 on the L4 at batch 8 is faster than fp16 by 1.50 ms per image."
    b = "INT8 on the T4 at batch 4 is faster than fp16 by 1.20 ms per image overall."
    a_new = a.replace("1.50", "1.60")
    b_new = "INT8 on the L4 at batch 8 is faster than fp16 by 1.70 ms per image overall."
    found = changes(f"{a}\n\n{b}\n", f"{a_new}\n\n{b_new}\n")
    assert [(c.old.text, c.new.text) for c in found] == [(a, a_new), (b, b_new)]


def test_a_hand_edit_that_drops_a_distant_not_flips_the_verdict():
    # the deformable_detr README's decision sentence, edited by hand the way a pull request might
    old = ("# Study\n\nFP8 is not shipped for this family: it does not make the engine faster, it costs a little AP, "
           "and the only gain is a smaller engine plan.\n")
    new = old.replace("it does not make the engine faster", "it makes the engine faster")
    (change,) = compare_sentences(old, new, "README.md")
    assert change.verdict_changed
    assert (change.old.verdicts, change.new.verdicts) == ({"no faster"}, {"faster"})
