"""``studygen collect agreement``: a user's own agreement figures, from a
figures file written here with numbers of our own, into agreement results;
the refusals, each one line at the file's JSON pointer, nothing written."""

from __future__ import annotations

import hashlib
import json
import re
import shlex

import pytest

from tests.conftest import REPO


FIGURES = {
    "reference_variant": "fp32",
    "dataset": "calm-val-300",
    "images": 300,
    "computed_by": "compare_logits.py, numpy 2.2.1, last-layer logits",
    "figures": {
        "bf16": {"logit_correlation": 0.999912, "max_abs_diff": 0.0311},
        "int8": {"logit_correlation": 0.99652, "max_abs_diff": 0.2470, "nonfinite_count": 0},
    },
}
DEFINITION = {"schema_version": 1, "dataset_id": "calm-val-300", "source": "the first 300 validation images",
              "split": "val", "role": "evaluation", "selection": "first 300 by file name", "count": 300,
              "ids_not_published": "held by the user"}


def write_figures(folder, document=FIGURES, name="figs.json", text=None):
    """The figures file; 0.247 is printed 0.2470, as a script printing four decimals would."""
    path = folder / name
    text = text if text is not None else json.dumps(document, indent=1).replace(": 0.247,", ": 0.2470,")
    path.write_text(text, encoding="utf-8")
    return path


def define(measurements, family="demo", definition=DEFINITION):
    path = measurements / family / "datasets" / f"{definition['dataset_id']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(definition), encoding="utf-8")


def assert_refused(done, *fragments: str) -> None:
    """``done`` exited 2 with one line on stderr holding every fragment, and wrote no record (the dataset
    definition the test wrote stays as it was)."""
    assert done.exit_code == 2, done.out + done.err
    assert done.err.count("\n") == 1 and "Traceback" not in done.err and "internal error" not in done.err, done.err
    for fragment in fragments:
        assert fragment in done.err, done.err
    assert not done.path.exists()


@pytest.fixture
def figures(workdir):
    define(workdir / "measurements")
    return write_figures(workdir)


def test_figures_become_agreement_results_with_the_files_digest(collect, figures):
    done = collect("agreement", "--input", figures, "--gpu", "NVIDIA L4", "--backend", "onnxruntime",
                   "--shape", "224x224", "--batch", "8")
    assert done.exit_code == 0, done.err
    assert done.out.splitlines()[0] == "wrote measurements/demo/job1.json: 5 result(s) added (new record)"
    digest = hashlib.sha256(figures.read_bytes()).hexdigest()
    got = [(r["variant"], r["metric"], r["value"]) for r in done.kind("agreement")]
    assert got == [("bf16", "logit_correlation", 0.999912), ("bf16", "max_abs_diff", 0.0311),
                   ("int8", "logit_correlation", 0.99652), ("int8", "max_abs_diff", 0.247),
                   ("int8", "nonfinite_count", 0)]
    first = done.results[0]
    assert first["reference_variant"] == "fp32" and first["dataset"] == "calm-val-300" and first["images"] == 300
    assert (first["shape"], first["batch"], first["backend"]) == ("224x224", 8, "onnxruntime")
    assert first["source_locator"] == "figs.json:/figures/bf16/logit_correlation"
    assert {r["source_sha256"] for r in done.results} == {digest}
    assert '"value": 0.2470' in done.path.read_text()  # the digits the file printed
    assert isinstance(done.results[4]["value"], int)
    provenance = done.record["provenance"]
    assert provenance["gpu"] == "NVIDIA L4" and "cpu" not in provenance
    assert provenance["collector"]["name"] == "studygen collect agreement"
    assert (f"agreement figures read from figs.json (sha256 {digest[:12]}), computed by compare_logits.py, "
            "numpy 2.2.1, last-layer logits") in provenance["notes"]


def test_the_cpu_the_figures_were_computed_on_or_none_stated(collect, figures):
    done = collect("agreement", "--input", figures, "--cpu", "Intel Xeon Gold 6338", "--software", "numpy=2.2.1")
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    assert (provenance["gpu"], provenance["gpu_count"], provenance["cpu"]) == (None, 0, "Intel Xeon Gold 6338")
    assert provenance["software"] == {"numpy": "2.2.1"}
    assert not any("not stated" in note for note in provenance["notes"])
    unstated = collect("agreement", "--input", figures, job="job2")
    assert unstated.exit_code == 0, unstated.err
    provenance = unstated.record["provenance"]
    assert provenance["gpu"] is None and "gpu_count" not in provenance and "cpu" not in provenance
    assert ("figs.json: the machine the figures were computed on is not stated (give --gpu MODEL or --cpu MODEL)"
            in provenance["notes"])
    both = collect("agreement", "--input", figures, "--cpu", "x", "--gpu", "NVIDIA L4", job="job3")
    assert_refused(both, "give --gpu MODEL or --cpu MODEL, not both")


def test_variant_option_records_that_variant_alone(collect, figures):
    done = collect("agreement", "--input", figures, "--variant", "int8")
    assert done.exit_code == 0, done.err
    assert [(r["variant"], r["metric"]) for r in done.results] == [
        ("int8", "logit_correlation"), ("int8", "max_abs_diff"), ("int8", "nonfinite_count")]
    missing = collect("agreement", "--input", figures, "--variant", "fp16", job="job2")
    assert_refused(missing, "figs.json:/figures: --variant fp16 but the file has figures of bf16, int8 only")


def test_collected_again_adds_nothing_and_replace_takes_new_figures(collect, figures, workdir):
    assert collect("agreement", "--input", figures).exit_code == 0
    again = collect("agreement", "--input", figures)
    assert again.exit_code == 0 and "nothing new, the record is unchanged" in again.out
    changed = json.loads(json.dumps(FIGURES))
    changed["figures"]["int8"]["max_abs_diff"] = 0.2391
    write_figures(workdir, changed)
    refused = collect("agreement", "--input", figures)
    assert refused.exit_code == 2 and "--replace" in refused.err
    assert [r["value"] for r in refused.results if r["metric"] == "max_abs_diff"] == [0.0311, 0.247]
    done = collect("agreement", "--input", figures, "--replace", "rescored after a fix to the int8 export")
    assert done.exit_code == 0, done.err
    assert [r["value"] for r in done.results if r["metric"] == "max_abs_diff"] == [0.0311, 0.2391]
    assert done.out.splitlines()[0] == "wrote measurements/demo/job1.json: 5 result(s) added in place of 5 (record rewritten)"
    assert any(note.startswith("replaced 5 result(s) read from figs.json") for note in done.record["provenance"]["notes"])


def _with(change) -> dict:
    document = json.loads(json.dumps(FIGURES))
    change(document)
    return document


REFUSED = [
    ("top-1 accuracy is no agreement metric", lambda d: d["figures"]["int8"].update(top1_accuracy=0.761),
     "figs.json:/figures/int8/top1_accuracy: unknown metric 'top1_accuracy': the agreement kind takes "
     "logit_correlation, max_abs_diff, "
     "nonfinite_count, precision, recall, top1_agreement"),
    ("top-1 agreement as a percent", lambda d: d["figures"]["int8"].update(top1_agreement=99.21),
     "figs.json:/figures/int8/top1_agreement: top1_agreement 99.21 is out of range: it lies between 0 and 1 "
     "(a fraction: 99.21% is 0.9921)"),
    ("correlation above 1", lambda d: d["figures"]["bf16"].update(logit_correlation=1.0004),
     "figs.json:/figures/bf16/logit_correlation: logit_correlation 1.0004 is out of range: it lies between -1 and 1\n"),
    ("negative max abs diff", lambda d: d["figures"]["int8"].update(max_abs_diff=-0.02),
     "figs.json:/figures/int8/max_abs_diff: max_abs_diff -0.02 is out of range: it lies between 0 and "
     "1,000,000,000,000"),
    ("fractional count", lambda d: d["figures"]["int8"].update(nonfinite_count=2.5),
     "figs.json:/figures/int8/nonfinite_count: nonfinite_count is 2.5: give a whole number"),
    ("figure as a string", lambda d: d["figures"]["bf16"].update(max_abs_diff="0.0311"),
     "figs.json:/figures/bf16/max_abs_diff: max_abs_diff is '0.0311': give a number"),
    ("figure as a boolean", lambda d: d["figures"]["bf16"].update(max_abs_diff=True),
     "figs.json:/figures/bf16/max_abs_diff: max_abs_diff is a boolean: give a number"),
    ("variant's figures as a list", lambda d: d["figures"].update(bf16=[0.999912]),
     "figs.json:/figures/bf16: the figures of bf16 are an array: give an object of metrics"),
    ("reference as a number", lambda d: d.update(reference_variant=32),
     "figs.json:/reference_variant: variant name is 32: give a string"),
    ("a variant against itself", lambda d: d["figures"].update(fp32={"logit_correlation": 1}),
     "figs.json:/figures/fp32: variant 'fp32' is the reference_variant"),
    ("misspelt key", lambda d: d.update(refrence_variant=d.pop("reference_variant")),
     "figs.json:/refrence_variant: unknown key 'refrence_variant'"),
    ("no figures", lambda d: d.update(figures={}),
     "figs.json:/figures: figures is empty: give an object of variants"),
    ("unknown dataset", lambda d: d.update(dataset="calm-val-301"),
     "figs.json:/dataset: unknown dataset 'calm-val-301': no definition measurements/demo/datasets/calm-val-301.json"),
    ("another image count", lambda d: d.update(images=299),
     "figs.json:/images: images 299 but dataset calm-val-300 has 300 (measurements/demo/datasets/calm-val-300.json)"),
    ("thresholds without precision or recall", lambda d: d.update(iou_threshold=0.5),
     "figs.json:/iou_threshold: iou_threshold given, but no figure is a precision or recall"),
]


@pytest.mark.parametrize("why, change, line", REFUSED, ids=[case[0] for case in REFUSED])
def test_bad_figures_are_refused_at_their_pointer_and_nothing_is_written(collect, figures, workdir, why, change, line):
    write_figures(workdir, _with(change))
    done = collect("agreement", "--input", figures)
    assert_refused(done, line)
    assert done.err.startswith("studygen: figs.json:/")
    assert [p.name for p in (workdir / "measurements/demo").iterdir()] == ["datasets"]


def test_not_json_numbers_and_a_file_too_large_are_refused(collect, figures, workdir):
    text = json.dumps(FIGURES).replace("0.999912", "NaN")
    write_figures(workdir, text=text)
    assert_refused(collect("agreement", "--input", figures), "figs.json", "NaN is not valid JSON")
    text = json.dumps(FIGURES) + " " * 2**20
    write_figures(workdir, text=text)
    assert_refused(collect("agreement", "--input", figures), f"figs.json: file is {len(text)} bytes; the limit is "
                                                             "1048576 bytes (1 MiB)")


def test_in_a_study_the_variants_must_be_declared(workdir, run_cli):
    assert run_cli("new", "demo", "--variants", "fp32,bf16,int8", "--root", workdir).exit_code == 0
    define(workdir / "measurements")
    figures = write_figures(workdir)
    done = run_cli("collect", "agreement", "--family", "demo", "--job", "cpu-1", "--input", figures,
                   "--cpu", "Intel Xeon Gold 6338")
    assert done.exit_code == 0, done.err
    record = json.loads((workdir / "measurements/demo/cpu-1.json").read_text())
    assert len(record["results"]) == 5
    for change, pointer, variant in ((lambda d: d["figures"].update(fp8={"max_abs_diff": 0.41}), "/figures/fp8", "fp8"),
                                     (lambda d: d.update(reference_variant="fp64"), "/reference_variant", "fp64")):
        write_figures(workdir, _with(change))
        refused = run_cli("collect", "agreement", "--family", "demo", "--job", "cpu-2", "--input", figures)
        assert refused.exit_code == 2
        assert refused.err == (f"studygen: figs.json:{pointer}: unknown variant {variant!r}: families/demo/study.yaml "
                               "declares fp32, bf16, int8\n")
        assert not (workdir / "measurements/demo/cpu-2.json").exists()


def test_the_study_guides_example_runs_as_printed(workdir, run_cli):
    """The guide's figures file and command ("Agreement figures of your own"), in a project of its variants."""
    guide = (REPO / "docs" / "study-guide.md").read_text(encoding="utf-8")
    section = guide[guide.index("### Agreement figures of your own"):guide.index("### Measurement keys")]
    (document,) = re.findall(r"```json\n(.*?)```", section, re.S)
    (command,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    (workdir / "agree-heldout.json").write_text(document, encoding="utf-8")
    assert run_cli("new", "my_model", "--variants", "fp32,int8,fp16", "--model", "org/my-model",
                   "--revision", "3f2a9c1", "--root", workdir).exit_code == 0
    define(workdir / "measurements", "my_model", {**DEFINITION, "dataset_id": "val-held-out-500", "count": 500})
    argv = shlex.split(command.replace("\\\n", " "))
    assert argv[:3] == ["studygen", "collect", "agreement"]
    done = run_cli(*argv[1:])
    assert done.exit_code == 0, done.err
    record = json.loads((workdir / "measurements/my_model/cpu-agreement.json").read_text(encoding="utf-8"))
    assert [(r["variant"], r["metric"], r["value"]) for r in record["results"]] == [
        ("int8", "logit_correlation", 0.99871), ("int8", "max_abs_diff", 0.193), ("int8", "nonfinite_count", 0),
        ("fp16", "logit_correlation", 0.9999962), ("fp16", "max_abs_diff", 0.00211)]
    assert record["results"][1]["source_locator"] == "agree-heldout.json:/figures/int8/max_abs_diff"
    assert (record["provenance"]["cpu"], record["provenance"]["software"]) == (
        "AMD EPYC 7763 64-Core Processor", {"numpy": "2.2.1"})
    assert run_cli("render", "my_model", "--root", workdir).exit_code == 0
    checked = run_cli("check", "my_model", "--root", workdir)
    assert checked.exit_code == 0 and "SG209" not in checked.out, checked.out  # warnings only: placeholders


def test_the_studys_agreement_set_and_a_published_files_origin(workdir, run_cli):
    assert run_cli("new", "demo", "--variants", "fp32,bf16,int8", "--root", workdir).exit_code == 0
    define(workdir / "measurements")
    figures = write_figures(workdir)
    study = workdir / "families/demo/study.yaml"
    text = study.read_text(encoding="utf-8")
    study.write_text(text + "run:\n  agreement_set: calm-val-900\n", encoding="utf-8")
    refused = run_cli("collect", "agreement", "--family", "demo", "--job", "j1", "--input", figures)
    assert refused.exit_code == 2 and not (workdir / "measurements/demo/j1.json").exists()
    assert refused.err == ("studygen: figs.json:/dataset: dataset calm-val-300 but families/demo/study.yaml names "
                           "calm-val-900 as the agreement set (/run/agreement_set)\n")
    study.write_text(text, encoding="utf-8")
    done = run_cli("collect", "agreement", "--family", "demo", "--job", "j1", "--input", figures,
                   "--origin", "input=acme/evals@1a2b3c4d:out/agree.json", "--shape", "256x256")
    assert done.exit_code == 0, done.err
    notes = json.loads((workdir / "measurements/demo/j1.json").read_text(encoding="utf-8"))["provenance"]["notes"]
    digest = hashlib.sha256(figures.read_bytes()).hexdigest()[:12]
    assert f"input --input figs.json (sha256 {digest}) was published in acme/evals at commit 1a2b3c4d as " \
           "out/agree.json" in notes
    assert "figs.json: shape 256x256 taken from --shape: the input states none" in notes


def test_a_top1_agreement_is_recorded_with_the_digits_printed(collect, figures, workdir):
    document = _with(lambda d: d["figures"]["int8"].update(top1_agreement=0.9933))
    write_figures(workdir, text=json.dumps(document).replace("0.9933", "0.99330"))
    done = collect("agreement", "--input", figures, "--cpu", "AMD EPYC 7763")
    assert done.exit_code == 0, done.err
    top1 = [r for r in done.kind("agreement") if r["metric"] == "top1_agreement"]
    assert [(r["variant"], r["value"], r["source_locator"]) for r in top1] == [
        ("int8", 0.9933, "figs.json:/figures/int8/top1_agreement")]
    assert '"value": 0.99330' in done.path.read_text()


def test_the_metrics_read_are_the_record_schemas():
    # the collector's ranges name each metric the agreement kind takes, no more and no fewer
    import json

    from studygen.collect.agreement import RANGES
    from studygen.records.schemas import schema_bytes

    schema = json.loads(schema_bytes("run"))
    assert sorted(RANGES) == sorted(schema["$defs"]["agreement"]["properties"]["metric"]["enum"])
