"""The revisions a study file allows its records (model.revision, model.revisions): one rule for collect and SG209."""

from __future__ import annotations

from studygen.study.model_revisions import (allowed_revisions, describe_allowed, names_model, names_revision,
                                            revisions_in_view)

FULL = "76321b190daa3755d544922052be109a2172e441"  # 40 hex digits: a whole git commit


def test_allowed_revisions_are_the_named_one_then_the_listed_ones_once_each():
    model = {"revision": "353a4d73", "revisions": ["331d8b23", "353a4d73", "", "331d8b23", FULL]}
    assert allowed_revisions(model) == ["353a4d73", "331d8b23", FULL]
    assert allowed_revisions({"revision": None, "revisions": ["331d8b23"]}) == ["331d8b23"]
    assert allowed_revisions({"revision": "353a4d73"}) == ["353a4d73"]
    assert allowed_revisions({"id": "org/m"}) == [] and allowed_revisions(None) == []


def test_an_abbreviated_hash_of_at_least_7_digits_names_its_commit_unless_it_begins_two():
    model = {"revision": FULL.upper(), "revisions": ["abc1234a" + "0" * 32, "abc1234b" + "0" * 32, "v1.0"]}
    assert names_revision(model, FULL[:7]) and names_revision(model, "ABC1234A") and names_revision(model, "v1.0")
    assert not names_revision(model, "abc1234")  # begins two listed commits: names neither
    assert not names_revision(model, "V1.0") and not names_revision(model, "76321b2")
    # the view decides: a record's abc1234c… makes a listed abc1234 ambiguous
    listed = {"revision": "abc1234"}
    assert names_revision(listed, "ABC1234")
    view = revisions_in_view(listed, ["abc1234c" + "0" * 32, None, ""])
    assert view.hashes == ["abc1234", "abc1234c" + "0" * 32]
    assert names_revision(listed, "abc1234", view) and not names_revision(listed, "abc1234d", view)


def test_names_model_matches_the_study_id_however_spelt_and_skips_unknown():
    model = {"id": "SenseTime/deformable-detr", "local_dir": "checkpoints/ddetr"}
    assert names_model(model, "sensetime/deformable-detr") and names_model(model, "checkpoints/ddetr/")
    assert not names_model(model, "facebook/detr-resnet-50")
    assert names_model(model, "unknown") and names_model(model, None) and names_model(None, "org/x")
    assert names_model({"id": ""}, "org/x")


def test_names_revision_allows_any_revision_only_when_the_study_states_none():
    model = {"revision": "353a4d73", "revisions": [FULL]}
    assert names_revision(model, "353a4d73ffff") and names_revision(model, FULL[:9])
    assert not names_revision(model, "331d8b23")
    assert names_revision({"revision": None}, "331d8b23") and names_revision(None, "anything")
    assert not names_revision({"revision": None, "revisions": [FULL]}, "331d8b23")


def test_describe_allowed_names_each_revision_in_order():
    assert describe_allowed({"revision": "353a4d73"}) == "model revision 353a4d73"
    assert describe_allowed({"revision": "353a4d73", "revisions": [FULL, "353a4d73"]}) == (
        f"model revisions 353a4d73, {FULL}")
