"""The SQL of live datasets: found by their identity digest (the dataset's `sha256` column,
unique per workspace), and the results that hold their tables."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.datasets.models import Dataset
from headroom.jobs.models import Job, Result


def by_identity(session: Session, workspace_id: int, digest: str) -> Dataset | None:
    return session.scalar(
        select(Dataset).where(Dataset.workspace_id == workspace_id, Dataset.sha256 == digest)
    )


def result_of_kind(session: Session, dataset_id: int, job_kind: str) -> Result | None:
    """The result of the dataset's latest job of `job_kind`."""
    return session.scalar(
        select(Result)
        .join(Job, Job.id == Result.job_id)
        .where(Job.dataset_id == dataset_id, Job.kind == job_kind)
        .order_by(Job.id.desc())
        .limit(1)
    )


def latest_job(session: Session, dataset_id: int, job_kind: str) -> Job | None:
    return session.scalar(
        select(Job)
        .where(Job.dataset_id == dataset_id, Job.kind == job_kind)
        .order_by(Job.id.desc())
        .limit(1)
    )
