"""records/keys.py: a measurement key is a tuple of what a figure measures;
its text (what waivers name) and its configuration part, written out by hand
for real values (None, NaN, a batch as int, float or string, a revision cut
to 7 characters)."""

from __future__ import annotations

import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studygen.records import keys
from studygen.records.keys import CONFIG_FIELDS, FIELDS, MeasurementKey, software_signature

PARTS = {"family": "deformable_detr", "revision": "83ecd26a1b2c3d4e", "variant": "fp16", "recipe": None,
         "kind": "latency", "metric": "gpu_compute", "statistic": "median", "group": None, "shape": "800x800",
         "batch": 1, "backend": "tensorrt", "mode": "engine", "gpu": "NVIDIA B200", "software": "tensorrt=11.4.0.106",
         "dataset": None}


def key(**changes) -> MeasurementKey:
    """The key of PARTS with ``changes``, made in the test that reads it."""
    return MeasurementKey.of(**{**PARTS, **changes})


def test_text_of_a_latency_key():
    KEY = key()
    assert KEY.text() == (
        "deformable_detr|83ecd26|fp16||latency|gpu_compute|median||800x800|b1|tensorrt|engine|NVIDIA B200|"
        "tensorrt=11.4.0.106|")
    assert KEY.config_text() == "deformable_detr|83ecd26|fp16||latency|gpu_compute|median||800x800|b1|tensorrt|engine|"


def test_the_key_holds_values_and_the_short_revision():
    KEY = key()
    assert KEY.revision == "83ecd26" and KEY.batch == 1 and KEY.variant == "fp16"
    assert MeasurementKey.of(**{**PARTS, "revision": "83ecd26"}) == KEY  # a short and a full hash: one checkpoint
    assert MeasurementKey.of(**{**PARTS, "revision": None}).revision is None


def test_string_batch_and_revision_are_still_made_parts():
    key = MeasurementKey.of(**{**PARTS, "batch": "4", "revision": "0123456789abcdef"})
    assert "|b4|" in key.text() and "|0123456|" in key.text() and "|b4|" in key.config_text()
    assert MeasurementKey.of(**{**PARTS, "batch": "", "revision": ""}).text().startswith("deformable_detr||fp16|")
    assert MeasurementKey.of(**{**PARTS, "batch": 2.0}).text().split("|")[9] == "b2"
    assert MeasurementKey.of(**{**PARTS, "metric": float("nan")}).text().split("|")[5] == ""


def test_the_configuration_leaves_out_gpu_and_software():
    KEY = key()
    assert CONFIG_FIELDS == tuple(f for f in FIELDS if f not in ("gpu", "software"))
    other_platform = KEY._replace(gpu="NVIDIA H200", software="tensorrt=10.3.0")
    assert other_platform != KEY and other_platform.config() == KEY.config()
    assert len(KEY.config()) == len(CONFIG_FIELDS) and "NVIDIA B200" not in KEY.config()
    assert MeasurementKey(*[None] * len(FIELDS)).text() == "|" * (len(FIELDS) - 1)
    assert KEY._replace(revision="0123456789").text().split("|")[1] == "0123456789"  # the text prints what the key holds


def test_the_software_signature_names_the_versions_of_the_backend_in_order():
    provenance = {"software": {"cuda": "12.4", "torch": "2.5.1", "tensorrt": "10.3.0", "modelopt": None,
                               "python": "3.12.3"}}
    assert software_signature(provenance, "pytorch") == "torch=2.5.1,cuda=12.4"  # modelopt null: left out
    assert software_signature(provenance, "tensorrt") == "tensorrt=10.3.0,cuda=12.4"
    # no backend (a quality figure) or one without a list: the versions that change a quality figure
    assert software_signature(provenance, None) == software_signature(provenance, "other") == "torch=2.5.1,tensorrt=10.3.0"
    assert software_signature({}, "tensorrt") == "" and software_signature({"software": None}, None) == ""


def test_a_key_holds_the_first_seven_characters_of_the_revision():
    from studygen.records.keys import short_revision

    assert [short_revision(r) for r in ("0123456789abcdef", "83ecd26", "abc", "", None)] == [
        "0123456", "83ecd26", "abc", "", None]
    key = MeasurementKey.of(**{**dict.fromkeys(FIELDS), "revision": "0123456789abcdef"})
    assert key.revision == "0123456"


@given(st.tuples(*[st.one_of(st.none(), st.text(max_size=3), st.integers(0, 9)) for _ in FIELDS]),
       st.sets(st.sampled_from(FIELDS)))
def test_blanking_gives_what_replace_gives(parts, names):
    key = MeasurementKey(*parts)
    blanked = keys.blanking(*names)(key)
    assert blanked == key._replace(**dict.fromkeys(names)) and type(blanked) is MeasurementKey


def test_blanking_refuses_a_name_that_is_no_field():
    with pytest.raises(ValueError):
        keys.blanking("gpu", "colour")


def test_grouping_rows_blanks_keys_without_replace(monkeypatch):
    """The keys a row is grouped by (its run, its measurement without variant, a profile's run
    configuration, a range's quantity) are picked from the key, not made by ``_replace`` (a call per field)."""
    from studygen.checks import sg207_anomaly
    from studygen.study import analyses, timing

    def refused(self, **changes):
        raise AssertionError(f"_replace({changes})")

    key = MeasurementKey("f", "0123456", "fp8", "r", "latency", "gpu_compute", "median", None, "64x64", 1, "tensorrt",
                         "engine", "NVIDIA L4", "tensorrt=10.8", None)
    row = types.SimpleNamespace(key=key, job_id="j", kind="latency", signature=("tensorrt", "engine", "gpu_compute",
                                                                               False, True, False, None), run=None)
    monkeypatch.setattr(MeasurementKey, "_replace", refused)
    assert timing.run_of(row)[1] == ("f", "0123456", "fp8", "r", "latency", None, None, None, "64x64", 1, "tensorrt",
                                     "engine", "NVIDIA L4", "tensorrt=10.8", None)
    assert timing.variant_free_measurement(row)[0][2:4] == (None, None)
    assert analyses._run_configuration(row)[1][4:8] == (None, None, None, None)
    assert sg207_anomaly._quantity(row)[8] is None and sg207_anomaly._quantity(row)[12:14] == (None, None)
