"""How a row label (a GPU's name, a variant's label) is named in text, for
lint (:mod:`studygen.lint.row_axis`) and the checks that read a README's
prose (SG204, SG206 through :mod:`studygen.checks.readme_text`): one
pattern, below both, so that a check reads a label as lint does without
importing the linter.
"""

from __future__ import annotations

import re

from .patterns import lazy_compile

# Words a GPU's name may open with or leave out: "GeForce GTX 1070" is the "GTX 1070" row and the other way round
VENDOR_WORDS = ("geforce", "nvidia", "tesla", "quadro", "jetson")
_VENDOR_PREFIX = r"(?:(?:" + "|".join(VENDOR_WORDS) + r")[\s-]+)*"
_LABEL_GAP_RE = lazy_compile(r"[\s-]+")


def label_pattern(label: str) -> tuple[tuple[str, ...], str]:
    """(the words a text must hold, the regex) that names ``label`` (lower
    case) whole-word: words parted by space, hyphen or nothing (two numbers
    by a space or hyphen), opening vendor words (:data:`VENDOR_WORDS`) optional:
    ``label_pattern("nvidia geforce rtx 3090")`` names "RTX 3090", "rtx-3090",
    "GeForce RTX3090". SG206 matches a GPU a configuration names with it."""
    words = [word for word in _LABEL_GAP_RE.split(label) if word]
    while len(words) > 1 and words[0] in VENDOR_WORDS:
        words.pop(0)
    pattern = re.escape(words[0])
    for before, word in zip(words, words[1:]):
        gap = r"[\s-]+" if before[-1].isdigit() and word[0].isdigit() else r"[\s-]*"
        pattern += gap + re.escape(word)
    return tuple(words), r"(?<![\w.+-])" + _VENDOR_PREFIX + pattern + r"(?![\w+]|-\w)"


__all__ = ["VENDOR_WORDS", "label_pattern"]
