"""What a record's provenance says was stated by no input: weights left to
the collector's default (records.unstated.weights_defaulted) and input
shapes taken from collect's --shape (shapes_from_option, shape_option_note,
command_shape). The records are made up; the notes are the words collect
writes."""

from __future__ import annotations

from studygen.records.unstated import (DEFAULT_WEIGHTS_NOTE, command_shape, shape_option_note, shapes_from_option,
                                         weights_defaulted)

TRTEXEC = "studygen collect trtexec"


def ingested(command: str, notes=(), collector: str = TRTEXEC, weights: str = "pretrained") -> dict:
    return {"gpu": "NVIDIA GeForce RTX 3080", "software": {"tensorrt": "8.6.1"},
            "checkpoint": {"id": "acme/tiny", "revision": "1a2b3c4d", "weights": weights},
            "collector": {"name": collector, "version": "0", "command": command}, "notes": list(notes)}


def test_the_note_of_a_shape_taken_from_the_option_is_read_back():
    note = shape_option_note("int8.log run 1 (line 1)", "224x224")
    assert note == "int8.log run 1 (line 1): shape 224x224 taken from --shape: the input states none"
    # a record written with the note: its command is not needed to know it
    assert shapes_from_option(ingested("studygen collect trtexec --log int8.log", [note])) == {"224x224"}


def test_a_record_written_before_the_note_is_read_by_its_command():
    # an older collect wrote no note for an option it took; its command, kept in the provenance, says it was given
    older = ingested("studygen collect trtexec --log int8.log --family tiny --job a --variant int8 --shape 224x224 "
                     "--gpu 'NVIDIA Jetson (module not stated)'")
    assert shapes_from_option(older) == {"224x224"}
    # the log stated that shape too (collect notes every shape it reads): the log's word, not the option's
    read = "fp16.log run 1 (line 1): shape 224x224 read from its input shapes x=1x3x224x224, channels first"
    assert shapes_from_option(ingested(older["collector"]["command"], [read])) == frozenset()
    # a shape read from a log is never marked, with or without an option
    assert shapes_from_option(ingested("studygen collect trtexec --log fp16.log", [read])) == frozenset()


def test_only_an_ingest_collectors_command_is_read():
    command = "studygen collect run --family tiny --job h200 --shape 800x1067"
    # collect run measured at the shape it was told: a fact of the run, not a label
    assert shapes_from_option(ingested(command, collector="studygen collect run")) == frozenset()
    for name in ("studygen collect torch-profile", "studygen collect coco"):
        assert shapes_from_option(ingested(command.replace("collect run", "collect x"), collector=name)) == {"800x1067"}
    # a transcription has no command at all
    assert shapes_from_option({"checkpoint": {"id": "x", "weights": "pretrained"}, "source": {"citation": "PR"}}) \
        == frozenset()


def test_the_shape_of_a_recorded_command_line():
    assert command_shape("studygen collect coco --shape 640x640 --batch 1") == "640x640"
    assert command_shape("studygen collect trtexec --log 'a b.log'") is None
    assert command_shape("studygen collect trtexec --log '--shape' --batch 1") is None  # a value, then no shape
    assert command_shape("studygen collect trtexec --log 'unclosed") is None  # does not split: nothing read


def test_weights_are_defaulted_only_while_the_record_still_holds_the_default():
    assert weights_defaulted(ingested("c", [DEFAULT_WEIGHTS_NOTE]))
    assert not weights_defaulted(ingested("c"))  # given on the command line or by the study file: no note
    # corrected later with --replace: the note stays in the record, the value is no longer the default
    corrected = "provenance.checkpoint.weights corrected from 'pretrained' to 'random-init': seeded run"
    assert not weights_defaulted(ingested("c", [DEFAULT_WEIGHTS_NOTE, corrected], weights="random-init"))
    # corrected back to pretrained: a command line stated it then
    back = "provenance.checkpoint.weights corrected from 'random-init' to 'pretrained': the seed was a typo"
    assert not weights_defaulted(ingested("c", [DEFAULT_WEIGHTS_NOTE, corrected, back]))


def test_the_notes_collect_writes_are_the_notes_render_reads():
    """Both shape notes are made and read in one module: a --shape the log also states is no option's word."""
    from studygen.records.unstated import shape_option_note, shape_read_note, shapes_from_option

    read = shape_read_note("a.log run 1 (line 3)", "640x640", "its inference shapes images=1x3x640x640 (line 9)")
    given = shape_option_note("b.log run 1 (line 2)", "224x224")
    collector = {"name": "studygen collect trtexec", "command": "studygen collect trtexec --shape 640x640 a.log"}
    assert shapes_from_option({"notes": [read, given], "collector": collector}) == {"224x224"}
