"""Unknown keys in a study file's blocks are refused (study.schema.json).

Case (a new user's trial): ``model: {revison: ..., wieghts: random-init}``
made ``studygen check`` exit 0, with no revision checked and the weights still
``pretrained``, and ``decision: {revisit_wen: ...}`` dropped the README's
"When to revisit" section without a word: the ``model``, ``decision``,
``agreement`` and ``run`` blocks took any key. Each is closed now, like the
top level and the variants, and a misspelt key is one line naming the study
file, the key's line and its pointer.

A block stays open only where its keys are names the user chooses (a recipe,
a metric, a notes section, a transformers config field, an Inductor setting):
:data:`OPEN_OBJECTS` lists each with the reason, and a new object schema must
either refuse unknown keys or be added there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from studygen.errors import RecordError
from studygen.records import schemas
from studygen.study import load_study
from tests.collect.conftest import TRTEXEC
from tests.conftest import REPO

STUDY = """\
schema_version: 1
family: toy
title: Toy detector
template: toy.md.j2
model:
  id: example/toy-detector
  revision: 0123abc
  weights: pretrained
variants:
  - {name: fp32, precision: fp32}
  - {name: fp16, precision: fp16}
decision:
  shipped: false
  summary: fp16 is shipped.
  revisit_when: [a newer TensorRT]
agreement:
  reference_variant: fp32
  iou_threshold: 0.5
run:
  shapes: ["64x96"]
  repeats: 3
  agreement_set: held
"""

# (line as STUDY has it, the line with the typo, the misspelt key, its block)
TYPOS = [
    ("  revision: 0123abc", "  revsion: 0123abc", "revsion", "model"),
    ("  weights: pretrained", "  weight: random-init", "weight", "model"),
    ("  revisit_when: [a newer TensorRT]", "  revisit_after: [a newer TensorRT]", "revisit_after", "decision"),
    # the required key misspelt: the stray key is named, not the missing one
    ("  shipped: false", "  shiped: false", "shiped", "decision"),
    ("  reference_variant: fp32", "  reference_varaint: fp32", "reference_varaint", "agreement"),
    ("  iou_threshold: 0.5", "  iou: 0.5", "iou", "agreement"),
    ("  repeats: 3", "  repeat: 3", "repeat", "run"),
    ("  agreement_set: held", "  agreement_sets: held", "agreement_sets", "run"),
]


def _study_dir(root: Path, text: str) -> Path:
    study_dir = root / "families" / "toy"
    study_dir.mkdir(parents=True)
    (study_dir / "study.yaml").write_text(text, encoding="utf-8")
    return study_dir


def _refusal(root: Path, text: str) -> str:
    with pytest.raises(RecordError) as caught:
        load_study(_study_dir(root, text), root)
    return caught.value.line()


@pytest.mark.parametrize(("line", "typo", "key", "block"), TYPOS)
def test_a_misspelt_key_in_a_block_is_one_line_at_its_own_line(tmp_path, line, typo, key, block):
    assert STUDY.count(line + "\n") == 1
    number = STUDY.splitlines().index(line) + 1
    text = STUDY.replace(line + "\n", typo + "\n")
    assert _refusal(tmp_path, text) == (f"families/toy/study.yaml:{number}: Additional properties are not allowed "
                                        f"('{key}' was unexpected) (/{block}/{key})")


def test_a_flow_mapping_names_its_first_stray_key(tmp_path):
    model = "model:\n  id: example/toy-detector\n  revision: 0123abc\n  weights: pretrained\n"
    text = STUDY.replace(model, "model: {id: example/toy-detector, hf_clas: ResNetForImageClassification, "
                                "wieght: random-init}\n")
    assert _refusal(tmp_path, text) == ("families/toy/study.yaml:5: Additional properties are not allowed "
                                        "('hf_clas', 'wieght' were unexpected) (/model/hf_clas)")


def test_the_keys_collect_run_reads_are_declared(tmp_path):
    """The keys collect run takes from ``agreement`` and ``run`` besides those the schema described before
    (studygen/collect/run/spec.py, coco_ap.py, agreement_stage.py) load, with their types checked."""
    text = (STUDY.replace("  iou_threshold: 0.5\n", "  iou_threshold: 0.5\n  shape: \"64x96\"\n  top_k: 20\n")
            .replace("  agreement_set: held\n", "  agreement_set: held\n  coco_images: coco/images\n"
                     "  coco_annotations: coco/annotations.json\n  coco_dataset: tiny-coco\n  coco_shape: \"96x64\"\n"))
    spec = load_study(_study_dir(tmp_path / "a", text), tmp_path / "a").spec
    assert spec["agreement"]["top_k"] == 20 and spec["run"]["coco_dataset"] == "tiny-coco"
    lines = text.splitlines()
    top_k, coco_shape = lines.index("  top_k: 20") + 1, lines.index("  coco_shape: \"96x64\"") + 1
    assert _refusal(tmp_path / "b", text.replace("top_k: 20", "top_k: 0")) == (
        f"families/toy/study.yaml:{top_k}: 0 is less than the minimum of 1 (/agreement/top_k)")
    assert _refusal(tmp_path / "c", text.replace("coco_shape: \"96x64\"", "coco_shape: [96, 64]")) == (
        f"families/toy/study.yaml:{coco_shape}: [96, 64] is not of type 'string' (/run/coco_shape)")


# Object schemas whose keys are the user's own names, kept open (JSON pointers into study.schema.json):
OPEN_OBJECTS = {
    # recipe names the variants point at; each recipe is closed
    "/properties/recipes",
    # module name patterns, each with the reason it stays high precision
    "/properties/recipes/additionalProperties/properties/keep_high_precision_reasons",
    # transformers config fields for random-init (collect/run/model.py hands them to the config class)
    "/properties/model/properties/config",
    # decimals by name: the row kinds' printing keys and any name a template passes to study.decimals()
    "/properties/precision",
    # by metric, kind or <kind>_<unit>, whatever metrics the records name (study/spread.py)
    "/properties/tolerances",
    # free text sections a template places by its own names
    "/properties/notes",
    # no studygen code reads it: a template may, by names of its own
    "/properties/figures",
    # torch._inductor.config settings by dotted name, checked by records/inductor_settings.py when loaded
    "/properties/run/properties/inductor_config",
}


def _open_objects(schema, pointer: str = ""):
    """Pointers of every object schema under ``schema`` that takes keys it does not declare."""
    if isinstance(schema, dict):
        if schema.get("type") == "object" and schema.get("additionalProperties") is not False:
            yield pointer
        for key, value in schema.items():
            yield from _open_objects(value, f"{pointer}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _open_objects(value, f"{pointer}/{index}")


def test_every_other_object_of_the_study_schema_refuses_unknown_keys():
    schema = json.loads(schemas.schema_bytes("study"))
    assert set(_open_objects(schema)) == OPEN_OBJECTS
    assert schema["additionalProperties"] is False  # the top level too


@pytest.mark.parametrize("pointer, document", [
    ("/model/config", {"model": {"id": "m", "config": {"model_type": "resnet", "hidden_sizes": [8, 16]}}}),
    ("/precision", {"precision": {"my_metric": 3}}),
    ("/tolerances", {"tolerances": {"my_metric": 0.5}}),
    ("/notes", {"notes": {"caveats": "text"}}),
    ("/figures", {"figures": {"my_chart": {"width": 3}}}),
    ("/recipes", {"recipes": {"my-recipe": {"keep_high_precision_reasons": {"*head*": "AP drops"}}}}),
])
def test_the_open_objects_take_names_of_the_users_own(pointer, document):
    study = {**yaml.safe_load(STUDY), **document}
    assert schemas.schema_errors("study", study) == []


@pytest.mark.parametrize("path", sorted((REPO / "families").glob("*/study.yaml")), ids=lambda p: p.parent.name)
def test_every_shipped_study_file_is_valid_as_it_is(path):
    assert schemas.schema_errors("study", yaml.safe_load(path.read_text(encoding="utf-8"))) == []


def _misspell_weights(project: Path) -> int:
    """Misspell ``weights`` in the deformable_detr study of ``project``; return its line."""
    path = project / "families" / "deformable_detr" / "study.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = lines.index("  weights: pretrained\n") + 1
    lines[number - 1] = "  wieghts: pretrained\n"
    path.write_text("".join(lines), encoding="utf-8")
    return number


def test_check_and_collect_name_the_misspelt_key_at_its_line(run_cli, project, monkeypatch):
    monkeypatch.chdir(project)  # collect shows the study file relative to the working directory
    number = _misspell_weights(project)
    where = f"families/deformable_detr/study.yaml:{number}"
    refused = "Additional properties are not allowed ('wieghts' was unexpected) (/model/wieghts)"
    checked = run_cli("check", "--root", project, "deformable_detr")
    assert (checked.exit_code, checked.out) == (1, f"{where}: SG202 {refused}\n1 error(s), 0 warning(s)\n")
    # collect read the study file without placing a schema error at its line: it named the pointer alone
    collected = run_cli("collect", "trtexec", "--root", project, "--family", "deformable_detr", "--job", "typo",
                        "--variant", "fp16", "--log", TRTEXEC / "trt10.16_build-and-run.log")
    assert (collected.exit_code, collected.err) == (2, f"studygen: {where}: {refused}\n")
    assert not (project / "measurements" / "deformable_detr" / "typo.json").exists()


def test_a_key_that_is_no_text_in_a_hand_built_document_is_named_at_its_mapping():
    """The study file's loader refuses such keys (tests/records/test_study_yaml.py); a document built
    otherwise (a test, a library caller) met ``key.isprintable()`` on ``True``: an AttributeError."""
    study = {**yaml.safe_load(STUDY), "run": {True: 3}, 2: "x"}
    assert schemas.schema_errors("study", study) == [
        ("", "Additional properties are not allowed (2 was unexpected)"),
        ("/run", "Additional properties are not allowed (True was unexpected)")]


def test_collect_names_a_key_yaml_reads_as_true_at_its_line(run_cli, project, monkeypatch):
    monkeypatch.chdir(project)
    path = project / "families" / "deformable_detr" / "study.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = lines.index("  weights: pretrained\n") + 1
    lines.insert(number, "  yes: 1\n")
    path.write_text("".join(lines), encoding="utf-8")
    collected = run_cli("collect", "trtexec", "--root", project, "--family", "deformable_detr", "--job", "yes",
                        "--variant", "fp16", "--log", TRTEXEC / "trt10.16_build-and-run.log")
    assert (collected.exit_code, collected.err) == (
        2, f"studygen: families/deformable_detr/study.yaml:{number + 1}: key yes is not text; YAML reads the unquoted "
           "yes as true or false: quote it ('yes') to keep it as written (/model/yes)\n")
    assert not (project / "measurements" / "deformable_detr" / "yes.json").exists()
