"""studygen.checks.text: which README lines are prose, where a helper's
output sits, and the sentence around a mention (read off the short README
below by hand)."""

from __future__ import annotations

from studygen.checks.text import ReadmeText, sentence_at
from studygen.render.produced import Produced

README = """# Title

The GEMMs take 0.19 to 0.21 ms.

```
0.5 ms inside a fence
```

~~~
tilde fence 0.6 ms
~~~

<!-- a comment
3.5 ms -->
Last line 0.7 ms.
"""


def test_prose_lines_leave_out_both_fences_and_comments():
    text = ReadmeText(README, [])
    assert [line for _, line in text.prose_lines() if line] == ["# Title", "The GEMMs take 0.19 to 0.21 ms.", "Last line 0.7 ms."]


def test_locate_finds_a_helper_output_or_gives_zero():
    text = ReadmeText(README, [])
    assert text.locate(Produced("range", "0.19 to 0.21 ms")) == 3
    assert text.locate(Produced("range", "0.3 to 0.4 ms")) == 0  # not in the README
    assert text.locate(Produced("range", "\n  \n")) == 0


def test_sentence_at_cuts_at_full_stops_and_semicolons_either_side():
    line = "FP8 is fine; NVFP4 was not tried. Next one; and more."
    start = line.index("NVFP4")
    assert sentence_at(line, start, start + 5) == "NVFP4 was not tried."
    start = line.index("Next")
    assert sentence_at(line, start, start + 4) == "Next one;"
    assert sentence_at("- NVFP4 alone", 2, 7) == "NVFP4 alone"
