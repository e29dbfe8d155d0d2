"""Job ids of a sharded run: shard K of N of job ``h200`` writes the record ``h200-shardKofN``.

``collect run --shard`` names each shard's record by :func:`job_id_for`; a
check that must tell two shards of one job from two jobs (SG212) reads the
name back with :func:`shard_of_job`.
"""

from __future__ import annotations

import re

SHARD_JOB = re.compile(r"^(?P<job>.+)-shard(?P<index>[1-9][0-9]*)of(?P<count>[1-9][0-9]*)$")


def job_id_for(job: str, shard: tuple[int, int]) -> str:
    """``job`` for an unsharded run, ``job-shardKofN`` for shard K of N."""
    return job if shard == (1, 1) else f"{job}-shard{shard[0]}of{shard[1]}"


def shard_of_job(job_id: str) -> tuple[str, tuple[int, int]] | None:
    """``('h200', (2, 4))`` for the job id ``h200-shard2of4`` that
    :func:`job_id_for` gives shard 2 of 4; None for an unsharded job id
    (and for a shard number above the count, which no run writes)."""
    match = SHARD_JOB.match(job_id)
    if not match:
        return None
    index, count = int(match["index"]), int(match["count"])
    return (match["job"], (index, count)) if index <= count else None
