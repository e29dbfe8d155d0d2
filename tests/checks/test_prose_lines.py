"""A finding about a sentence of a study-file field names the line the
sentence stands on, not the field's key: a new user's decision summary, a
``>-`` block of seven lines, had SG107, SG204 and SG222 all at the
``summary: >-`` line. README lines a moved finding's message names say they
are the README's. The study files, sentences and figures here are made up."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, run_checks
from studygen.checks.base import _readme_lines_named
from studygen.records.load import yaml_phrase_line, yaml_text_line
from studygen.study import load_study

from .studies import latency, record, spec, write_project

STUDY_FILE = "families/toy/study.yaml"
GENERIC = '{% extends "studygen/generic.md.j2" %}\n'
RECORDS = [record("job", [latency("fp16", 5.2), latency("fp8", 4.8)])]

# key on line 2; its three sentences start on lines 3, 5 and 6 in every style below
BLOCKS = {
    "folded strip": "notes:\n  text: >-\n    Calm water here.\n    still calm.\n    Rough seas at dawn.\n"
                    "    A ferry waits.\n",
    "folded keep, indent given": "notes:\n  text: >2+\n    Calm water here.\n    still calm.\n"
                                 "    Rough seas at dawn.\n    A ferry waits.\n\n",
    "literal": "notes:\n  text: |\n    Calm water here.\n    still calm.\n    Rough seas at dawn.\n    A ferry waits.\n",
    "literal strip, comment after the header": "notes:\n  text: |-  # a note\n    Calm water here.\n    still calm.\n"
                                               "    Rough seas at dawn.\n    A ferry waits.\n",
    "plain over lines": "notes:\n  text:\n    Calm water here.\n    still calm.\n    Rough seas at dawn.\n"
                        "    A ferry waits.\n",
    "single-quoted over lines": "notes:\n  text: '\n    Calm water, it''s here.\n    still calm.\n    Rough seas at dawn.\n"
                                "    A ferry waits.'\n",
}


@pytest.mark.parametrize("style", sorted(BLOCKS))
def test_each_sentence_of_a_multi_line_scalar_is_at_its_own_line(style):
    text = BLOCKS[style]
    assert [yaml_phrase_line(text, ("notes", "text"), phrase)
            for phrase in ("Calm water", "Rough seas at dawn.", "A ferry waits")] == [3, 5, 6]
    # a phrase the README folds onto one line still starts where it starts
    assert yaml_phrase_line(text, ("notes", "text"), "here. still calm.") == 3  # ('' is one quote)
    import yaml
    loaded = yaml.safe_load(text)["notes"]["text"]
    assert yaml_text_line(text, ("notes", "text"), loaded.index("Rough")) == 5
    assert yaml_text_line(text, ("notes", "text"), loaded.index("dawn")) == 5


def test_a_one_line_scalar_is_at_its_line():
    text = "title: Toy\nnotes:\n  text: 'It''s calm. Rough seas.'\n  other: plain words\n"
    assert yaml_phrase_line(text, ("notes", "text"), "Rough seas.") == 3
    assert yaml_text_line(text, ("notes", "text"), 11) == 3
    assert yaml_phrase_line(text, ("notes", "other"), "words") == 4


def test_where_the_mapping_is_not_certain_the_key_line_is_given():
    # an escape of a double-quoted scalar changes the characters: no line is certain
    escaped = 'notes:\n  text: "Calm\\t water.\n    Rough seas."\n'
    assert yaml_phrase_line(escaped, ("notes", "text"), "Rough seas.") == 2
    # the same without an escape is certain
    assert yaml_phrase_line(escaped.replace("\\t", ""), ("notes", "text"), "Rough seas.") == 3
    folded = "notes:\n  text: >-\n    Rough seas.\n    Calm.\n    Rough seas.\n"
    assert yaml_phrase_line(folded, ("notes", "text"), "Rough seas.") == 2  # at two lines: which one is meant?
    assert yaml_phrase_line(folded, ("notes", "text"), "Fog.") == 2  # not in the field
    assert yaml_phrase_line(folded, ("notes", "missing"), "Fog.") == 0


def _checked(tmp_path, summary_yaml: str):
    """The findings of a generic-template study whose decision summary is written as ``summary_yaml``."""
    study_dir = write_project(tmp_path, records=RECORDS, template=GENERIC,
                              study=spec(decision={"shipped": False, "summary": "PLACEHOLDER"}))
    path = study_dir / "study.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  summary: PLACEHOLDER\n" in text
    path.write_text(text.replace("  summary: PLACEHOLDER\n", summary_yaml), encoding="utf-8")
    study = load_study(study_dir, tmp_path)
    study.readme_path.write_text(CheckContext(study).rendered.readme, encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    return {f.code: f for f in run_checks(study) if f.file == STUDY_FILE and f.pointer == "/decision/summary"}, lines


@pytest.mark.parametrize("header", ["|", ">-", "|2-", ">+"])
def test_findings_in_a_block_summary_name_the_sentence_lines(tmp_path, header):
    summary = (f"  summary: {header}\n    Ship fp16.\n    The FP8 engine gained 0.4 ms at 800 x 800,\n"
               "    which is within the noise of the timer.\n    On the same GPU fp16 ran at 5.30 ms.\n")
    found, lines = _checked(tmp_path, summary)
    key = lines.index(f"  summary: {header}") + 1
    assert {code: (f.line, f.pointer) for code, f in found.items()} == {
        "SG105": (key + 3, "/decision/summary"),  # lint's quoted phrase, "within the noise"
        "SG204": (key + 3, "/decision/summary"),  # the verdict, on the sentence's second line
        "SG222": (key + 4, "/decision/summary"),  # the figure
    }
    assert "5.30 ms" in lines[found["SG222"].line - 1]


def test_findings_in_a_one_line_summary_name_its_line(tmp_path):
    found, lines = _checked(tmp_path, "  summary: 'Ship fp16. The FP8 engine gained 0.4 ms at 800 x 800, which is "
                                      "within the noise of the timer. fp16 ran at 5.30 ms.'\n")
    line = next(number for number, text in enumerate(lines, 1) if text.startswith("  summary:"))
    assert {code: f.line for code, f in found.items()} == {"SG105": line, "SG204": line, "SG222": line}


def test_a_double_quoted_summary_with_an_escape_falls_back_to_its_key(tmp_path):
    found, lines = _checked(tmp_path, '  summary: "Ship fp16.\\u0020The FP8 engine gained 0.4 ms at 800 x 800,\n'
                                      '    which is within the noise of the timer."\n')
    line = next(number for number, text in enumerate(lines, 1) if text.startswith("  summary:"))
    assert {code: f.line for code, f in found.items()} == {"SG105": line, "SG204": line}


def test_readme_lines_a_moved_message_names_say_they_are_the_readmes():
    message = ("'int8 is faster than fp16 on every GPU' compares nothing: no row of the table at line 26 holds both; "
               "the tables at lines 12, 30 and 41 hold one side (line 7)")
    assert _readme_lines_named(message, "families/x/README.md", "int8 is faster than fp16 on every GPU.") == (
        "'int8 is faster than fp16 on every GPU' compares nothing: no row of the table at README.md line 26 holds "
        "both; the tables at README.md lines 12, 30 and 41 hold one side (README.md line 7)")
    # a "line 3" the quoted field holds too is left as it is: which one is meant cannot be told
    assert _readme_lines_named("'line 3 is faster' at line 3", "README.md", "Line 3 is faster.") == (
        "'line 3 is faster' at line 3")
