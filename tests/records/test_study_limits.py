"""Study-file settings that size a computation have a ceiling: a
``bootstrap.resamples`` of 10^12 made noise_verdict ask numpy for
resamples x repeats integers at once (a MemoryError, or the machine's
memory at 10^8). The limit, 10^5, is in the study schema."""

from __future__ import annotations

import pytest

from studygen.errors import RecordError
from studygen.render.view import StudyView
from studygen.study import load_study
from tests.checks.studies import latency, record, spec, write_project

RECORDS = [record("a", [latency("fp16", 5.0, repeats=[5.0, 5.1, 4.9, 5.05]),
                        latency("fp8", 4.0, repeats=[4.0, 4.1, 3.9, 4.02])])]


@pytest.mark.parametrize("name", ["resamples", "ap_resamples"])
@pytest.mark.parametrize("count", [100_001, 10**12])
def test_a_resample_count_past_the_limit_is_refused_at_its_line(tmp_path, name, count):
    study_dir = write_project(tmp_path, records=RECORDS, study=spec(bootstrap={name: count}))
    with pytest.raises(RecordError) as caught:
        load_study(study_dir, tmp_path)
    assert f"{count} is greater than the maximum of 100000 (/bootstrap/{name})" in str(caught.value)
    assert caught.value.place.line > 0


def test_the_limit_itself_gives_a_verdict(tmp_path):
    study_dir = write_project(tmp_path, records=RECORDS, study=spec(bootstrap={"resamples": 100_000}))
    text = StudyView(load_study(study_dir, tmp_path)).noise_verdict("fp16", "fp8")
    # medians 5.025 and 4.01 of the repeats: FP8 minus fp16 is -1.015 ms
    assert text.startswith("FP8 minus fp16: -1.015 ms") and "100000 resamples" in text
