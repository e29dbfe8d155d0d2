"""SG107 over several tables that could back one universal comparison (an
eager and a compiled table, both with fp16 and int8 columns): each candidate
is judged; the claim is reported when every candidate contradicts it, or when
the one candidate in the claim's own section does. Documents of our own."""

from __future__ import annotations

from studygen.lint import lint_text

# int8 against fp16 (ms); the Orin row is given per document: 8.80 against 8.10 goes against "faster"
EAGER = """\
# Eager

| Board | fp16 (ms) | int8 (ms) |
|---|---:|---:|
| Xavier | 14.2 | 11.9 |
| Orin | 8.10 | {orin} |

"""
COMPILED = """\
# Compiled

| Board | fp16 (ms) | int8 (ms) |
|---|---:|---:|
| Xavier | 10.6 | 8.45 |
| Orin | 6.05 | {orin} |

"""
CLAIM = "int8 is faster than fp16 on every board.\n"


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_every_candidate_contradicting_is_reported_with_each_table():
    text = EAGER.format(orin="8.80") + COMPILED.format(orin="6.50") + "# Summary\n\n" + CLAIM
    ((line, message),) = _sg107(text)
    assert line == 17
    assert "contradicted by every table that could back it" in message
    assert "the table at line 3" in message and "row 'Orin' has 8.80 against 8.10" in message
    assert "the table at line 10" in message and "row 'Orin' has 6.50 against 6.05" in message


def test_one_candidate_bearing_the_claim_out_keeps_it_quiet():
    text = EAGER.format(orin="8.80") + COMPILED.format(orin="5.20") + "# Summary\n\n" + CLAIM
    assert _sg107(text) == []


def test_the_candidate_in_the_claims_own_section_is_judged_alone():
    # the claim under the eager table: the eager Orin row contradicts it, whatever the compiled table says
    text = COMPILED.format(orin="5.20") + EAGER.format(orin="8.80") + CLAIM
    ((line, message),) = _sg107(text)
    assert line == 15 and "the table at line 10" in message and "every table" not in message
    assert "line 3" not in message
    # and bears it out alone when its own rows do
    assert _sg107(COMPILED.format(orin="6.50") + EAGER.format(orin="7.90") + CLAIM) == []
