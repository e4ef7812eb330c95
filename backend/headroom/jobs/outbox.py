"""The job table is the outbox: a request commits its job as queued and unsent, and a
dispatcher sends it to the broker afterwards, so no request ever waits on (or fails with)
the broker. Sending is at least once (two dispatchers may both send a job, a crash may come between
the send and its mark): a duplicate message is harmless, because only one worker can
claim a job.

In the API process a dispatcher thread runs while there is something to send (woken by
`notify`, retrying every second while the broker is down); in a worker it runs on the
reaper's timer. When a send succeeds after a failed one, every queued job is sent again:
messages already in a broker that restarted empty are gone.
"""

import atexit
import logging
import threading
import time
from datetime import datetime

from celery import Celery
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from headroom.core.db import session_scope
from headroom.core.queue import QUEUE, make_celery_cached
from headroom.core.settings import Settings
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.service import now_utc

log = logging.getLogger(__name__)
BATCH = 200
RETRY_INTERVAL_S = 1.0
FLUSH_AT_EXIT_S = 3.0
GIVE_UP_AFTER_S = 120.0  # then the workers' reapers send what is left


def unsent(session: Session, limit: int = BATCH) -> list[tuple[int, str]]:
    """Queued jobs not sent yet, oldest first: (id, task name)."""
    rows = session.execute(
        select(Job.id, Job.kind)
        .where(Job.status == JobStatus.queued, Job.sent_at.is_(None))
        .order_by(Job.id)
        .limit(limit)
    ).all()
    return [(int(job_id), str(kind)) for job_id, kind in rows]


def mark_sent(session: Session, job_ids: list[int], now: datetime) -> None:
    if job_ids:
        session.execute(
            update(Job)
            .where(Job.id.in_(job_ids), Job.sent_at.is_(None))
            .values(sent_at=now)
            .execution_options(synchronize_session=False)
        )


def sent(settings: Settings, job_id: int) -> None:
    """A job sent directly (not by a dispatcher) leaves the outbox."""
    with session_scope(settings.resolved_database_url()) as session:
        mark_sent(session, [job_id], now_utc())


def resend_queued(session: Session, sent_before: datetime) -> int:
    """Queued jobs sent before `sent_before` go back to unsent (their message may be lost)."""
    done = session.execute(
        update(Job)
        .where(Job.status == JobStatus.queued, Job.sent_at < sent_before)
        .values(sent_at=None)
        .execution_options(synchronize_session=False)
    )
    return int(done.rowcount)  # type: ignore[attr-defined]


class Outbox:
    """Sends unsent jobs of one database to one broker; remembers whether the broker was
    down, to re-send everything queued when it comes back."""

    def __init__(self, settings: Settings, app: Celery | None = None) -> None:
        self.settings = settings
        self.app = app or make_celery_cached(settings)
        self.down_since: datetime | None = None

    def dispatch_once(self) -> int:
        """Sends what is unsent; returns how many jobs are still waiting (0: all sent).
        A job is marked sent after its message went out, so a crash in between sends it
        twice rather than never."""
        url = self.settings.resolved_database_url()
        while True:
            with session_scope(url) as session:
                batch = unsent(session)
            sent = self._send(batch)
            if sent:
                with session_scope(url) as session:
                    mark_sent(session, sent, now_utc())
            if len(sent) < len(batch):
                return len(batch) - len(sent)
            if len(batch) < BATCH:
                return 0

    def _send(self, batch: list[tuple[int, str]]) -> list[int]:
        sent = []
        for job_id, kind in batch:
            try:
                self.app.send_task(kind, args=[job_id], queue=QUEUE, retry=False)
            except Exception as error:
                if self.down_since is None:
                    self.down_since = now_utc()
                    log.warning("broker unreachable, jobs wait in the outbox: %s", error)
                break
            sent.append(job_id)
            if self.down_since is not None:
                self._broker_back()
        return sent

    def _broker_back(self) -> None:
        self.down_since = None
        with session_scope(self.settings.resolved_database_url()) as session:
            count = resend_queued(session, now_utc())
        log.warning("broker is back: %s queued jobs sent again", count)


class Dispatcher:
    """A thread that drains the outbox and stops when it is empty (the API's)."""

    def __init__(self, settings: Settings) -> None:
        self.outbox = Outbox(settings)
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None
        # a short-lived process (a CLI command) sends its jobs before it exits; what it
        # cannot send, a worker's reaper sends
        atexit.register(self.flush, FLUSH_AT_EXIT_S)

    def flush(self, timeout_s: float) -> None:
        thread = self.thread
        if thread is not None:
            thread.join(timeout_s)

    def notify(self) -> None:
        with _lock:
            self.wake.set()
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(
                    target=self._run, name="headroom-outbox", daemon=True
                )
                self.thread.start()

    def _run(self) -> None:
        failing_since: float | None = None
        while True:
            self.wake.clear()
            try:
                waiting = self.outbox.dispatch_once()
            except Exception:  # a database hiccup: try again shortly
                log.exception("outbox pass failed")
                waiting = 1
            if waiting:
                failing_since = failing_since or time.monotonic()
                if time.monotonic() - failing_since < GIVE_UP_AFTER_S:
                    self.wake.wait(RETRY_INTERVAL_S)
                    continue
            else:
                failing_since = None
            with _lock:
                if not self.wake.is_set():
                    self.thread = None
                    return


_lock = threading.Lock()
_dispatchers: dict[tuple[str, str], Dispatcher] = {}


def start(session: Session, settings: Settings, job: Job) -> None:
    """Commit the request's unit of work, then have the job sent: a worker must find it
    queued. Services call it; routers neither commit nor enqueue."""
    session.commit()
    enqueue(settings, job.kind, job.id)


def enqueue(settings: Settings, task_name: str, job_id: int) -> None:
    """The job (committed as queued; its kind is `task_name`) goes to the broker from the
    outbox, in the background: this returns at once, whether or not the broker is up."""
    notify(settings)


def notify(settings: Settings) -> None:
    """Have this process's dispatcher send the outbox now (returns at once)."""
    key = (settings.resolved_database_url(), settings.resolved_broker_url())
    with _lock:
        if key not in _dispatchers:
            _dispatchers[key] = Dispatcher(settings)
        dispatcher = _dispatchers[key]
    dispatcher.notify()
