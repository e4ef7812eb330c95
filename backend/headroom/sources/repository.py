from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from headroom.jobs.models import Job, Result
from headroom.sources.models import PrometheusSource, SlaBreach


def visible(session: Session, workspace_ids: list[int], source_id: int) -> PrometheusSource | None:
    return session.scalar(
        select(PrometheusSource).where(
            PrometheusSource.id == source_id, PrometheusSource.workspace_id.in_(workspace_ids)
        )
    )


def listed(session: Session, workspace_ids: list[int]) -> list[PrometheusSource]:
    query = select(PrometheusSource).where(PrometheusSource.workspace_id.in_(workspace_ids))
    return list(session.scalars(query.order_by(PrometheusSource.id)))


def of_dataset(session: Session, dataset_id: int) -> PrometheusSource | None:
    query = select(PrometheusSource).where(PrometheusSource.dataset_id == dataset_id)
    return session.scalar(query.limit(1))


def due(session: Session, refreshed_before: datetime) -> list[PrometheusSource]:
    """Sources on the schedule not refreshed since then and with no import under way."""
    never = PrometheusSource.last_refresh_at.is_(None)
    query = select(PrometheusSource).where(
        PrometheusSource.refresh.is_(True),
        never | (PrometheusSource.last_refresh_at < refreshed_before),
    )
    return [s for s in session.scalars(query) if not _running(session, s.job_id)]


def _running(session: Session, job_id: int | None) -> bool:
    job = session.get(Job, job_id) if job_id is not None else None
    return job is not None and job.status in ("queued", "running")


def older_results(session: Session, dataset_id: int, kind: str, keep_job_id: int) -> list[str]:
    """Deletes the dataset's earlier results of `kind`; returns the storage keys they held."""
    query = select(Result).where(
        Result.dataset_id == dataset_id, Result.kind == kind, Result.job_id != keep_job_id
    )
    old = list(session.scalars(query))
    keys = [k for r in old for k in r.table_keys]
    if old:
        session.execute(delete(Result).where(Result.id.in_([r.id for r in old])))
    return keys


def latest_result(session: Session, dataset_id: int, kind: str) -> Result | None:
    query = select(Result).where(Result.dataset_id == dataset_id, Result.kind == kind)
    return session.scalar(query.order_by(Result.id.desc()).limit(1))


def breaches(session: Session, dataset_id: int, limit: int, offset: int) -> list[SlaBreach]:
    """A dataset's SLA breaches, the latest range first."""
    query = select(SlaBreach).where(SlaBreach.dataset_id == dataset_id)
    query = query.order_by(SlaBreach.range_end.desc(), SlaBreach.id.desc())
    return list(session.scalars(query.limit(limit).offset(offset)))
