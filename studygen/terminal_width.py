"""The width of a text in terminal columns as ``wcwidth.wcswidth`` (wcwidth
0.7, pinned) measures it, without importing wcwidth for the texts whose
width is their length: the cells of nearly every table render and the
formatter lay out. Importing wcwidth took 6.6 ms of each ``check`` and
``render`` (least of ten ``-X importtime`` runs on the idle machine; 11 ms
at load average 1.8).

A text's width is its length when every character of it is printable ASCII
or one of :data:`NARROW_SYMBOLS`. For printable ASCII that is wcswidth's own
first step. For the rest, wcswidth walks the text character by character:
each character adds its ``wcwidth`` unless it is a zero-width joiner
(U+200D), a variation selector-16 (U+FE0F) after a character, a regional
indicator or skin-tone modifier (both above U+FFFF), a consonant after a
virama, or a character of width 0 (a virama, a spacing mark). Every
character of :data:`NARROW_SYMBOLS` is in the Basic Multilingual Plane,
is none of those two, has ``wcwidth`` 1 (tests/foundation/test_terminal_width.py
asks wcwidth for each), and so never follows a virama or a character of
width 0 in such a text: each adds exactly 1.
"""

from __future__ import annotations

# Printable characters beyond ASCII that wcwidth measures as one column and that take part in none of
# its sequences: Latin-1's letters and signs (not its no-break space, not the soft hyphen), Greek
# letters, the dashes, quotes, daggers, bullets and ellipsis of General Punctuation, arrows, and the
# mathematical and check signs records and READMEs use (− ≈ ≠ ≤ ≥ ∞ ✓ ✗ ▶).
NARROW_SYMBOLS = "".join(
    [chr(code) for code in range(0xA1, 0x100) if code != 0xAD]
    + [chr(code) for code in range(0x391, 0x3AA) if code != 0x3A2]
    + [chr(code) for code in range(0x3B1, 0x3CA)]
    + [chr(code) for code in range(0x2010, 0x2028)]
    + [chr(code) for code in range(0x2190, 0x219A)]
    + list("\u2212\u2248\u2260\u2264\u2265\u221e\u2713\u2717\u25b6"))
_WITHOUT_NARROW_SYMBOLS = dict.fromkeys(map(ord, NARROW_SYMBOLS))  # str.translate deletes them


def length_width(text: str) -> int | None:
    """The width of ``text`` in terminal columns when it is its length (every
    character printable ASCII or one of :data:`NARROW_SYMBOLS`: see the
    module docstring), else None (then only wcwidth can tell)."""
    if text.isascii():
        return len(text) if text.isprintable() else None
    rest = text.translate(_WITHOUT_NARROW_SYMBOLS)
    return len(text) if rest.isascii() and rest.isprintable() else None


def terminal_width(text: str) -> int:
    """``wcwidth.wcswidth(text)``: the columns ``text`` takes in a terminal,
    -1 when a character of it has no width there (a control character).
    wcwidth is imported only for a text :func:`length_width` cannot measure."""
    width = length_width(text)
    if width is not None:
        return width
    from wcwidth import wcswidth

    return wcswidth(text)
