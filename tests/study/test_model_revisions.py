"""The revisions a study file allows its records (model.revision, model.revisions): one rule for collect and SG209."""

from __future__ import annotations

from studygen.study.model_revisions import allowed_revisions, describe_allowed, names_revision, same_revision

FULL = "76321b190daa3755d544922052be109a2172e441"  # 40 hex digits: a whole git commit


def test_allowed_revisions_are_the_named_one_then_the_listed_ones_once_each():
    model = {"revision": "353a4d73", "revisions": ["331d8b23", "353a4d73", "", "331d8b23", FULL]}
    assert allowed_revisions(model) == ["353a4d73", "331d8b23", FULL]
    assert allowed_revisions({"revision": None, "revisions": ["331d8b23"]}) == ["331d8b23"]
    assert allowed_revisions({"revision": "353a4d73"}) == ["353a4d73"]
    assert allowed_revisions({"id": "org/m"}) == [] and allowed_revisions(None) == []


def test_an_abbreviated_hash_of_at_least_7_digits_names_its_commit():
    assert same_revision(FULL, FULL) and same_revision("main", "main")
    assert same_revision(FULL[:7], FULL) and same_revision(FULL, FULL[:7])  # either order
    assert same_revision(FULL[:12].upper(), FULL[:8])  # case aside
    assert not same_revision(FULL[:6], FULL)  # 6 digits: too short to name a commit
    assert not same_revision(FULL[:7], "76321b2")  # neither begins the other
    assert not same_revision(FULL + "0", FULL)  # 41 digits: no git hash
    assert not same_revision("main", "mainline") and not same_revision("v1.0", "v1.0.1")  # names match whole
    assert not same_revision("Main", "main")


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
