"""The one reporter of findings, in its three forms (text, json, github),
with every output written out by hand: sort order, severities, pointers,
hints, details, waivers, escaping, and the summary line."""

from __future__ import annotations

import json

import pytest

from studygen.findings import (ERROR, NOTICE, WARNING, Finding, format_github, format_json, format_text, has_errors,
                               summary_line)

STALE = Finding("SG201", "README is stale: it differs", "families/a/README.md", line=9,
                hint="run studygen render a", detail="--- old\n+++ new")
FAST = Finding("SG202", "'fast' is not of type 'number'", "measurements/a/j.json", line=30, pointer="/results/3/value_ms",
               hint="fix the file")
COUNT = Finding("SG205", "count 3 but 2 ids", "measurements/a/datasets/d.json", pointer="/count")
SLOW = Finding("SG208", "fp16 (2.1 ms) is slower than fp32", "measurements/a/j.json", line=12, pointer="/results/1/value_ms",
               hint="explain it")
WAIVED = Finding("SG203", "same measurement disagrees", "measurements/a/j.json", line=12, pointer="/results/0/value",
                 hint="reconcile", detail="a\nb").waived("two jobs, no repeats")


def test_text_sorted_by_place_with_severity_pointer_hint_detail_and_waiver():
    assert format_text([FAST, WAIVED, STALE, COUNT, SLOW]) == "\n".join([
        "families/a/README.md:9: SG201 README is stale: it differs",
        "    hint: run studygen render a",
        "    --- old",
        "    +++ new",
        "measurements/a/datasets/d.json:/count: SG205 count 3 but 2 ids",
        "measurements/a/j.json:12: SG203 [notice] same measurement disagrees [waived: two jobs, no repeats] (/results/0/value)",
        "measurements/a/j.json:12: SG208 [warning] fp16 (2.1 ms) is slower than fp32 (/results/1/value_ms)",
        "    hint: explain it",
        "measurements/a/j.json:30: SG202 'fast' is not of type 'number' (/results/3/value_ms)",
        "    hint: fix the file",
        "3 error(s), 1 warning(s), 1 waived",
    ])


def test_text_keeps_each_finding_on_one_line():
    finding = Finding("SG209", "GPU 'B200\nx' and\r'y'", "r.json", line=2, hint="a\nb")
    assert format_text([finding]).splitlines() == ["r.json:2: SG209 GPU 'B200\\nx' and\\r'y'", "    hint: a\\nb",
                                                   "1 error(s), 0 warning(s)"]


def test_json_lists_every_field_sorted_two_space_indented():
    text = format_json([SLOW, COUNT])
    assert text.startswith('[\n  {\n    "code": "SG205",\n')
    assert json.loads(text) == [
        {"code": "SG205", "message": "count 3 but 2 ids", "file": "measurements/a/datasets/d.json", "line": 0,
         "severity": ERROR, "hint": "", "pointer": "/count", "key": None, "detail": "", "waived_reason": None},
        {"code": "SG208", "message": "fp16 (2.1 ms) is slower than fp32", "file": "measurements/a/j.json", "line": 12,
         "severity": WARNING, "hint": "explain it", "pointer": "/results/1/value_ms", "key": None, "detail": "",
         "waived_reason": None},
    ]
    assert json.loads(format_json([WAIVED]))[0]["waived_reason"] == "two jobs, no repeats"
    assert format_json([]) == "[]"


def test_github_workflow_commands_escaped():
    odd = Finding("SG203", "50% off: a,b\r\nc", "m/a,b:c.json", line=4, pointer="/x", hint="h%1")
    assert format_github([SLOW, odd, WAIVED]).splitlines() == [
        "::error file=m/a%2Cb%3Ac.json,line=4,title=SG203::SG203 50%25 off: a,b%0D%0Ac (/x)%0Ahint: h%251",
        "::notice file=measurements/a/j.json,line=12,title=SG203::SG203 same measurement disagrees (/results/0/value)"
        "%0Awaived: two jobs, no repeats",
        "::warning file=measurements/a/j.json,line=12,title=SG208::SG208 fp16 (2.1 ms) is slower than fp32"
        " (/results/1/value_ms)%0Ahint: explain it",
        "1 error(s), 1 warning(s), 1 waived",
    ]
    assert format_github([COUNT]).splitlines()[0] == (
        "::error file=measurements/a/datasets/d.json,title=SG205::SG205 count 3 but 2 ids (/count)")


def test_summary_and_exit_status():
    assert summary_line([]) == "0 error(s), 0 warning(s)"
    assert summary_line([STALE, FAST, SLOW, SLOW, WAIVED]) == "2 error(s), 2 warning(s), 1 waived"
    assert has_errors([SLOW, WAIVED]) is False and has_errors([SLOW, COUNT]) is True and has_errors([]) is False


def test_waived_keeps_the_finding_and_the_reason():
    waived = SLOW.waived("expected on this GPU")
    assert (waived.severity, waived.waived_reason) == (NOTICE, "expected on this GPU")
    assert (waived.code, waived.message, waived.place, waived.hint) == (SLOW.code, SLOW.message, SLOW.place, SLOW.hint)


def test_one_place_two_pointers_sort_by_pointer_then_message():
    # same file, line and code: the pointer decides (none first), then the message
    a = Finding("SG203", "b disagrees", "r.json", line=5, pointer="/results/0/value_ms")
    b = Finding("SG203", "a disagrees", "r.json", line=5, pointer="/results/0")
    c = Finding("SG203", "c disagrees", "r.json", line=5)
    d = Finding("SG203", "0 disagrees", "r.json", line=5, pointer="/results/0")
    assert format_text([a, b, c, d]).splitlines()[:4] == [
        "r.json:5: SG203 c disagrees",
        "r.json:5: SG203 0 disagrees (/results/0)",
        "r.json:5: SG203 a disagrees (/results/0)",
        "r.json:5: SG203 b disagrees (/results/0/value_ms)",
    ]


def test_unknown_code_or_severity_is_refused():
    with pytest.raises(ValueError, match="unknown finding code SG999"):
        Finding("SG999", "m", "f")
    with pytest.raises(ValueError, match="unknown severity fatal"):
        Finding("SG201", "m", "f", severity="fatal")


# A row label a document carried into a message: an OSC sequence that sets the terminal's title, a
# C1 CSI byte, a tab, and a U+202E that would show the rest of the line reversed.
HOSTILE = Finding("SG101", "range leaves out row 'r4\x1b]0;OWNED\x07\x9b2J\tx\u202ey'", "docs/\x1bb.md", line=11,
                  hint="widen it past 'r4\x1b]0;OWNED\x07'", detail="cell\x1b[31m red")


def test_text_shows_control_characters_and_overrides_as_escapes():
    assert format_text([HOSTILE]).splitlines() == [
        "docs/\\x1bb.md:11: SG101 range leaves out row 'r4\\x1b]0;OWNED\\x07\\x9b2J\\tx\\u202ey'",
        "    hint: widen it past 'r4\\x1b]0;OWNED\\x07'",
        "    cell\\x1b[31m red",
        "1 error(s), 0 warning(s)",
    ]


def test_github_shows_control_characters_as_escapes_and_keeps_its_line_breaks():
    (line, _) = format_github([HOSTILE]).splitlines()
    assert line == ("::error file=docs/\\x1bb.md,line=11,title=SG101::SG101 range leaves out row "
                    "'r4\\x1b]0;OWNED\\x07\\x9b2J\\tx\\u202ey'%0Ahint: widen it past 'r4\\x1b]0;OWNED\\x07'")


def test_an_error_line_shows_control_characters_as_escapes():
    from studygen.errors import InputError

    error = InputError("label 'a\x1b]52;c;aGk=\x07' refused\nsecond", path="logs/\x1bx.log", line=3)
    assert error.line() == "logs/\\x1bx.log:3: label 'a\\x1b]52;c;aGk=\\x07' refused\\nsecond"


def test_text_that_is_not_utf8_is_placed_at_its_line_and_byte():
    from studygen.errors import InputError
    from studygen.textio import decode_text

    raw = b"\xef\xbb\xbf# T\n\n" + b"row\n" * 40 + b"ab\xe2\x82\n"  # a euro sign cut after two of its three bytes
    with pytest.raises(InputError) as refused:
        decode_text(raw, "notes/cut.md")
    # the bad sequence starts at the line's third byte; the file counts the 3-byte mark too: 3 + 5 + 160 + 2 = 170
    assert refused.value.line() == "notes/cut.md:43: not UTF-8 text: byte 3 of the line (byte 171 of the file)"
