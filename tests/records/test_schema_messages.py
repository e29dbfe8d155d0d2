"""A schema error is one readable line: a size limit is worded by count, never by quoting the whole value
(an attack collected 50 logs into one job until the 100-note limit: the refusal quoted every note, 15,110
characters on one line)."""

from __future__ import annotations

import copy
import json

from studygen.records import schemas
from tests.conftest import REPO

SHIPPED = REPO / "measurements" / "hackathon_mnist_trtexec" / "gtx1070-trt8.0.3.json"


def shipped_record() -> dict:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def test_a_shipped_record_has_no_schema_error():
    assert schemas.schema_errors("run", shipped_record()) == []


def test_too_many_notes_are_counted_against_the_limit():
    document = copy.deepcopy(shipped_record())
    document["provenance"]["notes"] = [f"note {index}: " + "x" * 140 for index in range(101)]
    assert schemas.schema_errors("run", document) == [
        ("/provenance/notes", "holds 101 items; the schema allows at most 100")]


def test_a_note_too_long_is_counted_in_characters():
    document = copy.deepcopy(shipped_record())
    document["provenance"]["notes"] = ["fine", "y" * 4001]
    assert schemas.schema_errors("run", document) == [
        ("/provenance/notes/1", "holds 4001 characters; the schema allows at most 4000")]


def test_an_empty_text_the_schema_needs_filled_says_so():
    document = copy.deepcopy(shipped_record())
    document["provenance"]["source"] = {"citation": ""}  # (a source also conflicts with the collector: cut below)
    errors = schemas.schema_errors("run", document)
    assert ("/provenance/source/citation", "holds 0 characters; the schema asks for at least 1") in errors
    assert all(len(message) <= schemas.MESSAGE_MAX_CHARS for _, message in errors)


def test_a_long_value_is_quoted_short_and_the_rule_it_breaks_still_shows():
    document = copy.deepcopy(shipped_record())
    document["results"][0]["timing"] = "z" * 400
    document["provenance"]["gpu"] = {"name": "y" * 400}
    errors = dict(schemas.schema_errors("run", document))
    assert errors["/provenance/gpu"].endswith("is not of type 'string', 'null'")
    timing = errors["/results/0/timing"]
    assert timing.startswith("'zzzzzzzzzzzz") and "z...z" in timing and timing.endswith("' is not one of ['gpu_compute', "
                                                                               "'host_latency', 'end_to_end', 'enqueue', "
                                                                               "'h2d', 'd2h', 'unspecified']")
    assert all(len(message) <= schemas.MESSAGE_MAX_CHARS for message in errors.values())


def test_a_message_quoting_a_long_value_keeps_its_rule():
    document = copy.deepcopy(shipped_record())
    document["provenance"]["notes"] = {"not": "a list", "padding": "z" * 5000}
    [(pointer, message)] = schemas.schema_errors("run", document)
    assert pointer == "/provenance/notes"
    assert message.startswith("{'not': 'a list', 'padding': 'zzz") and message.endswith("'} is not of type 'array'")
    assert len(message) <= schemas.MESSAGE_MAX_CHARS


def test_a_message_still_too_long_is_cut():
    # a 20,000-character key: jsonschema quotes the key itself, not the value, so only the cut keeps it short
    document = copy.deepcopy(shipped_record())
    document["provenance"]["k" * 20000] = 1
    [(pointer, message)] = schemas.schema_errors("run", document)
    assert pointer.startswith("/provenance/kkk")
    assert len(message) == schemas.MESSAGE_MAX_CHARS and message.endswith("…")
