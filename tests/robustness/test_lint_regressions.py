"""Documents on which the property tests once made ``studygen lint`` fail
with an internal error (a zero figure in a ratio sentence; a column holding
only spreads); each must now end in findings."""

from __future__ import annotations

import pytest

DOCUMENTS = {
    "zero figures in a ratio sentence": "Plan size drops from 0ms to 0ms, a 0x faster reduction.\n",
    "a column of spreads only": (
        "### \n\nDifferences below 19346.64 to 13284.2753 MiB are noise, measured over 6911.667x faster repeats.\n\n"
        "### \n\n| Notes | Plan MiB |\n|---|---|\n| 19346.6377 ± 12735.18 ms | 13066.4521 ± 15560.2 ms |\n"
        "| 19346.64 to 13284.2753 MiB |  |\n| - | 19346.64 ± 0 ms | 2608.6388% |\n"),
}


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_document_ends_in_findings(name, tmp_path, run_cli):
    document = tmp_path / "doc.md"
    document.write_text(DOCUMENTS[name], encoding="utf-8")
    result = run_cli("lint", document)
    assert result.exit_code in (0, 1), result.err
    assert result.err == ""
    assert result.out.splitlines()[-1].endswith("warning(s)")
