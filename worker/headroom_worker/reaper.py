"""Housekeeping in every worker, every reaper interval: re-queues jobs whose worker died (a
running job with a stale heartbeat goes back to the outbox, so another worker process
finishes it), finishes upload completions a client abandoned halfway, sends the outbox (jobs
the API could not send, e.g. while the broker was down), deletes resumable uploads abandoned
past their expiry, and now and then removes stored objects no row owns (the janitor)."""

import logging
import threading
import time

from celery import Celery

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.jobs import janitor
from headroom.jobs import service as job_service
from headroom.jobs.outbox import Outbox
from headroom.uploads import completion
from headroom.uploads import service as uploads_service

log = logging.getLogger(__name__)


def reap_once(app: Celery, settings: Settings, outbox: Outbox | None = None) -> list[int]:
    url, store = settings.resolved_database_url(), open_store(settings.resolved_storage_url())
    finished = completion.finish_abandoned(url, store, completion.ABANDONED_AFTER_S)
    for job_id in finished:
        log.warning("upload completion finished by the reaper: ingest job %s queued", job_id)
    with session_scope(url) as session:
        job_ids = job_service.requeue_stale(
            session, settings.job_lease_s, settings.resend_queued_after_s
        )
        uploads_service.purge_expired(session, store)
    for job_id in job_ids:
        log.warning("job %s re-queued (its worker died or its message was lost)", job_id)
    (outbox or Outbox(settings, app)).dispatch_once()
    return job_ids


def start_reaper(app: Celery, settings: Settings) -> threading.Thread:
    stop = threading.Event()
    outbox = Outbox(settings, app)

    next_sweep = time.monotonic() + settings.janitor_interval_s

    def loop() -> None:
        nonlocal next_sweep
        while not stop.wait(settings.reaper_interval_s):
            try:
                reap_once(app, settings, outbox)
                if time.monotonic() >= next_sweep:
                    next_sweep = time.monotonic() + settings.janitor_interval_s
                    janitor.sweep(settings)
            except Exception:  # the reaper must outlive a database hiccup
                log.exception("reaper pass failed")

    thread = threading.Thread(target=loop, name="headroom-reaper", daemon=True)
    thread.start()
    return thread
