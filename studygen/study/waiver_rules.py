"""Which study-file waivers and explanations may be applied at all: a rule of
the entry alone (its code and selectors), so that ``check``, which applies
them (:mod:`studygen.checks.waivers`, SG216 for a refused one), and
``render``, which lists them among the README's known gaps, refuse the same
ones. A refused entry is never shown as waived (new-user trial: a waiver of
SG201 that check refused was listed as "Waived SG201", and one with
``match: ""`` as "README line None")."""

from __future__ import annotations

from ..rules import BY_CODE

# How narrowly a selector names a finding: a measurement key names one figure, a README line one place, a piece
# of message text any finding that quotes it. A finding's reasons print narrowest first.
SELECTORS = ("key", "line", "match")
# Fewest characters, besides leading and trailing spaces, a match may quote. Shorter text names a word most
# messages of a code hold ("latency", "fp16", "B200"), so it would waive every finding of the code that
# names it, the next one too. Eight take a short phrase ("no revision"); the shipped waivers quote 15 and more.
MIN_MATCH_CHARS = 8
SELECTOR_HINT = ("name the finding by its key or README line, or quote more of its message "
                 "(studygen check --format json gives each finding's key, line and message)")


def refusal(section: str, entry: dict) -> tuple[str, str] | None:
    """``(message, hint)`` of SG216 for a waiver (``section`` ``waivers``) or
    explanation (``explanations``) that may not be applied: its code is not
    waivable, its ``match`` is shorter than :data:`MIN_MATCH_CHARS` besides
    spaces, or it names no finding at all; None for an entry that may be."""
    kind, code = section[:-1], entry["code"]
    rule = BY_CODE.get(code)
    if rule is not None and not rule.waivable:
        return (f"{kind} for {code} refused: {code} ({rule.name}) is never waived or explained, since it says the "
                "README or the records cannot be trusted",
                f"remove the {kind} and fix what the {code} finding names")
    if "match" in entry and len(entry["match"].strip()) < MIN_MATCH_CHARS:
        return (f'{kind} for {code} refused: match "{entry["match"]}" has fewer than {MIN_MATCH_CHARS} characters '
                "besides spaces, so it names no one finding", SELECTOR_HINT)
    if not any(selector in entry for selector in SELECTORS):
        return f"{kind} for {code} refused: it names no finding (no key, line or match)", SELECTOR_HINT
    return None
