"""stamp_digests: which timed results get their input's content digest (sha256 of the content, a
leading UTF-8 byte order mark and gzip left out), and which none."""

from __future__ import annotations

import gzip
import hashlib

from studygen.collect.inputs import stamp_digests
from studygen.records.result import NewResult

TEXT = b"[09/01/2026-10:00:00] [I] GPU Compute Time: min = 1.0 ms\n"


def _result(locator: str, kind: str = "latency") -> NewResult:
    return NewResult({"kind": kind, "source_locator": locator}, locator)


def test_each_timed_result_gets_its_files_content_digest_whatever_the_wrapping(tmp_path):
    plain, marked, packed = tmp_path / "a.log", tmp_path / "b.log", tmp_path / "c.log.gz"
    plain.write_bytes(TEXT)
    marked.write_bytes(b"\xef\xbb\xbf" + TEXT)
    packed.write_bytes(gzip.compress(TEXT))
    results = [_result("a.log:1"), _result("b.log:1"), _result("c.log.gz:1"), _result("a.log:1", kind="plan_size")]
    stamp_digests(results, [plain, marked, packed])
    digest = hashlib.sha256(TEXT).hexdigest()
    assert [r.result.get("source_sha256") for r in results] == [digest, digest, digest, None]  # plan size: not timed


def test_a_name_two_inputs_share_stamps_nothing(tmp_path):
    # --times a/run.json --profile b/run.json: a locator holds the name alone, so neither digest is known to be its
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "run.json").write_bytes(TEXT)
    (tmp_path / "b" / "run.json").write_bytes(TEXT + b"other\n")
    (tmp_path / "own.log").write_bytes(TEXT)
    results = [_result("run.json:/0"), _result("own.log:1")]
    stamp_digests(results, [tmp_path / "a" / "run.json", tmp_path / "b" / "run.json", tmp_path / "own.log"])
    assert [r.result.get("source_sha256") for r in results] == [None, hashlib.sha256(TEXT).hexdigest()]
