"""What a record's provenance says no input of it stated: weights a
collector recorded as its default, and input shapes a collect took from its
``--shape`` option because the input states none. Collect writes the notes
(:func:`shape_option_note`, :data:`DEFAULT_WEIGHTS_NOTE`); render reads them
back to mark such values where a table prints them. Kept apart from
:mod:`.provenance` (which merges and corrects provenance blocks) so that
loading and rendering a study imports nothing that writes records.
"""

from __future__ import annotations

import re
import shlex

# What a checkpoint field is when nobody said: the id unknown, no revision, pretrained weights.
CHECKPOINT_DEFAULTS = {"id": "unknown", "revision": None, "weights": "pretrained"}
# The note a collect adds when the weights were left to their default: true only of a record that gets it.
DEFAULT_WEIGHTS_NOTE = "weights not given on the command line: recorded as pretrained (the default)"

# The collectors that read files someone else may have written (and whose --shape labels their results); collect
# run measures, so the shape it records is the one it ran at.
INGEST_COLLECTORS = ("studygen collect trtexec", "studygen collect torch-profile", "studygen collect coco",
                     "studygen collect agreement")
RUN_COLLECTOR = "studygen collect run"  # the collector that measures: its records' provenance.collector.name
# A shape note of a collect (:func:`shape_option_note`, :func:`shape_read_note`), each capturing the shape HxW.
_SHAPE_FROM_OPTION = re.compile(r": shape ([1-9][0-9]*x[1-9][0-9]*) taken from --shape: ")
_SHAPE_READ = re.compile(r": shape ([1-9][0-9]*x[1-9][0-9]*) read from ")
_SHAPE = re.compile(r"[1-9][0-9]*x[1-9][0-9]*")


def shape_option_note(where: str, shape: str) -> str:
    """The provenance note of a collect that labelled results with the
    ``--shape`` option's ``shape`` (HxW) because their input, ``where`` (its
    file name, and run where it has several), states none:
    ``run.log run 1 (line 1): shape 224x224 taken from --shape: the input
    states none``. :func:`shapes_from_option` reads it back."""
    return f"{where}: shape {shape} taken from --shape: the input states none"


def shape_read_note(where: str, shape: str, source: str) -> str:
    """The provenance note of a collect that read the input shape ``shape``
    (HxW) from ``where`` (a log and its run), ``source`` saying what in it:
    ``run.log run 1 (line 1): shape 224x224 read from its inference shapes
    ...``. :func:`shapes_from_option` reads it back (a shape an input states)."""
    return f"{where}: shape {shape} read from {source}"


def shapes_from_option(provenance: dict) -> frozenset[str]:
    """The input shapes (HxW) of a record that came from collect's
    ``--shape`` option, not from an input: those its notes name
    (:func:`shape_option_note`), and, for a record an ingest collector
    (:data:`INGEST_COLLECTORS`) wrote before it wrote such notes, the
    ``--shape`` of the command its provenance keeps; less any shape a note
    says was read from an input (collect trtexec notes every shape it reads
    from a log, and refuses a ``--shape`` its log contradicts, so an option
    that a log of the job states is that log's word too: a ``--plan`` file
    labelled beside it, say). The command of a transcription or of
    ``collect run`` (which ran at the shapes it records) is never read."""
    notes = [note for note in provenance.get("notes") or [] if isinstance(note, str)]
    given = {found.group(1) for found in map(_SHAPE_FROM_OPTION.search, notes) if found}
    collector = provenance.get("collector") or {}
    if collector.get("name") in INGEST_COLLECTORS:
        commanded = command_shape(collector.get("command") or "")
        if commanded is not None:
            given.add(commanded)
    read = {found.group(1) for found in map(_SHAPE_READ.search, notes) if found}
    return frozenset(given - read)


def command_shape(command: str) -> str | None:
    """The ``--shape`` value (HxW) of a studygen command line as collect
    records it (``provenance.collector.command``, shell-quoted), else None;
    also None for a line that does not split as a shell's would."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for word, value in zip(words, words[1:]):
        if word == "--shape" and _SHAPE.fullmatch(value):
            return value
    return None


def weights_defaulted(provenance: dict) -> bool:
    """Whether a record's checkpoint weights are the collector's default,
    stated by nobody: its notes hold :data:`DEFAULT_WEIGHTS_NOTE`, it still
    holds the default, and no ``--replace`` corrected the weights since."""
    notes = provenance.get("notes") or []
    return (DEFAULT_WEIGHTS_NOTE in notes
            and (provenance.get("checkpoint") or {}).get("weights") == CHECKPOINT_DEFAULTS["weights"]
            and not any(isinstance(note, str) and note.startswith("provenance.checkpoint.weights corrected")
                        for note in notes))
