"""The kernel notes collect torch-profile writes read back as render reads them (one definition for both)."""

from __future__ import annotations

from studygen.records.trace_notes import (COUNTED_IN_TOTALS, LEFT_OUT, UNLAUNCHED_NOTE, UNMATCHED_NOTE,
                                          no_step_kernel_note, says_no_step_kernel, unlaunched_note, unmatched_note)


def test_an_unlaunched_note_reads_back_its_parts():
    note = unlaunched_note("step.json.gz", 3, 41, "2.05", "launched before the first profiled step", LEFT_OUT)
    assert note == "step.json.gz (device 3): 41 kernels (2.05 ms) launched before the first profiled step: left out"
    read = UNLAUNCHED_NOTE.match(note)
    assert read.group("file", "device", "count", "ms", "done") == ("step.json.gz", "3", "41", "2.05", LEFT_OUT)
    single = unlaunched_note("t.json", None, 1, "0.004", "whose launch event is missing", COUNTED_IN_TOTALS)
    assert single == "t.json: 1 kernel (0.004 ms) whose launch event is missing: counted in the whole-trace totals"
    assert UNLAUNCHED_NOTE.match(single).group("device", "count", "done") == (None, "1", COUNTED_IN_TOTALS)


def test_the_unmatched_and_no_step_notes_read_back_inside_a_result_note():
    note = "; ".join([no_step_kernel_note(4), unmatched_note(7), "times in ms to 6 decimals"])
    assert UNMATCHED_NOTE.search(note).group(1) == "7"
    assert says_no_step_kernel(note) and not says_no_step_kernel(unmatched_note(7))
