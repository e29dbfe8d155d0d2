"""Load run records, dataset definitions and study files, validated.

Every failure is a :class:`RecordError` naming the file and the place
(a line for malformed JSON or YAML; a JSON pointer, and its line where the
text is at hand, for schema errors).
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

from ..digests import image_ids_sha256
from ..errors import ContradictoryRecordError, RecordError
from ..place import Place
from ..textio import MAX_DOCUMENT_BYTES, MAX_NESTING, document_problem, parse_json, read_text
from .jsonpos import PointerLines, line_of_pointer, pointer_from_path
from .migrate import migrate
from .group_sums import group_sum_disagreement
from .order import compiled_value_disagreement, rank_disagreement, result_disorder, stated_value_disagreement
from .unstated import shapes_from_option, weights_defaulted
from .schemas import validate_document


@dataclass
class Record:
    """A validated run record: ``data`` is the JSON object, ``text`` its
    source; ``job_id``, ``provenance`` and ``results`` are the object's own
    (the same objects, None where it lacks one), read once when the record is
    made: rows and checks read them about 30 times a record, where a property
    each was a call each time."""

    path: Path
    display_path: str
    data: dict
    text: str
    job_id: str = field(init=False, repr=False, compare=False)
    provenance: dict = field(init=False, repr=False, compare=False)
    results: list[dict] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        data = self.data
        self.job_id, self.provenance, self.results = data.get("job_id"), data.get("provenance"), data.get("results")

    def line_of(self, pointer: str) -> int:
        """Line of ``pointer`` in this record's file (1-based)."""
        return self._pointer_lines.line_of(pointer)

    @functools.cached_property
    def _pointer_lines(self) -> PointerLines:
        # one per record: each finding asks a line, and a lookup goes on from where the last stopped
        return PointerLines(self.text)

    @functools.cached_property
    def shapes_from_option(self) -> frozenset[str]:
        """Input shapes (HxW) its results took from collect's ``--shape``, no
        input stating them (:func:`.unstated.shapes_from_option`); worked
        out once, as every table cell of a shape asks."""
        return shapes_from_option(self.provenance)

    @property
    def weights_defaulted(self) -> bool:
        """Whether its checkpoint weights are the collector's default (:func:`.unstated.weights_defaulted`)."""
        return weights_defaulted(self.provenance)


@dataclass
class Dataset:
    """A validated dataset definition."""

    path: Path
    display_path: str
    data: dict
    text: str = field(repr=False, default="")

    @property
    def dataset_id(self) -> str:
        return self.data["dataset_id"]

    def line_of(self, pointer: str) -> int:
        return self._pointer_lines.line_of(pointer)

    @functools.cached_property
    def _pointer_lines(self) -> PointerLines:
        return PointerLines(self.text)


def load_record(path: Path, display: str | None = None) -> Record:
    """Read, migrate and validate one run record.

    Raises RecordError (malformed JSON, schema violation with JSON pointer,
    unknown schema_version) or InputError (unreadable file).
    """
    display = display or str(path)
    return record_of_text(path, display, read_text(path, display, MAX_DOCUMENT_BYTES))


def record_of_text(path: Path, display: str, text: str) -> Record:
    """The run record ``text`` (read from ``path``, shown as ``display``)
    holds: parsed, migrated and validated, as :func:`load_record` does.
    Raises RecordError."""
    document = parse_json(text, display)
    try:
        document = migrate(document, path=display)
    except RecordError as exc:  # placed by a pointer into the document: add its line
        raise RecordError(exc.message, place=exc.place.at_line(line_of_pointer(text, exc.place.pointer))) from None
    validate_document("run", document, path=display, text=text)
    refuse_disorder(document, display, text)
    return Record(path=path, display_path=display, data=document, text=text)


def refuse_disorder(document: dict, display: str, text: str) -> None:
    """ContradictoryRecordError at the field and its line when a result's
    statistics are out of order (:func:`studygen.records.order.result_disorder`): a p99
    below the median, a mean above the max, a p150. The schema checks each
    figure alone; no set of timings gives these together, so the record was
    edited or damaged and its figures are not measurements. Likewise a
    stated figure that is not the statistic it names in the result's own
    statistics, or lies outside their [min, max]
    (:func:`studygen.records.order.stated_value_disagreement`), or a compiled
    cell's figure that is not its compilations' median
    (:func:`studygen.records.order.compiled_value_disagreement`), or a kernel
    group's time that its listed kernels contradict
    (:func:`studygen.records.group_sums.group_sum_disagreement`), or a
    profile's rank its own world size does not hold
    (:func:`studygen.records.order.rank_disagreement`), refused at the figure."""
    for index, result in enumerate(document.get("results") or []):
        if not isinstance(result, dict):
            continue
        if (found := result_disorder(result)) is not None:
            pointer = f"/results/{index}/{found[0]}"
            raise ContradictoryRecordError(f"{found[0]} out of order: {found[1]}, which no set of timings gives "
                                           "(the record was edited?)",
                                           place=Place(display, line_of_pointer(text, pointer), pointer))
        if (found := stated_value_disagreement(result) or compiled_value_disagreement(result)
                or group_sum_disagreement(result) or rank_disagreement(result)) is not None:
            pointer = f"/results/{index}/{found[0]}"
            raise ContradictoryRecordError(f"{found[1]} (the record was edited?)",
                                           place=Place(display, line_of_pointer(text, pointer), pointer))


def load_dataset(path: Path, display: str | None = None) -> Dataset:
    """Read and validate one dataset definition; also checks that the file
    name is ``<dataset_id>.json`` and that a listed id set matches its count
    and sha256 (see :func:`image_ids_sha256`)."""
    display = display or str(path)
    text = read_text(path, display, MAX_DOCUMENT_BYTES)
    document = parse_json(text, display)
    try:
        return _checked_dataset(path, display, document, text)
    except RecordError as exc:  # placed by a pointer into the document: add its line, as records have
        if exc.place.line or exc.place.pointer is None:
            raise
        raise RecordError(exc.message, place=exc.place.at_line(line_of_pointer(text, exc.place.pointer))) from None


def _checked_dataset(path: Path, display: str, document, text: str) -> Dataset:
    if isinstance(document, dict) and document.get("schema_version") != 1:
        raise RecordError("this studygen needs schema_version 1 for dataset definitions", path=display, pointer="/schema_version")
    validate_document("dataset", document, path=display, text=text)
    if path.stem != document["dataset_id"]:
        raise RecordError(f"dataset_id '{document['dataset_id']}' differs from the file name '{path.name}'", path=display, pointer="/dataset_id")
    ids = document.get("image_ids")
    if ids is not None:
        if len(ids) != document["count"]:
            raise RecordError(f"count {document['count']} but {len(ids)} image ids listed", path=display, pointer="/count")
        digest = image_ids_sha256(ids)
        if digest != document["image_ids_sha256"]:
            raise RecordError(f"image_ids_sha256 does not match the listed ids (computed {digest})", path=display, pointer="/image_ids_sha256")
    return Dataset(path=path, display_path=display, data=document, text=text)


# A study file is written by hand: the largest shipped one holds 10 KB. PyYAML's Python parser reads about
# 60 KB a second on a loaded machine, so a 16 MB study file (the limit of a record) kept render and check
# busy for minutes (a 5 MB flow list: 80 s) before its first finding; 256 KiB reads in a few seconds.
MAX_STUDY_BYTES = 256 * 1024


def load_yaml(path: Path, display: str | None = None):
    """A study file's YAML (at most :data:`MAX_STUDY_BYTES`), read with
    :func:`study_yaml_loader` (PyYAML's safe loader refusing aliases, merge
    keys, duplicate keys, non-finite floats and nesting past
    :data:`~studygen.textio.MAX_NESTING`), and its text. Errors are
    RecordError ``file:N: malformed YAML: …``; a key YAML reads as no text
    (``on:``, ``1:``) is refused at its line and pointer (``file:N: key on
    is not text; … (/run/on)``), and a lone surrogate (``"\\ud800"``) naming its pointer."""
    import yaml

    display = display or str(path)
    text = read_text(path, display, MAX_STUDY_BYTES)
    try:
        document = _load_study_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)  # PyYAML's MarkedYAMLError has one, YAMLError not
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        line = mark.line + 1 if mark is not None else 0
        pointer = getattr(exc, "pointer", None)  # set by the rules on a key that is not text: the YAML is well formed
        if pointer is not None:
            raise RecordError(problem, path=display, line=line, pointer=pointer) from None
        raise RecordError(f"malformed YAML: {problem}", path=display, line=line) from None
    problem = document_problem(document)
    if problem is not None:
        pointer, reason = problem
        raise RecordError(reason, path=display, pointer=pointer)
    return document, text


def _load_study_yaml(text: str):
    """``text`` loaded by :func:`study_yaml_loader`, PyYAML's own scanner,
    parser, composer and constructor, so that every message and line is
    PyYAML's. (A faster path reading libyaml's events was tried and taken
    out: the two parsers read some texts apart, e.g. an empty node tagged
    ``!`` or a comment right after a block scalar's header, and a few
    milliseconds a study file did not pay for a second reading of what a
    verdict rests on.) Raises yaml.YAMLError (and what PyYAML's
    constructors raise)."""
    import yaml

    return yaml.load(text, Loader=study_yaml_loader())  # noqa: S506 - a SafeLoader subclass


_LOADERS: dict[str, object] = {}
# What PyYAML's Reader.forward does not count as one column: the line breaks YAML 1.1 knows, a carriage return
# (a line break unless a line feed follows it) and the byte order mark (no column)
_NOT_PLAIN_COLUMN = frozenset("\n\r\x85\u2028\u2029\ufeff")


def study_yaml_loader():
    """PyYAML's ``SafeLoader`` made strict for files a person writes by hand
    (:class:`_StudyYamlRules`: no aliases, no key twice, nesting at most
    :data:`~studygen.textio.MAX_NESTING`), all in Python. Each refusal is a
    ``yaml.MarkedYAMLError`` naming the line."""
    if "python" not in _LOADERS:
        import yaml

        rules = _study_yaml_rules()
        _LOADERS["python"] = type("StudyYamlLoader", (rules, yaml.SafeLoader), {})
    return _LOADERS["python"]


def _study_yaml_rules():
    """The rules of a study file's YAML, a mixin over PyYAML's composer and safe constructor:

    - an alias (``*name``, also in a ``<<: *name`` merge) is refused: an
      anchor aliased in a chain expands exponentially (a 6.7 KB file took
      check past 120 s and 2.5 GB), and a study file has nothing to share;
    - a merge key (``<<: {batch: 1}``) is refused at its line: a key written
      beside it silently beat the merged one, a list of merges silently
      kept the first, and a key misspelt inside one was reported without a line;
    - a key written twice in one mapping is refused (PyYAML keeps the last
      silently), naming the line of the first;
    - a key YAML reads as no text (``on``, ``yes``, ``1``, ``2.5``,
      ``2020-01-01``, ``~``) is refused at its line, the error's ``pointer``
      naming it as written (every key of a study file is a name; schema
      validation met ``True`` and stopped with an internal error);
    - mappings and lists nested deeper than :data:`~studygen.textio.MAX_NESTING`
      are refused before the composer's recursion runs out;
    - a float that is not finite (``.inf``, ``-.inf``, ``.nan``) is refused at its line."""
    if "rules" in _LOADERS:
        return _LOADERS["rules"]
    import yaml
    from yaml.composer import ComposerError
    from yaml.constructor import ConstructorError

    class StudyYamlRules:
        depth = 0

        def forward(self, length=1):
            # PyYAML's Reader.forward steps one character at a time to count lines and columns (about a tenth
            # of reading a study file); a run of characters holding no line break, carriage return or byte order
            # mark moves the column by its length, as that loop would. A text is read whole (no stream to
            # refill: raw_buffer None), so the run is the buffer's slice; any other run goes through PyYAML's loop.
            if self.raw_buffer is None:
                end = self.pointer + length
                run = self.buffer[self.pointer:end]
                if len(run) == length and _NOT_PLAIN_COLUMN.isdisjoint(run):
                    self.pointer, self.index, self.column = end, self.index + length, self.column + length
                    return
            super().forward(length)

        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise ComposerError(None, None, f"alias *{event.anchor}: study files may not use aliases "
                                    "(write the value out where it is needed)", event.start_mark)
            if not self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent):
                return super().compose_node(parent, index)
            if self.depth >= MAX_NESTING:
                raise ComposerError(None, None, f"nested more than {MAX_NESTING} levels deep (lists or mappings); "
                                    f"the limit is {MAX_NESTING}", self.peek_event().start_mark)
            self.depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

        def construct_yaml_int(self, node):
            # an integer past Python's digit limit (4,300) raises a bare ValueError without a line
            try:
                return super().construct_yaml_int(node)
            except ValueError:
                digits = node.value.replace("_", "").lstrip("+-")
                if not (digits.isdigit() and len(digits) > sys.get_int_max_str_digits() > 0):
                    raise  # not a length: construct_object words it
                raise ConstructorError(None, None, f"integer of {len(node.value)} characters is out of range "
                                       "(no figure or setting has that many digits)", node.start_mark) from None

        def construct_yaml_float(self, node):
            # YAML spells infinity and not-a-number (.inf, .nan): no figure or setting is either; a NaN
            # anomaly factor or tolerance compares false with everything and so turned its check off
            value = super().construct_yaml_float(node)
            if not math.isfinite(value):
                raise ConstructorError(None, None, f"{node.value!r} is not a finite number (no figure or setting is "
                                       "infinite or not a number)", node.start_mark)
            return value

        def construct_object(self, node, deep=False):
            # PyYAML's constructors let Python's own errors through without a line: a date that is no
            # date ("2024-13-45"), "!!int x"; each becomes a refusal at the node's line
            try:
                return super().construct_object(node, deep=deep)
            except (ValueError, TypeError, OverflowError) as exc:
                shown = node.value if isinstance(node, yaml.ScalarNode) else node.id
                kind = node.tag.rsplit(":", 1)[-1]
                raise ConstructorError(None, None, f"{shown!r} is not a valid {kind} ({exc})",
                                       node.start_mark) from None

        def construct_document(self, node):
            self.document_node = node  # where a refused key's pointer is looked for
            return super().construct_document(node)

        def construct_mapping(self, node, deep=False):
            first_line: dict = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise ConstructorError(None, None, "merge key <<: study files may not merge mappings "
                                           "(write the keys out in the mapping)", key_node.start_mark)
                if not isinstance(key_node, yaml.ScalarNode):
                    continue  # a list or mapping as a key: PyYAML refuses it as unhashable
                key = self.construct_object(key_node)
                if not isinstance(key, str):
                    refusal = ConstructorError(None, None, self.not_text(key_node, key), key_node.start_mark)
                    holder = _holder_path(self.document_node, key_node)
                    # a tab in a date key would break the one-line message: then the holder's pointer
                    printable = key_node.value.isprintable()
                    refusal.pointer = pointer_from_path([*holder, key_node.value] if printable else holder)
                    raise refusal
                if key in first_line:
                    raise ConstructorError(None, None, f"duplicate key {key!r} (first on line {first_line[key]}): "
                                           "the last would silently win", key_node.start_mark)
                first_line[key] = key_node.start_mark.line + 1
            return super().construct_mapping(node, deep=deep)

        def not_text(self, key_node, key) -> str:
            """Why the key ``key`` (constructed from ``key_node``) is refused, naming it as written."""
            if key_node.value == "":
                return "a key written as nothing is not text (YAML reads it as no value): write the key's name"
            implicit = self.resolve(yaml.ScalarNode, key_node.value, (True, False))  # its tag were it plain, untagged
            if key_node.style is None and key_node.tag == implicit:
                return f"key {key_node.value} is not text; {unquoted_non_text(key_node)}"
            return (f"key {key_node.value!r} is not text: its tag {key_node.tag} makes it {type(key).__name__}; "
                    "write the key as text")

    # each loader class built on the rules copies SafeConstructor's table when it adds to it (PyYAML's
    # add_constructor), so the rules class holds its own table with the int constructor replaced
    StudyYamlRules.yaml_constructors = {**yaml.SafeLoader.yaml_constructors,
                                        "tag:yaml.org,2002:int": StudyYamlRules.construct_yaml_int,
                                        "tag:yaml.org,2002:float": StudyYamlRules.construct_yaml_float}
    _LOADERS["rules"] = StudyYamlRules
    return StudyYamlRules


def _holder_path(root, key_node) -> list:
    """The keys (as written) and indexes from the YAML node ``root`` to the
    mapping that holds ``key_node``; [] when the root holds it (or none does)."""
    import yaml

    stack = [(root, [])]
    while stack:
        node, path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key is key_node:
                    return path
                if isinstance(key, yaml.ScalarNode):  # under a list or mapping key nothing is constructed
                    stack.append((value, [*path, key.value]))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, [*path, index]) for index, item in enumerate(node.value))
    return []


def yaml_line(text: str, *path) -> int:
    """1-based line of the YAML node at ``path`` (keys and indexes) in ``text``; 0 if absent."""
    node = yaml_node(text, *path)
    return node.start_mark.line + 1 if node is not None else 0


def yaml_text_line(text: str, path: tuple, offset: int) -> int:
    """1-based line of ``text`` (a YAML document) where character ``offset``
    of the string at ``path`` (keys and indexes) stands, the string as
    loaded; the line of the value's start (:func:`yaml_line`, the key's line
    for a block scalar ``|``, ``>``) where that is not certain, and 0 if
    absent. An offset on white space counts from the next character that is
    not (a phrase starts at a word).

    Plain and quoted scalars (one line or folded over several) and block
    scalars of every style (``|``, ``>``, chomping and indentation
    indicators) are read from the value node's marks: the loaded string
    keeps the source's characters other than white space in their order
    (folding and chomping change only white space), so the k-th of them is
    the source's k-th. Where the two differ (an escape of a double-quoted
    scalar, ``\\t``), or the offset lies past them, the value's start is
    given."""
    node, lines = _character_lines(text, tuple(path))
    if node is None:
        return 0
    value = node.value
    if lines is None or not 0 <= offset < len(value):
        return node.start_mark.line + 1
    before = _kept_before(value)[offset]
    return lines[before] + 1 if before < len(lines) else node.start_mark.line + 1


@functools.lru_cache(maxsize=8)
def _kept_before(value: str) -> list[int]:
    """For each offset of ``value``, how many of its characters before it are
    not white space (one more entry for its end): counted once a string, where
    each finding counted its string up to its offset."""
    return list(accumulate((0 if char.isspace() else 1 for char in value), initial=0))


def yaml_phrase_line(text: str, path: tuple, phrase: str) -> int:
    """1-based line of ``text`` where ``phrase`` (white space aside: the
    README folds it) starts in the string at ``path``; the value's start
    (:func:`yaml_line`) when the phrase is not in it, or stands at several
    places on different lines, or the string's lines are not certain
    (:func:`yaml_text_line`); 0 if absent."""
    node, lines = _character_lines(text, tuple(path))
    if node is None:
        return 0
    wanted = "".join(phrase.split())
    if lines is None or not wanted:
        return node.start_mark.line + 1
    kept = "".join(node.value.split())  # the k-th character here stands on lines[k]
    starts, at = set(), kept.find(wanted)
    while at != -1:
        starts.add(lines[at])
        at = kept.find(wanted, at + 1)
    return starts.pop() + 1 if len(starts) == 1 else node.start_mark.line + 1


@functools.lru_cache(maxsize=64)
def _character_lines(text: str, path: tuple):
    """``(node, lines)``: the YAML node at ``path`` in ``text`` (None if
    absent) and, when it is a string whose characters other than white
    space are the source's between its marks (:func:`_source_characters`),
    the 0-based source line of each of them in order; else None. Made once
    per text and path (the findings of one field ask for it each): a study
    file of 3,000 misquoted figures in one field was composed and walked
    3,000 times, 95 s of check. Read only: nothing may change the node or list."""
    node = yaml_node(text, *path)
    if node is None or not isinstance(node.value, str):
        return node, None
    kept = _source_characters(text, node)
    if kept is None or [char for char, _ in kept] != [char for char in node.value if not char.isspace()]:
        return node, None  # an escape, or source the marks do not bound as read here: not certain
    return node, [line for _, line in kept]


def _source_characters(text: str, node) -> list[tuple[str, int]] | None:
    """``(character, 0-based line)`` for each character other than white
    space that the scalar ``node`` holds as written between its marks: a
    block scalar's header line left out, a quoted scalar's quotes left out and
    ``''`` of a single-quoted one read as one ``'``; None for a double-quoted
    scalar with an escape (its characters are not the loaded ones)."""
    start, end = node.start_mark.index, node.end_mark.index
    line = node.start_mark.line
    if node.style in ("|", ">"):
        header_end = text.find("\n", start, end)
        if header_end == -1:
            return []
        start, line = header_end + 1, line + 1
    elif node.style in ("'", '"'):
        if node.style == '"' and "\\" in text[start:end]:
            return None
        start, end = start + 1, end - 1
    found: list[tuple[str, int]] = []
    index = start
    while index < end:
        char = text[index]
        if char == "\n":
            line += 1
        elif not char.isspace():
            found.append((char, line))
            if char == "'" and node.style == "'" and text.startswith("''", index):
                index += 1  # '' is one quote
        index += 1
    return found


def yaml_node(text: str, *path):
    """PyYAML's node at ``path`` (keys and indexes) in ``text``, composed by
    the safe loader (its ``value`` the text as written, its ``tag`` what an
    unquoted scalar resolves to); None if absent or ``text`` is no YAML."""
    import yaml

    node = _composed(text)
    for step in path:
        if node is None:
            return None
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            return None
    return node


@functools.lru_cache(maxsize=4)
def _composed(text: str):
    """``text`` composed by PyYAML's safe loader (the root node), None when it
    is no YAML; once per text: each line a finding names in a study file
    composed the whole file again. Read only: callers walk the nodes and
    never change them."""
    import yaml

    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def unquoted_non_text(node) -> str | None:
    """For a plain (unquoted) YAML scalar that YAML reads as no text (a
    number, a boolean, null, a date: ``0123456`` is the octal number 42798
    and ``1234567`` a number, both short git hashes), how it was written
    and how to keep it as text; None for any other node. Source: YAML 1.1's
    implicit types, which PyYAML's safe loader resolves."""
    if node is None or getattr(node, "style", "") is not None or not isinstance(node.value, str):
        return None
    kind = node.tag.rsplit(":", 1)[-1]
    if kind == "str":
        return None
    read_as = _READ_AS.get(kind, f"a {kind}")
    return f"YAML reads the unquoted {node.value} as {read_as}: quote it ('{node.value}') to keep it as written"


_READ_AS = {"int": "a number", "float": "a number", "bool": "true or false", "null": "no value", "timestamp": "a date"}
