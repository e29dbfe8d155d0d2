"""A range of ratios worded as a speed comparison ("1.5x - 2.5x faster")
in another section than the table is read against a column headed as a
speedup that holds both its endpoints: "faster" names the quantity such a
column holds (SG101, sg101_range_coverage._scan_series). Without that tie a
far column holding both endpoints may hold them by coincidence and is not
reported. Numbers are invented; each speedup is new / old by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# Speedup = old / new: 6.0 / 4.0 = 1.50x, 9.0 / 4.5 = 2.00x, 5.0 / 4.0 = 1.25x, 10.0 / 4.0 = 2.50x
_DOC = """\
# Fused attention kernel

## Measurements

| Shape | Old (ms) | New (ms) | {header} |
| --- | --- | --- | --- |
| 256 | 6.0 | 4.0 | 1.50x |
| 512 | 9.0 | 4.5 | 2.00x |
| 1024 | 5.0 | 4.0 | 1.25x |
| 2048 | 10.0 | 4.0 | 2.50x |

## Conclusion

The rewrite pays off:

- {claim}
"""


def _sg101(claim: str, header: str = "Speedup") -> list[str]:
    text = _DOC.format(header=header, claim=claim)
    return [f"{f.line}: {f.message}" for f in lint_text(text, "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("claim, printed", [
    ("**1.5x - 2.5x faster kernels**", "1.5x - 2.5x"),
    ("1.5x to 2.5x quicker on every shape", "1.5x to 2.5x"),
    ("kernels run 1.5-2.5x slower before the rewrite", "1.5-2.5x"),
])
def test_a_far_speed_range_is_read_against_the_speedup_column(claim, printed):
    # before: no word of the claim named 'Speedup', so the far column was no candidate to report
    assert _sg101(claim) == [f"16: range {printed} leaves out row '1024' (1.25x) of 'Speedup' in the table at line 5"]


def test_a_covering_range_is_quiet():
    assert _sg101("**1.25x - 2.5x faster kernels**") == []


@pytest.mark.parametrize("claim, header", [
    ("**1.5x - 2.5x larger batches**", "Speedup"),  # not a speed comparison
    ("**1.5x - 2.5x faster kernels**", "Scale"),  # a column not headed as a speedup
])
def test_no_speed_tie_no_far_finding(claim, header):
    assert _sg101(claim, header) == []
