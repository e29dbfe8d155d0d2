"""studygen.compare.rekey: which figures of a job pair across a provenance change, and how the change reads.

Studies are toy projects of tests/checks/studies.py loaded from two folders (no git): job "cam" runs on a
GPU named "Orin" with TensorRT 10.3.0 unless a test says otherwise; values are made up. The figures go
through studygen.compare.figures.figure_changes, which keys them and calls pair_by_job and
provenance_changes; a few tests call rekey's functions directly with pairings made from loaded rows.
"""

from __future__ import annotations

from dataclasses import replace

from studygen.compare.figures import NEW, REMOVED, UNCHANGED, _figures, figure_changes
from studygen.compare.rekey import (Pairing, ProvenanceChange, RekeyedFigure, _pointer, _versions, pair_by_job,
                                    provenance_changes)
from studygen.place import Place
from tests.checks.studies import REVISION, coco_ap, collected_provenance, latency, load, record

OTHER_REVISION = "fedcba9876543210fedcba9876543210fedcba98"


def provenance(gpu: str = "Orin", tensorrt: str | None = "10.3.0", revision: str = REVISION) -> dict:
    checkpoint = {"id": "example/toy-detector", "revision": revision, "weights": "pretrained"}
    return collected_provenance(gpu=gpu, tensorrt=tensorrt, checkpoint=checkpoint)


def compared(tmp_path, base_records: list[dict], head_records: list[dict]):
    """figure_changes of the toy study with ``base_records`` against ``head_records``."""
    base = load(tmp_path / "base", records=base_records)
    head = load(tmp_path / "head", records=head_records)
    return figure_changes(base, head)


def moved(changes) -> list[tuple[str, str]]:
    """(verdict, what) of each change that is not unchanged."""
    return [(c.verdict, c.what) for c in changes if c.verdict != UNCHANGED]


# ---- how one change reads ---------------------------------------------------------------------------------------

def figure(what: str) -> RekeyedFigure:
    return RekeyedFigure(what, "old|key", "new|key", ("1.5",), "ms")


def test_words_count_one_figure_and_several_changed_values_in_the_right_number():
    place = Place("measurements/toy/cam.json", 4, "/provenance/gpu")
    one = ProvenanceChange("cam", (("GPU", "Orin", "Thor"),), (), (figure("fp16"),), 2, place)
    assert one.words() == ("job cam: GPU 'Orin' -> 'Thor'; 1 figure re-keyed, values unchanged; "
                           "2 figures changed value too, listed as removed and new")
    two = ProvenanceChange("cam", (("tensorrt", "10.3.0", "not stated"),), (("spin-wait", "off", "on"),),
                           (figure("fp16"), figure("fp32")), 1, place)
    assert two.words("→") == ("job cam: tensorrt 10.3.0 → not stated; latency timing: spin-wait off → on; "
                              "2 figures re-keyed, values unchanged; 1 figure changed value too, listed as removed "
                              "and new")


# ---- which provenance fields changed ----------------------------------------------------------------------------

def test_a_tensorrt_upgrade_alone_names_both_versions_and_points_at_the_software_entry(tmp_path):
    # 10.3.0 and 10.5.0 share TensorRT 10's defaults (CUDA graphs off, transfers on, spin-wait off): no timing part
    base = [record("cam", [latency("fp16", 2.35), latency("fp32", 4.10)], provenance(tensorrt="10.3.0"))]
    head = [record("cam", [latency("fp16", 2.35), latency("fp32", 4.10)], provenance(tensorrt="10.5.0"))]
    changes, (change,) = compared(tmp_path, base, head)
    assert moved(changes) == []
    assert change.fields == (("tensorrt", "10.3.0", "10.5.0"),) and change.timing == ()
    assert change.words() == "job cam: tensorrt 10.3.0 -> 10.5.0; 2 figures re-keyed, values unchanged"
    assert (change.place.path, change.place.pointer) == ("measurements/toy/cam.json", "/provenance/software/tensorrt")
    head_text = (tmp_path / "head" / "measurements" / "toy" / "cam.json").read_text(encoding="utf-8").splitlines()
    assert head_text[change.place.line - 1].strip() == '"tensorrt": "10.5.0",'


def test_a_version_dropped_at_the_head_reads_not_stated(tmp_path):
    base = [record("cam", [coco_ap("fp16", 0.377)], provenance(tensorrt="10.3.0"))]
    head = [record("cam", [coco_ap("fp16", 0.377)], provenance(tensorrt=None))]
    _, (change,) = compared(tmp_path, base, head)
    assert change.fields == (("tensorrt", "10.3.0", "not stated"),)
    assert change.words() == "job cam: tensorrt 10.3.0 -> not stated; 1 figure re-keyed, values unchanged"


def test_a_tensorrt_10_to_11_upgrade_gives_each_flag_its_two_defaults(tmp_path):
    base = [record("cam", [latency("fp16", 2.35)], provenance(tensorrt="10.3.0"))]
    head = [record("cam", [latency("fp16", 2.35)], provenance(tensorrt="11.1.0"))]
    _, (change,) = compared(tmp_path, base, head)
    assert change.timing == (("CUDA graphs", "off", "on"), ("data transfers", "on", "off"), ("spin-wait", "off", "on"))


def test_a_corrected_checkpoint_revision_names_both_short_hashes_and_points_at_the_revision(tmp_path):
    base = [record("cam", [coco_ap("fp16", 0.377)], provenance(revision=REVISION))]
    head = [record("cam", [coco_ap("fp16", 0.377)], provenance(revision=OTHER_REVISION))]
    _, (change,) = compared(tmp_path, base, head)
    assert change.fields == (("checkpoint revision", "0123456", "fedcba9"),)
    assert change.words() == "job cam: checkpoint revision 0123456 -> fedcba9; 1 figure re-keyed, values unchanged"
    assert change.place.pointer == "/provenance/checkpoint/revision"


def test_pointer_escapes_a_software_name_as_a_json_pointer_token():
    assert _pointer("GPU") == "/provenance/gpu"
    assert _pointer("checkpoint revision") == "/provenance/checkpoint/revision"
    assert _pointer("cuda") == "/provenance/software/cuda"
    assert _pointer("vendor/tool~2") == "/provenance/software/vendor~1tool~02"


def test_versions_splits_each_entry_at_its_first_equals_sign():
    assert _versions("tensorrt=10.3.0,cuda=12.6") == {"tensorrt": "10.3.0", "cuda": "12.6"}
    assert _versions("torch=2.5=custom,cuda=12.6") == {"torch": "2.5=custom", "cuda": "12.6"}
    assert _versions(None) == {} and _versions("") == {}


# ---- which figures pair ------------------------------------------------------------------------------------------

def test_two_jobs_each_with_their_own_change_in_job_order_and_one_whose_only_figure_changed_value(tmp_path):
    # job "a" re-measured its only figure with its GPU name corrected: no re-keyed figure, so no change of its own;
    # jobs "b" and "c" keep their values
    base = [record("a", [latency("fp16", 3.00)], provenance(gpu="Orin")),
            record("b", [latency("fp16", 2.35)], provenance(gpu="Orin")),
            record("c", [coco_ap("fp16", 0.377)], provenance(tensorrt="10.3.0"))]
    head = [record("a", [latency("fp16", 2.80)], provenance(gpu="Jetson AGX Orin")),
            record("b", [latency("fp16", 2.35)], provenance(gpu="Jetson AGX Orin")),
            record("c", [coco_ap("fp16", 0.377)], provenance(tensorrt="10.5.0"))]
    changes, provenance_changed = compared(tmp_path, base, head)
    assert [change.words() for change in provenance_changed] == [
        "job b: GPU 'Orin' -> 'Jetson AGX Orin'; 1 figure re-keyed, values unchanged",
        "job c: tensorrt 10.3.0 -> 10.5.0; 1 figure re-keyed, values unchanged"]
    assert moved(changes) == [(NEW, "fp16 median GPU compute time, 800 x 800, engine, Jetson AGX Orin"),
                              (REMOVED, "fp16 median GPU compute time, 800 x 800, engine, Orin")]


def test_a_figure_dropped_with_the_gpu_rename_stays_removed_and_the_rest_re_key(tmp_path):
    base = [record("cam", [latency("fp16", 2.35), latency("fp32", 4.10)], provenance(gpu="Orin"))]
    head = [record("cam", [latency("fp16", 2.35)], provenance(gpu="Thor"))]
    changes, (change,) = compared(tmp_path, base, head)
    assert change.words() == "job cam: GPU 'Orin' -> 'Thor'; 1 figure re-keyed, values unchanged"
    assert moved(changes) == [(REMOVED, "fp32 median GPU compute time, 800 x 800, engine, Orin")]


def test_latencies_timed_two_ways_pair_with_their_own_way_of_timing(tmp_path):
    # two fp16 latencies of one job, one with CUDA graphs and one without (then two with the host's waits told
    # apart): each pairs with the head's figure timed its way, so all re-key; without the flags they could not be
    # told apart and none would
    for method_key, values in (("cuda_graph", (True, False)), ("host_sync", ("per_forward", "per_repeat"))):
        results = [latency("fp16", 2.35, method={"timer": "trtexec", method_key: values[0]}),
                   latency("fp16", 2.90, method={"timer": "trtexec", method_key: values[1]})]
        changes, (change,) = compared(tmp_path / method_key, [record("cam", results, provenance(gpu="Orin"))],
                                      [record("cam", results, provenance(gpu="Thor"))])
        assert moved(changes) == []
        assert sorted(f.values for f in change.figures) == [("2.35",), ("2.9",)], method_key


def test_a_latency_result_without_a_method_pairs_like_one_with_an_empty_method(tmp_path):
    result = latency("fp16", 2.35)
    del result["method"]
    changes, (change,) = compared(tmp_path, [record("cam", [result], provenance(gpu="Orin"))],
                                  [record("cam", [result], provenance(gpu="Thor"))])
    assert moved(changes) == [] and len(change.figures) == 1


def test_provenance_changes_come_in_job_order_and_fall_back_to_the_provenance_object(tmp_path):
    # pairings handed over out of job order; job "b"'s keys differ in the order of their software versions
    # alone, so no field changed and its place is the provenance object itself
    studies = [load(tmp_path / side, records=[record(job, [coco_ap("fp16", 0.377)], provenance(gpu=gpu))
                                              for job, gpu in (("a", f"Orin {side}"), ("b", "Orin"))])
               for side in ("base", "head")]
    old, new = (_figures(study) for study in studies)
    (a,) = pair_by_job(old, new)
    (b_row,) = [row for rows in new.values() for row in rows if row.job_id == "b"]
    software = "tensorrt=10.3.0,cuda=13.0"
    b_old = b_row.key._replace(software="cuda=13.0,tensorrt=10.3.0")
    reordered = Pairing("b", (b_old.text(), ""), (b_row.key._replace(software=software).text(), ""),
                        (replace(b_row, key=b_old),), (b_row,))
    changes = provenance_changes([reordered, a], lambda p: figure(p.job))
    assert [(c.job, c.fields, c.place.pointer) for c in changes] == [
        ("a", (("GPU", "Orin base", "Orin head"),), "/provenance/gpu"), ("b", (), "/provenance")]
    assert changes[1].place.line == b_row.record.line_of("/provenance")
