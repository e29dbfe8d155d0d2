"""best_wording.cause_start finds where CAUSE_RE's leftmost match starts, as ``CAUSE_RE.search`` did, in linear time
(the search tried each place of a run of spaces or commas as a start and scanned the rest of the run from it);
best_rows' non-restrictive clause alike, searched from its comma and widened back over the whitespace before it."""

from __future__ import annotations

import random
import re

from studygen.lint.best_rows import _NONRESTRICTIVE_RE
from studygen.lint.best_wording import CAUSE_RE, cause_start, run_start

# the pattern as it was searched before: its leading whitespace in the pattern
_NONRESTRICTIVE_BEFORE = re.compile(r"\s*,\s*(?:which|where)\b", re.IGNORECASE)
_PARTS = (" ", ",", ", ", "  ", "\t", "\u00a0", "\n", "due to", "due  to", "Due To", "because", "overdue to", "thanks to",
          "as a result of", "owing\nto", "underscoring", "Highlighting", "x", "which", "where", "whichever", ",which", "a",
          "1.5", "ms", "(", ")")


def test_cause_start_is_where_the_search_of_cause_re_starts():
    rng = random.Random(30)
    for _ in range(20000):
        text = "".join(rng.choice(_PARTS) for _ in range(rng.randint(0, 12)))
        pos = rng.randint(0, len(text))
        end = rng.randint(pos, len(text))
        searched = CAUSE_RE.search(text, pos, end)
        assert cause_start(text, pos, end) == (searched.start() if searched else None), (text, pos, end)
        before = _NONRESTRICTIVE_BEFORE.search(text, pos, end)
        now = _NONRESTRICTIVE_RE.search(text, pos, end)
        assert (run_start(text, now.start(), pos, commas=False) if now else None) == \
            (before.start() if before else None), (text, pos, end)


def test_cause_start_on_sentences():
    text = "alpha is the fastest , , due to its clocks"
    assert cause_start(text, 20, len(text)) == 20  # the spaces and commas before the cause are the cause's
    assert cause_start(text, 23, len(text)) == 23  # never before where the search starts
    text = "beta is the slowest  , underscoring the copies"
    assert cause_start(text, 19, len(text)) == 19  # a comment's comma and the whitespace before it
    assert cause_start("gamma is overdue to ship", 0, 24) is None
    assert cause_start("delta is fastest due to", 0, 19) is None  # 'due to' past the end searched
