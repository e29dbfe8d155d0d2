"""How a study's rows are made (studygen/study/rows.py, Study.rows): the
checkpoint revision's key is made once per revision a study's records
state, not once a record, and every row still holds the key its own
record's revision gets among the study's revisions."""

from __future__ import annotations

from studygen.records.checkpoints import Revisions
from tests.checks.studies import REVISION, collected_provenance, latency, load, record


def provenance_with(revision):
    provenance = collected_provenance()
    provenance["checkpoint"] = dict(provenance["checkpoint"], revision=revision)
    return provenance


def test_a_revision_key_is_made_once_per_revision(tmp_path, monkeypatch):
    # 40 records of the study's revision (two spellings: full and short), 5 of another commit, 3 stating none
    other = "fedcba9876543210fedcba9876543210fedcba98"
    stated = [REVISION] * 30 + [REVISION[:7]] * 10 + [other] * 5 + [None] * 3
    records = [record(f"job-{index:02d}", [latency("fp16", 5.0 + index / 100)], provenance_with(revision))
               for index, revision in enumerate(stated)]
    study = load(tmp_path, records=records)
    asked = []
    made = Revisions.key
    monkeypatch.setattr(Revisions, "key", lambda self, revision, extra=(): asked.append(revision) or made(self, revision, extra))
    rows = study.rows
    assert sorted(asked, key=str) == sorted([REVISION, REVISION[:7], other, None], key=str)  # before: 48, one a record
    assert [row.key.revision for row in rows] == [REVISION[:7]] * 40 + [other[:7]] * 5 + [None] * 3
    assert [row.revision for row in rows] == stated  # the record's own spelling, as before


def test_a_studys_compute_timings_are_picked_once_for_every_check(tmp_path, monkeypatch):
    """SG207 and SG208 both judge each run by its compute timing; the runs
    are worked out once a study (Study.compute_timing_rows), not once per check."""
    from studygen.checks import run_checks
    from studygen.study import timing

    # two jobs, fp16 and fp32 (no FP8: SG215 asks no run), each a GPU compute time and a host latency
    records = [record(job, [latency(variant, value), latency(variant, value + 0.5, timing="host_latency")])
               for job, variant, value in (("a", "fp16", 5.0), ("b", "fp32", 4.0))]
    study = load(tmp_path, records=records)
    asked = []
    run_of = timing.run_of
    monkeypatch.setattr(timing, "run_of", lambda row: asked.append((row.job_id, row.metric)) or run_of(row))
    findings = run_checks(study)
    assert [f.code for f in findings if f.code in ("SG207", "SG208")] == ["SG208"]  # fp16 5.0 ms slower than fp32 4.0
    assert sorted(asked) == [("a", "gpu_compute"), ("a", "host_latency"), ("b", "gpu_compute"), ("b", "host_latency")]


def test_a_value_row_is_made_by_position(tmp_path, monkeypatch):
    """A row holding one value (nearly every row) is made without keywords,
    which took a third of its making; its fields are as by name (read off the record)."""
    from studygen.study import rows as rows_module

    study = load(tmp_path, records=[record("a", [latency("fp8", 4.125)])])
    made = []
    row_class = rows_module.Row
    monkeypatch.setattr(rows_module, "Row", lambda *args, **named: made.append(sorted(named)) or row_class(*args, **named))
    (row,) = study.rows
    assert made == [[]]  # before: decimals, display_decimals, precision, unit by keyword
    assert (row.pointer, row.value, row.value_min, row.value_max, row.range_over, row.decimals, row.display_decimals,
            row.unit, row.precision) == ("/results/0/value_ms", 4.125, None, None, None, 3, None, "ms", "fp8")
