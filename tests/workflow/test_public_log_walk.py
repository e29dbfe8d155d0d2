"""Issue 22 item 5: the study guide's walk from ``studygen new`` to a README
one would publish, on a log someone else published (the ``public-log walk``
of docs/study-guide.md). The commands are run exactly as the guide prints
them, in a fresh project with ``../shared`` beside it; the one comment line
of the walk is the hand edit of the study file, made here with the guide's
YAML block, as a reader would paste it."""

from __future__ import annotations

import hashlib
import json
import re
import shlex

import yaml

from ..conftest import REPO, SHARED

GUIDE = REPO / "docs" / "study-guide.md"
WALK = re.compile(r"<!-- public-log walk: begin -->\n```sh\n(.*?)```\n<!-- public-log walk: end -->", re.S)
EDIT = re.compile(r"<!-- public-log walk: study edit -->\n```yaml\n(.*?)```\n", re.S)
LOG = SHARED / "fixtures" / "public" / "hackathon-76321b19_trt8.4.1_result-FP16.log"
COMMIT = "76321b190daa3755d544922052be109a2172e441"


def walk_lines() -> list[str]:
    (block,) = WALK.findall(GUIDE.read_text(encoding="utf-8"))
    return [line for line in block.splitlines() if line.strip()]


def study_edit() -> dict:
    (block,) = EDIT.findall(GUIDE.read_text(encoding="utf-8"))
    return yaml.safe_load(block)


def test_the_walk_is_new_collect_edit_render_check_on_a_public_log():
    lines = walk_lines()
    steps = [line.split()[:2] if not line.startswith("#") else ["#"] for line in lines]
    assert steps == [["studygen", "new"], ["studygen", "collect"], ["#"], ["studygen", "render"], ["studygen", "check"]]
    collect = shlex.split(lines[1])
    assert collect[collect.index("--log") + 1] == "../shared/fixtures/public/" + LOG.name
    # the origin names the repository, the commit and the path SOURCES.md gives for this file
    assert collect[collect.index("--origin") + 1] == (
        f"log=NVIDIA/trt-samples-for-hackathon-cn@{COMMIT}:cookbook/08-Tool/trtexec/result-FP16.log")
    assert "families/gtx1070/study.yaml" in lines[2]
    # the edit replaces what `new` leaves as placeholders, and only that
    assert set(study_edit()) == {"title", "description", "decision"}


def test_the_public_log_walk_ends_in_a_readme_without_placeholders(tmp_path, run_cli, monkeypatch):
    project = tmp_path / "work" / "project"
    project.mkdir(parents=True)
    (tmp_path / "work" / "shared").symlink_to(SHARED, target_is_directory=True)
    monkeypatch.chdir(project)
    study_file = project / "families" / "gtx1070" / "study.yaml"
    results, placeholders = [], []
    for line in walk_lines():
        if line.startswith("#"):  # the hand edit: paste the guide's block over title, description, decision
            spec = yaml.safe_load(study_file.read_text(encoding="utf-8"))
            placeholders = [spec["title"], spec["description"], spec["decision"]["summary"]]
            spec.update(study_edit())
            study_file.write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
            continue
        argv = shlex.split(line)
        assert argv[0] == "studygen"
        results.append(run_cli(*argv[1:]))
    assert [r.exit_code for r in results] == [0, 0, 0, 0], [r.err for r in results]
    assert results[-1].out.strip().splitlines()[-1] == "0 error(s), 0 warning(s)"

    record = json.loads((project / "measurements/gtx1070/gtx1070-trt8.4.1.json").read_text())
    provenance = record["provenance"]
    # from the log: "Selected Device: NVIDIA GeForce GTX 1070", "[TensorRT v8401]" / "TensorRT version: 8.4.1"
    assert provenance["gpu"] == "NVIDIA GeForce GTX 1070" and provenance["software"]["tensorrt"] == "8.4.1"
    assert provenance["repository_commit"] == COMMIT and provenance["checkpoint"]["revision"] == "76321b19"
    # sha256sum of the fixture begins cd606f0b5afe (read by hand); computed again here
    digest = hashlib.sha256(LOG.read_bytes()).hexdigest()[:12]
    assert digest == "cd606f0b5afe"
    origin = (f"input --log {LOG.name} (sha256 {digest}) was published in NVIDIA/trt-samples-for-hackathon-cn "
              f"at commit {COMMIT} as cookbook/08-Tool/trtexec/result-FP16.log")
    assert origin in provenance["notes"]

    readme = (project / "families/gtx1070/README.md").read_text(encoding="utf-8")
    edit = study_edit()
    assert f"# {edit['title']}\n" in readme
    assert " ".join(edit["description"].split()) in readme and " ".join(edit["decision"]["summary"].split()) in readme
    assert placeholders and not any(text in readme for text in placeholders), placeholders
    # the log's GPU Compute median: "median = 0.154663 ms", with its digits; the GPU as the table names it,
    # and the batch of its --shapes=tensor-0:4x1x28x28, which every row shares (issue 22: stated all the same)
    rows = [" ".join(line.split()) for line in readme.splitlines()]
    assert "| GeForce GTX 1070 | 28 x 28 | 4 | 0.1547 |" in rows  # 0.154663 to 4 significant digits
    assert origin in readme
