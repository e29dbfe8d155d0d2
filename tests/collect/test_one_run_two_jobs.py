"""One run is recorded in one job only, whatever its file is called: a copy
of a log under another name, re-compressed, or a trace written out again in
another JSON layout is the run another job already holds (attack round 01).
Runs of their own still go into jobs of their own."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil

from tests.collect.conftest import TRTEXEC, TORCH

LOG = TRTEXEC / "trt10.16_build-and-run.log"
TRACE = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
# two runs of one configuration on one RTX 3090 (the shipped hackathon study's jobs a and b)
RUN_A = TRTEXEC / "trt8.6_unstable-gpu-compute.log"
RUN_B = TRTEXEC.parent / "public" / "hackathon-07271c31_trt8.6.0_result-04.log"


def _log(collect, job, log, **kw):
    return collect("trtexec", "--variant", "fp32", "--log", log, job=job, **kw)


def test_each_timed_result_records_the_sha256_of_its_input_as_read(collect, workdir):
    done = _log(collect, "a", LOG)
    assert done.exit_code == 0, done.err
    expected = hashlib.sha256(LOG.read_bytes()).hexdigest()
    timed = [r for r in done.results if r["kind"] == "latency"]
    assert len(timed) == 5 and {r["source_sha256"] for r in timed} == {expected}
    assert [r for r in done.results if r["kind"] == "plan_size"][0].get("source_sha256") is None
    assert done.record["schema_version"] == 3
    # a gzip copy is the same content: its digest is that of the bytes it decompresses to
    packed = workdir / "packed.log.gz"
    packed.write_bytes(gzip.compress(LOG.read_bytes(), mtime=0))
    again = _log(collect, "a", packed, measurements=workdir / "elsewhere")
    assert {r["source_sha256"] for r in again.results if r["kind"] == "latency"} == {expected}


def test_a_renamed_or_recompressed_copy_of_a_log_is_refused_in_another_job(collect, workdir):
    assert _log(collect, "a", LOG).exit_code == 0
    renamed = workdir / "copy-of-run.log"
    shutil.copyfile(LOG, renamed)
    packed = workdir / "run.txt.gz"
    packed.write_bytes(gzip.compress(LOG.read_bytes(), mtime=1))
    for copy in (renamed, packed):
        refused = _log(collect, "b", copy)
        assert refused.exit_code == 2 and refused.err.count("\n") == 1, refused.err
        # /results/0: the host latency median 0.0440674 ms of log line 569
        assert f"demo/a.json:/results/0: {copy.name}:line 569 is already recorded in job a as latency host_latency " \
               f"median, variant fp32, batch 1, 28x28 (here; the same input: content sha256 " \
               f"{hashlib.sha256(LOG.read_bytes()).hexdigest()[:12]}…, read at trt10.16_build-and-run.log:569)" \
               in refused.err
        assert not (workdir / "measurements" / "demo" / "b.json").exists()


def test_a_trace_written_out_again_in_another_layout_is_refused_in_another_job(collect, workdir):
    assert collect("torch-profile", "--variant", "bf16", "--trace", TRACE, job="a").exit_code == 0
    # the same events, another JSON layout (indented, keys sorted): other bytes, the same kernels to every digit
    rewritten = workdir / "trace-v2.json"
    rewritten.write_text(json.dumps(json.loads(gzip.decompress(TRACE.read_bytes())), indent=1, sort_keys=True))
    refused = collect("torch-profile", "--variant", "bf16", "--trace", rewritten, job="b")
    assert refused.exit_code == 2, refused.err
    assert "trace-v2.json is already recorded in job a as kernel_time, variant bf16 (here; the same timed figures " \
           "to every digit)" in refused.err
    assert not refused.path.exists()


def test_two_runs_of_one_configuration_go_into_two_jobs(collect):
    # 0.0439453 ms GPU compute median in both logs, yet other statistics (max 0.609253 against 0.676819)
    first = collect("trtexec", "--variant", "fp16", "--log", RUN_A, job="a")
    second = collect("trtexec", "--variant", "fp16", "--log", RUN_B, job="b")
    assert first.exit_code == 0 and second.exit_code == 0, second.err
    assert first.latency("gpu_compute", 4)["value_ms"] == second.latency("gpu_compute", 4)["value_ms"] == 0.0439453


def test_a_record_collected_before_the_digest_takes_the_same_input_again_as_recorded(collect, workdir):
    done = _log(collect, "a", LOG)
    record = done.record
    for result in record["results"]:
        result.pop("source_sha256", None)
    record["schema_version"] = 1
    done.path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    before = done.path.read_bytes()
    again = _log(collect, "a", LOG)
    assert again.exit_code == 0 and "all 6 result(s) are recorded already" in again.out, again.err
    assert done.path.read_bytes() == before
    # and without its digest, the old record's figures still tell a renamed copy in another job
    renamed = workdir / "renamed.log"
    shutil.copyfile(LOG, renamed)
    refused = _log(collect, "b", renamed)
    assert refused.exit_code == 2 and "(here; the same timed figures to every digit)" in refused.err


def test_a_copy_refused_in_another_job_is_worded_as_the_job_recorded_it(collect, workdir):
    # a new user's case: job a100-run1 holds the trace with no shape or batch; the message said "batch 1, 224x224",
    # which were this command's --batch and --shape, as if that job had recorded them
    assert collect("torch-profile", "--variant", "bf16", "--trace", TRACE, job="a100-run1").exit_code == 0
    renamed = workdir / "copy-of-trace.json.gz"
    shutil.copyfile(TRACE, renamed)
    refused = collect("torch-profile", "--variant", "bf16", "--trace", renamed, "--shape", "224x224", "--batch", "1",
                      job="b")
    assert refused.exit_code == 2 and refused.err.count("\n") == 1, refused.err
    digest = hashlib.sha256(gzip.decompress(TRACE.read_bytes())).hexdigest()[:12]
    assert refused.err.endswith(
        f"copy-of-trace.json.gz is already recorded in job a100-run1 as kernel_time, variant bf16 (here; the same "
        f"input: content sha256 {digest}…, read at {TRACE.name}): one run under two jobs would count as two "
        "measurements that agree; if the run was of shape 224x224, batch 1 (not shape not given, batch not given), "
        'collect it with --job a100-run1 and --replace "REASON" (what the job took from that file is dropped first); '
        "for shape 224x224, batch 1 as well, collect a file of a run of its own; nothing written\n"), refused.err
    assert not refused.path.exists()


def test_a_copy_refused_without_the_option_that_labelled_it_is_told_it_is_that_measurement(collect):
    # session 30's new user: job a holds the profile at batch 1; the same file collected into job b without --batch was
    # told "if the run was of batch not given (not batch 1), collect it ... --replace", as if leaving --batch out
    # named another configuration
    assert collect("torch-profile", "--variant", "bf16", "--trace", TRACE, "--batch", "1", job="a").exit_code == 0
    refused = collect("torch-profile", "--variant", "bf16", "--trace", TRACE, job="b")
    assert refused.exit_code == 2 and refused.err.count("\n") == 1, refused.err
    assert refused.err.endswith(
        "one run under two jobs would count as two measurements that agree; this collect gives no batch where the "
        "recorded result says batch 1: it is that measurement (--batch 1 reads it as recorded); if batch 1 was wrong, "
        'collect it with --job a and --replace "REASON" and the right value; nothing written\n'), refused.err
    assert not refused.path.exists()
