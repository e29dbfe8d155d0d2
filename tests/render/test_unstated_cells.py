"""Table cells that print a value no input of its record states mark it, in
one form (render.tables.unstated_label): a shape collect took from --shape
for an input that states none, and weights a collector recorded as its
default. Toy records; the notes and commands are the words collect writes."""

from __future__ import annotations

from studygen.records.unstated import DEFAULT_WEIGHTS_NOTE, shape_option_note
from studygen.render.engine import render_markdown
from studygen.render.view import StudyView

from ..checks.studies import collected_provenance, kernel_time, latency, load, record
from .test_generic_template import generic_study, tables_of
from .test_tables import cells

TYPED = "224 x 224 (from --shape, not in the input)"
READ = "h100.log run 1 (line 1): shape 224x224 read from its input shapes x=1x3x224x224, channels first"


def collected(command: str = "studygen collect trtexec --log run.log", notes=(), gpu: str = "NVIDIA H100 PCIe") -> dict:
    """A collect trtexec provenance with ``command`` and ``notes``."""
    return collected_provenance(gpu=gpu, collector={"name": "studygen collect trtexec", "version": "0",
                                                    "command": command}, notes=list(notes))


def test_a_shape_from_the_option_is_marked_and_one_from_a_log_is_not(tmp_path):
    # job typed: the log stated no shape, so collect took --shape and noted it; job logged: the log stated 224x224
    typed = record("typed", [latency("fp16", 0.2754, "224x224"),
                             kernel_time("fp16", {"Conv": 0.438, "other": 0.0147}, "224x224", total=0.4527)],
                   collected(notes=[shape_option_note("a3080.log run 1 (line 1)", "224x224")], gpu="NVIDIA A10"))
    logged = record("logged", [latency("fp16", 0.1342, "224x224")], collected(notes=[READ]))
    view = StudyView(load(tmp_path, records=[typed, logged]))
    grid = cells(view.table(index=("job_id", "shape"), variants=("fp16",), kind="latency"))
    assert grid[1:] == [["logged", "224 x 224", "0.1342"], ["typed", TYPED, "0.2754"]]  # jobs in record order
    # one table row holding both jobs' figures: some of them rest on the option, so it is marked
    pooled = cells(view.table(index=("shape",), variants=("fp16",), kind="latency"))
    assert pooled[1][0] == TYPED
    listed = cells(view.list_table(view.figures(metric="kernel_time", group="total"), columns=("job_id", "shape")))
    assert listed[1:] == [["typed", TYPED]]


def test_a_record_from_before_the_note_is_marked_by_its_command(tmp_path):
    # a user's RTX 3080 int8 log collected with --shape 224x224 by a studygen that wrote no note for it
    old = record("rtx3080", [latency("fp16", 0.2754, "224x224")],
                 collected("studygen collect trtexec --log int8.log --family toy --job rtx3080 --shape 224x224",
                           gpu="NVIDIA GeForce RTX 3080"))
    # the same command for a log that states 224x224 itself (collect noted where it read it)
    stated = record("h100", [latency("fp16", 0.1342, "224x224")],
                    collected("studygen collect trtexec --log h100.log --family toy --job h100 --shape 224x224",
                              [READ]))
    view = StudyView(load(tmp_path, records=[old, stated]))
    assert cells(view.table(index=("job_id", "shape"), variants=("fp16",), kind="latency"))[1:] == [
        ["h100", "224 x 224", "0.1342"], ["rtx3080", TYPED, "0.2754"]]


def test_defaulted_weights_are_marked_in_the_provenance_table(tmp_path):
    defaulted = record("public", [latency("fp16", 0.1526, "28x28")], collected(notes=[DEFAULT_WEIGHTS_NOTE]))
    stated = record("ours", [latency("fp16", 0.1547, "28x28")], collected())
    markdown = render_markdown(generic_study(tmp_path, [defaulted, stated]))
    provenance = tables_of(markdown.split("## Provenance")[1])[0]
    assert [row[:1] + row[3:4] for row in provenance] == [["Job", "Weights"], ["ours", "pretrained"],
                                                           ["public", "pretrained (default, not in the input)"]]
    # the note the mark stands for is listed under the table, as before
    assert f"- public: {DEFAULT_WEIGHTS_NOTE}" in markdown.splitlines()
