"""A result a job derives from a dataset (a capacity analysis, a workload characterization):
made once per input and reused when asked again, run again when its job died of our
fault, its job started after the commit. The domains keep their rows and documents."""

from typing import Protocol, TypeVar

from sqlalchemy.orm import Session

from headroom.core.settings import Settings
from headroom.jobs import outbox
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus

RERUN = frozenset({"internal_error", "transient_error"})  # failures that were not the input's


class Derived(Protocol):
    """A row of a derived result: whose it is, of which dataset, its newest job."""

    workspace_id: int
    dataset_id: int
    job_id: int | None


D = TypeVar("D", bound=Derived)


def rerun_if_broken(session: Session, row: Derived, task: str) -> Job | None:
    """A new job when the last one died of our fault (a bug, an outage), never for bad input:
    asking again is then how a user retries; the failed job stays on record."""
    job = session.get(Job, row.job_id) if row.job_id else None
    if job is not None and not (job.status == JobStatus.failed and job.error_code in RERUN):
        return None
    job = job_service.create(session, row.workspace_id, task, row.dataset_id)
    row.job_id = job.id
    return job


def start(session: Session, settings: Settings, row: D, job: Job | None) -> tuple[D, bool]:
    """The row, its job (if any) started after the commit; True when a job was started."""
    if job is not None:
        outbox.start(session, settings, job)
    return row, job is not None
