"""CI integration: the pre-commit hook manifest, the example GitHub Actions
workflow, and ``studygen --version``."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

from tests.conftest import REPO

# Keys a pre-commit manifest entry must have, and the ones it may have
# (pre-commit's clientlib MANIFEST_HOOK_DICT, pre-commit 3.x/4.x).
HOOK_REQUIRED = {"id", "name", "entry", "language"}
HOOK_OPTIONAL = {"alias", "files", "exclude", "types", "types_or", "exclude_types", "additional_dependencies",
                 "args", "always_run", "fail_fast", "pass_filenames", "description", "language_version",
                 "log_file", "minimum_pre_commit_version", "require_serial", "stages", "verbose"}


def _hooks() -> dict[str, dict]:
    manifest = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(manifest, list)
    return {hook["id"]: hook for hook in manifest}


def test_pre_commit_manifest_has_check_and_lint_hooks():
    hooks = _hooks()
    assert set(hooks) == {"studygen-check", "studygen-lint"}
    for hook in hooks.values():
        assert HOOK_REQUIRED <= set(hook), hook
        assert set(hook) <= HOOK_REQUIRED | HOOK_OPTIONAL, hook
        assert hook["language"] == "python"
    check, lint = hooks["studygen-check"], hooks["studygen-lint"]
    assert shlex.split(check["entry"]) == ["studygen", "check"]
    # check looks at whole families: filenames would be taken for family names.
    assert check["pass_filenames"] is False
    assert shlex.split(lint["entry"]) == ["studygen", "lint"]
    assert lint.get("pass_filenames", True) is True
    assert lint["types"] == ["markdown"]


def test_check_hook_runs_when_a_study_input_changes():
    import re

    pattern = re.compile(_hooks()["studygen-check"]["files"])
    for path in ("families/deformable_detr/README.md", "families/deformable_detr/study.yaml",
                 "measurements/deformable_detr/b200-trt11.4.json", "templates/deformable_detr.md.j2",
                 "studygen/schemas/run_record.schema.json"):
        assert pattern.search(path), path
    for path in ("studygen/cli.py", "tests/conftest.py", "docs/study-guide.md"):
        assert not pattern.search(path), path


def test_hook_entries_name_the_console_script():
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    for hook in _hooks().values():
        assert shlex.split(hook["entry"])[0] in scripts


def test_github_actions_example_installs_and_checks_with_github_format():
    workflow = yaml.safe_load((REPO / "docs" / "github-actions-example.yml").read_text(encoding="utf-8"))
    # YAML 1.1 (PyYAML) reads the bare key `on` as True.
    triggers = workflow.get("on", workflow.get(True))
    assert "pull_request" in triggers
    job = workflow["jobs"]["check"]
    runs = [step["run"] for step in job["steps"] if "run" in step]
    assert "pip install -e ." in runs
    assert "studygen check --format github" in runs
    assert runs.index("pip install -e .") < runs.index("studygen check --format github")
    assert any(step.get("uses", "").startswith("actions/checkout@") for step in job["steps"])


def test_github_actions_example_posts_the_diff_of_a_pull_request(tmp_path):
    """The diff job's own script, run in a clone whose pull request slows one figure
    beyond its spread: it writes the Markdown the next step posts and records exit 1."""
    import json
    import os

    from tests.workflow.test_diff import FAMILY, RECORDS, commit, git, latency_index, shift_latency

    workflow = yaml.safe_load((REPO / "docs" / "github-actions-example.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["diff"]
    assert job["if"] == "github.event_name == 'pull_request'"
    assert job["permissions"]["pull-requests"] == "write"
    checkout = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    diff_step = next(step for step in job["steps"] if step.get("id") == "diff")
    post = next(step for step in job["steps"] if "gh pr comment" in step.get("run", ""))
    assert shlex.split(post["run"])[:5] == ["gh", "pr", "comment", "$PR", "--body-file"]
    assert "studygen-diff.md" in post["run"] and post["env"]["GH_TOKEN"] == "${{ github.token }}"

    from tests.conftest import copy_project
    upstream = copy_project(tmp_path / "upstream", families=(FAMILY,))
    git(upstream, "init", "-q", "-b", "main")
    commit(upstream, "studies")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(upstream), str(clone)], check=True)
    record_path = clone / RECORDS / "h200-compile.json"
    record = json.loads(record_path.read_text())
    shift_latency(record["results"][latency_index(record, "fp16", "800x1067")], 0.5)
    record_path.write_text(json.dumps(record, indent=2) + "\n")
    commit(clone, "the pull request")
    outputs = tmp_path / "github-output"
    env = dict(os.environ, BASE_REF="main", GITHUB_OUTPUT=str(outputs),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    subprocess.run(["bash", "-e", "-c", diff_step["run"]], cwd=clone, env=env, check=True)
    assert outputs.read_text() == "status=1\n"
    comment = (clone / "studygen-diff.md").read_text()
    assert comment.startswith("### studygen diff: `origin/main (")
    assert "**1 figure beyond its spread, 0 verdict changes;" in comment


def test_version_matches_pyproject(run_cli):
    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    result = run_cli("--version")
    assert result.exit_code == 0
    assert result.out == f"studygen, version {version}\n"
    out = subprocess.run([sys.executable, "-m", "studygen", "--version"], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    assert out == f"studygen, version {version}\n"
