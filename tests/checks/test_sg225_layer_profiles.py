"""SG225 on TensorRT layer profiles of one engine at two checkpoint revisions (a new user's trial, session 29: the
exports NVIDIA's engine explorer ships for a QAT MobileNet at two commits). "Convolutions take 90% of the ... profiled
layer time" passed where the profile gives 79.6 % (layer time was no kernel time); "9.6% of the TITAN RTX engine's
layer time" passed with the other commit's share (a TITAN RTX named no GPU); "5 times slower in the 26210e92 engine
than in the 7a07608d engine" passed where the ratio is 15.3 (a revision named no run); a range written from the high
end down ("shrink from 0.06234 ms to 0.004068 ms") was an error though it gives both profiles' ends."""

from __future__ import annotations

from studygen.checks import CheckContext, sg225_kernel_shares
from studygen.checks.prose_clauses import GPU_MODEL, revisions_named

from .studies import collected_provenance, kernel_time, load, record, spec

TEMPLATE = "{{ generated_note }}\n\n# {{ study.title }}\n\n{{ study.spec.decision.summary }}\n"
OLD, NEW = "c0ffee1234", "5eed2468ab"
# Layer time per group worked out by hand, both on one TITAN V:
# c0ffee1: conv 0.30, quantize 0.10, reformat 0.10 of 0.50 ms = 60 %, 20 %, 20 %
# 5eed246: conv 0.32, quantize 0.04, reformat 0.04 of 0.40 ms = 80 %, 10 %, 10 %
# reformat (and quantize) 0.10 / 0.04 = 2.5x; total 0.50 / 0.40 = 1.25x
PROFILES = (("titanv-old", OLD, {"conv": 0.30, "quantize": 0.10, "reformat": 0.10}, 0.50),
            ("titanv-new", NEW, {"conv": 0.32, "quantize": 0.04, "reformat": 0.04}, 0.40))


def findings(tmp_path, summary, gpus=("NVIDIA TITAN V", "NVIDIA TITAN V")):
    records = []
    for (job, revision, groups, total), gpu in zip(PROFILES, gpus):
        provenance = collected_provenance(gpu=gpu)
        provenance["checkpoint"] = dict(provenance["checkpoint"], revision=revision)
        records.append(record(job, [kernel_time("fp16", groups, total=total)], provenance))
    model = dict(spec()["model"], revision=OLD, revisions=[NEW])
    study = load(tmp_path, records=records, template=TEMPLATE,
                 study=spec(model=model, decision={"shipped": False, "summary": summary}))
    return sg225_kernel_shares.check(CheckContext(study))


def test_a_share_of_the_profiled_layer_time_is_read(tmp_path):
    (finding,) = findings(tmp_path, "Convolutions take 70% of the profiled layer time.")
    assert finding.message == ("/decision/summary gives conv 70% of the kernel time, which no profile gives: "
                               "80.0% in job titanv-new (fp16, NVIDIA TITAN V); 60.0% in job titanv-old (fp16, "
                               "NVIDIA TITAN V)")
    assert findings(tmp_path / "b", "Convolutions take 80% of the layer time.") == []


def test_a_revision_names_its_profile(tmp_path):
    # 20 % is the c0ffee1 engine's quantize share; the 5eed246 engine's is 10 %
    (finding,) = findings(tmp_path, "In the 5eed246 engine, quantize layers take 20% of the kernel time.")
    assert finding.message.endswith("which no profile it names gives: 10.0% in job titanv-new (fp16, NVIDIA TITAN V)")
    assert findings(tmp_path / "b", "In the c0ffee12 engine, quantize layers take 20% of the kernel time.") == []
    # a hash that begins no revision (the code's commit) names no run: either share holds
    assert findings(tmp_path / "c", "Built from abcdef1, quantize layers take 10% of the kernel time.") == []


def test_a_multiple_between_two_revisions_or_two_jobs_is_read(tmp_path):
    (finding,) = findings(tmp_path, "Reformat layers take 4 times as long in the c0ffee1 engine as in the 5eed246 one.")
    assert "0.40x (job titanv-new against titanv-old)" in finding.message
    assert findings(tmp_path / "b", "Reformat layers take 2.5 times as long in the c0ffee1 engine as in the 5eed246 "
                                    "one.") == []
    (finding,) = findings(tmp_path / "c", "Job titanv-old needs 1.6x the layer time of job titanv-new.")
    assert "1.25x" in finding.message or "0.80x" in finding.message
    assert findings(tmp_path / "d", "Job titanv-old needs 1.25x the layer time of job titanv-new.") == []


def test_a_range_written_from_its_high_end_down_holds(tmp_path):
    assert findings(tmp_path, "Reformat time falls from 0.10 to 0.04 ms between the two engines.") == []
    assert findings(tmp_path / "b", "Reformat time falls from 0.10 to 0.05 ms between the two engines.") != []


def test_a_titan_named_by_a_word_names_its_profile(tmp_path):
    gpus = ("NVIDIA TITAN RTX", "NVIDIA TITAN V")
    (finding,) = findings(tmp_path, "On the TITAN RTX, reformat layers take 10% of the kernel time.", gpus=gpus)
    assert finding.message.endswith("no profile it names gives: 20.0% in job titanv-old (fp16, NVIDIA TITAN RTX)")
    assert [m.group(1) for m in GPU_MODEL.finditer("a TITAN RTX, a TITAN V, a TITAN Xp and a TITAN X")] == [
        "TITAN RTX", "TITAN V", "TITAN Xp", "TITAN X"]
    assert [m.group(1) for m in GPU_MODEL.finditer("TITAN VISION, TITAN Voyager")] == []


def test_revisions_named():
    revisions = {OLD, NEW, None, "v1.2"}
    assert revisions_named("the c0ffee1 and 5EED2468AB engines", revisions) == {OLD, NEW}
    assert revisions_named("commit c0ffee9876", revisions) == set()  # begins neither, neither begins it
    assert revisions_named("commit C0FFEE1234AB", revisions) == {OLD}  # a longer hash the revision begins
    assert revisions_named("the c0ffee engine", revisions) == set()  # 6 digits: too short to name a commit
    assert revisions_named("the deadbeef engine", {"deadbeef"}) == set()  # no digit: a word, not a hash


def test_a_percentage_change_between_two_runs_is_held_to_its_base(tmp_path):
    # totals 0.50 and 0.40 ms: 20% less (of the larger, 0.50), 25% more (of the smaller); reformat 0.10 and 0.04 ms:
    # 60% less, 150% more
    passing = ["Layer time fell by 20% from the c0ffee1 engine to the 5eed246 engine.",
               "The 5eed246 engine's layer time is 20% below the c0ffee1 engine's.",
               "The c0ffee1 engine needs 25% more layer time than the 5eed246 engine.",
               "Reformat layers take about 61% less time in the 5eed246 engine than in the c0ffee1 engine.",
               "Job titanv-old is 25% slower in total than job titanv-new.",  # a speed's change or a time's
               "Job titanv-old is 20% slower in total than job titanv-new.",
               "Over 15% less layer time in the 5eed246 engine than in the c0ffee1 engine.",  # bounded: not read
               "Reformat layers take 10% of the 5eed246 engine's layer time."]  # a share, the share reader's
    for index, summary in enumerate(passing):
        assert findings(tmp_path / str(index), summary) == [], summary
    (finding,) = findings(tmp_path / "wrong-base", "Layer time fell by 25% from the c0ffee1 engine to the 5eed246 "
                                                   "engine.")
    assert finding.message == ("/decision/summary says 'fell by 25%' of the kernel time of 5eed2468ab and c0ffee1234, "
                               "which the profiles give as 20.0% less or 25.0% more (job titanv-new against "
                               "titanv-old)")
    (finding,) = findings(tmp_path / "rise", "The c0ffee1 engine needs 20% more layer time than the 5eed246 one.")
    assert finding.key == "/decision/summary total 20% more"
    assert len(findings(tmp_path / "group", "Reformat time saw a cut of 40% from the c0ffee1 engine to the 5eed246 "
                                            "engine.")) == 1


def test_a_percentage_followed_by_of_is_a_share_not_a_change(tmp_path):
    # "saved 45% of the layer time": the share reader's (reformat takes 20% and 10%), never also a change
    (finding,) = findings(tmp_path, "Reformat layers saved 45% of the layer time between the c0ffee1 and 5eed246 "
                                    "engines.")
    assert finding.key == "/decision/summary reformat 45%"
