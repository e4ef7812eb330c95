"""Thin Celery tasks: take a job id and hand it to the job runner."""

from celery import Task

from headroom.analyses.run import capacity_body
from headroom.core.settings import get_settings
from headroom.jobs.runner import ingest_body, run_job
from headroom_worker.app import app


@app.task(name="logs.ingest", bind=True, max_retries=None)
def ingest_log(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, ingest_body, on_transient=retry)


@app.task(name="capacity.analyze", bind=True, max_retries=None)
def analyze_capacity(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, capacity_body, on_transient=retry)
