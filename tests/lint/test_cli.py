"""`studygen lint PATH...`: exit codes, formats, folders, bad input."""

from __future__ import annotations

import json
import shutil

from studygen.lint import lint_paths

from .cases import CASES

SEED = CASES / "sg101_seed_as_submitted.md"
CLEAN = CASES / "clean_fp8_study.md"
WARNING_ONLY = CASES / "sg105_pos_paragraph.md"


def test_clean_file_exits_0(run_cli):
    result = run_cli("lint", CLEAN)
    assert result.exit_code == 0
    assert result.out.strip() == "0 error(s), 0 warning(s)"


def test_error_findings_exit_1_with_text_lines(run_cli):
    result = run_cli("lint", SEED)
    assert result.exit_code == 1
    lines = result.out.splitlines()
    assert lines[0].startswith(f"{SEED}:18: SG101 range 0.19 to 0.21 ms")
    assert any(line.startswith("    hint: widen the range") for line in lines)
    assert lines[-1] == "2 error(s), 0 warning(s)"


def test_warnings_alone_exit_0(run_cli):
    result = run_cli("lint", WARNING_ONLY)
    assert result.exit_code == 0
    assert "SG105 [warning]" in result.out
    assert result.out.strip().endswith("0 error(s), 2 warning(s)")


def test_json_format(run_cli):
    result = run_cli("lint", "--format", "json", SEED)
    assert result.exit_code == 1
    findings = json.loads(result.out)
    assert [(f["code"], f["line"], f["severity"]) for f in findings] == [("SG101", 18, "error"), ("SG101", 19, "error")]
    assert "0.336 ms" in findings[1]["message"] and findings[1]["hint"]


def test_github_format(run_cli):
    result = run_cli("lint", "--format", "github", SEED)
    assert result.exit_code == 1
    commands = [line for line in result.out.splitlines() if line.startswith("::")]
    assert len(commands) == 2
    assert commands[0].startswith(f"::error file={SEED},line=18,title=SG101::SG101 range 0.19 to 0.21 ms")
    assert "%0Ahint: " in commands[0]  # the hint on a second line, newline escaped


def test_folder_is_searched_for_md_files(run_cli, tmp_path):
    (tmp_path / "sub").mkdir()
    shutil.copy(SEED, tmp_path / "sub" / "README.md")
    shutil.copy(CLEAN, tmp_path / "clean.md")
    (tmp_path / "notes.txt").write_text("0.19 to 0.21 ms, not Markdown\n")
    result = run_cli("lint", "--format", "json", tmp_path)
    assert result.exit_code == 1
    files = {f["file"] for f in json.loads(result.out)}
    assert files == {str(tmp_path / "sub" / "README.md")}


def test_missing_path_exits_2_with_one_line(run_cli, tmp_path):
    result = run_cli("lint", tmp_path / "nope.md")
    assert result.exit_code == 2
    assert result.err.strip() == f"studygen: {tmp_path / 'nope.md'}: no such file or folder"
    assert result.out == ""


def test_unreadable_inputs_exit_2(run_cli, tmp_path):
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\x00\x01\x02")
    latin = tmp_path / "latin.md"
    latin.write_bytes("caf\xe9 0.19 to 0.21 ms".encode("latin-1"))
    empty = tmp_path / "empty.md"
    empty.write_text("")
    for path, reason in ((binary, "binary file"), (latin, "not UTF-8"), (empty, "file is empty")):
        result = run_cli("lint", CLEAN, path)
        assert result.exit_code == 2, path
        assert result.err.count("\n") == 1 and reason in result.err and str(path) in result.err
        assert result.out == ""  # nothing is reported for the readable file either


def test_a_folder_entry_that_cannot_be_read_is_named_not_passed_over(run_cli, tmp_path):
    # attack s21: a folder's lint skipped a link leading nowhere and a FIFO named *.md without a word (exit 0)
    import os

    shutil.copy(CLEAN, tmp_path / "clean.md")
    (tmp_path / "gone.md").symlink_to(tmp_path / "deleted.md")
    result = run_cli("lint", tmp_path)
    assert (result.exit_code, result.out) == (2, "")
    assert result.err == (f"studygen: {tmp_path / 'gone.md'}: is a symbolic link to {tmp_path / 'deleted.md'}, "
                          "which does not exist\n")
    (tmp_path / "gone.md").unlink()
    os.mkfifo(tmp_path / "pipe.md")
    result = run_cli("lint", tmp_path)
    assert (result.exit_code, result.err) == (2, f"studygen: {tmp_path / 'pipe.md'}: is a FIFO (named pipe), not a "
                                                 "regular file\n")


def test_folder_without_markdown_exits_2(run_cli, tmp_path):
    (tmp_path / "a.txt").write_text("x")
    result = run_cli("lint", tmp_path)
    assert result.exit_code == 2
    assert "folder holds no .md files" in result.err


def test_usage_errors_exit_2(run_cli):
    assert run_cli("lint").exit_code == 2
    assert run_cli("lint", "--format", "xml", CLEAN).exit_code == 2


def test_lint_paths_api(tmp_path):
    from studygen.errors import InputError
    from studygen.lint import lint_paths

    findings = lint_paths([SEED, CLEAN])
    assert [(f.file, f.line) for f in findings] == [(str(SEED), 18), (str(SEED), 19)]
    try:
        lint_paths([tmp_path / "missing.md"])
    except InputError as error:
        assert "no such file" in error.line()
    else:
        raise AssertionError("InputError expected")


def test_an_unclosed_fence_of_many_backticks_is_quoted_by_count(tmp_path):
    # a fence of 5,000 backticks made a finding line of 5,000+ characters, and its hint another
    document = tmp_path / "long.md"
    document.write_text("# T\n\n" + "`" * 5000 + "\ncode\n", encoding="utf-8")
    (finding,) = lint_paths([document])
    assert finding.message == ("code fence 5000 backticks opened at line 3 is never closed: everything after it, "
                               "to line 4, renders as code")
    assert finding.hint == "close the block with a line holding 5000 backticks or more"
    short = tmp_path / "short.md"
    short.write_text("# T\n\n~~~~\ncode\n", encoding="utf-8")
    assert [(f.message, f.hint) for f in lint_paths([short])] == [
        ("code fence ~~~~ opened at line 3 is never closed: everything after it, to line 4, renders as code",
         "close the block with a line holding ~~~~")]
