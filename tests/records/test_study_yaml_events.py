"""A study file's YAML read with libyaml's events (records.load, PyYAML's
``CParser`` under PyYAML's own composer and constructor) reads exactly as
PyYAML's pure-Python loader reads it: the same document, the same nodes at
the same lines and columns, the same refusal and line for every error (any
error there is met again by the pure-Python loader), and the pure-Python
loader alone where libyaml is missing or the text holds characters the two
scanners might read otherwise."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest
import yaml

from studygen.errors import InputError, RecordError
from studygen.records import load
from studygen.records.load import load_yaml, study_yaml_event_loader, study_yaml_loader

REPO = Path(__file__).resolve().parents[2]
events = study_yaml_event_loader()
needs_libyaml = pytest.mark.skipif(events is None, reason="PyYAML built without libyaml")


@pytest.fixture(autouse=True)
def fresh_loaders(monkeypatch):
    """Every test builds the loader classes again (records.load keeps them
    for the process): what a test reads is what the rules build now, not a
    class an earlier test or the import above built. ``events`` stays the
    class built at import, the reference the fresh ones are compared with."""
    monkeypatch.setattr(load, "_LOADERS", {})

HANDWRITTEN = [
    "a: 1\nb: [1, 2.5, -3e2, .inf, -.Inf, .nan]\nc: {x: y, 'q''s': \"d\\\"q\"}\n",
    "# comment\nkey: value # trailing\nempty:\nnull_word: ~\nbools: [yes, No, on, OFF, true, False]\n",
    "octal: 017\nhex: 0x1F\nsexagesimal: 1:30\nbinary: 0b101\nunderscored: 1_000\nfloat60: 1:30.5\n",
    "when: 2024-03-01\nstamp: 2024-03-01T10:20:30.5Z\nspaced: 2001-12-14 21:59:43.10 -5\n",
    "folded: >\n  one\n  two\n\n  three\nliteral: |\n  keep\n    indented\n  lines\n",
    "keep: |+\n  a\n\nstrip: >-\n  b\n  c\nnext: 1\n",
    "plain: this is\n  a multi line\n  plain scalar\nquoted: \"multi\n  line \\u00b5 \\x41\"\n",
    "single: 'it''s\n\n  here'\n'key: with colon': v\n\"k\\tq\": w\n",
    "? complex key\n: complex value\n? [a, b]\n: flow key\n",
    "list:\n- a\n- - b\n  - c\n- {d: e}\n-\n  f: g\n  h: [i, {j: k}]\n",
    "tagged: !!str 123\nfloat_tag: !!float 1\nbinary: !!binary aGVsbG8=\nset: !!set {a, b}\n",
    "omap: !!omap\n- a: 1\n- b: 2\npairs: !!pairs [x: 1, y: 2]\n",
    "merge:\n  <<: {a: 1, b: 2}\n  c: 3\n",
    "%YAML 1.1\n---\na: b\n...\n",
    "--- !!map\nµ: × and ü\nemoji: \"\U0001f600\"\n'ünï': cödé\n",
    "family: demo\nvariants:\n  - name: fp16\n    precision: fp16\n  - name: fp8\n    label: \"FP8 (E4M3)\"\n",
    "",
    "just a scalar\n",
    "- 1\n- 2\n",
    "{a: [b, c], d: {e: [f, {g: h}]}}\n",
    "a:   \n  - x\n  -   y\nb:\n    c:\n        d: 1\n",
]

ERRORS = [
    "a: 1\na: 2\n",  # duplicate key
    "a: &x 1\nb: *x\n",  # alias
    "base: &b {x: 1}\nd:\n  <<: *b\n",  # merge alias
    "a: [1, 2\nb: 3\n",  # unclosed flow
    "a: b: c\n",  # mapping value where none may be
    "- a\nb: c\n",  # block end expected
    "a: 'unterminated\n",
    "a: \"bad escape \\q\"\n",
    "--- a\n--- b\n",  # two documents
    "a: !!int x\n",
    "a: !unknown 1\n",
    "x: " + "9" * 5000 + "\n",  # past Python's integer digit limit
    "[" * 150 + "]" * 150 + "\n",  # nested past the limit
    "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 120)),
    "a: 1\n b: 2\n",
    "%YAML 2.0\n---\na: 1\n",
    "? [a, b]\n: list key\n",  # an unhashable key
    "when: 2024-13-45\n",
]


def shipped_study_files() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(REPO.glob("families/*/study.yaml"))]


def generated_documents(count: int) -> list[str]:
    """Documents dumped by PyYAML in several styles (block, flow, canonical,
    narrow lines that fold long strings, quoted and non-ASCII text)."""
    rng = random.Random(11)
    words = ["fp16", "FP8 (E4M3)", "a: b", "- x", "#", "yes", "0.10", "1e3", "µs × 2", "'q'", '"d"', "", " lead",
             "trail ", "line\nbreak", "x" * 90, "12:30", "~", "null", "2024-01-02", "\U0001f600"]

    def value(depth: int):
        roll = rng.random()
        if depth > 4 or roll < 0.4:
            return rng.choice([rng.choice(words), rng.randint(-10**6, 10**6),
                               round(rng.uniform(-9, 9), rng.randint(0, 6)), None, True, False,
                               datetime.date(2020, 1, rng.randint(1, 28))])
        if roll < 0.7:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(words) + str(i): value(depth + 1) for i in range(rng.randint(0, 4))}

    styles = [{}, {"default_flow_style": True}, {"default_flow_style": None}, {"canonical": True},
              {"width": 20, "allow_unicode": True}, {"allow_unicode": True, "indent": 4, "explicit_start": True},
              {"default_style": '"'}, {"default_style": "'", "allow_unicode": True}]
    return [yaml.safe_dump(value(0), **rng.choice(styles)) for _ in range(count)]


def node_tree(node) -> tuple:
    """A node as comparable values: kind, tag, value or children, style, and its marks' lines and columns
    (a plain scalar's style is None from PyYAML's parser, "" from libyaml's, and a block collection's
    flow style None or False: both say the same, and no constructor reads either)."""
    marks = (node.start_mark.line, node.start_mark.column, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style or None, marks)
    if isinstance(node, yaml.SequenceNode):
        return ("sequence", node.tag, bool(node.flow_style), marks, tuple(node_tree(child) for child in node.value))
    return ("mapping", node.tag, bool(node.flow_style), marks,
            tuple((node_tree(key), node_tree(child)) for key, child in node.value))


def outcome(text: str, loader) -> tuple:
    """``("ok", document, node tree)`` or ``("error", type, problem, line)`` of loading ``text``."""
    try:
        document = yaml.load(text, Loader=loader)  # noqa: S506 - the study loaders, SafeConstructor based
        node = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        return ("error", exc.problem, exc.problem_mark.line if exc.problem_mark else None)
    except load._ReadByPyYAML:
        return ("read by PyYAML",)
    except Exception as exc:  # noqa: BLE001 - compared, not handled
        return ("error", type(exc).__name__)
    return ("ok", repr(document), node_tree(node) if node is not None else None)


@needs_libyaml
@pytest.mark.parametrize("text", HANDWRITTEN + shipped_study_files())
def test_libyaml_events_read_a_study_file_as_pypyaml_does(text):
    assert load._LIBYAML_READS_ALIKE.fullmatch(text)
    got = outcome(text, events)
    if got == ("read by PyYAML",):  # a tagged node: the events loader hands the text to PyYAML
        assert "!" in text
    else:
        assert got == outcome(text, study_yaml_loader())


@needs_libyaml
def test_libyaml_events_read_generated_documents_as_pyyaml_does():
    compared = 0
    for text in generated_documents(300):
        if load._LIBYAML_READS_ALIKE.fullmatch(text):  # a few hold a tab or carriage return: PyYAML alone reads those
            got = outcome(text, events)
            if got == ("read by PyYAML",):  # a tagged node
                assert "!" in text
                continue
            compared += 1
            assert got == outcome(text, study_yaml_loader()), text
    assert compared > 200


@needs_libyaml
@pytest.mark.parametrize("text", ERRORS)
def test_every_refusal_is_pyyamls_own_message_and_line(tmp_path, text):
    """The events loader refuses these too; load_yaml then words the
    refusal as the pure-Python loader does (same message, same line)."""
    path = tmp_path / "study.yaml"
    path.write_text(text, encoding="utf-8")
    assert outcome(text, events)[0] in ("error", "read by PyYAML")
    expected = outcome(text, study_yaml_loader())
    assert expected[0] == "error"
    try:
        got = ("ok", load_yaml(path, "study.yaml"))
    except RecordError as exc:
        got = ("refused", exc.message, exc.place.line)
    except Exception as exc:  # noqa: BLE001 - as the pure-Python loader raises it
        got = ("error", type(exc).__name__)
    if len(expected) == 3:  # a MarkedYAMLError: one line naming the problem and its line
        assert got == ("refused", f"malformed YAML: {expected[1]}", expected[2] + 1)
    else:
        assert got == expected


def test_texts_the_scanners_might_read_otherwise_go_to_pyyaml_alone():
    for text in ("a:\tb\n", "a: b\r\nc: d\r\n", "a: b\x85c: d\n", "a: b\u2028c\n", "\ufeffa: b\n", "a: \x07\n"):
        assert not load._LIBYAML_READS_ALIKE.fullmatch(text), repr(text)
    assert load._LIBYAML_READS_ALIKE.fullmatch("a: µs × ü \U0001f600\n")


def test_without_libyaml_the_pure_python_loader_reads_alone(tmp_path, monkeypatch):
    path = tmp_path / "study.yaml"
    path.write_text(HANDWRITTEN[0] + "d: [µ]\n", encoding="utf-8")
    with_events = load_yaml(path, "study.yaml")
    monkeypatch.setitem(load._LOADERS, "libyaml", None)
    assert load.study_yaml_event_loader() is None
    assert load_yaml(path, "study.yaml") == with_events
    path.write_text("a: 1\nb: 2\na: 3\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        load_yaml(path, "study.yaml")
    assert (caught.value.message, caught.value.place.line) == (
        "malformed YAML: duplicate key 'a' (first on line 1): the last would silently win", 3)


@needs_libyaml
def test_a_shipped_study_file_is_read_from_libyaml_events(monkeypatch):
    """The fast path is the one taken: a study file loads without the pure-Python scanner."""
    from yaml.scanner import Scanner

    def no_python_scanner(*args, **kwargs):
        raise AssertionError("the pure-Python scanner ran")

    monkeypatch.setattr(Scanner, "__init__", no_python_scanner)
    path = sorted(REPO.glob("families/*/study.yaml"))[0]
    document, _ = load_yaml(path, "study.yaml")
    assert document["family"] == path.parent.name


def _refusal(tmp_path, text: str, display: str | None = "study.yaml") -> tuple[str, int]:
    path = tmp_path / "study.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        load_yaml(path, display)
    return caught.value.line(), caught.value.place.line


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def _lists(levels: int, inner=1):
    for _ in range(levels):
        inner = [inner]
    return inner


# (document, written as YAML flow text): depth counted by _depth, the limit is 100 (textio.MAX_NESTING)
NESTED = [
    _lists(100),  # at the limit
    _lists(101),  # one past it
    [_lists(1)] * 300,  # 300 siblings two levels deep: leaving each must give its level back
    [_lists(1), _lists(99)],  # 100: a sibling left before the deep one
    [_lists(1), _lists(100)],  # 101
    [[_lists(2), _lists(99)]],  # 101: two levels left, then one level too deep
    {"a": _lists(3), "b": _lists(98), "c": {"d": _lists(98)}},  # 100 at two places
]


@pytest.mark.parametrize("document", NESTED, ids=[f"depth{_depth(d)}-{i}" for i, d in enumerate(NESTED)])
def test_nesting_is_refused_exactly_past_100_levels_whatever_came_before(tmp_path, document):
    """The depth count goes up on entering a list or mapping and back on
    leaving it, from 0. Kills load._study_yaml_rules mutants 7, 27, 36, 41,
    42 and 43 (start, comparison, step up and step back of the count)."""
    import json

    text = json.dumps(document) + "\n"
    if _depth(document) <= 100:
        path = tmp_path / "study.yaml"
        path.write_text(text, encoding="utf-8")
        assert load_yaml(path, "study.yaml")[0] == document
    else:
        assert _refusal(tmp_path, text)[0] == (
            "study.yaml:1: malformed YAML: nested more than 100 levels deep (lists or mappings); the limit is 100")


def test_each_study_rule_refuses_in_its_own_words_at_its_line(tmp_path):
    """Kills _study_yaml_rules mutants 9, 16 and 17 (alias refusal), 51 and
    52 (integer refusal) and 60 (keys after a merge key not checked)."""
    assert _refusal(tmp_path, "a: &x 1\nb: *x\n") == (
        "study.yaml:2: malformed YAML: alias *x: study files may not use aliases "
        "(write the value out where it is needed)", 2)
    assert _refusal(tmp_path, "a: 1\nb: " + "7" * 5000 + "\n") == (
        "study.yaml:2: malformed YAML: integer of 5000 characters is out of range "
        "(no figure or setting has that many digits)", 2)
    assert _refusal(tmp_path, "<<: {x: 1}\na: 1\nb: 2\na: 3\n") == (
        "study.yaml:4: malformed YAML: duplicate key 'a' (first on line 2): the last would silently win", 4)


def test_a_yaml_error_without_a_mark_is_one_line_naming_the_file_without_a_line(tmp_path):
    """PyYAML's reader refuses a control character with a YAMLError that has
    no mark and a message of two lines: the first is kept, no line is named,
    and the file is named by its path when no display name is given. Kills
    load_yaml mutants 3, 18, 27, 30, 31, 39 and 43."""
    path = tmp_path / "study.yaml"
    assert _refusal(tmp_path, "a: \x07\n", None) == (
        f"{path}: malformed YAML: unacceptable character #x0007: special characters are not allowed", 0)


def test_a_study_file_past_16_mib_is_refused_before_it_is_parsed(tmp_path):
    """Kills load_yaml mutants 9 and 10 (the study file limit left out: the
    500 MB input limit instead)."""
    path = tmp_path / "study.yaml"
    path.write_bytes(b"# " + b"x" * (16 * 2**20 - 2) + b"\n")
    with pytest.raises(InputError) as caught:
        load_yaml(path, "study.yaml")
    assert caught.value.line() == "study.yaml: file is 16777217 bytes; the limit is 16777216 bytes (16 MiB)"


@needs_libyaml
@pytest.mark.parametrize("text", ["a: 'x\ty'\n", "a: b\r\nc: d\r\n", "a: b\u2028\n", "a: b\x85c: d\n", "a: b\u2029\n"])
def test_a_text_the_scanners_might_read_apart_never_reaches_libyaml(tmp_path, text):
    """Tabs, carriage returns, NEL and U+2028/9 go to the
    pure-Python loader alone: the libyaml loader is not even built (the
    loaders are built afresh for every test). Kills _load_study_yaml mutant 3
    (every text given to libyaml)."""
    path = tmp_path / "study.yaml"
    path.write_text(text, encoding="utf-8", newline="")
    document = load_yaml(path, "study.yaml")[0]
    assert document == yaml.load(text, Loader=study_yaml_loader())  # noqa: S506 - the study loader
    assert "python" in load._LOADERS and "libyaml" not in load._LOADERS
    path.write_text("a: b\n", encoding="utf-8")
    assert load_yaml(path, "study.yaml")[0] == {"a": "b"}
    assert load._LOADERS["libyaml"] is not None  # a plain text is read from libyaml's events


# Texts libyaml and PyYAML read apart, found by comparing both on generated texts: libyaml marks an empty node
# with the non-specific tag "!" not plain, so PyYAML's resolver made it '' where PyYAML's own parser gives None
# (a null revision became an empty string); libyaml takes a comment right after a block scalar's header
# ("|#"), which PyYAML's scanner refuses; PyYAML ends a plain scalar at "?" inside a flow collection, libyaml
# reads "x:y? a" as one scalar. Each must come out of load_yaml as out of the pure-Python loader.
READ_APART = ("revision: !\n", "a: !\nb: 1\n", "- !\n- ! \n", "!\n", "k: {a: !}\n",
              "note: |# a comment\n  text\n", "note: >-#c\n  text\n", "|#c\n", "- >+2#c\n   x\n",
              "aliases: [FP8 why?, int8]\n", "k: [  x:y? a]\n", "m: {what? : 1}\n", "[0b101'?\"]\n")


@needs_libyaml
@pytest.mark.parametrize("text", READ_APART)
def test_texts_libyaml_reads_otherwise_come_out_as_pyyaml_reads_them(tmp_path, text):
    path = tmp_path / "study.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        expected = ("ok", repr(yaml.load(text, Loader=study_yaml_loader())))  # noqa: S506 - SafeLoader based
    except yaml.MarkedYAMLError as exc:
        expected = ("refused", f"malformed YAML: {exc.problem}", exc.problem_mark.line + 1)
    try:
        got = ("ok", repr(load_yaml(path, "study.yaml")[0]))
    except RecordError as exc:
        got = ("refused", exc.message, exc.place.line)
    assert got == expected
