"""Job progress as the UI shows it: fraction done, stage and an ETA, written at most every
few percent (or seconds) so a fast job does not spend its time writing progress."""

import time

from sqlalchemy import update

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus


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


def add_progress(settings: Settings, job_id: int, worker: str, delta: float, stage: str) -> None:
    """Adds a finished part's share atomically (parts finish in parallel, in any order)."""
    with session_scope(settings.resolved_database_url()) as session:
        done = session.execute(
            update(Job)
            .where(Job.id == job_id, Job.worker == worker, Job.status == JobStatus.running)
            .values(progress=Job.progress + delta, stage=stage, heartbeat_at=job_service.now_utc())
            .execution_options(synchronize_session=False)
        )
        if not done.rowcount:  # type: ignore[attr-defined]
            raise job_service.JobLost(f"job {job_id} is no longer held by {worker}")
        job = session.get(Job, job_id)
        if job is not None and job.started_at is not None:
            job.eta_s = eta_from(
                (job_service.now_utc() - job.started_at).total_seconds(), min(job.progress, 1.0)
            )
