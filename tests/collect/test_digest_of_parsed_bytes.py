"""An input's digest (``source_sha256``, the ``--origin`` note's sha256) is
that of the bytes its figures were parsed from. Hashed by reading the file a
second time, a trace replaced between parse and hash got the other trace's
digest (25 of 60 collects under a swapping writer). Here each collector's
input is replaced right after it was parsed, and the record must still
carry the digest of what was parsed."""

from __future__ import annotations

import gzip
import hashlib
import json

import pytest

import studygen.collect.coco as coco_collector
import studygen.collect.torch_profile as torch_collector
import studygen.collect.trtexec as trtexec_collector
from studygen.collect.inputs import (ReadDigests, content_sha256, file_sha256, read_input_text, recorded_reads,
                                     stored_sha256)
from studygen.errors import InputError
from tests.collect.coco_build import annotation, document, perfect
from tests.collect.conftest import TORCH, TRTEXEC

H100_BERT = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
MI300X_BERT = TORCH / "rocm-mi300x_bert-small_profilerstep6_kineto_trace.json.gz"
ORIGIN = "AMD-AGI/TraceLens@171dd747:tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz"
LOG = TRTEXEC / "trt10.16_build-and-run.log"
OTHER_LOG = TRTEXEC / "trt8.6_unstable-gpu-compute.log"


def replaced_after_parse(monkeypatch, module, name: str, path, replacement: bytes) -> None:
    """``module.name`` (a step the collector takes after parsing ``path``) first overwrites ``path``."""
    original = getattr(module, name)

    def replace_then_go_on(*args, **kwargs):
        path.write_bytes(replacement)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, replace_then_go_on)


def test_a_trace_replaced_after_parse_keeps_the_digests_of_what_was_parsed(collect, workdir, monkeypatch):
    trace = workdir / "trace.json.gz"
    trace.write_bytes(H100_BERT.read_bytes())
    replaced_after_parse(monkeypatch, torch_collector, "build_results", trace, MI300X_BERT.read_bytes())
    done = collect("torch-profile", "--trace", trace, "--mode", "eager", "--origin", f"trace={ORIGIN}")
    assert done.exit_code == 0, done.err
    assert trace.read_bytes() == MI300X_BERT.read_bytes()  # the replacement did happen
    (result,) = done.results
    assert str(result["profiled_total_ms"]) == "0.307197"  # the H100 trace's figure
    assert result["source_sha256"] == hashlib.sha256(gzip.decompress(H100_BERT.read_bytes())).hexdigest()
    (note,) = [n for n in done.record["provenance"]["notes"] if n.startswith("input --trace")]
    assert "(sha256 309220b5130a)" in note  # the H100 .json.gz as stored


def test_a_log_replaced_after_parse_keeps_the_digest_of_what_was_parsed(collect, workdir, monkeypatch):
    log = workdir / "run.log"
    log.write_bytes(LOG.read_bytes())
    replaced_after_parse(monkeypatch, trtexec_collector, "build_results", log, OTHER_LOG.read_bytes())
    done = collect("trtexec", "--log", log, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    timed = [r for r in done.results if r["kind"] == "latency"]
    assert len(timed) == 5 and {r["source_sha256"] for r in timed} == {hashlib.sha256(LOG.read_bytes()).hexdigest()}


def test_detections_replaced_after_parse_keep_the_digest_of_what_was_parsed(collect, workdir, monkeypatch):
    boxes = [annotation(1, 1, 10, 10, 50, 50), annotation(2, 2, 200, 200, 60, 60)]
    (workdir / "gt.json").write_text(json.dumps(document(boxes, images=(1, 2), categories=(1,))))
    parsed = json.dumps(perfect(boxes)).encode()
    detections = workdir / "dt.json"
    detections.write_bytes(parsed)
    replaced_after_parse(monkeypatch, coco_collector, "evaluate_checked", detections, json.dumps([]).encode())
    done = collect("coco", "--annotations", workdir / "gt.json", "--detections", detections, "--dataset", "tiny")
    assert done.exit_code == 0, done.err
    ap = done.kind("coco_ap")
    assert len(ap) == 12 and {r["source_sha256"] for r in ap} == {hashlib.sha256(parsed).hexdigest()}


@pytest.mark.parametrize("name, stored", [
    ("plain.json", b'{"a": 1}\n'),
    ("marked.json", b'\xef\xbb\xbf{"a": 1}\n'),
    ("packed.json.gz", gzip.compress(b'\xef\xbb\xbf{"a": 1}\n', mtime=0)),
])
def test_a_read_keeps_the_digests_a_second_read_would_give(tmp_path, name, stored):
    path = tmp_path / name
    path.write_bytes(stored)
    with recorded_reads() as reads:
        assert read_input_text(path) == '{"a": 1}\n'
        assert stored_sha256(path) == hashlib.sha256(stored).hexdigest()
    assert reads == {str(path): ReadDigests(content_sha256(path), file_sha256(path))}
    assert reads[str(path)].content == hashlib.sha256(b'{"a": 1}\n').hexdigest()


def test_a_file_read_twice_with_other_content_is_refused(tmp_path):
    path = tmp_path / "run.log"
    path.write_text("first\n")
    with recorded_reads():
        read_input_text(path)
        path.write_text("second\n")
        with pytest.raises(InputError, match=r"run.log: changed while read: read twice, as sha256 [0-9a-f]{12} then "
                                             r"[0-9a-f]{12}; one input cannot give two contents, nothing recorded"):
            read_input_text(path)


def test_a_file_not_read_as_text_is_hashed_as_it_is_now(tmp_path):
    plan = tmp_path / "model.plan"
    plan.write_bytes(b"\x00\x01engine")
    with recorded_reads():
        assert stored_sha256(plan) == hashlib.sha256(b"\x00\x01engine").hexdigest()
