"""records/keys.py: the measurement and configuration keys of a flattened row,
written out by hand for real row values (None, NaN, a batch as int, float or
string, a revision cut to 7 characters), and the one-pass form
measurement_and_config_keys equal to key_string over both field lists."""

from __future__ import annotations

from studygen.records.keys import CONFIG_FIELDS, FIELDS, key_string, measurement_and_config_keys

ROW = {"family": "deformable_detr", "revision": "83ecd26a1b2c3d4e", "variant": "fp16", "recipe": None, "kind": "latency",
       "metric": "gpu_compute", "statistic": "median", "group": None, "shape": "800x800", "batch": 1,
       "backend": "tensorrt", "mode": "engine", "gpu": "NVIDIA B200", "software": "tensorrt=11.4.0.106",
       "dataset": None}


def test_keys_of_a_latency_row():
    assert measurement_and_config_keys(ROW) == (
        "deformable_detr|83ecd26|fp16||latency|gpu_compute|median||800x800|b1|tensorrt|engine|NVIDIA B200|tensorrt=11.4.0.106|",
        "deformable_detr|83ecd26|fp16||latency|gpu_compute|median||800x800|b1|tensorrt|engine|")


def test_string_batch_and_revision_are_still_made_parts():
    row = {**ROW, "batch": "4", "revision": "0123456789abcdef"}
    measurement, config = measurement_and_config_keys(row)
    assert "|b4|" in measurement and "|0123456|" in measurement and "|b4|" in config
    assert measurement_and_config_keys({**ROW, "batch": "", "revision": ""})[0].startswith("deformable_detr||fp16|")


def test_one_pass_keys_equal_key_string_over_both_field_lists():
    rows = [ROW, {**ROW, "batch": 2.0, "gpu": None, "metric": float("nan")}, {**ROW, "revision": 1234567890},
            {name: None for name in FIELDS}, {}, {**ROW, "batch": "8", "shape": ""}]
    for row in rows:
        assert measurement_and_config_keys(row) == (key_string(row, FIELDS), key_string(row, CONFIG_FIELDS)), row
    assert measurement_and_config_keys({**ROW, "metric": float("nan")})[0].split("|")[5] == ""
