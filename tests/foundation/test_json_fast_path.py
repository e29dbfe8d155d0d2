"""textio.parse_json reads a text that can hold no long integer, no deep
nesting and no surrogate with Python's own integers (no hook per integer),
and gives for every text what its checked reading gives (the reading every
text had before, still given to a text a long integer is not ruled out of):
the same document, or the same refusal at the same line and pointer, at the
same depth of calls. Also the C-speed pieces of the gate (the digit run, the
nesting passes, the escape search) against the regular expressions they
stand for."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studygen import textio
from studygen.errors import RecordError
from studygen.numbers import SourceFloat
from studygen.textio import parse_json
from tests.conftest import FIXTURES, REPO


def _canonical(value):
    """``value`` with every type spelt out: a SourceFloat's source, an int apart from an equal float."""
    if isinstance(value, dict):
        return ("dict", [(key, _canonical(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [_canonical(item) for item in value])
    if isinstance(value, SourceFloat):
        return ("SourceFloat", value.source, value.hex())
    return (type(value).__name__, value)


def _outcome(read, text: str):
    try:
        return ("document", _canonical(read(text)))
    except RecordError as exc:
        return ("refused", exc.message, exc.place)


def _checked(text: str):
    """``parse_json(text)`` as every text was read before the first reading (a long integer is never ruled out)."""
    real = textio._may_hold_long_integer
    textio._may_hold_long_integer = lambda data: True
    try:
        return parse_json(text, "r.json")
    finally:
        textio._may_hold_long_integer = real


def _same_as_checked(text: str):
    assert _outcome(lambda t: parse_json(t, "r.json"), text) == _outcome(_checked, text)


RECORD = (REPO / "measurements" / "deformable_detr_h200_torch" / "h200-eager.json").read_text(encoding="utf-8")


def test_a_record_is_read_without_the_checked_decoder(monkeypatch):
    """Failed before: every text went through the decoder whose integer hook is a Python call per integer."""
    class Refusing:
        def decode(self, text):
            raise AssertionError("read by the checked decoder")

    expected = ("document", _canonical(textio._DECODER.decode(RECORD)))
    monkeypatch.setattr(textio, "_DECODER", Refusing())
    assert _outcome(lambda t: parse_json(t, "r.json"), RECORD) == expected


@pytest.mark.parametrize("literal, refused", [
    ("9" * 308, False), ("1" + "0" * 308, False), ("-" + "9" * 308, False),  # 308 digits: within a double
    ("2" + "0" * 308, True), ("9" * 309, True), ("-" + "9" * 309, True), ("1" * 5000, True)])
def test_a_text_with_a_long_digit_run_is_read_by_the_checked_decoder(monkeypatch, literal, refused):
    text = '{"a": [1, 2.5], "n": %s}' % literal
    seen = []
    real = textio._DECODER
    monkeypatch.setattr(textio, "_DECODER", type("Seen", (), {"decode": lambda self, t: seen.append(t) or real.decode(t)})())
    outcome = _outcome(lambda t: parse_json(t, "r.json"), text)
    assert (outcome[0] == "refused") is refused
    assert seen == ([text] if len(literal.lstrip("-")) >= 309 else [])
    monkeypatch.setattr(textio, "_DECODER", real)
    assert outcome == _outcome(_checked, text)


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 2}', '{"x": 1e400}', '{"x": -1e400}', '{"x": 1e-400}', '{"x": -5e-324}', '{"x": 5e-324}',
    '{"x": -2.2250738585072014e-308}', '{"x": -0.0}', '{"x": 0e0}', '{"x": 0.000e-999}', '{"x": NaN}',
    '{"x": -Infinity}', '{"x": "\\ud800"}', '{"\\udfff": 1}', '{"x": "\\\\ud800"}', '\ufeff{"x": [1, -2.5]}',
    '{"x": ' + "[" * 100 + "1" + "]" * 100 + "}", '{"x": ' + "[" * 99 + "1" + "]" * 99 + "}",
    "[" * 1000 + "]" * 1000, "[" * 990 + "1" + "]" * 990, '{"x": 1', '{"x": "' + "\\\\" * 70 + '", "y": [1]}',
    '{"s": "' + "7" * 309 + '"}', '{"s": "' + "7" * 308 + '", "n": 12}'])
def test_a_refusal_or_a_document_is_what_the_checked_reading_gives(text):
    _same_as_checked(text)


def _first_depth_refused_as_too_deep(read) -> int:
    for depth in range(100, 1100):
        try:
            read("[" * depth + "1" + "]" * depth)
        except RecursionError:
            return depth
        except RecordError as exc:
            if "nested too deeply to read" in exc.message:
                return depth
    raise AssertionError("no depth up to 1100 ran out of recursion")


def test_a_text_nested_near_the_recursion_limit_is_read_at_the_depth_of_calls_it_was():
    """Failed with the checked reading in a function of its own: one frame more made a text nested one level less
    run out of recursion ("nested too deeply to read", a line) where it had read and been refused by the walk
    ("nested more than 100 levels deep", a pointer). Before, parse_json called the checked decoder itself."""
    def as_before(text, display):
        return textio._DECODER.decode(text)

    assert _first_depth_refused_as_too_deep(lambda t: parse_json(t, "r.json")) == \
        _first_depth_refused_as_too_deep(lambda t: as_before(t, "r.json"))


_SCALARS = st.one_of(
    st.integers(min_value=-10**320, max_value=10**320), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["1e400", "-1e-400", "5e-324", "-0.0", "NaN", "Infinity", "2.5", "-7", "9" * 309]).map(
        lambda literal: ("literal", literal)),
    st.text(alphabet=st.sampled_from('ab"\\[]{}7µ\ud800'), max_size=6), st.booleans(), st.none())


def _written(value) -> str:
    """JSON text of ``value``; ``("literal", x)`` is written as x, a key may come twice (``dup:``)."""
    if isinstance(value, tuple) and value[:1] == ("literal",):
        return value[1]
    if isinstance(value, list):
        return "[" + ", ".join(_written(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key.removeprefix('dup:'))}: {_written(item)}"
                               for key, item in value.items()) + "}"
    return json.dumps(value)


_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["a", "b", "dup:a", "\\ud800", "k"]), inner, max_size=4)), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.integers(min_value=0, max_value=3))
def test_generated_texts_read_as_the_checked_reading_reads_them(value, wrap):
    _same_as_checked("[" * wrap * 40 + _written(value) + "]" * wrap * 40)


def test_every_shipped_and_fixture_json_text_reads_as_the_checked_reading_reads_it():
    paths = [*REPO.glob("measurements/**/*.json"), *FIXTURES.rglob("*.json")]
    assert len(paths) >= 40
    for path in paths:
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        _same_as_checked(text)


def test_the_float_hook_makes_the_float_sourcefloat_makes():
    for literal in ("5.850", "-2.5", "1e-300", "-1.7976931348623157e308", "0.0", "-0.0", "83.0"):
        made, expected = textio._finite_float(literal), SourceFloat(literal)
        assert type(made) is SourceFloat and made.hex() == expected.hex() and made.source == literal
        assert {slot: getattr(made, slot, None) for slot in SourceFloat.__slots__} == \
            {slot: getattr(expected, slot, None) for slot in SourceFloat.__slots__}
    for literal in ("-1e-310", "-1e400", "1e-310"):  # a negative subnormal or infinity is refused as a positive one
        with pytest.raises(ValueError, match="out of range"):
            textio._finite_float(literal)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"7", b"0", b" ", b"a", b"\xc2\xb5", b"7" * 40, b"9" * 300]), max_size=30),
       st.integers(min_value=0, max_value=40))
def test_the_long_digit_run_test_is_the_regular_expression(pieces, shift):
    data = b"x" * shift + b"".join(pieces)
    assert textio._may_hold_long_integer(data) is (re.search(rb"[0-9]{309}", data) is not None)


def test_a_digit_run_of_309_is_found_at_every_offset_and_308_at_none():
    for offset in range(textio._DIGIT_STRIDE + 1):
        assert textio._may_hold_long_integer(b"a" * offset + b"5" * 309 + b"a")
        assert not textio._may_hold_long_integer(b"a" * offset + b"5" * 308 + b"a" + b"5" * 308)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]{}", max_size=40))
def test_one_pass_drops_the_pairs_one_substitution_drops(structure):
    data = structure.encode()
    assert textio._innermost_pairs_dropped(data) == re.sub(rb"\[\]|\{\}", b"", data)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(["\\", "u", "d", "D", "8", "b", "F", "x", "µ"]), max_size=30),
       st.integers(min_value=0, max_value=80))
def test_the_escape_search_by_backslash_is_the_regular_expression(text, backslashes):
    for candidate in (text, "\\x" * backslashes + text):
        assert textio._holds_surrogate_escape(candidate) is (textio._SURROGATE_ESCAPE.search(candidate) is not None)


def test_the_nesting_bound_answers_a_few_brackets_without_the_passes(monkeypatch):
    """Failed before (the passes ran for every text): at most ``limit`` opening brackets in the whole text, or a
    structure of at most ``2 * limit`` brackets, nests within ``limit`` and is answered without a pass; one more
    bracket is not (the counts are bounds, not the depth)."""
    passes = []
    real = textio._innermost_pairs_dropped
    monkeypatch.setattr(textio, "_innermost_pairs_dropped", lambda structure: passes.append(1) or real(structure))
    limit = 10
    assert textio.nesting_within("[" * limit + "]" * limit, limit) and not passes
    assert not textio.nesting_within("[" * (limit + 1) + "]" * (limit + 1), limit) and passes
    passes.clear()
    many_in_a_string = json.dumps({"s": "[" * 50, "x": [[[1]]]})  # 51 openings, a structure of 8 brackets
    assert textio.nesting_within(many_in_a_string, limit) and not passes
    past = json.dumps({"s": "{" * 50, "x": json.loads("[" * limit + "]" * limit)})  # 2 * limit + 2 brackets
    assert not textio.nesting_within(past, limit) and len(passes) == limit
