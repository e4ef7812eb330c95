"""Job leases: one holder at a time, stale holders lose the job, lost messages are re-sent."""

from datetime import timedelta

import pytest
from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import ConnectionError as RedisUnreachable

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.runner import JobContext, run_job
from support.factories import member


def new_job(settings: Settings) -> int:
    owner = member(settings, "lease@example.com", "Leases")
    with session_scope(settings.resolved_database_url()) as session:
        return job_service.create(session, owner.workspace_id, "logs.ingest", None).id


def age(settings: Settings, job_id: int, seconds: float) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        assert job is not None and job.heartbeat_at is not None
        job.heartbeat_at -= timedelta(seconds=seconds)
        if job.sent_at is not None:
            job.sent_at -= timedelta(seconds=seconds)


def test_only_one_worker_can_claim(settings: Settings) -> None:
    job_id = new_job(settings)
    with session_scope(settings.resolved_database_url()) as session:
        assert job_service.claim(session, job_id, "a", lease_s=60)
    with session_scope(settings.resolved_database_url()) as session:
        assert not job_service.claim(session, job_id, "b", lease_s=60)


def test_a_stale_holder_loses_the_job_and_its_writes(settings: Settings) -> None:
    url = settings.resolved_database_url()
    job_id = new_job(settings)
    with session_scope(url) as session:
        assert job_service.claim(session, job_id, "a", lease_s=60)
    age(settings, job_id, 120)
    with session_scope(url) as session:
        assert job_service.requeue_stale(session, lease_s=60, resend_after_s=600) == [job_id]
    with session_scope(url) as session:
        assert job_service.claim(session, job_id, "b", lease_s=60)
    with session_scope(url) as session, pytest.raises(job_service.JobLost):
        job_service.report(session, job_id, "a", 0.5, "parsing", None)
    with session_scope(url) as session:
        job_service.report(session, job_id, "b", 0.5, "parsing", None)
        job = session.get(Job, job_id)
        assert job is not None and job.attempts == 2 and job.worker == "b"


def test_a_queued_job_whose_message_was_lost_is_sent_again(settings: Settings) -> None:
    url = settings.resolved_database_url()
    job_id = new_job(settings)
    with session_scope(url) as session:  # the outbox sent it
        job = session.get(Job, job_id)
        assert job is not None and job.sent_at is None
        job_service.mark_sent(session, job)
    with session_scope(url) as session:
        assert job_service.requeue_stale(session, lease_s=60, resend_after_s=600) == []
    age(settings, job_id, 601)
    with session_scope(url) as session:
        assert job_service.requeue_stale(session, lease_s=60, resend_after_s=600) == [job_id]
        job = session.get(Job, job_id)
        assert job is not None and job.sent_at is None  # back in the outbox
    with session_scope(url) as session:  # in the outbox now: listed once, not again
        assert job_service.requeue_stale(session, lease_s=60, resend_after_s=600) == []


def test_runner_marks_unexpected_errors_failed_with_a_message(settings: Settings) -> None:
    job_id = new_job(settings)

    def explode(context: JobContext) -> None:
        raise ValueError("disk on fire")

    assert run_job(settings, job_id, explode)
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        assert job is not None and job.status == JobStatus.failed
        assert job.error_code == "internal_error" and "disk on fire" in (job.error_message or "")
    assert not run_job(settings, job_id, explode)  # finished jobs are never run again


@pytest.mark.parametrize(
    "error",
    [
        BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
        RedisUnreachable("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
    ],
    ids=["kombu", "redis"],
)
def test_a_broker_that_cannot_be_reached_is_retried_not_failed(
    settings: Settings, error: Exception
) -> None:
    """A job that sends its parts while the broker restarts: queued again for a retry."""
    job_id = new_job(settings)
    retried: list[int] = []

    def send_parts(context: JobContext) -> None:
        raise error

    assert run_job(settings, job_id, send_parts, on_transient=lambda e, n: retried.append(n))
    assert retried == [1]
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        assert job is not None and job.status == JobStatus.queued and job.error_code is None


def test_a_failed_analysis_job_leaves_its_dataset_ready(settings: Settings) -> None:
    from headroom.datasets.ingest_outputs import mark_failed
    from headroom.datasets.models import Dataset

    owner = member(settings, "kind@example.com", "Kinds")
    with session_scope(settings.resolved_database_url()) as session:
        dataset = Dataset(
            workspace_id=owner.workspace_id,
            name="a.log",
            size_bytes=1,
            sha256="0" * 64,
            storage_key="k",
            status="ready",
            meta={},
        )
        session.add(dataset)
        session.flush()
        job_id = job_service.create(session, owner.workspace_id, "capacity.analyze", dataset.id).id
        dataset_id = dataset.id
    mark_failed(settings, job_id, "transient_error", "database went away")
    with session_scope(settings.resolved_database_url()) as session:
        assert session.get(Dataset, dataset_id).status == "ready"  # type: ignore[union-attr]
        assert session.get(Job, job_id).status == "failed"  # type: ignore[union-attr]
