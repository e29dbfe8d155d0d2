"""Text quoted from a document, record or file name, made safe to print.

A finding or an error quotes what it read: a table row's label, a GPU name,
a path. Printed raw, a control character in it would reach the terminal or
the CI log viewer as a command (ESC starts the sequences that set a
window title or write the clipboard; a U+202E reverses how the rest of the
line is shown). :func:`visible` shows each as an escape instead.
"""

from __future__ import annotations

import re

# What a terminal or a log viewer would act on rather than show: C0 and C1 controls (ESC starts
# the sequences that set a window title or write the clipboard), DEL, and the bidirectional
# embeddings, overrides and isolates that reorder a line as it is shown.
_ACTING = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str, keep: str = "") -> str:
    """``text`` with every control character and bidirectional override
    shown as an escape as Python writes it (``\\x1b``, ``\\u202e``,
    ``\\n``, ``\\r``, ``\\t``) except those in ``keep``: a document's or record's
    text quoted in a finding reaches the terminal or the CI log as text,
    never as a command to it."""
    # ascii() writes each as Python does: \n, \t, \x1b, \x9b, \u202e
    return _ACTING.sub(lambda m: m.group() if m.group() in keep else ascii(m.group())[1:-1], text)


def shortened(text: str, limit: int) -> str:
    """``text`` whole up to ``limit`` characters, else its first ``limit - 1`` and "…": what a message quotes
    of a long name or line."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
