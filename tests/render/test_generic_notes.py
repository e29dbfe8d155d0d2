"""The study file's ``notes`` (free-text sections, NAME: TEXT) in the generic
template: a new user's trial wrote three sections of claims there and none
reached the README, so their misquoted figures were neither published nor
read by check. Each section now prints under ``## Notes`` as written, under
its name, noted as the study file's own words from ``/notes/NAME``. Study
files and figures made up for these tests."""

from __future__ import annotations

from studygen.checks import CheckContext, run_checks
from studygen.render.produced import WRITTEN

from ..checks.studies import codes, latency, load, record, spec

# the generic template as a family template extends it, changing nothing
GENERIC = '{% extends "studygen/generic.md.j2" %}\n'
RECORDS = [record("l4-a", [latency("fp16", 0.0612793, "28x28", batch=4)])]
NOTES = {"method": "Timed on one L4 at batch 4; the median is 0.06128 ms.",
         "open questions": "Whether fp32 gains anything on this card."}


def _context(tmp_path, notes):
    return CheckContext(load(tmp_path, records=RECORDS, template=GENERIC, study=spec(notes=notes)))


def test_each_note_prints_under_its_name_as_written(tmp_path):
    context = _context(tmp_path, NOTES)
    lines = context.rendered.readme.splitlines()
    start = lines.index("## Notes")
    assert lines[start:start + 8] == ["## Notes", "", "### method", "", NOTES["method"], "",
                                      "### open questions", ""]
    assert lines[start + 8] == NOTES["open questions"]
    # after the results and before Provenance, each note noted with its field
    assert lines.index("## Results") < start < lines.index("## Provenance")
    written = {item.source.pointer: (item.text, readme.locate(item))
               for item, readme in context.produced_outputs(kinds=(WRITTEN,))}
    assert written["/notes/method"] == (NOTES["method"], start + 5)
    assert written["/notes/open questions"] == (NOTES["open questions"], start + 9)


def test_no_notes_no_section(tmp_path):
    assert "## Notes" not in _context(tmp_path, {}).rendered.readme.splitlines()


def test_a_misquoted_figure_in_a_note_is_reported_at_its_field(tmp_path):
    # 0.06218 is the printed 0.06128 with two digits swapped: before, the note was never printed and SG222 silent
    study = load(tmp_path, records=RECORDS,
                 template=GENERIC,
                 study=spec(notes={"method": "The L4 median is 0.06218 ms at batch 4."}))
    (finding,) = codes(run_checks(study), "SG222")
    assert finding.pointer == "/notes/method"
    assert "quotes 0.06218 ms" in finding.message and "two digits swapped: 0.06128 ms" in finding.message


def test_an_empty_note_prints_nothing_and_the_readme_stays_formatted(tmp_path):
    # a new user's `probe: ""` (s27): SG218 names it, but render printed its heading and blank lines that mdformat
    # took out again, so check flagged studygen's own README with SG104
    study = load(tmp_path / "a", records=RECORDS, template=GENERIC,
                 study=spec(notes={"probe": "", "blank": "  \n", "method": NOTES["method"]}))
    lines = CheckContext(study).rendered.readme.splitlines()
    start = lines.index("## Notes")
    assert lines[start:start + 5] == ["## Notes", "", "### method", "", NOTES["method"]]
    assert "### probe" not in lines and "### blank" not in lines
    assert codes(run_checks(study), "SG104") == []
    only_empty = load(tmp_path / "b", records=RECORDS, template=GENERIC, study=spec(notes={"probe": ""}))
    assert "## Notes" not in CheckContext(only_empty).rendered.readme.splitlines()
    assert codes(run_checks(only_empty), "SG104") == []
