"""A committed chart's stamp is checked in place (studygen/render/charts.py:
stamp_digests, drawing_sha256): the drawing is hashed from the file's bytes
without copying it out as the reading before did (:func:`read_stamp`, kept
here as the oracle), and every file gives what that reading gave."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from studygen.render import charts
from studygen.render.charts import STAMP_PREFIX, Chart, stamp

def read_stamp(data: bytes) -> tuple[str, str, bytes] | None:
    """``(inputs sha256, drawing sha256, drawing bytes)`` of a stamped chart
    file, or None when its second line is no stamp: charts.py's reading
    before stamp_digests, which copied the drawing out."""
    head, _, rest = data.partition(b"\n")
    line, _, body = rest.partition(b"\n")
    if not line.startswith(STAMP_PREFIX) or not line.endswith(b" -->"):
        return None
    fields = line[len(STAMP_PREFIX):-len(b" -->")].split(b" drawing sha256:")
    if len(fields) != 2:
        return None
    return fields[0].decode("ascii", "replace"), fields[1].decode("ascii", "replace"), head + b"\n" + body



DRAWING = b'<?xml version="1.0" encoding="utf-8"?>\n<svg>\n<path d="M 0 0 L 1 1"/>\n</svg>\n'


def test_a_current_chart_is_judged_without_copying_its_drawing():
    chart = Chart("latency", Path("figures/latency.svg"), "alt", inputs_sha256="ab" * 32, draw=lambda: DRAWING)
    committed = stamp(DRAWING, "ab" * 32)
    assert not hasattr(charts, "read_stamp")  # no copying reading is left in studygen to call
    assert chart.is_current(committed)
    edited = committed.replace(b"L 1 1", b"L 1 2")  # a hand edit after the stamp: its digest no longer matches
    assert not chart.is_current(edited)


PIECES = st.sampled_from([b"\n", b"<svg>", b" -->", STAMP_PREFIX, b"ab" * 32, b" drawing sha256:", b"cd" * 32,
                          b"\xff", b"x"])


@given(st.lists(PIECES, max_size=10).map(b"".join))
def test_every_file_gives_what_read_stamp_gave(data):
    from studygen.render.charts import drawing_sha256, stamp_digests

    copied = read_stamp(data)
    assert stamp_digests(data) == (None if copied is None else copied[:2])
    if copied is not None:
        assert drawing_sha256(data) == hashlib.sha256(copied[2]).hexdigest()


@pytest.mark.parametrize("drawing", [DRAWING, b"two\nlines", b"\n"])  # a first line and more, as matplotlib writes
def test_stamped_drawings_read_back(drawing):
    from studygen.render.charts import drawing_sha256, stamp_digests

    committed = stamp(drawing, "ef" * 32)
    assert stamp_digests(committed) == ("ef" * 32, hashlib.sha256(drawing).hexdigest())
    assert drawing_sha256(committed) == hashlib.sha256(drawing).hexdigest()
