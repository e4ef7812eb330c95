"""A parallel ingest's progress with retried parts: each part counts once, however often it
runs (a part retried after an error, or the whole job re-run by another worker after its
first worker died), so the bar never goes past 1 and never goes back."""

import pytest

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.datasets import ingest
from headroom.datasets.ingest import PARSE_SHARE
from headroom.datasets.ingest_ranges import (
    parse_range,
    plan_ranges,
    prepared_to_dict,
)
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from support.factories import member, signed_in

pytestmark = pytest.mark.faults


def progress_of(settings: Settings, job_id: int) -> float:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        assert job is not None
        return job.progress


def test_retried_parts_count_once(settings: Settings, sample_log) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(settings, member(settings, "parts@example.com", "Parts"))
    created = client.post(
        "/api/v1/datasets", params={"name": "access.log"}, content=sample_log.read_bytes()
    )
    assert created.status_code == 202, created.text
    job_id = created.json()["job"]["id"]
    url = settings.resolved_database_url()
    with session_scope(url) as session:
        assert job_service.claim(session, job_id, "w1", settings.job_lease_s)
    prepared = ingest.prepare(settings, job_id, "w1")
    ranges = plan_ranges(
        open_store(settings.resolved_storage_url()),
        prepared.key,
        prepared.size_bytes,
        prepared.size_bytes // 4 + 1,
    )
    assert len(ranges) >= 3
    payload = prepared_to_dict(prepared)
    seen = [progress_of(settings, job_id)]
    # every part once, then the first two again (retried after a transient error)
    for part in [*ranges, ranges[0], ranges[1]]:
        parse_range(settings, job_id, "w1", payload, part)
        seen.append(progress_of(settings, job_id))
    # Each part's share is its byte range over the file: together they tile it, so the
    # parse stage ends at exactly PARSE_SHARE (hand-computed: the shares sum to 1 x 0.95).
    assert seen[-1] == pytest.approx(PARSE_SHARE, abs=1e-9)
    # the first worker dies; a second one re-runs the whole job (and all of its parts)
    with session_scope(url) as session:
        job = session.get(Job, job_id)
        assert job is not None and job.heartbeat_at is not None
        job.heartbeat_at = job.heartbeat_at.replace(year=2000)
    with session_scope(url) as session:
        assert job_service.requeue_stale(session, settings.job_lease_s, 600) == [job_id]
        assert job_service.claim(session, job_id, "w2", settings.job_lease_s)
    prepared = ingest.prepare(settings, job_id, "w2")
    for part in ranges:
        parse_range(settings, job_id, "w2", prepared_to_dict(prepared), part)
        seen.append(progress_of(settings, job_id))
    assert max(seen) <= 1.0
    assert seen == sorted(seen), "progress went back"
    assert seen[-1] == pytest.approx(PARSE_SHARE, abs=1e-9)
