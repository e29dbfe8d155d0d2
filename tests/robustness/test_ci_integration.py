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


def test_pre_commit_manifest_has_check_lint_and_render_hooks():
    hooks = _hooks()
    assert set(hooks) == {"studygen-check", "studygen-lint", "studygen-render"}
    for hook in hooks.values():
        assert HOOK_REQUIRED <= set(hook), hook
        assert set(hook) <= HOOK_REQUIRED | HOOK_OPTIONAL, hook
        assert hook["language"] == "python"
    check, lint, render = hooks["studygen-check"], hooks["studygen-lint"], hooks["studygen-render"]
    assert shlex.split(check["entry"]) == ["studygen", "check"]
    # check looks at whole families: filenames would be taken for family names.
    assert check["pass_filenames"] is False
    assert shlex.split(lint["entry"]) == ["studygen", "lint"]
    assert lint.get("pass_filenames", True) is True
    assert lint["types"] == ["markdown"]
    # render writes files: only when asked for (pre-commit run studygen-render --hook-stage manual)
    assert shlex.split(render["entry"]) == ["studygen", "render"]
    assert render["stages"] == ["manual"] and render["pass_filenames"] is False


def test_the_check_hook_runs_on_every_commit_of_a_study_repository():
    # issue 22: its files: named studygen/schemas/, which a study repository does not have, and missed a
    # study's own records folder and a new rev; it now runs on every commit
    check = _hooks()["studygen-check"]
    assert check["always_run"] is True and "files" not in check
    manifest = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "studygen/schemas" not in manifest


def test_a_stale_readme_under_pre_commit_says_how_to_render_without_studygen_installed(tmp_path, run_cli,
                                                                                       monkeypatch):
    from tests.conftest import copy_project

    project = copy_project(tmp_path / "project")
    readme = project / "families" / "deformable_detr" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    plain = run_cli("check", "--root", project)
    monkeypatch.setenv("PRE_COMMIT", "1")  # as pre-commit sets it for its hooks
    hooked = run_cli("check", "--root", project)
    assert plain.exit_code == hooked.exit_code == 1
    assert "hint: run studygen render deformable_detr (never edit it by hand)\n" in plain.out
    assert ("hint: run studygen render deformable_detr (never edit it by hand); studygen runs here from pre-commit's "
            "own environment: render with it by pre-commit run studygen-render --hook-stage manual --all-files (or "
            "install studygen at the rev your .pre-commit-config.yaml pins and run studygen render)") in hooked.out


def test_hook_entries_name_the_console_script():
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    for hook in _hooks().values():
        assert shlex.split(hook["entry"])[0] in scripts


def test_github_actions_example_installs_studygen_for_a_separate_study_repository():
    workflow = yaml.safe_load((REPO / "docs" / "github-actions-example.yml").read_text(encoding="utf-8"))
    # YAML 1.1 (PyYAML) reads the bare key `on` as True.
    triggers = workflow.get("on", workflow.get(True))
    assert "pull_request" in triggers
    job = workflow["jobs"]["check"]
    runs = [step["run"] for step in job["steps"] if "run" in step]
    # issue 22: "pip install -e ." assumed the studies live inside the studygen repository
    assert not any("-e ." in run or "install ." in run for run in runs)
    install = next(run for run in runs if run.startswith("pip install"))
    assert install == 'pip install "studygen @ git+${STUDYGEN_REPO}@${STUDYGEN_REV}"'
    assert set(workflow["env"]) == {"STUDYGEN_REPO", "STUDYGEN_REV"}
    for other in workflow["jobs"].values():  # the diff job installs the same studygen
        installs = [step["run"] for step in other["steps"] if step.get("run", "").startswith("pip install")]
        assert installs == [install]
    assert runs.index(install) < runs.index("studygen check --format github")
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
    record_path = clone / RECORDS / "h200-compile-800x1067.json"
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
    # the README and its latency chart are stale (two SG201 errors): said first, unfolded
    assert "**1 figure beyond its spread, 0 verdict changes, 2 new error findings;" in comment
    assert "New error findings (check fails on these):" in comment


def test_version_names_the_commit(run_cli):
    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    result = run_cli("--version")
    assert result.exit_code == 0
    assert result.out.startswith(f"studygen, version {version}+g{head[:7]}")  # .dirty after it with changes
    out = subprocess.run([sys.executable, "-m", "studygen", "--version"], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    assert out == result.out


def test_the_commit_pip_recorded_is_the_version_label():
    from studygen.version import local_version, recorded_commit

    # PEP 610's example of a VCS install, and what other installs record
    vcs = ('{"url": "https://github.com/pypa/pip.git", "vcs_info": {"vcs": "git", "requested_revision": "1.3.1", '
           '"commit_id": "7921be1537eac1e97bc40179a57f0349c2aabfc9"}}')
    assert recorded_commit(vcs) == "7921be1537eac1e97bc40179a57f0349c2aabfc9"
    assert recorded_commit('{"url": "file:///home/user/project", "dir_info": {}}') is None
    assert recorded_commit("not json") is None and recorded_commit(None) is None and recorded_commit("[1]") is None
    assert local_version("0.1.0", "7921BE1537EAC1E9") == "0.1.0+g7921be1"
    assert local_version("0.1.0", "7921be1", dirty=True) == "0.1.0+g7921be1.dirty"
    assert local_version("0.1.0", None) == "0.1.0"


def test_the_commit_comes_from_pip_for_this_package_only(tmp_path):
    from importlib.metadata import PathDistribution

    from studygen.version import installed_commit

    (tmp_path / "studygen").mkdir()
    (tmp_path / "studygen" / "__init__.py").write_text("")
    info = tmp_path / "studygen-0.1.0.dist-info"
    info.mkdir()
    (info / "direct_url.json").write_text('{"url": "https://example.org/studygen.git", "vcs_info": '
                                          '{"vcs": "git", "commit_id": "0bec37b1a2b3c4d5e6f708192a3b4c5d6e7f8091"}}')
    installed = PathDistribution(info)
    assert installed_commit(installed, tmp_path / "studygen") == "0bec37b1a2b3c4d5e6f708192a3b4c5d6e7f8091"
    assert installed_commit(installed, tmp_path / "elsewhere") is None  # another copy runs: not its commit
    (info / "direct_url.json").write_text('{"url": "file:///src/studygen", "dir_info": {}}')
    assert installed_commit(installed, tmp_path / "studygen") is None
    from studygen.version import recorded_commit

    assert recorded_commit('{"vcs_info": {"commit_id": ""}}') is None
    assert recorded_commit('{"vcs_info": {"commit_id": 7921}}') is None


def test_a_checkout_gives_its_head_and_whether_it_changed(tmp_path):
    from studygen.version import checkout_commit

    assert checkout_commit(tmp_path) == (None, False)  # no repository
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "PATH": __import__("os").environ["PATH"]}
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "one"]):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, env=env, capture_output=True)
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert checkout_commit(tmp_path / "pkg") == (head, False)
    (tmp_path / "other.txt").write_text("untracked, outside the package\n")
    (tmp_path / "pkg" / "scratch.py").write_text("untracked, inside it: no code of the commit changed\n")
    assert checkout_commit(tmp_path / "pkg") == (head, False)
    (tmp_path / "pkg" / "a.py").write_text("x = 2\n")
    assert checkout_commit(tmp_path / "pkg") == (head, True)
