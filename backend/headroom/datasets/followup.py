"""What an ingest starts when it finishes: the characterization of the dataset under its
stored (or default) rules, so the dataset page's Traffic, Latency and Workload tabs fill
in without a click. The row and its queued job are committed before the task is sent; a
lost message is resent by the reaper like any queued job."""

from sqlalchemy.exc import IntegrityError

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset, DatasetStatus

TRACE_PREFIX = "trace_"  # latency traces feed the SCT analysis, not the workload tabs


def queue_characterization(settings: Settings, dataset_id: int) -> int | None:
    """The queued job of a new characterization of a ready log dataset, or None (not a
    ready log, or a characterization under its rules exists already)."""
    from headroom.characterizations import repository
    from headroom.characterizations import service as characterizations
    from headroom.characterizations.models import Characterization
    from headroom.jobs import service as job_service

    with session_scope(settings.resolved_database_url()) as session:
        dataset = session.get(Dataset, dataset_id)
        if dataset is None or dataset.status != DatasetStatus.ready:
            return None
        if (dataset.format or "").startswith(TRACE_PREFIX):
            return None
        document = characterizations.rules_document(
            characterizations.stored_rules(session, dataset.id)
        )
        key = characterizations.rules_key(document)
        if repository.by_rules(session, dataset.id, key) is not None:
            return None
        job = job_service.create(
            session, dataset.workspace_id, characterizations.CHARACTERIZE_TASK, dataset.id
        )
        session.add(
            Characterization(
                workspace_id=dataset.workspace_id,
                dataset_id=dataset.id,
                rules=document,
                rules_key=key,
                job_id=job.id,
                created_by_id=dataset.uploaded_by_id,
            )
        )
        try:
            session.flush()
        except IntegrityError:  # a user asked for it at the same moment: theirs stands
            session.rollback()
            return None
        return job.id
