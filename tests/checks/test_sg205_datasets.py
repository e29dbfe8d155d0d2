"""SG205: named datasets, calibration/evaluation disjointness, one image set per
comparison, counts against definitions, unpublished ids."""

from __future__ import annotations

from studygen.checks import CheckContext, sg205_datasets
from studygen.findings import ERROR, WARNING

from .studies import (DEFAULT_DATASETS, coco_ap, codes, dataset, latency, line_of, load, readme_lines, record, spec)

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
GOOD = [record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625)])]


def test_clean_study_has_no_finding(tmp_path):
    template = HEADER + "{{ study.dataset_table() }}\n\nQuality on {{ study.one(kind='coco_ap', variant='fp16').dataset }}.\n"
    study = load(tmp_path, records=GOOD, template=template)
    assert sg205_datasets.check(CheckContext(study)) == []


def test_quality_result_naming_an_undefined_dataset(tmp_path):
    study = load(tmp_path, records=[record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625, dataset="val-9")])])
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "val-9" in f.message)
    assert finding.severity == ERROR and finding.file == "measurements/toy/job.json" and finding.pointer == "/results/1/value"
    assert "names dataset 'val-9', which has no definition (defined: calib-4, val-8)" in finding.message


def test_shared_ids_between_calibration_and_evaluation(tmp_path):
    datasets = {"calib-4": dataset("calib-4", "calibration", 4, ids=[1, 2, 3, 12]), "val-8": DEFAULT_DATASETS["val-8"]}
    study = load(tmp_path, records=GOOD, datasets=datasets)
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "shares" in f.message)
    assert finding.severity == ERROR and finding.file == "measurements/toy/datasets/val-8.json"
    assert finding.pointer == "/image_ids" and finding.line > 0
    assert "shares 1 image id(s) with calibration set calib-4 (4 images), for example 12" in finding.message


def test_disjointness_declared_or_unverified(tmp_path):
    unverified = {"calib-4": dataset("calib-4", "calibration", 4), "val-8": dataset("val-8", "evaluation", 8)}
    study = load(tmp_path / "a", records=GOOD, datasets=unverified)
    found = [f for f in sg205_datasets.check(CheckContext(study)) if "unverified" in f.message]
    assert len(found) == 1 and found[0].severity == WARNING
    assert "evaluation set val-8 (8 images) and calibration set calib-4 (4 images) is unverified" in found[0].message
    declared = {"calib-4": dataset("calib-4", "calibration", 4, disjoint_from=["val-8"]), "val-8": dataset("val-8", "evaluation", 8)}
    study = load(tmp_path / "b", records=GOOD, datasets=declared)
    assert [f for f in sg205_datasets.check(CheckContext(study)) if "unverified" in f.message] == []


def test_unpublished_ids_are_a_warning_and_a_known_gap(tmp_path):
    datasets = {"calib-4": dataset("calib-4", "calibration", 4, disjoint_from=["val-8"]), "val-8": dataset("val-8", "evaluation", 8)}
    template = HEADER + "## Known gaps\n\n{% for gap in study.known_gaps() %}\n- {{ gap }}\n{% endfor %}\n"
    study = load(tmp_path, records=GOOD, datasets=datasets, template=template)
    found = [f for f in sg205_datasets.check(CheckContext(study)) if "were not published" in f.message]
    assert [(f.file, f.pointer, f.severity) for f in found] == [
        ("measurements/toy/datasets/calib-4.json", "/ids_not_published", WARNING),
        ("measurements/toy/datasets/val-8.json", "/ids_not_published", WARNING)]
    assert "- Image set val-8 (8 images): not published by the toy source." in readme_lines(study)


def test_comparison_across_evaluation_sets(tmp_path):
    datasets = dict(DEFAULT_DATASETS, **{"val-16": dataset("val-16", "evaluation", 16, ids=range(21, 37))})
    study = load(tmp_path, records=[record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625, dataset="val-16")])],
                 datasets=datasets)
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "different evaluation sets" in f.message)
    assert finding.pointer.startswith("/results/")
    assert "fp16 0.4644 on val-8 (job job)" in finding.message and "fp8 0.4625 on val-16 (job job)" in finding.message


def test_unused_evaluation_definition_beside_the_used_one(tmp_path):
    """The seed's case: AP on the 400-image set, a second definition of 800 images at a stride."""
    datasets = dict(DEFAULT_DATASETS, **{"stride-16": dataset("stride-16", "evaluation", 16, ids=range(21, 37))})
    study = load(tmp_path, records=GOOD, datasets=datasets)
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "no result names it" in f.message)
    assert finding.file == "measurements/toy/datasets/stride-16.json" and finding.pointer == "/dataset_id"
    assert "evaluation set stride-16 (16 images) is defined but no result names it, while the quality results name val-8 (8 images)" \
        in finding.message


def test_hand_written_count_must_match_a_used_definition(tmp_path):
    datasets = dict(DEFAULT_DATASETS, **{"stride-16": dataset("stride-16", "evaluation", 16, ids=range(21, 37))})
    template = (HEADER + "Quality was evaluated on 8 held-out images (16 images at a fixed stride).\n\n"
                "A second run used 30 images.\n\n{{ study.dataset_table() }}\n")
    study = load(tmp_path, records=GOOD, datasets=datasets, template=template)
    readme = [f for f in codes(sg205_datasets.check(CheckContext(study)), "SG205") if f.file == "families/toy/README.md"]
    assert [f.line for f in readme] == [line_of(study, "fixed stride"), line_of(study, "30 images")]
    assert 'README states 16 images ("16 images"), the count of stride-16, which no result uses' in readme[0].message
    assert "val-8 (8 images, evaluation)" in readme[0].message
    assert "README states 30 images" in readme[1].message and "no dataset definition has 30 images" in readme[1].message
    # "8 held-out images" matches the set the AP figures use; the table's counts come from the definitions.


def test_record_image_count_against_its_definition(tmp_path):
    agreement = {"kind": "agreement", "variant": "fp8", "reference_variant": "fp16", "metric": "nonfinite_count",
                 "value": 0, "images": 400, "dataset": "val-8", "backend": "tensorrt", "mode": "engine"}
    study = load(tmp_path, records=[record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625), agreement])])
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "states 400 images" in f.message)
    assert finding.pointer == "/results/2/value" and "dataset val-8 has 8" in finding.message


def test_table_mixing_evaluation_sets_must_show_them(tmp_path):
    datasets = dict(DEFAULT_DATASETS, **{"val-16": dataset("val-16", "evaluation", 16, ids=range(21, 37))})
    records = [record("a", [coco_ap("fp16", 0.4644)]), record("b", [coco_ap("fp16", 0.4702, dataset="val-16")])]
    hidden = HEADER + "{{ study.table(index=('job_id',), variants=('fp16',), kind='coco_ap') }}\n"
    study = load(tmp_path / "hidden", records=records, datasets=datasets, template=hidden)
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"]
    assert finding.line == line_of(study, "| Job")
    assert "table compares quality figures on different evaluation sets without saying so: " \
           "fp16 0.4702 on val-16 (job b); fp16 0.4644 on val-8 (job a)" in finding.message
    shown = HEADER + "{{ study.table(index=('job_id', 'dataset'), variants=('fp16',), kind='coco_ap') }}\n"
    study = load(tmp_path / "shown", records=records, datasets=datasets, template=shown)
    assert [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"] == []


def test_counts_in_words_and_hyphenated_are_read(tmp_path):
    # issue 12, item H: "a sixteen-image subset", "16-image", "thirty images"; "one image" is no set
    datasets = dict(DEFAULT_DATASETS, **{"stride-16": dataset("stride-16", "evaluation", 16, ids=range(21, 37))})
    template = (HEADER + "Quality was measured on a sixteen-image subset.\n\n"
                "The 16-image set is the stride set.\n\n"
                "A second pass used thirty images.\n\n"
                "Eight held-out images make the evaluation set; one image per step is drawn.\n\n"
                "{{ study.dataset_table() }}\n")
    study = load(tmp_path, records=GOOD, datasets=datasets, template=template)
    readme = [f for f in codes(sg205_datasets.check(CheckContext(study)), "SG205") if f.file == "families/toy/README.md"]
    assert [f.line for f in readme] == [line_of(study, "sixteen-image"), line_of(study, "16-image"), line_of(study, "thirty images")]
    assert 'README states 16 images ("sixteen-image"), the count of stride-16, which no result uses' in readme[0].message
    assert 'README states 16 images ("16-image")' in readme[1].message
    assert 'README states 30 images ("thirty images"), but no dataset definition has 30 images' in readme[2].message


def test_image_counts_of_one_line():
    from studygen.checks.sg205_datasets import image_counts

    line = "AP on 400 held-out images, 1,000 images in all, a thousand-image pool, 256 COCO 2017 val images, a single image"
    assert [count for count, _, _ in image_counts(line)] == [400, 1000, 1000, 256]
    count, start, end = image_counts("see the 1000-image set")[0]
    assert (count, "see the 1000-image set"[start:end]) == (1000, "1000-image")


def test_hints_of_the_dataset_findings(tmp_path):
    study = load(tmp_path / "a", records=[record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625, dataset="val-9")])])
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "val-9" in f.message)
    assert finding.message == ("coco_ap result of fp8 in job job names dataset 'val-9', which has no definition "
                               "(defined: calib-4, val-8)")
    assert finding.hint == "add measurements/<family>/datasets/<id>.json"
    datasets = dict(DEFAULT_DATASETS, **{"val-16": dataset("val-16", "evaluation", 16, ids=range(21, 37))})
    study = load(tmp_path / "b", records=[record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625, dataset="val-16")])],
                 datasets=datasets)
    finding = next(f for f in sg205_datasets.check(CheckContext(study)) if "different evaluation sets" in f.message)
    assert finding.hint == "compare figures on one image set, or explain the mix in the study file (explanations: SG205)"
    records = [record("a", [coco_ap("fp16", 0.4644)]), record("b", [coco_ap("fp16", 0.4702, dataset="val-16")])]
    hidden = HEADER + "{{ study.table(index=('job_id',), variants=('fp16',), kind='coco_ap') }}\n"
    study = load(tmp_path / "c", records=records, datasets=datasets, template=hidden)
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"]
    assert finding.hint == "compare on one image set, or show the image set (index=(..., 'dataset') in study.table)"


def test_a_stated_count_of_two_unused_definitions_names_both(tmp_path):
    datasets = dict(DEFAULT_DATASETS, **{"stride-16": dataset("stride-16", "evaluation", 16, ids=range(21, 37)),
                                         "other-16": dataset("other-16", "evaluation", 16, ids=range(41, 57))})
    template = HEADER + "Quality was evaluated on 8 held-out images (16 images at a fixed stride).\n"
    study = load(tmp_path, records=GOOD, datasets=datasets, template=template)
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"]
    assert 'README states 16 images ("16 images"), the count of other-16, stride-16, which no result uses' in finding.message


def test_a_quality_result_with_an_empty_dataset_names_none(tmp_path):
    study = load(tmp_path, records=[record("job", [coco_ap("fp16", 0.46, dataset="")])])
    (finding,) = sg205_datasets.check(CheckContext(study))
    assert (finding.pointer, finding.message) == ("/results/0/value", "coco_ap result of fp16 in job job names no dataset")
    assert finding.hint == 'add "dataset": the id of a definition under datasets/'


def test_a_calibration_count_of_a_recipe_is_a_used_count(tmp_path):
    # the study file's recipe calibrates on calib-4: "4 images" names a set the study uses, no finding
    template = HEADER + "The FP8 linears were calibrated on 4 images and scored on 8 held-out images.\n"
    study = load(tmp_path, records=GOOD, template=template)
    assert [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"] == []


def test_an_agreement_result_on_an_undefined_dataset_is_named_once(tmp_path):
    agreement = {"kind": "agreement", "variant": "fp8", "reference_variant": "fp16", "metric": "nonfinite_count",
                 "value": 0, "images": 12, "dataset": "val-12", "backend": "tensorrt", "mode": "engine"}
    study = load(tmp_path, records=[record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625), agreement])])
    assert [f.message for f in sg205_datasets.check(CheckContext(study)) if "val-12" in f.message] == [
        "agreement result of fp8 in job job names dataset 'val-12', which has no definition (defined: calib-4, val-8)"]


def test_disjointness_declared_on_the_evaluation_side_only(tmp_path):
    calib = dataset("calib-4", "calibration", 4)
    del calib["disjoint_from"]
    datasets = {"calib-4": calib, "val-8": dataset("val-8", "evaluation", 8, disjoint_from=["calib-4"])}
    study = load(tmp_path, records=GOOD, datasets=datasets)
    assert [f for f in sg205_datasets.check(CheckContext(study)) if "unverified" in f.message] == []
    datasets["val-8"] = dataset("val-8", "evaluation", 8)
    study = load(tmp_path / "undeclared", records=GOOD, datasets=datasets)
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if "unverified" in f.message]
    assert finding.hint == ("publish the image ids, or declare disjoint_from with the selection rule that makes them "
                            "disjoint")


def test_a_stated_count_when_no_result_names_a_set(tmp_path):
    # no quality result and no recipe: the message says the figures use none
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.0)])],
                 study=spec(recipes={"linears": {"description": "FP8 linears"}}),
                 template=HEADER + "Quality will be read on 8 held-out images.\n")
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"]
    assert "the count of val-8, which no result uses; the figures use none:" in finding.message


def test_unpublished_ids_hint(tmp_path):
    datasets = {"calib-4": dataset("calib-4", "calibration", 4, disjoint_from=["val-8"]),
                "val-8": DEFAULT_DATASETS["val-8"]}
    study = load(tmp_path, records=GOOD, datasets=datasets)
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if "were not published" in f.message]
    assert finding.hint == "the README lists it under known gaps"


def test_results_of_an_unreadable_definition_are_not_undefined_too(tmp_path):
    # val-8.json does not parse: that is SG202's finding; SG205 does not add "has no definition" for its results
    from studygen.study import load_study

    from .studies import write_project

    study_dir = write_project(tmp_path, records=GOOD)
    (tmp_path / "measurements" / "toy" / "datasets" / "val-8.json").write_text("{ not json", encoding="utf-8")
    study = load_study(study_dir, tmp_path)
    assert [p.path for p in study.problems] == ["measurements/toy/datasets/val-8.json"]
    assert [f for f in sg205_datasets.check(CheckContext(study)) if "no definition" in f.message] == []


def quantization(dataset_id: str, variant: str = "fp8", recipe: str = "linears") -> dict:
    return {"kind": "quantization", "variant": variant, "quantized_modules": 72, "recipe": recipe, "dataset": dataset_id}


def agreement(dataset_id: str, variant: str = "fp8") -> dict:
    return {"kind": "agreement", "variant": variant, "reference_variant": "fp16", "metric": "nonfinite_count",
            "value": 0, "dataset": dataset_id, "backend": "tensorrt", "mode": "engine"}


def rule_findings(study, words: str):
    return [f for f in sg205_datasets.check(CheckContext(study)) if words in f.message]


def test_a_calibration_or_agreement_set_the_study_file_does_not_define(tmp_path):
    # the toy study file calibrates recipe linears on calib-4 (/recipes/linears/calibration_set); job a's FP8 was
    # calibrated on calib-16, and its agreement measured on val-8 where the run names val-16 (/run/agreement_set)
    datasets = dict(DEFAULT_DATASETS, **{"calib-16": dataset("calib-16", "calibration", 16, ids=range(31, 47),
                                                             disjoint_from=["val-8"])})
    records = [record("a", [*GOOD[0]["results"], quantization("calib-16"), agreement("val-8")]),
               record("b", [quantization("calib-4"), agreement("val-16")])]
    study = load(tmp_path, records=records, datasets=datasets, study=spec(run={"agreement_set": "val-16"}))
    found = rule_findings(study, "which the study file does not define")
    assert [(f.file, f.pointer, f.severity, f.message) for f in found] == [
        ("measurements/toy/a.json", "/results/2/dataset", ERROR,
         "quantization result of fp8 in job a names calibration set 'calib-16', which the study file does not define "
         "for it: families/toy/study.yaml /recipes/linears/calibration_set names 'calib-4'"),
        ("measurements/toy/a.json", "/results/3/dataset", ERROR,
         "agreement result of fp8 in job a names agreement set 'val-8', which the study file does not define for it: "
         "families/toy/study.yaml /run/agreement_set names 'val-16'")]
    lines = (tmp_path / "measurements/toy/a.json").read_text().splitlines()
    assert '"dataset": "calib-16"' in lines[found[0].line - 1] and '"dataset": "val-8"' in lines[found[1].line - 1]
    assert found[0].hint == ("set /recipes/linears/calibration_set in the study file to the set the job used, "
                             "or collect the job again")
    assert [f.key for f in found] == [next(r.key.text() for r in study.rows if r.record.job_id == "a" and r.kind == kind)
                                      for kind in ("quantization", "agreement")]  # what a waiver names
    # a record's variant the study file does not declare (SG202 says so) keeps the recipe its result names
    from types import SimpleNamespace
    assert sg205_datasets._recipe(study, SimpleNamespace(variant="fp9", result={"recipe": "linears"})) == "linears"
    assert sg205_datasets._recipe(study, SimpleNamespace(variant="fp8", result={"recipe": "other"})) == "linears"


def test_without_a_recipe_set_the_runs_calibration_set_counts_and_without_either_nothing_is_compared(tmp_path):
    recipes = {"linears": {"description": "FP8 linears"}, "a/b~c": {"description": "an odd name"}}
    variants = [{"name": "fp16", "precision": "fp16", "label": "fp16"},
                {"name": "fp8", "precision": "fp8", "recipe": "linears", "label": "FP8"},
                {"name": "odd", "precision": "fp8", "recipe": "a/b~c", "label": "odd"}]
    records = [record("a", [quantization("calib-16"), quantization("calib-4", "odd", "a/b~c")])]
    study = load(tmp_path / "run", records=records, study=spec(recipes=recipes, variants=variants,
                                                                 run={"calibration_set": "calib-4"}))
    (finding,) = rule_findings(study, "does not define")
    assert finding.message.endswith("families/toy/study.yaml /run/calibration_set names 'calib-4'")
    assert sg205_datasets.study_file_set(study, "calibration", "a/b~c") == ("/run/calibration_set", "calib-4")
    recipes["a/b~c"]["calibration_set"] = "calib-16"
    study = load(tmp_path / "odd", records=records, study=spec(recipes=recipes, variants=variants))
    (finding,) = rule_findings(study, "does not define")  # fp8's recipe and the run name none: only odd's
    assert finding.message.endswith("/recipes/a~1b~0c/calibration_set names 'calib-16'")
    assert "'calib-4'" in finding.message and finding.pointer == "/results/1/dataset"


def test_a_quality_figure_on_its_variants_calibration_set(tmp_path):
    # FP8 (recipe linears, calibrated on calib-4 by the study file) scored on calib-4: its calibration images
    records = [record("a", [coco_ap("fp16", 0.4644, dataset="calib-4"), coco_ap("fp8", 0.4625, dataset="calib-4")])]
    study = load(tmp_path / "spec", records=records, study=spec(run={"calibration_set": "calib-4"}))
    (finding,) = rule_findings(study, "calibrated on")  # fp16 has no recipe: the run's set calibrates no fp16
    assert (finding.file, finding.pointer, finding.severity) == ("measurements/toy/a.json", "/results/1/dataset", ERROR)
    assert finding.message == (
        "coco_ap (AP) of fp8 in job a is evaluated on calib-4, the set fp8 was calibrated on (families/toy/study.yaml "
        "/recipes/linears/calibration_set): quality must be measured on images the calibration never saw")
    assert finding.hint == "evaluate on a held-out set that differs from the calibration set"
    assert finding.key == study.rows[1].key.text() and study.rows[1].variant == "fp8"
    # fp16 has no recipe: calibrated on nothing, its AP on calib-4 is no such finding
    # where the study file names no calibration set, the job's quantization result tells it
    recipes = {"linears": {"description": "FP8 linears"}}
    records = [record("a", [quantization("calib-4"), coco_ap("fp8", 0.4625, dataset="calib-4")]),
               record("b", [coco_ap("fp8", 0.4625, dataset="calib-4")])]
    study = load(tmp_path / "job", records=records, study=spec(recipes=recipes))
    finding, by_role = rule_findings(study, "calibrated on")
    assert (finding.file, finding.pointer) == ("measurements/toy/a.json", "/results/1/dataset")
    assert ("the set fp8 was calibrated on (the quantization result of job a, measurements/toy/a.json "
            "/results/0/dataset)") in finding.message
    # job b names no quantization result, but calib-4 is defined as a calibration set (session 28: this was silent)
    assert (by_role.file, by_role.pointer) == ("measurements/toy/b.json", "/results/0/dataset")
    assert "(its definition's role is calibration: measurements/toy/datasets/calib-4.json /role)" in by_role.message
    # on the held-out set: nothing
    assert rule_findings(load(tmp_path / "good", records=GOOD), "calibrated on") == []


def test_rule_7_reads_the_variants_once_and_each_recipes_set_once(tmp_path, monkeypatch):
    """The study's variants (a dict made anew each time it is asked) are read
    once for all rows, and the study file's calibration set once a recipe;
    the finding is still made for each row evaluated on it."""
    from studygen.study import Study

    variants = [{"name": "fp16", "precision": "fp16", "label": "fp16"},
                {"name": "int8", "precision": "int8", "label": "int8", "recipe": "ptq"}]
    study_file = spec(variants=variants, recipes={"ptq": {"calibration_set": "calib-4"}})
    records = [record(f"job{n}", [coco_ap("int8", 0.41, dataset="calib-4"), coco_ap("fp16", 0.42, dataset="val-8")])
               for n in range(3)]
    study = load(tmp_path, records=records, study=study_file)  # calib-4 and val-8 defined
    assert len(study.rows) == 6  # made before counting (the rows read the variants too)
    asked = {"variants": 0, "sets": []}
    real_variants, real_set = Study.variants.fget, sg205_datasets.study_file_set
    monkeypatch.setattr(Study, "variants", property(lambda self: asked.__setitem__("variants", asked["variants"] + 1)
                                                    or real_variants(self)))
    monkeypatch.setattr(sg205_datasets, "study_file_set",
                        lambda study, role, recipe: asked["sets"].append(recipe) or real_set(study, role, recipe))
    findings = sg205_datasets.calibrated_on(study)
    assert [(f.file, f.pointer) for f in findings] == [(f"measurements/toy/job{n}.json", "/results/0/dataset")
                                                       for n in range(3)]
    assert asked == {"variants": 1, "sets": ["ptq", None]}


def test_a_disjointness_declaration_the_ids_contradict_is_reported_at_the_declaration(tmp_path):
    # a trial's calibration set declared disjoint_from its evaluation set and shared 3 of its 8 ids with it: the
    # finding named the overlap at the evaluation set's ids and left the false declaration unsaid
    calib = dataset("calib-4", "calibration", 4, ids=[40, 11, 12, 13], disjoint_from=["val-other", "val-8"])
    study = load(tmp_path, records=GOOD, datasets={"calib-4": calib, "val-8": DEFAULT_DATASETS["val-8"]})
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if "image id(s)" in f.message]
    assert (finding.file, finding.pointer, finding.severity) == (
        "measurements/toy/datasets/calib-4.json", "/disjoint_from/1", ERROR)
    assert finding.message == (
        "calib-4 declares itself disjoint from val-8 (disjoint_from), but the id lists contradict it: evaluation set "
        "val-8 (8 images) shares 3 image id(s) with calibration set calib-4 (4 images), for example 11")
    lines = (tmp_path / "measurements/toy/datasets/calib-4.json").read_text().splitlines()
    assert '"val-8"' in lines[finding.line - 1]


def test_a_contradicted_declaration_on_the_evaluation_side(tmp_path):
    calib = dataset("calib-4", "calibration", 4, ids=[11, 12, 30, 31])
    evaluation = dict(DEFAULT_DATASETS["val-8"], disjoint_from=["calib-4"])
    study = load(tmp_path, records=GOOD, datasets={"calib-4": calib, "val-8": evaluation})
    (finding,) = [f for f in sg205_datasets.check(CheckContext(study)) if "image id(s)" in f.message]
    assert (finding.file, finding.pointer) == ("measurements/toy/datasets/val-8.json", "/disjoint_from/0")
    assert finding.message.startswith("val-8 declares itself disjoint from calib-4 (disjoint_from), but the id lists "
                                      "contradict it: evaluation set val-8 (8 images) shares 2 image id(s)")
    assert finding.hint.endswith("remove calib-4 from val-8's disjoint_from")
