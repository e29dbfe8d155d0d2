"""A study file's kernel_groups pattern that is no regular expression.

Case (a new user): ``{pattern: 'sgemm(', group: GEMM}`` gave no finding in
``check`` nor ``render`` (only ``collect`` refused it, with a JSON pointer
where a line number goes). All three now name the study file's line, the
pointer in the message, as for any other study-file error.
"""

from __future__ import annotations

from tests.conftest import FIXTURES

ALEXNET = FIXTURES / "torch_profiler" / "alexnet_kineto_trace.json.gz"
MESSAGE = ("families/alexnet/study.yaml:38: invalid regular expression 'sgemm(': missing ), unterminated subpattern "
           "at position 5 (/kernel_groups/1/pattern)")


def test_an_invalid_pattern_is_refused_at_its_line(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "alexnet", "--variants", "fp32", "--backend", "pytorch").exit_code == 0
    study = tmp_path / "families" / "alexnet" / "study.yaml"
    text = study.read_text(encoding="utf-8")
    study.write_text(text + "kernel_groups:\n- {pattern: 'pool', group: pooling}\n- {pattern: 'sgemm(', group: GEMM}\n",
                     encoding="utf-8")
    # the bad pattern's line: the scaffold's length is new's to choose
    line = study.read_text(encoding="utf-8").splitlines().index("- {pattern: 'sgemm(', group: GEMM}") + 1
    message = MESSAGE.replace("study.yaml:38:", f"study.yaml:{line}:")
    checked = run_cli("check", "alexnet")
    assert checked.exit_code == 1
    assert checked.out.splitlines()[0] == message.replace(": invalid", ": SG202 invalid", 1)
    rendered = run_cli("render", "alexnet")
    assert rendered.exit_code == 2 and rendered.err == f"studygen: {message}\n"
    assert not (tmp_path / "families" / "alexnet" / "README.md").exists()
    collected = run_cli("collect", "torch-profile", "--family", "alexnet", "--job", "a100", "--variant", "fp32",
                        "--trace", ALEXNET)
    assert collected.exit_code == 2 and collected.err == f"studygen: {message}\n"
