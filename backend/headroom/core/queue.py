"""The Celery application, configured from the same settings as the API.

The API only sends tasks by name; the worker package registers them. Without a broker
URL the filesystem transport is used: no server, fine for one machine.
"""

from celery import Celery

from headroom.core.settings import Settings

QUEUE = "headroom"


def make_celery(settings: Settings) -> Celery:
    app = Celery("headroom", broker=settings.resolved_broker_url())
    app.conf.update(
        task_default_queue=QUEUE,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        broker_transport_options=_transport_options(settings),
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
    # Redis: a message unacked this long is redelivered; the job lease (reaper) is what
    # normally recovers a dead worker's job much sooner.
    return {"visibility_timeout": max(3600, int(settings.job_lease_s * 10))}


def enqueue(settings: Settings, task_name: str, job_id: int) -> None:
    make_celery_cached(settings).send_task(task_name, args=[job_id], queue=QUEUE)


_apps: dict[tuple[str, str], Celery] = {}


def make_celery_cached(settings: Settings) -> Celery:
    key = (settings.resolved_broker_url(), str(settings.broker_folder()))
    if key not in _apps:
        _apps[key] = make_celery(settings)
    return _apps[key]
