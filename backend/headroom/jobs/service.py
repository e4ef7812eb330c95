"""Job lifecycle: queued -> running (leased, heartbeating) -> succeeded | failed.

A job belongs to a worker only while that worker's heartbeat is fresh; the reaper puts a
job back in the queue when it is not, so a killed worker's job is finished by another.
"""

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import NotFound
from headroom.datasets.models import Dataset
from headroom.jobs import repository
from headroom.jobs.models import Job, JobStatus, Result


def now_utc() -> datetime:
    return datetime.now(UTC)


def create(session: Session, workspace_id: int, kind: str, dataset_id: int | None) -> Job:
    job = Job(
        heartbeat_at=now_utc(),
        sent_at=None,  # the outbox sends it once the request's transaction commits
        workspace_id=workspace_id,
        kind=kind,
        dataset_id=dataset_id,
        status=JobStatus.queued,
        stage="queued",
        progress=0.0,
    )
    session.add(job)
    session.flush()
    return job


def get_visible(session: Session, principal: Principal, job_id: int) -> Job:
    job = repository.visible_job(session, principal.workspace_ids, job_id)
    if job is None:
        raise NotFound(f"job {job_id} not found")
    return job


def claim(session: Session, job_id: int, worker: str, lease_s: float) -> bool:
    now = now_utc()
    return repository.claim(session, job_id, worker, now, now - timedelta(seconds=lease_s))


class JobLost(Exception):
    """This worker's lease on the job ran out and the job went to someone else."""


def owned(session: Session, job_id: int, worker: str) -> Job:
    job = session.get(Job, job_id)
    if job is None or job.status != JobStatus.running or job.worker != worker:
        raise JobLost(f"job {job_id} is no longer held by {worker}")
    return job


def heartbeat(session: Session, job_id: int, worker: str) -> None:
    owned(session, job_id, worker).heartbeat_at = now_utc()


def report(
    session: Session, job_id: int, worker: str, progress: float, stage: str, eta_s: float | None
) -> None:
    job = owned(session, job_id, worker)
    job.progress = max(job.progress, min(max(progress, 0.0), 1.0))  # never goes back
    job.stage = stage
    job.eta_s = eta_s
    job.heartbeat_at = now_utc()


def succeed(session: Session, job: Job) -> None:
    job.status, job.progress, job.stage, job.eta_s = JobStatus.succeeded, 1.0, "done", 0.0
    job.finished_at = now_utc()


def save_result(
    session: Session,
    job_id: int,
    worker: str,
    kind: str,
    document: Mapping[str, object],  # the result document, as JSON
    dataset_id: int | None = None,
    table_keys: list[str] | None = None,
) -> Job:
    """Replace the job's result (a retry overwrites its own) and mark it succeeded; only the
    worker holding the lease may (JobLost otherwise)."""
    job = owned(session, job_id, worker)
    if dataset_id is not None:
        lock_dataset(session, dataset_id, for_update=False)
    session.execute(delete(Result).where(Result.job_id == job_id))
    session.add(
        Result(
            job_id=job_id,
            dataset_id=dataset_id,
            kind=kind,
            document=document,
            table_keys=table_keys or [],
        )
    )
    succeed(session, job)
    return job


def lock_dataset(session: Session, dataset_id: int, for_update: bool) -> None:
    """Lock the dataset's row before its results: deleting a dataset locks that row first, then
    its jobs and results (cascades), so taking the same order here makes a delete during a job
    wait for the job's commit instead of deadlocking with it (PostgreSQL; SQLite has no row
    locks). `for_update` when the transaction will update the row too."""
    lock = select(Dataset.id).where(Dataset.id == dataset_id)
    session.execute(lock.with_for_update(key_share=True, read=not for_update))


def fail_owned(session: Session, job_id: int, worker: str, code: str, message: str) -> None:
    fail(session, owned(session, job_id, worker), code, message)


def fail(session: Session, job: Job, code: str, message: str) -> None:
    job.status, job.stage, job.eta_s = JobStatus.failed, "failed", None
    job.error_code, job.error_message = code, message
    job.finished_at = now_utc()


def requeue_stale(session: Session, lease_s: float, resend_after_s: float) -> list[int]:
    """Jobs to send again, put back in the outbox (unsent): running ones whose heartbeat is
    older than the lease (their worker died), and queued ones sent longer ago than
    resend_after_s (their message was lost). A duplicate message is harmless: only one
    worker can claim a job."""
    now = now_utc()
    stale = repository.stale_running(session, now - timedelta(seconds=lease_s))
    for job in stale:
        job.status, job.stage, job.worker = JobStatus.queued, "requeued", None
        job.heartbeat_at = now
    forgotten = repository.long_queued(session, now - timedelta(seconds=resend_after_s))
    for job in [*stale, *forgotten]:
        job.sent_at = None
    return [job.id for job in [*stale, *forgotten]]


def mark_sent(session: Session, job: Job) -> None:
    job.sent_at = now_utc()
