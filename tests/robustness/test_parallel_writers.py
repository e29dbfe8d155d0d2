"""Several ``studygen collect`` processes at once, as a user starts them
(one shell, ``&``): each reads, checks and rewrites the record under the
records folder's lock, so every process keeps its results, or fails with
one line naming what another one recorded first. Before the lock, eight
processes adding different shapes to one job kept 6 of 48 results and all
of them said they had written theirs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studygen import fsutil
from studygen.errors import ConflictError
from studygen.records.write import write_checked
from tests.conftest import FIXTURES, REPO

LOG = FIXTURES / "trtexec" / "trt10.16_build-and-run.log"  # 6 results per shape
OTHER_LOG = FIXTURES / "trtexec" / "trt10.16_no-data-transfers.log"  # 3 results, the same GPU and TensorRT
WRITERS = 8


def start(cwd: Path, *args) -> subprocess.Popen:
    """``studygen collect ARGS`` in its own process, outside any project."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "studygen", "collect", *map(str, args)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(processes: list[subprocess.Popen]) -> list[tuple[int, str, str]]:
    """``(exit code, stdout, stderr)`` of each process, once all have ended."""
    outputs = [p.communicate(timeout=300) for p in processes]
    return [(p.returncode, out, err) for p, (out, err) in zip(processes, outputs)]


def trtexec(cwd: Path, job: str, log: Path, shape: str) -> subprocess.Popen:
    return start(cwd, "trtexec", "--family", "demo", "--job", job, "--measurements", "m", "--log", log,
                 "--shape", shape)


def results_of(record: Path) -> list[dict]:
    return json.loads(record.read_text(encoding="utf-8"))["results"]


def test_eight_writers_adding_shapes_to_one_job_keep_every_result(tmp_path):
    shapes = [f"{100 * (i + 1)}x{100 * (i + 1)}" for i in range(WRITERS)]
    # one log per shape: the fixture with the shape trtexec says it chose (line 132, 1x1x28x28) changed to it
    logs = {shape: tmp_path / f"build-{shape}.log" for shape in shapes}
    text = LOG.read_text(encoding="utf-8")
    assert text.count("overriding shape to: 1x1x28x28") == 1
    for shape, log in logs.items():
        log.write_text(text.replace("overriding shape to: 1x1x28x28", f"overriding shape to: 1x1x{shape}"),
                       encoding="utf-8")
    ended = finish([trtexec(tmp_path, "shared", logs[shape], shape) for shape in shapes])
    assert [code for code, _, _ in ended] == [0] * WRITERS, [err for _, _, err in ended]
    lines = sorted(out.splitlines()[0] for _, out, _ in ended)
    assert lines == (["wrote m/demo/shared.json: 6 result(s) added (new record)"]
                     + ["wrote m/demo/shared.json: 6 result(s) added (record extended)"] * (WRITERS - 1))
    results = results_of(tmp_path / "m" / "demo" / "shared.json")
    assert len(results) == 6 * WRITERS
    per_shape = {shape: sum(r["shape"] == shape for r in results) for shape in shapes}
    assert per_shape == dict.fromkeys(shapes, 6)
    # nothing is left next to the record: no temp file, and the last holder removed the lock file
    assert sorted(p.name for p in (tmp_path / "m" / "demo").iterdir()) == ["shared.json"]
    assert sorted({r["source_locator"].split(":")[0] for r in results}) == sorted(p.name for p in logs.values())


def test_writers_of_one_measurement_key_from_two_logs_one_wins_the_others_fail_clearly(tmp_path):
    # six processes, two logs of one run taking turns, every one the same job and shape: the first to
    # write wins; the two that read the winner's log again find it recorded as it is (nothing new, exit 0);
    # each of the three others finds its first result recorded from the other log (one line, exit 2).
    # The second log is the fixture with that one figure changed (0.0361328 -> 0.0365328 ms), so both
    # logs give the same six measurement keys (another log of the same GPU may differ in method: then
    # its results are other measurements and both are kept)
    rerun = tmp_path / "rerun.log"
    text = LOG.read_text(encoding="utf-8")
    assert text.count("median = 0.0361328 ms") == 1
    rerun.write_text(text.replace("median = 0.0361328 ms", "median = 0.0365328 ms"), encoding="utf-8")
    logs = [LOG, rerun] * 3
    ended = finish([trtexec(tmp_path, "same", log, "28x28") for log in logs])
    codes = [code for code, _, _ in ended]
    assert sorted(codes) == [0] * 3 + [2] * 3, ended
    (winner,) = [i for i, (_, out, _) in enumerate(ended) if out.startswith("wrote ")]
    winner_count = 6
    assert ended[winner][1:] == (f"wrote m/demo/same.json: {winner_count} result(s) added (new record)\n", "")
    for index, (code, out, err) in enumerate(ended):
        if index == winner:
            continue
        if logs[index] == logs[winner]:
            assert (code, err) == (0, "") and out.startswith("m/demo/same.json: nothing new, the record is unchanged\n")
            continue
        assert out == "" and err.count("\n") == 1 and err.startswith("studygen: m/demo/same.json: latency "), err
        assert f"{logs[index].name}:line " in err and "is already recorded at m/demo/same.json:/results/" in err
        assert 'a result is never overwritten: if this is a rerun of that measurement, collect it with --replace' in err
        assert err.endswith("if it measured something else, use another --job, --variant, --shape or --batch; "
                            "nothing written\n")
    assert len(results_of(tmp_path / "m" / "demo" / "same.json")) == winner_count


def coco_inputs(folder: Path, images: tuple[int, ...]) -> tuple[Path, Path]:
    """Ground truth with one 50x50 box per image, and detections equal to it (scores all different)."""
    folder.mkdir()
    annotations = [{"id": i, "image_id": i, "category_id": 1, "bbox": [10, 10, 50, 50], "area": 2500, "iscrowd": 0}
                   for i in images]
    gt = {"images": [{"id": i, "width": 640, "height": 480, "file_name": f"{i:012d}.jpg"} for i in images],
          "categories": [{"id": 1, "name": "thing"}], "annotations": annotations}
    # scores differ, so that collect coco has no tie to warn about
    detections = [{"image_id": i, "category_id": 1, "bbox": [10, 10, 50, 50], "score": 0.9 - 0.01 * i} for i in images]
    (folder / "gt.json").write_text(json.dumps(gt), encoding="utf-8")
    (folder / "dt.json").write_text(json.dumps(detections), encoding="utf-8")
    return folder / "gt.json", folder / "dt.json"


def coco(cwd: Path, job: str, inputs: tuple[Path, Path]) -> subprocess.Popen:
    return start(cwd, "coco", "--family", "demo", "--job", job, "--measurements", "m", "--annotations", inputs[0],
                 "--detections", inputs[1], "--dataset", "val-new")


def test_coco_writers_of_one_new_dataset_with_other_images_only_those_of_the_first_succeed(tmp_path):
    # four processes, two image sets taking turns, each its own job: the first to write defines
    # val-new; those with its images verify it, the others are refused, naming the definition
    inputs = {2: coco_inputs(tmp_path / "two", (1, 2)), 3: coco_inputs(tmp_path / "three", (1, 2, 3))}
    counts = [2, 3, 2, 3]
    ended = finish([coco(tmp_path, f"job{index}", inputs[count]) for index, count in enumerate(counts)])
    definition = json.loads((tmp_path / "m" / "demo" / "datasets" / "val-new.json").read_text(encoding="utf-8"))
    won = definition["count"]
    for index, (count, (code, out, err)) in enumerate(zip(counts, ended)):
        record = tmp_path / "m" / "demo" / f"job{index}.json"
        if count == won:
            assert code == 0 and err == "" and len(results_of(record)) == 12, err
            continue
        shown_gt = "three/gt.json" if count == 3 else "two/gt.json"
        assert (code, out) == (2, "")
        assert err == (f"studygen: m/demo/datasets/val-new.json:/count: dataset val-new has {won} images but "
                       f"{shown_gt} lists {count}: evaluate on the defined images or give another --dataset\n")
        assert not record.exists()
    said = sorted(out.splitlines()[1] for count, (_, out, _) in zip(counts, ended) if count == won)
    assert said == [f"verified m/demo/datasets/val-new.json: {won} images match",
                    f"wrote m/demo/datasets/val-new.json: dataset val-new, {won} images"]


def test_two_coco_writers_of_one_new_dataset_with_the_same_images_write_it_once(tmp_path):
    inputs = coco_inputs(tmp_path / "in", (1, 2, 3))
    ended = finish([coco(tmp_path, job, inputs) for job in ("a", "b")])
    assert [code for code, _, _ in ended] == [0, 0], ended
    said = sorted(out.splitlines()[1] for _, out, _ in ended)
    assert said == ["verified m/demo/datasets/val-new.json: 3 images match",
                    "wrote m/demo/datasets/val-new.json: dataset val-new, 3 images"]
    for job in ("a", "b"):
        assert len(results_of(tmp_path / "m" / "demo" / f"{job}.json")) == 12


def test_a_writer_that_cannot_have_the_lock_gives_up_with_a_clear_error(tmp_path):
    folder = tmp_path / "m" / "demo"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from pathlib import Path; from studygen.fsutil import folder_lock\n"
        "with folder_lock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)\n"), folder],
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        calls = []

        def attempt():
            calls.append(1)
            return [(folder / "x.json", "{}\n")]

        with pytest.raises(ConflictError) as raised:
            write_checked(folder, attempt, lock_timeout_s=0.2)
        assert raised.value.line() == (f"{fsutil.shown_path(folder)}: another studygen process has been writing here "
                                       "for 0.2 s (it holds .studygen.lock); nothing written: try again when it has "
                                       "finished")
        assert calls == [1]  # checked once without the lock, never written
        assert not (folder / "x.json").exists()
    finally:
        holder.kill()
        holder.wait()
    assert (folder / fsutil.LOCK_FILE).exists()  # a holder killed by SIGKILL could not remove it
    write_checked(folder, attempt, lock_timeout_s=5)  # the kernel dropped the killed holder's lock
    assert (folder / "x.json").read_text() == "{}\n" and calls == [1, 1, 1]
    assert sorted(p.name for p in folder.iterdir()) == ["x.json"]  # and this writer removed the lock file


def test_four_agreement_files_collected_at_once_into_one_job_keep_every_figure(tmp_path):
    # four image sets, each one figures file of two figures: 8 results in one record, whichever process wrote last
    sets = [f"set-{i}" for i in range(4)]
    for index, name in enumerate(sets):
        definition = {"schema_version": 1, "dataset_id": name, "source": "test images", "split": "val",
                      "role": "evaluation", "selection": f"block {index}", "count": 40 + index,
                      "ids_not_published": "made up for this test"}
        path = tmp_path / "m" / "demo" / "datasets" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(definition), encoding="utf-8")
        figures = {"reference_variant": "fp32", "dataset": name,
                   "figures": {"int8": {"logit_correlation": 0.9981 - index / 1000, "max_abs_diff": 0.05 + index}}}
        (tmp_path / f"{name}.json").write_text(json.dumps(figures), encoding="utf-8")
    ended = finish([start(tmp_path, "agreement", "--family", "demo", "--job", "agree", "--measurements", "m",
                          "--input", f"{name}.json", "--cpu", "Intel Xeon Gold 6338") for name in sets])
    assert [code for code, _, _ in ended] == [0] * 4, [err for _, _, err in ended]
    results = results_of(tmp_path / "m" / "demo" / "agree.json")
    assert sorted((r["dataset"], r["metric"], r["value"]) for r in results) == sorted(
        (name, metric, value) for index, name in enumerate(sets)
        for metric, value in (("logit_correlation", 0.9981 - index / 1000), ("max_abs_diff", 0.05 + index)))
