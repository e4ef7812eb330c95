from datetime import datetime
from typing import TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from headroom.jobs.models import DerivedRow, Job, JobStatus, Result

R = TypeVar("R", bound=DerivedRow)


def visible_job(session: Session, workspace_ids: list[int], job_id: int) -> Job | None:
    return session.scalar(select(Job).where(Job.id == job_id, Job.workspace_id.in_(workspace_ids)))


def latest_for_dataset(session: Session, dataset_id: int, kind: str) -> Job | None:
    return session.scalar(
        select(Job)
        .where(Job.dataset_id == dataset_id, Job.kind == kind)
        .order_by(Job.id.desc())
        .limit(1)
    )


def latest_for_datasets(session: Session, dataset_ids: list[int], kind: str) -> dict[int, Job]:
    """The latest job of `kind` of each of the datasets that has one, by dataset id."""
    if not dataset_ids:
        return {}
    latest = (
        select(func.max(Job.id))
        .where(Job.dataset_id.in_(dataset_ids), Job.kind == kind)
        .group_by(Job.dataset_id)
    )
    jobs = session.scalars(select(Job).where(Job.id.in_(latest)))
    return {job.dataset_id: job for job in jobs if job.dataset_id is not None}


def claim(
    session: Session, job_id: int, worker: str, now: datetime, stale_before: datetime
) -> bool:
    """Atomically take a queued job, or a running one whose worker stopped beating."""
    claimable = (Job.status == JobStatus.queued) | (
        (Job.status == JobStatus.running) & (Job.heartbeat_at < stale_before)
    )
    result = session.execute(
        update(Job)
        .where(Job.id == job_id, claimable)
        .values(
            status=JobStatus.running,
            worker=worker,
            heartbeat_at=now,
            started_at=now,
            attempts=Job.attempts + 1,
            error_code=None,
            error_message=None,
        )
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def stale_running(session: Session, stale_before: datetime) -> list[Job]:
    return list(
        session.scalars(
            select(Job).where(Job.status == JobStatus.running, Job.heartbeat_at < stale_before)
        )
    )


def long_queued(session: Session, sent_before: datetime) -> list[Job]:
    return list(
        session.scalars(
            select(Job).where(Job.status == JobStatus.queued, Job.sent_at < sent_before)
        )
    )


def result_for_job(session: Session, job_id: int) -> Result | None:
    return session.scalar(select(Result).where(Result.job_id == job_id))


def derived_visible(
    session: Session, model: type[R], workspace_ids: list[int], row_id: int
) -> R | None:
    """A derived result (jobs.derived) by id, if one of these workspaces holds it."""
    return session.scalar(
        select(model).where(model.id == row_id, model.workspace_id.in_(workspace_ids))
    )


def derived_page(
    session: Session, model: type[R], dataset_id: int, limit: int, offset: int
) -> tuple[list[R], int]:
    """A dataset's derived results of one kind, newest first, and how many there are."""
    scope = model.dataset_id == dataset_id
    query = select(model).where(scope).order_by(model.id.desc())
    rows = session.scalars(query.limit(limit).offset(offset))
    total = session.scalar(select(func.count()).select_from(model).where(scope)) or 0
    return list(rows), total


def derived_by_job(session: Session, model: type[R], job_id: int) -> R | None:
    return session.scalar(select(model).where(model.job_id == job_id))
