"""Provenance that can be corrected, and hints that fit how a record was
made (issue 22, "Provenance cannot be corrected").

- A version that is no version (``--software torch=unknown``) is refused:
  a version names a number; leave the option out when it is not known.
- ``--replace REASON`` corrects what a record states (a version, a GPU),
  each correction noted with the old and new value and the reason; without
  it a differing value is still refused, and the message says how to correct.
- SG209 tells an ingested record (a log from another machine: collect it
  again with the missing option) from a measured one (``collect env`` on
  the machine that measured it).
"""

from __future__ import annotations

import json

import pytest

from studygen.checks import CheckContext, sg209_provenance
from studygen.study import load_study
from tests.checks.studies import collected_provenance, latency, load, record
from tests.collect.conftest import FIXTURES, TORCH, assert_refused

TRACE = TORCH / "alexnet_kineto_trace.json.gz"  # names its GPU, states no torch version
PROFILE = FIXTURES / "public" / "fuzzylabs-6d8ac68a_alexnet_fp16.profile.json"


@pytest.mark.parametrize(("option", "value"), [("--software", "torch=unknown"), ("--software", "torch=n/a"),
                                                ("--software", "tensorrt=?"), ("--driver", "unknown")])
def test_a_value_that_says_unknown_is_no_version(collect, option, value):
    done = collect("torch-profile", "--trace", TRACE, "--mode", "eager", option, value)
    shown = value.partition("=")[2] or value
    assert_refused(done, "is no version: a version names a number", "leave the option out")
    assert repr(shown) in done.err


def test_a_wrong_version_is_corrected_with_replace_and_its_reason_kept(collect):
    first = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--software", "torch=2.0.0")
    assert first.exit_code == 0, first.err
    results_before = first.results
    plain = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--software", "torch=2.1.0")
    assert plain.exit_code == 2
    assert plain.err.endswith(": the record says torch 2.0.0, the new input says 2.1.0; use another --job; collect "
                              "with --replace REASON to correct the record\n")  # and how to correct it
    fixed = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--software", "torch=2.1.0",
                    "--replace", "torch version")
    assert fixed.exit_code == 0, fixed.err
    provenance = fixed.record["provenance"]
    assert provenance["software"]["torch"] == "2.1.0"
    assert "provenance.software.torch corrected from 2.0.0 to 2.1.0: torch version" in provenance["notes"]
    assert "provenance.software.torch corrected from 2.0.0 to 2.1.0: torch version" in fixed.out
    assert fixed.results == results_before  # the figures are the trace's, as before


def test_replace_corrects_a_gpu_and_a_driver_too(collect):
    # a profile without its log names no GPU: the options give it
    first = collect("trtexec", "--profile", PROFILE, "--gpu", "NVIDIA A100", "--driver", "535.1",
                    "--software", "tensorrt=10.0.1")
    assert first.exit_code == 0, first.err
    fixed = collect("trtexec", "--profile", PROFILE, "--gpu", "NVIDIA A100-SXM4-80GB",
                    "--driver", "535.104.05", "--software", "tensorrt=10.0.1", "--replace", "the full names")
    assert fixed.exit_code == 0, fixed.err
    provenance = fixed.record["provenance"]
    assert (provenance["gpu"], provenance["driver"]) == ("NVIDIA A100-SXM4-80GB", "535.104.05")
    assert {"provenance.gpu corrected from 'NVIDIA A100' to 'NVIDIA A100-SXM4-80GB': the full names",
            "provenance.driver corrected from '535.1' to '535.104.05': the full names"} <= set(provenance["notes"])


def test_a_record_written_before_with_unknown_is_a_finding(tmp_path):
    provenance = collected_provenance()
    provenance["software"]["tensorrt"] = "unknown"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)], provenance)])
    (finding,) = sg209_provenance.check(CheckContext(study))
    assert finding.pointer == "/provenance/software/tensorrt"
    assert finding.message == "job job: collected record's tensorrt version 'unknown' is no version"


def _hints(tmp_path, collector: dict, **missing) -> dict[str, str]:
    provenance = collected_provenance(collector=collector, **missing)
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)], provenance)])
    return {f.pointer: f.hint for f in sg209_provenance.check(CheckContext(study))}


def test_sg209_hints_fit_an_ingested_record(tmp_path):
    collector = {"name": "studygen collect trtexec", "version": "0.1.0",
                 "command": "studygen collect trtexec --log run.log --family toy --job job"}
    hints = _hints(tmp_path, collector, gpu=None, tensorrt=None, repository_commit=None,
                   checkpoint={"id": "example/toy-detector", "revision": None, "weights": "pretrained"})
    assert hints["/provenance/gpu"] == (
        "the input names no GPU: run its collect command again (provenance.collector.command) with --gpu MODEL, the "
        "GPU of the machine that produced the input; the record keeps its results")
    assert hints["/provenance/software/tensorrt"] == (
        "the input states no tensorrt version: run its collect command again (provenance.collector.command) with "
        "--software tensorrt=VERSION; the record keeps its results")
    assert hints["/provenance/repository_commit"] == (
        "run its collect command again (provenance.collector.command) with --commit SHA, the commit of the code "
        "that made the measured engine or run; the record keeps its results")
    assert hints["/provenance/checkpoint/revision"] == (
        "run its collect command again (provenance.collector.command) with --checkpoint ID@REVISION (or set "
        "model.revision in the study file first), the revision that was measured; the record keeps its results")
    assert not any("collect env" in hint for hint in hints.values())  # this machine did not measure it


def test_sg209_hints_of_a_record_made_otherwise(tmp_path):
    # neither ingested nor measured here (a hand-written collector name): what to record, in words
    hints = _hints(tmp_path, {"name": "lab script", "version": "3"}, gpu=None, repository_commit=None,
                   checkpoint={"id": "example/toy-detector", "revision": None, "weights": "pretrained"})
    assert hints == {"/provenance/gpu": "record the measuring GPU model",
                     "/provenance/checkpoint/revision": "record the checkpoint revision (commit hash) that was measured",
                     "/provenance/repository_commit": "record the commit of the code that measured it"}


def test_sg209_hints_fit_a_measured_record(tmp_path):
    collector = {"name": "studygen collect run", "version": "0.1.0", "command": "studygen collect run --job job"}
    hints = _hints(tmp_path, collector, gpu=None, tensorrt=None)
    assert hints["/provenance/gpu"] == ("on the machine that measured it: studygen collect env --family toy --job job "
                                        "--role measuring")
    assert hints["/provenance/software/tensorrt"] == hints["/provenance/gpu"]


def test_the_issue_case_unknown_then_corrected_then_clean(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "demo", "--variants", "fp32", "--revision", "abc1234").exit_code == 0
    refused = run_cli("collect", "torch-profile", "--family", "demo", "--job", "a", "--trace", TRACE, "--mode",
                      "eager", "--software", "torch=unknown", "--commit", "abc1234")
    assert refused.exit_code == 2 and not (tmp_path / "measurements/demo/a.json").exists()
    steps = [["--software", "torch=2.0.0"], ["--software", "torch=2.1.0", "--replace", "torch version"]]
    for extra in steps:
        done = run_cli("collect", "torch-profile", "--family", "demo", "--job", "a", "--trace", TRACE, "--mode",
                       "eager", "--commit", "abc1234", *extra)
        assert done.exit_code == 0, done.err
    record_text = json.loads((tmp_path / "measurements/demo/a.json").read_text())
    assert record_text["provenance"]["software"]["torch"] == "2.1.0"
    study = load_study(tmp_path / "families" / "demo", tmp_path)
    assert sg209_provenance.check(CheckContext(study)) == []


def test_a_record_names_the_studygen_commit_that_wrote_it(collect):
    from studygen.version import studygen_version

    done = collect("torch-profile", "--trace", TRACE, "--mode", "eager")
    assert done.exit_code == 0, done.err
    version = done.record["provenance"]["collector"]["version"]
    assert version == studygen_version()  # with this checkout's commit (tests/robustness/test_ci_integration.py)


def test_a_checkpoint_revision_is_corrected_only_with_replace(collect):
    first = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--checkpoint", "org/m@aaaaaaa")
    assert first.exit_code == 0, first.err
    refused = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--checkpoint", "org/m@bbbbbbb")
    assert refused.exit_code == 2
    assert "the record says checkpoint revision 'aaaaaaa', the command line says 'bbbbbbb'" in refused.err
    assert first.record["provenance"]["checkpoint"]["revision"] == "aaaaaaa"
    fixed = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--checkpoint", "org/m@bbbbbbb",
                    "--replace", "the revision measured")
    assert fixed.exit_code == 0, fixed.err
    assert fixed.record["provenance"]["checkpoint"]["revision"] == "bbbbbbb"
    assert ("provenance.checkpoint.revision corrected from 'aaaaaaa' to 'bbbbbbb': the revision measured"
            in fixed.record["provenance"]["notes"])
