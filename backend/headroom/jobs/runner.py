"""Runs a job body under a lease: claim, heartbeat, and map errors to job states.

Used by the Celery tasks and by in-process runs (the demo seed)."""

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from botocore.exceptions import ConnectionError as StoreUnreachable
from botocore.exceptions import HTTPClientError
from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import ConnectionError as RedisUnreachable
from sqlalchemy.exc import OperationalError

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import StorageError
from headroom.datasets import ingest
from headroom.datasets.ingest_outputs import mark_failed
from headroom.engine.logs import LogInputError
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.progress import ProgressReporter

log = logging.getLogger(__name__)
# a database, a broker (a job that sends its parts) or an S3 store that cannot be reached
# or times out, once the clients' own retries are spent
TRANSIENT = (
    OperationalError,
    BrokerUnreachable,
    RedisUnreachable,
    ConnectionError,
    TimeoutError,
    StoreUnreachable,
    HTTPClientError,
)
OnTransient = Callable[[Exception, int], None]  # (error, attempts so far); raise to retry


@dataclass(frozen=True)
class JobContext:
    settings: Settings
    job_id: int
    worker: str  # who holds the lease; every write checks it still does


Body = Callable[[JobContext], None]


def run_job(
    settings: Settings, job_id: int, body: Body, on_transient: OnTransient | None = None
) -> bool:
    """Returns False when the job was not ours to run (done, or held by a live worker)."""
    context = JobContext(settings, job_id, _worker_name())
    with session_scope(settings.resolved_database_url()) as session:
        if not job_service.claim(session, job_id, context.worker, settings.job_lease_s):
            log.info("job %s is done or held by a live worker; skipping", job_id)
            return False
    with Heartbeat(context):
        try:
            body(context)
        except job_service.JobLost:
            log.warning("job %s: lease lost to another worker; stopping", job_id)
        except LogInputError as error:
            mark_failed(settings, job_id, error.code, error.message, context.worker)
        except StorageError as error:
            mark_failed(settings, job_id, "storage_error", str(error), context.worker)
        except TRANSIENT as error:
            _transient(settings, job_id, error, on_transient)
        except Exception as error:
            log.exception("job %s failed", job_id)
            mark_failed(
                settings,
                job_id,
                "internal_error",
                f"unexpected error: {type(error).__name__}: {error}",
                context.worker,
            )
    return True


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _transient(
    settings: Settings, job_id: int, error: Exception, on_transient: OnTransient | None
) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        attempts = job.attempts if job else 0
        retry = on_transient is not None and attempts <= settings.task_max_retries
        if retry and job is not None:
            job.status, job.stage, job.worker = JobStatus.queued, "retrying", None
    if not retry or on_transient is None:
        message = f"gave up after {attempts} attempts: {error}"
        mark_failed(settings, job_id, "transient_error", message)
        return
    on_transient(error, attempts)


class Heartbeat:
    """Keeps the job's lease fresh while the body runs (a thread, every lease/5 s), so a short
    lease does not expire under a live worker; a dead worker stops beating at once."""

    def __init__(self, context: JobContext) -> None:
        self.context = context
        self.interval_s = max(context.settings.job_lease_s / 5, 0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=self._beat, daemon=True, name=f"heartbeat-{context.job_id}"
        )

    def __enter__(self) -> "Heartbeat":
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()

    def _beat(self) -> None:
        url = self.context.settings.resolved_database_url()
        while not self.stop.wait(self.interval_s):
            try:
                with session_scope(url) as session:
                    job_service.heartbeat(session, self.context.job_id, self.context.worker)
            except job_service.JobLost:
                return
            except Exception:
                log.exception("heartbeat of job %s failed", self.context.job_id)


def ingest_body(context: JobContext) -> None:
    """In-process ingest (demo, tests): always one pass, however large the file."""
    prepared = ingest.prepare(context.settings, context.job_id, context.worker)
    report = ProgressReporter(context.settings, context.job_id, context.worker)
    ingest.run_sequential(context.settings, prepared, context.job_id, context.worker, report)
