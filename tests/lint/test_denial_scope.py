"""SG107 reads a denial only in the comparison's own clause: a clause joined
to it by a colon, a semicolon, a dash or a conjunction ("so", "although",
"because" ...) denies something else. Case (a new user's trial): "Not
shipped: fp16 is always faster than fp32." passed with 0 findings, as did
the claim followed by ", so we did not ship it" or after "Not shipped,
although"; decision summaries often open with "Not shipped". A claim that
is denied in its own clause stays unread. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# the L4 row goes against "int8 is always faster than bf16"
TABLE = """\
# Quantized engines

| GPU | bf16 (ms) | int8 (ms) |
|---|---|---|
| L40S | 2.84 | 1.97 |
| L4 | 5.12 | 5.61 |

{claim}
"""

CONTRADICTED = "row 'L4' has 5.61 against 5.12"


def _sg107(claim: str) -> list[str]:
    return [f.message for f in lint_text(TABLE.format(claim=claim), "t.md") if f.code == "SG107"]


@pytest.mark.parametrize("claim", [
    "Not shipped: int8 is always faster than bf16.",
    "Not shipped, although int8 is always faster than bf16.",
    "int8 is always faster than bf16, so we did not ship it.",
    "int8 is always faster than bf16 so the bf16 engine was not kept.",
    "int8 is always faster than bf16 because it does not dequantize.",
    "We did not keep it -- int8 is always faster than bf16.",
    "Though not calibrated, int8 is always faster than bf16.",
])
def test_a_denial_in_a_joined_clause_leaves_the_claim_read(claim):
    (message,) = _sg107(claim)
    assert message.endswith(CONTRADICTED)


def test_the_claim_alone_is_read_the_same_way():
    (message,) = _sg107("int8 is always faster than bf16.")
    assert message.startswith("'int8 is always faster than bf16' is contradicted by the table at line 3")
    assert message.endswith(CONTRADICTED)


@pytest.mark.parametrize("claim", [
    "int8 is not always faster than bf16.",
    "Not shipped: int8 is not always faster than bf16.",
    "It is not true that int8 is always faster than bf16.",
    "int8 is not yet always faster than bf16.",
    "int8 is not always so much faster than bf16.",
    "int8 is always faster than bf16 but not on the L4.",
    "int8, though not always faster than bf16, was shipped.",
    "Although int8 is not, on every GPU, faster than bf16, it was shipped.",
    "No GPU runs int8 always faster than bf16.",
])
def test_a_claim_denied_in_its_own_clause_stays_unread(claim):
    assert _sg107(claim) == []


def test_a_non_strict_comparison_keeps_its_own_no():
    # "no slower than" is the comparison's word: read as "not slower", and the L4 row (5.61 > 5.12) contradicts it
    (message,) = _sg107("Not shipped: int8 is no slower than bf16 on every GPU.")
    assert message.endswith(CONTRADICTED)
