"""The chord's error callback, called the way Celery calls it."""

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from headroom.jobs.service import JobLost
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
