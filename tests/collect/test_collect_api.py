"""The collect commands called from Python: the options objects the command
line builds, run through the same functions, the command line they stand
for, and the rules between flags; dataset definitions through the records
layer."""

from __future__ import annotations

import json

import pytest

from studygen.commands.collect.coco import CocoOptions
from studygen.commands.collect.env import EnvOptions, run_env
from studygen.commands.collect.options import IngestOptions, checkpoint_block, parse_software
from studygen.commands.collect.trtexec import TrtexecOptions, run_trtexec
from studygen.errors import InputError, RecordError, UsageError
from studygen.records.datasets import use_dataset, verify_dataset
from studygen.records.provenance import DEFAULTED
from tests.collect.conftest import TRTEXEC

LOG = TRTEXEC / "trt10.16_build-and-run.log"


def without_time(record: dict) -> dict:
    record["provenance"].pop("collected_at")
    return record


def test_python_and_command_line_write_the_same_record(workdir, run_cli):
    ingest = IngestOptions(family="demo", job_id="py", measurements_dir=str(workdir / "py"), variant="fp16",
                           checkpoint="SenseTime/deformable-detr@83ecd26", software=["cuda=13.0"])
    outcome = run_trtexec(TrtexecOptions(ingest=ingest, log_path=str(LOG)))
    assert (outcome.record.created, outcome.record.added, outcome.record.display) == (True, 6, "py/demo/py.json")
    assert outcome.warnings == []
    done = run_cli("collect", "trtexec", "--log", LOG, "--family", "demo", "--job", "py", "--measurements",
                   workdir / "cli", "--variant", "fp16", "--checkpoint", "SenseTime/deformable-detr@83ecd26",
                   "--software", "cuda=13.0")
    assert done.exit_code == 0, done.err
    from_python = without_time(json.loads((workdir / "py" / "demo" / "py.json").read_text()))
    from_cli = without_time(json.loads((workdir / "cli" / "demo" / "py.json").read_text()))
    command = from_python["provenance"]["collector"].pop("command")
    assert from_cli["provenance"]["collector"].pop("command") == command.replace(f"{workdir}/py", f"{workdir}/cli")
    assert from_python == from_cli
    # the command as typed, flags in --help order, the trtexec files first
    assert command == (f"studygen collect trtexec --log {LOG} --family demo --job py --variant fp16 "
                       f"--measurements {workdir}/py --checkpoint SenseTime/deformable-detr@83ecd26 --software cuda=13.0")
    assert from_python["provenance"]["software"] == {"tensorrt": "10.16.1", "cuda": "13.0"}


def test_command_line_leaves_out_defaults_and_repeats_a_repeated_flag(tmp_path):
    ingest = IngestOptions(family="demo", job_id="j", batch=4, software=("cuda=12.4", "torch=2.5.1"))
    options = CocoOptions(ingest=ingest, annotations_path="gt.json", detections_path="dt 1.json", dataset_id="val",
                          backend="pycocotools", split="unspecified", role="reference", mode="engine")
    assert options.command_line() == (
        "studygen collect coco --annotations gt.json --detections 'dt 1.json' --dataset val --role reference "
        "--mode engine --family demo --job j --batch 4 --software cuda=12.4 --software torch=2.5.1")


def test_trtexec_options_need_a_file():
    options = TrtexecOptions(ingest=IngestOptions(family="demo", job_id="j"))
    with pytest.raises(UsageError, match="give at least one of --log, --times, --profile, --layer-info, --plan"):
        run_trtexec(options)


@pytest.mark.parametrize("options, message", [
    (EnvOptions(family="demo"), "give both --family and --job"),
    (EnvOptions(job_id="j"), "give both --family and --job"),
    (EnvOptions(family="demo", job_id="j"), "give --role measuring"),
])
def test_env_options_rules(options, message, workdir):
    with pytest.raises(UsageError, match=message):
        run_env(options)


def test_env_merge_into_a_record_from_python(workdir, run_cli):
    (workdir / "model.plan").write_bytes(b"\0" * 4096)
    first = run_cli("collect", "trtexec", "--family", "demo", "--job", "node", "--variant", "v", "--plan",
                    workdir / "model.plan", "--measurements", "measurements")
    assert first.exit_code == 0, first.err
    outcome = run_env(EnvOptions(family="demo", job_id="node", role="conversion", no_torch=True))
    assert outcome.record is not None and outcome.record.added == 0 and not outcome.record.created
    machine = json.loads((workdir / "measurements" / "demo" / "node.json").read_text())["provenance"]["conversion_machine"]
    assert machine["software"]["python"] == outcome.block["software"]["python"]
    printed = run_env(EnvOptions(no_torch=True))
    assert printed.record is None and "software" in printed.block


def test_checkpoint_and_software_flags_parse():
    assert checkpoint_block("org/model@abc", None) == {"id": "org/model", "revision": "abc", "weights": "pretrained",
                                                        DEFAULTED: ["weights"]}
    assert checkpoint_block("org/model", "random-init") == {"id": "org/model", "revision": None,
                                                             "weights": "random-init", DEFAULTED: ["revision"]}
    assert checkpoint_block(None, None) == {"id": "unknown", "revision": None, "weights": "pretrained",
                                            DEFAULTED: ["id", "revision", "weights"]}
    with pytest.raises(UsageError, match="invalid --checkpoint '@abc'"):
        checkpoint_block("@abc", None)
    assert parse_software(("tensorrt = 10.3.0 ", "cuda=12.6")) == {"tensorrt": "10.3.0", "cuda": "12.6"}
    with pytest.raises(UsageError, match="invalid --software 'cuda='"):
        parse_software(("cuda=",))


def test_a_new_dataset_definition_is_checked_then_returned_unwritten(tmp_path):
    use = use_dataset(tmp_path, "demo", "val-3", [3, 1, 2], "gt.json",
                      lambda: {"schema_version": 1, "dataset_id": "val-3", "source": "ours", "split": "val",
                               "selection": "all", "count": 3, "role": "evaluation",
                               "ids_not_published": "a test set of our own"})
    assert use.created and use.display.endswith("demo/datasets/val-3.json")
    assert use.files() == [(tmp_path / "demo" / "datasets" / "val-3.json", use.text)]
    assert json.loads(use.text)["count"] == 3
    assert not use.path.exists()  # written with its record, by write_results
    with pytest.raises(RecordError, match="val-4.json:") as refused:  # checked before anything is written
        use_dataset(tmp_path, "demo", "val-4", [1], "gt.json", lambda: {"schema_version": 1, "dataset_id": "val-4"})
    assert refused.value.place.pointer == "/"  # the definition as a whole: a required field is missing


def test_a_definition_without_ids_is_verified_by_its_count_only(tmp_path):
    path = tmp_path / "demo" / "datasets" / "val.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"schema_version": 1, "dataset_id": "val", "source": "ours", "split": "val",
                                "selection": "all", "count": 2, "role": "evaluation",
                                "ids_not_published": "the source lists no ids"}))
    assert verify_dataset(path, "val.json", [7, 8], "gt.json") == [
        "dataset val publishes no image ids; only the count (2) was checked"]
    with pytest.raises(InputError, match="dataset val has 2 images but gt.json lists 3") as raised:
        verify_dataset(path, "val.json", [7, 8, 9], "gt.json")
    assert raised.value.where == "/count"
    use = use_dataset(tmp_path, "demo", "val", [7, 8], "gt.json", lambda: pytest.fail("not built"))
    assert not use.created and use.files() == [] and use.notes[0].startswith("dataset val publishes no image ids")
