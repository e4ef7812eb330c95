"""The Celery worker application: the shared configuration plus this package's tasks."""

import functools
import os
import threading

from celery.schedules import crontab
from celery.signals import worker_process_init, worker_ready, worker_shutting_down
from celery.worker.consumer import Consumer
from kombu import Connection

from headroom.core.db import forget_engines
from headroom.core.queue import make_celery
from headroom.core.settings import get_settings


class PromptConsumer(Consumer):
    """Retries a lost broker every second, forever (Celery's default backs off to 30 s and
    gives up after 100 tries): work resumes within seconds of the broker's return, and a
    SIGTERM during the outage is seen within a second."""

    def ensure_connected(self, conn: Connection) -> Connection:
        conn.ensure_connection = functools.partial(  # type: ignore[method-assign]
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=1
        )
        return super().ensure_connected(conn)


app = make_celery(get_settings())
app.conf.include = ["headroom_worker.tasks"]
app.conf.worker_consumer = "headroom_worker.app:PromptConsumer"
app.conf.broker_connection_max_retries = None
# run by one worker started with --beat (headroom worker --beat): re-import each Prometheus
# source's window every HEADROOM_SOURCE_REFRESH_INTERVAL_S (docs/sources.md), and the
# weekly report (docs/alerts.md)
app.conf.beat_schedule = {
    "refresh-sources": {
        "task": "sources.refresh_due",
        "schedule": get_settings().source_refresh_interval_s,
    },
    "alerts-weekly-report": {
        "task": "alerts.weekly_report",
        "schedule": crontab(
            minute=0,
            hour=get_settings().weekly_report_hour,
            day_of_week=get_settings().weekly_report_day,
        ),
    },
}


@worker_process_init.connect
def _fresh_connections_after_fork(**_: object) -> None:
    forget_engines(close_connections=False)


@worker_ready.connect
def _start_reaper(**_: object) -> None:
    from headroom_worker.reaper import start_reaper

    start_reaper(app, get_settings())


IDLE_EXIT_S = 1.0


@worker_shutting_down.connect
def _exit_promptly_when_idle(how: str = "", exitcode: int = 0, **_: object) -> None:
    """A warm shutdown of an idle worker exits within a second. Celery's own takes seconds
    (its pool's threads poll) and longer still when the broker is gone; with no task
    running there is nothing to wait for (a message it holds goes back to the queue, and
    the job table, not the broker, says what is left to do). The pool's processes die with
    this one (Celery sets their parent-death signal)."""
    from celery.worker import state

    if how != "Warm" or state.active_requests:
        return
    timer = threading.Timer(IDLE_EXIT_S, os._exit, args=(exitcode or 0,))
    timer.daemon = True
    timer.start()
