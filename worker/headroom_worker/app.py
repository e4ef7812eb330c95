"""The Celery worker application: the shared configuration plus this package's tasks."""

from celery.signals import worker_process_init, worker_ready

from headroom.core.db import get_engine, get_sessionmaker
from headroom.core.queue import make_celery
from headroom.core.settings import get_settings

app = make_celery(get_settings())
app.conf.include = ["headroom_worker.tasks"]


@worker_process_init.connect
def _fresh_connections_after_fork(**_: object) -> None:
    get_engine.cache_clear()
    get_sessionmaker.cache_clear()


@worker_ready.connect
def _start_reaper(**_: object) -> None:
    from headroom_worker.reaper import start_reaper

    start_reaper(app, get_settings())
