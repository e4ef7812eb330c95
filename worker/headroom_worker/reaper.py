"""Housekeeping in every worker: re-queues jobs whose worker died (a running job with a stale
heartbeat goes back to the queue and is sent again, so another worker process finishes it),
and deletes resumable uploads abandoned past their expiry."""

import logging
import threading

from celery import Celery

from headroom.core.db import session_scope
from headroom.core.queue import QUEUE
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from headroom.uploads import service as uploads_service

log = logging.getLogger(__name__)


def reap_once(app: Celery, settings: Settings) -> list[int]:
    with session_scope(settings.resolved_database_url()) as session:
        job_ids = job_service.requeue_stale(
            session, settings.job_lease_s, settings.resend_queued_after_s
        )
        kinds = {job_id: session.get(Job, job_id).kind for job_id in job_ids}  # type: ignore[union-attr]
        uploads_service.purge_expired(session, open_store(settings.resolved_storage_url()))
    for job_id in job_ids:
        log.warning("job %s re-sent (its worker died or its message was lost)", job_id)
        app.send_task(kinds[job_id], args=[job_id], queue=QUEUE)
    return job_ids


def start_reaper(app: Celery, settings: Settings) -> threading.Thread:
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(settings.reaper_interval_s):
            try:
                reap_once(app, settings)
            except Exception:  # the reaper must outlive a database hiccup
                log.exception("reaper pass failed")

    thread = threading.Thread(target=loop, name="headroom-reaper", daemon=True)
    thread.start()
    return thread
