"""A study listing thousands of checkpoint revisions: each key, SG209's and collect's question
(names_revision) and new's --revisions list stay fast, and answer as the rule's plain reading does.

The plain reading (below, written from the module docstring of records.checkpoints) compares a revision
with every hash in view; the shipped rule asks only its sorted neighbours. Before, the shipped code was the
plain reading: 5,000 revisions took about 27 s of CPU to key and `studygen new --revisions` with 2,500 took
two minutes (10,000: hours)."""

from __future__ import annotations

import random
import time

import pytest

from studygen.commands.new import parse_revisions
from studygen.errors import UsageError
from studygen.records.checkpoints import Revisions, is_git_hash
from studygen.study.model_revisions import names_revision


def plain_key(revision, view: list[str]):
    """A hash lower-cased, 7 digits or one past the longest start it shares with a hash in ``view`` that
    neither begins it nor is begun by it; a name whole."""
    if not is_git_hash(revision):
        return revision
    revision, digits = revision.lower(), 7
    for other in {o.lower() for o in view if is_git_hash(o)}:
        if not (other.startswith(revision) or revision.startswith(other)):
            shared = next((i for i, (a, b) in enumerate(zip(revision, other)) if a != b), min(len(revision), len(other)))
            digits = max(digits, shared + 1)
    return revision[:min(digits, len(revision))]


def plain_begun(revision: str, view: list[str]) -> list[str]:
    if not is_git_hash(revision):
        return []  # a name begins nothing
    longer = sorted({o.lower() for o in view if is_git_hash(o) and o.lower().startswith(revision.lower())
                     and len(o) > len(revision)})
    return [o for o in longer if not any(p != o and p.startswith(o) for p in longer)]


def clustered_hashes(rng: random.Random, count: int) -> list[str]:
    """Hashes over the digits 0 and 1 after a shared start, in both cases and lengths 7 to 12: many share
    long starts and many begin one another."""
    out = []
    for _ in range(count):
        text = "abc" + "".join(rng.choice("01") for _ in range(rng.randint(4, 9)))
        out.append(text.upper() if rng.random() < 0.3 else text)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_keys_sameness_and_commits_begun_equal_the_plain_reading(seed):
    rng = random.Random(seed)
    view_list = clustered_hashes(rng, 60) + ["main", "v1.0"]
    view = Revisions(view_list)
    probes = clustered_hashes(rng, 40) + view_list[:20] + ["main", "Main", "abc01", None, ""]
    for revision in probes:
        assert view.key(revision) == plain_key(revision, view_list), revision
        if revision:
            assert view.commits_begun(revision) == plain_begun(revision, view_list), revision
    for first, second in zip(probes, reversed(probes)):
        if first and second:
            both = [*view_list, first, second]
            assert view.same(first, second) == (plain_key(first, both) == plain_key(second, both)), (first, second)


def plain_parse(items: list[str], revision: str | None) -> list[str] | str:
    """new's --revisions refusal as the plain reading states it: the first earlier revision whose key equals
    the item's among those named so far and the item."""
    named: list[str] = []
    for item in items:
        earlier = [r for r in (revision, *named) if r]
        view = [*earlier, item]
        twin = next((o for o in earlier if plain_key(o, view) == plain_key(item, view)), None)
        if twin is not None:
            return twin
        named.append(item)
    return named


@pytest.mark.parametrize("seed", range(20))
def test_new_refuses_the_twin_the_plain_reading_names(seed):
    rng = random.Random(100 + seed)
    items = clustered_hashes(rng, rng.randint(2, 12))
    revision = rng.choice([None, "abc0101", "ABC1010", "main"])
    expected = plain_parse(items, revision)
    if isinstance(expected, list):
        assert parse_revisions(",".join(items), revision) == expected
    else:
        with pytest.raises(UsageError) as refused:
            parse_revisions(",".join(items), revision)
        assert f"gives as {expected};" in str(refused.value)


def test_thousands_of_revisions_stay_fast():
    hashes = [f"{random.Random(n).getrandbits(160):040x}" for n in range(5000)]
    model = {"revision": hashes[0], "revisions": hashes[1:]}
    started = time.process_time()
    view = Revisions(hashes)
    keys = {view.key(h) for h in hashes}
    assert len(keys) == 5000 and all(7 <= len(k) <= 9 for k in keys)  # 5,000 random commits: 7 digits, a few 8 or 9
    assert time.process_time() - started < 1.0
    started = time.process_time()
    assert all(names_revision(model, h[:12].upper(), view) for h in hashes[::50])  # 100 records
    assert not names_revision(model, "f" * 40, view)
    assert time.process_time() - started < 1.0
    started = time.process_time()
    assert parse_revisions(",".join(hashes[1:]), hashes[0]) == hashes[1:]
    with pytest.raises(UsageError, match=f"{hashes[7][:9].upper()} names the checkpoint --revisions gives as"):
        parse_revisions(",".join([*hashes[1:], hashes[7][:9].upper()]), hashes[0])
    assert time.process_time() - started < 1.0


def test_a_view_counts_a_hash_once_in_either_case_and_reads_the_pair_case_aside():
    view = Revisions(["abc1234"])
    view.add("ABC1234")
    view.add("abc1234")
    view.add("main")
    assert view.hashes == ["abc1234"]
    view.add("ABC1234F")
    assert view.hashes == ["abc1234", "abc1234f"] and view.relatives("ABC1234") == ["abc1234", "abc1234f"]
    # two commits sharing 7 digits, one in upper case, neither in view: the pair alone tells them apart
    first, second = "ABC1234A" + "0" * 32, "abc1234b" + "0" * 32
    assert not Revisions().same(first, second) and Revisions().key(first, (first, second)) == "abc1234a"
