"""The Celery application, configured from the same settings as the API.

The API only sends tasks by name; the worker package registers them. Without a broker
URL the filesystem transport is used: no server, fine for one machine.
"""

from celery import Celery

from headroom.core.settings import Settings

QUEUE = "headroom"
# a worker process's imports alone hold about 250 MB: below this, every task would restart it
RECYCLE_FLOOR_MB = 512


def result_backend(settings: Settings) -> str | None:
    """Chords (parallel ingest, sweeps) need a result backend; Redis serves as both. The
    filesystem broker has none: there, work a chord would spread runs in one task."""
    broker = settings.resolved_broker_url()
    return broker if broker.startswith(("redis", "rediss")) else None


def recycle_above_mb(settings: Settings) -> int:
    """A pool process that ends a task above this (a large map or reduce whose freed memory
    the allocator kept) is replaced before its next task."""
    return max(settings.memory_budget_mb, RECYCLE_FLOOR_MB)


def make_celery(settings: Settings) -> Celery:
    broker = settings.resolved_broker_url()
    backend = result_backend(settings)
    app = Celery("headroom", broker=broker, backend=backend)
    app.conf.update(
        task_default_queue=QUEUE,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        worker_max_memory_per_child=recycle_above_mb(settings) * 1024,  # kB
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        result_expires=24 * 3600,
        broker_transport_options=_transport_options(settings),
        # Bounded waits on a broker that is down: a send fails fast (the outbox sends it
        # again), and the worker retries its connection every second, so work resumes
        # within seconds of the broker's return and a SIGTERM is honoured promptly.
        broker_connection_timeout=2.0,
        redis_socket_connect_timeout=2.0,
        redis_socket_timeout=10.0,
        redis_retry_on_timeout=False,
        task_publish_retry=False,
    )
    return app


def _transport_options(settings: Settings) -> dict[str, object]:
    if settings.resolved_broker_url().startswith("filesystem"):
        folder = settings.broker_folder()
        for sub in ("queue", "processed", "control"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        return {
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "processed_folder": str(folder / "processed"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
        }
    # Redis redelivers a message unacked this long. Short, so a dead worker's parallel parts
    # come back quickly; a long task redelivered while still running is harmless, because a
    # job whose lease is alive cannot be claimed twice.
    return {
        "visibility_timeout": max(int(settings.job_lease_s / 2), 5),
        "socket_connect_timeout": 2.0,
        "socket_timeout": 10.0,
    }


_apps: dict[tuple[str, str], Celery] = {}


def make_celery_cached(settings: Settings) -> Celery:
    key = (settings.resolved_broker_url(), str(settings.broker_folder()))
    if key not in _apps:
        _apps[key] = make_celery(settings)
    return _apps[key]
