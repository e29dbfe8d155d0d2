"""A study file's YAML (records.load.load_yaml): valid documents load as
PyYAML's safe loader loads them, and every text the study rules or PyYAML
refuse is one RecordError naming the file and line, in PyYAML's words or
the rules' own (no Python error escapes without a line).

The texts under READ_APART are those a faster reading through libyaml's
events read otherwise than PyYAML (found by the attack on issue 25's speed
work, which then took that path out): their outcomes are pinned here, as
PyYAML's own parser gives them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from studygen.errors import InputError, RecordError
from studygen.records import load
from studygen.records.load import load_yaml

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_loaders(monkeypatch):
    """Every test builds the loader classes again (records.load keeps them
    for the process), so that a mutant of the rules is met by every test."""
    monkeypatch.setattr(load, "_LOADERS", {})


HANDWRITTEN = [
    "a: 1\nb: [1, 2.5, -3e2, 1.5e+3, -0.0]\nc: {x: y, 'q''s': \"d\\\"q\"}\n",
    "# comment\nkey: value # trailing\nempty:\nnull_word: ~\nbools: [yes, No, on, OFF, true, False]\n",
    "octal: 017\nhex: 0x1F\nsexagesimal: 1:30\nbinary: 0b101\nunderscored: 1_000\nfloat60: 1:30.5\n",
    "when: 2024-03-01\nstamp: 2024-03-01T10:20:30.5Z\nspaced: 2001-12-14 21:59:43.10 -5\n",
    "folded: >\n  one\n  two\n\n  three\nliteral: |\n  keep\n    indented\n  lines\n",
    "keep: |+\n  a\n\nstrip: >-\n  b\n  c\nnext: 1\n",
    "plain: this is\n  a multi line\n  plain scalar\nquoted: \"multi\n  line \\u00b5 \\x41\"\n",
    "single: 'it''s\n\n  here'\n'key: with colon': v\n\"k\\tq\": w\n",
    "? complex key\n: complex value\n",
    "list:\n- a\n- - b\n  - c\n- {d: e}\n-\n  f: g\n  h: [i, {j: k}]\n",
    "tagged: !!str 123\nfloat_tag: !!float 1\nbinary: !!binary aGVsbG8=\nset: !!set {a, b}\n",
    "omap: !!omap\n- a: 1\n- b: 2\npairs: !!pairs [x: 1, y: 2]\n",
    "quoted_keys: {'on': 1, \"yes\": 2, '1': 3, '2020-01-01': 4, '<<': 5}\n",
    "%YAML 1.1\n---\na: b\n...\n",
    "--- !!map\nµ: × and ü\nemoji: \"\U0001f600\"\n'ünï': cödé\n",
    "family: demo\nvariants:\n  - name: fp16\n    precision: fp16\n  - name: fp8\n    label: \"FP8 (E4M3)\"\n",
    "just a scalar\n",
    "- 1\n- 2\n",
    "{a: [b, c], d: {e: [f, {g: h}]}}\n",
    "a:   \n  - x\n  -   y\nb:\n    c:\n        d: 1\n",
]


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
    52 (integer refusal); a merge key is refused before the duplicate key
    after it (before, it was skipped and the keys after it checked)."""
    assert _refusal(tmp_path, "a: &x 1\nb: *x\n") == (
        "study.yaml:2: malformed YAML: alias *x: study files may not use aliases "
        "(write the value out where it is needed)", 2)
    assert _refusal(tmp_path, "a: 1\nb: " + "7" * 5000 + "\n") == (
        "study.yaml:2: malformed YAML: integer of 5000 characters is out of range "
        "(no figure or setting has that many digits)", 2)
    assert _refusal(tmp_path, "a: 0\n<<: {x: 1}\nb: 2\na: 3\n") == (
        "study.yaml:2: malformed YAML: merge key <<: study files may not merge mappings "
        "(write the keys out in the mapping)", 2)


def test_a_yaml_error_without_a_mark_is_one_line_naming_the_file_without_a_line(tmp_path):
    """PyYAML's reader refuses a control character with a YAMLError that has
    no mark and a message of two lines: the first is kept, no line is named,
    and the file is named by its path when no display name is given. Kills
    load_yaml mutants 3, 18, 27, 30, 31, 39 and 43."""
    path = tmp_path / "study.yaml"
    assert _refusal(tmp_path, "a: \x07\n", None) == (
        f"{path}: malformed YAML: unacceptable character #x0007: special characters are not allowed", 0)


def test_a_study_file_past_256_kib_is_refused_before_it_is_parsed(tmp_path):
    """Kills load_yaml mutants 9 and 10 (the study file limit left out: the
    500 MB input limit instead). The limit was a record's, 16 MiB, until an
    attack round's 5 MB study file kept check busy 80 s."""
    path = tmp_path / "study.yaml"
    path.write_bytes(b"# " + b"x" * (256 * 2**10 - 2) + b"\n")
    with pytest.raises(InputError) as caught:
        load_yaml(path, "study.yaml")
    assert caught.value.line() == "study.yaml: file is 262145 bytes; the limit is 262144 bytes (256 KiB)"
    path.write_bytes(b"# " + b"x" * (256 * 2**10 - 3) + b"\n")  # the limit itself is read
    assert load_yaml(path, "study.yaml")[0] is None  # a comment only


@pytest.mark.parametrize("text", HANDWRITTEN)
def test_a_valid_document_loads_as_pyyamls_safe_loader_loads_it(tmp_path, text):
    path = tmp_path / "study.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_yaml(path, "study.yaml") == (yaml.safe_load(text), text)


@pytest.mark.parametrize("path", sorted(REPO.glob("families/*/study.yaml")), ids=lambda p: p.parent.name)
def test_a_shipped_study_file_loads_as_pyyamls_safe_loader_loads_it(path):
    text = path.read_text(encoding="utf-8")
    assert load_yaml(path, "study.yaml")[0] == yaml.safe_load(text)


# (text, the refusal's words after "malformed YAML: ", its line)
REFUSED = [
    ("a: 1\na: 2\n", "duplicate key 'a' (first on line 1): the last would silently win", 2),
    ("base: &b {x: 1}\nd:\n  <<: *b\n",
     "alias *b: study files may not use aliases (write the value out where it is needed)", 3),
    ("a: [1, 2\nb: 3\n", "expected ',' or ']', but got ':'", 2),
    ("a: b: c\n", "mapping values are not allowed here", 1),
    ("- a\nb: c\n", "expected <block end>, but found '?'", 2),
    ("a: 'unterminated\n", "found unexpected end of stream", 2),
    ("a: \"bad escape \\q\"\n", "found unknown escape character 'q'", 1),
    ("--- a\n--- b\n", "but found another document", 2),
    ("a: !unknown 1\n", "could not determine a constructor for the tag '!unknown'", 1),
    ("a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 120)),
     "nested more than 100 levels deep (lists or mappings); the limit is 100", 101),
    ("%YAML 2.0\n---\na: 1\n", "found incompatible YAML document (version 1.* is required)", 1),
    ("? [a, b]\n: list key\n", "found unhashable key", 1),
    # Python's own errors inside PyYAML's constructors, each a refusal at its line (before: "internal error")
    ("family: x\nwhen: 2024-13-45\n", "'2024-13-45' is not a valid timestamp (month must be in 1..12)", 2),
    ("a: 1\nstamp: 2023-02-30 10:00:00\n", "'2023-02-30 10:00:00' is not a valid timestamp (day is out of range for month)",
     2),
    ("runs: !!int x\n", "'x' is not a valid int (invalid literal for int() with base 10: 'x')", 1),
]


@pytest.mark.parametrize(("text", "words", "line"), REFUSED, ids=range(len(REFUSED)))
def test_each_refusal_names_the_line_in_its_own_words(tmp_path, text, words, line):
    assert _refusal(tmp_path, text) == (f"study.yaml:{line}: malformed YAML: {words}", line)


def test_an_empty_study_file_is_refused_as_empty(tmp_path):
    path = tmp_path / "study.yaml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_yaml(path, "study.yaml")
    assert caught.value.line() == "study.yaml: file is empty"


# (text, document) for a text PyYAML reads; (text, words, line) for one it refuses
READ_APART = [
    ("revision: !\n", {"revision": None}),
    ("a: !\nb: 1\n", {"a": None, "b": 1}),
    ("- !\n- ! \n", [None, None]),
    ("k: {a: !}\n", "expected URI, but found '}'", 1),
    ("note: |# a comment\n  text\n", "expected chomping or indentation indicators, but found '#'", 1),
    ("note: >-#c\n  text\n", "expected chomping or indentation indicators, but found '#'", 1),
    ("- >+2#c\n   x\n", "expected chomping or indentation indicators, but found '#'", 1),
    ("aliases: [FP8 why?, int8]\n", "expected ',' or ']', but got '?'", 1),
    ("k: [  x:y? a]\n", "expected ',' or ']', but got '?'", 1),
    ("m: {what? : 1}\n", "expected ',' or '}', but got '?'", 1),
]


@pytest.mark.parametrize("case", READ_APART, ids=range(len(READ_APART)))
def test_texts_libyaml_reads_otherwise_load_as_pyyaml_reads_them(tmp_path, case):
    text, *expected = case
    if len(expected) == 1:
        path = tmp_path / "study.yaml"
        path.write_text(text, encoding="utf-8")
        assert load_yaml(path, "study.yaml")[0] == expected[0]
    else:
        words, line = expected
        assert _refusal(tmp_path, text) == (f"study.yaml:{line}: malformed YAML: {words}", line)


def _study_refusal(text: str) -> str:
    """The one line check prints for a study file ``text`` the schema refuses."""
    import yaml

    from studygen.errors import RecordError
    from studygen.records.schemas import validate_document
    from studygen.study import at_yaml_line

    try:
        validate_document("study", yaml.safe_load(text), path="study.yaml", text=None)
    except RecordError as exc:
        placed = at_yaml_line(exc, text)
        return f"{placed.place.line}: {placed.message}"
    raise AssertionError("the schema accepted it")


def test_a_revision_yaml_reads_as_no_text_is_refused_saying_how_it_was_written():
    # a short git hash of decimal digits, or one with a leading 0 (YAML 1.1 octal), loads as a number
    shipped = (Path(__file__).parents[2] / "families/deformable_detr/study.yaml").read_text(encoding="utf-8")
    octal = shipped.replace("revision: 83ecd26945199939cb82806f988debdb71e6f43e", "revision: 0123456")
    assert _study_refusal(octal) == (
        "11: 42798 is not of type 'string', 'null'; YAML reads the unquoted 0123456 as a number: quote it "
        "('0123456') to keep it as written (/model/revision)")
    dated = shipped.replace("revision: 83ecd26945199939cb82806f988debdb71e6f43e", "revision: 2024-01-02")
    assert "YAML reads the unquoted 2024-01-02 as a date: quote it ('2024-01-02')" in _study_refusal(dated)
    listed = shipped.replace("revision: 83ecd26945199939cb82806f988debdb71e6f43e",
                             "revision: 83ecd26\n  revisions: [abc1234, yes]")
    assert _study_refusal(listed).endswith("True is not of type 'string'; YAML reads the unquoted yes as true or "
                                           "false: quote it ('yes') to keep it as written (/model/revisions/1)")
    # a quoted number is text already: the plain refusal stands (no advice to quote what is quoted)
    quoted = shipped.replace("revision: 83ecd26945199939cb82806f988debdb71e6f43e", "revision: [\"0123456\"]")
    assert _study_refusal(quoted) == "11: ['0123456'] is not of type 'string', 'null' (/model/revision)"


MERGE = "merge key <<: study files may not merge mappings (write the keys out in the mapping)"


@pytest.mark.parametrize(("text", "line"), [
    ("run:\n  <<: {batch: 1}\n  batch: 2\n", 2),  # the written batch silently beat the merged one
    ("run:\n  <<: [{batch: 1}, {batch: 3}]\n", 2),  # the first of the list silently won
    ("family: x\nrun:\n  batch: 4\n  <<: {bacth: 2}\n", 4),  # a misspelt key inside it had no line
    ("variants:\n  - name: fp16\n    <<: {precision: fp16}\n", 3),
    ("run: {batch: 1, <<: {warmup: 2}}\n", 1),
    ("run:\n  !!merge <<: {batch: 1}\n", 2),
])
def test_a_merge_key_is_refused_at_its_line_asking_for_the_keys_written_out(tmp_path, text, line):
    """A study file has nothing to share (aliases are refused), and a merge
    beside written keys hides which value wins: before, each of these
    loaded with no error."""
    assert _refusal(tmp_path, text) == (f"study.yaml:{line}: malformed YAML: {MERGE}", line)


def _key_refusal(tmp_path, text: str) -> tuple[str, str | None]:
    path = tmp_path / "study.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        load_yaml(path, "study.yaml")
    return caught.value.line(), caught.value.place.pointer


# (text, the key's line, its pointer, what YAML read it as)
NOT_TEXT_KEYS = [
    ("family: x\nrun:\n  on: 3\n", 3, "/run/on", "true or false"),
    ("yes: 1\nfamily: x\n", 1, "/yes", "true or false"),
    ("run:\n  batch: 1\n  no: 2\n", 3, "/run/no", "true or false"),
    ("tolerances:\n  1: 0.5\n", 2, "/tolerances/1", "a number"),
    ("precision:\n  latency: 3\n  2.5: 1\n", 3, "/precision/2.5", "a number"),
    ("notes:\n  2020-01-01: the first runs\n", 2, "/notes/2020-01-01", "a date"),
    ("variants:\n  - name: fp16\n  - name: fp8\n    OFF: x\n", 4, "/variants/1/OFF", "true or false"),
    ("model:\n  config:\n    layers: {0x1F: 2}\n", 3, "/model/config/layers/0x1F", "a number"),
    ("run:\n  ~: 1\n", 2, "/run/~0", "no value"),  # the pointer escapes "~" as RFC 6901 says
]


@pytest.mark.parametrize(("text", "line", "pointer", "read_as"), NOT_TEXT_KEYS, ids=range(len(NOT_TEXT_KEYS)))
def test_a_key_yaml_reads_as_no_text_is_refused_as_written_at_its_line_and_pointer(tmp_path, text, line, pointer,
                                                                                    read_as):
    """Before, PyYAML made ``on:`` the key True, and schema validation
    stopped with "internal error: AttributeError: 'bool' object has no
    attribute 'isprintable'" (render, check and collect alike)."""
    key = pointer.rsplit("/", 1)[1].replace("~0", "~")
    assert _key_refusal(tmp_path, text) == (
        f"study.yaml:{line}: key {key} is not text; YAML reads the unquoted {key} as {read_as}: quote it ('{key}') "
        f"to keep it as written ({pointer})", pointer)


def test_a_key_that_is_not_text_but_not_by_plain_writing_says_what_made_it_so(tmp_path):
    assert _key_refusal(tmp_path, "run:\n  !!binary aGVsbG8=: 1\n") == (
        "study.yaml:2: key 'aGVsbG8=' is not text: its tag tag:yaml.org,2002:binary makes it bytes; write the key "
        "as text (/run/aGVsbG8=)", "/run/aGVsbG8=")
    # a line break in the key: the pointer names the mapping that holds it, the message stays one line
    assert _key_refusal(tmp_path, 'run: {!!float "1\\n": 2}\n') == (
        "study.yaml:1: key '1\\n' is not text: its tag tag:yaml.org,2002:float makes it float; write the key as text "
        "(/run)", "/run")
    assert _key_refusal(tmp_path, "run:\n  ? \n  : 1\n") == (
        "study.yaml:2: a key written as nothing is not text (YAML reads it as no value): write the key's name "
        "(/run/)", "/run/")


# Texts whose characters PyYAML's reader counts other than one column each: CRLF and a lone CR, the line breaks
# NEL, LS and PS, a byte order mark (first and inside a scalar), characters past ASCII, tabs; some end in a refusal
COUNTED_APART = [
    "a: 1\r\nb: [x,\r\n  y]\r\n",
    "a: 1\rb: 2\r",
    "\ufeffa: 1\nb: \"x \ufeff y\"\n",
    "a: x\x85y\nb: 'p\u2028q'\nc: \"r\u2029s\"\nd: 1\n",
    "a: |\r\n  one\r\n  two\r\nb: >\r  three\r  four\r",
    "k: µé中文 value\n'ü': [ä, ö]\t# note\n",
    "a: [1, 2\r\nb: 3\r\n",
    "a: 'open\u2028\nb: 1\n",
    "a: 1\n\tb: 2\n",
]


def _marks(loader_class, text: str) -> list:
    """Every node's kind, text and start and end marks (index, line, column)
    as ``loader_class`` composes ``text``, or the refusal as PyYAML words it
    (which names its mark), then where the reader stopped."""
    def at(mark):
        return mark.index, mark.line, mark.column

    loader = loader_class(text)
    found = []
    try:
        pending = [loader.get_single_node()]
        while pending:
            node = pending.pop()
            if node is None:
                continue
            found.append((type(node).__name__, node.value if isinstance(node, yaml.ScalarNode) else None,
                          at(node.start_mark), at(node.end_mark)))
            if isinstance(node, yaml.MappingNode):
                pending.extend(part for pair in node.value for part in pair)
            elif isinstance(node, yaml.SequenceNode):
                pending.extend(node.value)
    except yaml.YAMLError as exc:
        found.append(str(exc))
    finally:
        found.append((loader.pointer, loader.index, loader.line, loader.column))
        loader.dispose()
    return found


SHIPPED = [path.read_text(encoding="utf-8") for path in sorted(REPO.glob("families/*/study.yaml"))]


@pytest.mark.parametrize("text", [*HANDWRITTEN, *COUNTED_APART, *SHIPPED],
                         ids=range(len(HANDWRITTEN) + len(COUNTED_APART) + len(SHIPPED)))
def test_the_study_loader_counts_lines_and_columns_as_pyyamls_reader_does(text):
    # the study loader moves over a run of plain characters at once; PyYAML's Reader.forward steps one at a time
    loader = load.study_yaml_loader()
    stepping = type("Stepping", (loader,), {"forward": yaml.reader.Reader.forward})
    assert _marks(loader, text) == _marks(stepping, text)


def test_a_node_after_crlf_line_ends_is_at_its_line_and_column():
    # "  y]" is the third line (0-based line 2): y stands at column 2, index 6 ("a: 1" CR LF) + 8 ("b: [x," CR LF) + 2
    marks = _marks(load.study_yaml_loader(), "a: 1\r\nb: [x,\r\n  y]\r\n")
    assert ("ScalarNode", "y", (16, 2, 2), (17, 2, 3)) in marks
    # NEL, LS and PS each end a line (inside quotes too): "d" starts 0-based line 6, after 9 + 9 + 9 characters
    marks = _marks(load.study_yaml_loader(), "a: 'x\x85y'\nb: 'p\u2028q'\nc: \"r\u2029s\"\nd: 1\n")
    assert [mark for mark in marks if mark[:2] == ("ScalarNode", "d")] == [("ScalarNode", "d", (27, 6, 0), (28, 6, 1))]
