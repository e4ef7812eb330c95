"""The refresh schedule's tick: queue the imports that are due, then send them."""

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs.outbox import enqueue
from headroom.sources.service import IMPORT_TASK, queue_due


def refresh_due(settings: Settings) -> list[int]:
    with session_scope(settings.resolved_database_url()) as session:
        job_ids = queue_due(session, settings)
    for job_id in job_ids:
        enqueue(settings, IMPORT_TASK, job_id)
    return job_ids
