"""The run record ``collect run`` writes (studygen.collect.run.record): results of one record
are unique by ``result_identity``, the identity ingest refuses duplicates by too, and a refused
result leaves the file as it was."""

from __future__ import annotations

import shutil

import pytest

from studygen.records.result import NewResult
from studygen.errors import ConflictError, UsageError
from studygen.records.load import load_record
from studygen.collect.run.record import RunRecord, RunRecordStore
from studygen.records.write import build_document
from studygen.records.kinds import result_identity


def pick(results, kind, **where):
    return next(r for r in results if r["kind"] == kind and all(r.get(k) == v for k, v in where.items()))


def candidates(results):
    """``(case, new result, is a duplicate)`` against the tiny run's record."""
    latency = pick(results, "latency", variant="fp32", shape="64x96", mode="eager")
    kernel = pick(results, "kernel_time", variant="fp16", shape="96x64", mode="eager")
    agreement = pick(results, "agreement", variant="bf16", metric="recall")
    skipped = pick(results, "not_measured", variant="fp8", metric="coco_ap")
    delta = {"kind": "kernel_time_delta", "variant": "fp16", "reference_variant": "fp32", "shape": "64x96",
             "mode": "eager", "backend": "pytorch", "group": "GEMM/MatMul", "delta_ms": -0.5}
    return [
        ("the same latency with another figure", {**latency, "value_ms": latency["value_ms"] + 1.0}, True),
        ("the same latency on another image set", {**latency, "dataset": "cal"}, False),
        ("the same latency at batch 2", {**latency, "batch": 2}, False),
        # the p90 as its own statistics give it (a value_ms that is not the statistic it names is refused)
        ("the p90 of the same cell", {**latency, "statistic": "p90", "value_ms": latency["statistics_ms"]["p90"]}, False),
        ("host latency of the same cell", {**latency, "timing": "host_latency"}, False),
        ("the kernel profile again", {**kernel, "profiled_total_ms": kernel["profiled_total_ms"] * 2}, True),
        ("the recall again", {**agreement, "value": 0.25}, True),
        ("the largest logit difference beside the recall",
         {**agreement, "metric": "max_abs_diff", "value": 0.25}, False),
        ("AP not measured again, for another reason", {**skipped, "reason": "another reason"}, True),
        ("a refusal beside the measured latency",
         {"kind": "not_measured", "variant": "fp32", "shape": "64x96", "mode": "eager", "backend": "pytorch",
          "metric": "latency", "reason": "refused"}, False),
        ("a kernel-time difference", delta, False),
    ]


@pytest.fixture(scope="module")
def tiny_record(full_run):
    _, path, _ = full_run
    return load_record(path)


@pytest.mark.parametrize("index", range(11))
def test_collect_run_and_ingest_refuse_the_same_duplicates(tiny_record, tmp_path, index):
    case, result, duplicate = candidates(tiny_record.results)[index]
    path = tmp_path / "tiny" / "cpu.json"
    path.parent.mkdir()
    shutil.copyfile(tiny_record.path, path)
    before = path.read_bytes()
    identities = [result_identity(r) for r in tiny_record.results]
    assert (result_identity(result) in identities) is duplicate, case
    provenance = tiny_record.provenance

    if duplicate:
        with pytest.raises(ConflictError):
            build_document(path, "tiny", "cpu", provenance, [NewResult(result, "test")])
    else:
        build_document(path, "tiny", "cpu", provenance, [NewResult(result, "test")])

    record = RunRecord(path, "tiny/cpu.json", job_id="cpu", family="tiny", provenance=provenance, resume=True)
    if duplicate:
        index_held = identities.index(result_identity(result))
        with pytest.raises(ConflictError) as refused:
            record.add(result)
        assert refused.value.line().startswith(f"tiny/cpu.json: a result with the identity of /results/{index_held} (")
        assert refused.value.line().endswith(") is already in the record; not overwritten")
        assert path.read_bytes() == before  # nothing written
    else:
        record.add(result)
        assert load_record(path).results == [*tiny_record.results, result]


def test_two_equal_results_in_one_call_are_refused_and_nothing_is_written(tiny_record, tmp_path):
    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    before = path.read_bytes()
    record = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance, resume=True)
    delta = {"kind": "kernel_time_delta", "variant": "fp16", "reference_variant": "fp32", "group": "Conv",
             "delta_ms": 0.1}
    with pytest.raises(ConflictError, match=rf"identity of /results/{len(tiny_record.results)} \(kind kernel_time_delta"):
        record.add(delta, {**delta, "delta_ms": 0.2})
    assert path.read_bytes() == before


def test_has_answers_resume_for_results_and_refusals(tiny_record, tmp_path):
    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    record = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance, resume=True)
    assert record.has("latency", "fp16", "96x64", "eager", "median")
    assert not record.has("latency", "fp16", "96x64", "eager", "p90")
    assert not record.has("latency", "fp16", "96x64", "compile", "median")  # fp16 compiles at 64x96 only
    assert record.has("latency", "fp8", "64x96", "eager", "median")  # refused: a not_measured stands for it
    assert record.has("agreement", "fp8", "64x96", "eager", "logit_correlation")
    assert not record.has("agreement", "fp32", "64x96", "eager", "logit_correlation")  # the reference
    assert record.has("coco_ap", "bf16", metric="coco_ap")
    assert record.has("quantization", "fp8", "64x96")
    assert not record.has("quantization", "fp16", "64x96")


def test_a_record_of_another_gpu_or_torch_is_not_resumed(tiny_record, tmp_path):
    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    other_gpu = {**tiny_record.provenance, "gpu": "NVIDIA H200"}
    with pytest.raises(UsageError, match="cannot resume: the record was measured with gpu None, this machine has 'NVIDIA H200'"):
        RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=other_gpu, resume=True)
    other_torch = {**tiny_record.provenance, "software": {**tiny_record.provenance["software"], "torch": "2.0.0"}}
    with pytest.raises(UsageError, match=r"cannot resume: the record was measured with torch '.+', this run has '2.0.0'"):
        RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=other_torch, resume=True)
    with pytest.raises(ConflictError, match="record already exists"):
        RunRecordStore(root=tmp_path, measurements=tmp_path, family="tiny").open("cpu", tiny_record.provenance)


def test_a_record_of_another_gpu_of_the_same_model_is_not_resumed(tiny_record, tmp_path):
    def on_gpu(uuid):
        placement = {**tiny_record.provenance["placement"], "gpu_index": 0, "gpu_uuid": uuid}
        return {**tiny_record.provenance, "placement": placement}

    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    path.write_text(path.read_text().replace('"gpu_uuid": null', '"gpu_uuid": "GPU-aaaa"'))  # measured on GPU-aaaa
    assert load_record(path).provenance["placement"]["gpu_uuid"] == "GPU-aaaa"
    with pytest.raises(UsageError) as caught:
        RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=on_gpu("GPU-bbbb"), resume=True)
    assert caught.value.message == ("cpu.json: cannot resume: the record was measured on GPU GPU-aaaa, this process is "
                                    "pinned to GPU-bbbb; resume on that GPU or measure the rest as another --job")
    RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=on_gpu("GPU-aaaa"), resume=True)  # the same GPU
    legacy = {k: v for k, v in tiny_record.provenance.items() if k != "placement"}
    RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=legacy, resume=True)  # this run names none
    path.write_text(path.read_text().replace('"gpu_uuid": "GPU-aaaa"', '"gpu_uuid": null'))
    RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=on_gpu("GPU-bbbb"), resume=True)  # nor the record


def test_wall_time_adds_up_over_invocations_and_an_empty_record_is_not_written(tiny_record, tmp_path):
    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    record = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance, resume=True)
    record.set_wall_time(2.5)
    assert load_record(path).provenance["run_wall_s"] == round(tiny_record.provenance["run_wall_s"] + 2.5, 3)
    empty = RunRecordStore(root=tmp_path, measurements=tmp_path, family="tiny").open("new", {"gpu": None})
    empty.set_wall_time(1.0)
    assert not (tmp_path / "new.json").exists()


def test_a_new_record_another_process_wrote_meanwhile_is_not_overwritten(tiny_record, tmp_path):
    # a second `collect run` of the same new job: both saw no file when they opened it
    path = tmp_path / "cpu.json"
    record = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance)
    shutil.copyfile(tiny_record.path, path)  # the other run wrote first
    latency = pick(tiny_record.results, "latency", variant="fp32", shape="64x96", mode="eager")
    with pytest.raises(ConflictError) as raised:
        record.add(latency)
    assert raised.value.line() == ("cpu.json: another process wrote this record while this run was measuring; not "
                                   "overwritten, and this run's results are not recorded: run again with --resume "
                                   "once the other writer has finished, or use another --job")
    assert path.read_bytes() == tiny_record.path.read_bytes()


def test_a_resumed_record_another_process_extended_meanwhile_is_not_overwritten(tiny_record, tmp_path):
    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    mine = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance, resume=True)
    other = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance, resume=True)
    latency = pick(tiny_record.results, "latency", variant="fp32", shape="64x96", mode="eager")
    other.add({**latency, "batch": 2})
    extended = path.read_bytes()
    with pytest.raises(ConflictError, match="^cpu.json: another process changed this record while this run was measuring; "
                                            "not overwritten, and this run's new results are not recorded"):
        mine.add({**latency, "batch": 4})
    assert path.read_bytes() == extended
    assert [r.get("batch") for r in load_record(path).results if r["kind"] == "latency"].count(2) == 1
    other.add({**latency, "batch": 8})  # the writer that wrote last goes on
    assert len(load_record(path).results) == len(tiny_record.results) + 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cpu.json"]  # the lock file removed again


def test_notes_are_added_to_the_provenance_once(tiny_record, tmp_path):
    path = tmp_path / "cpu.json"
    shutil.copyfile(tiny_record.path, path)
    before = list(tiny_record.provenance.get("notes") or [])
    record = RunRecord(path, "cpu.json", job_id="cpu", family="tiny", provenance=tiny_record.provenance, resume=True)
    record.add_notes(["fp32 at 64x96: a note"])
    record.add_notes(["fp32 at 64x96: a note", before[0]] if before else ["fp32 at 64x96: a note"])
    assert load_record(path).provenance["notes"] == [*before, "fp32 at 64x96: a note"]
