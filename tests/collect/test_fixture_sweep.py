"""Every file in ../shared/fixtures through every input option of ``studygen
collect trtexec`` and ``collect torch-profile`` (issue 13's acceptance: no
internal error and no traceback on any of them): each run exits 0 having
written a record, or 2 with one line naming the file, and writes nothing
then. A record too large for the loader is refused before anything is
written (issue 16)."""

from __future__ import annotations

import pytest

from tests.collect.conftest import TORCH, TRTEXEC

FILES = sorted([*TRTEXEC.iterdir(), *TORCH.iterdir()])
CASES = [("trtexec", option, path) for path in FILES for option in ("--log", "--times", "--profile", "--layer-info")]
CASES += [("torch-profile", "--trace", path) for path in FILES]


def test_the_sweep_covers_every_fixture():
    assert len(FILES) == 25  # SOURCES.md lists 25 files: 18 trtexec, 7 torch_profiler
    assert len(CASES) == 125


@pytest.mark.parametrize("sub, option, path", CASES, ids=[f"{s}{o}:{p.name}" for s, o, p in CASES])
def test_every_fixture_ends_cleanly(collect, sub, option, path):
    done = collect(sub, option, path, "--variant", "v")
    assert "Traceback" not in done.err and "internal error" not in done.err, done.err
    if done.exit_code == 0:
        # a warning names what was left unread (the MI300X ResNet trace's kernels queued before its window)
        assert all(line.startswith("studygen: warning: ") for line in done.err.splitlines()), done.err
        assert done.path.is_file() and done.results
        assert "result(s) added (new record)" in done.out
    else:
        assert done.exit_code == 2, done.err
        assert done.err.count("\n") == 1 and done.err.startswith(f"studygen: {path}"), done.err
        assert not done.path.exists()


def test_a_record_over_the_loaders_limit_is_refused_before_it_is_written(collect, workdir):
    # 900 runs, each with a 3.6 KB command line and five summary timings: a 7 MB log, a 19 MB record
    pad = " ".join(f"--plugins=/opt/plugins/lib{i:03d}_custom_op_with_a_long_name.so" for i in range(60))
    timings = ("Latency", "Enqueue Time", "H2D Latency", "GPU Compute Time", "D2H Latency")
    runs = []
    for batch in range(1, 901):
        command = f"trtexec --loadEngine=m.plan --batch={batch} {pad}"
        runs.append(f"&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # {command}\n"
                    "[01/01/2024-00:00:00] [I] === Performance summary ===\n"
                    + "".join(f"[01/01/2024-00:00:00] [I] {label}: min = 1 ms, max = 2 ms, mean = 1.5 ms, "
                              "median = 1.5 ms, percentile(99%) = 2 ms\n" for label in timings)
                    + "[01/01/2024-00:00:00] [I] Total GPU Compute Time: 1 s\n"
                    f"&&&& PASSED TensorRT.trtexec [TensorRT v8601] # {command}\n")
    log = workdir / "many-runs.log"
    log.write_text("".join(runs))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 2
    assert done.err.count("\n") == 1
    assert done.err.startswith("studygen: measurements/demo/job1.json: the record would be ")
    assert ("bytes (4500 results), over the 16 MiB a record may hold (the loader refuses larger ones); nothing "
            "written: split the input into several jobs (--job)") in done.err
    size = int(done.err.split("the record would be ")[1].split(" bytes")[0])
    assert size > 16 * 1024 * 1024
    assert not done.path.exists() and not (done.measurements / "demo").exists()
