"""The one Markdown formatting call: mdformat with GFM tables, as render writes
READMEs and as SG104 expects committed ones to be.

Nothing is kept between runs: a formatted text read back from disk could not
be told from a forged one without formatting again (a cache entry rewritten
by someone else would put its text into a README), so every text is
formatted afresh.
"""

from __future__ import annotations

MDFORMAT_EXTENSIONS = frozenset({"gfm"})
# wrap keep: a line break is the author's; number False: ordered lists keep their numbers.
MDFORMAT_OPTIONS = {"wrap": "keep", "number": False, "end_of_line": "lf"}


def format_markdown(text: str) -> str:
    """``text`` as ``mdformat.text(text, extensions={"gfm"}, options=MDFORMAT_OPTIONS)``
    formats it (LF line endings). ``text`` is decoded text (no lone
    surrogates: UnicodeEncodeError). Raises what mdformat raises
    (ImportError when mdformat or mdformat-gfm is not installed)."""
    import mdformat  # heavy (about 0.1 s with its plugins): only when a text is formatted

    return mdformat.text(text, extensions=set(MDFORMAT_EXTENSIONS), options=MDFORMAT_OPTIONS)
