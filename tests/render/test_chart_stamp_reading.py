"""A committed chart's stamp is checked in place (studygen/render/charts.py:
stamp_digests, drawing_sha256): the drawing is hashed from the file's bytes
without copying it out as read_stamp does, and every file gives what
read_stamp gave."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from studygen.render import charts
from studygen.render.charts import STAMP_PREFIX, Chart, read_stamp, stamp

DRAWING = b'<?xml version="1.0" encoding="utf-8"?>\n<svg>\n<path d="M 0 0 L 1 1"/>\n</svg>\n'


def test_a_current_chart_is_judged_without_copying_its_drawing(monkeypatch):
    chart = Chart("latency", Path("figures/latency.svg"), "alt", inputs_sha256="ab" * 32, draw=lambda: DRAWING)
    committed = stamp(DRAWING, "ab" * 32)
    monkeypatch.setattr(charts, "read_stamp", lambda data: pytest.fail("copied the drawing out"))
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
