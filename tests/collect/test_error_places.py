"""The place a JSON refusal names: its pointer when the reader knows one, else
the line the value starts on, never both parsed from one string. Each case
is a file whose bad value sits at a line or pointer counted by hand."""

from __future__ import annotations

import pytest

from studygen.collect.coco_json import JsonText
from studygen.collect.inputs import decode_at, decoder, parse_json_values
from studygen.errors import InputError
from studygen.place import Place

DEEP = "[" * 100_000 + "]" * 100_000  # past Python's recursion limit in json's scanner
TOO_DEEP = ("malformed JSON: nested too deeply to read (arrays or objects about 1000 levels deep; "
            "no trtexec, profiler or COCO file nests more than 10)")
INFINITE = "number 1e400 is out of range: not a finite double (it would read as infinity)"
SURROGATE = "a lone surrogate (\\ud800) in a string: not a Unicode character, so not writable as UTF-8"


def refusal(read) -> InputError:
    with pytest.raises(InputError) as raised:
        read()
    return raised.value


@pytest.mark.parametrize(("text", "place", "message"), [
    # one value: the whole value is refused, so its line (3) and no pointer
    ("\n\n1e400\n", Place("t.json", 3), INFINITE),
    # several values back to back: the second is /1
    ("[1]\n1e400\n", Place("t.json", 0, "/1"), INFINITE),
    ("\n" + DEEP, Place("t.json", 2), TOO_DEEP),
    # a lone surrogate in the one top-level string: the pointer of the whole document
    ('\n"\\ud800"\n', Place("t.json", 0, "/"), SURROGATE),
    ('[1]\n"\\ud800"\n', Place("t.json", 0, "/1"), SURROGATE),
])
def test_collector_json_refusal_names_its_line_or_its_pointer(text, place, message):
    error = refusal(lambda: parse_json_values(text, "t.json"))
    assert (error.place, error.message) == (place, message)


def test_decode_at_names_the_pointer_it_is_given_for_nesting_too_deep():
    error = refusal(lambda: decode_at(decoder(), "\n" + DEEP, 1, "t.json", "/results/2"))
    assert error.line() == f"t.json:/results/2: {TOO_DEEP}"


@pytest.mark.parametrize(("text", "pointer", "shown"), [
    ("\n\nNaN", "", "c.json:3: malformed JSON: NaN is not valid JSON"),
    ("\n\nNaN", "/images/0", "c.json:/images/0: malformed JSON: NaN is not valid JSON"),
    ("\n\n1" + "1" * 5000, "", "c.json:3: malformed JSON: an integer with more than 4300 digits (no measurement has that many)"),
    # nesting too deep names the element's pointer only: at the top there is none
    ("\n" + DEEP, "", "c.json: malformed JSON: nested too deeply to read"),
    ("\n" + DEEP, "/annotations/3", "c.json:/annotations/3: malformed JSON: nested too deeply to read"),
])
def test_coco_json_value_refusal_names_its_line_or_its_pointer(text, pointer, shown):
    assert refusal(lambda: JsonText(text, "c.json").value(0, pointer)).line() == shown
