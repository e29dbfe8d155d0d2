"""SG225 on a kernel group whose name ends in a word cut short ("conv", "norm") and prose that writes the word out.
Case (a new user's trial, session 28): with a study rule naming the group "residual-block conv", "Residual-block
convolutions take 60% of the RTX 3080's batch-1 kernel time." passed where the profile gives 0.4190 of 0.4527 ms,
92.6 %. The profiles here are made up, shares worked out by hand."""

from __future__ import annotations

from studygen.checks import CheckContext, sg225_kernel_shares

from .studies import collected_provenance, kernel_time, load, record, spec

# RTX 4070: bottleneck conv 1.62 of 2.0 ms = 81 %, layer norm 0.18 = 9 %, other 0.2 = 10 %
PROFILE = record("rtx4070", [kernel_time("fp16", {"bottleneck conv": 1.62, "layer norm": 0.18, "other": 0.2},
                                         total=2.0)], collected_provenance(gpu="NVIDIA GeForce RTX 4070"))


def _messages(tmp_path, summary: str) -> list[str]:
    study = load(tmp_path, records=[PROFILE], study=spec(decision={"shipped": False, "summary": summary}))
    return [f.message for f in sg225_kernel_shares.check(CheckContext(study))]


def test_a_group_name_cut_short_is_read_in_its_whole_word(tmp_path):
    assert _messages(tmp_path, "Bottleneck convolutions take 55% of the RTX 4070's kernel time.") == [
        "/decision/summary gives bottleneck conv 55% of the kernel time, which no profile it names gives: 81.0% in "
        "job rtx4070 (fp16, NVIDIA GeForce RTX 4070)"]
    assert _messages(tmp_path / "norm", "Layer normalization takes a quarter of the kernel time.") != []
    assert _messages(tmp_path / "true", "Bottleneck convolutions take 81% of the RTX 4070's kernel time.") == []
    assert _messages(tmp_path / "true-norm", "Layer normalization takes 9% of the kernel time.") == []


def test_other_is_not_named_by_longer_words(tmp_path):
    # "otherwise" names no group: the share is read against the group the sentence does name
    assert _messages(tmp_path, "Otherwise, bottleneck convs take 81% of the kernel time.") == []
