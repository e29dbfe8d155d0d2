"""SG224's cut of a clause at ", and", ", but", ", while", ", whereas", ", yet"
(:func:`~studygen.checks.prose_clauses.conjunct_bounds`) where the
joined parts are not two statements: the last item of a list ("the V100, the
P100, and the K80 are ..."), a quoted passage, and a clause that cites a
source for all it says. Cases (an attack, session 27): the list's first two
GPUs went unreported, and a cited or quoted claim became the study's own in
the part after the cut. The study: one record of fp16 on an L40S (5.5 ms);
figures made up."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg224_unmeasured_gpu
from studygen.checks.sg224_unmeasured_gpu import clause_bounds, conjunct_bounds

from .studies import collected_provenance, latency, load, record, spec


def _keys(tmp_path, summary: str) -> list[str]:
    records = [record("l40s", [latency("fp16", 5.5)], collected_provenance(gpu="NVIDIA L40S"))]
    study = load(tmp_path, records=records,
                 study=spec(title="Toy detector", decision={"shipped": False, "summary": summary}))
    return [f.key.split(" ", 1)[1] for f in sg224_unmeasured_gpu.check(CheckContext(study))]


@pytest.mark.parametrize(("summary", "named"), [
    # a list's last item after ", and" is one subject with the items before it: each is reported
    ("The V100, the P100, and the K80 are each 3x slower than the L40S.", ["V100", "P100", "K80"]),
    ("On the L40S, the T4, and the A30, fp16 is 1.7x faster.", ["T4", "A30"]),
    # a list ended by its own "or" is no item of the conjunction after it: the denial stays in its part
    ("We did not try int4, int8, or fp4, and on the A30 fp16 takes 2.2 ms.", ["A30"]),
])
def test_a_list_is_not_cut_at_its_last_item(tmp_path, summary, named):
    assert _keys(tmp_path, summary) == named


@pytest.mark.parametrize("summary", [
    "According to the vendor, the A30 is 2.5x faster, and int8 adds 1.6x on top.",
    "In the B100 datasheet, int4 is 2x faster than int8, and int8 is 2x faster than fp16.",
    '"int8 is 2x faster on the A30, and the T4 is 1.3x slower", the vendor\'s blog says.',
    "\u201cThe A30 is 3x faster, and the T4 is 2x slower\u201d, a 2024 white paper says.",
    # a quotation denied after it: its ", and" cuts nothing out of the denial's reach
    '"The A30 is 3x faster, and the T4 is 2x slower" is not what our runs show.',
])
def test_a_cited_or_quoted_clause_is_cited_in_every_part(tmp_path, summary):
    assert _keys(tmp_path, summary) == []


def test_a_denial_still_holds_in_its_own_part_only(tmp_path):
    # the cut still does its work where the parts are statements of their own
    assert _keys(tmp_path, "We did not try int8, but on the A30 fp16 is 1.4x faster.") == ["A30"]
    text = "The T4, the A30, and the L4 ran, and fp16 is 1.2x faster."
    start = text.index("L4")
    # the list's ", and" joins no statements; the one after "ran" does
    assert conjunct_bounds(text, clause_bounds(text, start), start) == (0, text.index(", and fp16"))


@pytest.mark.parametrize(("summary", "messages"), [
    ("We never tried int8, and the T4 run was measured at batch 2.",
     ["/decision/summary states a result at batch 2 for the T4, which none of its records measured "
      "(batches measured for the T4: 16)"]),
    ("The L40S ran batch 2, and the T4 ran batch 2 as well.",
     ["/decision/summary states a result at batch 2 for the T4, which none of its records measured "
      "(batches measured for the T4: 16)"]),
    ("We never tried int8, and the T4 run was measured at batch 16.", []),
    ("Batch 64 was not measured on the L40S, and batch 32 only on a later T4 run.", []),
])
def test_a_batch_is_read_in_its_part_of_the_clause(tmp_path, summary, messages):
    # fp16 on an L40S at batch 2 and on a T4 at batch 16 (the batch reading was of the whole clause: the first two
    # passed, the denial or the other GPU's batch answering for the part)
    records = [record("l40s", [latency("fp16", 4.1, batch=2)], collected_provenance(gpu="NVIDIA L40S")),
               record("t4", [latency("fp16", 22.0, batch=16)], collected_provenance(gpu="Tesla T4"))]
    study = load(tmp_path, records=records,
                 study=spec(title="Toy detector", decision={"shipped": False, "summary": summary}))
    assert [f.message for f in sg224_unmeasured_gpu.check(CheckContext(study)) if " batch " in f.message] == messages
