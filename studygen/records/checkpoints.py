"""When two spellings name one checkpoint: its revision and its model id.

One rule each, for every layer that asks: the measurement key
(:mod:`studygen.records.keys`), the study file's allowed revisions and model
(:mod:`studygen.study.model_revisions`), which ``collect`` refuses a
``--checkpoint`` with and SG209 holds records to.

**Revisions.** A git commit (a Hugging Face revision is one) is written as
hex digits, full (40) or abbreviated (at least 7, as git prints it), in
either case: hex is a number, so ``ABC1234`` and ``abc1234`` name one
commit. Two hashes name one commit when the shorter begins the longer, case
aside, and only when that is unambiguous among the revisions in view (a
study's): ``abc1234`` does not name ``abc1234a…`` when ``abc1234b…`` is in
view too, since it begins both. Any other revision (a branch, a tag) is a
name, matched whole and with its case. A measurement key holds
:meth:`Revisions.key`: a hash in lower case, cut to 7 digits, or longer
where two commits in view share those 7 (git lengthens its abbreviations
the same way); a name whole. Two revisions name one checkpoint exactly when
their keys are equal (:meth:`Revisions.same`).

**Model ids.** A record names its model by ``provenance.checkpoint.id``:
``collect run`` writes the study file's ``model.id`` (and ``local_dir``,
the folder it loaded), an ingest the id its ``--checkpoint`` gives. A Hugging
Face id ``org/name`` is matched case aside, as the Hub resolves it, with
or without its ``https://huggingface.co/`` address; a local folder matches
the study's model when it is the study's ``model.local_dir``, ends in the
model's ``org/name``, or lies in the Hub cache's ``models--org--name``
(:func:`names_model_id`). Source: git-rev-parse(1) (abbreviated object
names), the Hugging Face Hub's repository ids and cache layout
(huggingface_hub ``snapshot_download``).
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable
from pathlib import PurePosixPath

from ..patterns import lazy_compile

GIT_HASH = re.compile(r"[0-9a-fA-F]{7,40}")
SHORT_DIGITS = 7  # digits of a hash a key keeps, as git's short form, when no other commit in view shares them
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*")  # org/name
HUB_ADDRESSES = ("https://huggingface.co/", "http://huggingface.co/", "huggingface.co/", "hf://")
HUB_CACHE = lazy_compile(r"models--(?P<org>[^/]+?)--(?P<name>[^/]+)")  # the Hub cache's folder of org/name


def is_git_hash(revision) -> bool:
    """Whether ``revision`` is written as a git commit: 7 to 40 hex digits, either case."""
    return isinstance(revision, str) and GIT_HASH.fullmatch(revision) is not None


# What git check-ref-format(1) refuses in a ref name (a branch or tag): ASCII control characters, blanks and
# ~ ^ : ? * [ \\ anywhere, "..", "@{", "//", a part beginning with "." or ending in ".lock", a name beginning
# or ending with "/" or ending with ".", the name "@" alone
_REF_CHARACTERS = lazy_compile(r"[\x00-\x20\x7f~^:?*\[\\]")
_REF_SEQUENCES = lazy_compile(r"\.\.|@\{|//|(?:^|/)\.|\.lock(?:/|$)|^/|/$|\.$|^@$")


def revision_problem(revision: str) -> str | None:
    """Why ``revision`` can name no checkpoint revision (a git commit, or a
    branch or tag of the model repository, which a Hugging Face revision
    is), as words for a refusal; None when it can. Source: git-check-ref-format(1)."""
    bad = _REF_CHARACTERS.search(revision)
    if bad:
        return f"holds {bad.group()!r} at character {bad.start() + 1}, which no git revision holds"
    odd = _REF_SEQUENCES.search(revision)
    if odd:
        return f"{_SEQUENCE_WORDS.get(odd.group(), f'holds {odd.group()!r}')} at character {odd.start() + 1}, " \
               "which no git revision does"
    return None


# How a refusal words the sequences of _REF_SEQUENCES that are no fault alone ("/" and "." are; where they stand is not)
_SEQUENCE_WORDS = {"/": "begins or ends with '/'", ".": "ends with '.' or has a part beginning with '.'",
                   "/.": "has a part beginning with '.'"}


def prefix_of(first: str, second: str) -> bool:
    """Whether two revisions could name one commit on their own: equal, or
    both hashes and the shorter begins the longer, case aside (no view of
    other revisions: :class:`Revisions` decides ambiguity)."""
    if first == second:
        return True
    if not (is_git_hash(first) and is_git_hash(second)):
        return False
    first, second = first.lower(), second.lower()
    return first.startswith(second) or second.startswith(first)


class Revisions:
    """The revisions in view (a study's: its study file's and its records'),
    and the key each one gets among them (see the module docstring).

    The view's hashes are kept sorted, so a key asks at most a few of them
    (:meth:`key`): a study listing thousands of revisions keys each in
    logarithmic time, not by a pass over the others."""

    def __init__(self, known: Iterable = ()):
        self.hashes = sorted({revision.lower() for revision in known if is_git_hash(revision)})

    def key(self, revision, extra: Iterable = ()):
        """``revision`` as a measurement key holds it: a name whole; a hash
        lower-cased and cut to :data:`SHORT_DIGITS` digits, or to one digit
        past the longest start it shares with a hash in view (and in
        ``extra``, revisions counted in view for this call) that names
        another commit (never past its own length). None or empty as given."""
        if not is_git_hash(revision):
            return revision
        revision = revision.lower()
        shared = max((_common_start(revision, other) for other in self._nearest_others(revision)), default=0)
        for other in extra:
            if is_git_hash(other) and not prefix_of(revision, other):
                shared = max(shared, _common_start(revision, other.lower()))
        return revision[:min(max(SHORT_DIGITS, shared + 1), len(revision))]

    def _nearest_others(self, revision: str) -> list[str]:
        """The hashes in view just before and just after the lower-case hash
        ``revision`` in sorted order, passing over those it begins or that
        begin it: in sorted order the start two hashes share only shrinks
        with the distance between them, so these share the longest start
        with ``revision`` of all hashes in view that name another commit."""
        start = bisect_left(self.hashes, revision)
        end = bisect_left(self.hashes, revision + "g", start)  # past the hashes ``revision`` begins (hex < 'g')
        before = start - 1
        while before >= 0 and revision.startswith(self.hashes[before]):  # at most one per length, 7 to 40
            before -= 1
        return [self.hashes[index] for index in (before, end) if 0 <= index < len(self.hashes)]

    def same(self, first: str, second: str) -> bool:
        """Whether ``first`` and ``second`` name one checkpoint: equal keys
        among the hashes in view and these two (a hash that begins two
        commits in view names neither)."""
        pair = (first, second)
        return self.key(first, pair) == self.key(second, pair)

    def add(self, revision) -> None:
        """Count ``revision`` in view from now on (a name, or one already in
        view, changes nothing)."""
        if is_git_hash(revision) and not self._holds(revision.lower()):
            insort(self.hashes, revision.lower())

    def relatives(self, revision) -> list[str]:
        """The hashes in view that ``revision`` begins or that begin it, case
        aside, itself included: the only ones that can name its commit
        (:meth:`same`). Empty for a name."""
        if not is_git_hash(revision):
            return []
        revision = revision.lower()
        start = bisect_left(self.hashes, revision)
        begun = self.hashes[start:bisect_left(self.hashes, revision + "g", start)]
        beginnings = (revision[:digits] for digits in range(SHORT_DIGITS, len(revision)))
        return [beginning for beginning in beginnings if self._holds(beginning)] + begun

    def _holds(self, lower_hash: str) -> bool:
        """Whether the lower-case hash ``lower_hash`` is in view."""
        index = bisect_left(self.hashes, lower_hash)
        return index < len(self.hashes) and self.hashes[index] == lower_hash

    def commits_begun(self, revision: str) -> list[str]:
        """The commits in view that ``revision`` begins, each by its longest
        spelling (two or more: ``revision`` is ambiguous)."""
        if not is_git_hash(revision):
            return []
        revision = revision.lower()
        start = bisect_right(self.hashes, revision)  # the hashes longer than ``revision`` that it begins follow it
        longer = self.hashes[start:bisect_left(self.hashes, revision + "g", start)]
        # a hash that begins another is followed at once by one it begins
        return [other for index, other in enumerate(longer)
                if index + 1 == len(longer) or not longer[index + 1].startswith(other)]


def _common_start(first: str, second: str) -> int:
    """How many leading characters ``first`` and ``second`` share (character by character, as
    ``os.path.commonprefix`` compares any strings)."""
    return len(posixpath.commonprefix([first, second]))


def short_revision(revision):
    """A revision as a key holds it with no other revision in view (one
    record's): :meth:`Revisions.key` of an empty view."""
    return Revisions().key(revision)


def model_id_form(checkpoint_id: str) -> str:
    """A Hugging Face id in the form it is compared in: its Hub address
    dropped, trailing slashes trimmed, lower case (the Hub resolves ids case
    aside). Anything else (a local folder) normalised as written, without
    asking the disk (``posixpath.normpath``: ``./``, doubled and trailing
    slashes and each ``name/..`` step dropped), so ``org/name/..`` is the
    folder ``org``, not the model."""
    text = checkpoint_id.strip()
    for address in HUB_ADDRESSES:
        if text.lower().startswith(address):
            text = text[len(address):]
            break
    # a folder as written: ./, //, a trailing / and name/.. steps dropped ("/" alone trimmed to nothing)
    text = posixpath.normpath(text) if text.rstrip("/") else ""
    return text.lower() if HUB_ID.fullmatch(text) else text


def names_model_id(checkpoint_id: str, model_id: str, local_dir: str | None = None) -> bool:
    """Whether a record's ``checkpoint_id`` names the study file's model
    (``model_id``, its folder ``local_dir``): the same id
    (:func:`model_id_form`), the study's local folder, a folder ending in the
    model's ``org/name`` (case aside) or the Hub cache's folder of it."""
    record, model = model_id_form(checkpoint_id), model_id_form(model_id)
    if record == model:
        return True
    path = PurePosixPath(record)
    if local_dir and path == PurePosixPath(model_id_form(local_dir)):
        return True
    if "/".join(path.parts[-2:]).lower() == model:  # …/org/name (model_id_form lower-cases a Hub id)
        return True
    # the Hub cache's folder itself or a folder inside it (its snapshots): the outermost such folder decides,
    # one of that name further in is a file of that repository
    cache = next(filter(None, (HUB_CACHE.fullmatch(part) for part in path.parts)), None)
    return cache is not None and f"{cache['org']}/{cache['name']}".lower() == model
