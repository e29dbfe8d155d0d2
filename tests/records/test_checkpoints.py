"""One rule for when two spellings name one checkpoint (records.checkpoints): the revision a key holds, the
revisions a study allows and the model id a record names."""

from __future__ import annotations

from studygen.records.checkpoints import (Revisions, is_git_hash, model_id_form, names_model_id, prefix_of,
                                          short_revision)

FULL = "76321b190daa3755d544922052be109a2172e441"  # 40 hex digits: a whole git commit
TWIN_A = "abc1234a" + "0" * 32  # two commits whose first 7 digits agree
TWIN_B = "abc1234b" + "0" * 32


def test_a_hash_is_7_to_40_hex_digits_of_either_case():
    assert is_git_hash("abc1234") and is_git_hash("ABC1234") and is_git_hash(FULL) and is_git_hash(FULL.upper())
    assert not is_git_hash("abc123") and not is_git_hash(FULL + "0") and not is_git_hash("abc123g")
    assert not is_git_hash(None) and not is_git_hash("")


def test_prefix_of_matches_a_hash_abbreviated_in_either_case_and_a_name_whole():
    assert prefix_of(FULL[:7], FULL) and prefix_of(FULL, FULL[:7]) and prefix_of(FULL[:12].upper(), FULL[:8])
    assert not prefix_of(FULL[:6], FULL) and not prefix_of(FULL[:7], "76321b2")
    assert not prefix_of("main", "mainline") and not prefix_of("Main", "main") and prefix_of("main", "main")


def test_a_key_holds_a_hash_in_lower_case_cut_to_7_digits_and_a_name_whole():
    assert [short_revision(r) for r in (FULL.upper(), "ABC1234", "abc1234", "v1.0.1-rc1", "Main", "", None)] == [
        "76321b1", "abc1234", "abc1234", "v1.0.1-rc1", "Main", "", None]


def test_two_commits_sharing_7_digits_get_keys_one_digit_past_what_they_share():
    view = Revisions([TWIN_A, TWIN_B.upper(), FULL])
    assert view.hashes == sorted([TWIN_A, TWIN_B, FULL])
    assert [view.key(r) for r in (TWIN_A, TWIN_B, TWIN_A[:9].upper(), FULL, "abc1234")] == [
        "abc1234a", "abc1234b", "abc1234a", "76321b1", "abc1234"]
    assert view.key("abc12") == "abc12"  # no hash: a name, whole
    # a shared start longer than 7: one digit past it, never past the revision's own length
    deep = Revisions(["0123456789ab", "0123456789cd"])
    assert deep.key("0123456789ab") == "0123456789a" and deep.key("0123456789") == "0123456"


def test_same_is_equal_keys_so_a_hash_beginning_two_commits_names_neither():
    view = Revisions([TWIN_A, TWIN_B])
    assert view.same("ABC1234A", TWIN_A) and not view.same(TWIN_A, TWIN_B)
    assert not view.same("abc1234", TWIN_A) and not view.same("abc1234", TWIN_B)  # ambiguous
    assert Revisions().same("abc1234", TWIN_A) and Revisions().same(FULL.upper(), FULL[:7])  # nothing else in view
    assert not Revisions().same("v1.0.1-rc1", "v1.0.1-rc2") and not Revisions().same("Main", "main")
    assert view.commits_begun("abc1234") == [TWIN_A, TWIN_B] and view.commits_begun("ABC1234A") == [TWIN_A]
    assert Revisions(["abc1234a", TWIN_A]).commits_begun("abc1234") == [TWIN_A]  # one commit spelt twice: its longest
    assert Revisions(["abc1234"]).commits_begun("ABC1234") == []  # itself is no longer commit


def test_a_hugging_face_id_is_compared_case_aside_and_without_its_address():
    assert model_id_form("https://huggingface.co/SenseTime/Deformable-DETR/") == "sensetime/deformable-detr"
    assert model_id_form("hf://SenseTime/deformable-detr") == "sensetime/deformable-detr"
    assert model_id_form("./checkpoints/My-Model/") == "checkpoints/my-model"  # two parts: read as org/name
    assert model_id_form("/data/Hub/SenseTime/deformable-detr/") == "/data/Hub/SenseTime/deformable-detr"
    assert model_id_form("/data/MODELX//") == "/data/MODELX" and model_id_form("org/MX/") == "org/mx"
    assert names_model_id("sensetime/DEFORMABLE-detr", "SenseTime/deformable-detr")
    assert not names_model_id("SenseTime/deformable-detr-v2", "SenseTime/deformable-detr")
    assert not names_model_id("facebook/detr-resnet-50", "SenseTime/deformable-detr")


def test_a_local_folder_names_the_model_it_holds():
    model = "SenseTime/deformable-detr"
    assert names_model_id("checkpoints/ddetr", model, "./checkpoints/ddetr/")  # the study's local_dir
    assert not names_model_id("checkpoints/other", model, "checkpoints/ddetr")
    assert names_model_id("/data/hub/SenseTime/deformable-detr", model)  # a folder laid out as org/name
    assert names_model_id("hub/sensetime/Deformable-DETR/", model)
    assert names_model_id("/cache/models--SenseTime--deformable-detr/snapshots/83ecd26", model)  # the Hub cache
    assert not names_model_id("/cache/models--facebook--detr-resnet-50/snapshots/1", model)
    assert not names_model_id("/data/hub/other/deformable-detr", model)  # another org's model of that name
    assert not names_model_id("/data/deformable-detr", model)  # a name alone says no org
    assert not names_model_id("/data/hub/my-model", "checkpoints/my-model")  # another folder
    # an id that is no Hugging Face id (a file in a repository) is matched whole, with its case
    assert names_model_id("NVIDIA/samples/model.onnx", "NVIDIA/samples/model.onnx/")
    assert not names_model_id("nvidia/samples/model.onnx", "NVIDIA/samples/model.onnx")
    assert not names_model_id("/data/samples/model.onnx", "NVIDIA/samples/model.onnx")


def test_a_folder_id_is_read_after_its_dot_dot_steps():
    # org/name/.. is the folder org; a Hub cache folder left by .. is not the model; a step back into the model is
    model = "nvidia/resnet50"
    assert model_id_form("nvidia/resnet50/..") == "nvidia" and not names_model_id("nvidia/resnet50/..", model)
    assert not names_model_id("/hf/hub/models--nvidia--resnet50/..", model)
    assert not names_model_id("/hf/hub/models--nvidia--resnet50/../models--evil--x", model)
    assert not names_model_id("/hf/hub/models--nvidia--resnet50/snapshots/../../models--evil--x/snapshots/1", model)
    assert names_model_id("/home/nvidia/resnet50-old/../resnet50", model)
    assert model_id_form("/home/nvidia/resnet50-old/../resnet50") == "/home/nvidia/resnet50"
    assert names_model_id("/ckpt/./model//", "other/name", "/data/../ckpt/model")  # local_dir read the same way
    assert model_id_form("/") == "" and model_id_form("./") == "."


def test_the_outermost_hub_cache_folder_names_the_model():
    # a folder named like another repository's cache folder inside a snapshot is a file of that snapshot
    inside_evil = "/hf/hub/models--evil--x/snapshots/abc/models--nvidia--resnet50"
    assert not names_model_id(inside_evil, "nvidia/resnet50") and names_model_id(inside_evil, "evil/x")
    assert names_model_id("/hf/hub/models--nvidia--resnet50/snapshots/abc/models--evil--x", "nvidia/resnet50")


def test_a_revision_no_git_revision_could_be_is_refused_where_it_is_typed():
    # git-check-ref-format(1): control characters, blanks, ~^:?*[\, '..', '@{', '//', a part beginning with '.'
    # or ending '.lock', a leading or trailing '/', a trailing '.', '@' alone
    import pytest

    from studygen.commands.collect.options import checkpoint_block
    from studygen.commands.new import parse_revisions
    from studygen.errors import UsageError
    from studygen.records.checkpoints import revision_problem

    for good in ("abc1234", FULL.upper(), "v1.0.1-rc1", "refs/pr/1", "main", "feature/x", "ünï"):
        assert revision_problem(good) is None, good
    assert revision_problem("a\x01b") == "holds '\\x01' at character 2, which no git revision holds"
    assert revision_problem("../../etc") == "holds '..' at character 1, which no git revision does"
    assert revision_problem("main@{1}") == "holds '@{' at character 5, which no git revision does"
    # review: "/" and "." are no fault alone: where they stand is, and the words say so
    assert revision_problem("refs/pr/1/") == "begins or ends with '/' at character 10, which no git revision does"
    assert revision_problem("v1.") == "ends with '.' or has a part beginning with '.' at character 3, which no git revision does"
    assert revision_problem("a/.b") == "has a part beginning with '.' at character 2, which no git revision does"
    for bad in ("a b", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "x/.hidden", ".x", "v1.lock", "v1.lock/x",
                "/x", "x/", "a//b", "x.", "@", "a\x7fb"):
        assert revision_problem(bad) is not None, bad
    with pytest.raises(UsageError, match=r"^--revisions: '\.\.' holds '\.\.' at character 1"):
        parse_revisions("abc1234,..", None)
    # review: a short hash beginning two listed commits names neither; new refuses to write it
    with pytest.raises(UsageError, match=r"^--revisions: abc1234 begins 2 of the commits listed \(abc12345, abc12346\), "
                                         r"so it names none of them"):
        parse_revisions("abc12345,abc12346,abc1234", None)
    with pytest.raises(UsageError, match=r"^--revision: 'a\\x01b' holds '\\x01' at character 2"):
        parse_revisions("abc1234", "a\x01b")
    with pytest.raises(UsageError, match=r"^invalid --checkpoint 'org/m@main@\{1\}': revision 'main@\{1\}' holds '@\{'"):
        checkpoint_block("org/m@main@{1}", None)
    assert checkpoint_block("org/m@refs/pr/1", None)["revision"] == "refs/pr/1"
