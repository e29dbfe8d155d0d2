"""A job added to a key whose base job stays unchanged moved nothing: its distance from the base shows how two jobs
differ. Seen in a trial: one CPU job (5 repeat medians 0.5605 to 0.5648 ms, median 0.562 ms) and a replication at
0.567 ms; diff printed "+0.86 %, job laptop-2 moved most; more than 0.004271 ms spread of 5 repeat medians" and
failed. Repeats of one job do not bound another job; a job-to-job spread or a tolerance of the base does."""

from __future__ import annotations

from tests.workflow.test_diff import commit, git, line_of


def _project(tmp_path, tolerances=None):
    from tests.checks.studies import latency, record, spec, write_project

    repo = tmp_path / "repo"
    study = spec(tolerances=tolerances) if tolerances else spec()
    base_job = record("a", [latency("fp16", 0.562, repeats=[0.5605, 0.5612, 0.562, 0.5631, 0.5648])])
    write_project(repo, records=[base_job], study=study)
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "job a")
    replication = record("b", [latency("fp16", 0.567, repeats=[0.5662, 0.5668, 0.567, 0.5675, 0.5681])])
    write_project(repo, records=[base_job, replication], study=study)
    commit(repo, "job b replicates job a")
    return repo


def test_a_replication_beyond_one_jobs_repeats_is_a_new_job_not_a_move(tmp_path, run_cli):
    repo = _project(tmp_path)
    out = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    # before: exit 1, "beyond spread: ... (+0.005 ms, +0.89 %, job b moved most); more than 0.0043 ms spread ..."
    assert out.exit_code == 0, out.out + out.err
    b_line = line_of(repo / "measurements" / "toy" / "b.json", '"value_ms"', 0)
    # b lies 0.005 ms (0.567 / 0.562 - 1 = +0.89 %) from a's 0.562, past a's repeats (0.5648 - 0.5605 = 0.0043 ms)
    assert ("  new job: fp16 median GPU compute time, 800 x 800, engine, H200: 0.562 ms -> 0.562, 0.567 ms (jobs a, "
            "b) (job b is new, +0.005 ms, +0.89 % from the base); no spread between jobs or tolerance in base "
            "to hold a new job to (0.004 ms spread of 5 repeat medians in base (0.561 to 0.565 ms) bounds one "
            f"job's scatter) [measurements/toy/b.json:{b_line}]") in out.out.splitlines()
    # the reviewer still sees the two jobs disagree: check's SG203 judges that, and diff reports its finding
    assert (f"finding appeared: measurements/toy/b.json:{b_line}: SG203 [warning] same measurement disagrees "
            "across jobs") in out.out
    assert "0 figures beyond their spread, 0 verdict changes; 0 within spread, 1 figure with a new job, 0 new" in out.out


def test_a_tolerance_of_the_base_holds_a_new_job(tmp_path, run_cli):
    # a base tolerance of 0.001 ms bounds any two figures: b, 0.005 ms from a, is beyond it and fails
    repo = _project(tmp_path, tolerances={"latency_ms": 0.001})
    out = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert out.exit_code == 1, out.out + out.err
    assert ("(jobs a, b) (job b is new, +0.005 ms, +0.89 % from the base); more than tolerance 0.001 ms (study file)"
            in out.out)
