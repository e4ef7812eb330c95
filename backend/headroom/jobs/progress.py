"""Job progress as the UI shows it: fraction done, stage and an ETA, written at most every
few percent (or seconds) so a fast job does not spend its time writing progress."""

import time

from sqlalchemy import case, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobPart, JobStatus


class ProgressReporter:
    def __init__(
        self,
        settings: Settings,
        job_id: int,
        worker: str,
        min_step: float = 0.02,
        min_interval_s: float = 2.0,
    ) -> None:
        self.url = settings.resolved_database_url()
        self.job_id, self.worker = job_id, worker
        self.min_step, self.min_interval_s = min_step, min_interval_s
        self.started = time.monotonic()
        self.last_fraction, self.last_time, self.last_stage = -1.0, 0.0, ""

    def __call__(self, fraction: float, stage: str) -> None:
        now = time.monotonic()
        due = fraction - self.last_fraction >= self.min_step or (
            now - self.last_time >= self.min_interval_s
        )
        if stage == self.last_stage and not due:
            return
        eta_s = eta_from(now - self.started, fraction)
        with session_scope(self.url) as session:
            job_service.report(session, self.job_id, self.worker, fraction, stage, eta_s)
        self.last_fraction, self.last_time, self.last_stage = fraction, now, stage


def eta_from(elapsed_s: float, fraction: float) -> float | None:
    return elapsed_s * (1 - fraction) / fraction if fraction > 0.01 else None


def part_done(
    settings: Settings, job_id: int, worker: str, part_index: int, share: float, stage: str
) -> None:
    """Records a finished part (parts finish in parallel, in any order, and a retried part
    or a re-run job finishes the same part again): the progress is the sum of the distinct
    parts' shares, clamped to [0, 1], and never goes back."""
    with session_scope(settings.resolved_database_url()) as session:
        job_service.owned(session, job_id, worker)
        _record_part(session, job_id, part_index, share)
        total = session.scalar(select(func.sum(JobPart.share)).where(JobPart.job_id == job_id))
        fraction = min(max(float(total or 0.0), 0.0), 1.0)
        done = session.execute(
            update(Job)
            .where(Job.id == job_id, Job.worker == worker, Job.status == JobStatus.running)
            .values(
                progress=case((Job.progress < fraction, fraction), else_=Job.progress),
                stage=stage,
                heartbeat_at=job_service.now_utc(),
            )
            .execution_options(synchronize_session=False)
        )
        if not done.rowcount:  # type: ignore[attr-defined]
            raise job_service.JobLost(f"job {job_id} is no longer held by {worker}")
        job = session.get(Job, job_id)
        if job is not None:
            session.refresh(job)
        if job is not None and job.started_at is not None:
            job.eta_s = eta_from((job_service.now_utc() - job.started_at).total_seconds(), fraction)


def _record_part(session: Session, job_id: int, part_index: int, share: float) -> None:
    if session.get(JobPart, (job_id, part_index)) is not None:
        return
    try:
        with session.begin_nested():
            session.add(JobPart(job_id=job_id, part_index=part_index, share=share))
    except IntegrityError:  # the same part, finished at the same moment by a duplicate
        pass
