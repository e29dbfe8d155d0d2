"""A study of several checkpoint revisions: the generic template says which
revision each figure came from. Case (a new user's trial): the hackathon
family's latency table set figures of five cookbook commits side by side, and
pooled two of them in one cell, with no word of the revisions but in the
``--origin`` notes.

Figures and commits are made up for the tests; each expected value is read
off the records written here."""

from __future__ import annotations

from studygen.render.engine import render_markdown

from ..checks.studies import REVISION, collected_provenance, latency, record
from .test_generic_issue22 import generic
from .test_generic_template import tables_of

OTHER_REVISION = "89abcdef01234567" * 2 + "89abcdef"  # a second commit of the model repository (40 digits)
PROVENANCE_HEADERS = ["Job", "GPU", "Software", "Weights", "Figures"]


def at(revision, **overrides) -> dict:
    """A collected record's provenance at the checkpoint ``revision`` (None: the record states none)."""
    provenance = collected_provenance(**overrides)
    provenance["checkpoint"] = dict(provenance["checkpoint"], revision=revision)
    return provenance


def two_revision_study(tmp_path, records):
    """The toy study allowing :data:`REVISION` (``model.revision``) and :data:`OTHER_REVISION`."""
    model = {"id": "example/toy-detector", "revision": REVISION, "revisions": [OTHER_REVISION], "weights": "pretrained"}
    return generic(tmp_path, records, model=model)


def latency_and_provenance(study) -> tuple[list[list[str]], list[list[str]]]:
    """The README's first latency table and its provenance table, each a list of rows (header first)."""
    tables = tables_of(render_markdown(study))
    return tables[1], tables[-1]  # after the image sets' table; provenance comes last


def test_figures_of_two_revisions_are_two_rows_and_no_ratio_pairs_them(tmp_path):
    # fp32 timed on one model file, fp16 on another: the old table printed them in one row, "1.60x" beside them
    records = [record("a", [latency("fp32", 6.4)], at(REVISION)), record("b", [latency("fp16", 4.0)], at(OTHER_REVISION))]
    table, _ = latency_and_provenance(two_revision_study(tmp_path, records))
    assert table == [["GPU", "Checkpoint revision", "Shape HxW", "Batch", "fp32 (ms)", "fp16 (ms)"],
                     ["H200", "0123456", "800 x 800", "1", "6.4", "—"],
                     ["H200", "89abcde", "800 x 800", "1", "—", "4.0"]]


def test_each_revision_keeps_its_own_ratio(tmp_path):
    # one job per model file, both variants in each: two ratios, never one cell pooling 6.4 and 9.9
    records = [record("a", [latency("fp32", 6.4), latency("fp16", 4.0)], at(REVISION)),
               record("b", [latency("fp32", 9.9), latency("fp16", 3.3)], at(OTHER_REVISION))]
    table, _ = latency_and_provenance(two_revision_study(tmp_path, records))
    assert [line[1:] for line in table[1:]] == [["0123456", "800 x 800", "1", "6.4", "4.0", "1.60x"],
                                                ["89abcde", "800 x 800", "1", "9.9", "3.3", "3.00x"]]


def test_the_provenance_table_lists_each_jobs_revision_and_code_commit(tmp_path):
    records = [record("a", [latency("fp16", 4.0)], at(REVISION, repository_commit="5eed5eed")),
               record("b", [latency("fp16", 3.3)], at(OTHER_REVISION, repository_commit="c0ffee1",
                                                      repository_dirty=True))]
    _, provenance = latency_and_provenance(two_revision_study(tmp_path, records))
    assert [line[:5] for line in provenance] == [["Job", "GPU", "Software", "Checkpoint revision", "Code commit"],
                                                 ["a", "H200", "cuda 13.0, tensorrt 11.4.0.106, torch 2.11.0",
                                                  "0123456", "5eed5eed"],
                                                 ["b", "H200", "cuda 13.0, tensorrt 11.4.0.106, torch 2.11.0",
                                                  "89abcde", "c0ffee1 (dirty)"]]


def test_a_code_commit_that_is_the_revision_is_not_said_twice(tmp_path):
    # logs published with their model file: each record's commit is its checkpoint revision, shortened or not
    records = [record("a", [latency("fp16", 4.0)], at(REVISION, repository_commit=REVISION[:8])),
               record("b", [latency("fp16", 3.3)], at(OTHER_REVISION, repository_commit=OTHER_REVISION))]
    _, provenance = latency_and_provenance(two_revision_study(tmp_path, records))
    assert provenance[0] == ["Job", "GPU", "Software", "Checkpoint revision", "Weights", "Figures"]
    assert [line[3] for line in provenance[1:]] == ["0123456", "89abcde"]


def test_a_record_stating_no_revision_is_a_revision_of_its_own(tmp_path):
    records = [record("a", [latency("fp16", 4.0)], at(REVISION)), record("b", [latency("fp16", 3.3)], at(None))]
    table, provenance = latency_and_provenance(two_revision_study(tmp_path, records))
    assert [line[1] + " " + line[-1] for line in table[1:]] == ["0123456 4.0", "not stated 3.3"]
    assert [line[3] for line in provenance[1:]] == ["0123456", "not stated"]


def test_two_spellings_of_one_commit_are_one_revision(tmp_path):
    # 9 upper-case digits and the whole hash name one commit: one table row pooling both jobs, no revision column
    records = [record("a", [latency("fp16", 4.0)], at(REVISION)),
               record("b", [latency("fp16", 3.3)], at(REVISION[:9].upper()))]
    table, provenance = latency_and_provenance(two_revision_study(tmp_path, records))
    assert table == [["GPU", "Shape HxW", "Batch", "fp16 (ms)"], ["H200", "800 x 800", "1", "3.3 to 4.0 (2 jobs: a, b)"]]
    assert provenance[0] == PROVENANCE_HEADERS


def test_a_study_of_one_revision_prints_no_revision_or_commit_column(tmp_path):
    # the commits differ, the revision does not: the tables stay as they were before revisions were shown
    records = [record("a", [latency("fp16", 4.0)], at(REVISION, repository_commit="5eed5eed")),
               record("b", [latency("fp16", 3.3)], at(REVISION, repository_commit="c0ffee1"))]
    table, provenance = latency_and_provenance(two_revision_study(tmp_path, records))
    assert table[0] == ["GPU", "Shape HxW", "Batch", "fp16 (ms)"]
    assert provenance[0] == PROVENANCE_HEADERS


def test_a_slower_lower_precision_on_two_revisions_is_two_side_findings(tmp_path):
    # the old sentence pooled both model files: "7.0 to 8.5 ms against 6.0 to 6.1 ms (jobs a and b)"
    records = [record("a", [latency("fp32", 6.0), latency("fp16", 7.0)], at(REVISION)),
               record("b", [latency("fp32", 6.1), latency("fp16", 8.5)], at(OTHER_REVISION))]
    markdown = render_markdown(two_revision_study(tmp_path, records))
    assert [line for line in markdown.splitlines() if line.startswith("- fp16 is slower")] == [
        "- fp16 is slower than fp32 on H200 with TensorRT 11.4.0.106 at 800 x 800: 7.0 ms against 6.0 ms (job a).",
        "- fp16 is slower than fp32 on H200 with TensorRT 11.4.0.106 at 800 x 800: 8.5 ms against 6.1 ms (job b)."]


def test_measurements_repeated_at_two_revisions_say_which(tmp_path):
    # two jobs per model file: the two lines of "Same measurement in several jobs" read alike but for the revision
    records = [record("a", [latency("fp16", 4.0)], at(REVISION)), record("b", [latency("fp16", 4.2)], at(REVISION)),
               record("c", [latency("fp16", 5.0)], at(OTHER_REVISION)),
               record("d", [latency("fp16", 5.3)], at(OTHER_REVISION))]
    repeated = tables_of(render_markdown(two_revision_study(tmp_path, records)))[2]
    assert repeated == [["Measurement", "GPU", "TensorRT", "Checkpoint revision", "Value per job", "Spread"],
                        ["fp16 median GPU compute time 800 x 800", "H200", "11.4.0.106", "0123456", "a: 4.0; b: 4.2", "0.2"],
                        ["fp16 median GPU compute time 800 x 800", "H200", "11.4.0.106", "89abcde", "c: 5.0; d: 5.3", "0.3"]]
