"""Extending a record keeps what it holds: a hand-written record's bytes
(``1.50000`` stays ``1.50000``, CRLF stays CRLF), and only the new results and
filled-in fields are inserted, by ``collect`` ingest, ``collect env`` and a
resumed ``collect run`` alike."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from studygen.collect.run.record import RunRecord
from tests.collect.conftest import TRTEXEC

BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"

# Written by hand as an engineer would: CRLF, figures with the digits the
# source printed, a one-line software block, a multi-line result.
HAND_WRITTEN = (
    '{\r\n'
    '  "schema_version": 1,\r\n'
    '  "job_id": "t4",\r\n'
    '  "family": "demo",\r\n'
    '  "provenance": {\r\n'
    '    "gpu": "NVIDIA H100 PCIe",\r\n'
    '    "software": {"tensorrt": "10.16.1"},\r\n'
    '    "checkpoint": {"id": "unknown", "revision": null, "weights": "pretrained"},\r\n'
    '    "collector": {"name": "by hand", "version": "1"}\r\n'
    '  },\r\n'
    '  "results": [\r\n'
    '    {\r\n'
    '      "kind": "latency", "variant": "fp16", "shape": "800x1067", "backend": "tensorrt",\r\n'
    '      "timing": "gpu_compute", "statistic": "median", "value_ms": 1.50000,\r\n'
    '      "statistics_ms": {"median": 1.50000, "p99": 2.0E0}\r\n'
    '    }\r\n'
    '  ]\r\n'
    '}\r\n'
)


def only_insertions(before: str, after: str) -> list[str]:
    """The texts inserted into ``before`` to give ``after``; fails when
    anything of ``before`` was changed or removed."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    changed = [(tag, before[i1:i2], after[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
               if tag not in ("equal", "insert")]
    assert changed == [], changed
    return [after[j1:j2] for tag, _, _, j1, j2 in matcher.get_opcodes() if tag == "insert"]


def hand_written_record(workdir: Path, text: str = HAND_WRITTEN) -> Path:
    path = workdir / "m" / "demo" / "t4.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8"))
    return path


# --- extending a record keeps what it holds --------------------------------

def test_extending_a_hand_written_record_keeps_its_bytes(run_cli, workdir):
    path = hand_written_record(workdir)
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "t4", "--log", BUILD_LOG, "--variant", "fp16",
                   "--shape", "28x28", "--measurements", "m")
    assert done.exit_code == 0, done.err
    assert done.out.startswith("wrote m/demo/t4.json: 6 result(s) added (record extended)\n")
    after = path.read_bytes().decode("utf-8")
    # the one change: the timed results carry their log's digest, a field of schema version 3
    assert '"schema_version": 3,' in after and after.count('"source_sha256"') == 5
    inserted = only_insertions(HAND_WRITTEN.replace('"schema_version": 1,', '"schema_version": 3,'), after)
    assert '"value_ms": 1.50000,\r\n      "statistics_ms": {"median": 1.50000, "p99": 2.0E0}\r\n    },' in after
    assert after.count("\n") == after.count("\r\n")  # CRLF stays CRLF, the new lines too
    assert after.endswith("\r\n  ]\r\n}\r\n")
    # the new results are appended in the record's style (2-space indent, one member a line)
    assert inserted[-1].startswith(',\r\n    {\r\n      "kind": "latency",\r\n      "variant": "fp16",\r\n')
    assert inserted[-1].endswith('"source_locator": "trt10.16_build-and-run.log:148"\r\n    }')
    record = json.loads(after)
    assert len(record["results"]) == 7
    # the collected results are as in a record of their own: host latency median 0.0440674 ms (log line 569);
    # in another records folder, since the same log under a second job of the family is refused
    fresh = run_cli("collect", "trtexec", "--family", "demo", "--job", "fresh", "--log", BUILD_LOG,
                    "--variant", "fp16", "--shape", "28x28", "--measurements", "m2")
    assert fresh.exit_code == 0, fresh.err
    assert record["results"][1:] == json.loads((workdir / "m2" / "demo" / "fresh.json").read_text())["results"]
    assert record["results"][1]["value_ms"] == 0.0440674
    assert record["results"][1]["source_locator"] == "trt10.16_build-and-run.log:569"


def test_a_second_extension_keeps_the_first(run_cli, workdir):
    path = hand_written_record(workdir)
    # two logs, both at 28 x 28: batch 1 (trtexec's own choice) and batch 4 ("--shapes=x:4x1x28x28")
    for log in (BUILD_LOG, BUILD_LOG.parent / "trt10.16_no-data-transfers.log"):
        done = run_cli("collect", "trtexec", "--family", "demo", "--job", "t4", "--log", log,
                       "--variant", "fp16", "--shape", "28x28", "--measurements", "m")
        assert done.exit_code == 0, done.err
        if log == BUILD_LOG:
            first = path.read_bytes().decode("utf-8")
    second = path.read_bytes().decode("utf-8")
    inserted = only_insertions(first, second)
    # the three results, and the provenance note saying where their shape came from
    assert len(inserted) == 2 and inserted[1].count('"shape": "28x28"') == 3
    assert "shape 28x28 read from its input shapes x=4x1x28x28" in inserted[0]
    assert [r["shape"] for r in json.loads(second)["results"]] == ["800x1067"] + ["28x28"] * 9


def test_env_merge_keeps_the_records_bytes(run_cli, workdir):
    path = hand_written_record(workdir)
    done = run_cli("collect", "env", "--family", "demo", "--job", "t4", "--role", "conversion", "--no-torch",
                   "--measurements", "m")
    assert done.exit_code == 0, done.err
    after = path.read_bytes().decode("utf-8")
    inserted = only_insertions(HAND_WRITTEN, after)
    from studygen.version import studygen_version  # 0.1.0 with the commit it came from

    assert "".join(inserted).startswith(',\r\n    "notes": [\r\n      "also collected by studygen collect env '
                                        f'{studygen_version()}"\r\n    ],\r\n    "conversion_machine": {{\r\n'
                                        '      "gpu": null,\r\n')
    assert after.count("\n") == after.count("\r\n")
    assert json.loads(after)["results"][0]["statistics_ms"] == {"median": 1.5, "p99": 2.0}


def test_resumed_run_record_keeps_its_bytes(workdir):
    text = HAND_WRITTEN.replace('"gpu": "NVIDIA H100 PCIe"', '"gpu": null').replace(
        '{"tensorrt": "10.16.1"}', '{"torch": "2.13.0"}')
    path = hand_written_record(workdir, text)
    record = RunRecord(path, "m/demo/t4.json", job_id="t4", family="demo", resume=True,
                       provenance={"gpu": None, "software": {"torch": "2.13.0"}})
    record.add({"kind": "latency", "variant": "fp16", "shape": "800x800", "backend": "pytorch", "mode": "eager",
                "timing": "end_to_end", "statistic": "median", "value_ms": 2.25})
    record.set_wall_time(12.5)
    after = path.read_bytes().decode("utf-8")
    inserted = only_insertions(text, after)
    assert inserted == [
        ',\r\n    "run_wall_s": 12.5',
        ',\r\n    {\r\n      "kind": "latency",\r\n      "variant": "fp16",\r\n      "shape": "800x800",\r\n'
        '      "backend": "pytorch",\r\n      "mode": "eager",\r\n      "timing": "end_to_end",\r\n'
        '      "statistic": "median",\r\n      "value_ms": 2.25\r\n    }',
    ]
