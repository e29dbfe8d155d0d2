"""The one Markdown formatting call: mdformat with GFM tables, as render writes
READMEs and as SG104 expects committed ones to be.

Formatting a shipped README takes about 0.1 s and ``studygen check`` needs it
twice per family (rendering the README again, and testing that the committed
text is a fixed point), so results are kept in the cache folder
(:func:`studygen.fsutil.cache_folder` ``"markdown"``), named by the sha256 of
the text and of :func:`studygen.memo.code_key` (which changes with the
installed mdformat and its plugins). A pure function of its input is safe to
keep this way. An entry starts with the sha256 of the formatted text it
holds (``sha256 HEX`` and a newline), so a damaged one (cut short, a flipped
byte, a cache restored in part) is recomputed and replaced, never used; so
is one that cannot be read.
"""

from __future__ import annotations

import hashlib

from .fsutil import atomic_write_bytes, cache_folder
from .memo import code_key, read_kept, sealed, unsealed

MDFORMAT_EXTENSIONS = frozenset({"gfm"})
# wrap keep: a line break is the author's; number False: ordered lists keep their numbers.
MDFORMAT_OPTIONS = {"wrap": "keep", "number": False, "end_of_line": "lf"}
CACHE_FOLDER = "markdown"


def format_markdown(text: str) -> str:
    """``text`` as ``mdformat.text(text, extensions={"gfm"}, options=MDFORMAT_OPTIONS)``
    formats it (LF line endings). ``text`` is decoded text (no lone
    surrogates: UnicodeEncodeError). Raises what mdformat raises
    (ImportError when mdformat or mdformat-gfm is not installed)."""
    folder = cache_folder(CACHE_FOLDER)
    path = None
    if folder is not None:
        digest = hashlib.sha256(code_key().encode("ascii") + b"\0" + text.encode("utf-8"))
        path = folder / f"{digest.hexdigest()}.md"
        kept = _verified(read_kept(path))
        if kept is not None:
            return kept
    import mdformat  # heavy (about 0.1 s with its plugins): only when a text is formatted

    formatted = mdformat.text(text, extensions=set(MDFORMAT_EXTENSIONS), options=MDFORMAT_OPTIONS)
    if path is not None:
        try:
            atomic_write_bytes(path, sealed(formatted.encode("utf-8")))
        except OSError:
            pass  # a cache that cannot be written costs time, never a result
    return formatted


def _verified(kept: bytes | None) -> str | None:
    """The formatted text of a kept entry (:func:`studygen.memo.sealed`);
    None for a missing, damaged or undecodable one."""
    body = unsealed(kept)
    if body is None:
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None
