"""SG103 and a percentage of one quantity printed after a change of a setting
measured in another (studygen.lint.sg103_derived_figures._named_kind).

An unseen serving study wrote "Increasing the workspace from 3GB to 8GB
yielded 22% throughput improvement": the two sizes are the setting that was
changed, the 22% is the throughput's change (two rows of its table give it).
Lint read the percent as a change between 3 and 8 GB and reported it. A
percentage whose next words name a quantity of one kind (throughput, latency,
memory) is not derived from a pair printed in a unit of another kind; a pair
of that kind, or of no unit, is still read. Our own sentences below.
"""

from __future__ import annotations

from studygen.lint import lint_text


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_a_throughput_change_after_a_change_of_a_size_is_not_read_over_the_sizes():
    assert _sg103("# Tuning\n\nRaising the cache from 2 GB to 6 GB gave a 35% throughput gain.\n") == []
    assert _sg103("# Tuning\n\nMoving the pool from 2 GB to 4 GB brought a 12% cut in latency.\n") == []


def test_a_change_of_the_same_kind_is_still_read_over_its_pair():
    # (6 - 2) / 2 = 200%: the memory grew by 200%, not 35%
    assert _sg103("# Tuning\n\nRaising the cache from 2 GB to 6 GB gave a 35% memory increase.\n") == [
        (3, "35% does not follow from 2 and 6 GB: (6 - 2) / 2 = 200% (120.0% to 333.3% within the printed digits)"),
    ]
    # (20 - 15) / 20 = 25%
    assert [line for line, _ in _sg103("# Latency\n\nLatency fell from 20 ms to 15 ms, a 35% latency cut.\n")] == [3]
    assert _sg103("# Latency\n\nLatency fell from 20 ms to 15 ms, a 25% latency cut.\n") == []


def test_a_percentage_naming_no_quantity_is_read_as_before():
    assert [line for line, _ in _sg103("# Tuning\n\nRaising the cache from 2 GB to 6 GB gave 35% more.\n")] == [3]


def test_a_pair_printed_without_a_unit_is_still_read_under_a_named_quantity():
    # (150 - 100) / 100 = 50%: figures printed bare may be the named quantity itself
    assert [line for line, _ in _sg103("# Serving\n\nThroughput rose from 100 to 150, a 40% throughput gain.\n")] == [3]
