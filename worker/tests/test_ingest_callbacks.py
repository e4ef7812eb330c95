"""The chord's error callback and its merge, called the way Celery calls them."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from headroom.jobs.service import JobLost, owned
from headroom_worker import tasks
from support.factories import member


def running_job(settings: Settings) -> int:
    owner = member(settings, "chord@example.com", "Chords")
    with session_scope(settings.resolved_database_url()) as session:
        job_id = job_service.create(session, owner.workspace_id, "logs.ingest", None).id
    with session_scope(settings.resolved_database_url()) as session:
        assert job_service.claim(session, job_id, "w1", lease_s=60)
    return job_id


def test_a_failed_part_fails_the_job(settings: Settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(tasks, "get_settings", lambda: settings)
    job_id = running_job(settings)
    tasks.ingest_failed.run(None, OSError("disk full"), None, job_id, "w1")
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        assert job is not None and job.status == "failed" and "disk full" in job.error_message


def test_a_lost_lease_is_not_a_failure(settings: Settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(tasks, "get_settings", lambda: settings)
    job_id = running_job(settings)
    tasks.ingest_failed.run(None, JobLost("gone"), None, job_id, "w1")
    tasks.ingest_failed.run(None, OSError("late"), None, job_id, "another-worker")
    with session_scope(settings.resolved_database_url()) as session:
        assert session.get(Job, job_id).status == "running"  # type: ignore[union-attr]


def test_a_long_merge_keeps_the_lease(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    # the merge of a large file takes minutes: without heartbeats the reaper re-queues the
    # job mid-merge, and the whole ingest starts again, and again
    settings = settings.model_copy(update={"job_lease_s": 1.0})
    monkeypatch.setattr(tasks, "get_settings", lambda: settings)
    monkeypatch.setattr(tasks, "merge", lambda *_: time.sleep(1.5))
    monkeypatch.setattr(tasks, "characterize_after_ingest", lambda _: None)
    job_id = running_job(settings)
    started = datetime.now(UTC)
    tasks.ingest_merge.run([], job_id, "w1", {"dataset_id": 0})
    with session_scope(settings.resolved_database_url()) as session:
        beat = owned(session, job_id, "w1").heartbeat_at
        assert beat is not None and beat >= started + timedelta(seconds=1.0)
