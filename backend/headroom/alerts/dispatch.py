"""Queued deliveries go to the worker's `alerts.deliver` task once their rows are
committed; a delivery the broker would not take is failed at once, visibly."""

import logging

from headroom.alerts.models import AlertDelivery, DeliveryStatus
from headroom.core.db import session_scope
from headroom.core.queue import make_celery_cached
from headroom.core.settings import Settings
from headroom.core.types import utcnow

DELIVER_TASK = "alerts.deliver"
log = logging.getLogger(__name__)


def dispatch(settings: Settings, delivery_ids: list[int]) -> None:
    if not delivery_ids:
        return
    app = make_celery_cached(settings)
    for delivery_id in delivery_ids:
        try:
            app.send_task(DELIVER_TASK, args=[delivery_id], retry=False)
        except Exception as error:
            log.warning("delivery %s could not be queued", delivery_id, exc_info=True)
            _unqueued(settings, delivery_id, f"the task queue could not be reached: {error}")


def _unqueued(settings: Settings, delivery_id: int, message: str) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        delivery = session.get(AlertDelivery, delivery_id)
        if delivery is not None and delivery.status == DeliveryStatus.queued:
            delivery.status, delivery.last_error = DeliveryStatus.failed, message
            delivery.finished_at = utcnow()
