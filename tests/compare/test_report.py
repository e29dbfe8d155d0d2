"""studygen.compare (one family's changes) and studygen.compare.report (the four formats, the exit code).

Toy studies from tests/checks/studies.py and READMEs written here; findings are
made as check makes them (studygen.findings.Finding)."""

from __future__ import annotations

import json

import pytest

from studygen.compare import Revision, compare_family, compare_findings, unchanged_family
from studygen.compare.report import Report, exit_code, format_github, format_markdown, format_text
from studygen.compare.report_json import format_json
from studygen.findings import Finding
from studygen.study import load_study
from tests.checks.studies import latency, load, record, spec, write_project

README_OLD = "# Toy\n\nFP8 is no faster than fp16: 10.0 ms against 10.0 ms.\n\n- Calibration used 4 images.\n"
README_NEW = "# Toy\n\nFP8 is faster than fp16: 9.0 ms against 10.0 ms.\n\n- Calibration used 4 images.\n"
STALE = Finding("SG201", "README is stale: line 3 differs from what the records render to",
                "families/toy/README.md", line=3)
WAIVED = Finding("SG208", "fp8 is slower than fp16", "measurements/toy/main.json", line=9, severity="notice")


def revisions(tmp_path, *, shipped=False, new_fp8=9.0):
    base = load(tmp_path / "base", records=[record("main", [latency("fp16", 10.0, repeats=[9.9, 10.0, 10.1]),
                                                             latency("fp8", 10.0, repeats=[9.9, 10.0, 10.1])])])
    head = load(tmp_path / "head", study=spec(decision={"shipped": shipped, "summary": "FP8 is shipped."}),
                records=[record("main", [latency("fp16", 10.0, repeats=[9.9, 10.0, 10.1]),
                                         latency("fp8", new_fp8, repeats=[new_fp8 - 0.1, new_fp8, new_fp8 + 0.1]),
                                         latency("fp32", 20.0)])])
    return (Revision(base, (WAIVED,), README_OLD), Revision(head, (STALE, WAIVED), README_NEW))


@pytest.fixture
def report(tmp_path) -> Report:
    base, head = revisions(tmp_path, shipped=True)
    family = compare_family("toy", "families/toy/README.md", base, head)
    return Report("main (0123456789ab)", "the working tree", [family, unchanged_family("other", "families/other/README.md")])


def test_one_family_compared(tmp_path):
    base, head = revisions(tmp_path)
    family = compare_family("toy", "families/toy/README.md", base, head)
    assert [(c.what.split(",")[0], c.verdict) for c in family.figures] == [
        ("FP8 median GPU compute time", "beyond spread"), ("fp32 median GPU compute time", "new"),
        ("fp16 median GPU compute time", "unchanged")]
    (sentence,) = family.sentences
    assert sentence.verdict_changed and family.verdict_changes == [sentence]
    assert [(c.finding.code, c.appeared) for c in family.findings] == [("SG201", True)]
    assert family.shipped == (False, False) and not family.decision_flipped and family.changed


def test_a_study_that_cannot_be_loaded_is_unreadable_and_its_figures_are_not_compared(tmp_path):
    base, head = revisions(tmp_path)
    broken = Revision(None, (Finding("SG202", "study file must be a YAML mapping", "families/toy/study.yaml"),),
                      README_NEW, "study file must be a YAML mapping")
    family = compare_family("toy", "families/toy/README.md", base, broken)
    assert family.figures == [] and family.notes == [] and [u.words() for u in family.unreadable] == [
        "the head could not be read: 1 SG202 error in families/toy/study.yaml (first: study file must be a YAML "
        "mapping); its figures and findings are not compared"]
    assert family.shipped == (None, None) and not family.decision_flipped
    at_base = compare_family("toy", "families/toy/README.md", broken, head)
    assert at_base.figures == [] and [(u.side, u.files, u.errors) for u in at_base.unreadable] == [
        ("base", ("families/toy/study.yaml",), 1)]
    gone = compare_family("toy", "families/toy/README.md", base, Revision(None, exists=False))
    assert {c.verdict for c in gone.figures} == {"removed"} and gone.notes == [] and gone.unreadable == []
    assert gone.sentences[0].new is None and [c.appeared for c in gone.findings] == [False]


def test_a_head_with_a_record_that_fails_to_load_is_unreadable_in_every_format_and_fails(tmp_path):
    # a new user renamed a variant in study.yaml: check gave SG202 errors, render refused, and diff said
    # "11 unchanged ... findings: 17 appeared", exit 0
    base, _ = revisions(tmp_path)
    study_dir = write_project(tmp_path / "head", records=[record("main", [latency("fp16", 10.0), latency("fp9", 10.0)])])
    head = load_study(study_dir, tmp_path / "head")
    assert head.has_unread_files and head.rows  # the study loads, its other figures with it
    invalid = Finding("SG202", head.problems[0].message, "measurements/toy/main.json", line=42)
    family = compare_family("toy", "families/toy/README.md", base, Revision(head, (invalid,), README_OLD))
    # its findings are those of what loaded: none is compared ("gone" would read as fixed)
    assert family.figures == [] and family.shipped == (None, None) and family.findings == []
    report = Report("main (0123456789ab)", "the working tree", [family])
    words = ("the head could not be read: 1 SG202 error in measurements/toy/main.json (first: variant 'fp9' is not "
             "declared in families/toy/study.yaml (declared: fp16, fp32, fp8)); its figures and findings are not compared")
    lines = format_text(report).splitlines()
    assert lines[1:3] == ["toy", f"  unreadable: {words}"]
    assert lines[-1] == ("1 family unreadable at head, 0 figures beyond their spread, 0 verdict changes; 0 within "
                         "spread, 0 new, 0 removed, 0 unchanged, 0 sentences changed, findings: 0 appeared, 0 gone")
    markdown = format_markdown(report).splitlines()
    assert markdown[4:7] == ["Could not be read (nothing of these studies was compared):", "", f"- toy: {words}"]
    assert format_github(report).splitlines()[0] == (
        "::error file=measurements/toy/main.json,title=studygen diff%3A head could not be read::toy: "
        + words.replace("%", "%25"))
    assert format_github(report, "never").startswith("::warning file=measurements/toy/main.json,")
    data = json.loads(format_json(report))
    assert (data["summary"]["unreadable at head"], data["summary"]["unchanged"]) == (1, 0)
    assert data["families"][0]["unreadable"] == [{"side": "head", "files": ["measurements/toy/main.json"],
                                                  "errors": 1, "first": invalid.message}]
    assert [exit_code(report, f) for f in ("beyond-spread", "verdict", "never")] == [1, 1, 0]
    at_base = Report("a", "b", [compare_family("toy", "families/toy/README.md", Revision(head, (invalid,), None),
                                               Revision(base.study, (), None))])
    assert format_text(at_base).splitlines()[2].startswith("  unreadable: the base could not be read: 1 SG202 error")
    # a change that repairs the base fails nothing: the gate the default branch was broken past must let the fix in
    assert [exit_code(at_base, f) for f in ("beyond-spread", "verdict", "never")] == [0, 0, 0]
    assert [line.split(" ")[0] for line in format_github(at_base).splitlines()[:1]] == ["::warning"]
    assert format_text(at_base).splitlines()[-1].startswith("1 family unreadable at base, 0 figures beyond")


def test_findings_are_matched_without_their_line_and_each_once():
    moved = Finding("SG201", STALE.message, STALE.file, line=30)
    assert compare_findings([STALE], [moved]) == []
    twice = compare_findings([STALE], [STALE, moved])
    assert [(c.finding.line, c.appeared) for c in twice] == [(30, True)]
    other_key = Finding("SG201", STALE.message, STALE.file, line=3, key="toy|x")
    other_severity = Finding("SG201", STALE.message, STALE.file, line=3, severity="notice")
    assert [(c.finding, c.appeared) for c in compare_findings([STALE], [other_key, other_severity])] == [
        (STALE, False), (other_key, True), (other_severity, True)]
    assert [(c.finding, c.appeared) for c in compare_findings([STALE, STALE, WAIVED], [WAIVED, STALE])] == [(STALE, False)]
    assert [(c.finding, c.appeared) for c in compare_findings([STALE], [STALE, STALE, STALE])] == [
        (STALE, True), (STALE, True)]


def test_exit_codes(tmp_path):
    def family(**kwargs):
        base, head = revisions(tmp_path / str(len(list(tmp_path.iterdir()))), **kwargs)
        return compare_family("toy", "families/toy/README.md", base, head)
    beyond_and_verdict = Report("a", "b", [family()])
    assert [exit_code(beyond_and_verdict, f) for f in ("beyond-spread", "verdict", "never")] == [1, 1, 0]
    within = family(new_fp8=10.05)
    within.sentences = []
    assert [exit_code(Report("a", "b", [within]), f) for f in ("beyond-spread", "verdict", "never")] == [0, 0, 0]
    beyond_only = family()
    beyond_only.sentences = []
    assert [exit_code(Report("a", "b", [beyond_only]), f) for f in ("beyond-spread", "verdict", "never")] == [1, 0, 0]
    flipped = family(shipped=True, new_fp8=10.05)
    flipped.sentences = []
    assert flipped.decision_flipped
    assert [exit_code(Report("a", "b", [flipped]), f) for f in ("beyond-spread", "verdict", "never")] == [1, 1, 0]


def test_text(report):
    lines = format_text(report).splitlines()
    assert lines[0] == "studygen diff: main (0123456789ab) -> the working tree"
    assert lines[1] == "toy"
    assert lines[2] == ("  beyond spread: FP8 median GPU compute time, 800 x 800, engine, H200: 10.0 ms -> 9.0 ms "
                        "(-1.0 ms, -10.00 %); more than 0.2 ms spread of 3 repeat medians in base (9.9 to 10.1 ms), "
                        "the scatter inside one run of job main: another process may move further (spread_sources, "
                        f"source job, declares how far) [measurements/toy/main.json:{report.families[0].figures[0].place.line}]")
    assert lines[3].startswith("  new: fp32 median GPU compute time, 800 x 800, engine, H200: 20.0 ms (job main) [")
    assert lines[4] == "  verdict changed: decision.shipped in the study file: not shipped -> shipped"
    assert lines[5] == "  verdict changed: families/toy/README.md:3 (no faster -> faster)"
    assert lines[6:8] == ["      - FP8 is no faster than fp16: 10.0 ms against 10.0 ms.",
                          "      + FP8 is faster than fp16: 9.0 ms against 10.0 ms."]
    assert lines[8] == ("  finding appeared: families/toy/README.md:3: SG201 [error] README is stale: line 3 differs "
                        "from what the records render to")
    assert lines[9] == "other: inputs unchanged"
    assert lines[10] == ("1 figure beyond its spread, 2 verdict changes, 1 new error finding; 0 within spread, 1 new, "
                         "0 removed, 1 unchanged, 1 sentence changed, findings: 1 appeared, 0 gone")


def test_markdown_puts_the_summary_and_what_needs_a_look_first(report):
    text = format_markdown(report)
    lines = text.splitlines()
    assert lines[0] == "### studygen diff: `main (0123456789ab)` → `the working tree`"
    assert lines[2] == ("**1 figure beyond its spread, 2 verdict changes, 1 new error finding; 0 within spread, 1 new, "
                        "0 removed, 1 unchanged, 1 sentence changed, findings: 1 appeared, 0 gone**")
    # check fails on the stale README: said before the figures, not folded
    assert lines[4:8] == ["New error findings (check fails on these):", "",
                          "- toy: `families/toy/README.md:3` SG201 [error] `README is stale: line 3 differs from what the "
                          "records render to`", ""]
    lines = lines[:4] + lines[8:]
    assert lines[4:8] == ["Beyond their spread:", "", "| Family | Figure | Old | New | Change | Spread |",
                          "|---|---|---|---|---|---|"]
    assert lines[8] == ("| toy | FP8 median GPU compute time, 800 x 800, engine, H200 | 10.0 ms | 9.0 ms | -1.0 ms, -10.00 % | "
                        "0.2 ms spread of 3 repeat medians in base (9.9 to 10.1 ms) |")
    flips = lines.index("Verdict changes:")
    assert lines[flips + 2:flips + 6] == [
        "- toy: decision in the study file, not shipped → shipped",
        "- toy, `families/toy/README.md` line 3: no faster → faster",
        "  - before: `FP8 is no faster than fp16: 10.0 ms against 10.0 ms.`",
        "  - after: `FP8 is faster than fp16: 9.0 ms against 10.0 ms.`"]
    assert "<summary>All figure changes (2)</summary>" in lines
    assert "<summary>Findings that appeared or went (1)</summary>" in lines
    assert ("- appeared: `families/toy/README.md:3` SG201 [error] `README is stale: line 3 differs from what the "
            "records render to`") in lines
    assert lines[-1] == "- inputs unchanged, not compared: other"
    assert text.count("<details>") == text.count("</details>") == 3
    assert flips < lines.index("<details>")


def test_markdown_cells_cannot_break_the_table(tmp_path):
    base, head = revisions(tmp_path)
    family = compare_family("toy", "families/toy/README.md", base, head)
    family.figures[0] = type(family.figures[0])(**{**family.figures[0].__dict__, "what": "a | b <c>\nd"})
    row = next(line for line in format_markdown(Report("a", "b", [family])).splitlines() if line.startswith("| toy | a"))
    assert row.startswith("| toy | a \\| b &lt;c&gt; d |") and row.count(" | ") == 5  # six cells


def test_json(report):
    data = json.loads(format_json(report))
    assert (data["base"], data["head"]) == ("main (0123456789ab)", "the working tree")
    assert data["summary"] == {"beyond spread": 1, "within spread": 0, "new job": 0, "host-bound": 0, "new": 1, "removed": 0, "unchanged": 1,
                               "re-keyed": 0, "provenance changes": 0, "regrouped": 0, "verdict changes": 2, "sentences changed": 1, "findings appeared": 1, "findings gone": 0,
                               "findings changed": 0, "new error findings": 1, "families removed": 0, "unreadable at base": 0,
                               "unreadable at head": 0}
    toy, other = data["families"]
    assert other == {"family": "other", "compared": False, "removed": False, "figures": [], "provenance": [], "regrouped": [],
                     "unchanged_figures": 0, "sentences": [],
                     "findings": [], "decision_shipped": {"base": None, "head": None}, "notes": [],
                     "unreadable": []}
    beyond = toy["figures"][0]
    assert (beyond["verdict"], beyond["old"], beyond["new"], beyond["delta"], beyond["relative"]) == (
        "beyond spread", ["10.0"], ["9.0"], pytest.approx(-1.0), pytest.approx(-0.1))
    assert beyond["spread"]["source"] == "repeat medians" and beyond["spread"]["side"] == "base"
    assert (beyond["old_jobs"], beyond["new_jobs"], beyond["old_value"], beyond["new_value"]) == (["main"], ["main"], 10.0, 9.0)
    assert toy["unchanged_figures"] == 1 and toy["decision_shipped"] == {"base": False, "head": True}
    assert toy["sentences"][0]["kind"] == "verdict changed" and toy["sentences"][0]["new"]["line"] == 3
    assert toy["findings"][0]["code"] == "SG201" and toy["findings"][0]["change"] == "appeared"


def test_github(report, tmp_path):
    lines = format_github(report).splitlines()
    line = report.families[0].figures[0].place.line
    # the flipped decision is annotated where the head's study file says it
    study_lines = (tmp_path / "head" / "families" / "toy" / "study.yaml").read_text().splitlines()
    shipped_line = study_lines.index("  shipped: true") + 1
    assert lines[0].startswith(f"::error file=measurements/toy/main.json,line={line},title=studygen diff%3A beyond spread::"
                               "toy: FP8 median GPU compute time")
    assert lines[1].startswith("::notice file=measurements/toy/main.json,line=")
    assert lines[2] == (f"::error file=families/toy/study.yaml,line={shipped_line},title=studygen diff%3A verdict changed::"
                        "toy: decision.shipped not shipped -> shipped")
    assert lines[3].startswith("::error file=families/toy/README.md,line=3,title=studygen diff%3A verdict changed::"
                               "toy: verdict changed (no faster -> faster)%0Abefore: FP8 is no faster")
    assert lines[4] == ("::warning file=families/toy/README.md,line=3,title=studygen diff%3A SG201 appeared::SG201 README "
                        "is stale: line 3 differs from what the records render to")
    assert lines[5].startswith("1 figure beyond its spread")
    report.path_prefix = "studies/"
    verdict_only = format_github(report, "verdict").splitlines()
    assert verdict_only[0].startswith("::warning file=studies/measurements/toy/main.json,")
    assert verdict_only[2].startswith("::error ") and verdict_only[3].startswith("::error file=studies/families/toy/README.md,")
    never = format_github(report, "never")
    assert "::error" not in never
    assert [line.split(",")[0] for line in never.splitlines()[:4]] == [
        "::warning file=studies/measurements/toy/main.json", "::notice file=studies/measurements/toy/main.json",
        "::warning file=studies/families/toy/study.yaml", "::warning file=studies/families/toy/README.md"]
    assert f"::warning file=studies/families/toy/study.yaml,line={shipped_line},title=studygen diff%3A verdict changed::" \
        "toy: decision.shipped not shipped -> shipped" in never.splitlines()


def test_nothing_changed():
    report = Report("HEAD~1 (a)", "HEAD (b)", [unchanged_family("toy", "families/toy/README.md")])
    assert format_text(report).splitlines() == ["studygen diff: HEAD~1 (a) -> HEAD (b)", "toy: inputs unchanged",
                                                "nothing changed between HEAD~1 (a) and HEAD (b)"]
    assert format_markdown(report) == ("### studygen diff: `HEAD~1 (a)` → `HEAD (b)`\n\n"
                                       "Nothing changed between `HEAD~1 (a)` and `HEAD (b)`.\n")
    assert exit_code(report, "beyond-spread") == 0


@pytest.mark.parametrize("short_by", [1800, 1400, 1000, 5])  # cut in the summary, in a <details>, after the last
def test_markdown_longer_than_the_limit_is_cut_with_its_details_closed(report, short_by):
    report.families[0].notes += [f"note {n}: " + "a long note " * 8 for n in range(6)]  # ~600 characters after the last </details>
    full = format_markdown(report)
    assert len(full) > 2000
    limit = len(full) - short_by
    text = format_markdown(report, limit=limit)
    assert len(text) <= limit
    assert text.count("<details>") == text.count("</details>")
    kept = text.splitlines()[:-1]
    left_out = text.splitlines()[-1]
    assert left_out.startswith("*") and left_out.endswith(
        " more lines left out: a comment holds at most 65,536 characters. `studygen diff --format text` lists every change.*")
    full_lines = full.rstrip("\n").split("\n")
    prefix = next(n for n in range(len(kept), -1, -1) if kept[:n] == full_lines[:n])
    assert kept[prefix:] in ([""], ["", "</details>", ""])  # the cut, and a <details> left open closed
    assert int(left_out[1:].split()[0]) == len(full_lines) - prefix
    assert kept[2].startswith("**1 figure beyond its spread")  # the summary always fits


def test_every_kind_of_change_in_every_format(tmp_path):
    """A removed sentence, a finding that went, a note, a rise (signed +) and the full table's Verdict column."""
    base, head = revisions(tmp_path, new_fp8=10.5)
    old_readme = README_OLD + "\nbf16 is slower than fp16 at batch 8: 12.0 ms against 10.0 ms.\n"
    base = Revision(base.study, (WAIVED, STALE), old_readme)
    head = Revision(head.study, (), README_OLD)
    family = compare_family("toy", "families/toy/README.md", base, head)
    family.notes.append("a note | with a pipe")
    report = Report("a", "b", [family])
    text = format_text(report).splitlines()
    assert "  sentence removed: families/toy/README.md:7" in text
    assert "      - bf16 is slower than fp16 at batch 8: 12.0 ms against 10.0 ms." in text
    assert any(line.startswith("  beyond spread: FP8 median GPU compute time, 800 x 800, engine, H200: 10.0 ms -> 10.5 ms "
                               "(+0.5 ms, +5.00 %)") for line in text)
    gone = [line for line in text if line.startswith("  finding ")]
    assert [line.split(":")[0] for line in gone] == ["  finding gone", "  finding gone"]
    assert text[-2] == "  note: a note | with a pipe"
    assert text[-1].startswith("1 figure beyond its spread, 0 verdict changes; ")

    markdown = format_markdown(report).splitlines()
    assert "- toy, line 7, sentence removed" in markdown
    assert "  - before: `bf16 is slower than fp16 at batch 8: 12.0 ms against 10.0 ms.`" in markdown
    assert any(line.startswith("- gone: `families/toy/README.md:3` SG201 [error] `README is stale") for line in markdown)
    assert "| Family | Figure | Old | New | Change | Verdict | Spread |" in markdown
    notes = markdown.index("Notes:")
    assert markdown[notes + 2] == "- toy: a note \\| with a pipe"

    github = format_github(report).splitlines()
    assert ("::notice title=studygen diff%3A sentence removed::toy: sentence removed%0Abefore: bf16 is slower than "
            "fp16 at batch 8: 12.0 ms against 10.0 ms.") in github
    assert ("::notice title=studygen diff%3A SG201 gone::SG201 README is stale: line 3 differs from what the records "
            "render to (was at families/toy/README.md:3)") in github

    (sentence,) = json.loads(format_json(report))["families"][0]["sentences"]
    assert sentence == {"kind": "sentence removed", "new": None, "old": {
        "text": "bf16 is slower than fp16 at batch 8: 12.0 ms against 10.0 ms.", "line": 7, "heading": "Toy",
        "verdicts": ["slower"]}}


def test_words_shared_by_the_formats(report):
    from studygen.compare.report import values_text, verdicts_text
    assert values_text(("10.0", "10.4"), ("a", "b"), "ms") == "10.0, 10.4 ms (jobs a, b)"
    assert values_text(("10.0",), ("a",), "ms") == "10.0 ms" and values_text((), (), "ms") == "-"
    sentence = report.families[0].sentences[0]
    two = type(sentence)(type(sentence.old)(**{**sentence.old.__dict__, "verdicts": frozenset({"slower", "no faster"})}),
                         sentence.new)
    assert verdicts_text(two) == "no faster, slower -> faster"
    lines = format_markdown(report).splitlines()
    first_close = lines.index("</details>")
    assert lines[first_close + 1:first_close + 3] == ["", "<details>"]


def test_counts_in_the_summary_line_agree_in_number(tmp_path):
    base, head = revisions(tmp_path)
    family = compare_family("toy", "families/toy/README.md", base, head)
    family.figures.append(family.figures[0])
    assert format_text(Report("a", "b", [family])).splitlines()[-1].startswith(
        "2 figures beyond their spread, 1 verdict change, 1 new error finding; 0 within spread, 1 new, 0 removed, "
        "1 unchanged, 1 sentence changed, findings: 1 appeared, 0 gone")


def test_a_finding_message_over_two_lines_prints_on_one(tmp_path):
    base, head = revisions(tmp_path)
    split = Finding("SG209", "no GPU named in\nthe record\r", "measurements/toy/main.json", line=2)
    family = compare_family("toy", "families/toy/README.md", Revision(base.study, (), README_OLD),
                            Revision(head.study, (split,), README_OLD))
    text = format_text(Report("a", "b", [family]))
    assert ("  finding appeared: measurements/toy/main.json:2: SG209 [error] no GPU named in\\nthe record\\r"
            in text.splitlines())


def test_a_quoted_sentence_is_literal_in_the_pull_request_comment():
    # a README sentence carrying link markup and a team mention was posted live in the PR comment
    from studygen.compare.report import _literal

    assert _literal("3x faster [approved, merge](https://evil.example) @org/everyone.") == (
        "`3x faster [approved, merge](https://evil.example) @org/everyone.`")
    # a backtick run inside: the fence is one longer; a text ending in a backtick is padded
    assert _literal("run ``x`` now") == "```run ``x`` now```"
    assert _literal("`a`") == "`` `a` ``"
    assert _literal("line\nbreak\x1b]0;t\x07") == "`line\\nbreak\\x1b]0;t\\x07`"


def test_a_quality_change_reads_in_points_and_ranks_by_them(tmp_path):
    # AP 0.4644 -> 0.4144: -5.00 points (0.05 AP is a twentieth of AP's full scale); fp16 10.0 -> 10.3 ms: +3.00 %.
    # Without the points, an AP change had no relative size and came last; a point ranks as a hundredth
    from tests.checks.studies import coco_ap

    from studygen.compare.report import change_size, change_text

    base = load(tmp_path / "base", records=[record("main", [coco_ap("fp16", 0.4644), latency("fp16", 10.0)])])
    head = load(tmp_path / "head", records=[record("main", [coco_ap("fp16", 0.4144), latency("fp16", 10.3)])])
    family = compare_family("toy", "families/toy/README.md", Revision(base), Revision(head))
    ap, ms = sorted(family.figures, key=lambda c: c.unit)  # "AP" before "ms"
    assert (change_text(ap), change_text(ms)) == ("-5.00 points", "+0.3 ms, +3.00 %")
    assert (change_size(ap), change_size(ms)) == (pytest.approx(0.05), pytest.approx(0.03))
    markdown = format_markdown(Report("base", "head", [family]))
    assert markdown.index("| toy | fp16 AP coco") < markdown.index("| toy | fp16 median GPU compute time")
    assert "%" not in next(line for line in markdown.splitlines() if line.startswith("| toy | fp16 AP coco"))


def test_a_new_or_removed_figure_of_several_jobs_names_them_once(tmp_path):
    # a new user's diff printed "(jobs a, a-b) (job a, a-b)": the values named the jobs, then the line again
    base = load(tmp_path / "base", records=[record("a", [latency("fp16", 10.0)]), record("a-b", [latency("fp16", 10.5)])])
    head = load(tmp_path / "head", records=[record("a", [latency("fp32", 20.0)]), record("a-b", [latency("fp32", 20.5)])])
    family = compare_family("toy", "families/toy/README.md", Revision(base, (), None), Revision(head, (), None))
    lines = format_text(Report("main (0123456789ab)", "the working tree", [family])).splitlines()
    assert lines[2].startswith("  new: fp32 median GPU compute time, 800 x 800, engine, H200: 20.0, 20.5 ms (jobs a, a-b) [")
    assert lines[3].startswith("  removed: fp16 median GPU compute time, 800 x 800, engine, H200: was 10.0, 10.5 ms "
                               "(jobs a, a-b) [")
    assert sum(line.count("(job") for line in lines) == 2


def test_a_job_dropped_beside_one_that_stays_is_a_removed_figure_in_every_format(tmp_path):
    # a new user's `git rm` of one job's record read "within spread ... (0.0 ms, 0.00 %)", 0 removed, exit 0
    base = load(tmp_path / "base", records=[record("a", [latency("fp16", 10.0)]), record("b", [latency("fp16", 10.5)])])
    head = load(tmp_path / "head", records=[record("a", [latency("fp16", 10.0)])])
    family = compare_family("toy", "families/toy/README.md", Revision(base, (), None), Revision(head, (), None))
    assert [(c.verdict, c.old_jobs, c.still_reported_by) for c in family.figures] == [
        ("removed", ("b",), ("a",)), ("unchanged", ("a", "b"), ())]
    report = Report("main (0123456789ab)", "the working tree", [family])
    removed = "fp16 median GPU compute time, 800 x 800, engine, H200: was 10.5 ms (job b); still reported by job a"
    lines = format_text(report).splitlines()
    assert lines[2] == f"  removed: {removed} [measurements/toy/b.json:{family.figures[0].place.line}]"
    assert lines[3] == ("0 figures beyond their spread, 0 verdict changes; 0 within spread, 0 new, 1 removed, "
                        "1 unchanged, 0 sentences changed, findings: 0 appeared, 0 gone")
    markdown = format_markdown(report).splitlines()
    assert markdown[4:7] == ["Removed figures (1):", "", f"- toy: {removed}"]
    assert format_github(report).splitlines()[0] == f"::warning title=studygen diff%3A removed::toy: {removed}"
    data = json.loads(format_json(report))
    assert data["summary"]["removed"] == 1
    (figure,) = data["families"][0]["figures"]
    assert (figure["verdict"], figure["old"], figure["old_jobs"], figure["still_reported_by"]) == (
        "removed", ["10.5"], ["b"], ["a"])
    assert [exit_code(report, f) for f in ("beyond-spread", "verdict", "never")] == [0, 0, 0]  # the docs fail on neither


def test_a_job_dropped_beside_one_that_moved_is_removed_and_the_move_judged_on_its_own(tmp_path):
    base = load(tmp_path / "base", records=[record("a", [latency("fp16", 10.0)]), record("b", [latency("fp16", 10.5)])])
    head = load(tmp_path / "head", records=[record("a", [latency("fp16", 10.2)])])
    family = compare_family("toy", "families/toy/README.md", Revision(base, (), None), Revision(head, (), None))
    lines = format_text(Report("a", "b", [family])).splitlines()
    assert lines[2].startswith("  within spread: fp16 median GPU compute time, 800 x 800, engine, H200: 10.0, 10.5 ms "
                               "(jobs a, b) -> 10.2 ms (+0.2 ms, +2.00 %); within 0.5 ms spread of 2 jobs in base")
    assert lines[3].startswith("  removed: fp16 median GPU compute time, 800 x 800, engine, H200: was 10.5 ms (job b); "
                               "still reported by job a [")


def test_the_spread_an_ap_change_is_held_to_is_in_points_at_the_lines_digits(tmp_path):
    # Two jobs scored int8 at 0.51266 and 0.53841 (pycocotools floats); job b re-scored at 0.60102 moved
    # +6.261 points, beyond their 2.575-point spread. The line said "more than 0.025750000000000051 spread of
    # 2 jobs in base (0.51266 to 0.53841)": a fraction at every digit of the float beside a change in points.
    from tests.checks.studies import coco_ap

    from studygen.compare.report import figure_line

    base = load(tmp_path / "base", records=[record("a", [coco_ap("fp16", 0.51266)]),
                                            record("b", [coco_ap("fp16", 0.53841)])])
    head = load(tmp_path / "head", records=[record("a", [coco_ap("fp16", 0.51266)]),
                                            record("b", [coco_ap("fp16", 0.60102)])])
    (change,) = compare_family("toy", "families/toy/README.md", Revision(base), Revision(head)).figures
    line = figure_line(change)
    assert line.endswith("(+6.26 points, job b moved most); more than 2.58 points spread of 2 jobs in base "
                         "(0.5127 to 0.5384)"), line
    # a tolerance, which the study file states as a fraction of AP, is given in points beside it
    base = load(tmp_path / "tol", study=spec(tolerances={"coco": 0.03}),
                records=[record("a", [coco_ap("fp16", 0.51266)])])
    head = load(tmp_path / "tol-head", records=[record("a", [coco_ap("fp16", 0.53841)])])
    (change,) = compare_family("toy", "families/toy/README.md", Revision(base), Revision(head)).figures
    line = figure_line(change)
    assert line.endswith("(+2.575 points); within tolerance 0.03000 (study file): 3.000 points"), line


def test_only_an_error_the_base_did_not_have_at_that_level_is_a_new_error():
    # a warning that appeared, an error that went and an error whose words changed are no new errors;
    # a waived error (a notice) that is an error again is one, and so is an error that appeared
    from studygen.compare import FamilyChanges, FindingChange

    place = "measurements/toy/main.json"
    warning = Finding("SG213", "fp8 timings are unstable", place, line=4)
    error = Finding("SG203", "fp8 differs between jobs a and b", place, line=9)
    waived = Finding("SG203", "int8 differs between jobs a and c", place, line=12, severity="notice")
    rose = Finding("SG203", "int8 differs between jobs a and c by 0.4 ms", place, line=12)
    assert (warning.severity, error.severity, rose.severity) == ("warning", "error", "error")
    family = FamilyChanges("toy", "families/toy/README.md", findings=[
        FindingChange(warning, True), FindingChange(error, False), FindingChange(error, True, was=error),
        FindingChange(rose, True, was=waived), FindingChange(STALE, True)])
    report = Report("a", "b", [family])
    assert [c.finding for _, c in report.new_errors()] == [rose, STALE]
    assert report.summary()["new error findings"] == 2
    assert ", 2 new error findings;" in format_text(report).splitlines()[-1]
    assert "New error findings" not in format_markdown(Report("a", "b", [FamilyChanges(
        "toy", "families/toy/README.md", findings=[FindingChange(warning, True)])]))
